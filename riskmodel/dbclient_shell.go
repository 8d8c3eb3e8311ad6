package riskmodel

import "strings"

// Database clients run shell commands of their own, on the client's machine, whatever the
// database: psql's \! CMD, \o |CMD, \g |CMD, \w |CMD and \copy … PROGRAM 'CMD'
// (postgresql.org/docs/current/app-psql.html "Meta-Commands"), mysql's and mariadb's
// \! CMD and system CMD (dev.mysql.com/doc/refman/en/mysql-commands.html). GTFOBins lists
// them as shell escapes. The command is handed to the shell analysis like an option's
// embedded command (unwrap.go), so a reverse shell through a local psql is judged as one.

// dbClientShells are the database clients with such meta-commands, and their prefixes.
func dbClientShells(name string) []string {
	switch name {
	case "psql", "pgcli":
		return []string{`\!`}
	case "mysql", "mariadb", "mycli":
		return []string{`\!`, "system "}
	}
	return nil
}

// dbClientCodes returns the shell commands a database client's arguments run.
func dbClientCodes(s *Segment) []string {
	prefixes := dbClientShells(s.Name())
	if prefixes == nil {
		return nil
	}
	var out []string
	for _, a := range s.Args[1:] {
		if !strings.ContainsAny(a, `\ `) {
			continue
		}
		for _, line := range strings.Split(a, "\n") {
			line = strings.TrimSpace(line)
			for _, p := range prefixes {
				if len(line) >= len(p) && strings.EqualFold(line[:len(p)], p) {
					if cmd := strings.TrimSpace(line[len(p):]); cmd != "" {
						out = append(out, cmd)
					}
				}
			}
			if !strings.HasPrefix(line, `\`) {
				continue
			}
			f := strings.Fields(line)
			switch f[0] {
			case `\o`, `\out`, `\g`, `\w`, `\write`, `\gx`:
				if i := strings.IndexByte(line, '|'); i >= 0 {
					if cmd := strings.TrimSpace(line[i+1:]); cmd != "" {
						out = append(out, cmd)
					}
				}
			case `\copy`:
				if m := sqlNetRes.get()[2].FindStringSubmatch(line); m != nil {
					out = append(out, strings.ReplaceAll(m[1], "''", "'"))
				}
			}
		}
	}
	return out
}
