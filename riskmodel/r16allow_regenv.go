package riskmodel

import "strings"

// Package managers take their registry from the environment as readily as from a flag:
// GOPROXY (go help goproxy), npm_config_registry (npm-config: every config key as
// npm_config_*), YARN_NPM_REGISTRY_SERVER (yarnpkg.com/configuration/yarnrc), PIP_INDEX_URL
// and PIP_EXTRA_INDEX_URL (pip "Environment Variables"), UV_INDEX_URL, UV_DEFAULT_INDEX and
// UV_INDEX (docs.astral.sh/uv/reference/environment), CARGO_REGISTRIES_<NAME>_INDEX (cargo
// "Environment variables"), BUNDLE_MIRROR__* (bundle-config), PUB_HOSTED_URL (dart.dev),
// HOMEBREW_BOTTLE_DOMAIN and HOMEBREW_API_DOMAIN (docs.brew.sh/Manpage). Pointed at a host
// that is not a known registry, the install fetches someone else's code: the same as the
// --registry/--index-url flags (pkg.untrusted-source), which docs/policy.md asks about
// (unofficial forks, extra package indexes).

// registryEnvVar reports an environment variable that names a package registry.
func registryEnvVar(name string) bool {
	u := strings.ToUpper(name)
	switch u {
	case "GOPROXY", "NPM_CONFIG_REGISTRY", "YARN_REGISTRY", "YARN_NPM_REGISTRY_SERVER", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL",
		"UV_INDEX_URL", "UV_EXTRA_INDEX_URL", "UV_DEFAULT_INDEX", "UV_INDEX", "PUB_HOSTED_URL", "HOMEBREW_BOTTLE_DOMAIN",
		"HOMEBREW_API_DOMAIN", "PIPENV_PYPI_MIRROR", "POETRY_SOURCE_URL", "RUSTUP_DIST_SERVER", "NUGET_SOURCE", "GEM_SOURCE":
		return true
	}
	return strings.HasPrefix(u, "CARGO_REGISTRIES_") && strings.HasSuffix(u, "_INDEX") ||
		strings.HasPrefix(u, "BUNDLE_MIRROR__") || strings.HasPrefix(u, "POETRY_REPOSITORIES_") && strings.HasSuffix(u, "_URL") ||
		strings.HasPrefix(u, "NPM_CONFIG_@") && strings.HasSuffix(u, ":REGISTRY")
}

// packageManagers are the commands those variables steer.
var packageManagers = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`go npm npx pnpm pnpx yarn bun bunx pip pip3 uv uvx pipx poetry pipenv pdm cargo rustup bundle bundler gem
		brew dart flutter composer nuget dotnet`) {
		m[n] = true
	}
	return m
}}

// untrustedRegistryEnv returns the assignment in effect for s that points its package
// manager at a host that is not a trusted registry, "" when none.
func untrustedRegistryEnv(c *execCtx, s *Segment) string {
	if !packageManagers.get()[s.Name()] {
		return ""
	}
	for _, kv := range requestAssigns(c, s) {
		k, v, _ := strings.Cut(kv, "=")
		if !registryEnvVar(k) {
			continue
		}
		for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '|' || r == ' ' }) {
			part = strings.Trim(part, `"'`)
			if part == "direct" || part == "off" || part == "" {
				continue
			}
			h := hostOf(part)
			if h == "" && !strings.Contains(part, "://") {
				h = hostOf("https://" + part) // HOMEBREW_BOTTLE_DOMAIN may be a bare host
			}
			if h = strings.ToLower(h); h != "" && !pkgDefaultRegistries.get()[h] && !c.trustedHost(h) &&
				h != "static.rust-lang.org" && h != "formulae.brew.sh" && h != "ghcr.io" {
				return kv
			}
		}
	}
	return ""
}

func r16RegistryEnvRules() []*Rule {
	return []*Rule{
		{
			ID: "pkg.registry-env", Level: High, Category: CatRemoteCodeExecution,
			Message: "Points a package manager at a registry that is not the usual one through an environment variable",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if kv := untrustedRegistryEnv(c, s); kv != "" {
					return "Runs " + s.Name() + " with " + capText(kv) + ": packages come from a host that is not a known registry", true
				}
				return "", false
			},
		},
	}
}
