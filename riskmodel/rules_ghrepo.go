package riskmodel

import (
	"path"
	"strings"
)

// Opening an issue or a pull request is routine on the project's own repository
// (docs/policy.md's allow row) and a message to an external party on someone else's (its ask
// row: "comments on others' repos"). gh and glab act on the repository of the directory they
// run in unless told another with -R/--repo (gh: [HOST/]OWNER/REPO; glab: OWNER/REPO or a
// URL). The request carries no git remote, so the project's repository is recognised the way
// a reader of the request would: its name is the checkout's directory (or a directory above
// it, for a subdirectory of a monorepo), or the cwd spells out OWNER/REPO
// (~/go/src/github.com/acme/gateway). Sources: gh manual (gh help environment: -R, GH_REPO),
// glab repo resolution (-R, --repo).

// ghRepoIsProjects reports whether a gh/glab command acts on the project's repository.
func ghRepoIsProjects(c *execCtx, s *Segment) bool {
	repo, ok := optValue(s.Args[1:], "-R", "--repo")
	if !ok {
		return true // the checkout's own remote
	}
	repo = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(repo), "/"), ".git")
	if i := strings.Index(repo, "://"); i >= 0 {
		repo = repo[i+3:]
	}
	parts := strings.Split(repo, "/")
	if len(parts) < 2 || strings.ContainsAny(repo, "$`") {
		return false
	}
	owner, name := strings.ToLower(parts[len(parts)-2]), strings.ToLower(parts[len(parts)-1])
	if c.scope.CwdUnknown || name == "" {
		return false
	}
	dirs := strings.Split(strings.ToLower(path.Clean(c.scope.Cwd)), "/")
	for i, d := range dirs {
		if i == 0 || d == "" {
			continue
		}
		if d == name && !isHomeSegment(dirs, i) {
			return true
		}
		if d == owner && i+1 < len(dirs) && dirs[i+1] == name {
			return true
		}
	}
	return false
}

// isHomeSegment reports the user-name element of /home/NAME or /Users/NAME: a repository
// named like the user is not thereby the project's.
func isHomeSegment(dirs []string, i int) bool {
	return i == 2 && (dirs[1] == "home" || dirs[1] == "users")
}
