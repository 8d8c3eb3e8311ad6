package riskmodel

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Shell code a request writes and then runs is judged as if it were typed (docs/policy.md:
// "judge the effect … followed through files it writes and then runs"). The flow analysis
// already judges each command of such a script; what it cannot see is the script's shape:
// sys.runaway reads loops from the request's own text, and a heredoc body is text, not code,
// to the parser. So a heredoc handed to a shell (`bash <<'EOF'`, `sh -s <<EOF`) or written to
// a file (`cat > flood.sh <<'EOF'`, `tee run.sh <<EOF`) that the request then runs (`bash
// flood.sh`, `./flood.sh`, `. flood.sh`) has its body read for runaway loops too.

// runawayInScripts returns why a shell script the request writes and runs, or feeds to a
// shell, runs without bound; "" when none does.
func runawayInScripts(argv []string) string {
	for _, a := range argv {
		if !strings.Contains(a, "<<") || len(a) > maxRunawayText {
			continue
		}
		if why := runawayScriptText(a); why != "" {
			return why
		}
	}
	return ""
}

func runawayScriptText(src string) string {
	f, err := parseBash(src)
	if err != nil {
		return ""
	}
	bodies := map[string]string{} // base name of a written file → its heredoc body
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok || why != "" {
			return why == ""
		}
		var body string
		for _, r := range st.Redirs {
			if (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && r.Hdoc != nil {
				if s, e := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset()); s >= 0 && e <= len(src) && s < e {
					body = src[s:e]
				}
			}
		}
		call, _ := st.Cmd.(*syntax.CallExpr)
		if body == "" || call == nil || len(call.Args) == 0 {
			return true
		}
		name := baseName(litWord(call.Args[0]))
		if shells.get()[name] && !hasOperandFile(call) {
			why = runawayText(body, 1) // bash <<'EOF': the body is the script
			return why == ""
		}
		for _, r := range st.Redirs {
			if (r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.ClbOut) && r.Word != nil {
				if w := litWord(r.Word); w != "" {
					bodies[path.Base(w)] = body
				}
			}
		}
		if name == "tee" {
			for _, a := range call.Args[1:] {
				if w := litWord(a); w != "" && !strings.HasPrefix(w, "-") {
					bodies[path.Base(w)] = body
				}
			}
		}
		return true
	})
	if why != "" || len(bodies) == 0 {
		return why
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || why != "" || len(call.Args) == 0 {
			return why == ""
		}
		prog := litWord(call.Args[0])
		if b, ok := bodies[path.Base(prog)]; ok && strings.Contains(prog, "/") {
			why = runawayText(b, 1) // ./flood.sh
			return why == ""
		}
		if name := baseName(prog); shells.get()[name] || name == "source" || name == "." {
			for _, a := range call.Args[1:] {
				w := litWord(a)
				if strings.HasPrefix(w, "-") {
					continue
				}
				if b, ok := bodies[path.Base(w)]; ok {
					why = runawayText(b, 1)
				}
				break
			}
		}
		return why == ""
	})
	return why
}

// hasOperandFile reports a shell call given a script file or -c code rather than reading
// its script from stdin.
func hasOperandFile(call *syntax.CallExpr) bool {
	for _, a := range call.Args[1:] {
		w := litWord(a)
		if w == "-s" {
			return false
		}
		if !strings.HasPrefix(w, "-") || strings.Contains(w, "c") && !strings.HasPrefix(w, "--") {
			return true
		}
	}
	return false
}

// makeToShell turns a Makefile recipe line into the shell command make runs: `$$` is a
// literal `$`, `$(NAME)` and `${NAME}` are make variables, which the environment's
// variables (HOME, USER) are, and `$(shell CMD)` runs CMD (GNU make manual: "Variables in
// Recipes", "The shell Function").
func makeToShell(line string) string {
	if !strings.Contains(line, "$") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '$' || i+1 >= len(line) {
			b.WriteByte(c)
			continue
		}
		switch next := line[i+1]; {
		case next == '$':
			b.WriteByte('$')
			i++
		case next == '(' || next == '{':
			closer := byte(')')
			if next == '{' {
				closer = '}'
			}
			j := strings.IndexByte(line[i+2:], closer)
			if j < 0 {
				b.WriteByte(c)
				continue
			}
			inner := line[i+2 : i+2+j]
			switch {
			case isMakeIdent(inner):
				b.WriteString("${" + inner + "}")
			case strings.HasPrefix(inner, "shell "):
				b.WriteString("$(" + strings.TrimPrefix(inner, "shell ") + ")")
			default:
				b.WriteString(line[i : i+3+j])
			}
			i += 2 + j
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isMakeIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func r16ScriptRules() []*Rule {
	return []*Rule{
		{
			ID: "sys.runaway-script", Level: Critical, Category: CatResourceExhaustion,
			Message: "Writes or feeds a shell script that starts processes or requests without end, and runs it",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(c.segs) == 0 || s != c.segs[0] {
					return "", false // judged once per request
				}
				if runawayIn(c.req.Command) != "" {
					return "", false // sys.runaway's
				}
				if why := runawayInScripts(c.req.Command); why != "" {
					return "The script it runs " + why, true
				}
				return "", false
			},
		},
	}
}
