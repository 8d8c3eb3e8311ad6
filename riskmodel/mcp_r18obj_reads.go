package riskmodel

import (
	"fmt"
	"regexp"
	"strings"
)

// Read tools that do harm. A query tool is read-only, but reading the password, secret and
// token fields of records, a browser's cookie or login database, or a production container's
// environment is reading a credential store (docs/policy.md's deny list), and a cartesian
// join of whole tables, billions of generated rows or an endless loop of requests from a page
// exhausts the service (resource exhaustion). Sources: Salesforce SOQL field names (__c),
// Chromium's Cookies (host_key, encrypted_value) and Login Data (logins.password_value),
// Firefox's cookies.sqlite (moz_cookies) and logins, Docker Engine API container inspect
// (Config.Env), PostgreSQL generate_series.

// r18FieldKeys are argument keys that list the fields a read returns.
var r18FieldKeys = wordSet{words: `fields columns select properties attributes projection fieldnames
	returnfields selectfields includefields fieldlist`}

// r18SecretWords are field-name words for secret values; r18NotSecretWords are words that make
// such a field metadata about the secret (token_type, password_last_set, secret_name).
var (
	r18SecretWords    = wordSet{words: `password passwords passwd pwd passphrase secret secrets token tokens apikey privatekey credential credentials`}
	r18NotSecretWords = wordSet{words: `expires expiry expiration expire expiresat last changed updated created set hint policy
		required length count type name names id ids url enabled status at date version rotation reset need needs`}
	r18FieldSplitRe = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`[A-Z]?[a-z0-9]+|[A-Z]+(?:[^a-z]|$)`) }}
)

// r18SecretField reports a field name that holds a secret value.
func r18SecretField(f string) bool {
	f = strings.TrimSpace(f)
	f = strings.TrimSuffix(strings.TrimSuffix(f, "__c"), "__pc")
	if i := strings.LastIndexByte(f, '.'); i >= 0 {
		f = f[i+1:]
	}
	var words []string
	for _, part := range strings.FieldsFunc(f, func(r rune) bool { return r == '_' || r == '-' || r == ' ' }) {
		for _, w := range r18FieldSplitRe.get().FindAllString(part, -1) {
			words = append(words, strings.ToLower(strings.TrimRight(w, "_")))
		}
	}
	secret := false
	for i, w := range words {
		switch {
		case r18NotSecretWords.has(w):
			return false
		case r18SecretWords.has(w):
			secret = true
		case w == "key" && i > 0 && mcpWordSet("api access secret private signing encryption client")[words[i-1]]:
			secret = true
		}
	}
	return secret
}

var (
	r18SelectColsRe = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(?is)^\s*SELECT\s+(.+?)\s+FROM\s`) }}
	r18WhereRe      = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bWHERE\b|\bLIMIT\s+1\b`) }}
	// r18BrowserStoreRe matches queries of a browser's cookie or login database by its schema.
	r18BrowserStoreRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)\b(?:encrypted_value|password_value|moz_cookies|moz_logins|card_number_encrypted)\b|` +
			`\bFROM\s+(?:main\.)?["\x60]?cookies["\x60]?\s.*?$|^\s*SELECT\b[^;]*\bhost_key\b`)
	}}
	r18CookieRe = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(?is)\bhost_key\b|\bencrypted_value\b`) }}
)

func (c *mcpCtx) r18SQLTexts() []string {
	var out []string
	for _, a := range c.args {
		if a.str && (mcpSqlKeys.has(a.nkey) || a.nkey == "soql" || a.nkey == "q") {
			out = append(out, mcpClip(a.val, 16<<10))
		}
	}
	return out
}

func (c *mcpCtx) r18CredentialRead() string {
	if c.act == mcpActDestroy || c.fsTool || c.shellish || c.browser {
		return ""
	}
	// Browser cookie and login stores, by their schema.
	for _, q := range c.r18SQLTexts() {
		if m := r18BrowserStoreRe.get().FindString(q); m != "" && (r18CookieRe.get().MatchString(q) || !strings.Contains(strings.ToLower(m), "from")) {
			return fmt.Sprintf("queries a browser's cookie or login database (%q): its session cookies and saved passwords", mcpCleanText(m, 40))
		}
	}
	if c.act == mcpActWrite {
		return ""
	}
	narrowed := false
	for _, a := range c.args {
		if mcpWordSet("where whereclause filter filters conditions id recordid")[a.nkey] && strings.TrimSpace(a.val) != "" {
			narrowed = true
		}
	}
	// Field lists of a read.
	if !narrowed {
		for _, a := range c.args {
			if !a.str || !r18FieldKeys.has(a.nkey) {
				continue
			}
			for _, f := range strings.Split(a.val, ",") {
				if r18SecretField(f) {
					return fmt.Sprintf("reads the field %q of every record: stored passwords, secrets or tokens", mcpCleanText(f, 40))
				}
			}
		}
	}
	// SELECT lists of SQL and SOQL.
	for _, q := range c.r18SQLTexts() {
		m := r18SelectColsRe.get().FindStringSubmatch(q)
		if m == nil || r18WhereRe.get().MatchString(q) {
			continue
		}
		for _, f := range strings.Split(m[1], ",") {
			f = strings.TrimSpace(f)
			if i := strings.IndexAny(f, " \t"); i > 0 {
				f = f[:i]
			}
			if strings.ContainsAny(f, "()") {
				continue
			}
			if r18SecretField(f) {
				return fmt.Sprintf("selects %q from every row: stored passwords, secrets or tokens", mcpCleanText(f, 40))
			}
		}
	}
	// A production container's environment.
	if mcpAnyWord(c.serverWords, mcpWordSet("docker podman")) && mcpAnyWord(c.toolWords, mcpWordSet("inspect")) {
		env, prod := false, c.prodHint != ""
		for _, a := range c.args {
			if !a.str {
				continue
			}
			if r18EnvRe.get().MatchString(a.val) && mcpWordSet("fields field format filter query path jsonpath select")[a.nkey] {
				env = true
			}
			if r18ProdNameRe.get().MatchString(a.val) {
				prod = true
			}
		}
		if env && prod {
			return "prints a production container's environment: the secrets it was started with"
		}
	}
	return ""
}

var r18EnvRe = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(?i)\benv\b`) }}

var r18ProdNameRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[\W_])(?:prod|production|prd|live)(?:$|[\W_])`)
}}

var (
	r18CrossJoinRe = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bCROSS\s+JOIN\b`) }}
	r18LimitRe     = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bLIMIT\s+\d|\bFETCH\s+FIRST\b|\bTOP\s*\(?\s*\d`)
	}}
	r18GenSeriesRe = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bgenerate_series\s*\(([^)]*)\)`) }}
	r18BigNumRe    = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:\d{10,}|\d{1,3}(?:_\d{3}){3,}|\d+(?:\.\d+)?e(?:9|[1-9]\d))\b`)
	}}
	r18LoopRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`(?s)\bwhile\s*\(\s*(?:true|1|!0|!!1)\s*\)|\bfor\s*\(\s*;\s*;\s*\)|\bdo\s*\{.*\}\s*while\s*\(\s*(?:true|1)\s*\)|\bsetInterval\s*\([^;]*,\s*(?:\d{1,2})\s*\)|\blength\s*:\s*\d{5,}|<\s*\d{5,}\s*;`)
	}}
	r18RequestRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`\bfetch\s*\(|XMLHttpRequest|sendBeacon|\bnew\s+Image\b|\bWebSocket\s*\(|\.click\s*\(`)
	}}
)

func (c *mcpCtx) r18Exhaustion() string {
	if c.dbLocal {
		return ""
	}
	for _, q := range c.r18SQLTexts() {
		if n := len(r18CrossJoinRe.get().FindAllString(q, -1)); n >= 2 && !r18LimitRe.get().MatchString(q) {
			return fmt.Sprintf("joins %d tables as a cartesian product without a LIMIT: rows multiply until the database runs out", n+1)
		}
		for _, m := range r18GenSeriesRe.get().FindAllStringSubmatch(q, 4) {
			if b := r18BigNumRe.get().FindString(m[1]); b != "" {
				return fmt.Sprintf("generates %s rows (generate_series): the database runs out of memory or disk", b)
			}
		}
	}
	if c.browser {
		for _, a := range c.args {
			if a.str && mcpWordSet("function script expression code js javascript source body")[a.nkey] &&
				r18LoopRe.get().MatchString(a.val) && r18RequestRe.get().MatchString(a.val) {
				return "runs an endless or huge loop of requests from the page: a flood against the site"
			}
		}
	}
	return ""
}
