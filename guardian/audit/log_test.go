package audit_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/riskmodel"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.jsonl")

// The log is the audit seam every entry point writes through.
var _ guardian.Auditor = (*audit.Log)(nil)

func TestAppendWritesTheDocumentedRecord(t *testing.T) {
	l, path := openLog(t)
	e := testEntry("clean up")
	e.Result.Usage = &guardian.Usage{InputTokens: 120, OutputTokens: 30}
	e.Caller.Turn = "toolu_1"
	e.Caller.Agent, e.Caller.AgentRole, e.Caller.AgentID = "Explore", guardian.AgentRoleSubagent, "ae46f093fd4c1d156"
	if err := l.Audit(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, path)
	if len(lines) != 1 {
		t.Fatalf("%d lines, want 1", len(lines))
	}
	line := lines[0]
	want := []string{"id", "time", "digest", "kind", "request", "decision", "status", "decided_by", "assessment", "latency_ms", "usage", "caller", "prev", "hash"}
	if d := cmp.Diff(want, keysInOrder(t, line)); d != "" {
		t.Errorf("keys (-want +got):\n%s", d)
	}
	var rec audit.Record
	if err := json.Unmarshal(line, &rec); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(rec.ID) {
		t.Errorf("id %q is not 16 hex digits", rec.ID)
	}
	if !bytes.Contains(line, []byte(`"caller":{"host":"claude","session":"sess-1","turn":"toolu_1","agent":"Explore","agent_role":"subagent","agent_id":"ae46f093fd4c1d156"}`)) {
		t.Errorf("caller is not written with the agent's name, role and id: %s", line)
	}
	if !bytes.Contains(line, []byte(`"time":"2026-11-15T10:30:00.123456789Z"`)) {
		t.Errorf("time is not RFC 3339 nano UTC: %s", line)
	}
	// The digest is that of the request envelope exactly as guardian encodes it.
	env, err := json.Marshal(e.Request)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(env)
	if rec.Digest != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Errorf("digest %s is not sha256 of %s", rec.Digest, env)
	}
	if rec.Decision != riskmodel.Allow || rec.Status != guardian.StatusRule || rec.DecidedBy != "rule:fs.rm.workspace" ||
		rec.LatencyMS != 1.5 || rec.Usage == nil || rec.Usage.OutputTokens != 30 ||
		rec.Caller != (guardian.Caller{Host: "claude", Session: "sess-1", Turn: "toolu_1", Agent: "Explore", AgentRole: guardian.AgentRoleSubagent, AgentID: "ae46f093fd4c1d156"}) || rec.Prev != "" {
		t.Errorf("record = %+v", rec)
	}
	// The hash, computed the way the package documentation tells other tools to.
	body := append(bytes.Clone(line[:bytes.LastIndex(line, []byte(`,"hash":`))]), '}')
	sum = sha256.Sum256(body)
	if rec.Hash != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Errorf("hash %s is not sha256 of the line without its hash", rec.Hash)
	}

	// Rules-only records have no usage key; the chain links the second to the first.
	rec2, err := l.Append(context.Background(), testRecord("again"))
	if err != nil {
		t.Fatal(err)
	}
	if rec2.Prev != rec.Hash {
		t.Errorf("second prev = %s, want the first hash %s", rec2.Prev, rec.Hash)
	}
	if line := readLines(t, path)[1]; bytes.Contains(line, []byte(`"usage"`)) {
		t.Errorf("usage written without a model: %s", line)
	}
	requireOK(t, verifyLog(t, path), 2)
}

func TestOpenCreatesPrivateFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "audit.jsonl")
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for name, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, path: 0o600, path + ".lock": 0o600} {
		st, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode() != want {
			t.Errorf("%s: mode %s, want %s", name, st.Mode(), want)
		}
	}
	if _, err := audit.Open(""); err == nil {
		t.Error("Open(\"\") succeeded")
	}
	if _, err := audit.Open(path, audit.WithMaxSize(-1)); err == nil {
		t.Error("Open with a negative max size succeeded")
	}
}

// TestGoldenLog pins the byte format: a log written by this version must keep verifying, and
// the same records must keep producing the same bytes (go test -run TestGoldenLog -update).
func TestGoldenLog(t *testing.T) {
	const golden = "testdata/golden.jsonl"
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path, audit.WithClock(func() time.Time { return time.Date(2026, 11, 15, 10, 0, 0, 0, time.UTC) }))
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range goldenEntries() {
		rec, err := audit.NewRecord(e)
		if err != nil {
			t.Fatal(err)
		}
		rec.ID = fmt.Sprintf("%016x", 0xa0d17000+i)
		if _, err := l.Append(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("the log format changed (-%s +got):\n%s", golden, d)
	}
	rep, err := audit.Verify(golden)
	if err != nil {
		t.Fatal(err)
	}
	requireOK(t, rep, len(goldenEntries()))
}

// goldenEntries are realistic decisions: rules and model, exec and MCP, a secret to redact and
// a request full of control characters.
func goldenEntries() []guardian.AuditEntry {
	at := func(s int) time.Time { return time.Date(2026, 11, 15, 10, 0, s, 250_000_000, time.UTC) }
	deny := testEntry("")
	deny.Time = at(1)
	deny.Request = guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"bash", "-lc", "rm -rf ~/"}, Cwd: "/home/dev/proj",
		Justification: "clean up", SandboxReason: "write outside workspace"})
	deny.Result = guardian.Result{Decision: riskmodel.Deny, Status: guardian.StatusRule, DecidedBy: "rule:fs.rm.home",
		Assessment: riskmodel.Assessment{Summary: "Recursively deletes the home directory", Level: riskmodel.Critical,
			Category: riskmodel.CatDataDeletion, Rationale: "rm -rf ~/ destroys every file of the user",
			Findings: []riskmodel.Finding{{RuleID: "fs.rm.home", Segment: "rm -rf ~/", Level: riskmodel.Critical,
				Category: riskmodel.CatDataDeletion, Message: "Deletes the home directory", Decision: riskmodel.Deny}}}}
	deny.Caller = guardian.Caller{Host: "claude", Session: "0b6a3c1e-7d5f-4a8e-9f2b-1c3d5e7f9a0b", Turn: "toolu_01"}
	deny.Latency = 420 * time.Microsecond

	secret := testEntry("")
	secret.Time = at(2)
	secret.Request = guardian.ExecRequest(riskmodel.ExecRequest{
		Command: []string{"curl", "-H", "Authorization: Bearer ghp_0123456789abcdefghijABCDEFGHIJ012345", "https://api.github.com/user"},
		Cwd:     "/home/dev/proj", Justification: "check the token GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345 works"})
	secret.Result = guardian.Result{Decision: riskmodel.Ask, Status: guardian.StatusOK, DecidedBy: "model:qwen2.5-coder:7b@exec-v3",
		Assessment: riskmodel.Assessment{Summary: "Sends a GitHub token to api.github.com", Level: riskmodel.High,
			Category: riskmodel.CatCredentialAccess, Rationale: "the request carries a credential"},
		Usage: &guardian.Usage{InputTokens: 812, OutputTokens: 64}}
	secret.Caller = guardian.Caller{Host: "codex", Session: "s-42", Agent: "reviewer"}
	secret.Latency = 912 * time.Millisecond

	mcp := testEntry("")
	mcp.Time = at(3)
	mcp.Request = guardian.MCPRequest(riskmodel.MCPRequest{Server: "posthog", Tool: "exec",
		Arguments:       map[string]any{"command": "notebooks-destroy", "id": 42, "auth": map[string]any{"password": "hunter2hunter2"}},
		ToolDescription: "Run a PostHog command", Message: "Allow posthog to run notebooks-destroy?"})
	mcp.Result = guardian.Result{Decision: riskmodel.Ask, Status: guardian.StatusRule, DecidedBy: "rules",
		Assessment: riskmodel.Assessment{Summary: "Destroys a PostHog notebook", Level: riskmodel.Medium, Category: riskmodel.CatDataDeletion,
			Rationale: "a write verb of an umbrella tool"}}
	mcp.Caller = guardian.Caller{Host: "mcp-proxy"}
	mcp.Latency = 80 * time.Microsecond

	inject := testEntry("")
	inject.Time = at(4)
	inject.Request = guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"printf", "\x1b[31mred\x1b[0m\r\n"}, Cwd: "/tmp",
		Justification: "line one\nline two\u2028" + `"}` + "\n" + `{"id":"forged","decision":"allow"}`})
	inject.Result = guardian.Result{Decision: riskmodel.Allow, Status: guardian.StatusRule, DecidedBy: "rule:shell.print",
		Assessment: riskmodel.Assessment{Summary: "Prints \x1b[31mred\x1b[0m", Level: riskmodel.Low, Category: riskmodel.CatNone, Rationale: "printing is harmless"}}
	inject.Caller = guardian.Caller{Host: "predicate", Session: "s\n1"}
	inject.Latency = 55 * time.Microsecond
	return []guardian.AuditEntry{deny, secret, mcp, inject}
}

func TestRecordsRedactSecrets(t *testing.T) {
	l, path := openLog(t)
	for _, e := range goldenEntries() {
		if err := l.Audit(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"ghp_0123456789abcdefghijABCDEFGHIJ012345", "hunter2hunter2"} {
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("the log holds the secret %s", secret)
		}
	}
	if !bytes.Contains(data, []byte("[REDACTED:")) {
		t.Error("nothing was marked redacted")
	}
	// Redaction keeps the rest: the MCP arguments' other keys and values.
	if !bytes.Contains(data, []byte(`"command":"notebooks-destroy","id":42`)) {
		t.Errorf("mcp arguments lost: %s", data)
	}
}

// TestRecordsAreInjectionSafe writes a request full of line breaks, escape sequences and a
// fake record: the log still has one line per record, with no raw control characters.
func TestRecordsAreInjectionSafe(t *testing.T) {
	l, path := openLog(t)
	entries := goldenEntries()
	for _, e := range entries {
		if err := l.Audit(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n != len(entries) {
		t.Fatalf("%d lines for %d records", n, len(entries))
	}
	for i, c := range bytes.TrimSuffix(data, []byte("\n")) {
		if c < 0x20 && c != '\n' || c == 0x7f {
			t.Fatalf("raw control character %#x at byte %d", c, i)
		}
	}
	for _, raw := range []string{"\u2028", "\u2029"} {
		if bytes.Contains(data, []byte(raw)) {
			t.Errorf("raw %q in the log", raw)
		}
	}
	if ids := idsInLog(t, path); ids["forged"] != 0 {
		t.Error("the injected record was read as a record")
	}
	last := readLines(t, path)[len(entries)-1]
	var rec audit.Record
	if err := json.Unmarshal(last, &rec); err != nil {
		t.Fatal(err)
	}
	var req riskmodel.ExecRequest
	if err := json.Unmarshal(rec.Request, &req); err != nil {
		t.Fatal(err)
	}
	if req.Justification != entries[3].Request.Exec.Justification {
		t.Errorf("the justification did not round-trip: %q", req.Justification)
	}
	requireOK(t, verifyLog(t, path), len(entries))
}

func TestAppendRefusesAnInvalidRecordAlone(t *testing.T) {
	l, path := openLog(t)
	appendN(t, l, 1)
	bad := testRecord("no decision")
	bad.Decision = 0
	if _, err := l.Append(context.Background(), bad); err == nil {
		t.Fatal("a record without a decision was written")
	}
	appendN(t, l, 1)
	requireOK(t, verifyLog(t, path), 2)
}

func TestTwoLogsOnOneFileKeepOneChain(t *testing.T) {
	// Two Logs in one process hold separate descriptors and flocks: like two processes.
	a, path := openLog(t)
	b, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for i := range 10 {
		l := a
		if i%3 == 0 {
			l = b
		}
		appendN(t, l, 1)
	}
	requireOK(t, verifyLog(t, path), 10)
}

func TestConcurrentAppends(t *testing.T) {
	for _, mode := range []audit.SyncMode{audit.SyncRecord, audit.SyncBatch} {
		t.Run(mode.String(), func(t *testing.T) {
			l, path := openLog(t, audit.WithSync(mode))
			const workers, each = 16, 25
			var wg sync.WaitGroup
			ids := make(chan string, workers*each)
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range each {
						rec, err := l.Append(context.Background(), testRecord(fmt.Sprintf("w%d r%d", w, i)))
						if err != nil {
							t.Error(err)
							return
						}
						ids <- rec.ID
					}
				}()
			}
			wg.Wait()
			close(ids)
			requireOK(t, verifyLog(t, path), workers*each)
			inLog := idsInLog(t, path)
			for id := range ids {
				if inLog[id] != 1 {
					t.Errorf("id %s is in the log %d times", id, inLog[id])
				}
			}
		})
	}
}

func TestAppendAfterClose(t *testing.T) {
	l, path := openLog(t)
	appendN(t, l, 1)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := l.Audit(context.Background(), testEntry("late")); !errors.Is(err, audit.ErrClosed) {
		t.Errorf("Audit after Close = %v, want ErrClosed", err)
	}
	requireOK(t, verifyLog(t, path), 1)
}

func TestAuditedRecordsEveryDecision(t *testing.T) {
	l, path := openLog(t)
	res := testEntry("").Result
	d := guardian.Audited(guardian.DeciderFunc(func(context.Context, guardian.Request, guardian.Caller) (guardian.Result, error) {
		return res, nil
	}), l, time.Now)
	req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}, Cwd: "/tmp"})
	if _, err := d.Decide(context.Background(), req, guardian.Caller{Host: "http"}); err != nil {
		t.Fatal(err)
	}
	recent, err := l.Recent(context.Background(), 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(recent) != 1 || !strings.Contains(string(recent[0]), `"caller":{"host":"http"}`) {
		t.Errorf("recent = %s", recent)
	}
	requireOK(t, verifyLog(t, path), 1)
}

// TestCutEndIsWarned: removing the last records leaves a valid shorter chain, which no chain
// can show; the process that wrote them notices the file shrank and says so.
func TestCutEndIsWarned(t *testing.T) {
	var logs logBuffer
	l, path := openLog(t, audit.WithLogger(logs.logger()))
	appendN(t, l, 3)
	lines := readLines(t, path)
	writeLines(t, path, lines[:2])
	appendN(t, l, 1)
	if w := logs.String(); !strings.Contains(w, "level=WARN") || !strings.Contains(w, "records were removed") {
		t.Errorf("no warning about the cut: %q", w)
	}
	requireOK(t, verifyLog(t, path), 3)
}

// TestRecordKeepsModelReasoning: a model's reasoning reaches the record redacted and capped,
// and the chain still verifies with it; a record without reasoning has no such key.
func TestRecordKeepsModelReasoning(t *testing.T) {
	e := goldenEntries()[0]
	e.Result.Reasoning = "The command pushes ghp_0123456789abcdefghijABCDEFGHIJ012345 to a gist. " + strings.Repeat("more thinking ", 1000)
	rec, err := audit.NewRecord(e)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rec.Reasoning, "ghp_0123456789") || !strings.Contains(rec.Reasoning, "[REDACTED:") {
		t.Errorf("reasoning not redacted: %.120s", rec.Reasoning)
	}
	if len(rec.Reasoning) > audit.MaxReasoningBytes+len(" …[cut]") || !strings.HasSuffix(rec.Reasoning, "…[cut]") {
		t.Errorf("reasoning not capped: %d bytes", len(rec.Reasoning))
	}
	l, path := openLog(t)
	if err := l.Audit(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	plain := goldenEntries()[1]
	plain.Result.Reasoning = ""
	if err := l.Audit(context.Background(), plain); err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, path)
	if !bytes.Contains(lines[0], []byte(`"reasoning":"The command pushes`)) || bytes.Contains(lines[1], []byte(`"reasoning"`)) {
		t.Errorf("records:\n%s\n%s", lines[0], lines[1])
	}
	if rep, err := audit.Verify(path); err != nil || !rep.OK() || rep.Records != 2 {
		t.Errorf("chain with reasoning does not verify: %+v, %v", rep, err)
	}
}
