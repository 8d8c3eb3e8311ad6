package riskmodel

import (
	"strings"
	"unicode/utf8"
)

// needRegexp is a lazily compiled expression behind a literal test: every match of the
// expression contains one of need, so a text holding none of them cannot match, and the
// expression is neither compiled nor run on it. Some rules run an expression over every
// command (fs.write.autorun looks for remote code in what any command writes); a routine
// command holds none of the words, and a hook process, which reviews one call and exits,
// then never pays the compilation (a tenth of a millisecond for these, more than the
// review itself).
//
// TestNeedRegexpSound proves from each expression's syntax that need is complete: a match
// without one of the needs would be a false negative, a rule that stops firing.
type needRegexp struct {
	pattern string
	// re is the expression itself, searched from its literal prefixes (litRegexp): a text
	// that passes the literal test may still be 64 KiB of code.
	re func() *litRegexp
	// need are compared ASCII case-insensitively when fold (the expression is (?i)): they
	// are then lower-case, and a text with non-ASCII bytes always goes to the expression,
	// which also folds ſ to s and the Kelvin sign to k.
	need []string
	fold bool
}

// lazyNeedRegexp returns the needRegexp of pattern; fold says need is compared ASCII
// case-insensitively.
func lazyNeedRegexp(pattern string, fold bool, need ...string) *needRegexp {
	if fold {
		for i, n := range need {
			need[i] = strings.ToLower(n)
		}
	}
	return &needRegexp{pattern: pattern, re: lazyLitRegexp(pattern), need: need, fold: fold}
}

// mayMatch reports whether s holds one of the needs, or cannot be tested cheaply.
func (n *needRegexp) mayMatch(s string) bool {
	if n.fold {
		for i := 0; i < len(s); i++ {
			if s[i] >= utf8.RuneSelf {
				return true
			}
		}
		s = strings.ToLower(s)
	}
	for _, w := range n.need {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// MatchString is regexp.Regexp's MatchString.
func (n *needRegexp) MatchString(s string) bool { return n.mayMatch(s) && n.re().MatchString(s) }

// FindString is regexp.Regexp's FindString.
func (n *needRegexp) FindString(s string) string {
	if !n.mayMatch(s) {
		return ""
	}
	return n.re().FindString(s)
}
