package riskmodel

import (
	"slices"
	"strings"
)

// hasFlag reports whether a segment has a short flag letter (alone or clustered: -rf has r
// and f) or one of the long flags. Arguments after "--" are not flags.
func (s *Segment) hasFlag(short string, long ...string) bool {
	for _, a := range s.Args[min(1, len(s.Args)):] {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "--") {
			name := a
			if i := strings.IndexByte(a, '='); i >= 0 {
				name = a[:i]
			}
			for _, l := range long {
				if name == l {
					return true
				}
			}
			continue
		}
		if len(a) > 1 && a[0] == '-' && short != "" && isFlagCluster(a[1:]) && strings.ContainsAny(a[1:], short) {
			return true
		}
	}
	return false
}

func isFlagCluster(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// positional returns the non-option arguments after the command name (and after skip leading
// subcommand words). withArg names options that consume the next word; the CLI's own global
// options (cliGlobalTable: kubectl -n, aws --profile, git -C, docker -H, …) are skipped with
// their values too, so `kubectl -n prod get secret` yields [get secret].
func (s *Segment) positional(skip int, withArg ...string) []string {
	var out []string
	args := s.Args
	if len(args) <= 1+skip {
		return nil
	}
	sc := newCLIOptScanner(s.Name())
	for _, w := range args[1 : 1+skip] {
		if !strings.HasPrefix(w, "-") {
			sc.positional(w)
		}
	}
	rest := args[1+skip:]
	dashdash := false
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if dashdash {
			out = appendWord(out, a, len(rest)-i)
			continue
		}
		if a == "--" {
			dashdash = true
			continue
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			if slices.Contains(withArg, a) || sc.takesValue(a) {
				i++
			}
			continue
		}
		sc.positional(a)
		out = appendWord(out, a, len(rest)-i)
	}
	return out[:len(out):len(out)] // clipped: a caller's append copies, never writes into a shared result
}

// appendWord appends w to out, allocating out once, with room for the left words that may
// follow, on its first word: positional is asked a few dozen times a segment.
func appendWord(out []string, w string, left int) []string {
	if out == nil {
		out = make([]string, 0, left)
	}
	return append(out, w)
}

// sub returns the n-th word after the command name that is not an option ("" if none), for
// subcommand dispatch: git -C dir push → sub(0) == "push" with gitGlobalOpts.
func (s *Segment) sub(n int, withArg ...string) string {
	var p []string
	if len(withArg) == 0 {
		p = s.subWords()
	} else {
		p = s.positional(0, withArg...)
	}
	if n < len(p) {
		return p[n]
	}
	return ""
}

// subWords is positional(0), computed once for the segment's current Args. The result is
// shared: callers must not change it.
func (s *Segment) subWords() []string {
	if sameWords(s.subsFor, s.Args) {
		return s.subs
	}
	s.subs = s.positional(0)
	s.subsFor = copyWords(s.Args)
	return s.subs
}

// writeTargets returns the files a segment writes (writeTargetsCompute), computed once for
// the scope it is asked in and the segment's current Args. A dozen file rules ask for every
// segment. The result is shared: its capacity is its length, so a caller's append copies it,
// and callers must not change its elements.
func writeTargets(c *execCtx, s *Segment) []target {
	if s.writesScope == c.scope && sameWords(s.writesFor, s.Args) && slices.Equal(s.writesRedirs, s.Redirs) {
		return s.writes
	}
	ts := writeTargetsCompute(c, s)
	s.writes, s.writesScope, s.writesFor, s.writesRedirs = ts[:len(ts):len(ts)], c.scope, copyWords(s.Args), slices.Clone(s.Redirs)
	return s.writes
}

// sameWords reports whether a copy taken earlier (nil: none) still equals words.
func sameWords(copied, words []string) bool {
	if copied == nil || len(copied) != len(words) {
		return false
	}
	for i, a := range words {
		if copied[i] != a {
			return false
		}
	}
	return true
}

func copyWords(words []string) []string {
	return append(make([]string, 0, len(words)), words...)
}

// arg reports whether any argument equals one of vs.
func (s *Segment) arg(vs ...string) bool {
	for _, a := range s.Args[min(1, len(s.Args)):] {
		for _, v := range vs {
			if a == v {
				return true
			}
		}
	}
	return false
}

// argPrefix returns the first argument with one of the prefixes, and whether one was found.
func (s *Segment) argPrefix(prefixes ...string) (string, bool) {
	for _, a := range s.Args[min(1, len(s.Args)):] {
		for _, p := range prefixes {
			if strings.HasPrefix(a, p) {
				return a, true
			}
		}
	}
	return "", false
}

// target is one path a segment acts on, resolved.
type target struct {
	arg  string
	abs  string // "" when unresolvable
	zone Zone
}

func (c *execCtx) target(arg string) target {
	abs, ok := c.scope.Resolve(arg)
	if !ok {
		return target{arg: arg, zone: ZoneUnknown}
	}
	return target{arg: arg, abs: abs, zone: c.scope.Zone(abs)}
}

func (c *execCtx) targets(args []string) []target {
	out := make([]target, 0, len(args))
	for _, a := range args {
		out = append(out, c.target(a))
	}
	return out
}

// where describes a target for a summary: "/home/dev (the home directory), outside the
// workspace", "build, inside the workspace".
func (c *execCtx) where(t target) string {
	switch t.zone {
	case ZoneUnknown:
		return t.arg + ", whose location cannot be resolved"
	case ZoneWorkspace:
		return t.arg + ", inside the workspace"
	case ZoneTemp:
		return t.abs + ", a temporary location"
	case ZoneVital:
		if t.abs == c.scope.Home {
			return t.abs + " (the home directory), outside the workspace"
		}
		if t.abs == "/" {
			return "/ (the whole filesystem)"
		}
		if c.scope.IsWorkspaceRoot(t.abs) {
			return t.abs + " (the whole workspace)"
		}
		return t.abs + ", a vital directory"
	case ZoneHome:
		return t.abs + ", outside the workspace"
	}
	return t.abs + ", outside the workspace"
}

// homeDepth is how many path elements abs lies below home (0 = home itself, -1 = not below).
func (c *execCtx) homeDepth(abs string) int {
	h := c.scope.Home
	if abs == h {
		return 0
	}
	if !strings.HasPrefix(abs, h+"/") {
		return -1
	}
	return strings.Count(abs[len(h):], "/")
}

// joinArgs prints a segment's argv for messages.
func joinArgs(args []string) string {
	return capText(strings.Join(args, " "))
}
