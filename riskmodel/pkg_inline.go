package riskmodel

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Package installs written as code. R and Julia install packages from inside the language
// (Rscript -e 'install.packages(…)', julia -e 'using Pkg; Pkg.add(…)'), so the shell-side
// package rules never see them: the repository URL a CRAN install is pointed at
// (repos = "https://…"), the GitHub account remotes::install_github("OWNER/repo") or
// Pkg.add(url = "https://github.com/OWNER/X.jl") fetches from, and a Julia registry added by
// URL. docs/policy.md: extra package indexes and unofficial forks are asked about;
// typosquatted and look-alike organisations are denied. Sources: R's install.packages and
// options(repos) (stat.ethz.ch/R-manual/R-devel/library/utils/html/install.packages.html),
// remotes::install_github and pak::pkg_install (remotes.r-lib.org, pak.r-lib.org),
// Pkg.add and Pkg.Registry.add (pkgdocs.julialang.org/v1/api/).

var (
	// reRRepos finds the URLs of a repos= argument or option: repos = "URL",
	// repos = c(CRAN = "URL", …).
	reRRepos = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(?is)\brepos\s*=\s*(c\s*\([^)]*\)|["'][^"']*["'])`) }}
	// reCodeURL finds http(s) URLs in code.
	reCodeURL = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s"'()]+`) }}
	// reRGitHub finds the "OWNER/repo" of a GitHub install from R.
	reRGitHub = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:install_github|pkg_install|pak|install_git|githubinstall|install)\s*\(\s*(?:repo\s*=\s*|pkg\s*=\s*)?(?:c\s*\(\s*)?["']([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9._-]+)`)
	}}
	// reJuliaRegistry finds a Julia registry added by URL.
	reJuliaRegistry = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)Registry\.add\s*\(\s*(?:RegistrySpec\s*\(\s*)?(?:url\s*=\s*)?["']([^"']+)["']`)
	}}
)

// officialRHosts are the hosts of CRAN, its cloud mirror, Bioconductor, R-universe and
// Posit's package manager: repos pointing elsewhere are an extra package index.
var officialRHosts = []string{"r-project.org", "bioconductor.org", "r-universe.dev", "posit.co", "rstudio.com", "rstudio.org"}

// officialJuliaHosts hold Julia's General registry and package server.
var officialJuliaHosts = []string{"github.com/juliaregistries/general", "pkg.julialang.org", "juliahub.com"}

func hostUnder(h string, roots []string) bool {
	h = strings.ToLower(h)
	for _, r := range roots {
		if h == r || strings.HasSuffix(h, "."+r) {
			return true
		}
	}
	return false
}

// inlinePkgCode returns an R or Julia segment's inline code, "" for other segments.
func inlinePkgCode(s *Segment) (lang, code string) {
	lang = langOf(s.Name())
	if lang != "r" && lang != "julia" {
		return "", ""
	}
	code, _ = inlineCode(s)
	return lang, code
}

// inlineRepoOwners returns the GitHub accounts inline R or Julia code installs from.
func inlineRepoOwners(lang, code string) []string {
	var out []string
	for _, u := range reCodeURL.get().FindAllString(code, -1) {
		if p, err := url.Parse(u); err == nil && strings.EqualFold(p.Host, "github.com") {
			if owner, _, ok := strings.Cut(strings.TrimPrefix(p.Path, "/"), "/"); ok && owner != "" {
				out = append(out, owner)
			}
		}
	}
	if lang == "r" {
		for _, m := range reRGitHub.get().FindAllStringSubmatch(code, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// inlineUntrustedIndex says which non-official package repository inline code installs
// from, "" when none.
func inlineUntrustedIndex(lang, code string) string {
	switch lang {
	case "r":
		if !strings.Contains(code, "install") && !strings.Contains(code, "options") {
			return ""
		}
		for _, m := range reRRepos.get().FindAllStringSubmatch(code, -1) {
			for _, u := range reCodeURL.get().FindAllString(m[1], -1) {
				if p, err := url.Parse(u); err == nil && p.Host != "" && !hostUnder(p.Hostname(), officialRHosts) {
					return u
				}
			}
		}
	case "julia":
		for _, m := range reJuliaRegistry.get().FindAllStringSubmatch(code, -1) {
			u := strings.ToLower(strings.TrimSuffix(m[1], ".git"))
			p, err := url.Parse(u)
			if err != nil || p.Host == "" {
				continue
			}
			if !hostUnder(p.Hostname(), officialJuliaHosts) && !hostUnder(p.Hostname()+strings.TrimSuffix(p.Path, "/"), officialJuliaHosts) {
				return m[1]
			}
		}
	}
	return ""
}

// pkgInlineSquat is pkg.typosquat's reading of R and Julia inline installs: a GitHub account
// that reads like a famous organisation (JuIiaGPU, tidyverse-dev) but is another.
func pkgInlineSquat(s *Segment) string {
	lang, code := inlinePkgCode(s)
	if code == "" {
		return ""
	}
	words := catalog.DefaultNameWords()
	for _, owner := range inlineRepoOwners(lang, code) {
		if of, ok := words.OwnerImitates(owner); ok {
			return "Installs " + langTitle(lang) + " code from the GitHub account " + capText(owner) + ", which reads like " + of + " but is another account: a look-alike package's install code runs with the agent's access"
		}
	}
	return ""
}

// pkgGitURLSquat judges the repositories a shell install names by URL (pip install
// git+https://github.com/OWNER/…, cargo install --git …): an owner imitating a famous one.
func pkgGitURLSquat(s *Segment) string {
	if len(s.Args) < 2 {
		return ""
	}
	words := catalog.DefaultNameWords()
	for _, a := range s.Args[1:] {
		a = strings.TrimPrefix(a, "git+")
		if !strings.HasPrefix(a, "https://github.com/") && !strings.HasPrefix(a, "http://github.com/") {
			continue
		}
		p, err := url.Parse(a)
		if err != nil {
			continue
		}
		if owner, _, ok := strings.Cut(strings.TrimPrefix(p.Path, "/"), "/"); ok {
			if of, ok := words.OwnerImitates(owner); ok {
				return "Installs from the GitHub account " + capText(owner) + ", which reads like " + of + " but is another account: a look-alike package's install code runs with the agent's access"
			}
		}
	}
	return ""
}

func langTitle(lang string) string {
	if lang == "r" {
		return "R"
	}
	return "Julia"
}

// pkgInlineRules holds pkg.inline-index: an R or Julia install pointed at a package
// repository or registry that is not the language's own.
func pkgInlineRules() []*Rule {
	return []*Rule{{
		ID: "pkg.inline-index", Level: High, Category: CatRemoteCodeExecution,
		Message: "Installs R or Julia packages from a repository or registry that is not the language's official one",
		exec: func(c *execCtx, s *Segment) (string, bool) {
			lang, code := inlinePkgCode(s)
			if code == "" {
				return "", false
			}
			if u := inlineUntrustedIndex(lang, code); u != "" {
				return "Installs " + langTitle(lang) + " packages from " + capText(u) + ", which is not the language's official package repository: an extra index serves whatever code its owner puts there", true
			}
			return "", false
		},
	}}
}
