package riskmodel

import "strings"

// PowerShell and cmd command lines. An agent on Windows runs "powershell -Command TEXT",
// "cmd /c TEXT", or an MCP shell tool told {"shell": "powershell.exe"}; the text is close
// enough to shell syntax (words, ";", "|", "&&", redirections) to be walked as shell once
// the spellings that mean something else in bash are made literal: "\" is a path separator,
// not an escape; "$env:NAME", "$true" and "$false" are PowerShell values, not shell
// variables; "`" is PowerShell's escape, not command substitution; "(cmd)" as an argument is
// the command's output, like "$(cmd)". The cmdlets and cmd built-ins that have a Unix
// counterpart are then read as it (Remove-Item -Recurse -Force → rm -r -f), so that every
// rule written for rm, cp, cat, curl or "| sh" judges them too.
// Sources: Microsoft Learn, about_Parsing, about_Quoting_Rules, about_Special_Characters,
// about_Environment_Variables, about_Aliases (the built-in aliases), and the cmdlet
// references of Remove-Item, Copy-Item, Move-Item, Get-Content, Invoke-WebRequest,
// Invoke-RestMethod, Invoke-Expression, Start-Process; cmd's built-ins (copy, del, rd, type).

// winShellVia marks the walk of text a Windows shell runs; the cmd built-ins are read as
// their Unix counterparts only below it.
const winShellVia = "windows shell"

// winShellAsBash rewrites PowerShell or cmd text into bash text with the same words, or
// reports false when the text uses syntax that has no shell reading (script blocks,
// hashtables, .NET calls): that text is left to the interpreter's own inspection.
func winShellAsBash(code string, pwsh bool) (string, bool) {
	if pwsh && (strings.ContainsAny(code, "{}") || strings.Contains(code, "@(") || strings.Contains(code, "]::")) {
		return "", false
	}
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(code); i++ {
		ch := code[i]
		switch {
		case quote == '\'':
			if ch == '\'' {
				quote = 0
			}
			b.WriteByte(ch)
		case ch == '\'' && pwsh:
			quote = '\''
			b.WriteByte(ch)
		case ch == '"':
			if quote == '"' {
				quote = 0
			} else {
				quote = '"'
			}
			b.WriteByte(ch)
		case ch == '\\':
			b.WriteString(`\\`)
		case ch == '`' && pwsh:
			if i+1 < len(code) && code[i+1] == '\n' {
				b.WriteByte(' ')
				i++
				continue
			}
			b.WriteString("\\`")
		case ch == '$' && pwsh && pwshLiteralVar(code[i:]):
			b.WriteString(`\$`)
		case ch == '(' && pwsh && quote == 0 && i > 0 && (code[i-1] == ' ' || code[i-1] == '\t'):
			b.WriteString("$(")
		default:
			b.WriteByte(ch)
		}
	}
	if quote != 0 {
		return "", false
	}
	return b.String(), true
}

// pwshLiteralVar reports a PowerShell variable that is a fixed value or names a known
// place: $env:NAME (read through catalog.FromWindows), $true, $false, $null.
func pwshLiteralVar(s string) bool {
	l := strings.ToLower(s)
	for _, p := range []string{"$env:", "$true", "$false", "$null"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// winCommand is the Unix reading of a cmdlet or cmd built-in: the program, the flags each
// named parameter becomes ("" drops the parameter, a value parameter keeps its value as a
// positional word), and whether the name is a cmd built-in (read so only below
// winShellVia, where "copy" and "type" cannot be a Unix program of that name).
type winCommand struct {
	as      string
	flags   map[string]string // lower-case parameter (without "-" or "/") → flag
	values  map[string]string // parameter taking a value → flag put before it ("" = positional)
	builtin bool
}

var winCommands = table[map[string]winCommand]{build: func() map[string]winCommand {
	rm := winCommand{as: "rm", flags: map[string]string{"recurse": "-r", "r": "-r", "force": "-f", "s": "-r", "q": "-f", "f": "-f"},
		values: map[string]string{"path": "", "literalpath": ""}}
	cp := winCommand{as: "cp", flags: map[string]string{"recurse": "-r", "force": "-f", "y": "-f"},
		values: map[string]string{"path": "", "literalpath": "", "destination": ""}}
	mv := winCommand{as: "mv", flags: map[string]string{"force": "-f", "y": "-f"},
		values: map[string]string{"path": "", "literalpath": "", "destination": ""}}
	cat := winCommand{as: "cat", values: map[string]string{"path": "", "literalpath": ""}}
	ls := winCommand{as: "ls", flags: map[string]string{"recurse": "-R", "force": "-a", "s": "-R"}, values: map[string]string{"path": "", "literalpath": "", "filter": ""}}
	web := winCommand{as: "curl", values: map[string]string{"uri": "", "outfile": "-o", "infile": "-T", "method": "-X", "body": "-d"}}
	iex := winCommand{as: "sh", values: map[string]string{"command": "-c"}}
	m := map[string]winCommand{
		"remove-item": rm, "ri": rm, "del": rm, "erase": rm, "rd": rm, "rmdir": rm,
		"copy-item": cp, "cpi": cp, "copy": cp, "move-item": mv, "mi": mv, "move": mv,
		"get-content": cat, "gc": cat, "type": cat,
		"get-childitem": ls, "gci": ls, "dir": ls,
		"invoke-webrequest": web, "iwr": web, "invoke-restmethod": web, "irm": web,
		"invoke-expression": iex, "iex": iex,
	}
	for _, b := range []string{"del", "erase", "rd", "rmdir", "copy", "move", "type", "dir"} {
		c := m[b]
		c.builtin = true
		m[b] = c
	}
	return m
}}

// winCommandArgs returns the Unix reading of a cmdlet or built-in segment, or nil.
func winCommandArgs(args []string, ctx walkCtx) []string {
	win := viaHas(ctx, winShellVia) || viaHas(ctx, "cmd") || viaHas(ctx, "cmd.exe")
	if len(args) == 0 || !win && !strings.Contains(args[0], "-") {
		return nil // the aliases (iex is also Elixir's shell) only below a Windows shell
	}
	if l := strings.ToLower(args[0]); l == "start-process" || l == "saps" || l == "start" && win {
		return startProcessArgs(args[1:])
	}
	w, ok := winCommands.get()[strings.ToLower(args[0])]
	if !ok || !win && !strings.Contains(args[0], "-") {
		return nil
	}
	out := []string{w.as}
	var pos []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		if len(a) > 1 && (a[0] == '-' || a[0] == '/' && w.builtin && len(a) <= 3) {
			p := strings.ToLower(a[1:])
			if j := strings.IndexByte(p, ':'); j > 0 {
				p = p[:j] // -Confirm:$false
			}
			if f, ok := w.flags[p]; ok {
				if f != "" {
					out = append(out, f)
				}
				continue
			}
			if f, ok := w.values[p]; ok {
				if i+1 < len(args) {
					i++
					if f != "" {
						out = append(out, f, args[i])
					} else {
						pos = append(pos, args[i])
					}
				}
				continue
			}
			continue // a switch with no Unix reading (-Confirm, -UseBasicParsing)
		}
		pos = append(pos, a)
	}
	if w.builtin && (w.as == "cp" || w.as == "mv") && len(pos) > 2 {
		// copy A C:\Start Menu\B: cmd passes the line to copy whole, and an unquoted
		// destination with spaces is read as the agent meant it, one path.
		pos = []string{pos[0], strings.Join(pos[1:], " ")}
	}
	if w.as == "sh" && len(pos) > 0 {
		return append(out, "-c", strings.Join(pos, " ")) // iex TEXT runs TEXT as code
	}
	return append(out, pos...)
}

// pwshAsShell walks PowerShell code as shell when it has a shell reading; the commands it
// runs are then judged one by one, so the code is no longer opaque.
func (x *extractor) pwshAsShell(code string, facts *CodeFacts, ctx walkCtx) {
	sh, ok := winShellAsBash(code, true)
	if !ok {
		return
	}
	if _, err := parseBash(sh); err != nil {
		return
	}
	c := ctx.with(winShellVia)
	c.depth++
	c.pipeIn = nil
	x.script(sh, c)
	facts.Opaque = ""
}

// startProcessArgs reads Start-Process FILE [-ArgumentList ARGS] [-Verb RunAs] as the
// command line it starts, elevated (sudo) with RunAs: sh -c "[sudo] FILE ARGS", so the
// started program is judged like any other. Source: Microsoft Learn, Start-Process.
func startProcessArgs(args []string) []string {
	var file, list string
	elevated := false
	for i := 0; i < len(args); i++ {
		p := strings.ToLower(strings.TrimLeft(args[i], "-"))
		switch {
		case strings.HasPrefix(args[i], "-") && (p == "filepath" || p == "file" || p == "path") && i+1 < len(args):
			i++
			file = args[i]
		case strings.HasPrefix(args[i], "-") && (p == "argumentlist" || p == "args") && i+1 < len(args):
			i++
			list = strings.Join(args[i:], " ")
			i = len(args)
		case strings.HasPrefix(args[i], "-") && p == "verb" && i+1 < len(args):
			i++
			elevated = strings.EqualFold(args[i], "runas")
		case strings.HasPrefix(args[i], "-"):
			// -Wait, -NoNewWindow, -PassThru: switches
		case file == "":
			file = args[i]
		}
	}
	if file == "" {
		return nil
	}
	line := shellQuote(file) + " " + list
	if elevated {
		line = "sudo " + line
	}
	return []string{"sh", "-c", line}
}

// pwshScriptFile returns the script a PowerShell invocation runs: -File PATH, or the first
// word after the options (whose values, -ExecutionPolicy Bypass, are skipped); "" when it
// runs -Command text instead.
func pwshScriptFile(args []string) string {
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i])
		if !strings.HasPrefix(a, "-") || a == "-" {
			return args[i]
		}
		o := strings.TrimLeft(a, "-")
		switch {
		case o == "f" || o == "file":
			if i+1 < len(args) {
				return args[i+1]
			}
			return ""
		case o == "c" || o == "e" || o == "ec" || strings.HasPrefix("command", o) && len(o) >= 3 || strings.HasPrefix(o, "encodedc"):
			return ""
		case pwshOptArgs.get()["-"+o]:
			i++
		}
	}
	return ""
}
