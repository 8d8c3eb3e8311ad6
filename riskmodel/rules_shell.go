package riskmodel

import (
	"path"
	"strings"
)

// envSetupTools print shell code meant to be eval'ed into the current shell.
var envSetupTools = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"ssh-agent": true, "direnv": true, "pyenv": true, "rbenv": true, "nodenv": true, "brew": true, "conda": true,
		"fnm": true, "mise": true, "rtx": true, "starship": true, "zoxide": true, "dircolors": true, "opam": true, "goenv": true, "jenv": true, "asdf": true, "keychain": true, "gpg-agent": true}
}}

func shellRules() []*Rule {
	return []*Rule{
		{
			ID: "shell.decoded-exec", Level: High, Category: CatRemoteCodeExecution,
			Message: "Runs code that was hidden by encoding",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if hasVia(s, "decoded") {
					return "Runs `" + joinArgs(s.Args) + "`, which was hidden by encoding; obfuscated commands are a red flag", true
				}
				return "", false
			},
		},
		{
			ID: "shell.opaque-code", Level: High, Category: CatRemoteCodeExecution,
			Message: "Runs shell code that cannot be seen before it runs",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if runsDynamicCode(s) {
					if fedBy(s, func(o *Segment) bool { return envSetupTools.get()[o.Name()] }) {
						return "", false
					}
					if s.Runs.has(taintFetched) && !c.allFrom(s.Runs.from(taintFetched), false) {
						return "", false // net.eval-remote
					}
					return "Runs shell code assembled at run time (" + joinArgs(s.Args) + ")", true
				}
				if runsStdin(s) && len(c.remoteFeeds(s)) == 0 && !s.Code {
					if s.PipeIn == nil && !hasInputRedirect(s) {
						return "", false // an interactive shell: sys rules judge privilege
					}
					return "Runs shell code read from " + stdinSource(s) + " with " + s.Name(), true
				}
				return "", false
			},
		},
		{
			ID: "shell.env-setup", Level: Low, Category: CatNone,
			Message: "Loads a tool's environment setup into the shell",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !runsDynamicCode(s) || s.Runs.kinds != 0 {
					return "", false
				}
				for _, o := range s.Feeds {
					if envSetupTools.get()[o.Name()] {
						return "Evaluates the environment setup printed by " + o.Name(), true
					}
				}
				return "", false
			},
		},
		{
			ID: "shell.decoded-file-exec", Level: Critical, Category: CatRemoteCodeExecution,
			Message: "Decodes hidden content into code and runs it",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !s.Runs.has(taintDecoded) {
					return "", false
				}
				if src := s.Runs.from(taintDecoded); len(src) > 0 {
					return "Runs code decoded by `" + capText(joinArgs(src[0].Args)) + "` with " + s.Name() + "; what it does cannot be seen", true
				}
				return "Runs decoded code with " + s.Name() + "; what it does cannot be seen", true
			},
		},
		{
			ID: "shell.written-exec", Level: High, Category: CatRemoteCodeExecution,
			Message: "Writes a file whose content cannot be seen and then runs it",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if s.RunsWritten == "" {
					return "", false
				}
				return "Runs " + s.RunsWritten + ", which this command writes with content that cannot be seen before it runs", true
			},
		},
		{
			ID: "shell.symlink-escape", Level: High, Category: CatDataDeletion,
			Message: "Creates a link from the workspace to a vital or secret location",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !(s.Name() == "ln" || s.Name() == "gln") || !s.hasFlag("s", "--symbolic") {
					if s.Name() != "cp" || !s.hasFlag("s", "--symbolic-link") {
						return "", false
					}
				}
				p := s.positional(0, "-t", "--target-directory", "-S", "--suffix")
				if len(p) == 0 {
					return "", false
				}
				t := p[0]
				abs := ""
				if e := c.scope.expandHome(t); path.IsAbs(e) {
					abs, _ = c.scope.Resolve(e)
				} else if !strings.ContainsAny(t, "$`") {
					link := path.Base(t)
					if len(p) >= 2 {
						link = p[len(p)-1]
					}
					if l, ok := c.scope.Resolve(link); ok {
						abs = path.Clean(path.Join(path.Dir(l), t))
					}
				}
				if abs == "" {
					return "Creates a link to " + t + ", whose target cannot be resolved; commands through it could reach anywhere", true
				}
				if z := c.scope.Zone(abs); z == ZoneVital || isCredentialPath(c, abs) {
					return "Links to " + c.scope.Pretty(abs) + "; deleting or writing through the link would reach it", true
				}
				return "", false
			},
		},
		{
			ID: "shell.env-code", Level: High, Category: CatRemoteCodeExecution,
			Message: "Sets a variable that makes programs load code from outside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, kv := range s.CodeEnv {
					i := strings.IndexByte(kv, '=')
					if i < 0 {
						continue
					}
					if why := loadsCodeFrom(c, kv[:i], kv[i+1:]); why != "" {
						return "Sets " + kv[:i] + " " + why + " for " + quoteName(s.Name()), true
					}
				}
				return "", false
			},
		},
		{
			ID: "shell.dynamic-command", Level: High, Category: CatNone,
			Message: "Runs a command whose name is only known at run time",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(s.Args) > 0 && strings.Contains(s.Args[0], "$") {
					return "Runs a command named by " + s.Args[0] + ", which is only known at run time", true
				}
				return "", false
			},
		},
	}
}

func stdinSource(s *Segment) string {
	if s.PipeIn != nil {
		return "the output of " + s.PipeIn.Name()
	}
	for _, r := range s.Redirs {
		if r.Op == "<" {
			return r.Target
		}
	}
	return "its input"
}

// fedBy reports whether some segment substituted into s's words satisfies f.
func fedBy(s *Segment, f func(*Segment) bool) bool {
	for _, o := range s.Feeds {
		if f(o) {
			return true
		}
	}
	return false
}

// loadsCodeFrom says why a code-loading variable's value is a risk ("" when it is not): a
// library, startup file or module outside the workspace and the system's own directories.
func loadsCodeFrom(c *execCtx, name, value string) string {
	var paths []string
	switch name {
	case "NODE_OPTIONS", "RUBYOPT", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS":
		f := strings.Fields(value)
		for i, a := range f {
			switch {
			case a == "--require" || a == "-r" || a == "--import" || a == "--loader" || a == "--experimental-loader":
				if i+1 < len(f) {
					paths = append(paths, f[i+1])
				}
			case strings.HasPrefix(a, "--require=") || strings.HasPrefix(a, "--import=") || strings.HasPrefix(a, "--loader="):
				paths = append(paths, a[strings.IndexByte(a, '=')+1:])
			case strings.HasPrefix(a, "-r") && len(a) > 2 && name == "RUBYOPT":
				paths = append(paths, a[2:])
			case strings.HasPrefix(a, "-javaagent:") || strings.HasPrefix(a, "-agentpath:"):
				paths = append(paths, strings.SplitN(a[strings.IndexByte(a, ':')+1:], "=", 2)[0])
			}
		}
	case "PERL5OPT":
		if strings.Contains(value, "-M") || strings.Contains(value, "-d") || strings.Contains(value, "-m") {
			return "to load Perl modules into every perl (" + value + ")"
		}
		return ""
	case "PYTHONWARNINGS":
		if strings.Count(value, ":") >= 2 {
			return "to import a module chosen by the warning filter (" + value + ")"
		}
		return ""
	case "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH":
		paths = strings.Split(value, ":")
	default:
		paths = strings.FieldsFunc(value, func(r rune) bool { return r == ':' || r == ' ' })
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		if !strings.ContainsAny(p, "/~$") && name != "LD_PRELOAD" && name != "DYLD_INSERT_LIBRARIES" {
			continue // a module name resolved by the program's own search path
		}
		t := c.target(p)
		switch {
		case t.zone == ZoneWorkspace && !c.scope.CwdUnknown && !preloadVar(name):
			continue
		case t.abs != "" && isSystemPath(t.abs) && !strings.HasPrefix(t.abs, "/var/") && !strings.HasPrefix(t.abs, "/opt/"):
			continue
		}
		return "to load " + p + ", " + c.where(t)
	}
	return ""
}
