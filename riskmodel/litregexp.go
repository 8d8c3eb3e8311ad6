package riskmodel

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"
)

// litRegexp is a regular expression whose every match begins with one of a few literal
// strings (a keyword such as "popen" or "rmtree", a quote followed by "http"). Go's regexp
// has no literal prefilter for an alternation of keywords, so an unanchored search over
// 64 KiB of interpreter code steps its whole automaton through every byte: tens of
// milliseconds per expression. litRegexp finds the candidate starts with a byte scan and
// runs an anchored copy of the expression only there.
//
// The results are those of the plain expression, match for match: a match must start at a
// candidate; the first candidate where the anchored expression matches is the leftmost match,
// and leftmost-first preference among the matches that start there is the same anchored or
// not. The anchored copy is run on the text from one byte before the candidate, that byte
// consumed by (?s:.), so \b, ^ and $ see the same context as in the unanchored search. When
// no prefix set can be derived, the plain expression is used.
type litRegexp struct {
	re *regexp.Regexp
	// at matches the expression anchored at the start of the text; after matches one byte
	// (any rune, or one invalid byte) and then the expression, anchored.
	at, after *regexp.Regexp
	// byFirst[b] lists the prefixes that start with byte b; fold prefixes compare ASCII
	// case-insensitively.
	byFirst [256][]litPrefix
	ok      bool
	// byFirstASCII is byFirst for a text holding neither ſ (U+017F) nor K (U+212A), the only
	// non-ASCII runes that fold to ASCII letters (s and k): there a case-folded literal keeps
	// all its ASCII runes, so "(?i)socat" has the prefix "socat" rather than none.
	byFirstASCII [256][]litPrefix
	okASCII      bool
}

type litPrefix struct {
	s    string
	fold bool
}

// lazyLitRegexp is lazyRegexp for a litRegexp.
func lazyLitRegexp(pattern string) func() *litRegexp {
	return sync.OnceValue(func() *litRegexp { return newLitRegexp(pattern) })
}

func newLitRegexp(pattern string) *litRegexp {
	l := &litRegexp{re: regexp.MustCompile(pattern)}
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return l
	}
	l.ok = fillPrefixTable(&l.byFirst, tree, false)
	l.okASCII = fillPrefixTable(&l.byFirstASCII, tree, true)
	if l.ok || l.okASCII {
		l.at = regexp.MustCompile(`^(?:` + pattern + `)`)
		l.after = regexp.MustCompile(`^(?s:.)(?:` + pattern + `)`)
	}
	return l
}

// fillPrefixTable fills t with tree's prefix set, indexed by first byte; it reports false when
// no set without the empty prefix can be derived.
func fillPrefixTable(t *[256][]litPrefix, tree *syntax.Regexp, asciiFold bool) bool {
	set, _, ok := litPrefixes(tree, asciiFold)
	if !ok || len(set) == 0 {
		return false
	}
	for _, p := range set {
		if p.s == "" {
			return false // a match may start anywhere
		}
	}
	for _, p := range set {
		b := p.s[0]
		t[b] = append(t[b], p)
		if p.fold {
			if 'a' <= b && b <= 'z' {
				t[b-32] = append(t[b-32], p)
			} else if 'A' <= b && b <= 'Z' {
				t[b+32] = append(t[b+32], p)
			}
		}
	}
	return true
}

// table returns the prefix table that serves s, nil when the plain expression must.
func (l *litRegexp) table(s string) *[256][]litPrefix {
	if l.okASCII && !strings.Contains(s, "\u017f") && !strings.Contains(s, "\u212a") {
		return &l.byFirstASCII
	}
	if l.ok {
		return &l.byFirst
	}
	return nil
}

// maxLitPrefixes bounds the prefix sets; past it a concatenation stops growing its prefixes.
const maxLitPrefixes = 64

// litPrefixes returns a set of strings such that every match of re begins with one of them;
// exact reports that the set is exactly the strings re matches (ignoring zero-width
// assertions, which only narrow it). ok is false when no finite set can be given. A set
// holding "" means a match can begin anywhere. asciiFold says the text holds no ſ or K, so a
// case-folded s or k matches only ASCII.
func litPrefixes(re *syntax.Regexp, asciiFold bool) (set []litPrefix, exact, ok bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []litPrefix{{}}, true, true
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return []litPrefix{{s: string(re.Rune)}}, true, true
		}
		// Case-folded: keep the leading ASCII runes whose only case variants are ASCII (k and
		// s also fold to the Kelvin sign and the long s).
		var b []byte
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf || !asciiFold && (r == 'k' || r == 'K' || r == 's' || r == 'S') {
				break
			}
			b = append(b, byte(r))
		}
		return []litPrefix{{s: string(b), fold: true}}, false, true
	case syntax.OpCharClass:
		var out []litPrefix
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo >= 16 || len(out)+int(hi-lo)+1 > 16 {
				return nil, false, false
			}
			for r := lo; r <= hi; r++ {
				out = append(out, litPrefix{s: string(r)})
			}
		}
		return out, true, true
	case syntax.OpCapture:
		return litPrefixes(re.Sub[0], asciiFold)
	case syntax.OpAlternate:
		var out []litPrefix
		exact = true
		for _, sub := range re.Sub {
			s, ex, ok := litPrefixes(sub, asciiFold)
			if !ok {
				return nil, false, false
			}
			out = append(out, s...)
			exact = exact && ex
		}
		if len(out) > maxLitPrefixes {
			return shortenPrefixes(out), false, true
		}
		return out, exact, true
	case syntax.OpQuest:
		s, ex, ok := litPrefixes(re.Sub[0], asciiFold)
		if !ok {
			return nil, false, false
		}
		return append(s, litPrefix{}), ex, true
	case syntax.OpStar:
		s, _, ok := litPrefixes(re.Sub[0], asciiFold)
		if !ok {
			return nil, false, false
		}
		return append(s, litPrefix{}), false, true
	case syntax.OpPlus:
		s, _, ok := litPrefixes(re.Sub[0], asciiFold)
		return s, false, ok
	case syntax.OpRepeat:
		s, ex, ok := litPrefixes(re.Sub[0], asciiFold)
		if !ok {
			return nil, false, false
		}
		if re.Min == 0 {
			s = append(s, litPrefix{})
		}
		return s, ex && re.Min == 1 && re.Max == 1, true
	case syntax.OpConcat:
		out := []litPrefix{{}}
		for i, sub := range re.Sub {
			s, ex, ok := litPrefixes(sub, asciiFold)
			if !ok {
				return partialPrefixes(out)
			}
			if !ex && hasEmptyPrefix(s) {
				// An optional part: a match starts with one of its prefixes or, when it
				// matches nothing, with what follows it.
				rest, _, ok := litPrefixes(&syntax.Regexp{Op: syntax.OpConcat, Sub: re.Sub[i+1:]}, asciiFold)
				if !ok {
					return partialPrefixes(out)
				}
				var alt []litPrefix
				for _, p := range s {
					if p.s != "" || p.fold {
						alt = append(alt, p)
					}
				}
				s = append(alt, rest...)
			}
			var next []litPrefix
			for _, a := range out {
				if a.fold {
					return partialPrefixes(out)
				}
				for _, b := range s {
					// A folded prefix after an exact one folds the whole: comparing the exact
					// part case-insensitively too admits more candidates, never fewer.
					next = append(next, litPrefix{s: a.s + b.s, fold: b.fold})
				}
			}
			if len(next) > maxLitPrefixes {
				return partialPrefixes(out)
			}
			out = dedupPrefixes(next)
			if !ex {
				return partialPrefixes(out)
			}
		}
		return out, true, true
	}
	return nil, false, false
}

// partialPrefixes is the answer of a concatenation that stops early: the prefixes so far,
// which every match begins with. When one of them is empty nothing is known of where a match
// begins; that is not ok, so that a caller does not take the part for one that may match
// nothing and look past it.
func partialPrefixes(out []litPrefix) ([]litPrefix, bool, bool) {
	for _, p := range out {
		if p.s == "" && !p.fold {
			return nil, false, false
		}
	}
	return out, false, true
}

// shortenPrefixes cuts the longest prefixes of set a byte at a time until at most
// maxLitPrefixes distinct ones remain: a match that begins with a prefix begins with its
// first bytes too. The result is empty-free when set is.
func shortenPrefixes(set []litPrefix) []litPrefix {
	set = dedupPrefixes(append([]litPrefix(nil), set...))
	for len(set) > maxLitPrefixes {
		longest := 0
		for _, p := range set {
			longest = max(longest, len(p.s))
		}
		if longest <= 1 {
			break
		}
		for i, p := range set {
			if len(p.s) == longest {
				set[i].s = p.s[:longest-1]
			}
		}
		set = dedupPrefixes(set)
	}
	return set
}

func hasEmptyPrefix(set []litPrefix) bool {
	for _, p := range set {
		if p.s == "" {
			return true
		}
	}
	return false
}

func dedupPrefixes(in []litPrefix) []litPrefix {
	seen := make(map[litPrefix]bool, len(in))
	out := in[:0]
	for _, p := range in {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// hasPrefixAt reports whether s[i:] begins with p.
func (p litPrefix) at(s string, i int) bool {
	if len(s)-i < len(p.s) {
		return false
	}
	if !p.fold {
		return s[i:i+len(p.s)] == p.s
	}
	for j := 0; j < len(p.s); j++ {
		a, b := s[i+j], p.s[j]
		if a == b {
			continue
		}
		if 'A' <= a && a <= 'Z' {
			a += 32
		}
		if 'A' <= b && b <= 'Z' {
			b += 32
		}
		if a != b || a < 'a' || a > 'z' {
			return false
		}
	}
	return true
}

// candidate returns the first position ≥ from where one of the prefixes begins, or -1.
func candidate(t *[256][]litPrefix, s string, from int) int {
	for i := from; i < len(s); i++ {
		for _, p := range t[s[i]] {
			if p.at(s, i) {
				return i
			}
		}
	}
	return -1
}

// matchAt returns the submatch indexes of the anchored match at i, nil if none.
func (l *litRegexp) matchAt(s string, i int) []int {
	if i == 0 {
		return l.at.FindStringSubmatchIndex(s)
	}
	m := l.after.FindStringSubmatchIndex(s[i-1:])
	if m == nil {
		return nil
	}
	for k := range m {
		if m[k] >= 0 {
			m[k] += i - 1
		}
	}
	m[0] = i
	return m
}

// next returns the leftmost match at or after from, nil if none.
func (l *litRegexp) next(t *[256][]litPrefix, s string, from int) []int {
	for i := from; i <= len(s); {
		c := candidate(t, s, i)
		if c < 0 {
			return nil
		}
		if m := l.matchAt(s, c); m != nil {
			return m
		}
		i = c + 1
	}
	return nil
}

// FindAllStringSubmatchIndex is regexp's, for expressions that cannot match the empty string
// (every prefix is non-empty, so none of these can).
func (l *litRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	t := l.table(s)
	if t == nil {
		return l.re.FindAllStringSubmatchIndex(s, n)
	}
	var out [][]int
	for pos := 0; n < 0 || len(out) < n; {
		m := l.next(t, s, pos)
		if m == nil {
			break
		}
		out = append(out, m)
		pos = m[1]
	}
	return out
}

func (l *litRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	if l.table(s) == nil {
		return l.re.FindAllStringSubmatch(s, n)
	}
	var out [][]string
	for _, idx := range l.FindAllStringSubmatchIndex(s, n) {
		out = append(out, submatches(s, idx))
	}
	return out
}

func (l *litRegexp) FindStringSubmatch(s string) []string {
	t := l.table(s)
	if t == nil {
		return l.re.FindStringSubmatch(s)
	}
	if m := l.next(t, s, 0); m != nil {
		return submatches(s, m)
	}
	return nil
}

func (l *litRegexp) FindString(s string) string {
	t := l.table(s)
	if t == nil {
		return l.re.FindString(s)
	}
	if m := l.next(t, s, 0); m != nil {
		return s[m[0]:m[1]]
	}
	return ""
}

func (l *litRegexp) MatchString(s string) bool {
	t := l.table(s)
	if t == nil {
		return l.re.MatchString(s)
	}
	return l.next(t, s, 0) != nil
}

// lineRegexp searches an expression none of whose matches can hold a newline, except as
// their first byte when fromNewline is set, line by line and only in lines that hold the
// byte every match holds. Go's regexp steps its automaton through every byte of the text;
// most lines of a large text (code, a file body) cannot match at all.
//
// Without fromNewline the expression is line-anchored (`^…` in (?m) mode, compiled without
// (?m)): a line's text is searched alone. With fromNewline each line is searched together with
// the newline before it, and the expression must not be able to match at that newline through
// a ^ (which is true at the start of the searched text but not in the whole): the ^ of
// `(?:^|[^…])KEY` is followed by a word that cannot start with a newline.
type lineRegexp struct {
	re          *regexp.Regexp
	need        byte
	fromNewline bool
}

// lazyLineRegexp compiles pattern on first use. need is a byte that every match contains.
func lazyLineRegexp(pattern string, need byte, fromNewline bool) func() *lineRegexp {
	return sync.OnceValue(func() *lineRegexp {
		return &lineRegexp{re: regexp.MustCompile(pattern), need: need, fromNewline: fromNewline}
	})
}

// FindAllStringSubmatchIndex is that of the expression over s: the matches lie each within
// one line's window and the windows do not overlap, so the matches of the windows in order
// are the matches of the whole.
func (l *lineRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	var out [][]int
	for start := 0; start <= len(s) && (n < 0 || len(out) < n); {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		from := start
		if l.fromNewline && start > 0 {
			from = start - 1 // the newline before the line
		}
		win := s[from:end]
		if strings.IndexByte(win, l.need) >= 0 {
			for _, m := range l.re.FindAllStringSubmatchIndex(win, -1) {
				if n >= 0 && len(out) >= n {
					break
				}
				for k := range m {
					if m[k] >= 0 {
						m[k] += from
					}
				}
				out = append(out, m)
			}
		}
		start = end + 1
	}
	return out
}
