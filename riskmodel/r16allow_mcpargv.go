package riskmodel

import "strings"

// CLI-runner MCP servers take the command line either as one string ({"args": "auth
// print-access-token"}, runnerArgs) or as an argv array: Google's gcloud MCP server's
// run_gcloud_command takes {"args": ["auth", "print-access-token"]} (github.com/googleapis/
// gcloud-mcp, tool run_gcloud_command), kubectl and docker servers do the same. The array is
// the CLI's argv and is judged as that command line.

// runnerArgv returns the command line of an argv array under one of mcpRunnerKeys, the
// CLI's name first, "" when the call has none.
func (c *mcpCtx) runnerArgv(cli string) string {
	for _, k := range mcpRunnerKeys {
		var words []string
		for _, a := range c.args {
			if a.depth != 2 || !a.str || !strings.HasPrefix(a.path, k+"[") || strings.Contains(a.path[len(k):], ".") {
				continue
			}
			words = append(words, shellQuote(a.val))
		}
		if len(words) == 0 {
			continue
		}
		if strings.Trim(words[0], `'`) != cli {
			words = append([]string{cli}, words...)
		}
		return strings.Join(words, " ")
	}
	return ""
}
