package riskmodel

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A flood written to a script first and then run is the same flood (docs/policy.md: judge
// the effect, followed through files the request writes and then runs): `cat > load.sh
// <<'EOF' … while :; do curl …; done … EOF; bash load.sh`, or printf '…' > f.sh && sh f.sh.
// sys.runaway reads only the request's own text, so the bodies the request writes with a
// here-document or printf/echo are read here, and judged the same way when a later command
// of the request runs the file.

// writtenScripts returns the bodies the request's shell text writes to files, by base name.
func writtenScripts(src string) map[string]string {
	if len(src) > maxRunawayText || !strings.Contains(src, ">") {
		return nil
	}
	f, err := parseBash(src)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		name := baseName(litWord(call.Args[0]))
		for _, r := range st.Redirs {
			target := ""
			switch {
			case (r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.ClbOut) && r.Word != nil:
				target = litWord(r.Word)
			case name == "tee" && len(call.Args) > 1:
				target = litWord(call.Args[len(call.Args)-1])
			}
			if target == "" {
				continue
			}
			for _, h := range st.Redirs {
				if (h.Op == syntax.Hdoc || h.Op == syntax.DashHdoc) && h.Hdoc != nil {
					if a, b := int(h.Hdoc.Pos().Offset()), int(h.Hdoc.End().Offset()); a >= 0 && b <= len(src) && a < b {
						out[path.Base(target)] = src[a:b]
					}
				}
			}
			if (name == "printf" || name == "echo") && len(call.Args) > 1 {
				body := litWord(call.Args[len(call.Args)-1])
				if name == "printf" {
					body = litWord(call.Args[1])
				}
				out[path.Base(target)] = strings.ReplaceAll(body, `\n`, "\n")
			}
		}
		return true
	})
	return out
}

// writtenRunaway says why s runs a script the request wrote that floods, "" when it does not.
func writtenRunaway(c *execCtx, s *Segment) string {
	if len(s.Args) == 0 {
		return ""
	}
	file := s.Args[0]
	if n := baseName(file); (shells.get()[n] || n == "source" || n == ".") && len(s.Args) > 1 {
		file = s.Args[1]
	}
	if !strings.Contains(file, "/") && !strings.HasSuffix(file, ".sh") && !strings.HasSuffix(file, ".bash") {
		return ""
	}
	base := path.Base(file)
	for _, a := range c.req.Command {
		body, ok := writtenScripts(a)[base]
		if !ok {
			continue
		}
		if why := runawayText(body, 1); why != "" {
			return "Runs " + file + ", which this command writes and which " + why
		}
	}
	return ""
}
