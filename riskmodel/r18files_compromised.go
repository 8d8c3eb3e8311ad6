package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Known-compromised releases (catalog/compromised.toml): a real, popular package at a version
// an attacker published (event-stream@3.3.6, ua-parser-js@0.7.29, rest-client 1.6.13,
// ctx==0.2.6). Its install scripts or import-time code are the attacker's; pinning it is on
// docs/policy.md's deny list like a typosquat, and the advisory establishes the effect.

// pkgCompromisedCheck is pkg.compromised-version's check: the first installed name pinned to
// a listed release.
func pkgCompromisedCheck(_ *execCtx, s *Segment) (string, bool) {
	named := pkgInstallNames(s)
	if len(named) == 0 {
		return "", false
	}
	cc := catalog.DefaultCompromised()
	var args []string
	cur := s
	for depth := 0; depth < 8; depth++ {
		args = append(args, cur.Args...)
		next, _, ok := pkgRunnerInner(cur)
		if !ok {
			break
		}
		cur = next
	}
	for _, n := range named {
		if !cc.Has(n.eco, n.name) {
			continue
		}
		for _, v := range pkgPinnedVersions(args, n.name) {
			if src, ok := cc.Version(n.eco, n.name, v); ok {
				return "Installs " + capText(n.name) + " " + capText(v) + ", a release published by an attacker (" + capText(src) + "): its code runs with the agent's access", true
			}
		}
	}
	return "", false
}

// pkgPinnedVersions returns the versions a command line pins for name: name@V (npm, cargo),
// name==V and name===V (pip), name:V (composer, gem), name=V, and a -v/--version option's value
// (gem install NAME -v V, dotnet add package NAME --version V, bundle add NAME --version V).
func pkgPinnedVersions(args []string, name string) []string {
	var out []string
	ln := strings.ToLower(name)
	for i, a := range args {
		la := strings.ToLower(a)
		if strings.HasPrefix(la, ln) {
			rest := a[len(ln):]
			for _, sep := range []string{"===", "==", "@", ":", "="} {
				if strings.HasPrefix(rest, sep) {
					out = append(out, strings.Trim(rest[len(sep):], `"' `))
					break
				}
			}
		}
		switch {
		case (a == "-v" || a == "--version" || a == "--vers") && i+1 < len(args):
			out = append(out, args[i+1])
		case strings.HasPrefix(a, "--version="):
			out = append(out, strings.TrimPrefix(a, "--version="))
		}
	}
	return out
}

// r18CompromisedRules holds pkg.compromised-version.
func r18CompromisedRules() []*Rule {
	return []*Rule{
		{ID: "pkg.compromised-version", Level: High, Category: CatRemoteCodeExecution, Certain: true,
			Message: "Installs a release of a package that an attacker published (a known-compromised version)",
			exec:    pkgCompromisedCheck},
	}
}
