package riskmodel

import "strings"

// A command substitution the analysis could not compute stays in a word as "$(…)" (shell.go).
// Where it makes up one whole component of a path that is otherwise known —
// /proc/$(pgrep -f vault)/environ, /home/$(whoami)/.ssh/id_rsa — the path names that place
// whatever the substitution prints, exactly as /proc/$PID/environ does with an unresolved
// variable: the component becomes a placeholder that the catalogue's wildcards match (and
// no literal entry does). A substitution inside a component, or one that could print a
// whole path ($(…)/x at the start), keeps the path unplaced.
func wholeComponentSubst(p string) string {
	const mark = "$(…)"
	if !strings.Contains(p, mark) || !(strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~")) {
		return p
	}
	parts := strings.Split(p, "/")
	for i, c := range parts {
		if c == mark && i > 0 {
			parts[i] = "$_"
		}
	}
	return strings.Join(parts, "/")
}
