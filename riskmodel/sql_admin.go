package riskmodel

import "strings"

// Administrator grants and security switches in SQL, in each engine's own words. The SQL
// analysis (mcpClassifySQL) already knew PostgreSQL's SUPERUSER, BYPASSRLS and DISABLE ROW
// LEVEL SECURITY; the same effects in Snowflake, SQL Server, MySQL, Oracle and BigQuery were
// an ordinary GRANT or an unknown EXEC, asked about at medium. docs/policy.md puts them on the
// deny list — privilege escalation and disabling row-level security — whatever the engine:
//
//   - granting a role or privilege that administers the whole account or server: Snowflake's
//     ACCOUNTADMIN, SECURITYADMIN, ORGADMIN; SQL Server's sysadmin, securityadmin,
//     serveradmin and CONTROL SERVER (GRANT, ALTER SERVER ROLE … ADD MEMBER,
//     sp_addsrvrolemember); Oracle's DBA, SYSDBA, SYSOPER; MySQL's SUPER and ALL PRIVILEGES ON
//     *.*; the managed PostgreSQL superuser roles (rds_superuser, cloudsqlsuperuser,
//     azure_pg_admin) and the server-file and server-program roles (pg_execute_server_program,
//     pg_write_server_files, pg_read_server_files);
//   - switching on a server feature that runs operating-system commands (sp_configure
//     'xp_cmdshell', 'Ole Automation Procedures', 'external scripts enabled' set to 1);
//   - removing row-level security or masking: Snowflake and BigQuery DROP ROW ACCESS POLICY
//     (and DROP ALL ROW ACCESS POLICIES), UNSET MASKING POLICY, SQL Server DROP SECURITY
//     POLICY and ALTER SECURITY POLICY … STATE = OFF, Oracle DBMS_RLS.DROP_POLICY.
//
// Sources: Snowflake "Overview of Access Control" (system-defined roles) and "ALTER TABLE …
// DROP ROW ACCESS POLICY"; SQL Server docs "Server-level roles", "xp_cmdshell Server
// Configuration Option", "CREATE SECURITY POLICY"; Oracle "DBMS_RLS"; MySQL "Privileges
// Provided"; PostgreSQL "Predefined Roles"; BigQuery "DROP ROW ACCESS POLICY".

// sqlAdminRoles are roles and privileges that administer a whole account or server.
var sqlAdminRoles = wordSet{words: `ACCOUNTADMIN SECURITYADMIN ORGADMIN SYSADMIN SERVERADMIN DBA SYSDBA SYSOPER SYSASM SUPER
	RDS_SUPERUSER CLOUDSQLSUPERUSER AZURE_PG_ADMIN PG_EXECUTE_SERVER_PROGRAM PG_WRITE_SERVER_FILES PG_READ_SERVER_FILES`}

// sqlCommandFeatures are SQL Server configuration options that let SQL run operating-system
// commands or external code, as the words of their names.
var sqlCommandFeatures = [][]string{{"XP_CMDSHELL"}, {"OLE", "AUTOMATION", "PROCEDURES"}, {"EXTERNAL", "SCRIPTS", "ENABLED"}}

// sqlAdminEscalation says what a statement (its upper-cased words w, its text st) does that
// grants administration of the server or switches a security control off; "" if nothing.
func sqlAdminEscalation(w []string, st string) string {
	if len(w) == 0 {
		return ""
	}
	has := func(x string) bool { return mcpContains(w, x) }
	switch {
	case w[0] == "GRANT":
		to := mcpIndexOf(w, "TO")
		if to < 0 {
			to = len(w)
		}
		for i, v := range w[1:to] {
			if sqlAdminRoles.has(v) {
				return "grants " + strings.ToLower(v) + ", which administers the whole account or server"
			}
			if v == "CONTROL" && i+2 < to && w[i+2] == "SERVER" {
				return "grants CONTROL SERVER, which administers the whole server"
			}
		}
		if has("ALL") && strings.Contains(strings.ReplaceAll(st, " ", ""), "*.*") {
			return "grants every privilege on every database (ALL ON *.*)"
		}
	case w[0] == "ALTER" && len(w) > 4 && w[1] == "SERVER" && w[2] == "ROLE" && sqlAdminRoles.has(w[3]) && has("ADD") && has("MEMBER"):
		return "adds a member to the " + strings.ToLower(w[3]) + " server role, which administers the whole server"
	}
	if what := sqlLiteralEscalation(w); what != "" {
		return what
	}
	switch {
	case has("DROP") && has("ROW") && has("ACCESS") && (has("POLICY") || has("POLICIES")):
		return "drops a row access policy (row-level security)"
	case has("UNSET") && has("MASKING") && has("POLICY"):
		return "removes a column masking policy"
	case w[0] == "DROP" && len(w) > 2 && w[1] == "SECURITY" && w[2] == "POLICY":
		return "drops a security policy (row-level security)"
	case w[0] == "ALTER" && len(w) > 2 && w[1] == "SECURITY" && w[2] == "POLICY" && has("STATE") && has("OFF"):
		return "switches a security policy (row-level security) off"
	case has("DBMS_RLS") && (has("DROP_POLICY") || has("DISABLE_GROUPED_POLICY")):
		return "drops a row-level security policy (DBMS_RLS)"
	}
	return ""
}

// sqlLiteralEscalation covers the SQL Server procedures whose arguments are string literals:
// sp_configure switching on a feature that runs operating-system commands, and
// sp_addsrvrolemember adding a login to an administrator role. A client's SQL is checked
// before its literals are blanked (sqlAnalyze), so these are looked for in the raw words.
func sqlLiteralEscalation(w []string) string {
	if mcpContains(w, "SP_ADDSRVROLEMEMBER") {
		for _, v := range w {
			if sqlAdminRoles.has(v) {
				return "adds a login to the " + strings.ToLower(v) + " server role, which administers the whole server"
			}
		}
	}
	if !mcpContains(w, "SP_CONFIGURE") {
		return ""
	}
	for _, f := range sqlCommandFeatures {
		if i := wordsAt(w, f); i >= 0 && i+len(f) < len(w) && w[i+len(f)] == "1" {
			return "switches on " + strings.ToLower(strings.Join(f, " ")) + ", which runs operating-system commands from SQL"
		}
	}
	return ""
}

// sqlLiteralEscalationIn is sqlLiteralEscalation for each statement of a client's SQL text.
func sqlLiteralEscalationIn(sql string) string {
	for _, st := range strings.Split(sql, ";") {
		if what := sqlLiteralEscalation(mcpSqlWords(st)); what != "" {
			return what
		}
	}
	return ""
}

// wordsAt returns where the words seq begin in w, -1 if they do not appear.
func wordsAt(w, seq []string) int {
	for i := 0; i+len(seq) <= len(w); i++ {
		match := true
		for j, s := range seq {
			if w[i+j] != s {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}
