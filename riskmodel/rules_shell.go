package riskmodel

import "strings"

// envSetupTools print shell code meant to be eval'ed into the current shell.
var envSetupTools = map[string]bool{"ssh-agent": true, "direnv": true, "pyenv": true, "rbenv": true, "nodenv": true, "brew": true, "conda": true,
	"fnm": true, "mise": true, "rtx": true, "starship": true, "zoxide": true, "dircolors": true, "opam": true, "goenv": true, "jenv": true, "asdf": true, "keychain": true, "gpg-agent": true}

func shellRules() []*Rule {
	return []*Rule{
		{
			ID: "shell.decoded-exec", Level: High, Category: CatRemoteCodeExecution,
			Message: "Runs code that was hidden by encoding",
			Match:   []string{"echo bHMgLWxh | base64 -d | sh", "bash -c \"$(echo ZWNobyBoaQ== | base64 --decode)\"", "$(printf '\\x6c\\x73') -la", "python3 -c \"exec(__import__('base64').b64decode('cHJpbnQoMSk='))\""},
			NoMatch: []string{"echo hi | base64", "base64 -d file.b64 > out.bin"},
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
			Match:   []string{"eval \"$CMD\"", "bash -c \"$(cat payload)\"", "cat script.txt | sh", "sh < /tmp/cmds"},
			NoMatch: []string{"eval \"$(ssh-agent -s)\"", "bash -c 'ls -la'", "echo hi | sh"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if runsDynamicCode(s) {
					for _, o := range c.segs {
						if hasVia(o, "$(…)") && envSetupTools[o.Name()] {
							return "", false
						}
						if isFetcher(o) && hasVia(o, "$(…)") {
							return "", false // net.eval-remote
						}
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
			Match:   []string{"eval \"$(ssh-agent -s)\"", "eval \"$(direnv hook bash)\"", "eval \"$(pyenv init -)\""},
			NoMatch: []string{"eval \"$X\""},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !runsDynamicCode(s) {
					return "", false
				}
				for _, o := range c.segs {
					if hasVia(o, "$(…)") && envSetupTools[o.Name()] {
						return "Evaluates the environment setup printed by " + o.Name(), true
					}
				}
				return "", false
			},
		},
		{
			ID: "shell.dynamic-command", Level: High, Category: CatNone,
			Message: "Runs a command whose name is only known at run time",
			Match:   []string{"$CMD -rf build", "\"$(which foo)\" --x", "${TOOL} install"},
			NoMatch: []string{"X=ls; $X -la"},
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
