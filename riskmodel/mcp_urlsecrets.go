package riskmodel

import (
	"net/url"
	"sort"
	"strings"
)

// Secrets carried by a URL. docs/policy.md puts "sending secrets … to any host that is not the
// project's own (HTTP bodies *and* URLs/query strings)" on the deny list, and a tool that
// fetches a URL sends its query and path to that host whatever the server's read-only hint
// says: fetch, firecrawl_scrape, a browser's navigate and a web reader all request the URL.
// The argument as written is percent-encoded (DATABASE_URL%3Dpostgres%3A%2F%2Fadmin%3A…), so
// the detectors read each query value and path segment decoded, and a value under a key
// that names a secret (?token=, ?aws_secret_access_key=) counts by its key.

// urlSecretFields returns the decoded query values and path segments of u as (name, value)
// pairs: the query key, or "path" for a segment. Sorted for stable findings.
func urlSecretFields(u *url.URL) [][2]string {
	var out [][2]string
	q := u.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range q[k] {
			out = append(out, [2]string{k, v})
		}
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if len(seg) >= 16 {
			out = append(out, [2]string{"path", seg})
		}
	}
	return out
}

// urlFieldSecrets names the secrets in one decoded URL field: what the detectors find in the
// value, or the value's key when the key names a secret.
func urlFieldSecrets(key, val string) []string {
	if len(val) > 4096 {
		val = val[:4096]
	}
	var kinds []string
	for _, m := range FindSecrets(val) {
		kinds = append(kinds, m.Kind)
	}
	if len(kinds) == 0 && key != "path" && !strings.Contains(val, "\n") {
		if k, ok := secCheckKeyed(key, val); ok {
			if k == "" {
				k = secKeyedKind(key)
			}
			kinds = append(kinds, k)
		}
	}
	return kinds
}
