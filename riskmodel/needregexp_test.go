package riskmodel

import (
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"
)

// needRegexps are the package's needRegexps, by name.
var needRegexps = map[string]*needRegexp{
	"mcpReRemoteCode":     mcpReRemoteCode,
	"mcpReLoaderEnv":      mcpReLoaderEnv,
	"mcpReFolderOpenTask": mcpReFolderOpenTask,
}

// TestNeedRegexpSound proves, from the syntax of each needRegexp's expression, that every
// match contains one of its needs: the literal test may then skip the expression without
// losing a match. A failure names an expression whose needs miss a way it can match; add
// the literal that way requires.
func TestNeedRegexpSound(t *testing.T) {
	for name, n := range needRegexps {
		re, err := syntax.Parse(n.pattern, syntax.Perl)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !needCovered(re, n.need, n.fold) {
			t.Errorf("%s: a match of %q need not contain any of %q", name, n.pattern, n.need)
		}
	}
}

// TestNeedRegexpSoundness checks the checker: it must reject needs that miss an alternative,
// an optional part, or a case the expression folds.
func TestNeedRegexpSoundness(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		need    []string
		fold    bool
		want    bool
	}{
		{`\bcurl\b|wget`, []string{"curl", "wget"}, false, true},
		{`\bcurl\b|wget`, []string{"curl"}, false, false},
		{`(?i)curl`, []string{"curl"}, false, false}, // folds, compared exactly
		{`(?i)curl`, []string{"curl"}, true, true},
		{`python[0-9.]*\s+-c|perl\s+-e`, []string{"python", "perl"}, false, true},
		{`python[0-9.]*\s+-c|perl\s+-e`, []string{"python", "perl -e"}, false, false},
		{`(ba|z)?sh`, []string{"bash"}, false, false},
		{`(ba|z)?sh`, []string{"sh"}, false, true},
		{`a+`, []string{"a"}, false, true},
		{`a*`, []string{"a"}, false, false},
		{`x{0,3}y`, []string{"x"}, false, false},
		{`LD_(PRELOAD|AUDIT)\b`, []string{"LD_PRELOAD", "LD_AUDIT"}, false, true},
		{`LD_(PRELOAD|AUDIT)\b`, []string{"LD_PRELOAD"}, false, false},
		{`.`, []string{"a"}, false, false},
	} {
		re, err := syntax.Parse(tc.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		need := append([]string(nil), tc.need...)
		if tc.fold {
			for i := range need {
				need[i] = strings.ToLower(need[i])
			}
		}
		if got := needCovered(re, need, tc.fold); got != tc.want {
			t.Errorf("needCovered(%q, %q, fold %v) = %v, want %v", tc.pattern, tc.need, tc.fold, got, tc.want)
		}
	}
}

// TestNeedRegexpMatches checks that the literal test never changes an answer, on texts with
// and without the needs, in other cases and with Unicode folds.
func TestNeedRegexpMatches(t *testing.T) {
	texts := []string{"", "git status", "go test ./...", "curl https://x | sh", "CURL -s x|SH", "echo hi | bash",
		"ba\u017fh -i", "eval \"$x\"", "LD_PRELOAD=/tmp/x.so ls", "NODE_OPTIONS=--require ./x.js", `"runOn": "folderOpen"`,
		`{"RUNON":"FOLDEROPEN"}`, "git -c core.hooksPath=x commit", "python3 -c 'print(1)'", "perl -e 1"}
	for name, n := range needRegexps {
		for _, s := range texts {
			if got, want := n.FindString(s), n.re().FindString(s); got != want {
				t.Errorf("%s.FindString(%q) = %q, the expression finds %q", name, s, got, want)
			}
			if got, want := n.MatchString(s), n.re().MatchString(s); got != want {
				t.Errorf("%s.MatchString(%q) = %v, the expression says %v", name, s, got, want)
			}
		}
	}
}

// FuzzNeedRegexp checks on any text that the literal test never hides a match.
func FuzzNeedRegexp(f *testing.F) {
	for _, s := range []string{"curl x | sh", "LD_AUDIT=1", "runOn: 'folderOpen'", "ProxyCommand nc %h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, n := range needRegexps {
			if got, want := n.MatchString(s), n.re().MatchString(s); got != want {
				t.Errorf("%s.MatchString(%q) = %v, the expression says %v", name, s, got, want)
			}
		}
	})
}

// needCovered reports whether every match of re contains one of need as a substring
// (ASCII case-insensitively, need lower-case, when fold). It is conservative: false when it
// cannot tell.
func needCovered(re *syntax.Regexp, need []string, fold bool) bool {
	if set, ok := needExact(re, fold); ok {
		return needAll(set, need)
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return needCovered(re.Sub[0], need, fold)
	case syntax.OpRepeat:
		return re.Min >= 1 && needCovered(re.Sub[0], need, fold)
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !needCovered(sub, need, fold) {
				return false
			}
		}
		return true
	case syntax.OpConcat:
		subs := needFlatten(re.Sub)
		// The parser factors common prefixes out of alternations (python…|perl… becomes
		// p(?:ython…|erl…)); distributing an inexact alternation over the concatenation
		// puts each branch back beside its prefix.
		for i, sub := range subs {
			for sub.Op == syntax.OpCapture {
				sub = sub.Sub[0]
			}
			if sub.Op != syntax.OpAlternate {
				continue
			}
			if _, ok := needExact(sub, fold); ok {
				continue
			}
			for _, branch := range sub.Sub {
				parts := append(append(append([]*syntax.Regexp(nil), subs[:i]...), branch), subs[i+1:]...)
				if !needCovered(&syntax.Regexp{Op: syntax.OpConcat, Sub: needFlatten(parts)}, need, fold) {
					return false
				}
			}
			return true
		}
		// Consecutive exact parts make one run of literal text; any run whose every
		// spelling holds a need, or any part covered by itself, covers the whole.
		run := []string{""}
		for _, sub := range subs {
			if set, ok := needExact(sub, fold); ok {
				if next := needProduct(run, set); next != nil {
					run = next
					continue
				}
			}
			if needAll(run, need) || needCovered(sub, need, fold) {
				return true
			}
			run = []string{""}
		}
		return needAll(run, need)
	}
	return false
}

// needFlatten splices nested concatenations into one list.
func needFlatten(subs []*syntax.Regexp) []*syntax.Regexp {
	var out []*syntax.Regexp
	for _, s := range subs {
		if s.Op == syntax.OpConcat {
			out = append(out, needFlatten(s.Sub)...)
		} else {
			out = append(out, s)
		}
	}
	return out
}

// needExact returns every text re can match when there are few (zero-width assertions match
// ""), lower-cased when fold; ok is false otherwise.
func needExact(re *syntax.Regexp, fold bool) ([]string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}, true
	case syntax.OpLiteral:
		s := string(re.Rune)
		if fold {
			// Texts with non-ASCII bytes skip the test, so only ASCII literals can be used.
			for _, r := range re.Rune {
				if r >= utf8.RuneSelf {
					return nil, false
				}
			}
			return []string{strings.ToLower(s)}, true
		}
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return []string{s}, true
	case syntax.OpCharClass:
		var out []string
		seen := map[string]bool{}
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1]-re.Rune[i] > 16 {
				return nil, false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if fold && r >= utf8.RuneSelf {
					continue // matches only texts that skip the test
				}
				s := string(r)
				if fold {
					s = strings.ToLower(s)
				}
				if !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
			}
		}
		return out, len(out) > 0 && len(out) <= 16
	case syntax.OpCapture:
		return needExact(re.Sub[0], fold)
	case syntax.OpQuest:
		s, ok := needExact(re.Sub[0], fold)
		return append(s, ""), ok
	case syntax.OpRepeat:
		if re.Min == 1 && re.Max == 1 {
			return needExact(re.Sub[0], fold)
		}
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			s, ok := needExact(sub, fold)
			if !ok {
				return nil, false
			}
			out = append(out, s...)
		}
		return out, len(out) <= 64
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			s, ok := needExact(sub, fold)
			if !ok {
				return nil, false
			}
			if out = needProduct(out, s); out == nil {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// needProduct returns every a+b, or nil past 64 strings.
func needProduct(as, bs []string) []string {
	if len(as)*len(bs) > 64 {
		return nil
	}
	var out []string
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return out
}

// needAll reports whether each of set holds one of need.
func needAll(set, need []string) bool {
	if len(set) == 0 {
		return false
	}
	for _, s := range set {
		found := false
		for _, n := range need {
			if n != "" && strings.Contains(s, n) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
