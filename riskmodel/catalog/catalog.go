// Package catalog holds guardian's knowledge of places as data: which paths are credential
// stores, agent configuration, persistence locations, privilege and security-control files,
// and which hosts are loopback, private, cloud metadata services, wildcard-DNS names,
// vendor installers or sensitive local services. The exec and MCP analyses both ask it, so
// the same path or host gets the same answer whichever front end saw it.
//
// The data lives in paths.toml and hosts.toml, embedded in the binary and validated when
// first loaded; every entry records where it came from.
package catalog

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

//go:embed paths.toml
var pathsTOML []byte

//go:embed hosts.toml
var hostsTOML []byte

// Catalog is the loaded, validated catalogue. It is read-only after Load.
type Catalog struct {
	paths   []PathEntry
	byClass map[Class][]*PathEntry
	index   map[Class]*classIndex
	owners  []Owner
	hosts   hostData
}

// Load parses and validates the embedded data files.
func Load() (*Catalog, error) {
	return load(pathsTOML, hostsTOML)
}

func load(pathsData, hostsData []byte) (*Catalog, error) {
	var pf pathFile
	if err := decodeStrict(pathsData, &pf); err != nil {
		return nil, fmt.Errorf("paths.toml: %w", err)
	}
	c := &Catalog{paths: pf.Path, byClass: map[Class][]*PathEntry{}}
	seen := map[string]bool{}
	for i := range c.paths {
		e := &c.paths[i]
		if err := e.validate(); err != nil {
			return nil, fmt.Errorf("paths.toml: %w", err)
		}
		if seen[e.ID] {
			return nil, fmt.Errorf("paths.toml: duplicate id %q", e.ID)
		}
		seen[e.ID] = true
		c.byClass[e.Class] = append(c.byClass[e.Class], e)
	}
	c.owners = pf.Owner
	for i := range c.owners {
		if err := c.owners[i].validate(); err != nil {
			return nil, fmt.Errorf("paths.toml: %w", err)
		}
	}
	c.index = map[Class]*classIndex{}
	for cl, es := range c.byClass {
		c.index[cl] = buildIndex(es)
	}
	if err := decodeStrict(hostsData, &c.hosts); err != nil {
		return nil, fmt.Errorf("hosts.toml: %w", err)
	}
	if err := c.hosts.validate(); err != nil {
		return nil, fmt.Errorf("hosts.toml: %w", err)
	}
	return c, nil
}

func decodeStrict(data []byte, v any) error {
	d := toml.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}

// Default returns the embedded catalogue. The data is validated by the package tests, so a
// failure here is a build defect and panics.
var Default = sync.OnceValue(func() *Catalog {
	c, err := Load()
	if err != nil {
		panic("catalog: " + err.Error())
	}
	return c
})

// Entries returns the path entries of a class (all classes when class is ""), for listing.
func (c *Catalog) Entries(class Class) []PathEntry {
	var out []PathEntry
	for _, e := range c.paths {
		if class == "" || e.Class == class {
			out = append(out, e)
		}
	}
	return out
}

// Classify returns the first entry of class that covers p, which may be absolute, start
// with "~", "~user" or "$HOME", hold globs or brace words. home is the request's home.
func (c *Catalog) Classify(class Class, p, home string) (*PathEntry, bool) {
	if !pathLike(p) {
		return nil, false
	}
	for _, w := range ExpandBraces(p, 64) {
		if e, ok := c.classify(class, w, home); ok {
			return e, true
		}
		if class != Credential {
			continue
		}
		if b, ok := withoutBackupSuffix(w); ok {
			if e, ok := c.classify(class, b, home); ok {
				return e, true // a compressed or backup copy of a store (backups.go)
			}
		}
	}
	return nil, false
}

// classify is Classify for one path without braces.
func (c *Catalog) classify(class Class, w, home string) (*PathEntry, bool) {
	ps, ok := Normalize(w, home)
	if !ok || !c.index[class].mayMatch(ps) {
		return nil, false
	}
	for _, e := range c.byClass[class] {
		if e.matches(ps) {
			return e, true
		}
	}
	return nil, false
}

// Is reports whether p is in class.
func (c *Catalog) Is(class Class, p, home string) bool {
	_, ok := c.Classify(class, p, home)
	return ok
}

// Holds reports whether a path of class lies below the directory p (so that reading p
// recursively, or mounting it, exposes it). The home directory and / are not reported:
// they hold everything.
func (c *Catalog) Holds(class Class, p, home string) (*PathEntry, bool) {
	if !pathLike(p) {
		return nil, false
	}
	for _, w := range ExpandBraces(p, 64) {
		ps, ok := Normalize(w, home)
		if !ok || !c.index[class].mayHold(ps) {
			continue
		}
		for _, e := range c.byClass[class] {
			if e.below(ps) {
				return e, true
			}
		}
	}
	return nil, false
}

// HomePrefixes returns the literal leading part of each home pattern of class ("~/.ssh/id_*"
// gives ".ssh/id_"), for callers that compare plain path prefixes.
func (c *Catalog) HomePrefixes(class Class) []string {
	var out []string
	for _, e := range c.byClass[class] {
		for _, p := range e.Home {
			lit := p
			if i := indexGlob(p); i >= 0 {
				lit = p[:i]
			}
			lit = trimSlash(lit)
			if lit != "" {
				out = append(out, lit)
			}
		}
	}
	return out
}

func indexGlob(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '*' || s[i] == '?' || s[i] == '[' {
			return i
		}
	}
	return -1
}

func trimSlash(s string) string {
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

// pathLike rejects words no system takes for a path: longer than PATH_MAX, or with a
// segment longer than NAME_MAX (before brace expansion, which only shortens segments). It
// keeps a 64 KiB argument from being matched against every pattern.
func pathLike(p string) bool {
	if len(p) > 4096 {
		return false
	}
	seg := 0
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			seg = 0
			continue
		}
		if seg++; seg > 255*2 {
			return false // NAME_MAX, with room for brace alternatives
		}
	}
	return true
}

// classIndex lets a literal path that no entry of a class can match be rejected without
// trying every pattern: most words a command carries are not in any class.
type classIndex struct {
	homeFirst, absFirst, anyFirst, baseLit map[string]bool
	homeGlob, absGlob, anyGlob             bool
	baseGlobs                              []string
}

func buildIndex(es []*PathEntry) *classIndex {
	x := &classIndex{homeFirst: map[string]bool{}, absFirst: map[string]bool{}, anyFirst: map[string]bool{}, baseLit: map[string]bool{}}
	first := func(pats [][]string, skip int, set map[string]bool, glob *bool) {
		for _, p := range pats {
			if len(p) <= skip || hasGlob(p[skip]) || p[skip] == "**" {
				*glob = true
				continue
			}
			set[p[skip]] = true
		}
	}
	for _, e := range es {
		first(e.home, 0, x.homeFirst, &x.homeGlob)
		first(e.abs, 0, x.absFirst, &x.absGlob)
		first(e.any, 1, x.anyFirst, &x.anyGlob)
		for _, b := range e.Base {
			if hasGlob(b) {
				x.baseGlobs = append(x.baseGlobs, b)
			} else {
				x.baseLit[b] = true
			}
		}
	}
	return x
}

// mayHold reports whether some entry of the class could lie below ps (PathEntry.below); false
// is certain. below compares a pattern's first segment with ps's first, so a literal first
// segment that no home (or absolute) pattern of the class starts with rules every entry out.
func (x *classIndex) mayHold(ps PathSpec) bool {
	if x == nil || len(ps.Segs) == 0 {
		return false
	}
	if hasGlob(ps.Segs[0]) {
		return true
	}
	if ps.InHome {
		return x.homeGlob || x.homeFirst[ps.Segs[0]]
	}
	return x.absGlob || x.absFirst[ps.Segs[0]]
}

// mayMatch reports whether some entry of the class could match ps; false is certain.
func (x *classIndex) mayMatch(ps PathSpec) bool {
	if x == nil {
		return false
	}
	for _, s := range ps.Segs {
		if hasGlob(s) {
			return true // judged in full
		}
	}
	if len(ps.Segs) == 0 {
		return true
	}
	if ps.InHome && (x.homeGlob || x.homeFirst[ps.Segs[0]]) || !ps.InHome && (x.absGlob || x.absFirst[ps.Segs[0]]) {
		return true
	}
	if x.anyGlob {
		return true
	}
	for _, s := range ps.Segs {
		if x.anyFirst[s] {
			return true
		}
	}
	last := ps.Segs[len(ps.Segs)-1]
	if x.baseLit[last] {
		return true
	}
	for _, b := range x.baseGlobs {
		if globMatch(simplifyClasses(b), last) {
			return true
		}
	}
	return false
}
