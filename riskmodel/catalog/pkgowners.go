package catalog

import "strings"

// Look-alike repository owners. Go modules, R's remotes::install_github, Julia's Pkg.add(url=…)
// and pip's git+https installs name a GitHub account, and the account is the whole of the
// trust: github.com/JuIiaGPU (capital I for l) or tidyverse-dev is not the organisation it
// reads as. pkgscopes.toml's [[owners]] lists the organisations of the tools agents install
// that way; OwnerImitates says when an account reads like one of them but is another.

// ownerJoinWords are words joined to an organisation's name to make an account look like the
// organisation's own (tidyverse-dev, hashicorp-official). Words a real sub-organisation takes
// (labs, sigs, community, samples) are not among them.
var ownerJoinWords = map[string]bool{
	"dev": true, "devs": true, "official": true, "team": true, "hq": true, "org": true, "inc": true,
	"mirror": true, "mirrors": true, "releases": true, "release": true, "oss": true, "src": true,
}

// Owner reports whether an account is one of the listed organisations.
func (w *NameWords) Owner(owner string) bool { return w.owners[strings.ToLower(owner)] }

// OwnerImitates judges a repository owner: ok when it is not a listed organisation but reads
// like one (the same LookalikeFold, from four letters), is one typing slip from a long one
// (from six letters a swapped, doubled or undoubled letter; from eight a letter dropped or
// added), or is one joined to a word such as -dev. A substituted letter counts only where it
// passes for the other (the fold): accounts such as jtan-dev and stan-dev are people's own.
// of is the organisation imitated.
func (w *NameWords) OwnerImitates(owner string) (of string, ok bool) {
	l := strings.ToLower(owner)
	if l == "" || w.owners[l] {
		return "", false
	}
	f := LookalikeFold(owner)
	for o := range w.owners {
		if len(o) >= 4 && LookalikeFold(o) == f {
			return o, true
		}
		if len(o) >= 6 && osa(l, o) == 1 && (slip(l, o) || len(l) != len(o) && len(o) >= 8) {
			return o, true
		}
	}
	words := strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	if len(words) < 2 {
		return "", false
	}
	for i, wd := range words {
		if !w.owners[wd] || len(wd) < 4 {
			continue
		}
		joined := true
		for j, o := range words {
			if j != i && !ownerJoinWords[o] {
				joined = false
			}
		}
		if joined {
			return wd, true
		}
	}
	return "", false
}
