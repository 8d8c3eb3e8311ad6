package riskmodel

import (
	"slices"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// mcpPkgEcosystems name the registry an MCP package tool installs from, by the words of
// its server and tool names (npm-helper/install_package, pypi/add_dependency).
func mcpPkgEcosystems(words []string) []catalog.Ecosystem {
	var out []catalog.Ecosystem
	for _, w := range words {
		switch w {
		case "npm", "node", "yarn", "pnpm", "bun", "js", "javascript", "typescript":
			out = append(out, catalog.Npm)
		case "pip", "pypi", "python", "uv", "poetry":
			out = append(out, catalog.PyPI)
		case "cargo", "crate", "crates", "rust":
			out = append(out, catalog.Crates)
		case "gem", "gems", "ruby", "rubygems", "bundler":
			out = append(out, catalog.RubyGems)
		case "nuget", "dotnet":
			out = append(out, catalog.NuGet)
		case "composer", "packagist", "php":
			out = append(out, catalog.Packagist)
		}
	}
	return out
}

// mcpPackageSquat is the MCP side of pkg.typosquat: a tool that installs or adds a package
// whose name argument imitates a popular package of the registry the server names. The
// policy denies typosquatted packages however they are installed.
func (c *mcpCtx) mcpPackageSquat() (string, bool) {
	words := append(slices.Clone(c.serverWords), c.toolWords...)
	if !mcpAnyWord(c.toolWords, mcpWordSet("install add")) {
		return "", false
	}
	ecos := mcpPkgEcosystems(words)
	if len(ecos) == 0 {
		return "", false
	}
	cat := catalog.DefaultPackages()
	for _, a := range c.args {
		if !a.str || a.nkey != "name" && a.nkey != "package" && a.nkey != "packagename" && a.nkey != "pkg" && a.nkey != "packages" && a.nkey != "dependency" {
			continue
		}
		for _, eco := range ecos {
			name := a.val
			if eco == catalog.Npm {
				name = pkgNpmName(name)
			} else if eco == catalog.PyPI {
				name = pkgPyName(name)
			}
			sq, ok := cat.Squat(eco, name)
			if !ok {
				if why := pkgLookalikeName(pkgNamed{eco, name}, nil); why != "" {
					return c.call() + ": " + why, true
				}
				continue
			}
			switch sq.Kind {
			case catalog.SquatTypo:
				if sq.Distance > 1 {
					c.certainty = certaintyUnsure
				}
			case catalog.SquatNonASCII:
				c.certainty = certaintyUnsure
			}
			what := "a near-miss of the popular package " + sq.Of
			if sq.Kind == catalog.SquatMalicious {
				what = "a name removed as malware"
			} else if sq.Of == "" {
				what = "a name with non-ASCII characters"
			}
			return c.call() + " installs " + capText(name) + ", " + what + ": its install code runs with the agent's access", true
		}
	}
	return "", false
}
