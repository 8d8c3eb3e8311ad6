package riskmodel

import (
	"path"
	"strings"
)

// Certainty conditions for the anti-forensics of Atomic Red Team's Linux/macOS tests
// (T1070.002 Clear Linux or Mac System Logs, T1070.003 Clear Command History, T1485 Data
// Destruction): writes the rules already rate high whose effect the words make known.
// docs/policy.md denies disabling audit logging and destruction of data the user never
// mentioned; an overwrite of a log, a mailbox or a history file destroys what it held.

// logClobber says why a write is certain: it replaces a system log, a container's log, a
// mail spool or a shell history with new content (`echo ” > /var/log/messages`,
// `dd of=/var/log/syslog`, `: > /var/spool/mail/root`). Appending (>>) keeps what was there
// and is not certain.
func logClobber(c *execCtx, s *Segment) string {
	var clobbered []string
	for _, r := range s.Redirs {
		switch r.Op {
		case ">", ">|", "&>":
			if r.Target != "" && r.Target != "/dev/null" {
				clobbered = append(clobbered, r.Target)
			}
		}
	}
	if s.Name() == "dd" && !strings.Contains(strings.Join(s.Args, " "), "notrunc") {
		for _, a := range s.Args[1:] {
			if of, ok := strings.CutPrefix(a, "of="); ok {
				clobbered = append(clobbered, of)
			}
		}
	}
	for _, t := range c.targets(clobbered) {
		if t.abs == "" {
			continue
		}
		if why := recordWiped(t.abs); why != "" {
			return why
		}
	}
	return logWipe(c, clobbered)
}

// recordWiped names what overwriting abs destroys beyond /var/log and the shell histories
// (logWipe's): a container engine's per-container logs and the system's mail spools.
func recordWiped(abs string) string {
	if strings.HasPrefix(abs, "/var/lib/docker/containers/") && strings.HasSuffix(abs, "-json.log") {
		return "it erases " + abs + ", a container's log (docs/policy.md: disabling audit logging)"
	}
	for _, spool := range []string{"/var/spool/mail/", "/var/mail/"} {
		if strings.HasPrefix(abs, spool) && len(abs) > len(spool) {
			return "it overwrites " + abs + ", a user's mailbox (docs/policy.md: destruction of data the user never mentioned)"
		}
	}
	return ""
}

// containerLogsTruncated is truncatedLogs for the container engine's logs
// (truncate -s 0 /var/lib/docker/containers/*/*-json.log).
func containerLogsTruncated(c *execCtx, s *Segment) string {
	if s.Name() != "truncate" {
		return ""
	}
	for _, t := range c.targets(s.positional(0, "-s", "--size", "-r", "--reference")) {
		p := t.abs
		if strings.HasPrefix(t.arg, "/") && strings.ContainsAny(t.arg, "*?[") {
			p = t.arg // a glob (/var/lib/docker/containers/*/*-json.log) resolves to its fixed prefix
		}
		if why := recordWiped(p); why != "" {
			return why
		}
	}
	return ""
}

// historyNulled says why a link is certain: it points a shell history at /dev/null, so
// nothing typed is recorded again (ln -sf /dev/null ~/.bash_history; ATT&CK T1070.003).
func historyNulled(c *execCtx, s *Segment) string {
	if s.Name() != "ln" {
		return ""
	}
	p := s.positional(0, "-t", "--target-directory", "-S", "--suffix")
	if len(p) != 2 || p[0] != "/dev/null" {
		return ""
	}
	if t := c.target(p[1]); t.abs != "" && historyFiles.has(path.Base(t.abs)) {
		return "it links " + t.abs + " to /dev/null, so the command history is no longer kept (docs/policy.md: disabling audit logging)"
	}
	return ""
}

// yesUnbounded says why `yes` is certain resource exhaustion: its output goes nowhere that
// stops it (a file or /dev/null, no reader that exits), so it runs on one core for ever
// (ATT&CK T1496 Resource Hijacking's CPU load).
func yesUnbounded(s *Segment) string {
	if s.Name() != "yes" {
		return ""
	}
	for _, r := range s.Redirs {
		if r.Op == ">" || r.Op == ">>" || r.Op == "&>" {
			return "`yes` writes into " + r.Target + " without end (docs/policy.md: resource exhaustion)"
		}
	}
	return ""
}

// tarCreatedArchive returns the archive file a tar run creates or appends to, in every
// spelling tar(1) accepts: -f FILE and --file=FILE, a short-option cluster ending in f
// (-cvzf FILE), and the old style with no dash (czf FILE). ok is false when it creates
// nothing or names no file.
func tarCreatedArchive(s *Segment) (string, bool) {
	args := s.Args[min(1, len(s.Args)):]
	creates := s.hasFlag("cr", "--create", "--append")
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' && strings.Trim(args[0], "cruxtvzjJfpPhO") == "" {
		if !strings.ContainsAny(args[0], "cr") {
			return "", false
		}
		if strings.ContainsRune(args[0], 'f') && len(args) > 1 {
			return args[1], true // old style: tar czf FILE …
		}
		return "", false
	}
	if !creates {
		return "", false
	}
	for i, a := range args {
		switch {
		case a == "--":
			return "", false
		case strings.HasPrefix(a, "--file="):
			return a[len("--file="):], true
		case a == "--file" && i+1 < len(args):
			return args[i+1], true
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "f") && i+1 < len(args):
			return args[i+1], true // -f FILE, -cvzf FILE
		case len(a) > 2 && a[0] == '-' && a[1] == 'f':
			return a[2:], true // -fFILE
		}
	}
	return "", false
}

// slashFreeStamps are commands whose output never holds a slash: the date and time, a
// UUID, the host or user name, a short commit id. A $(…) of one inside a file name keeps the
// file in the directory the rest of the path names.
var slashFreeStamps = []string{"date", "uuidgen", "hostname", "whoami", "id", "uname"}

// stampedNameDir resolves a write target whose only unresolved part is a time stamp or
// similar in its last path component (/tmp/coverage-$(date +%s).tgz): it returns the
// target with its name replaced by a fixed one, ok false when the name is not of that shape or a
// substitution in the segment could print a slash.
func stampedNameDir(c *execCtx, s *Segment, t target) (target, bool) {
	if t.zone != ZoneUnknown || len(s.Feeds) == 0 {
		return target{}, false
	}
	dir, base := path.Split(t.arg)
	if dir == "" || strings.Contains(dir, "$") || !strings.Contains(base, "$(…)") {
		return target{}, false
	}
	for _, f := range s.Feeds {
		if !slicesContains(slashFreeStamps, f.Name()) || f.Name() == "date" && strings.Contains(strings.Join(f.Args, " "), "/") {
			return target{}, false
		}
	}
	d := c.target(dir + "stamp") // a file in that directory, as the stamped name is
	if d.zone == ZoneUnknown {
		return target{}, false
	}
	return d, true
}

// sqliteURIPath is the file a SQLite URI filename names (sqlite.org/uri.html: file:PATH
// with an optional ?query and #fragment, file://localhost/PATH): sqlite3
// "file:$HOME/…/Login Data?immutable=1" opens Chrome's password store as surely as the bare
// path does (ATT&CK T1555.003). Other commands' arguments are returned as they are.
func sqliteURIPath(name, a string) string {
	switch name {
	case "sqlite3", "sqlite", "sqlcipher", "duckdb", "litecli", "sqlite-utils":
	default:
		return a
	}
	rest, ok := strings.CutPrefix(a, "file:")
	if !ok {
		return a
	}
	rest = strings.TrimPrefix(rest, "//localhost")
	if strings.HasPrefix(rest, "///") {
		rest = rest[2:] // file:///home/…: an empty authority
	}
	if strings.HasPrefix(rest, "//") {
		return a // an authority other than localhost is not a local file
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	return strings.ReplaceAll(rest, "%20", " ")
}
