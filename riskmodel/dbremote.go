package riskmodel

import (
	"net/url"
	"strings"
)

// A migration tool runs against the database its configuration names; when the request
// itself names one on another machine — DATABASE_URL=postgresql://app@staging-db.acme.io/app
// alembic downgrade -1, dbmate --url mysql://db.prod…, flyway -url=jdbc:postgresql://… — the
// migration changes that database, a staging or production one as far as anyone can tell
// (docs/policy.md: staging and production changes are asked, with their reason). A URL on
// this machine (localhost, 127.0.0.1, host.docker.internal) or a single-label service name
// of a compose network (db, postgres) stays the project's development database.

// dbURLSchemes are the URL schemes of database connection strings.
var dbURLSchemes = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"postgres": true, "postgresql": true, "mysql": true, "mariadb": true, "mongodb": true,
		"mongodb+srv": true, "sqlserver": true, "mssql": true, "redis": true, "rediss": true, "cockroachdb": true, "clickhouse": true,
		"oracle": true, "snowflake": true, "tidb": true}
}}

// remoteDBHost returns the host of a database URL (jdbc: prefix allowed) or a key=value DSN
// (host=… in libpq's format) when it is not on this machine, "" otherwise.
func remoteDBHost(v string) string {
	v = strings.Trim(strings.TrimSpace(v), `"'`)
	v = strings.TrimPrefix(v, "jdbc:")
	host := ""
	if i := strings.Index(v, "://"); i > 0 && dbURLSchemes.get()[strings.ToLower(v[:i])] {
		u, err := url.Parse(v)
		if err != nil {
			return ""
		}
		host = u.Hostname()
		if host == "" {
			host = u.Query().Get("host") // postgresql:///app?host=…
		}
	} else {
		for _, f := range strings.Fields(v) {
			if k, val, ok := strings.Cut(f, "="); ok && strings.EqualFold(k, "host") {
				host = val
			}
		}
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	switch {
	case host == "", strings.HasPrefix(host, "/"), isLocalHost(host), host == "host.docker.internal",
		strings.HasSuffix(host, ".localhost"), !strings.Contains(host, ".") && !strings.Contains(host, ":"):
		return ""
	}
	return host
}

// requestRemoteDB returns the database host on another machine that a segment's arguments or
// the request's assignments name, "" if none.
func requestRemoteDB(c *execCtx, s *Segment) string {
	for _, a := range s.Args[1:] {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
			a = v // --url=…, -url=…
		}
		if h := remoteDBHost(a); h != "" {
			return h
		}
	}
	for _, kv := range requestAssigns(c, s) {
		if _, v, ok := strings.Cut(kv, "="); ok {
			if h := remoteDBHost(v); h != "" {
				return h
			}
		}
	}
	return ""
}
