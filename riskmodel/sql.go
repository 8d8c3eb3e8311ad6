package riskmodel

import (
	"strings"
	"unicode"
)

// One SQL classifier for both front ends: MCP database tools (findSQL) and database CLIs in
// shell commands (sqlAnalyze in rules_cloud.go). It rates what a statement does, not its
// type: a SELECT that reads server files or password hashes is credential access, a DO block
// that runs dynamic SQL or a COPY … PROGRAM is code execution on the server.
// ---------------------------------------------------------------------------------------------
// SQL.

type mcpSqlKind uint8

const (
	mcpSqlNeutral mcpSqlKind = iota // BEGIN, COMMIT, SET search_path
	mcpSqlRead
	mcpSqlWrite    // INSERT, UPDATE … WHERE, maintenance
	mcpSqlDelete   // DELETE … WHERE
	mcpSqlDDL      // CREATE / ALTER without data loss
	mcpSqlUnknown  // CALL, EXECUTE, an unknown statement
	mcpSqlBulk     // UPDATE without WHERE, DROP INDEX / VIEW / FUNCTION / USER
	mcpSqlSecret   // reads server files, password hashes or secret columns in bulk
	mcpSqlPriv     // GRANT, CREATE / ALTER ROLE, UPDATE of role / admin columns
	mcpSqlDestroy  // DROP TABLE / DATABASE / SCHEMA, TRUNCATE, DELETE without WHERE, ALTER … DROP COLUMN
	mcpSqlEscalate // runs code or writes files on the server, makes a superuser, disables row-level security
	mcpSqlExfil    // sends queried data to another server (sql_netsend.go)
)

// sqlSideEffectWords are functions that change the server even inside a SELECT (PostgreSQL
// "System Administration Functions", "Sequence Manipulation Functions", dblink).
var sqlSideEffectWords = wordSet{words: `PG_TERMINATE_BACKEND PG_CANCEL_BACKEND PG_RELOAD_CONF SET_CONFIG LO_IMPORT LO_EXPORT
	PG_WRITE_FILE DBLINK_EXEC SETVAL LO_UNLINK PG_DROP_REPLICATION_SLOT PG_ROTATE_LOGFILE PG_PROMOTE PG_SWITCH_WAL
	PG_CREATE_RESTORE_POINT`}

// sqlFileFuncs read files or directories of the database server, or load code into it.
// Sources: PostgreSQL "System Administration Functions" (pg_read_file, pg_ls_dir, …) and
// "Large Objects" (lo_import); MySQL LOAD_FILE; SQLite load_extension; SQL-injection cheat
// sheets (PayloadsAllTheThings "SQL Injection" file read/write).
var sqlFileFuncs = wordSet{words: `PG_READ_FILE PG_READ_BINARY_FILE PG_LS_DIR PG_STAT_FILE PG_LS_LOGDIR PG_LS_WALDIR PG_LS_TMPDIR
	PG_LS_ARCHIVE_STATUSDIR LO_IMPORT LOAD_FILE`}

// sqlCodeFuncs write files or run code on the server.
var sqlCodeFuncs = wordSet{words: `PG_WRITE_FILE LO_EXPORT LOAD_EXTENSION DBLINK_EXEC SYS_EXEC SYS_EVAL XP_CMDSHELL SP_OACREATE
	SP_EXECUTE_EXTERNAL_SCRIPT`}

// sqlSecretTables hold password hashes or credentials of the database itself.
var sqlSecretTables = wordSet{words: `PG_AUTHID PG_SHADOW PG_USER_MAPPINGS PG_USER_MAPPING USER_MAPPING_OPTIONS SYSLOGINS SQL_LOGINS
	AUTHENTICATION_STRING`}

// sqlSecretColumns are column names that hold secrets in application tables.
var sqlSecretColumns = wordSet{words: `PASSWORD PASSWORDS PASSWORD_HASH PASSWORD_DIGEST ENCRYPTED_PASSWORD HASHED_PASSWORD PASSWD
	SECRET SECRETS CLIENT_SECRET API_KEY API_KEYS APIKEY ACCESS_TOKEN REFRESH_TOKEN AUTH_TOKEN TOKEN TOKENS PRIVATE_KEY
	SECRET_KEY OTP_SECRET TOTP_SECRET MFA_SECRET SESSION_TOKEN CREDENTIALS SSN CARD_NUMBER CVV`}

// sqlRisk rates what a statement does beyond its type: file and secret reads, code run on
// the server. It returns the kind and a description, or mcpSqlNeutral when nothing applies.
func sqlRisk(w []string, st string) (mcpSqlKind, string) {
	has := func(x string) bool { return mcpContains(w, x) }
	if what, ok := sqlNetSend(w, st); ok {
		return mcpSqlExfil, what
	}
	for i, v := range w {
		switch {
		case sqlCodeFuncs.has(v):
			return mcpSqlEscalate, "writes a file or runs code on the database server (" + strings.ToLower(v) + ")"
		case v == "PROGRAM" && has("COPY"):
			return mcpSqlEscalate, "runs a program on the database server (COPY … PROGRAM)"
		case (v == "OUTFILE" || v == "DUMPFILE") && i > 0 && w[i-1] == "INTO":
			return mcpSqlEscalate, "writes a file on the database server (INTO " + v + ")"
		}
	}
	for i, v := range w {
		switch {
		case sqlFileFuncs.has(v):
			return mcpSqlSecret, "reads files of the database server (" + strings.ToLower(v) + ")"
		case sqlSecretTables.has(v), v == "USER" && i > 0 && w[i-1] == "MYSQL", v == "PG_SHADOW":
			if sqlNamesOnly(w, st) {
				continue // user and role names: an inventory (sql_r20_names.go)
			}
			return mcpSqlSecret, "reads the database's password hashes"
		}
	}
	if w[0] == "COPY" && (has("FROM") || has("TO")) && !has("STDIN") && !has("STDOUT") && strings.Contains(st, "''") {
		return mcpSqlEscalate, "reads or writes a file on the database server (COPY … FILE)"
	}
	if w[0] == "SELECT" || w[0] == "WITH" || w[0] == "TABLE" {
		from := mcpIndexOf(w, "FROM")
		if from > 0 && (!has("WHERE") || mcpReTrivialWhere().MatchString(st)) {
			for _, v := range w[:from] {
				if sqlSecretColumns.has(v) {
					return mcpSqlSecret, "reads the " + strings.ToLower(v) + " column of every row"
				}
			}
		}
	}
	return mcpSqlNeutral, ""
}

// sqlDoBody rates the body of a DO block (PL/pgSQL run at once): dynamic SQL (EXECUTE) or a
// privilege change inside is code execution; otherwise its statements are judged.
func sqlDoBody(body string) (mcpSqlKind, string) {
	u := strings.ToUpper(body)
	for _, k := range []string{"EXECUTE", "SUPERUSER", "BYPASSRLS", "PROGRAM", "PG_WRITE_FILE", "LO_EXPORT", "DBLINK"} {
		if strings.Contains(u, k) {
			return mcpSqlEscalate, "runs dynamic or privileged SQL in a DO block (" + strings.ToLower(k) + ")"
		}
	}
	worst := mcpSqlUnknown
	what := "runs a DO block"
	if stmts, ok := mcpParseSQL(body, false); ok {
		for _, s := range stmts {
			if s.kind > worst {
				worst, what = s.kind, "runs a DO block that "+s.what
			}
		}
	}
	return worst, what
}

// sqlDollarBodies returns the dollar-quoted bodies of DO blocks in text.
func sqlDollarBodies(text string) []string {
	var out []string
	// ASCII upper-casing keeps byte offsets equal to text's (strings.ToUpper may not).
	ub := []byte(text)
	for i, c := range ub {
		if c >= 'a' && c <= 'z' {
			ub[i] = c - 'a' + 'A'
		}
	}
	u := string(ub)
	for i := 0; i < len(u) && len(out) < 32; {
		j := strings.Index(u[i:], "DO")
		if j < 0 {
			break
		}
		j += i
		i = j + 2
		if j > 0 && mcpIsIdentByte(u[j-1]) || i < len(u) && mcpIsIdentByte(u[i]) {
			continue
		}
		k := i
		for k < len(u) && (u[k] == ' ' || u[k] == '\t' || u[k] == '\n' || u[k] == '\r') {
			k++
		}
		if k >= len(u) || u[k] != '$' {
			continue
		}
		e := strings.IndexByte(u[k+1:], '$')
		if e < 0 {
			break
		}
		tag := text[k : k+e+2]
		end := strings.Index(text[k+len(tag):], tag)
		if end < 0 {
			out = append(out, text[k+len(tag):])
			break
		}
		out = append(out, text[k+len(tag):k+len(tag)+end])
		i = k + len(tag) + end + len(tag)
	}
	return out
}

type mcpSqlStmt struct {
	kind mcpSqlKind
	text string // cleaned statement, clipped, for messages
	what string // "drops table users"
	// one marks a secret read narrowed by WHERE to chosen rows: one secret, not a dump.
	one bool
}

var mcpSqlStart = wordSet{words: `SELECT WITH VALUES TABLE SHOW DESCRIBE DESC EXPLAIN PRAGMA USE INSERT REPLACE UPSERT MERGE
	COPY UPDATE DELETE DROP TRUNCATE ALTER CREATE RENAME COMMENT GRANT REVOKE BEGIN START COMMIT ROLLBACK END
	SAVEPOINT RELEASE SET RESET CALL EXEC EXECUTE DO VACUUM ANALYZE REINDEX CLUSTER REFRESH OPTIMIZE LOAD FLUSH
	KILL LISTEN NOTIFY DECLARE FETCH`}

func (c *mcpCtx) findSQL() {
	for _, a := range c.args {
		other := c.sqlUnderOtherKey(a) // mcp_r10_args.go
		if !a.str || !mcpSqlKeys.has(a.nkey) && !other {
			continue
		}
		loose := a.nkey == "sql" || other && c.sqlTool || c.sqlTool && (a.nkey == "query" || a.nkey == "statement" || a.nkey == "statements" ||
			a.nkey == "stmt" || a.nkey == "sqlquery" || a.nkey == "migration" || a.nkey == "ddl" || a.nkey == "script")
		stmts, ok := mcpParseSQL(mcpClip(a.val, 256<<10), !loose)
		if !ok {
			continue
		}
		sqlDemoteLocalSends(stmts, a.val)
		c.sql = append(c.sql, stmts...)
		c.sqlArgKeys = append(c.sqlArgKeys, a.key)
	}
	if len(c.sql) == 0 {
		return
	}
	worst := mcpSqlNeutral
	for _, s := range c.sql {
		if s.kind > worst {
			worst = s.kind
		}
	}
	switch worst {
	case mcpSqlNeutral, mcpSqlRead:
		c.act, c.actWord = mcpActRead, "select"
	case mcpSqlDelete, mcpSqlBulk, mcpSqlDestroy:
		c.act, c.actWord = mcpActDestroy, "delete"
	case mcpSqlSecret:
		c.act, c.actWord = mcpActRead, "select"
	default:
		c.act, c.actWord = mcpActWrite, "write"
	}
	c.actFrom = "sql"
}

// mcpParseSQL splits text into statements and classifies each coarsely. In strict mode (an
// argument of a tool that is not a database tool) text counts as SQL only when it has SQL's
// shape (SELECT … FROM, DELETE FROM, DROP TABLE, …), so "drop shipping suppliers" in a search
// box is not a DROP.
func mcpParseSQL(text string, strict bool) ([]mcpSqlStmt, bool) {
	raw := mcpSplitSQL(text)
	var out []mcpSqlStmt
	for _, st := range raw {
		words := mcpSqlWords(st)
		if len(words) == 0 {
			continue
		}
		if !mcpSqlStart.has(words[0]) {
			if strict || len(out) == 0 && len(raw) == 1 {
				return nil, false
			}
		}
		if strict && !mcpSqlShaped(words, st) {
			return nil, false
		}
		out = append(out, mcpClassifySQL(words, st))
		if len(out) >= 200 {
			break
		}
	}
	if len(out) > 0 {
		for _, body := range sqlDollarBodies(text) {
			k, what := sqlDoBody(body)
			out = append(out, mcpSqlStmt{kind: k, text: mcpCleanText(body, 100), what: what})
		}
	}
	return out, len(out) > 0
}

func mcpSqlShaped(w []string, st string) bool {
	has := func(x string) bool { return mcpContains(w, x) }
	// Natural language is lower-case; SQL outside a database tool is expected to be written
	// with an upper-case keyword ("SELECT …").
	if t := strings.TrimLeft(st, "( \t\r\n"); !strings.HasPrefix(t, w[0]) {
		return false
	}
	switch w[0] {
	case "SELECT":
		return has("FROM") || strings.HasPrefix(strings.TrimSpace(st), "SELECT")
	case "WITH":
		return has("AS") && (has("SELECT") || has("DELETE") || has("UPDATE") || has("INSERT"))
	case "INSERT", "REPLACE":
		return has("INTO")
	case "UPDATE":
		return has("SET")
	case "DELETE":
		return has("FROM")
	case "DROP", "TRUNCATE", "ALTER", "CREATE":
		return len(w) > 1 && mcpSqlObjects.has(w[1]) || len(w) > 2 && mcpSqlObjects.has(w[2])
	case "SHOW":
		return len(w) > 1 && mcpWordSet("TABLES DATABASES SCHEMAS COLUMNS INDEX INDEXES GRANTS PROCESSLIST VARIABLES STATUS CREATE")[w[1]]
	case "EXPLAIN", "DESCRIBE", "GRANT", "REVOKE", "VACUUM", "PRAGMA":
		return strings.ToUpper(st[:1]) == st[:1] && len(w) > 1
	}
	return false
}

var mcpSqlObjects = wordSet{words: `TABLE TABLES DATABASE SCHEMA VIEW INDEX FUNCTION PROCEDURE TRIGGER SEQUENCE TYPE USER ROLE
	EXTENSION MATERIALIZED KEYSPACE COLLECTION OWNED TABLESPACE POLICY TEMPORARY TEMP UNIQUE OR IF`}

// mcpSplitSQL removes comments, blanks string literals and splits on top-level semicolons.
func mcpSplitSQL(s string) []string {
	var stmts []string
	var b strings.Builder
	flush := func() {
		if t := strings.TrimSpace(b.String()); t != "" {
			stmts = append(stmts, t)
		}
		b.Reset()
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte(' ')
		case ch == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				i = len(s)
			} else {
				i += j + 3
			}
			b.WriteByte(' ')
		case ch == '\'' || ch == '"' || ch == '`':
			j := i + 1
			for j < len(s) {
				if s[j] == '\\' && ch == '\'' && j+1 < len(s) {
					j += 2
					continue
				}
				if s[j] == ch {
					if j+1 < len(s) && s[j+1] == ch { // doubled quote
						j += 2
						continue
					}
					break
				}
				j++
			}
			if ch == '\'' {
				b.WriteString("''")
			} else {
				b.WriteString(" " + s[i+1:min(j, len(s))] + " ") // identifiers stay visible
			}
			i = j
		case ch == '$' && i+1 < len(s) && (s[i+1] == '$' || mcpIsIdentByte(s[i+1])):
			// dollar quoting: $$…$$ or $tag$…$tag$
			k := i + 1
			for k < len(s) && mcpIsIdentByte(s[k]) {
				k++
			}
			if k < len(s) && s[k] == '$' {
				tag := s[i : k+1]
				end := strings.Index(s[k+1:], tag)
				if end < 0 {
					i = len(s)
				} else {
					i = k + 1 + end + len(tag) - 1
				}
				b.WriteString("''")
			} else {
				b.WriteByte(ch)
			}
		case ch == ';':
			flush()
		default:
			b.WriteByte(ch)
		}
	}
	flush()
	return stmts
}

func mcpIsIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func mcpSqlWords(st string) []string {
	var words []string
	for _, f := range strings.FieldsFunc(st, func(r rune) bool { return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) }) {
		words = append(words, strings.ToUpper(f))
		if len(words) >= 4096 {
			break
		}
	}
	return words
}

var (
	mcpReTrivialWhere = lazyRegexp(`(?is)\bWHERE\s+(?:\(?\s*(?:1\s*=\s*1|TRUE|1|0\s*=\s*0|1\s*<>\s*0|NOT\s+FALSE|''\s*=\s*''|[\w."\x60\[\]]*(?:\bID|_ID)[\x60"\]]?\s*(?:>=?|<>|!=)\s*\d{1,2})\s*\)?)\s*(?:RETURNING\b.*)?$`)
	mcpPrivColumns    = wordSet{words: `ROLE ROLES IS_ADMIN ISADMIN ADMIN IS_SUPERUSER SUPERUSER IS_STAFF PERMISSIONS PERMISSION PRIVILEGES SCOPES ACCESS_LEVEL GROUP_ID`}
)

func mcpClassifySQL(w []string, st string) mcpSqlStmt {
	s := mcpSqlStmt{text: mcpCleanText(st, 100)}
	has := func(x string) bool { return mcpContains(w, x) }
	after := func(x string) string {
		for i, v := range w {
			if v == x && i+1 < len(w) {
				return w[i+1]
			}
		}
		return ""
	}
	where := has("WHERE") && !mcpReTrivialWhere().MatchString(st)
	first := w[0]
	switch first {
	case "SELECT", "VALUES", "TABLE", "SHOW", "DESCRIBE", "DESC", "PRAGMA", "USE", "LISTEN", "FETCH", "DECLARE":
		s.kind, s.what = mcpSqlRead, "reads data"
		if first == "SELECT" && mcpAnyWord(w, sqlSideEffectWords.get()) {
			s.kind, s.what = mcpSqlWrite, "calls a server function with side effects"
		}
		if into, from := mcpIndexOf(w, "INTO"), mcpIndexOf(w, "FROM"); first == "SELECT" && (has("OUTFILE") || has("DUMPFILE")) {
			s.kind, s.what = mcpSqlWrite, "writes a file on the database server"
		} else if first == "SELECT" && into > 0 && (from < 0 || into < from) {
			s.kind, s.what = mcpSqlDDL, "creates a table from a query"
		}
		if first == "PRAGMA" && strings.Contains(st, "=") {
			s.kind, s.what = mcpSqlWrite, "changes a database setting"
		}
	case "EXPLAIN":
		if has("ANALYZE") || has("ANALYSE") {
			// EXPLAIN ANALYZE runs the statement: judge the statement.
			for i, v := range w {
				if i > 0 && mcpSqlStart.has(v) && v != "ANALYZE" && v != "EXPLAIN" {
					inner := mcpClassifySQL(w[i:], st)
					inner.text = s.text
					return inner
				}
			}
		}
		s.kind, s.what = mcpSqlRead, "explains a query"
	case "WITH":
		switch {
		case has("DELETE") && where:
			s.kind, s.what = mcpSqlDelete, "deletes selected rows"
		case has("DELETE"):
			s.kind, s.what = mcpSqlDestroy, "deletes every row of a table"
		case has("UPDATE") && !where:
			s.kind, s.what = mcpSqlBulk, "updates every row of a table"
		case has("UPDATE") || has("INSERT") || has("MERGE"):
			s.kind, s.what = mcpSqlWrite, "modifies rows"
		default:
			s.kind, s.what = mcpSqlRead, "reads data"
		}
	case "INSERT", "REPLACE", "UPSERT", "MERGE", "LOAD":
		s.kind, s.what = mcpSqlWrite, "inserts rows"
	case "COPY":
		s.kind, s.what = mcpSqlWrite, "copies data"
		if has("PROGRAM") {
			s.kind, s.what = mcpSqlPriv, "runs a program on the database server (COPY … PROGRAM)"
		}
	case "UPDATE":
		set := w
		if i := mcpIndexOf(w, "SET"); i >= 0 {
			set = w[i:]
			if j := mcpIndexOf(set, "WHERE"); j >= 0 {
				set = set[:j]
			}
		}
		switch {
		case mcpAnyWord(set, mcpPrivColumns.get()):
			s.kind, s.what = mcpSqlPriv, "changes roles or permissions ("+mcpFirstWord(set, mcpPrivColumns.get())+")"
		case where:
			s.kind, s.what = mcpSqlWrite, "updates selected rows"
		default:
			s.kind, s.what = mcpSqlBulk, "updates every row of "+strings.ToLower(after("UPDATE"))
		}
	case "DELETE":
		if where {
			s.kind, s.what = mcpSqlDelete, "deletes selected rows"
		} else {
			s.kind, s.what = mcpSqlDestroy, "deletes every row of "+strings.ToLower(after("FROM"))
		}
	case "TRUNCATE":
		obj := after("TRUNCATE")
		if obj == "TABLE" {
			obj = after("TABLE")
		}
		s.kind, s.what = mcpSqlDestroy, "empties table "+strings.ToLower(obj)
	case "DROP":
		obj := mcpSqlObject(w[1:])
		name := strings.ToLower(after(obj))
		switch obj {
		case "TABLE", "DATABASE", "SCHEMA", "KEYSPACE", "OWNED", "TABLESPACE", "COLLECTION":
			s.kind = mcpSqlDestroy
		case "USER", "ROLE":
			s.kind = mcpSqlPriv
		default:
			s.kind = mcpSqlBulk
		}
		if name == "if" {
			name = strings.ToLower(after("EXISTS"))
		}
		s.what = strings.TrimSpace("drops " + strings.ToLower(obj) + " " + name)
	case "ALTER":
		obj := mcpSqlObject(w[1:])
		switch {
		case (obj == "USER" || obj == "ROLE") && (has("SUPERUSER") || has("PASSWORD") || has("CREATEROLE") || has("BYPASSRLS") || has("CREATEDB")):
			s.kind, s.what = mcpSqlPriv, "changes a database role"
		case obj == "SYSTEM":
			s.kind, s.what = mcpSqlPriv, "changes the server configuration"
		case has("DISABLE") && has("SECURITY"):
			s.kind, s.what = mcpSqlPriv, "disables row-level security"
		case has("DROP"):
			next := after("DROP")
			switch next {
			case "COLUMN", "PARTITION", "":
				s.kind, s.what = mcpSqlDestroy, "drops a "+strings.ToLower(mcpOrStr(next, "column"))
			case "CONSTRAINT", "DEFAULT", "NOT", "INDEX", "KEY", "PRIMARY", "FOREIGN", "CHECK", "IDENTITY",
				"EXPRESSION", "TRIGGER", "POLICY", "ROW", "VALUE", "ATTRIBUTE", "IF":
				if next == "IF" && after("EXISTS") != "" && !mcpWordSet("CONSTRAINT INDEX")[after("EXISTS")] {
					s.kind, s.what = mcpSqlDestroy, "drops a column"
				} else {
					s.kind, s.what = mcpSqlDDL, "changes a table's schema"
				}
			default: // MySQL: ALTER TABLE t DROP col
				s.kind, s.what = mcpSqlDestroy, "drops column "+strings.ToLower(next)
			}
		default:
			s.kind, s.what = mcpSqlDDL, "changes the schema"
		}
	case "CREATE":
		obj := mcpSqlObject(w[1:])
		if obj == "USER" || obj == "ROLE" {
			s.kind, s.what = mcpSqlPriv, "creates a database "+strings.ToLower(obj)
		} else {
			s.kind, s.what = mcpSqlDDL, "creates "+strings.ToLower(mcpOrStr(obj, "an object"))
		}
	case "RENAME", "COMMENT":
		s.kind, s.what = mcpSqlDDL, "changes the schema"
	case "GRANT":
		s.kind, s.what = mcpSqlPriv, "grants privileges"
	case "REVOKE", "VACUUM", "ANALYZE", "REINDEX", "CLUSTER", "REFRESH", "OPTIMIZE", "FLUSH", "KILL", "NOTIFY":
		s.kind, s.what = mcpSqlWrite, strings.ToLower(first)+" on the database"
	case "BEGIN", "START", "COMMIT", "ROLLBACK", "END", "SAVEPOINT", "RELEASE", "RESET":
		s.kind, s.what = mcpSqlNeutral, "transaction control"
	case "SET":
		s.kind, s.what = mcpSqlNeutral, "sets a session variable"
		if has("GLOBAL") || has("PERSIST") {
			s.kind, s.what = mcpSqlPriv, "changes a global server setting"
		}
	default:
		s.kind, s.what = mcpSqlUnknown, "runs "+strings.ToLower(first)
	}
	if k, what := sqlRisk(w, st); k > s.kind {
		s.kind, s.what = k, what
	}
	if k, what, one := sqlSecretStoreRead(w, st); k > s.kind {
		s.kind, s.what, s.one = k, what, one
	}
	if first == "ALTER" && (has("SUPERUSER") || has("BYPASSRLS")) || has("DISABLE") && has("ROW") && has("SECURITY") ||
		(first == "CREATE" || first == "ALTER") && (has("ROLE") || has("USER")) && has("SUPERUSER") ||
		first == "ALTER" && has("NO") && has("FORCE") && has("ROW") || first == "SET" && has("ROW_SECURITY") && (has("OFF") || has("FALSE")) {
		s.kind, s.what = mcpSqlEscalate, "escalates database privileges or disables row-level security"
	}
	if what := sqlAdminEscalation(w, st); what != "" { // sql_admin.go: other engines' words
		s.kind, s.what = mcpSqlEscalate, what
	}
	return s
}

// mcpSqlObject returns the object keyword of a DROP/ALTER/CREATE ("TABLE" in
// "DROP TEMPORARY TABLE IF EXISTS x").
func mcpSqlObject(w []string) string {
	for _, v := range w {
		switch v {
		case "TEMPORARY", "TEMP", "OR", "REPLACE", "UNIQUE", "GLOBAL", "LOCAL", "UNLOGGED", "CONCURRENTLY", "EXTERNAL", "MATERIALIZED":
			continue
		}
		return v
	}
	return ""
}

func mcpIndexOf(w []string, x string) int {
	for i, v := range w {
		if v == x {
			return i
		}
	}
	return -1
}

func mcpOrStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// sqlWorst returns the first statement of the first of kinds present.
func (c *mcpCtx) sqlWorst(kinds ...mcpSqlKind) (mcpSqlStmt, bool) {
	for _, k := range kinds {
		for _, s := range c.sql {
			if s.kind == k {
				return s, true
			}
		}
	}
	return mcpSqlStmt{}, false
}
