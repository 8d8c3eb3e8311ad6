package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// This file judges package installs by the name installed. Installing from the usual
// registries is routine (docs/policy.md), but a typosquatted or homoglyph name is on the deny
// list: its install scripts run the moment the agent mistypes, or is told to type, a name
// one slip away from a popular package. The names come from the same commands pkgOps
// classifies; the catalogue (riskmodel/catalog/packages.toml) says which names are popular.

// pkgNamed is a registry package name a command installs, adds or fetches to run.
type pkgNamed struct {
	eco  catalog.Ecosystem
	name string
}

// pkgInstallNames returns the registry names a segment installs, runners looked through.
// Local paths, URLs and repositories are not registry names (pkg.untrusted-source has them).
func pkgInstallNames(s *Segment) []pkgNamed {
	var out []pkgNamed
	cur := s
	for depth := 0; depth < 8; depth++ {
		out = append(out, pkgNamesOf(cur)...)
		next, _, ok := pkgRunnerInner(cur)
		if !ok {
			break
		}
		cur = next
	}
	return out
}

func pkgNamesOf(s *Segment) []pkgNamed {
	if len(s.Args) < 2 {
		return nil
	}
	if spec, _, tool, ok := pkgFetchRun(s); ok {
		switch {
		case strings.HasPrefix(tool, "go"):
			return pkgNames(catalog.GoMod, []string{spec}, pkgGoName)
		case strings.Contains(tool, "uv") || strings.Contains(tool, "pipx"):
			return pkgNames(catalog.PyPI, []string{spec}, pkgPyName)
		}
		return pkgNames(catalog.Npm, []string{spec}, pkgNpmName)
	}
	tool := pkgNorm(s.Name())
	switch tool {
	case "npm", "yarn", "pnpm", "bun":
		p := pkgSub(s, pkgNodeValueOpts...)
		if len(p) > 1 && tool == "yarn" && p[0] == "global" {
			p = p[1:]
		}
		if len(p) > 1 {
			switch p[0] {
			case "install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add", "a",
				"update", "up", "upgrade":
				return pkgNames(catalog.Npm, p[1:], pkgNpmName)
			}
		}
	case "pip":
		return pkgPipNames(s, s.Args[1:])
	case "uv":
		p := pkgSub(s, pkgPipValueOpts...)
		switch {
		case len(p) > 1 && p[0] == "pip":
			return pkgPipNames(s, pkgAfter(s.Args[1:], "pip"))
		case len(p) > 1 && p[0] == "add":
			return pkgNames(catalog.PyPI, p[1:], pkgPyName)
		case len(p) > 2 && p[0] == "tool" && (p[1] == "install" || p[1] == "upgrade"):
			return pkgNames(catalog.PyPI, p[2:], pkgPyName)
		}
	case "pipx":
		p := pkgSub(s, "--python", "--pip-args", "--index-url", "--spec", "--suffix")
		if len(p) > 1 && (p[0] == "install" || p[0] == "inject" || p[0] == "upgrade" || p[0] == "reinstall") {
			return pkgNames(catalog.PyPI, p[1:], pkgPyName)
		}
	case "poetry", "pipenv", "pdm", "rye":
		p := pkgSub(s, "-C", "--directory", "-P", "--project", "-G", "--group", "-E", "--extras", "--with", "--without", "--only",
			"-r", "--repository", "-u", "--username", "-p", "--password", "--source", "--python")
		if len(p) > 1 && (p[0] == "add" || tool == "pipenv" && p[0] == "install") {
			return pkgNames(catalog.PyPI, p[1:], pkgPyName)
		}
	case "cargo":
		if s.arg("--git", "--path", "--registry", "--index") {
			return nil
		}
		p := pkgSub(s, "--features", "-F", "--version", "--vers", "--branch", "--tag", "--rev", "--rename", "--package", "-p",
			"--target", "--root", "--profile", "-j", "--jobs", "--bin", "--example", "--manifest-path", "--target-dir", "--config", "-Z")
		if len(p) > 1 && (p[0] == "add" || p[0] == "install") {
			return pkgNames(catalog.Crates, p[1:], pkgAtName)
		}
	case "gem", "bundle":
		if s.arg("--source", "-s", "--git", "--path", "--github") {
			return nil
		}
		p := pkgSub(s, "-v", "--version", "-i", "--install-dir", "-n", "--bindir", "--platform", "--group", "-g", "--require", "-r")
		if len(p) > 1 && (tool == "gem" && p[0] == "install" || tool == "bundle" && p[0] == "add") {
			return pkgNames(catalog.RubyGems, p[1:], pkgAtName)
		}
	case "go":
		p := pkgSub(s, pkgGoBuildFlags...)
		if len(p) > 1 && (p[0] == "get" || p[0] == "install") {
			return pkgNames(catalog.GoMod, p[1:], pkgGoName)
		}
	case "composer":
		// getcomposer.org/doc/03-cli.md: require NAME[:CONSTRAINT]…, also under global.
		p := pkgSub(s, "-d", "--working-dir")
		if len(p) > 1 && p[0] == "global" {
			p = p[1:]
		}
		if len(p) > 1 && (p[0] == "require" || p[0] == "req" || p[0] == "r") {
			return pkgNames(catalog.Packagist, p[1:], pkgComposerName)
		}
	case "dotnet", "nuget":
		p := pkgSub(s, "-v", "--version", "-s", "--source", "-f", "--framework", "--package-directory")
		for i := 0; i+1 < len(p); i++ {
			if p[i] == "package" && i > 0 && p[0] == "add" {
				return pkgNames(catalog.NuGet, p[i+1:i+2], pkgAtName)
			}
		}
	}
	return nil
}

// pkgNames parses specs to registry names, dropping what is not one.
func pkgNames(eco catalog.Ecosystem, specs []string, parse func(string) string) []pkgNamed {
	var out []pkgNamed
	for _, sp := range specs {
		if strings.HasPrefix(sp, "-") || pkgLocalPath(sp) || pkgVCSOrURL(sp) {
			continue
		}
		if n := parse(sp); n != "" {
			out = append(out, pkgNamed{eco, n})
		}
	}
	return out
}

// pkgComposerName returns a Composer requirement's vendor/package ("" for platform packages
// such as php and ext-json, which are not Packagist names).
func pkgComposerName(spec string) string {
	n, _, _ := strings.Cut(spec, ":")
	n, _, _ = strings.Cut(n, "=")
	if !strings.Contains(n, "/") {
		return ""
	}
	return n
}

// pkgPipNames returns the names pip install (or download) names; requirement files and
// editables are the project's own.
func pkgPipNames(s *Segment, words []string) []pkgNamed {
	p := pkgSub(pkgWithArgs(s, append([]string{"pip"}, words...)), pkgPipValueOpts...)
	if len(p) < 2 || p[0] != "install" && p[0] != "download" {
		return nil
	}
	return pkgNames(catalog.PyPI, p[1:], pkgPyName)
}

// pkgPyName parses a PEP 508 requirement to its name: requests[socks]>=2.0; python_version>"3".
func pkgPyName(spec string) string {
	if i := strings.IndexAny(spec, "[=<>!~;@ ,("); i >= 0 {
		spec = spec[:i]
	}
	return strings.TrimSpace(spec)
}

// pkgNpmName parses an npm spec to its registry name: a@1, @s/a@^2, alias@npm:real@3 → real.
func pkgNpmName(spec string) string {
	if i := strings.Index(spec, "@npm:"); i > 0 {
		spec = spec[i+5:]
	}
	if _, ok := pkgNpmSource(spec); ok || strings.Contains(spec, ":") {
		return "" // a repository, a URL, link:, workspace:, file:
	}
	if strings.HasPrefix(spec, "@") {
		if strings.Count(spec, "/") != 1 {
			return ""
		}
		if i := strings.IndexByte(spec[1:], '@'); i >= 0 {
			spec = spec[:i+1]
		}
		return spec
	}
	if i := strings.IndexByte(spec, '@'); i >= 0 {
		spec = spec[:i]
	}
	return spec
}

// pkgAtName drops a version written after @ or : (cargo add serde@1, gem's name:1.0).
func pkgAtName(spec string) string {
	if i := strings.IndexAny(spec, "@:"); i > 0 {
		spec = spec[:i]
	}
	return spec
}

// pkgGoName parses a Go package path: its version dropped; standard-library and relative
// paths (no dot in the first element) are no module to fetch.
func pkgGoName(spec string) string {
	spec = pkgAtName(spec)
	first, _, _ := strings.Cut(spec, "/")
	if !strings.Contains(first, ".") || strings.Contains(spec, "...") && !strings.Contains(first, ".") {
		return ""
	}
	return strings.TrimSuffix(spec, "/...")
}

var pkgEcoNames = table[map[catalog.Ecosystem]string]{build: func() map[catalog.Ecosystem]string {
	return map[catalog.Ecosystem]string{catalog.PyPI: "PyPI", catalog.Npm: "npm", catalog.Crates: "crates.io",
		catalog.RubyGems: "RubyGems", catalog.GoMod: "Go module", catalog.NuGet: "NuGet", catalog.Packagist: "Packagist"}
}}

// pkgTyposquatCheck is pkg.typosquat's check: certain for documented malicious names,
// non-ASCII lookalikes of popular names, separator and lookalike-ASCII variants and single
// slips; unsure (asked) for two-edit near-misses and non-ASCII names that imitate nothing known.
func pkgTyposquatCheck(c *execCtx, s *Segment) (string, bool) {
	if why := pkgInlineSquat(s); why != "" {
		return why, true // pkg_inline.go
	}
	if why := pkgGitURLSquat(s); why != "" {
		return why, true
	}
	named := pkgInstallNames(s)
	if len(named) == 0 {
		return "", false
	}
	cat := catalog.DefaultPackages()
	for _, n := range named {
		sq, ok := cat.Squat(n.eco, n.name)
		if !ok {
			if why := pkgLookalikeName(n, named); why != "" {
				return why, true
			}
			continue
		}
		eco, name := pkgEcoNames.get()[n.eco], capText(n.name)
		const tail = ": a typosquat's install code runs with the agent's access"
		switch sq.Kind {
		case catalog.SquatMalicious:
			return "Installs " + name + ", a " + eco + " name removed as malware (" + capText(sq.Source) + ")", true
		case catalog.SquatHomoglyph:
			return "Installs " + name + ", which spells the popular " + eco + " package " + sq.Of + " with non-ASCII lookalike characters" + tail, true
		case catalog.SquatConfusable:
			return "Installs " + name + ", which differs from the popular " + eco + " package " + sq.Of + " only by separators or lookalike characters" + tail, true
		case catalog.SquatTypo:
			if sq.Distance > 1 {
				c.certainty = certaintyUnsure
			}
			return "Installs " + name + ", a near-miss of the popular " + eco + " package " + sq.Of + tail, true
		case catalog.SquatNonASCII:
			c.certainty = certaintyUnsure
			return "Installs " + name + ", a package name with non-ASCII characters, which no major registry's names use", true
		}
	}
	return "", false
}
