package catalog

import "strings"

// Paths are compared segment by segment. A catalogue pattern segment may hold shell glob
// characters, and "**" stands for any number of segments. The path being classified may be a
// shell glob as well ("~/.aws/*", "~/.s*/id_*"): a segment then matches when some name could
// match both, so a glob counts as a credential read when any credential file could be among
// the names the shell expands it to.

// hasGlob reports whether s holds a shell glob character.
func hasGlob(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '*' || c == '?' || c == '[' {
			return true
		}
	}
	return false
}

// matchSegs reports whether the path segments cand could name something that the pattern
// segments pat match. "**" in pat matches zero or more segments. anchored says a literal
// directory of the pattern (or its root) has matched: below one, a glob counts when it could
// name the pattern's file ("~/.aws/*" names ~/.aws/credentials); right after "**" it counts
// only when it covers a typical name of the pattern, so "src/*" does not name every
// "opencode.json" that might be there.
func matchSegs(pat, cand []string, anchored bool) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			for i := 0; i <= len(cand); i++ {
				if matchSegs(rest, cand[i:], false) {
					return true
				}
			}
			return false
		}
		if len(cand) == 0 {
			return false
		}
		if anchored || !hasGlob(cand[0]) {
			if !segIntersects(pat[0], cand[0]) {
				return false
			}
		} else if !coversSample(cand[0], pat[0]) {
			return false
		}
		pat, cand = pat[1:], cand[1:]
		anchored = true
	}
	return len(cand) == 0
}

// coversSample reports whether a globbed name spells enough of itself (two literal
// characters) and covers a typical name of the pattern (".env*" covers ".env").
// Against a literal name the glob must also spell its start ("id_*" covers "id_rsa",
// "*.json" does not single out "opencode.json").
func coversSample(glob, pat string) bool {
	if literalLen(glob) < 2 || !globMatch(simplifyClasses(glob), sample(pat)) {
		return false
	}
	if hasGlob(pat) {
		return true
	}
	i := strings.IndexAny(glob, "*?[")
	return i > 0 && strings.HasPrefix(pat, glob[:i])
}

// segIntersects reports whether some file name matches both the pattern segment p and the
// (possibly globbed) candidate segment c. A shell glob does not match a leading dot unless it
// spells one, so "~/*" never names ~/.ssh.
func segIntersects(p, c string) bool {
	if !hasGlob(c) {
		if !hasGlob(p) {
			return p == c
		}
		return globMatch(simplifyClasses(p), c)
	}
	if len(c) > 0 && c[0] != '.' && (c[0] == '*' || c[0] == '?' || c[0] == '[') {
		if len(p) > 0 && p[0] == '.' {
			return false
		}
	}
	return intersect(simplifyClasses(p), simplifyClasses(c))
}

// simplifyClasses turns bracket expressions into "?": it widens what a pattern matches, which
// only makes the catalogue match more (the safe direction).
func simplifyClasses(s string) string {
	if !strings.Contains(s, "[") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '[' {
			if j := strings.IndexByte(s[i+1:], ']'); j >= 0 {
				b.WriteByte('?')
				i += j + 1
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// globMatch matches a name against a pattern of literals, "?" and "*".
func globMatch(p, s string) bool {
	px, sx := 0, 0
	starP, starS := -1, 0
	for sx < len(s) {
		switch {
		case px < len(p) && (p[px] == '?' || p[px] == s[sx]):
			px++
			sx++
		case px < len(p) && p[px] == '*':
			starP, starS = px, sx
			px++
		case starP >= 0:
			starS++
			px, sx = starP+1, starS
		default:
			return false
		}
	}
	for px < len(p) && p[px] == '*' {
		px++
	}
	return px == len(p)
}

// intersect reports whether two patterns of literals, "?" and "*" share a matching string.
func intersect(a, b string) bool {
	memo := make(map[[2]int]bool)
	var f func(i, j int) bool
	f = func(i, j int) bool {
		k := [2]int{i, j}
		if v, ok := memo[k]; ok {
			return v
		}
		var r bool
		switch {
		case i == len(a) && j == len(b):
			r = true
		case i < len(a) && a[i] == '*':
			r = f(i+1, j) || j < len(b) && f(i, j+1)
		case j < len(b) && b[j] == '*':
			r = f(i, j+1) || i < len(a) && f(i+1, j)
		case i < len(a) && j < len(b):
			r = (a[i] == '?' || b[j] == '?' || a[i] == b[j]) && f(i+1, j+1)
		}
		memo[k] = r
		return r
	}
	return f(0, 0)
}

// ExpandBraces expands shell brace words ("~/.aws/{credentials,config}" → two words,
// "{a..c}" is left alone as a range is never a path list). It returns at most limit words;
// a word without braces comes back as it is.
func ExpandBraces(w string, limit int) []string {
	out := []string{w}
	for round := 0; round < 8; round++ {
		var next []string
		changed := false
		for _, s := range out {
			pre, alts, post, ok := firstBrace(s)
			if !ok {
				next = append(next, s)
				continue
			}
			changed = true
			for _, a := range alts {
				if len(next) >= limit {
					break
				}
				next = append(next, pre+a+post)
			}
		}
		out = next
		if !changed {
			break
		}
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// firstBrace finds the first outermost {a,b,…} group with at least one top-level comma.
func firstBrace(s string) (pre string, alts []string, post string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '{' || i > 0 && s[i-1] == '$' {
			continue
		}
		depth, start := 0, i+1
		var parts []string
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '{':
				depth++
			case ',':
				if depth == 1 {
					parts = append(parts, s[start:j])
					start = j + 1
				}
			case '}':
				depth--
				if depth == 0 {
					if len(parts) == 0 {
						j = len(s)
						break
					}
					parts = append(parts, s[start:j])
					return s[:i], parts, s[j+1:], true
				}
			}
		}
	}
	return "", nil, "", false
}
