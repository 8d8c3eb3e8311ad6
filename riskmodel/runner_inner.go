package riskmodel

import "strings"

// projectRunners are the commands that run another command inside the project's own
// environment and add nothing of their own: bundle exec puts the Gemfile's gems on the load
// path, poetry/pipenv/pdm/hatch/rye/uv run the project's virtualenv. `bundle exec fastlane
// scan` does what `fastlane scan` does, so when no rule knows the runner's segment as a whole
// it is judged as the command it runs, by every rule (risk rules first), as npx and uv run are
// for package rules. Secret injectors (op run, doppler, aws-vault exec) and conda -n ENV are
// not here: the environment they pick (a production profile, a secret set) is part of what
// the command does.
var projectRunners = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"bundle": true, "poetry": true, "pipenv": true, "pdm": true, "hatch": true, "rye": true, "uv": true}
}}

// runnerInner returns the command a project runner segment runs, or false when s is not one
// (or runs nothing, or names an environment on the way).
func runnerInner(s *Segment) (*Segment, bool) {
	if !projectRunners.get()[pkgNorm(s.Name())] {
		return nil, false
	}
	inner, hint, ok := pkgRunnerInner(s)
	if !ok || hint != "" || inner == nil || len(inner.Args) == 0 || inner.Name() == "" || unwrappedByExtractor(inner) {
		return nil, false
	}
	return inner, true
}

// unwrappedByExtractor reports a command whose payload only the extractor reaches (unwrap.go):
// a shell or interpreter with code in its arguments, a wrapper of another command, a command
// carrying shell code in an option. Judged by the rules alone it would look like the
// project's own script, so a runner of one stays unknown (and its code markers high).
func unwrappedByExtractor(s *Segment) bool {
	n := s.Name()
	switch n {
	case "sudo", "doas", "pkexec", "run0", "su", "env", "nohup", "setsid", "chronic", "unbuffer", "builtin", "exec", "caffeinate",
		"stdbuf", "nice", "ionice", "time", "timeout", "gtimeout", "flock", "torsocks", "proxychains", "proxychains4", "command",
		"eval", "watch", "xargs", "find", "fd", "trap", "alias", "source", ".":
		return true
	}
	return shells.get()[n] || interpreters.get()[n] || codeRunners.get()[n] || tableWrappers.get()[n] != nil ||
		strings.HasPrefix(n, "python") || isAssignWord(s.Args[0]) || len(embeddedCommands(s)) > 0
}
