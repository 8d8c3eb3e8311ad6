package catalog

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// Look-alike scopes and name words. Squat (packages.go) compares a whole name with the popular
// names; a private package is popular nowhere, so an imitation of it is only visible in its
// parts: the scope (@acme-intemal, rn for m, imitates an organisation's "internal" scope;
// @anthr0pic-ai imitates a vendor's) and the plain words private names are built from. An npm
// scope belongs to one account, so a scope that reads like a vendor's or like an org's usual
// word but is spelled otherwise is someone else's account: the dependency-confusion and
// typosquat pattern docs/policy.md denies.

//go:embed pkgscopes.toml
var pkgScopesTOML []byte

type scopeList struct {
	Ecosystem Ecosystem `toml:"ecosystem"`
	Source    string    `toml:"source"`
	Names     []string  `toml:"names"`
}

type wordList struct {
	Source string   `toml:"source"`
	Words  []string `toml:"words"`
}

type ownerList struct {
	Source string   `toml:"source"`
	Names  []string `toml:"names"`
}

type pkgScopesFile struct {
	Scopes []scopeList `toml:"scopes"`
	Words  []wordList  `toml:"words"`
	Owners []ownerList `toml:"owners"`
}

// NameWords is the loaded list of vendor scopes and organisation words, read-only after
// LoadNameWords.
type NameWords struct {
	scopes map[Ecosystem]map[string]bool
	owners map[string]bool // GitHub organisations of famous tools and packages
	words  map[string]bool
	folded map[string]string // LookalikeFold(word) → word
}

// LoadNameWords parses and validates the embedded scope and word lists; the scopes of the
// package catalogue's popular npm names count as vendor scopes too.
func LoadNameWords() (*NameWords, error) { return loadNameWords(pkgScopesTOML, DefaultPackages()) }

// DefaultNameWords returns the embedded lists; the package tests validate them, so a failure
// here is a build defect and panics.
var DefaultNameWords = sync.OnceValue(func() *NameWords {
	w, err := LoadNameWords()
	if err != nil {
		panic("catalog: " + err.Error())
	}
	return w
})

func loadNameWords(data []byte, pkgs *Packages) (*NameWords, error) {
	var f pkgScopesFile
	if err := decodeStrict(data, &f); err != nil {
		return nil, fmt.Errorf("pkgscopes.toml: %w", err)
	}
	w := &NameWords{scopes: map[Ecosystem]map[string]bool{}, owners: map[string]bool{}, words: map[string]bool{}, folded: map[string]string{}}
	add := func(e Ecosystem, s string) {
		if w.scopes[e] == nil {
			w.scopes[e] = map[string]bool{}
		}
		w.scopes[e][s] = true
	}
	for _, l := range f.Scopes {
		if !ecosystems[l.Ecosystem] || l.Source == "" || len(l.Names) == 0 {
			return nil, fmt.Errorf("pkgscopes.toml: scope list %q: a known ecosystem, a source and names are required", l.Ecosystem)
		}
		for _, n := range l.Names {
			if n == "" || n != strings.ToLower(n) || strings.ContainsAny(n, "@/ ") {
				return nil, fmt.Errorf("pkgscopes.toml: scope %q: write it lower-case without @ or /", n)
			}
			add(l.Ecosystem, n)
		}
	}
	if pkgs != nil {
		for _, n := range pkgs.names[Npm] {
			if s, _, ok := strings.Cut(strings.TrimPrefix(n, "@"), "/"); ok && strings.HasPrefix(n, "@") {
				add(Npm, s)
			}
		}
	}
	for _, l := range f.Owners {
		if l.Source == "" || len(l.Names) == 0 {
			return nil, fmt.Errorf("pkgscopes.toml: an owner list needs a source and names")
		}
		for _, n := range l.Names {
			if n == "" || n != strings.ToLower(n) || strings.ContainsAny(n, "@/ .") {
				return nil, fmt.Errorf("pkgscopes.toml: owner %q: write the GitHub account lower-case, alone", n)
			}
			w.owners[n] = true
		}
	}
	for _, l := range f.Words {
		if l.Source == "" || len(l.Words) == 0 {
			return nil, fmt.Errorf("pkgscopes.toml: a word list needs a source and words")
		}
		for _, n := range l.Words {
			if len(n) < 3 || n != strings.ToLower(n) || strings.Trim(n, "abcdefghijklmnopqrstuvwxyz") != "" {
				return nil, fmt.Errorf("pkgscopes.toml: word %q: three or more lower-case letters", n)
			}
			w.words[n] = true
			w.folded[LookalikeFold(n)] = n
		}
	}
	return w, nil
}

// LookalikeFold maps the spellings that read alike in a terminal to one form, so that two
// words with the same fold are one word to a reader: I, i, 1 and | as l; a digit standing
// between or before letters as the letter it imitates (0 o, 3 e, 4 a, 5 s, 7 t, 8 b; a
// trailing digit is a version, as in web3, and stays); rn as m, vv as w, cl as d (Unicode
// TR39 confusables restricted to ASCII); separators dropped; doubled letters single.
func LookalikeFold(s string) string {
	b := []byte(s)
	var out []byte
	for i, c := range b {
		if c >= '0' && c <= '9' {
			next := i+1 < len(b) && (b[i+1]|0x20 >= 'a' && b[i+1]|0x20 <= 'z')
			if l, ok := digitLetter[c]; ok && next {
				c = l
			}
		}
		switch {
		case c == 'I' || c == '|' || c == 'i':
			c = 'l'
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c == '-' || c == '_' || c == '.':
			continue
		}
		out = append(out, c)
	}
	f := strings.NewReplacer("rn", "m", "vv", "w", "cl", "d").Replace(string(out))
	var d strings.Builder
	for i := 0; i < len(f); i++ {
		if i > 0 && f[i] == f[i-1] {
			continue
		}
		d.WriteByte(f[i])
	}
	return d.String()
}

var digitLetter = map[byte]byte{'0': 'o', '1': 'l', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b'}

// ScopeImitates judges an owner scope (an npm @scope without its @, a Go module's account):
// ok when it is not itself a vendor scope of the ecosystem but reads like one (the same
// fold, or one slip away when long), or when one of its words reads like, or is one slip
// from, a word organisations name scopes with. of is what it imitates.
func (w *NameWords) ScopeImitates(e Ecosystem, scope string) (of string, ok bool) {
	s := strings.ToLower(scope)
	if s == "" || w.scopes[e][s] {
		return "", false
	}
	if e == GoMod {
		if of, ok := w.OwnerImitates(scope); ok {
			return of, true
		}
	}
	f := LookalikeFold(scope)
	for v := range w.scopes[e] {
		if len(v) < 3 {
			continue
		}
		if LookalikeFold(v) == f {
			return "@" + v, true
		}
		if _, close := wordClose(s, v); close && len(v) >= 6 {
			return "@" + v, true
		}
	}
	for _, word := range splitWords(scope) {
		if of, ok := w.wordImitates(word, true); ok {
			return of, true
		}
	}
	return "", false
}

// NameImitates judges the words of a package name (without its scope): ok when one of them
// is a lookalike spelling of a word organisations name packages with (intemal, p1atform).
// Typing slips are not counted here: a name's words are too varied for that.
func (w *NameWords) NameImitates(name string) (word, of string, ok bool) {
	for _, word := range splitWords(name) {
		if of, ok := w.wordImitates(word, false); ok {
			return word, of, true
		}
	}
	return "", "", false
}

func (w *NameWords) wordImitates(word string, slips bool) (string, bool) {
	l := strings.ToLower(word)
	if len(l) < 4 || w.words[l] {
		return "", false
	}
	if of, ok := w.folded[LookalikeFold(word)]; ok && of != l {
		return of, true
	}
	if !slips {
		return "", false
	}
	for k := range w.words {
		if _, close := wordClose(l, k); close {
			return k, true
		}
	}
	return "", false
}

// LookalikeDigits judges a whole name with a digit written for a letter between letters
// (claude-c0de, expr3ss): ok when the name so read is popular, or reads like a popular name.
// asciiLookalikes (packages.go) covers 0, 1 and I; this covers the other digits that pass for
// letters.
func (p *Packages) LookalikeDigits(e Ecosystem, name string) (of string, ok bool) {
	b := []byte(name)
	changed := false
	for i := 1; i+1 < len(b); i++ {
		l, isDigit := digitLetter[b[i]]
		if isDigit && isLetter(b[i-1]) && isLetter(b[i+1]) {
			b[i], changed = l, true
		}
	}
	if !changed {
		return "", false
	}
	n := NormalizePackage(e, name)
	if p.isPopular(e, n) {
		return "", false
	}
	r := NormalizePackage(e, string(b))
	if p.popular[e][r] {
		return r, true
	}
	if of, ok := p.skeletons[e][skeleton(r)]; ok {
		return of, true
	}
	return "", false
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
