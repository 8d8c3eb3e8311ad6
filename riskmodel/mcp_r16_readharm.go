package riskmodel

import (
	"encoding/base64"
	"fmt"
	"net"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Read-named tools whose arguments do the harm. A tool called get_file_contents, query,
// fetch or type is a read by its name, and mcp.read allows it; what it reads, where its SQL
// connects and what its URL carries decide instead:
//   - a path climbing out of a repository (../../home/u/.ssh/id_rsa) or naming a home or
//     system credential store, given to a server that reads files remotely (a forge, SFTP, a
//     drive), reads credentials as surely as a local filesystem tool (docs/policy.md:
//     reading credential stores without need);
//   - a get of several secrets with their values decrypted is a bulk secret read;
//   - SQL whose table functions or links (remote(), dblink(), OPENROWSET, postgres_fdw
//     servers) make the database connect to another server hands it the query and often the
//     credentials in the call;
//   - a fetch or a navigation whose query string carries people's records or identity
//     numbers sends them to that host (docs/policy.md: URLs and query strings);
//   - typing a repository's name or "delete" into a confirmation field confirms a deletion.

// remoteCredentialPath returns the credential store a read call's path argument names when
// the local path analysis did not see it (a remote reader: a forge, SFTP, a drive), and
// whether it surely lies outside any repository (a climb out, an absolute or home path).
func (c *mcpCtx) remoteCredentialPath() (string, bool) {
	if c.act != mcpActRead || c.sends || c.httpSend || c.browser {
		return "", false
	}
	seen := map[string]bool{}
	for _, p := range c.paths {
		seen[p.raw] = true
	}
	for _, a := range c.args {
		if !a.str || a.depth > 3 || !(mcpPathKeys.has(a.nkey) || strings.HasSuffix(a.nkey, "path") || strings.HasSuffix(a.nkey, "file")) {
			continue
		}
		raw := strings.TrimSpace(strings.TrimPrefix(a.val, "file://"))
		if raw == "" || len(raw) > 1024 || strings.Contains(raw, "://") || strings.ContainsAny(raw, "\n\x00") || seen[raw] {
			continue
		}
		raw = strings.ReplaceAll(raw, `\`, "/")
		q, outside := "", false
		switch {
		case strings.HasPrefix(raw, "~/") || strings.HasPrefix(raw, "/") || len(raw) > 2 && raw[1] == ':':
			q, outside = raw, true
		case strings.HasPrefix(raw, "../") || strings.Contains(raw, "/../"):
			// Climbing out of the repository: what is left names a path from the root, or
			// from the home directory the checkout lives in (../../.aws/credentials).
			q, outside = path.Clean("/"+raw), true
			if _, ok := catalog.Default().Classify(catalog.Credential, q, c.scope.Home); !ok && c.scope.Home != "" {
				q = path.Join(c.scope.Home, q)
			}
		default:
			q = path.Clean("/" + raw) // inside the repository: its own .env is asked about
			if abs, ok := c.scope.Resolve(raw); ok {
				q = abs
			}
		}
		if q == "" {
			continue
		}
		if len(q) > 2 && q[1] == ':' { // C:/Users/u/... → /Users/u/...
			q = q[2:]
		}
		if e, ok := catalog.Default().Classify(catalog.Credential, q, c.scope.Home); ok {
			return fmt.Sprintf("%s (%s)", e.What, mcpCleanText(a.val, 80)), outside
		}
		if outside {
			// Another machine's home directory (/home/deploy/.ssh/id_rsa on an SFTP server)
			// is classified as if it were this one's.
			if i := strings.Index(q, "/home/"); i == 0 {
				rest := strings.SplitN(q[len("/home/"):], "/", 2)
				if len(rest) == 2 {
					if e, ok := catalog.Default().Classify(catalog.Credential, path.Join(c.scope.Home, rest[1]), c.scope.Home); ok {
						return fmt.Sprintf("%s (%s)", e.What, mcpCleanText(a.val, 80)), true
					}
				}
			}
		}
	}
	return "", false
}

// mcpR16PluralSecretWords are a tool's words for several secrets at a time.
var mcpR16PluralSecretWords = wordSet{words: `secrets parameters params values items credentials passwords keys entries`}

// bulkSecretGet returns the value flag of a get call on a secret store that fetches several
// secrets with their values (ssm get_parameters WithDecryption): mcp.secret-bulk-values
// judges list and export tools.
func (c *mcpCtx) bulkSecretGet() string {
	store := mcpR15SecretStoreWords.get()
	if !mcpAnyWord(c.toolWords, store) && !mcpAnyWord(c.serverWords, store) || c.act > mcpActRead {
		return ""
	}
	if mcpAnyWord(c.toolWords, mcpR15BulkWords.get()) {
		return "" // mcp.secret-bulk-values
	}
	plural := mcpAnyWord(c.toolWords, mcpR16PluralSecretWords.get())
	if !plural {
		n, list := 0, mcpWordSet("names ids keys secretids secretnames parameters paths")
		for _, a := range c.args {
			if a.depth == 2 && a.str && (list[a.nkey] || list[mcpNormKey(strings.SplitN(a.path, "[", 2)[0])]) {
				n++
			}
		}
		plural = n >= 2
	}
	if !plural {
		return ""
	}
	keys := mcpR15ValueKeys.get()
	for _, a := range c.args {
		if a.depth == 1 && keys[a.nkey] && (a.val == "true" || a.val == "1") {
			return fmt.Sprintf("%s=%s", a.key, a.val)
		}
	}
	return ""
}

// mcpR16SQLReach are the patterns of SQL that makes the database connect to another server:
// a table function or link naming a host, a SQL Server ad hoc connection, a foreign server.
var mcpR16SQLReach = table[[4]*regexp.Regexp]{build: func() [4]*regexp.Regexp {
	return [4]*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(remote|remotesecure|cluster|mysql|postgresql|mongodb|dblink|dblink_connect|dblink_connect_u|dblink_exec|dblink_open|openrowset|opendatasource)\s*\(`),
		regexp.MustCompile(`(?i)\b(?:host|hostaddr|server|data\s+source|addr|address)\s*=\s*['"]?([A-Za-z0-9_.:\-\[\]]+)`),
		regexp.MustCompile(`^\s*'([A-Za-z0-9_.\-]+(?::\d+)?)'`),
		regexp.MustCompile(`(?i)\bcreate\s+server\b[\s\S]*?\boptions\s*\([\s\S]*?\bhost\s+'([^']+)'|\bconnection\s*=\s*'(?:mysql|postgres(?:ql)?)://(?:[^@']*@)?([^/:']+)`),
	}
}}

// sqlRemoteReach returns the host a SQL argument makes the database connect to, and whether
// that is surely harm: a public address, or credentials handed to it in the call.
func (c *mcpCtx) sqlRemoteReach() (string, bool) {
	if len(c.sqlArgKeys) == 0 {
		return "", false
	}
	keys := map[string]bool{}
	for _, k := range c.sqlArgKeys {
		keys[k] = true
	}
	re := mcpR16SQLReach.get()
	for _, a := range c.args {
		if !a.str || !keys[a.key] {
			continue
		}
		sql := mcpClip(a.val, 64<<10)
		var hosts []string
		var bodies []string
		for _, m := range re[0].FindAllStringSubmatchIndex(sql, 16) {
			body := sqlParenBody(sql[m[1]:])
			h := re[1].FindStringSubmatch(body)
			if h == nil {
				// remote('host:port', …); a bare word is a cluster or a named connection.
				if h = re[2].FindStringSubmatch(body); h == nil || !strings.ContainsAny(h[1], ".:") {
					continue
				}
			}
			hosts, bodies = append(hosts, h[1]), append(bodies, body)
		}
		for _, m := range re[3].FindAllStringSubmatch(sql, 8) {
			hosts = append(hosts, m[1]+m[2])
			bodies = append(bodies, m[0])
		}
		for i, h := range hosts {
			h = strings.Trim(h, "[]'\"")
			host := h
			if hh, _, err := net.SplitHostPort(h); err == nil {
				host = hh
			}
			lh := strings.ToLower(host)
			if lh == "" || sqlDestLoopback(h) || isLocalHost(lh) || c.trustedHost(lh) {
				continue
			}
			sure := false
			if ip := net.ParseIP(lh); ip != nil && publicIP(ip) {
				sure = true
			}
			if i < len(bodies) && mcpR16SQLCred.get().MatchString(bodies[i]) {
				sure = true
			}
			return host, sure
		}
	}
	return "", false
}

// mcpR16SQLCred matches a password handed to another server in a connection's text.
var mcpR16SQLCred = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:password|pwd|passwd)\s*=|'[^']*'\s*,\s*'[^']*'\s*,\s*'[^']*'\s*,\s*'[^']+'|://[^:/@'\s]+:[^@'\s]+@`)
}}

// urlCarriesData returns what a fetch, scrape or navigation URL's query string carries when
// that is people's records or identity numbers, and the host it goes to.
func (c *mcpCtx) urlCarriesData() (what, host string) {
	if c.act > mcpActRead && !c.browser {
		return "", ""
	}
	for _, u := range c.urls {
		if u.local || u.trust || u.service != "" {
			continue
		}
		p, err := url.Parse(strings.TrimSpace(u.raw))
		if err != nil || p.RawQuery == "" && p.Fragment == "" {
			continue
		}
		var b strings.Builder
		for k, vs := range p.Query() {
			for _, v := range vs {
				b.WriteString(k + "=" + v + "\n")
			}
		}
		if f, err := url.QueryUnescape(p.Fragment); err == nil {
			b.WriteString(f)
		}
		for _, vs := range p.Query() {
			for _, v := range vs {
				if d := mcpR16Unbase64(v); d != "" {
					b.WriteString("\n" + d) // ?d=<base64 of rows>
				}
			}
		}
		w, sure := urlTextData(b.String())
		if sure {
			return w, p.Hostname()
		}
	}
	return "", ""
}

// urlTextData applies the people's-data detectors of outboundData to a query string's text.
func urlTextData(t string) (string, bool) {
	re := mcpR16Res.get()
	switch {
	case len(re.ssn.FindAllString(t, 4)) > 0:
		return "social security numbers", true
	case len(re.ukNI.FindAllString(t, 4)) > 0 && re.natID.MatchString(t), re.natID.MatchString(t):
		return "national identity numbers", true
	case re.dob.MatchString(t):
		return "a birth date", true
	}
	for _, m := range re.card.FindAllString(t, 8) {
		if luhn(m) {
			return "payment card numbers", true
		}
	}
	for _, m := range re.iban.FindAllString(t, 8) {
		if ibanValid(m) {
			return "bank account numbers (IBAN)", true
		}
	}
	if len(mcpEmailRe().FindAllString(t, 8)) >= 3 || csvPeople(t) {
		return "a list of people's e-mail addresses", true
	}
	return "", false
}

// mcpR16ConfirmLabel matches the label of a field that confirms what is typed.
var mcpR16ConfirmLabel = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bconfirm\w*|\bverify\b|type\s+(?:the\s+)?(?:name|repository|repo|project)`)
}}

// mcpR16ConfirmValue matches what a destructive confirmation asks for: an owner/name slug, or
// the verb itself.
var mcpR16ConfirmValue = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:[a-z0-9][\w.\-]*/[\w.\-]+|(?:permanently\s+)?(?:delete|destroy|remove|erase|drop|purge|transfer|terminate)(?:\s+[\w.\-/]+){0,3})$`)
}}

// confirmFieldTyped reports typing an owner/name slug or a destroy verb into a field whose
// label only says it confirms: the deletion dialogs of forges and consoles.
func (c *mcpCtx) confirmFieldTyped() string {
	target, typed := c.typedInto(mcpR16ConfirmLabel.get())
	if target == "" || typed == "" || strings.Contains(strings.ToLower(target), "password") || strings.Contains(strings.ToLower(target), "email") ||
		!mcpR16ConfirmValue.get().MatchString(typed) {
		return ""
	}
	return fmt.Sprintf("types %q into %q: confirming a deletion or transfer", mcpCleanText(typed, 60), mcpCleanText(target, 60))
}

// mcpR16Unbase64 decodes a query value that is base64 of printable text ("" otherwise).
func mcpR16Unbase64(v string) string {
	if len(v) < 16 || len(v) > 64<<10 {
		return ""
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		d, err := enc.DecodeString(v)
		if err != nil {
			continue
		}
		for _, ch := range d {
			if ch < 0x09 || ch > 0x7e || ch > 0x0d && ch < 0x20 {
				return ""
			}
		}
		return string(d)
	}
	return ""
}

// mcpR16SQLNetCall matches the network calls of database engines outside the table
// functions: Oracle's UTL_HTTP, HTTPURITYPE, UTL_INADDR (a DNS lookup), UTL_TCP, UTL_SMTP,
// DBMS_LDAP; SQL Server's xp_dirtree/xp_fileexist/xp_subdirs on a UNC path (an SMB
// connection that also leaks the service account's NTLM hash) and sp_OACreate of an HTTP
// object; MySQL's LOAD_FILE of a UNC path built with CONCAT (a DNS lookup).
var mcpR16SQLNetCall = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(utl_http\.(?:request(?:_pieces)?|begin_request)|httpuritype|utl_inaddr\.get_host_(?:address|name)|utl_tcp\.open_connection|utl_smtp\.open_connection|dbms_ldap\.init|xp_dirtree|xp_fileexist|xp_subdirs|sp_oacreate|load_file)\b\s*\(?`)
}}

// sqlNetCall returns the network call of a SQL argument and whether it surely sends data:
// the address is built from a query (||, CONCAT, a subquery), a public address or a UNC
// path, or an HTTP object is created.
func (c *mcpCtx) sqlNetCall() (string, bool) {
	if len(c.sqlArgKeys) == 0 {
		return "", false
	}
	keys := map[string]bool{}
	for _, k := range c.sqlArgKeys {
		keys[k] = true
	}
	for _, a := range c.args {
		if !a.str || !keys[a.key] {
			continue
		}
		sql := mcpClip(a.val, 64<<10)
		for _, m := range mcpR16SQLNetCall.get().FindAllStringSubmatchIndex(sql, 8) {
			name := strings.ToLower(sql[m[2]:m[3]])
			body := sql[m[1]:]
			if strings.HasSuffix(sql[m[0]:m[1]], "(") {
				body = sqlParenBody(body)
			} else if len(body) > 400 {
				body = body[:400]
			}
			ub := strings.ToUpper(body)
			built := strings.Contains(ub, "||") || strings.Contains(ub, "CONCAT") || strings.Contains(ub, "SELECT")
			unc := strings.Contains(body, `\\`) || strings.Contains(body, "//")
			if name == "load_file" && !(built && unc) {
				continue // a local file: the SQL file-read rules judge it
			}
			if sqlDestLoopback(strings.Trim(body, " '\"")) {
				continue
			}
			sure := built || name == "sp_oacreate" || strings.HasPrefix(name, "xp_") && unc
			for _, h := range reTextURL().FindAllString(body, 4) {
				if u, err := url.Parse(h); err == nil {
					if ip := net.ParseIP(u.Hostname()); ip != nil && publicIP(ip) {
						sure = true
					} else if isLocalHost(u.Hostname()) {
						continue
					}
				}
			}
			return name, sure
		}
	}
	return "", false
}
