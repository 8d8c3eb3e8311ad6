package audit_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/riskmodel"
)

// testEntry is a decision about an exec request whose justification carries label, so that
// records are told apart.
func testEntry(label string) guardian.AuditEntry {
	return guardian.AuditEntry{
		Time:    time.Date(2026, 11, 15, 10, 30, 0, 123456789, time.UTC),
		Request: guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"rm", "-rf", "build"}, Cwd: "/home/dev/proj", Justification: label}),
		Caller:  guardian.Caller{Host: "claude", Session: "sess-1"},
		Result: guardian.Result{
			Decision:  riskmodel.Allow,
			Status:    guardian.StatusRule,
			DecidedBy: "rule:fs.rm.workspace",
			Assessment: riskmodel.Assessment{Summary: "Deletes build inside the workspace", Level: riskmodel.Medium,
				Category: riskmodel.CatDataDeletion, Rationale: "reversible by rebuilding",
				Findings: []riskmodel.Finding{{RuleID: "fs.rm.workspace", Segment: "rm -rf build", Level: riskmodel.Medium,
					Category: riskmodel.CatDataDeletion, Message: "Deletes build", Decision: riskmodel.Allow, Contained: true}}},
		},
		Latency: 1500 * time.Microsecond,
	}
}

// testRecord is testEntry as a record, ready to Append.
func testRecord(label string) audit.Record {
	rec, err := audit.NewRecord(testEntry(label))
	if err != nil {
		panic(err)
	}
	return rec
}

// openLog opens a log in a fresh directory and closes it when the test ends.
func openLog(t testing.TB, opts ...audit.Option) (*audit.Log, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state", "audit.jsonl")
	quiet := audit.WithLogger(slog.New(slog.DiscardHandler)) // tests that read the log pass their own
	l, err := audit.Open(path, append([]audit.Option{quiet}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, path
}

// appendN appends n test records and returns them as written.
func appendN(t testing.TB, l *audit.Log, n int) []audit.Record {
	t.Helper()
	out := make([]audit.Record, n)
	for i := range out {
		rec, err := l.Append(context.Background(), testRecord(fmt.Sprintf("record %d", i)))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = rec
	}
	return out
}

// verifyLog verifies the whole log at path (rotated files too).
func verifyLog(t testing.TB, path string) audit.Report {
	t.Helper()
	files, err := audit.Files(path)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := audit.Verify(files...)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// requireOK fails unless the report is clean and holds want records.
func requireOK(t testing.TB, rep audit.Report, want int) {
	t.Helper()
	if rep.Problem != nil {
		t.Fatalf("verify: %s (%s)", rep.Problem, rep.Problem.Kind)
	}
	if rep.Torn != nil {
		t.Fatalf("verify: torn tail %+v", *rep.Torn)
	}
	if rep.Records != want {
		t.Fatalf("verify: %d records, want %d", rep.Records, want)
	}
}

// readLines returns the lines of file without their "\n" (a final fragment included).
func readLines(t testing.TB, file string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(b, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// writeLines writes lines, each ended by "\n", to file.
func writeLines(t testing.TB, file string, lines [][]byte) {
	t.Helper()
	var b bytes.Buffer
	for _, l := range lines {
		b.Write(l)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(file, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// idsInLog returns the ids of every record in the log's files.
func idsInLog(t testing.TB, path string) map[string]int {
	t.Helper()
	files, err := audit.Files(path)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for _, f := range files {
		for _, line := range readLines(t, f) {
			var r struct{ ID string }
			if json.Unmarshal(line, &r) == nil {
				ids[r.ID]++
			}
		}
	}
	return ids
}

// scanIDs reads acknowledged ids, one per line, from a child's stdout; a last line cut off by
// a kill is not an acknowledgement anyone saw.
func scanIDs(b []byte) []string {
	var ids []string
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		ids = append(ids, s.Text())
	}
	if len(b) > 0 && b[len(b)-1] != '\n' && len(ids) > 0 {
		ids = ids[:len(ids)-1]
	}
	return ids
}

// logBuffer is a slog handler target that tests can read while the log writes to it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// globOne returns the single file matching pattern.
func globOne(t testing.TB, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) != 1 {
		t.Fatalf("glob %s: %v %v, want one file", pattern, m, err)
	}
	return m[0]
}

// keysInOrder returns the top-level keys of a JSON object in the order they appear.
func keysInOrder(t testing.TB, line []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", line)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
