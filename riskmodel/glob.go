package riskmodel

import (
	"path"
	"strings"
)

// Globs in guardian come in two kinds, and each has one implementation here.
//
// Wildcards (user rules over a command line or "server/tool"): "*" is any run of characters,
// spaces and slashes included, "?" is one character.
//
// Path globs (protected paths, trusted projects): "*" stays within one path element, "**"
// spans any number of them.

// WildcardMatch matches s against a wildcard pattern. It runs in O(len(pattern)·len(s))
// with single-star backtracking and no recursion, so a user rule cannot make a review slow.
func WildcardMatch(pattern, s string) bool {
	p, t := []rune(pattern), []rune(s)
	pi, ti := 0, 0
	star, mark := -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == t[ti]):
			pi++
			ti++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// MatchPathGlob matches an absolute path against a path glob. With below set, a pattern that
// matches a directory also covers everything under it (a protected ~/notes protects
// ~/notes/a.txt); without it the whole path must match (trusting ~/src/* does not trust
// ~/src/app/vendor/x).
func MatchPathGlob(pattern, p string, below bool) bool {
	pp := strings.Split(strings.Trim(path.Clean(pattern), "/"), "/")
	ss := strings.Split(strings.Trim(path.Clean(p), "/"), "/")
	return matchElems(pp, ss, below, 0)
}

func matchElems(pp, ss []string, below bool, depth int) bool {
	if depth > 64 {
		return false // "**/**/…" beyond any real path: refuse rather than explode
	}
	for len(pp) > 0 {
		if pp[0] == "**" {
			if len(pp) == 1 {
				return true
			}
			for i := 0; i <= len(ss); i++ {
				if matchElems(pp[1:], ss[i:], below, depth+1) {
					return true
				}
			}
			return false
		}
		if len(ss) == 0 {
			return false
		}
		if ok, err := path.Match(pp[0], ss[0]); err != nil || !ok {
			return false
		}
		pp, ss = pp[1:], ss[1:]
	}
	return below || len(ss) == 0
}
