package catalog

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

//go:embed packages.toml
var packagesTOML []byte

// Ecosystem is a package registry whose names are compared among themselves.
type Ecosystem string

// The ecosystems the package catalogue knows.
const (
	PyPI     Ecosystem = "pypi"
	Npm      Ecosystem = "npm"
	Crates   Ecosystem = "crates"
	RubyGems Ecosystem = "rubygems"
	GoMod    Ecosystem = "go"
	NuGet    Ecosystem = "nuget"
	// Packagist is PHP's Composer registry: vendor/package names, the vendor owned by its
	// publisher.
	Packagist Ecosystem = "packagist"
)

var ecosystems = map[Ecosystem]bool{PyPI: true, Npm: true, Crates: true, RubyGems: true, GoMod: true, NuGet: true, Packagist: true}

// SquatKind says why a package name looks like an imitation.
type SquatKind uint8

// The kinds of imitation, strongest first.
const (
	// SquatMalicious is a name a registry removed as malware.
	SquatMalicious SquatKind = iota + 1
	// SquatHomoglyph spells a popular name with non-ASCII lookalike characters.
	SquatHomoglyph
	// SquatConfusable differs from a popular name only by separators or lookalike ASCII
	// (1/I for l, 0 for o, rn for m, vv for w).
	SquatConfusable
	// SquatTypo is one typing slip from a popular name (two for long names).
	SquatTypo
	// SquatNonASCII is a name with non-ASCII characters that imitates no popular name this
	// catalogue knows: no major registry accepts such names, so something is off.
	SquatNonASCII
)

// Squat is the catalogue's judgement of a package name that is not itself popular.
type Squat struct {
	Kind SquatKind
	// Of is the popular name imitated ("" for SquatNonASCII and some malicious names).
	Of string
	// Distance is the edit distance for SquatTypo.
	Distance int
	// Source says where a malicious name is documented.
	Source string
}

type popularList struct {
	Ecosystem Ecosystem `toml:"ecosystem"`
	Source    string    `toml:"source"`
	Names     []string  `toml:"names"`
}

type maliciousList struct {
	Ecosystem Ecosystem `toml:"ecosystem"`
	Names     []string  `toml:"names"`
	Source    string    `toml:"source"`
}

type packageFile struct {
	Popular   []popularList   `toml:"popular"`
	Malicious []maliciousList `toml:"malicious"`
}

// Packages is the loaded package catalogue, read-only after LoadPackages.
type Packages struct {
	popular   map[Ecosystem]map[string]bool
	names     map[Ecosystem][]string          // popular names, sorted, for the near-miss scan
	skeletons map[Ecosystem]map[string]string // confusable skeleton → popular name
	malicious map[Ecosystem]map[string]string // name → source
}

// LoadPackages parses and validates the embedded package catalogue.
func LoadPackages() (*Packages, error) { return loadPackages(packagesTOML) }

// DefaultPackages returns the embedded package catalogue; the package tests validate it, so a
// failure here is a build defect and panics.
var DefaultPackages = sync.OnceValue(func() *Packages {
	p, err := LoadPackages()
	if err != nil {
		panic("catalog: " + err.Error())
	}
	return p
})

func loadPackages(data []byte) (*Packages, error) {
	var f packageFile
	if err := decodeStrict(data, &f); err != nil {
		return nil, fmt.Errorf("packages.toml: %w", err)
	}
	p := &Packages{popular: map[Ecosystem]map[string]bool{}, names: map[Ecosystem][]string{},
		skeletons: map[Ecosystem]map[string]string{}, malicious: map[Ecosystem]map[string]string{}}
	for _, l := range f.Popular {
		if !ecosystems[l.Ecosystem] || l.Source == "" || len(l.Names) == 0 {
			return nil, fmt.Errorf("packages.toml: popular list %q: a known ecosystem, a source and names are required", l.Ecosystem)
		}
		if p.popular[l.Ecosystem] == nil {
			p.popular[l.Ecosystem], p.skeletons[l.Ecosystem] = map[string]bool{}, map[string]string{}
		}
		for _, n := range l.Names {
			k := NormalizePackage(l.Ecosystem, n)
			if k == "" || k != strings.ToLower(n) && l.Ecosystem != PyPI && l.Ecosystem != Crates {
				return nil, fmt.Errorf("packages.toml: %s name %q must be written in its normal form", l.Ecosystem, n)
			}
			if p.popular[l.Ecosystem][k] {
				continue // the lists overlap; a repeat is harmless
			}
			p.popular[l.Ecosystem][k] = true
			p.names[l.Ecosystem] = append(p.names[l.Ecosystem], k)
			if _, ok := p.skeletons[l.Ecosystem][skeleton(k)]; !ok {
				p.skeletons[l.Ecosystem][skeleton(k)] = k
			}
		}
	}
	for e := range p.names {
		sort.Strings(p.names[e])
	}
	for _, l := range f.Malicious {
		if !ecosystems[l.Ecosystem] || l.Source == "" || len(l.Names) == 0 {
			return nil, fmt.Errorf("packages.toml: malicious list %q: a known ecosystem, a source and names are required", l.Ecosystem)
		}
		if p.malicious[l.Ecosystem] == nil {
			p.malicious[l.Ecosystem] = map[string]string{}
		}
		for _, n := range l.Names {
			k := NormalizePackage(l.Ecosystem, n)
			if p.popular[l.Ecosystem][k] {
				return nil, fmt.Errorf("packages.toml: %s name %q is listed both popular and malicious", l.Ecosystem, n)
			}
			p.malicious[l.Ecosystem][k] = l.Source
		}
	}
	return p, nil
}

// NormalizePackage puts a name in its ecosystem's canonical form, the form in which two
// spellings are the same package: PyPI folds case and runs of -, _ and . (PEP 503);
// crates.io treats - and _ as one; the others fold case only (Go module paths are
// case-sensitive, but the proxy's case-encoding makes a case-only variant no imitation).
func NormalizePackage(e Ecosystem, name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	switch e {
	case PyPI:
		var b strings.Builder
		sep := false
		for _, r := range n {
			if r == '-' || r == '_' || r == '.' {
				sep = true
				continue
			}
			if sep && b.Len() > 0 {
				b.WriteByte('-')
			}
			sep = false
			b.WriteRune(r)
		}
		return b.String()
	case Crates:
		return strings.ReplaceAll(n, "-", "_")
	}
	return n
}

// Popular reports whether a name is in the catalogue's popular list for its ecosystem.
func (p *Packages) Popular(e Ecosystem, name string) bool {
	return p.popular[e][NormalizePackage(e, name)]
}

// Squat judges a name to be installed: ok is false when the name is popular itself, or looks
// like no popular name. Go module paths are judged by the module a popular path is a prefix
// of, so packages below a popular module and its /vN majors are that module.
func (p *Packages) Squat(e Ecosystem, name string) (Squat, bool) {
	if !utf8.ValidString(name) || name == "" {
		return Squat{}, false
	}
	raw := name
	nonASCII := false
	for _, r := range name {
		if r >= utf8.RuneSelf {
			nonASCII = true
			break
		}
	}
	if nonASCII {
		folded := foldHomoglyphs(name)
		if s, ok := p.nearPopular(e, folded); ok || p.popular[e][NormalizePackage(e, folded)] {
			if !ok {
				s.Of = NormalizePackage(e, folded)
			}
			return Squat{Kind: SquatHomoglyph, Of: s.Of}, true
		}
		return Squat{Kind: SquatNonASCII}, true
	}
	n := NormalizePackage(e, name)
	if src, ok := p.malicious[e][n]; ok {
		return Squat{Kind: SquatMalicious, Source: src}, true
	}
	if p.isPopular(e, n) {
		return Squat{}, false
	}
	// Lookalike ASCII is judged on the name as typed: a capital I for an l only shows before
	// case folding.
	if of, ok := p.skeletons[e][skeleton(asciiLookalikes(raw))]; ok && of != n && !p.isPopular(e, n) {
		return Squat{Kind: SquatConfusable, Of: of}, true
	}
	if e == GoMod {
		if of, ok := p.goPathConfusable(raw); ok {
			return Squat{Kind: SquatConfusable, Of: of}, true
		}
	}
	return p.nearPopular(e, name)
}

// isPopular reports whether a normalized name is popular; for Go, whether a popular module
// is a path prefix of it.
func (p *Packages) isPopular(e Ecosystem, n string) bool {
	if p.popular[e][n] {
		return true
	}
	if e == GoMod {
		for i := len(n) - 1; i > 0; i-- {
			if n[i] == '/' && p.popular[e][n[:i]] {
				return true
			}
		}
	}
	return false
}

// nearPopular finds the popular name a non-popular name is a typo or separator/lookalike
// variant of.
func (p *Packages) nearPopular(e Ecosystem, name string) (Squat, bool) {
	n := NormalizePackage(e, name)
	if p.isPopular(e, n) {
		return Squat{}, false
	}
	if of, ok := p.skeletons[e][skeleton(n)]; ok && of != n {
		return Squat{Kind: SquatConfusable, Of: of}, true
	}
	segs := strings.Split(n, "/")
	for _, of := range p.names[e] {
		ps := strings.Split(of, "/")
		cs := segs
		if e == GoMod && len(cs) > len(ps) {
			cs = cs[:len(ps)] // a package below the module
		}
		if len(cs) != len(ps) {
			continue
		}
		if (e == Npm || e == Packagist) && len(cs) == 2 && cs[0] == ps[0] {
			continue // a scope's (a vendor's) owner alone publishes in it: a near name there is the owner's own
		}
		diff := -1
		for i := range cs {
			if cs[i] != ps[i] {
				if diff >= 0 {
					diff = -2
					break
				}
				diff = i
			}
		}
		if diff < 0 {
			continue
		}
		if d, ok := tokensClose(cs[diff], ps[diff]); ok {
			return Squat{Kind: SquatTypo, Of: of, Distance: d}, true
		}
	}
	return Squat{}, false
}

// tokensClose compares one path segment of a candidate with a popular one. Names are made of
// words (lodash.get, react-dom); where both have the same words but one, only that word is
// compared, so a family's members (lodash.get and lodash.has) are not typos of each other.
func tokensClose(a, b string) (int, bool) {
	ta, tb := splitWords(a), splitWords(b)
	if len(ta) == len(tb) && len(ta) > 1 {
		diff := -1
		for i := range ta {
			if ta[i] != tb[i] {
				if diff >= 0 {
					return 0, false // more than one word differs: another name
				}
				diff = i
			}
		}
		if diff < 0 {
			return 0, false // only the separators differ: the skeleton check's business
		}
		if d, ok := wordClose(ta[diff], tb[diff]); ok {
			return d, true
		}
		return shortWordSlip(a, b, ta[diff], tb[diff])
	}
	if len(ta) != len(tb) {
		return 0, false
	}
	return wordClose(a, b)
}

// shortWordSlip judges a slip inside a short word of a longer name (create-nxet-app,
// newtonsoft.jsonn): a short word alone has many real neighbours, but the whole name around
// it is long enough that a swapped, doubled or lost double letter there is a typing slip of
// the popular name, not another package; so is a letter dropped from a word of four or more.
// A slip that makes a whole word of the popular name's family (a letter substituted) is not
// accepted: lodash.get and lodash.set stay apart.
func shortWordSlip(a, b, wa, wb string) (int, bool) {
	if len(wb) < 3 || len(wb) >= 5 || len(b) < 8 {
		return 0, false
	}
	if strings.TrimRight(wa, "0123456789") == strings.TrimRight(wb, "0123456789") || wa+"s" == wb || wb+"s" == wa {
		return 0, false
	}
	if slip(wa, wb) && slip(a, b) {
		return 1, true
	}
	// A letter dropped from a word of four or more (newtonsoft.jsn): what is left is no
	// word of a family, where a substituted or added letter may make one.
	if len(wb) >= 4 && len(wa) == len(wb)-1 && osa(wa, wb) == 1 && len(a) >= 8 {
		return 1, true
	}
	return 0, false
}

func splitWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
}

// wordClose says whether a is a typing slip of the popular word b. Short words have many
// legitimate neighbours, so the slips accepted shrink with length: from 8 characters any
// single edit; 5 to 7 only a swap of neighbours, a doubled or an undoubled letter; from 12
// two edits. Variants by a trailing version number (boto/boto3) or a plural s are other
// packages.
func wordClose(a, b string) (int, bool) {
	if a == b || len(b) < 5 {
		return 0, false
	}
	if strings.TrimRight(a, "0123456789") == strings.TrimRight(b, "0123456789") || a+"s" == b && !strings.HasSuffix(a, "s") || b+"s" == a && !strings.HasSuffix(b, "s") {
		return 0, false
	}
	if d := len(a) - len(b); d > 2 || d < -2 {
		return 0, false
	}
	d := osa(a, b)
	switch {
	case d == 1 && len(b) >= 8, d == 2 && len(b) >= 12:
		return d, true
	case d == 1 && slip(a, b):
		return d, true
	}
	return 0, false
}

// slip reports a swap of neighbouring letters, a doubled letter or a lost double.
func slip(a, b string) bool {
	if len(a) == len(b) {
		for i := 0; i+1 < len(a); i++ {
			if a[i] != b[i] {
				return a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
			}
		}
		return false
	}
	long, short := a, b
	if len(long) < len(short) {
		long, short = short, long
	}
	for i := 0; i < len(long); i++ {
		if i >= len(short) || long[i] != short[i] {
			return long[i+1:] == short[i:] && (i > 0 && long[i-1] == long[i] || i+1 < len(long) && long[i+1] == long[i])
		}
	}
	return false
}

// osa is the optimal-string-alignment (restricted Damerau-Levenshtein) distance.
func osa(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// asciiLookalikes maps the ASCII characters that pass for others before case folding:
// capital I and the digit 1 for l, the digit 0 for o.
func asciiLookalikes(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case 'I', '1', '|':
			return 'l'
		case '0':
			return 'o'
		}
		return r
	}, s)
}

// skeleton is a name with separators dropped and look-alike sequences merged (rn → m,
// vv → w), so that crossenv and cross-env, or rnoment and moment, meet.
func skeleton(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("-", "", "_", "", ".", "", "rn", "m", "vv", "w").Replace(s)
	return s
}

// homoglyphs maps non-ASCII letters to the ASCII letters they pass for (Unicode TR39
// confusables, the Cyrillic and Greek lowercase lookalikes and a few Latin ones).
var homoglyphs = map[rune]rune{
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'ӏ': 'l',
	'һ': 'h', 'ԛ': 'q', 'ԝ': 'w', 'к': 'k', 'м': 'm', 'т': 't', 'в': 'b', 'н': 'h', 'ɡ': 'g', 'ı': 'i', 'ɩ': 'i', 'ʟ': 'l',
	'ο': 'o', 'α': 'a', 'ν': 'v', 'ρ': 'p', 'ι': 'i', 'κ': 'k', 'τ': 't', 'υ': 'u', 'ϲ': 'c', 'ε': 'e', 'ѵ': 'v', 'ɑ': 'a',
	'ℓ': 'l', 'ⅼ': 'l', 'ⅰ': 'i', '‐': '-', '‑': '-', '–': '-', '—': '-', '․': '.', 'ǀ': 'l',
	'А': 'a', 'В': 'b', 'Е': 'e', 'К': 'k', 'М': 'm', 'Н': 'h', 'О': 'o', 'Р': 'p', 'С': 'c', 'Т': 't', 'Х': 'x', 'І': 'l',
	'Α': 'a', 'Β': 'b', 'Ε': 'e', 'Ζ': 'z', 'Η': 'h', 'Ι': 'l', 'Κ': 'k', 'Μ': 'm', 'Ν': 'n', 'Ο': 'o', 'Ρ': 'p', 'Τ': 't',
	'Υ': 'y', 'Χ': 'x',
}

// foldHomoglyphs maps lookalike characters to ASCII: the table, fullwidth forms, and Latin
// letters with diacritics to their base letter.
func foldHomoglyphs(s string) string {
	return strings.Map(func(r rune) rune {
		if a, ok := homoglyphs[r]; ok {
			return a
		}
		if r >= 0xFF01 && r <= 0xFF5E { // fullwidth ASCII
			return unicode.ToLower(r - 0xFEE0)
		}
		if b, ok := latinBase(r); ok {
			return b
		}
		if unicode.Is(unicode.Mn, r) || r == 0x200B || r == 0x200C || r == 0x200D || r == 0xFEFF || r == 0x00AD {
			return -1 // combining marks, zero-width characters, soft hyphens
		}
		return r
	}, s)
}

// latinBase strips the diacritic of the common precomposed Latin letters.
func latinBase(r rune) (rune, bool) {
	const from = "àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥìíîïĩīĭįĵķĺļľłñńņňòóôõöøōŏőŕŗřśŝşšţťùúûüũūŭůűųŵýÿŷźżž"
	const to = "aaaaaaaaacccccddeeeeeeeeegggghiiiiiiiijkllllnnnnooooooooorrrssssttuuuuuuuuuuwyyyzzz"
	fr := []rune(from)
	for i, c := range fr {
		if c == r {
			return rune(to[i]), true
		}
	}
	return 0, false
}
