package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAuditExplainPrefix: like a git commit, a record is named by any prefix of its id that no
// other record shares; an ambiguous one lists the candidates.
func TestAuditExplainPrefix(t *testing.T) {
	log := copyGolden(t)
	for _, tt := range []struct {
		id       string
		code     int
		out, err string
	}{
		{"00000000a0d17003", 0, "record 00000000a0d17003\n", ""},
		{"00000000a0d1700", exitUsage, "", `"00000000a0d1700" is ambiguous: 4 records begin with it: 00000000a0d17000, 00000000a0d17001, 00000000a0d17002, 00000000a0d17003; give more of the id`},
		{"00000000A0D17002", 0, "record 00000000a0d17002\n", ""}, // case does not matter
		{"0000", exitUsage, "", "is ambiguous: 4 records begin with it"},
		{"000", exitUsage, "", `"000" is too short: give at least 4 characters`},
		{"ffff", exitInvalid, "", `no record with id "ffff"`},
	} {
		code, out, errs := runAudit(t, log, "audit", "explain", tt.id)
		if code != tt.code || !strings.HasPrefix(out, tt.out) || !strings.Contains(errs, tt.err) {
			t.Errorf("explain %s: exit %d, stdout %.40q, stderr %q; want exit %d, %q, %q", tt.id, code, out, errs, tt.code, tt.out, tt.err)
		}
	}
}

// TestAuditTailFilters: --decision, --host, --session, --rule and --since keep the records
// that meet all of them, and bad values are usage errors.
func TestAuditTailFilters(t *testing.T) {
	log := copyGolden(t)
	ids := func(out string) string {
		var ids []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Fields(l); len(f) > 0 {
				ids = append(ids, strings.TrimPrefix(f[len(f)-1], "00000000a0d1700"))
			}
		}
		return strings.Join(ids, " ")
	}
	for _, tt := range []struct {
		args []string
		want string // the last digit of each id printed
	}{
		{nil, "0 1 2 3"},
		{[]string{"--decision", "ask"}, "1 2"},
		{[]string{"--decision", "deny,allow"}, "0 3"},
		{[]string{"--decision", "deny", "--decision", "ask"}, "0 1 2"},
		{[]string{"--decision", "ask", "-n", "1"}, "2"},
		{[]string{"--host", "codex"}, "1"},
		{[]string{"--session", "s-42"}, "1"},
		{[]string{"--rule", "fs.rm.home"}, "0"},
		{[]string{"--rule", "rule:shell.*"}, "3"},
		{[]string{"--rule", "model:*"}, "1"},
		{[]string{"--since", "2026-11-15T10:00:03Z"}, "2 3"},
		{[]string{"--since", "2026-11-16"}, ""},
		{[]string{"--since", "1h"}, ""}, // the golden records are older
		{[]string{"--since", "100000d"}, "0 1 2 3"},
		{[]string{"--host", "mcp-proxy", "--decision", "ask"}, "2"},
	} {
		code, out, errs := runAudit(t, log, append([]string{"audit", "tail"}, tt.args...)...)
		if code != 0 || ids(out) != tt.want {
			t.Errorf("tail %v: exit %d, records %q, want %q (stderr %q)", tt.args, code, ids(out), tt.want, errs)
		}
		if tt.want == "" && !strings.Contains(errs, "no record matches the filters") {
			t.Errorf("tail %v: stderr %q, want a note that nothing matched", tt.args, errs)
		}
	}
	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"--decision", "maybe"}, `--decision "maybe": want allow, ask or deny`},
		{[]string{"--since", "yesterday"}, `--since "yesterday": want a duration`},
		{[]string{"--since", "-5m"}, "cannot be negative"},
		{[]string{"--rule", "[x"}, `--rule "[x"`},
	} {
		if code, _, errs := runAudit(t, log, append([]string{"audit", "tail"}, tt.args...)...); code != exitUsage || !strings.Contains(errs, tt.err) {
			t.Errorf("tail %v: exit %d, %q; want exit 2 and %q", tt.args, code, errs, tt.err)
		}
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 15, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		in   string
		want time.Time
	}{
		{"90m", now.Add(-90 * time.Minute)},
		{"7d", now.Add(-7 * 24 * time.Hour)},
		{"1.5d", now.Add(-36 * time.Hour)},
		{"2026-11-15T10:00:00+01:00", time.Date(2026, 11, 15, 9, 0, 0, 0, time.UTC)},
		{"2026-11-14", time.Date(2026, 11, 14, 0, 0, 0, 0, time.UTC)},
	} {
		got, err := parseSince(tt.in, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// TestAuditEmptyLog: a log with nothing in it yet — no file, or an empty one — exits 0 with
// a note, unlike a broken log (exit 3): a new user's first `audit tail` is not an error.
func TestAuditEmptyLog(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none", "audit.jsonl")
	empty := filepath.Join(dir, "audit.jsonl")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		log, cmd       string
		stdout, stderr string
	}{
		{missing, "tail", "", "no audit log at " + missing + " yet: nothing has been recorded there"},
		{missing, "verify", "ok: no audit log at " + missing + " yet: nothing has been recorded, nothing to verify", ""},
		{empty, "tail", "", "the audit log " + empty + " is empty: nothing has been recorded yet"},
		{empty, "verify", "ok: 0 records verified in 1 file", ""},
	} {
		code, out, errs := runAudit(t, tt.log, "audit", tt.cmd)
		if code != 0 || !strings.Contains(out, tt.stdout) || !strings.Contains(errs, tt.stderr) {
			t.Errorf("audit %s of %s: exit %d, stdout %q, stderr %q", tt.cmd, tt.log, code, out, errs)
		}
	}
	// explain has nothing to find: that is the caller's mistake, as for a full log.
	if code, _, errs := runAudit(t, missing, "audit", "explain", "abcd"); code != exitInvalid || !strings.Contains(errs, "no audit log at") {
		t.Errorf("explain in a missing log: exit %d, %q", code, errs)
	}
}
