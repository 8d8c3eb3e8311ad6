package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/riskmodel"
)

// goldenLog is the audit package's golden log: four real-looking records, one with a secret
// redacted and one full of control characters.
const goldenLog = "../../guardian/audit/testdata/golden.jsonl"

// runAudit runs the CLI with GUARDIAN_AUDIT_LOG=log and an empty user config.
func runAudit(t *testing.T, log string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := map[string]string{"HOME": "/home/dev", "GUARDIAN_AUDIT_LOG": log}
	d := deps{stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(k string) string { return env[k] }, getwd: func() (string, error) { return testWD, nil }}
	code = run(context.Background(), append([]string{"--config", cfg}, args...), d)
	return code, out.String(), errb.String()
}

// copyGolden copies the golden log to a fresh directory and returns its path there.
func copyGolden(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(goldenLog)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAuditTail(t *testing.T) {
	log := copyGolden(t)
	code, out, errs := runAudit(t, log, "audit", "tail")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines for 4 records:\n%s", len(lines), out)
	}
	want := []string{
		"2026-11-15T10:00:01.250Z  DENY  rule  rule:fs.rm.home  Recursively deletes the home directory  (claude, session 0b6a3c1e-7d5f-4a8e-9f2b-1c3d5e7f9a0b, turn toolu_01)  00000000a0d17000",
		`2026-11-15T10:00:04.250Z  ALLOW  rule  rule:shell.print  Prints \x1b[31mred\x1b[0m  (predicate, session s\n1)  00000000a0d17003`,
	}
	if lines[0] != want[0] || lines[3] != want[1] {
		t.Errorf("tail:\n%s\nwant first and last:\n%s", out, strings.Join(want, "\n"))
	}
	if strings.ContainsAny(out, "\x1b\r\u2028") {
		t.Errorf("raw control characters in the output: %q", out)
	}

	_, out, _ = runAudit(t, log, "audit", "tail", "-n", "1", "--json")
	if got := readLastLine(t, goldenLog); out != got+"\n" {
		t.Errorf("tail -n 1 --json = %q, want the stored line", out)
	}
	if code, _, errs := runAudit(t, log, "audit", "tail", "-n", "-1"); code != exitUsage || !strings.Contains(errs, "-n must be 0 or more") {
		t.Errorf("tail -n -1: exit %d, %q", code, errs)
	}
	// A log with nothing in it yet is not a broken one: exit 0, with a note (TestAuditEmptyLog).
}

func TestAuditTailFollow(t *testing.T) {
	log := copyGolden(t)
	l, err := audit.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Follow writes into a pipe the test reads line by line; a new record must come through.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	done := make(chan int, 1)
	go func() {
		defer pw.Close()
		d := deps{stdin: strings.NewReader(""), stdout: pw, stderr: &bytes.Buffer{},
			getenv: func(k string) string { return map[string]string{"GUARDIAN_AUDIT_LOG": log}[k] }, getwd: os.Getwd}
		cfg := filepath.Join(t.TempDir(), "config.toml")
		os.WriteFile(cfg, nil, 0o600)
		done <- run(ctx, []string{"--config", cfg, "audit", "tail", "-n", "1", "--follow"}, d)
	}()
	buf := make([]byte, 0, 4096)
	readLine := func() string {
		for {
			if i := bytes.IndexByte(buf, '\n'); i >= 0 {
				line := string(buf[:i])
				buf = buf[i+1:]
				return line
			}
			b := make([]byte, 4096)
			n, err := pr.Read(b)
			if err != nil {
				t.Fatalf("follow output ended: %v", err)
			}
			buf = append(buf, b[:n]...)
		}
	}
	if first := readLine(); !strings.HasSuffix(first, "00000000a0d17003") {
		t.Fatalf("first line %q, want the last record", first)
	}
	rec, err := l.Append(context.Background(), mustRecord(t, "followed"))
	if err != nil {
		t.Fatal(err)
	}
	if next := readLine(); !strings.HasSuffix(next, rec.ID) {
		t.Fatalf("followed %q, want the new record %s", next, rec.ID)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("follow exited %d after the interrupt", code)
	}
}

func TestAuditVerify(t *testing.T) {
	log := copyGolden(t)
	code, out, _ := runAudit(t, log, "audit", "verify")
	if code != 0 || !strings.HasPrefix(out, "ok: 4 records verified in 1 file\n") {
		t.Errorf("verify: exit %d\n%s", code, out)
	}

	tampered := filepath.Join(t.TempDir(), "tampered.jsonl")
	b, _ := os.ReadFile(log)
	os.WriteFile(tampered, bytes.Replace(b, []byte(`"risk_level":"medium"`), []byte(`"risk_level":"low"`), 1), 0o600)
	code, out, _ = runAudit(t, log, "audit", "verify", tampered)
	if code != exitInvalid || !strings.Contains(out, "BROKEN: "+tampered+`:3: record "00000000a0d17002": hash mismatch`) ||
		!strings.Contains(out, "2 records before it verified") {
		t.Errorf("tampered: exit %d\n%s", code, out)
	}

	torn := filepath.Join(t.TempDir(), "torn.jsonl")
	os.WriteFile(torn, b[:len(b)-100], 0o600)
	code, out, _ = runAudit(t, log, "audit", "verify", torn)
	if code != exitInvalid || !strings.Contains(out, "ok: 3 records verified") || !strings.Contains(out, "TORN: "+torn+":4: the file ends in") {
		t.Errorf("torn: exit %d\n%s", code, out)
	}

	code, _, errs := runAudit(t, log, "audit", "verify", filepath.Join(t.TempDir(), "missing.jsonl"))
	if code != exitInvalid || !strings.Contains(errs, "missing.jsonl") {
		t.Errorf("missing file: exit %d, %q", code, errs)
	}
}

func TestAuditExplain(t *testing.T) {
	log := copyGolden(t)
	code, out, errs := runAudit(t, log, "audit", "explain", "00000000a0d17003")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"record 00000000a0d17003\n",
		"  decision         allow (status rule, decided by rule:shell.print)\n",
		"  caller           predicate, session s\\n1\n",
		`  command          ["printf","\u001b[31mred\u001b[0m\r\n"]` + "\n",
		`  justification    line one\nline two\u2028"}\n{"id":"forged","decision":"allow"}` + "\n",
		"  file             " + log + ", line 4\n",
		"  position         record 4 of the log\n",
		"(the hash of the record before it)\n",
		"(matches the record's content)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\r\u2028") {
		t.Errorf("raw control characters in explain: %q", out)
	}

	_, out, _ = runAudit(t, log, "audit", "explain", "00000000a0d17000")
	for _, want := range []string{"  findings\n    - fs.rm.home: Deletes the home directory (deny, critical)\n      segment: rm -rf ~/\n", `prev             "" (the first record of the log)`} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runAudit(t, log, "audit", "explain", "00000000a0d17001")
	if !strings.Contains(out, "tokens           812 in, 64 out") || strings.Contains(out, "ghp_") {
		t.Errorf("explain of the model record:\n%s", out)
	}

	if code, _, errs := runAudit(t, log, "audit", "explain", "ffff"); code != exitInvalid || !strings.Contains(errs, `no record with id "ffff"`) {
		t.Errorf("unknown id: exit %d, %q", code, errs)
	}
	if code, _, _ := runAudit(t, log, "audit", "explain"); code != exitUsage {
		t.Errorf("explain without an id: exit %d", code)
	}
}

func TestAuditPath(t *testing.T) {
	tests := []struct {
		name    string
		cfgPath string
		env     map[string]string
		want    string // "" for an error
	}{
		{"config wins", "/srv/audit.jsonl", map[string]string{"GUARDIAN_AUDIT_LOG": "/env.jsonl", "HOME": "/h"}, "/srv/audit.jsonl"},
		{"environment", "", map[string]string{"GUARDIAN_AUDIT_LOG": "/env.jsonl", "HOME": "/h"}, "/env.jsonl"},
		{"XDG state", "", map[string]string{"XDG_STATE_HOME": "/st", "HOME": "/h"}, "/st/guardian/audit.jsonl"},
		{"home", "", map[string]string{"HOME": "/h"}, "/h/.local/state/guardian/audit.jsonl"},
		{"relative environment", "", map[string]string{"GUARDIAN_AUDIT_LOG": "audit.jsonl", "HOME": "/h"}, ""},
		{"nothing", "", map[string]string{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(deps{getenv: func(k string) string { return tt.env[k] }})
			cfg := guardian.DefaultConfig()
			cfg.Audit.Path = tt.cfgPath
			got, err := a.auditPath(cfg)
			switch {
			case tt.want == "" && (err == nil || exitCode(err) != exitInvalid):
				t.Errorf("auditPath = %q, %v; want an invalid-config error", got, err)
			case tt.want != "" && (err != nil || got != tt.want):
				t.Errorf("auditPath = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestOpenAudit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "audit.jsonl")
	// A torn tail from a crash: openAudit recovers it and warns on stderr.
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(`{"id":"cut`), 0o600)
	var errb bytes.Buffer
	a := newApp(deps{getenv: func(string) string { return "" }, stderr: &errb})
	cmd := &cobra.Command{}
	cmd.SetErr(&errb)
	cfg := guardian.DefaultConfig()
	cfg.Audit = guardian.AuditConfig{Path: path, Sync: "batch", MaxSize: 64 << 10}
	l, err := a.openAudit(cmd, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Audit(context.Background(), guardian.AuditEntry{Time: time.Now(), Request: guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}}),
		Result: guardian.Result{Decision: riskmodel.Allow, Status: guardian.StatusRule, DecidedBy: "rules",
			Assessment: riskmodel.Assessment{Level: riskmodel.Low, Category: riskmodel.CatReadOnly}}}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := audit.Verify(path)
	if err != nil || !rep.OK() || rep.Records != 1 {
		t.Errorf("after openAudit: %+v, %v", rep, err)
	}
	if !strings.Contains(errb.String(), "level=WARN") {
		t.Errorf("no warning about the torn tail: %q", errb.String())
	}

	cfg.Audit.Sync = "sometimes"
	if _, err := a.openAudit(cmd, cfg); exitCode(err) != exitInvalid {
		t.Errorf("bad sync mode: %v", err)
	}
	cfg.Audit = guardian.AuditConfig{Path: dir} // a directory
	if _, err := a.openAudit(cmd, cfg); err == nil || !strings.Contains(err.Error(), "[audit] path") {
		t.Errorf("a directory as the log: %v", err)
	}
}

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text, with ünïcode", "plain text, with ünïcode"},
		{"line\nbreak\r\n", `line\nbreak\r\n`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"sep\u2028par\u2029", `sep\u2028par\u2029`},
		{"tab\there", `tab\there`},
		{"bidi\u202eevil", `bidi\u202eevil`},
		{"bad \xff utf8", `bad \xff utf8`},
		{`back\slash "quotes"`, `back\slash "quotes"`},
	}
	for _, tt := range tests {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func mustRecord(t *testing.T, label string) audit.Record {
	t.Helper()
	rec, err := audit.NewRecord(guardian.AuditEntry{Time: time.Now(),
		Request: guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}, Justification: label}),
		Result: guardian.Result{Decision: riskmodel.Allow, Status: guardian.StatusRule, DecidedBy: "rules",
			Assessment: riskmodel.Assessment{Summary: label, Level: riskmodel.Low, Category: riskmodel.CatReadOnly}}})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func readLastLine(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	return lines[len(lines)-1]
}
