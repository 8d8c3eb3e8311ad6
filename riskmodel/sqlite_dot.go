package riskmodel

import "strings"

// The SQLite shell (and DuckDB's, which keeps its dot-commands) runs more than SQL: .shell
// and .system run a shell command, and .output, .once, .backup, .save, VACUUM INTO and
// ATTACH write files wherever they name (sqlite.org/cli.html: "Special commands to
// sqlite3", "Writing results to a file"; duckdb.org/docs/clients/cli/dot_commands). An
// argument that is such a command is judged by what it does, so a query tool is not a way
// to run code or write a startup file unseen.

// sqliteShells are the SQL shells with SQLite's dot-commands.
var sqliteShells = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"sqlite3": true, "sqlite": true, "duckdb": true, "sqlcipher": true}
}}

// sqliteStatements splits an argument of an SQL shell into its dot-commands and statements.
func sqliteStatements(a string) []string {
	var out []string
	for _, line := range strings.Split(a, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, ".") {
			out = append(out, line)
			continue
		}
		for _, st := range strings.Split(line, ";") {
			if st = strings.TrimSpace(st); st != "" {
				out = append(out, st)
			}
		}
	}
	return out
}

// sqliteCodes returns the shell commands an SQL shell's arguments run (.shell, .system).
func sqliteCodes(s *Segment) []string {
	if !sqliteShells.get()[s.Name()] {
		return nil
	}
	var out []string
	for _, a := range s.Args[1:] {
		for _, st := range sqliteStatements(a) {
			for _, dot := range []string{".shell ", ".system "} {
				if strings.HasPrefix(st, dot) {
					out = append(out, strings.TrimSpace(st[len(dot):]))
				}
			}
		}
	}
	return out
}

// sqliteWrites returns the files an SQL shell's arguments write: .output/.once FILE,
// .backup [DB] FILE, .save FILE, VACUUM INTO 'FILE', ATTACH 'FILE' (which creates it).
func sqliteWrites(s *Segment) []string {
	var out []string
	for _, a := range s.Args[1:] {
		for _, st := range sqliteStatements(a) {
			f := strings.Fields(st)
			if len(f) < 2 {
				continue
			}
			unq := func(w string) string { return strings.Trim(w, `'"`) }
			switch strings.ToLower(f[0]) {
			case ".output", ".once", ".save":
				if w := unq(f[len(f)-1]); !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "|") {
					out = append(out, w)
				}
			case ".backup":
				out = append(out, unq(f[len(f)-1]))
			case "vacuum":
				if len(f) >= 3 && strings.EqualFold(f[len(f)-2], "into") {
					out = append(out, unq(f[len(f)-1]))
				}
			case "attach":
				w := f[1]
				if strings.EqualFold(w, "database") && len(f) > 2 {
					w = f[2]
				}
				if w = unq(w); w != "" && w != ":memory:" {
					out = append(out, w)
				}
			}
		}
	}
	return out
}
