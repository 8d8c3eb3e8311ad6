package catalog

import (
	"fmt"
	"strings"
)

// TokenOwner says which hosts a credential named in the environment is issued for: a
// registry token sent to its own registry (NPM_TOKEN → registry.npmjs.org) is the token's
// ordinary use, not exfiltration. Vars are exact variable names or prefixes ending in "_";
// Domains are registrable domains, matched on the host or any parent of it.
type TokenOwner struct {
	Vars    []string `toml:"vars" json:"vars,omitempty"`
	Domains []string `toml:"domains" json:"domains,omitempty"`
	Source  string   `toml:"source" json:"source,omitempty"`
}

func validateTokenOwners(ts []TokenOwner) error {
	for _, t := range ts {
		if len(t.Vars) == 0 || len(t.Domains) == 0 || t.Source == "" {
			return fmt.Errorf("token %v: vars, domains and a source are required", t.Vars)
		}
		for _, d := range t.Domains {
			if d != strings.ToLower(d) || strings.Count(d, ".") < 1 || strings.ContainsAny(d, "/*") {
				return fmt.Errorf("token %v: domain %q must be a lower-case registrable domain", t.Vars, d)
			}
		}
	}
	return nil
}

// TokenOwnedBy reports whether the catalogue names host as a destination the credential in
// the variable v is issued for.
func (c *Catalog) TokenOwnedBy(v, host string) bool {
	v = strings.ToUpper(v)
	host = CanonicalHost(host)
	for _, t := range c.hosts.Token {
		named := false
		for _, p := range t.Vars {
			if v == p || strings.HasSuffix(p, "_") && strings.HasPrefix(v, p) {
				named = true
				break
			}
		}
		if !named {
			continue
		}
		for _, d := range t.Domains {
			if host == d || strings.HasSuffix(host, "."+d) {
				return true
			}
		}
	}
	return false
}

// TokenOwnerKnown reports whether the catalogue names the hosts the credential in the
// variable v is issued for; such a credential sent anywhere else is a leak, however much the
// host's name resembles its owner's (api.github-status.io for GITHUB_TOKEN).
func (c *Catalog) TokenOwnerKnown(v string) bool {
	v = strings.ToUpper(v)
	for _, t := range c.hosts.Token {
		for _, p := range t.Vars {
			if v == p || strings.HasSuffix(p, "_") && strings.HasPrefix(v, p) {
				return true
			}
		}
	}
	return false
}
