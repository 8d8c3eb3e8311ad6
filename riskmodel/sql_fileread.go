package riskmodel

import (
	"fmt"
	"regexp"
	"strings"
)

// SQL that reads files. Database engines open files named in a statement: SQLite's ATTACH
// DATABASE and the CLI's readfile(), DuckDB's read_csv / read_parquet / read_json and its
// SELECT … FROM 'file.csv', PostgreSQL's pg_read_file, lo_import and COPY … FROM 'file',
// MySQL's LOAD_FILE and LOAD DATA INFILE. A database tool is then a file reader: ATTACHing a
// browser's Cookies database reads the browser's session cookies as surely as a cat of the
// file does. The file each statement names is judged by the path catalogue like any path
// argument (mcp.credential-file-read for credential stores); a file outside the workspace
// that is no credential is asked about (mcp.sql-file-read); one inside it is the project's
// own data. The file also decides whether the database is local (localFileDB): a query that
// attaches a file outside the workspace is not on the project's development database.
//
// Sources: SQLite "ATTACH DATABASE" and "readfile()" (sqlite.org/lang_attach.html,
// sqlite.org/cli.html#file_i_o_functions), DuckDB "Data Import" (duckdb.org/docs/data/overview),
// PostgreSQL "System Administration Functions" and "COPY", MySQL "LOAD DATA" and "LOAD_FILE".

// sqlReFileOperand finds a quoted file name after a construct that opens it.
var sqlReFileOperand = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)(?:\battach\s+(?:database\s+)?(?:if\s+not\s+exists\s+)?|` +
		`\b(?:readfile|load_extension|pg_read_file|pg_read_binary_file|pg_stat_file|load_file|lo_import|read_csv|read_csv_auto|` +
		`read_parquet|parquet_scan|read_json|read_json_auto|read_json_objects|read_ndjson|read_ndjson_auto|read_text|read_blob|` +
		`read_xlsx|sqlite_scan|sqlite_attach|st_read|csv_scan|file)\s*\(\s*(?:\[\s*)?|` + // file(): ClickHouse
		`\binfile\s+|\bfrom\s+)'([^'\n]{1,1000})'`)
}}

// sqlFileOperands returns the file names a SQL text opens, at most 16.
func sqlFileOperands(text string) []string {
	var out []string
	for _, m := range sqlReFileOperand.get().FindAllStringSubmatch(mcpClip(text, 256<<10), 16) {
		f := strings.TrimSpace(m[1])
		if f == "" || f == ":memory:" || strings.Contains(f, "://") || strings.HasPrefix(f, "s3:") || strings.HasPrefix(f, "gs:") {
			continue // an in-memory database or a URL (judged as a destination elsewhere)
		}
		if !strings.ContainsAny(f, "/\\.") && !strings.HasPrefix(f, "~") {
			continue // a bare word: a table or alias name written as a string, not a file
		}
		out = append(out, f)
	}
	return out
}

// findSQLFilePaths adds the files the call's SQL opens to its paths, read.
func (c *mcpCtx) findSQLFilePaths() {
	if len(c.sql) == 0 {
		return
	}
	for _, a := range c.args {
		if !a.str || !mcpSqlKeys.has(a.nkey) && !c.sqlUnderOtherKey(a) {
			continue
		}
		for _, f := range sqlFileOperands(a.val) {
			p := &mcpPath{key: a.key, raw: f, op: mcpOpRead}
			if abs, ok := c.scope.Resolve(f); ok {
				p.abs = abs
			}
			p.zone = c.scope.Zone(p.abs)
			c.paths = append(c.paths, p)
			if len(c.paths) >= 64 {
				return
			}
		}
	}
}

// sqlFileReadRules judge files opened through SQL that no credential rule took.
func sqlFileReadRules() []*Rule {
	return []*Rule{
		{ID: "mcp.sql-file-read", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Runs SQL that opens a file outside the workspace (ATTACH, read_csv, pg_read_file, LOAD DATA INFILE)",
			mcp: func(c *mcpCtx) (string, bool) {
				if len(c.sql) == 0 {
					return "", false
				}
				for _, p := range c.paths {
					if p.op != mcpOpRead || p.zone == ZoneWorkspace || p.zone == ZoneTemp || !c.sqlOpened(p) {
						continue
					}
					if !strings.HasPrefix(p.raw, "/") && !strings.HasPrefix(p.raw, "~") && !strings.Contains(p.raw, "..") {
						continue // data/orders.csv: a file of the project, wherever its root lies
					}
					return fmt.Sprintf("%s, which runs SQL that opens %s, a file outside the workspace, and reads it into the agent's context", c.call(), p.show()), true
				}
				return "", false
			}},
	}
}

// sqlOpened reports a path found in the call's SQL (not a database-file argument).
func (c *mcpCtx) sqlOpened(p *mcpPath) bool {
	for _, k := range c.sqlArgKeys {
		if k == p.key {
			return true
		}
	}
	return false
}
