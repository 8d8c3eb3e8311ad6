package riskmodel

import "strings"

// shellArgv is the argv an MCP shell tool runs a command line with. Tools that run commands
// on Windows take the shell as an argument (Desktop Commander's execute_command {"shell":
// "powershell.exe"}, "cmd.exe"): the line is PowerShell or cmd text then, read by their
// own front ends (r18win_pwsh.go), not bash. Source: wonderwhy-er/DesktopCommanderMCP,
// execute_command's schema.
func (c *mcpCtx) shellArgv(line string) []string {
	if a, ok := c.top("shell"); ok && a.str {
		sh := strings.ToLower(a.val)
		if i := strings.LastIndexAny(sh, `\/`); i >= 0 {
			sh = sh[i+1:]
		}
		switch strings.TrimSuffix(sh, ".exe") {
		case "powershell", "pwsh":
			return []string{"pwsh", "-NoProfile", "-Command", line}
		case "cmd":
			return []string{"cmd", "/c", line}
		}
	}
	return []string{"bash", "-c", line}
}
