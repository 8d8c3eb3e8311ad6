package riskmodel

import (
	"path"
	"regexp"
	"strings"
)

// The project's own compose database. Docker Compose names a service's container
// <project>-<service>-<n> (Compose v2; <project>_<service>_<n> in v1), the project being the
// directory's name lower-cased with other characters dropped (docs.docker.com "Specify a
// project name"). A client run inside such a container with no server named
// (docker exec -i app-db-1 psql -c "DROP DATABASE app_test") talks to the database that
// `docker compose up` started for this workspace on this machine: dropping a database named
// as a test, development or local one there is the development reset of docs/policy.md, like
// the same statement to localhost (db.local-reset). A database named otherwise, or a container
// of another name (prod-db, a remote context), stays with db.destructive.

type r14DevDBReexps struct {
	// drop is a DROP DATABASE or DROP SCHEMA statement, the name captured.
	drop *regexp.Regexp
	// dev is a database name that says test, development or local.
	dev *regexp.Regexp
}

var r14DevDBRe = table[r14DevDBReexps]{build: func() r14DevDBReexps {
	return r14DevDBReexps{
		drop: regexp.MustCompile(`(?is)^\s*drop\s+(?:database|schema)\s+(?:if\s+exists\s+)?["'\x60]?([\w-]+)["'\x60]?(?:\s+with\s*\(\s*force\s*\))?\s*$`),
		dev:  regexp.MustCompile(`(?i)^[a-z0-9]+(?:[a-z0-9_-]*[_-])?(?:test|tests|testing|dev|development|local|e2e|ci)$`),
	}
}}

// composeProjectName is a directory's name as Compose makes it a project name.
func composeProjectName(dir string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(path.Base(dir)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// projectComposeDevDB reports a database call run inside this workspace's compose container
// whose statements name only development databases and no server of their own.
func projectComposeDevDB(c *execCtx, d dbCall) bool {
	if len(d.extra) != 1 || len(d.servers) > 0 || len(d.stmts) == 0 {
		return false
	}
	ctr := strings.ToLower(d.extra[0])
	own := false
	for _, w := range c.scope.Workspaces {
		p := composeProjectName(w)
		if p != "" && (strings.HasPrefix(ctr, p+"-") || strings.HasPrefix(ctr, p+"_")) {
			own = true
		}
	}
	if !own {
		return false
	}
	for _, w := range d.conn {
		if dbNamesServer(w) && !dbWordLocal(w) {
			return false
		}
	}
	// Every destructive statement must be a DROP of a database named as a development one.
	re := r14DevDBRe.get()
	drops := 0
	for _, st := range strings.Split(strings.Join(d.stmts, ";"), ";") {
		l := strings.ToLower(st)
		if !strings.Contains(l, "drop") && !strings.Contains(l, "truncate") && !strings.Contains(l, "delete") {
			continue
		}
		m := re.drop.FindStringSubmatch(st)
		if m == nil || !re.dev.MatchString(m[1]) || strings.Contains(strings.ToLower(m[1]), "prod") {
			return false
		}
		drops++
	}
	return drops > 0
}
