package riskmodel

import "strings"

func interpRules() []*Rule {
	return []*Rule{
		{
			ID: "interp.reverse-shell", Level: Critical, Category: CatRemoteCodeExecution,
			Message: "Inline code connects a socket to a shell or program (a reverse shell)",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				f := s.CodeFacts
				if f == nil || f.Caps&capSocket == 0 || f.Caps&(capDup|capExec|capEval) == 0 {
					return "", false
				}
				return "Runs inline " + langOf(s.Name()) + " code that attaches a network socket to a program it starts (" + f.Caps.describe() + ")", true
			},
		},
		{
			ID: "interp.remote-code", Level: Critical, Category: CatRemoteCodeExecution,
			Message: "Inline code downloads code and runs it",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				f := s.CodeFacts
				if hosts, ok := c.evalsFetchedInput(s); ok {
					return "Runs inline " + langOf(s.Name()) + " code that evaluates what it reads from standard input, code fetched from " + hosts, true
				}
				if f == nil || (f.Caps&capNet == 0 && !readsURL(f)) || f.Caps&capEval == 0 && f.Unfollowed&capExec == 0 {
					return "", false
				}
				if len(f.Hosts) > 0 && c.allHostsLocal(f.Hosts) {
					return "", false
				}
				return "Runs inline " + langOf(s.Name()) + " code that fetches code from " + hostList(f.Hosts) + " and evaluates it", true
			},
		},
		{
			ID: "interp.exfiltrate", Level: Critical, Category: CatDataExfiltration,
			Message: "Inline code sends the environment, a secret or a credential file over the network",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				f := s.CodeFacts
				if f == nil || f.Caps&(capNet|capSocket) == 0 {
					return "", false
				}
				secret := f.Caps&capEnvBulk != 0 || f.Caps&capEnv != 0 && f.Caps&capSecretName != 0 || f.Caps&(capRead|capExec) != 0 && f.Caps&capSecretName != 0
				for _, p := range f.Reads {
					if t := c.target(p); isCredentialPath(c, t.abs) {
						secret = true
					}
				}
				if !secret || len(f.Hosts) > 0 && c.allHostsLocal(f.Hosts) {
					return "", false
				}
				return "Runs inline " + langOf(s.Name()) + " code that reads secrets or the environment and sends them to " + hostList(f.Hosts), true
			},
		},
		{
			ID: "interp.exhaust", Level: Critical, Category: CatResourceExhaustion,
			Message: "Inline code forks, allocates or requests without end",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				f := s.CodeFacts
				switch {
				case f == nil:
					return "", false
				case f.Caps&capFork != 0 && f.Caps&capLoop != 0, strings.Contains(s.Text, "fork while fork"), strings.Contains(s.Text, "fork until"):
					return "Runs inline " + langOf(s.Name()) + " code that forks in an endless loop: a fork bomb", true
				case f.Caps&capMemBomb != 0:
					return "Runs inline " + langOf(s.Name()) + " code that allocates an enormous amount of memory", true
				case f.Caps&capLoop != 0 && f.Caps&(capNet|capSocket) != 0 && !c.allHostsLocal(f.Hosts):
					return "Runs inline " + langOf(s.Name()) + " code that sends requests in an endless loop", true
				case f.Caps&capLoop != 0 && f.Caps&(capWrite|capExec) != 0 && !strings.Contains(s.Text, "sleep"):
					return "Runs inline " + langOf(s.Name()) + " code that writes or starts programs in an endless loop", true
				}
				return "", false
			},
		},
		{
			ID: "interp.opaque", Level: High, Category: CatNone,
			Message: "Runs inline code that does things guardian cannot follow",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !s.Code || !s.CodeOpaque {
					return "", false
				}
				why := "it uses the system in ways guardian cannot follow"
				if s.CodeFacts != nil && s.CodeFacts.Opaque != "" {
					why = s.CodeFacts.Opaque
				}
				return "Runs inline " + langOf(s.Name()) + " code that guardian cannot follow: " + why, true
			},
		},
		{
			ID: "interp.tool-escape", Level: High, Category: CatNone,
			Message: "A reading tool is told to run commands or write files outside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if why := toolEscape(c, s); why != "" {
					return "Runs " + s.Name() + ", which " + why, true
				}
				return "", false
			},
		},
		{
			ID: "interp.inline", Level: Low, Category: CatNone,
			Message: "Runs a short inline script whose effects are judged separately",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !s.Code || s.CodeOpaque {
					return "", false
				}
				return "Runs a short inline " + langOf(s.Name()) + " snippet (anything it does to files or the network is judged on its own)", true
			},
		},
		{
			ID: "interp.script-outside", Level: Medium, Category: CatNone,
			Message: "Runs a script from outside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				f := executedFile(s)
				if f == "" || s.Code {
					return "", false
				}
				t := c.target(f)
				if t.zone == ZoneWorkspace || t.zone == ZoneDevNull || strings.HasPrefix(t.abs, "/usr/") || strings.HasPrefix(t.abs, "/bin/") || strings.HasPrefix(t.abs, "/opt/homebrew/") || installedAppBinary(t.abs) {
					return "", false
				}
				return "Runs the script " + c.where(t), true
			},
		},
		{
			ID: "interp.script-prod", Level: High, Category: CatFinancialOrProduction,
			Message: "Runs a project script against production",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if executedFile(s) == "" || s.Code {
					return "", false
				}
				for _, a := range s.Args[1:] {
					if v := a[strings.IndexByte(a, '=')+1:]; prodLike(a) || prodLike(v) {
						return "Runs " + s.Args[0] + " with " + a + ", acting on production", true
					}
				}
				return "", false
			},
		},
		{
			ID: "interp.workspace-script", Level: Medium, Category: CatNone, Contained: true, Baseline: true,
			Message: "Runs one of the project's own scripts or programs",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				f := executedFile(s)
				if f == "" || s.Code {
					return "", false
				}
				if t := c.target(f); t.zone == ZoneWorkspace {
					return "Runs the project's own " + f, true
				}
				return "", false
			},
		},
	}
}

// readsURL reports code whose literal reads include a URL (php file_get_contents("http://…")).
func readsURL(f *CodeFacts) bool {
	for _, p := range f.Reads {
		if strings.Contains(p, "://") {
			return true
		}
	}
	return false
}

// allHostsLocal reports whether every host inline code contacts is loopback or trusted.
func (c *execCtx) allHostsLocal(hosts []string) bool {
	if len(hosts) == 0 {
		return false
	}
	for _, h := range hosts {
		if !c.trustedHost(h) {
			return false
		}
	}
	return true
}

func hostList(hosts []string) string {
	if len(hosts) == 0 {
		return "a host known only at run time"
	}
	if len(hosts) > 3 {
		hosts = hosts[:3]
	}
	return strings.Join(hosts, ", ")
}

// toolEscape says how a tool that usually only reads is made to run commands or write files
// outside the workspace by its arguments, "" when it is not (GTFOBins "command" and "file
// write" functions of sed, find and xxd).
func toolEscape(c *execCtx, s *Segment) string {
	var writes []string
	switch s.Name() {
	case "sed", "gsed":
		for _, sc := range sedScripts(s.Args[1:]) {
			exec, w := sedEffects(sc)
			if exec {
				return "runs shell commands through sed's e command"
			}
			writes = append(writes, w...)
		}
	case "find":
		for i, a := range s.Args[1:] {
			if (a == "-fprint" || a == "-fprint0" || a == "-fls" || a == "-fprintf") && i+2 < len(s.Args) {
				writes = append(writes, s.Args[i+2])
			}
		}
	case "xxd":
		if s.hasFlag("r", "-revert") {
			if p := s.positional(0, "-c", "-g", "-l", "-s", "-o", "-n", "-C"); len(p) == 2 {
				writes = append(writes, p[1])
			}
		}
	}
	for _, w := range writes {
		if t := c.target(w); t.zone != ZoneWorkspace && t.zone != ZoneTemp && t.zone != ZoneDevNull {
			return "writes " + c.where(t)
		}
	}
	return ""
}

// sedScripts returns the scripts of a sed command: each -e/--expression, else the first
// operand. A script file (-f) is not known and yields nothing.
func sedScripts(args []string) []string {
	var out []string
	first := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "--expression":
			if i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "--expression="):
			out = append(out, a[len("--expression="):])
		case a == "-f" || a == "--file" || a == "-l" || a == "--line-length":
			i++
		case strings.HasPrefix(a, "-"):
		case first == "":
			first = a
		}
	}
	if len(out) == 0 && first != "" {
		out = append(out, first)
	}
	return out
}

// sedEffects reads a sed script far enough to find the e command, the e flag of s, and the
// files written by w/W commands and the w flag. Addresses, s and y fields and a/i/c text are
// skipped so letters inside them are not taken for commands.
func sedEffects(script string) (exec bool, writes []string) {
	if len(script) > 8192 {
		return true, nil // too long to read: treat as able to run commands
	}
	cmdPos := true
	restOfLine := func(i int) (string, int) {
		j := strings.IndexByte(script[i:], '\n')
		if j < 0 {
			return strings.TrimSpace(script[i:]), len(script)
		}
		return strings.TrimSpace(script[i : i+j]), i + j
	}
	for i := 0; i < len(script); {
		ch := script[i]
		switch {
		case ch == ' ' || ch == '\t':
			i++
			continue
		case ch == ';' || ch == '\n' || ch == '{' || ch == '}' || ch == '!' || ch == ',':
			cmdPos = true
			i++
			continue
		case !cmdPos:
			i++
			continue
		case ch >= '0' && ch <= '9' || ch == '$' || ch == '~':
			i++
			continue
		case ch == '/' || ch == '\\':
			d := ch
			if ch == '\\' && i+1 < len(script) {
				i++
				d = script[i]
			}
			j := i + 1
			for j < len(script) && script[j] != d {
				if script[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
			for i < len(script) && (script[i] == 'I' || script[i] == 'M') {
				i++
			}
			continue
		case ch == 's' || ch == 'y':
			if i+1 >= len(script) {
				return exec, writes
			}
			d := script[i+1]
			j, fields := i+2, 0
			for j < len(script) && fields < 2 {
				if script[j] == '\\' {
					j += 2
					continue
				}
				if script[j] == d {
					fields++
				}
				j++
			}
			k := j
			for k < len(script) && strings.IndexByte("gpiImMe0123456789w", script[k]) >= 0 {
				if ch == 's' && script[k] == 'e' {
					exec = true
				}
				if ch == 's' && script[k] == 'w' {
					f, end := restOfLine(k + 1)
					writes = append(writes, f)
					k = end
					break
				}
				k++
			}
			i = k
			cmdPos = false
			continue
		case ch == 'e':
			exec = true
			_, i = restOfLine(i + 1)
			continue
		case ch == 'w' || ch == 'W':
			f, end := restOfLine(i + 1)
			writes = append(writes, f)
			i = end
			continue
		case ch == 'a' || ch == 'i' || ch == 'c' || ch == 'r' || ch == 'R' || ch == 'b' || ch == 't' || ch == 'T' || ch == ':':
			_, i = restOfLine(i + 1)
			continue
		}
		cmdPos = false
		i++
	}
	return exec, writes
}

// installedAppBinary reports the executable of a macOS application bundle installed under
// /Applications (Xcode's tools, the Unity editor of Unity Hub, Android Studio's): an
// installed program, named by its bundle path, that the catalogue judges by its name like
// one on PATH, not a loose script from outside the workspace.
func installedAppBinary(abs string) bool {
	return strings.HasPrefix(abs, "/Applications/") && strings.Contains(abs, ".app/Contents/") && !strings.Contains(abs, "/../")
}
