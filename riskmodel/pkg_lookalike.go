package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Look-alike package names beyond the popular lists. catalog.Squat compares a whole name with
// the names people install most; a private or vendor package is imitated in its parts, which
// this file reads: the owner scope (@acme-intemal for @acme-internal, @anthr0pic-ai for
// @anthropic-ai, a Go module's account), the plain words of the name (acme-p1atform-utils),
// a digit written for a letter in a vendor's package (claude-c0de), and two scopes of one
// request that read alike but differ (@acme/ui with @acrne/tokens: one of them is not the
// project's). docs/policy.md denies typosquatted and homoglyph packages and look-alike orgs.

// pkgOwnerScope splits a registry name into the owner scope and the rest: npm's @scope/name,
// a Go module's account (github.com/ACCOUNT/repo); "" for names without an owner.
func pkgOwnerScope(eco catalog.Ecosystem, name string) (scope, rest string) {
	switch eco {
	case catalog.Npm:
		if s, r, ok := strings.Cut(strings.TrimPrefix(name, "@"), "/"); ok && strings.HasPrefix(name, "@") {
			return s, r
		}
	case catalog.GoMod:
		parts := strings.Split(name, "/")
		if len(parts) >= 3 {
			return parts[1], strings.Join(parts[2:], "/")
		}
	}
	return "", name
}

// pkgLookalikeName describes why an installed name imitates a vendor's or an organisation's
// package, "" when it does not. all is every name of the request, for the scopes it shows.
func pkgLookalikeName(n pkgNamed, all []pkgNamed) string {
	eco, name := pkgEcoNames.get()[n.eco], capText(n.name)
	const tail = ": a look-alike package's install code runs with the agent's access"
	if of, ok := catalog.DefaultPackages().LookalikeDigits(n.eco, n.name); ok {
		return "Installs " + name + ", which spells the " + eco + " package " + of + " with a digit for a letter" + tail
	}
	words := catalog.DefaultNameWords()
	scope, rest := pkgOwnerScope(n.eco, n.name)
	if scope != "" {
		if of, ok := words.ScopeImitates(n.eco, scope); ok {
			return "Installs " + name + ", whose owner " + capText(scope) + " reads like " + of + " but is another account" + tail
		}
		f := catalog.LookalikeFold(scope)
		for _, o := range all {
			os, _ := pkgOwnerScope(o.eco, o.name)
			if o.eco == n.eco && os != "" && os != scope && len(f) >= 3 && catalog.LookalikeFold(os) == f {
				return "Installs " + name + " next to " + capText(o.name) + ": the owners " + capText(scope) + " and " + capText(os) + " read alike but are different accounts" + tail
			}
		}
	}
	if word, of, ok := words.NameImitates(rest); ok {
		return "Installs " + name + ", whose word " + capText(word) + " is a look-alike spelling of " + of + tail
	}
	return ""
}
