package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Running a package straight from its registry (npx, pnpm dlx, yarn dlx, bunx, uvx, pipx run)
// is installing it from the usual registry and running it: routine (docs/policy.md: installing
// from the usual registries) when the package is one the catalogue knows as widely used
// (catalog/packages.toml, popular lists) and what it is given stays in the project — shadcn
// adding components, Biome formatting src/, the OpenAPI generator writing a client. A package
// the catalogue does not know stays pkg.run-package (high: its code runs unreviewed), a
// typosquat is pkg.typosquat, and a source outside the registry is pkg.untrusted-source.

// pkgRunKnown judges a registry run of a popular package whose arguments name only paths in
// the workspace (or a temporary directory) and no URL of another host.
func pkgRunKnown(c *execCtx, spec string, inner []string, tool string) (pkgOp, bool) {
	eco := catalog.Npm
	if strings.HasPrefix(tool, "uv") || strings.HasPrefix(tool, "pipx") {
		eco = catalog.PyPI
	} else if strings.HasPrefix(tool, "go") || strings.Contains(tool, "create") || strings.HasPrefix(tool, "npm init") {
		return pkgOp{}, false // go run of a module, npm create: judged as before
	}
	name := pkgSpecName(spec)
	if name == "" || !catalog.DefaultPackages().Popular(eco, name) {
		return pkgOp{}, false
	}
	for _, a := range inner[min(1, len(inner)):] {
		if i := strings.IndexByte(a, '='); strings.HasPrefix(a, "-") && i > 0 {
			a = a[i+1:]
		} else if strings.HasPrefix(a, "-") {
			continue
		}
		if strings.Contains(a, "://") {
			if h := hostOf(a); h == "" || !c.trustedHost(h) {
				return pkgOp{}, false
			}
			continue
		}
		if a == "" || !strings.ContainsAny(a, "/~$") && !strings.HasPrefix(a, ".") {
			continue // a word: a subcommand, a component name, a generator
		}
		if t := c.target(a); t.zone != ZoneWorkspace && t.zone != ZoneTemp {
			return pkgOp{}, false
		}
	}
	return pkgOp{pkgRunPopular, "Downloads " + name + ", a widely used package, from its registry and runs it with " + tool +
		" on paths inside the project"}, true
}

func pkgRunRules() []*Rule {
	return []*Rule{{
		ID: "pkg.run-known-package", Level: Medium, Category: CatNone, Contained: true,
		Message: "Runs a widely used package from its registry on the project's files",
		exec:    pkgRule(pkgRunPopular),
	}}
}
