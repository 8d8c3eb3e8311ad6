package riskmodel

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
)

// SQL that sends data to another server. ClickHouse's table functions url(), s3(), remote(),
// mysql(), postgresql() … read from and write to other servers (clickhouse.com/docs
// "Table Functions"; "INSERT INTO FUNCTION"), so an INSERT INTO FUNCTION url(…) SELECT … or a
// SELECT whose url() address is built from queried rows (url('https://x/?d=' || …)) ships
// the database's data off the machine while looking like a query. It is judged as
// exfiltration in both front ends (a database CLI, an MCP SQL tool), whatever the
// connection's own host: the destination is the function's, unless every destination it
// names is this machine.

// sqlNetFunc reports table functions that reach another server.
func sqlNetFunc(w string) bool {
	switch w {
	case "URL", "S3", "S3CLUSTER", "GCS", "AZUREBLOBSTORAGE", "REMOTE", "REMOTESECURE", "CLUSTER", "MYSQL", "POSTGRESQL",
		"MONGODB", "REDIS", "HDFS", "ODBC", "JDBC", "DBLINK":
		return true
	}
	return false
}

// sqlNetSend reports a statement that sends queried data through a network table function:
// the target of INSERT INTO FUNCTION, or an address built from an expression.
func sqlNetSend(w []string, st string) (string, bool) {
	for i := 0; i+3 < len(w); i++ {
		if w[i] == "INTO" && w[i+1] == "FUNCTION" && sqlNetFunc(w[i+2]) {
			return "sends rows to another server (INSERT INTO FUNCTION " + strings.ToLower(w[i+2]) + ")", true
		}
	}
	if what, ok := sqlHTTPSend(st); ok { // mcp_r14_sqlhttp.go
		return what, true
	}
	u := strings.ToUpper(st)
	for _, m := range sqlNetRes.get()[0].FindAllStringSubmatchIndex(u, 16) {
		name := u[m[2]:m[3]]
		args := sqlParenBody(u[m[1]:])
		if args == "" {
			continue
		}
		if strings.Contains(args, "||") || strings.Contains(args, "SELECT") || strings.Contains(args, "CONCAT") ||
			strings.Contains(args, "FORMAT(") {
			return "sends queried data in the address of " + strings.ToLower(name) + "()", true
		}
	}
	return "", false
}

// sqlNetRes are the patterns of this file, built on first use (table.go: nothing at init).
var sqlNetRes = table[[3]*regexp.Regexp]{build: func() [3]*regexp.Regexp {
	return [3]*regexp.Regexp{regexp.MustCompile(`\b(URL|S3|S3CLUSTER|GCS|AZUREBLOBSTORAGE|REMOTE|REMOTESECURE|MYSQL|POSTGRESQL|MONGODB|HDFS|DBLINK)\s*\(`),

		regexp.MustCompile(`(?i)\b(?:url|s3|gcs|azureblobstorage|remote|remotesecure|mysql|postgresql|mongodb|redis|hdfs|dblink|dblink_connect|dblink_exec)\s*\(\s*'([^']*)'`),
		regexp.MustCompile(`(?i)\bprogram\s+'((?:[^']|'')*)'`)}
}}

// sqlParenBody returns the text up to the parenthesis that closes one already opened.
func sqlParenBody(s string) string {
	depth := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return s[:i]
			}
		}
	}
	return s
}

// sqlNetLoopbackOnly reports raw SQL whose network table functions all name this machine
// (url('http://localhost:8123/…'), remote('127.0.0.1:9000', …)): a local round trip.
func sqlNetLoopbackOnly(raw string) bool {
	ms := sqlNetRes.get()[1].FindAllStringSubmatch(raw, 32)
	hs := sqlHTTPDests(raw) // mcp_r14_sqlhttp.go
	if len(ms) == 0 && len(hs) == 0 {
		return false
	}
	for _, m := range ms {
		if !sqlDestLoopback(m[1]) {
			return false
		}
	}
	for _, h := range hs {
		if !sqlDestLoopback(h) {
			return false
		}
	}
	return true
}

// sqlDestLoopback reports a destination literal (a URL, host:port, or a libpq "host=…"
// connection string) on this machine.
func sqlDestLoopback(d string) bool {
	host := ""
	switch {
	case strings.Contains(d, "://"):
		if u, err := url.Parse(d); err == nil {
			host = u.Hostname()
		}
	case strings.Contains(d, "host="):
		f := strings.Fields(d[strings.Index(d, "host=")+5:])
		if len(f) > 0 {
			host = f[0]
		}
	default:
		host = d
		if h, _, err := net.SplitHostPort(d); err == nil {
			host = h
		}
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sqlDemoteLocalSends turns the network sends of statements parsed from raw into plain
// writes when every destination raw names is this machine.
func sqlDemoteLocalSends(stmts []mcpSqlStmt, raw string) {
	for i := range stmts {
		if stmts[i].kind == mcpSqlExfil && sqlNetLoopbackOnly(raw) {
			stmts[i].kind, stmts[i].what = mcpSqlWrite, "copies rows through a table function on this machine"
		}
	}
}

func sqlNetSendRules() []*Rule {
	return []*Rule{
		{ID: "db.sql-exfil", Level: Critical, Category: CatDataExfiltration,
			Message: "Runs SQL that sends the database's data to another server",
			exec:    cloudRule(dbExfil)},
		{ID: "mcp.sql-exfil", Kind: KindMCP, Level: Critical, Category: CatDataExfiltration,
			Message: "Runs SQL that sends the database's data to another server",
			mcp: func(c *mcpCtx) (string, bool) {
				if s, ok := c.sqlWorst(mcpSqlExfil); ok {
					return fmt.Sprintf("%s, which runs SQL that %s (%s)", c.call(), s.what, s.text), true
				}
				return "", false
			}},
	}
}
