package riskmodel

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Read-named calls whose arguments do the harm, and reads of credential stores through data
// servers. A tool called search, query, get_table_contents or get_connection is a read by its
// name, and mcp.read allows it; but what the call hands the server decides:
//
//   - a search language with commands that delete, mail out or run scripts: Splunk's SPL
//     `| delete` removes indexed events for good (audit logs included), `| sendemail
//     sendresults=true` mails the results, `| script` / `| runshellscript` run programs on the
//     search head, `| outputlookup`, `| collect`, `| outputcsv` write lookups, indexes and
//     files (Splunk Search Reference: delete, sendemail, script, runshellscript, outputlookup,
//     collect, outputcsv, map);
//   - a search of the indices where Elasticsearch and OpenSearch keep their own users, password
//     hashes and API keys (`.security`, `.security-7`, `.security-tokens-7`, OpenSearch's
//     `.opendistro_security`, Fleet's enrollment API keys, Kibana's session index);
//   - a table read of the tables where enterprise systems keep password hashes: SAP USR02,
//     USH02 and USRPWDHISTORY (BCODE, PASSCODE, PWDSALTEDHASH), Oracle SYS.USER$ (PASSWORD,
//     SPARE4) and SYS.LINK$ (database-link passwords), SQL Server sys.sql_logins and
//     sys.syslnklgns (linked-server passwords), MySQL mysql.user, PostgreSQL pg_authid and
//     pg_shadow;
//   - a list of an orchestrator's connections (Airflow: each connection holds its login,
//     password and extra), a get of one, or of a variable named for a secret;
//   - server-side script that walks records and prints their password fields (ServiceNow
//     GlideRecord on sys_user reading user_password, getDecryptedValue).

// mcpR20SPLCmdRe finds the commands of a pipeline in a search language: a pipe, then the
// command word.
var mcpR20SPLCmdRe = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(?i)(?:^|\|)\s*\[?\s*([a-z_]+)\b([^|]*)`) }}

// mcpR20SPLHints mark a query as Splunk's search language rather than other piped text.
var mcpR20SPLHints = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|\s)(?:index|sourcetype|source|host|eventtype)\s*=|^\s*\|?\s*(?:search|tstats|inputlookup|makeresults|rest|metadata)\b`)
}}

// splText returns the call's search-language texts: the query arguments of a Splunk server,
// or any query that reads as SPL.
func (c *mcpCtx) splText() []string {
	splunk := mcpAnyWord(c.serverWords, mcpWordSet("splunk")) || mcpAnyWord(c.toolWords, mcpWordSet("splunk spl"))
	var out []string
	for _, a := range c.args {
		if !a.str || a.depth > 2 || !strings.Contains(a.val, "|") {
			continue
		}
		if !mcpWordSet("searchquery search query spl splquery q querystring")[a.nkey] {
			continue
		}
		if splunk || mcpR20SPLHints.get().MatchString(a.val) {
			out = append(out, mcpClip(a.val, 16<<10))
		}
	}
	return out
}

// splCommand returns the first command of class in the call's SPL, with its arguments.
func (c *mcpCtx) splCommand(class map[string]bool) (string, string) {
	for _, q := range c.splText() {
		for _, m := range mcpR20SPLCmdRe.get().FindAllStringSubmatch(q, -1) {
			if class[strings.ToLower(m[1])] {
				return strings.ToLower(m[1]), m[2]
			}
		}
	}
	return "", ""
}

func (c *mcpCtx) r20SPLDelete() string {
	if cmd, _ := c.splCommand(mcpWordSet("delete")); cmd != "" {
		return "runs a search whose | delete command erases the matching indexed events for good (audit and security logs included)"
	}
	return ""
}

func (c *mcpCtx) r20SPLSend() string {
	cmd, args := c.splCommand(mcpWordSet("sendemail"))
	if cmd == "" {
		return ""
	}
	for _, m := range mcpEmailRe().FindAllStringSubmatch(args, -1) {
		if mcpWebmailDomains.has(strings.ToLower(m[1])) {
			return fmt.Sprintf("runs a search whose | sendemail mails the results to a personal mailbox (%s)", mcpCleanText(m[0], 60))
		}
	}
	c.certainty = certaintyUnsure
	return "runs a search whose | sendemail mails the results out of the search head"
}

func (c *mcpCtx) r20SPLScript() string {
	if cmd, _ := c.splCommand(mcpWordSet("script run runshellscript")); cmd != "" {
		return fmt.Sprintf("runs a search whose | %s command runs a program on the search head", cmd)
	}
	return ""
}

func (c *mcpCtx) r20SPLWrite() string {
	if cmd, _ := c.splCommand(mcpWordSet("outputlookup collect outputcsv tscollect mcollect meventcollect sendalert outputtext")); cmd != "" {
		return fmt.Sprintf("runs a search whose | %s command writes to a lookup, an index, a file or an alert action", cmd)
	}
	return ""
}

// r20SearchActions is a saved search run with its actions (mail, webhooks, scripts) fired.
func (c *mcpCtx) r20SearchActions() string {
	if !mcpAnyWord(c.toolWords, mcpWordSet("saved search report alert")) {
		return ""
	}
	for _, a := range c.args {
		if mcpWordSet("triggeractions dispatchtriggeractions runactions actions")[a.nkey] && (a.val == "true" || a.val == "1") {
			return "runs a saved search with its actions triggered (its e-mails, webhooks or scripts go out)"
		}
	}
	return ""
}

// mcpR20StoredPasswordsRe matches Splunk's credential store endpoint, which returns each
// stored secret's clear_password (Splunk REST API Reference: storage/passwords).
var mcpR20StoredPasswordsRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[\s/"'])(?:services|servicesNS/[^/\s]+/[^/\s]+)/storage/passwords\b`)
}}

// r20StoredPasswords is a read of Splunk's stored passwords: | rest in a search, or a REST
// path argument of a Splunk server.
func (c *mcpCtx) r20StoredPasswords() string {
	if c.act > mcpActRead && c.splText() == nil {
		return ""
	}
	for _, q := range c.splText() {
		if mcpR20StoredPasswordsRe.get().MatchString(q) && strings.Contains(strings.ToLower(q), "rest") {
			return "runs a search that reads Splunk's stored credentials (| rest storage/passwords returns each clear_password)"
		}
	}
	if !mcpAnyWord(c.serverWords, mcpWordSet("splunk")) && !mcpAnyWord(c.toolWords, mcpWordSet("splunk")) {
		return ""
	}
	for _, a := range c.args {
		if a.str && a.depth <= 2 && mcpWordSet("endpoint path url uri resource")[a.nkey] && mcpR20StoredPasswordsRe.get().MatchString(" "+a.val) {
			return "reads Splunk's stored credentials (storage/passwords returns each clear_password)"
		}
	}
	return ""
}

// mcpR20SecurityIndexRe matches the names of indices that hold a search cluster's own users,
// password hashes, tokens and API keys. Sources: Elasticsearch docs "Security index" and
// "Token service" (.security-7, .security-tokens-7), OpenSearch Security plugin docs
// (.opendistro_security), Fleet docs (.fleet-enrollment-api-keys-7), Kibana's session index
// (.kibana_security_session_1).
var mcpR20SecurityIndexRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[\s,/"'(*])(\.(?:security(?:-tokens)?(?:-\d+)?|security\*|opendistro_security|plugins-security\w*|fleet-enrollment-api-keys\S*|kibana_security_session\S*))(?:$|[\s,/"')]|\*)`)
}}

// r20SecurityIndex is a read of such an index: an index argument, an ES|QL or SQL FROM, or a
// request path.
func (c *mcpCtx) r20SecurityIndex() string {
	if c.act > mcpActRead || c.fsTool || c.shellish {
		return ""
	}
	search := mcpAnyWord(c.serverWords, mcpWordSet("elasticsearch elastic opensearch es kibana elk")) ||
		mcpAnyWord(c.toolWords, mcpWordSet("search esql query index indices document documents get msearch"))
	if !search {
		return ""
	}
	for _, a := range c.args {
		if !a.str || a.depth > 3 || len(a.val) > 16<<10 {
			continue
		}
		if !mcpWordSet("index indices indexname indexpattern target path endpoint url query esql sql body")[a.nkey] {
			continue
		}
		if m := mcpR20SecurityIndexRe.get().FindStringSubmatch(" " + a.val + " "); m != nil {
			return fmt.Sprintf("searches %s, the index where the cluster keeps its users' password hashes, tokens and API keys", mcpCleanText(m[1], 40))
		}
	}
	return ""
}

// mcpR20CredTables are well-known tables of enterprise systems and databases that hold
// password hashes or stored passwords, with the columns that hold them. Sources: SAP Notes on
// USR02/USH02/USRPWDHISTORY (BCODE, PASSCODE, PWDSALTEDHASH); Oracle Database Reference
// (SYS.USER$ PASSWORD/SPARE4, SYS.LINK$ PASSWORD/PASSWORDX); SQL Server docs sys.sql_logins
// (password_hash) and sys.syslnklgns (pwdhash); MySQL Reference "mysql.user"
// (authentication_string); PostgreSQL docs pg_authid (rolpassword), pg_shadow (passwd).
var mcpR20CredTables = table[map[string]string]{build: func() map[string]string {
	return map[string]string{
		"USR02": "BCODE PASSCODE PWDSALTEDHASH", "USH02": "BCODE PASSCODE PWDSALTEDHASH", "USRPWDHISTORY": "BCODE PASSCODE PWDSALTEDHASH",
		"USER$": "PASSWORD SPARE4", "LINK$": "PASSWORD PASSWORDX AUTHPWD AUTHPWDX",
		"SQL_LOGINS": "PASSWORD_HASH", "SYSLNKLGNS": "PWDHASH", "SYSLOGINS": "PASSWORD",
		"MYSQL.USER": "AUTHENTICATION_STRING PASSWORD", "PG_AUTHID": "ROLPASSWORD", "PG_SHADOW": "PASSWD",
	}
}}

// mcpR20TableKeys are argument keys that name the table a read tool returns.
var mcpR20TableKeys = wordSet{words: `table tablename tabname table_name tablenames sqltable sapobject objectname entity`}

// r20CredTableName returns the credential table a name means ("sys.user$" → USER$).
func r20CredTableName(name string) (string, bool) {
	n := strings.ToUpper(strings.Trim(strings.TrimSpace(name), "\"`[]"))
	n = strings.NewReplacer("\"", "", "`", "", "[", "", "]", "").Replace(n)
	if _, ok := mcpR20CredTables.get()[n]; ok {
		return n, true
	}
	if i := strings.LastIndexByte(n, '.'); i >= 0 {
		if _, ok := mcpR20CredTables.get()[n[i+1:]]; ok && n[i+1:] != "USER" {
			return n[i+1:], true
		}
	}
	return "", false
}

// mcpR20FromRe finds the tables after FROM or JOIN in SQL, with the select list before it.
var mcpR20FromRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)\bSELECT\s+(.*?)\s+FROM\s+([A-Za-z0-9_$."\x60\[\]]+)`)
}}

// r20CredTable is a read of a credential table: by a table-contents tool (every column) or by
// SQL that selects every column or the hash column.
func (c *mcpCtx) r20CredTable() string {
	if c.act > mcpActRead || c.fsTool || c.shellish {
		return ""
	}
	for _, a := range c.args {
		if !a.str || a.depth > 2 || !mcpR20TableKeys.has(a.nkey) {
			continue
		}
		t, ok := r20CredTableName(a.val)
		if !ok {
			continue
		}
		cols := ""
		for _, b := range c.args {
			if b.str && r18FieldKeys.has(b.nkey) {
				cols += " " + b.val
			}
		}
		if cols == "" || r20NamesHashColumn(t, cols) {
			return fmt.Sprintf("reads the table %s, where the system keeps its users' password hashes", mcpCleanText(a.val, 40))
		}
	}
	for _, q := range c.r18SQLTexts() {
		for _, m := range mcpR20FromRe.get().FindAllStringSubmatch(q, -1) {
			t, ok := r20CredTableName(m[2])
			if !ok || t == "SYSLOGINS" || t == "SQL_LOGINS" || t == "MYSQL.USER" || t == "PG_AUTHID" || t == "PG_SHADOW" {
				continue // the SQL analysis judges the databases' own tables (mcp.sql-secret-read)
			}
			sel := strings.TrimSpace(m[1])
			if strings.HasSuffix(sel, "*") || r20NamesHashColumn(t, sel) {
				return fmt.Sprintf("selects the password hashes of %s", mcpCleanText(m[2], 40))
			}
		}
	}
	return ""
}

func r20NamesHashColumn(table, cols string) bool {
	hash := mcpWordSet(strings.ToLower(mcpR20CredTables.get()[table]))
	for _, f := range strings.FieldsFunc(strings.ToLower(cols), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '.' || r == '"' }) {
		if hash[f] || f == "*" {
			return true
		}
	}
	return false
}

// mcpR20OrchestratorWords name servers whose connection store holds credentials (Airflow and
// its managed forms: Cloud Composer, MWAA, Astronomer).
var mcpR20OrchestratorWords = wordSet{words: `airflow composer mwaa astro astronomer`}

// r20ConnectionSecrets is a read of an orchestrator's connections: all of them (a bulk read
// of credentials), or one (a secret read a human decides).
func (c *mcpCtx) r20ConnectionSecrets() string {
	if c.act > mcpActRead || !mcpAnyWord(c.serverWords, mcpR20OrchestratorWords.get()) && !mcpAnyWord(c.toolWords, mcpR20OrchestratorWords.get()) {
		return ""
	}
	if !mcpAnyWord(c.toolWords, mcpWordSet("connection connections conn conns")) {
		return ""
	}
	switch {
	case mcpAnyWord(c.toolWords, mcpWordSet("list export dump all connections conns")):
		return "lists the orchestrator's connections, each with its login, password and extra credentials"
	case mcpAnyWord(c.toolWords, mcpWordSet("get read show describe fetch")):
		c.certainty = certaintyUnsure
		return "reads a connection of the orchestrator with its login, password and extra credentials"
	}
	return ""
}

// r20SecretVariable is a get of one orchestrator variable whose key names a secret.
func (c *mcpCtx) r20SecretVariable() string {
	if c.act > mcpActRead || !mcpAnyWord(c.serverWords, mcpR20OrchestratorWords.get()) && !mcpAnyWord(c.toolWords, mcpR20OrchestratorWords.get()) {
		return ""
	}
	if !mcpAnyWord(c.toolWords, mcpWordSet("variable var")) || !mcpAnyWord(c.toolWords, mcpWordSet("get read show")) {
		return ""
	}
	for _, a := range c.args {
		if a.str && mcpWordSet("key variablekey variableid varkey name id")[a.nkey] && r18SecretField(a.val) {
			return fmt.Sprintf("reads the variable %q, named for a secret", mcpCleanText(a.val, 40))
		}
	}
	return ""
}

// mcpR20PlatformWords name CI and hosting platforms whose variable APIs return every
// variable's value: GitLab's project, group and instance CI/CD variables API, Heroku's config
// vars, Netlify's and Render's environment variables, Railway's variables, Dokku's config,
// and Vercel's environment variables when decrypted (Vercel REST API decrypt). GitHub Actions
// secrets, CircleCI and Bitbucket return names or masked values only and are not listed.
var mcpR20PlatformWords = wordSet{words: `gitlab heroku netlify render railway dokku vercel`}

// mcpR20VariableWords are a tool name's words for a platform's variables, plural.
var mcpR20VariableWords = wordSet{words: `variables vars envvars configvars envs environmentvariables`}

// r20PlatformVariables is a read of every variable of a project or app on such a platform,
// with their values: a bulk read of the deploy's secrets (tokens, database URLs, keys).
func (c *mcpCtx) r20PlatformVariables() string {
	if c.act > mcpActRead || !mcpAnyWord(c.serverWords, mcpR20PlatformWords.get()) {
		return ""
	}
	if !mcpAnyWord(c.toolWords, mcpR20VariableWords.get()) && !(mcpContains(c.toolWords, "env") && mcpContains(c.toolWords, "list")) {
		return ""
	}
	if mcpAnyWord(c.serverWords, mcpWordSet("vercel")) {
		decrypt := false
		for _, a := range c.args {
			if mcpR15ValueKeys.has(a.nkey) && (a.val == "true" || a.val == "1") {
				decrypt = true
			}
		}
		if !decrypt {
			return "" // encrypted values
		}
	}
	return fmt.Sprintf("reads every %s variable of the project with its value: its deploy tokens, database URLs and keys", c.server)
}

// mcpR20CopySourceKeys are argument keys that name where a copy or download reads from.
var mcpR20CopySourceKeys = wordSet{words: `source src from remote remotepath remotefile remotesrc sourcepath srcpath frompath remotesource`}

// mcpR20RemoteSpecRe splits scp's and rclone's remote spellings: user@host:/path, remote:/path.
var mcpR20RemoteSpecRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[A-Za-z0-9_.\-]+@)?[A-Za-z0-9_.\-]+:(/.*|~/.*)$`)
}}

// r20RemoteCredentialCopy is a copy or download whose source, on another machine, is a
// credential store: scp of remote:/etc/ssl/private/site.key, an SFTP get of
// /home/deploy/.ssh/id_ed25519. The local path analysis sees only the destination (often in
// the workspace), so the store read is judged by the source.
func (c *mcpCtx) r20RemoteCredentialCopy() string {
	if c.fsTool || c.browser || c.sends {
		return ""
	}
	remote := mcpAnyWord(c.serverWords, mcpWordSet("ssh sftp scp rsync ftp rclone remote")) ||
		mcpAnyWord(c.toolWords, mcpWordSet("scp sftp rsync download pull copy fetch get transfer"))
	if !remote {
		return ""
	}
	for _, a := range c.args {
		if !a.str || a.depth > 2 || !mcpR20CopySourceKeys.has(a.nkey) || len(a.val) > 1024 {
			continue
		}
		raw := strings.TrimSpace(a.val)
		if m := mcpR20RemoteSpecRe.get().FindStringSubmatch(raw); m != nil {
			raw = m[1]
		}
		if !strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, "~/") {
			continue
		}
		q := path.Clean(raw)
		if strings.HasPrefix(raw, "~/") {
			q = path.Join(c.scope.Home, raw[2:])
		} else if rest, ok := strings.CutPrefix(q, "/home/"); ok {
			if parts := strings.SplitN(rest, "/", 2); len(parts) == 2 && c.scope.Home != "" {
				q = path.Join(c.scope.Home, parts[1]) // another machine's home, read as this one's
			}
		}
		if e, ok := catalog.Default().Classify(catalog.Credential, q, c.scope.Home); ok {
			return fmt.Sprintf("copies %s (%s) off the machine that holds it", e.What, mcpCleanText(a.val, 80))
		}
	}
	return ""
}

// mcpR20RecordQueryRe marks script that walks records: ServiceNow GlideRecord, a SOQL or SQL
// query.
var mcpR20RecordQueryRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bnew\s+Glide(?:Record|RecordSecure|Aggregate)\s*\(|\[\s*SELECT\b|\bSELECT\b[^;]*\bFROM\b`)
}}

// mcpR20FieldReadRe finds the fields a script reads: gr.field, getValue('field'),
// getDisplayValue('field'), getDecryptedValue().
var mcpR20FieldReadRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\.\s*(?:get(?:Display)?Value\s*\(\s*['"]([A-Za-z0-9_]+)['"]|([A-Za-z_][A-Za-z0-9_]*)\b)|(getDecryptedValue)\s*\(`)
}}

// r20ScriptSecretFields is server-side script that queries records and reads their password
// or token fields.
func (c *mcpCtx) r20ScriptSecretFields() string {
	if c.fsTool || c.browser {
		return ""
	}
	for _, a := range c.args {
		if !a.str || a.depth > 2 || !mcpWordSet("script code source body snippet js javascript apex")[a.nkey] || len(a.val) > 64<<10 {
			continue
		}
		if !mcpR20RecordQueryRe.get().MatchString(a.val) {
			continue
		}
		for _, m := range mcpR20FieldReadRe.get().FindAllStringSubmatch(a.val, -1) {
			f := m[1] + m[2]
			if m[3] != "" {
				return "runs script that queries records and decrypts their password fields (getDecryptedValue)"
			}
			if f != "" && r18SecretField(f) && !mcpWordSet("addquery addencodedquery orderby setlimit")[strings.ToLower(f)] {
				return fmt.Sprintf("runs script that queries records and reads their %q field: stored passwords or tokens", mcpCleanText(f, 40))
			}
		}
	}
	return ""
}

// mcpR20Rules are the rules of the read-named calls whose arguments do the harm.
func mcpR20Rules() []*Rule {
	return []*Rule{
		{ID: "mcp.search-delete", Kind: KindMCP, Level: High, Category: CatDataDeletion, Certain: true,
			Message: "Runs a search whose commands delete the indexed events it matches (Splunk | delete)",
			mcp:     mcpWhich((*mcpCtx).r20SPLDelete)},
		{ID: "mcp.search-sendemail", Kind: KindMCP, Level: High, Category: CatDataExfiltration, Certain: true,
			Message: "Runs a search that mails its results out (Splunk | sendemail)",
			mcp:     mcpWhich((*mcpCtx).r20SPLSend)},
		{ID: "mcp.search-script", Kind: KindMCP, Level: High, Category: CatRemoteCodeExecution,
			Message: "Runs a search that runs a program on the search head (Splunk | script, | runshellscript)",
			mcp:     mcpWhich((*mcpCtx).r20SPLScript)},
		{ID: "mcp.search-write", Kind: KindMCP, Level: Medium, Category: CatFinancialOrProduction,
			Message: "Runs a search that writes a lookup, an index, a file or fires an alert action",
			mcp:     mcpWhich((*mcpCtx).r20SPLWrite)},
		{ID: "mcp.search-actions", Kind: KindMCP, Level: Medium, Category: CatFinancialOrProduction,
			Message: "Runs a saved search with its actions triggered (e-mails, webhooks, scripts)",
			mcp:     mcpWhich((*mcpCtx).r20SearchActions)},
		{ID: "mcp.security-index-read", Kind: KindMCP, Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "Searches a cluster's security index (users, password hashes, tokens, API keys)",
			mcp:     mcpWhich((*mcpCtx).r20SecurityIndex)},
		{ID: "mcp.stored-passwords-read", Kind: KindMCP, Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "Reads a search platform's stored credentials (Splunk storage/passwords)",
			mcp:     mcpWhich((*mcpCtx).r20StoredPasswords)},
		{ID: "mcp.platform-variables-read", Kind: KindMCP, Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "Reads every CI/CD or hosting variable of a project with its value (GitLab CI/CD variables, Heroku config vars)",
			mcp:     mcpWhich((*mcpCtx).r20PlatformVariables)},
		{ID: "mcp.remote-credential-copy", Kind: KindMCP, Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "Copies or downloads a credential store (a private key, a password file) from another machine",
			mcp:     mcpWhich((*mcpCtx).r20RemoteCredentialCopy)},
		{ID: "mcp.credential-table-read", Kind: KindMCP, Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "Reads a table where an enterprise system keeps password hashes (SAP USR02, Oracle USER$, linked-server logins)",
			mcp:     mcpWhich((*mcpCtx).r20CredTable)},
		{ID: "mcp.connection-secrets-read", Kind: KindMCP, Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "Reads an orchestrator's stored connections with their credentials",
			mcp:     mcpWhich((*mcpCtx).r20ConnectionSecrets)},
		{ID: "mcp.secret-variable-read", Kind: KindMCP, Level: Medium, Category: CatCredentialAccess,
			Message: "Reads one orchestrator variable named for a secret",
			mcp:     mcpWhich((*mcpCtx).r20SecretVariable)},
		{ID: "mcp.script-secret-fields", Kind: KindMCP, Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "Runs server-side script that queries records and reads their password or token fields",
			mcp:     mcpWhich((*mcpCtx).r20ScriptSecretFields)},
	}
}
