package riskmodel

import (
	"regexp"
	"strings"
)

// SQL that posts data out through an HTTP extension. Supabase and many PostgreSQL hosts ship
// pg_net (net.http_post(url, body, …), net.http_get(url, params, …): supabase.com/docs
// "pg_net") and pgsql-http (http_post(url, content, type), http_get, http_put, http_patch,
// http((method, url, …)::http_request), often in schema extensions: github.com/pramsey/pgsql-http).
// A call whose body, parameters or address carry queried rows, sent to a host other than this
// machine, ships the database's data off the machine while reading like a SELECT: it is
// exfiltration, in an MCP SQL tool and a database CLI alike (sqlNetSend).

// sqlHTTPRes are the patterns of this file, built on first use (table.go: nothing at init).
var sqlHTTPRes = table[[2]*regexp.Regexp]{build: func() [2]*regexp.Regexp {
	return [2]*regexp.Regexp{
		// the call: pg_net's net.http_*, pgsql-http's http_* and http(…) in any schema.
		regexp.MustCompile(`\b(?:NET\s*\.\s*HTTP_(?:POST|GET|PUT|PATCH|DELETE)|(?:[A-Z_]+\s*\.\s*)?HTTP_(?:POST|GET|PUT|PATCH|DELETE)|(?:[A-Z_]+\s*\.\s*)?HTTP)\s*\(`),
		// the destinations the call names.
		regexp.MustCompile(`(?i)'(https?://[^']*)'`),
	}
}}

// sqlHTTPDataMarks are what make a request's arguments carry queried data rather than a
// fixed message: a subquery, an aggregate or row-to-JSON conversion, a built string.
var sqlHTTPDataMarks = []string{"SELECT", "||", "_AGG(", "TO_JSON", "ROW_TO_JSON", "TO_JSONB", "JSON_BUILD", "JSONB_BUILD", "CONCAT", "FORMAT(", "ARRAY("}

// sqlHTTPDests are the http(s) addresses named in the HTTP-extension calls of raw SQL (its
// literals intact): sqlNetLoopbackOnly judges them with the table functions' destinations.
func sqlHTTPDests(raw string) []string {
	re := sqlHTTPRes.get()
	u := strings.ToUpper(raw) // ASCII SQL: offsets are raw's
	if len(u) != len(raw) {
		return nil
	}
	var out []string
	for _, m := range re[0].FindAllStringIndex(u, 16) {
		args := sqlParenBody(u[m[1]:])
		for _, d := range re[1].FindAllStringSubmatch(raw[m[1]:m[1]+len(args)], 8) {
			out = append(out, d[1])
		}
	}
	return out
}

// sqlHTTPSend reports a statement (st, any case) that sends queried data through an HTTP
// extension to a host that is not this machine.
func sqlHTTPSend(st string) (string, bool) {
	u := strings.ToUpper(st)
	re := sqlHTTPRes.get()
	for _, m := range re[0].FindAllStringIndex(u, 16) {
		args := sqlParenBody(u[m[1]:])
		rest := u[m[1]+len(args):]
		data := strings.Contains(rest, " FROM ")
		for _, k := range sqlHTTPDataMarks {
			data = data || strings.Contains(args, k)
		}
		if !data {
			continue
		}
		name := strings.ToLower(strings.Join(strings.Fields(u[m[0]:m[1]-1]), ""))
		return "posts queried data over HTTP to another server (" + name + ")", true
	}
	return "", false
}
