package riskmodel

import "github.com/guardianhq/guardian/riskmodel/catalog"

// A test runner or build tool handed another host's URL (npm test -- --setupFiles=https://…,
// pytest -p, node --import https://…, gradle --init-script https://…) fetches code from
// whoever owns that host and runs it inside the build: docs/policy.md "running code fetched
// from the network … without review". pkg.build-test's low answer covers the project's own
// tools on the project's own code, not a URL of another owner's (the screen base.catalog
// applies through untrustedURLArg). When the host imitates a known CDN or registry
// (unpkg-cdn.net, npmjs-mirror.org) it is a look-alike domain, on the deny list: certain.
// Otherwise the code's owner is unknown: high, asked.

// runnerURLHost returns the untrusted host a build or test run is handed, and whether it
// imitates a known one.
func runnerURLHost(c *execCtx, s *Segment) (host, imitates string) {
	if len(s.Args) < 2 {
		return "", ""
	}
	h := untrustedURLArg(c, s)
	if h == "" {
		return "", ""
	}
	build := false
	for _, o := range pkgOps(c, s) {
		if o.kind == pkgBuild {
			build = true
		}
	}
	if !build {
		return "", ""
	}
	if of, ok := catalog.Default().ImitatedName(h, nil); ok {
		return h, of
	}
	if of, ok := catalog.Default().Lookalike(h); ok {
		return h, of
	}
	return h, ""
}

func r14RunnerRules() []*Rule {
	return []*Rule{
		{
			ID: "pkg.runner-lookalike-url", Level: High, Category: CatRemoteCodeExecution, Certain: true,
			Message: "Hands a build or test runner code from a host that imitates a known CDN or registry",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if h, of := runnerURLHost(c, s); of != "" {
					return "Runs " + s.Name() + " with code from " + h + ", a look-alike of " + of + ": whoever registered it owns what runs", true
				}
				return "", false
			},
		},
		{
			ID: "pkg.runner-remote-url", Level: High, Category: CatRemoteCodeExecution,
			Message: "Hands a build or test runner a URL on another owner's host",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if h, of := runnerURLHost(c, s); h != "" && of == "" {
					return "Runs " + s.Name() + " with a URL on " + h + ", a host that is not the project's: the code it loads is another owner's", true
				}
				return "", false
			},
		},
	}
}
