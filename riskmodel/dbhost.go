package riskmodel

import (
	"net/url"
	"strings"
)

// Where a database client connects decides what a destructive statement is: a drop or flush
// on this machine is the development database's reset (db.local-reset, docs/policy.md: local
// dev database resets are routine), on any other machine it is the deletion of a data store
// (db.destructive, denied). The client's own data says how it names its server and where it
// connects when none is named, so the distinction is the same for every client.

// dbServerSpec is how one database client names its server.
type dbServerSpec struct {
	// opts are the options whose value names the server (host, URL, socket).
	opts []string
	// loopbackDefault says the client connects to this machine when no server is named, whatever
	// its configuration: redis-cli's default is 127.0.0.1:6379 and it reads no file or variable
	// that changes it; mongosh's is localhost:27017. Clients whose default comes from a
	// configuration file or variable guardian cannot see (libpq's PGHOST and pg_service.conf,
	// MySQL option files, cqlshrc, the influx CLI's active config, SQLCMDSERVER) have none.
	loopbackDefault bool
}

// dbServerSpecs are the clients' server options. Sources: redis-cli(1) ("By default
// redis-cli connects to the server at 127.0.0.1 port 6379"; -h, -u, -s), mongosh docs
// (Connect to a Deployment: "localhost on port 27017" without a connection string; --host),
// psql(1) -h/--host and -d as a connection string, mysql(1) -h/--host and -S/--socket, sqlcmd
// -S/--server, clickhouse-client --host, cqlsh [host [port]], influx CLI --host.
var dbServerSpecs = table[map[string]dbServerSpec]{build: func() map[string]dbServerSpec {
	redis := dbServerSpec{opts: []string{"-h", "-u", "--uri", "-s"}, loopbackDefault: true}
	mongo := dbServerSpec{opts: []string{"--host"}, loopbackDefault: true}
	pg := dbServerSpec{opts: []string{"-h", "--host", "-d", "--dbname"}}
	my := dbServerSpec{opts: []string{"-h", "--host", "-S", "--socket"}}
	return map[string]dbServerSpec{
		"redis-cli": redis, "valkey-cli": redis, "keydb-cli": redis,
		"mongosh": mongo, "mongo": mongo,
		"psql": pg, "pgcli": pg, "psql.bin": pg,
		"mysql": my, "mariadb": my, "mycli": my,
		"sqlcmd":            {opts: []string{"-S", "--server"}},
		"clickhouse-client": {opts: []string{"-h", "--host"}}, "clickhouse": {opts: []string{"-h", "--host"}},
		"cqlsh":  {},
		"influx": {opts: []string{"--host", "-host"}},
	}
}}

// dbLocalCall reports whether a database call connects to this machine: every connection
// word it names is local, or it names no server and its client's default is this machine (and
// it does not run inside a container or pod reached from here, whose loopback is theirs).
func dbLocalCall(c *execCtx, d dbCall) bool {
	if dbLocal(c, d.conn) {
		return true
	}
	if projectComposeDevDB(c, d) {
		return true // r14exec_dbcompose.go: this workspace's compose database
	}
	spec, ok := dbServerSpecs.get()[d.tool]
	if !ok || !spec.loopbackDefault || len(d.extra) > 0 {
		return false
	}
	for _, w := range d.servers {
		if !dbWordLocal(w) {
			return false // a server named by its option: -h redis, --host mongo-a
		}
	}
	for _, w := range d.conn {
		if dbNamesServer(w) && !dbWordLocal(w) {
			return false
		}
	}
	return true
}

// dbNamesServer reports a connection word that names a server rather than a database: a URL,
// a DSN, user@host, host:port or a dotted host name.
func dbNamesServer(w string) bool {
	return strings.ContainsAny(w, ".:@/=$") || strings.Contains(w, "://")
}

// dbWordLocal reports a connection word that names this machine: a loopback host or URL
// (parsed, so localhost.example.com is not one), a Unix socket, SQL Server's local
// instance names (., (local), (localdb)\…, localhost\SQLEXPRESS, tcp:localhost,1433).
func dbWordLocal(w string) bool {
	lw := strings.Trim(strings.ToLower(w), `"'`)
	if i := strings.Index(lw, "://"); i > 0 {
		u, err := url.Parse(lw)
		if err != nil {
			return false
		}
		h := u.Hostname()
		if h == "" {
			h = u.Query().Get("host")
		}
		return h == "" || strings.HasPrefix(h, "/") || isLocalHost(h)
	}
	lw = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(lw, "tcp:"), "np:"), "lpc:")
	if i := strings.IndexAny(lw, `\,`); i >= 0 {
		lw = lw[:i] // localhost\sqlexpress, localhost,1433
	}
	if h, _, ok := strings.Cut(lw, ":"); ok && !strings.Contains(lw, "[") && strings.Count(lw, ":") == 1 {
		lw = h // localhost:6379
	}
	lw = strings.Trim(lw, "[]")
	return lw == "." || lw == "(local)" || lw == "(localdb)" || isLocalHost(lw) || strings.HasPrefix(lw, "/") && (strings.HasSuffix(lw, ".sock") || strings.Contains(lw, "/run/") || strings.HasPrefix(lw, "/tmp/"))
}

// influxValueOpts are the influx CLI's options that take a value (InfluxDB 2.x CLI reference;
// the 1.x shell's -host, -database, -execute).
var influxValueOpts = []string{"--host", "-host", "-t", "--token", "-o", "--org", "--org-id", "-n", "--name", "-i", "--id", "-b", "--bucket",
	"--bucket-id", "--start", "--stop", "-p", "--predicate", "-c", "--active-config", "--configs-path", "-f", "--file", "-r", "--retention",
	"-database", "-execute", "-precision", "-format", "-username", "-password", "-port", "--http-debug"}

// influxCall reads an influx CLI command: a bucket, organization or retention policy deleted,
// or points deleted, is data deleted (docs/policy.md: deleting data stores); query and list
// read; write and create change the database. InfluxQL given to the 1.x shell with -execute
// is read as SQL (DROP DATABASE, DROP MEASUREMENT, DELETE FROM).
func influxCall(s *Segment, d dbCall) (dbCall, bool) {
	args := s.Args[1:]
	d.conn = pkgOptValues(args, "--host", "-host", "-b", "--bucket", "-database")
	if q := pkgOptValues(args, "-execute"); len(q) > 0 {
		d.stmts = q
		return d, true
	}
	p := s.positional(0, influxValueOpts...)
	first, second := "", ""
	if len(p) > 0 {
		first = p[0]
	}
	if len(p) > 1 {
		second = p[1]
	}
	switch {
	case first == "delete":
		d.special, d.msg = dbDestructive, "Deletes points from InfluxDB with influx delete"
	case second == "delete" && (first == "bucket" || first == "org" || first == "v1" || first == "stacks" || first == "replication"):
		what := first
		if n := pkgOptValues(args, "-n", "--name", "-i", "--id", "-o", "--org"); len(n) > 0 {
			what += " " + n[0]
		}
		d.special, d.msg = dbDestructive, "Deletes the InfluxDB "+what+" and its data with influx "+first+" delete"
	case first == "query" || second == "list" || second == "find" || first == "ping" || first == "version" || first == "config" || first == "":
		d.stmts = []string{"select"}
	case first == "write" || second == "create" || second == "update":
		d.stmts = []string{"insert " + first}
	default:
		d.unseen = "influx " + first + " " + second
	}
	return d, true
}
