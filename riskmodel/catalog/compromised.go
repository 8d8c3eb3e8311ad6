package catalog

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

//go:embed compromised.toml
var compromisedTOML []byte

// Compromised package versions: releases of real packages that an attacker published after
// taking over an account or a build pipeline (event-stream 3.3.6, ua-parser-js 0.7.29,
// rest-client 1.6.13). The name alone is fine; these versions are malware.

type compromisedEntry struct {
	Ecosystem Ecosystem `toml:"ecosystem"`
	Name      string    `toml:"name"`
	Versions  []string  `toml:"versions"`
	Source    string    `toml:"source"`
}

// Compromised is the loaded list, read-only after loading: ecosystem → normal name →
// version → advisory.
type Compromised struct {
	byName map[Ecosystem]map[string]map[string]string
}

// LoadCompromised parses and validates the embedded list.
func LoadCompromised() (*Compromised, error) { return loadCompromised(compromisedTOML) }

// DefaultCompromised returns the embedded list; the package tests validate it, so a failure
// here is a build defect and panics.
var DefaultCompromised = sync.OnceValue(func() *Compromised {
	c, err := LoadCompromised()
	if err != nil {
		panic("catalog: " + err.Error())
	}
	return c
})

func loadCompromised(data []byte) (*Compromised, error) {
	var f struct {
		Compromised []compromisedEntry `toml:"compromised"`
	}
	if err := decodeStrict(data, &f); err != nil {
		return nil, fmt.Errorf("compromised.toml: %w", err)
	}
	c := &Compromised{byName: map[Ecosystem]map[string]map[string]string{}}
	for _, e := range f.Compromised {
		if !ecosystems[e.Ecosystem] || e.Name == "" || e.Source == "" || len(e.Versions) == 0 {
			return nil, fmt.Errorf("compromised.toml: entry %q: a known ecosystem, a name, versions and a source are required", e.Name)
		}
		if c.byName[e.Ecosystem] == nil {
			c.byName[e.Ecosystem] = map[string]map[string]string{}
		}
		n := NormalizePackage(e.Ecosystem, e.Name)
		if c.byName[e.Ecosystem][n] == nil {
			c.byName[e.Ecosystem][n] = map[string]string{}
		}
		for _, v := range e.Versions {
			c.byName[e.Ecosystem][n][strings.TrimSpace(v)] = e.Source
		}
	}
	return c, nil
}

// Version returns the advisory of a compromised release; ok is false for every other
// version and name. A leading v and an exact-pin operator (=, ==) are not part of the version.
func (c *Compromised) Version(e Ecosystem, name, version string) (source string, ok bool) {
	vs := c.byName[e][NormalizePackage(e, name)]
	if vs == nil {
		return "", false
	}
	v := strings.TrimLeft(strings.TrimSpace(version), "=v")
	source, ok = vs[v]
	return source, ok
}

// Has reports whether any release of a name is listed (so a caller can skip the version
// parsing for every other name).
func (c *Compromised) Has(e Ecosystem, name string) bool {
	return c.byName[e][NormalizePackage(e, name)] != nil
}
