package audit_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian/audit"
)

// TestVerifyDetectsTampering changes a log of six records in the ways an attacker (or a bad
// disk) would, and checks that Verify names the right kind of problem on the right line and
// counts the records before it as verified.
func TestVerifyDetectsTampering(t *testing.T) {
	tests := []struct {
		name     string
		edit     func(t *testing.T, lines [][]byte) [][]byte
		kind     audit.ProblemKind
		line     int    // where the problem is reported
		detail   string // a substring of the detail
		verified int    // records counted before it
	}{
		{
			name: "a field changed",
			edit: func(t *testing.T, lines [][]byte) [][]byte {
				lines[2] = replaceOnce(t, lines[2], `"decision":"allow","status"`, `"decision":"deny","status"`)
				return lines
			},
			kind: audit.ProblemTampered, line: 3, detail: "hash mismatch", verified: 2,
		},
		{
			name: "the request changed",
			edit: func(t *testing.T, lines [][]byte) [][]byte {
				lines[4] = replaceOnce(t, lines[4], `"rm","-rf","build"`, `"ls","-la","build"`)
				return lines
			},
			kind: audit.ProblemTampered, line: 5, detail: "changed after it was written", verified: 4,
		},
		{
			name: "a record deleted",
			edit: func(t *testing.T, lines [][]byte) [][]byte { return slices.Delete(lines, 2, 3) },
			kind: audit.ProblemChain, line: 3, detail: "deleted, reordered or inserted", verified: 2,
		},
		{
			name: "the first record deleted",
			edit: func(t *testing.T, lines [][]byte) [][]byte { return lines[1:] },
			// Not detectable as a break: the file now continues an earlier chain.
			verified: 5,
		},
		{
			name: "two records swapped",
			edit: func(t *testing.T, lines [][]byte) [][]byte {
				lines[3], lines[4] = lines[4], lines[3]
				return lines
			},
			kind: audit.ProblemChain, line: 4, verified: 3,
		},
		{
			name: "a record copied from elsewhere inserted",
			edit: func(t *testing.T, lines [][]byte) [][]byte { return slices.Insert(lines, 2, lines[4]) },
			kind: audit.ProblemChain, line: 3, verified: 2,
		},
		{
			name: "a forged record with a correct hash and prev inserted",
			edit: func(t *testing.T, lines [][]byte) [][]byte {
				// The forger builds a valid-looking record on top of record 2: it verifies
				// itself, but record 3 still points at record 2.
				prev := claimed(t, lines[1])
				forged := forge(t, replaceOnce(t, lines[1], `"prev":"`+claimed(t, lines[0])+`"`, `"prev":"`+prev+`"`))
				return slices.Insert(lines, 2, forged)
			},
			kind: audit.ProblemChain, line: 4, verified: 3,
		},
		{
			name: "a record rewritten and re-hashed",
			edit: func(t *testing.T, lines [][]byte) [][]byte {
				lines[1] = forge(t, replaceOnce(t, lines[1], `"decision":"allow","status"`, `"decision":"deny","status"`))
				return lines
			},
			// Its own hash is fine now, so the break shows at the next record.
			kind: audit.ProblemChain, line: 3, verified: 2,
		},
		{
			name: "the hash removed",
			edit: func(t *testing.T, lines [][]byte) [][]byte {
				l := lines[3]
				lines[3] = append(bytes.Clone(l[:bytes.LastIndex(l, []byte(`,"hash":`))]), '}')
				return lines
			},
			kind: audit.ProblemMissingHash, line: 4, detail: "has no hash", verified: 3,
		},
		{
			name: "the hash moved",
			edit: func(t *testing.T, lines [][]byte) [][]byte {
				l := lines[3]
				i := bytes.LastIndex(l, []byte(`,"hash":`))
				lines[3] = append([]byte(`{"hash":`+string(l[i+8:len(l)-1])+`,`), l[1:i]...)
				lines[3] = append(lines[3], '}')
				return lines
			},
			kind: audit.ProblemMissingHash, line: 4, detail: "does not end in its hash", verified: 3,
		},
		{
			name: "garbage line",
			edit: func(t *testing.T, lines [][]byte) [][]byte { return slices.Insert(lines, 5, []byte("hello\x1b[2J")) },
			kind: audit.ProblemInvalid, line: 6, detail: "not a JSON record", verified: 5,
		},
		{
			name: "empty line",
			edit: func(t *testing.T, lines [][]byte) [][]byte { return slices.Insert(lines, 1, []byte{}) },
			kind: audit.ProblemInvalid, line: 2, detail: "empty line", verified: 1,
		},
		{
			name: "a record cut in the middle of the file",
			edit: func(t *testing.T, lines [][]byte) [][]byte {
				lines[2] = lines[2][:len(lines[2])/2]
				return lines
			},
			kind: audit.ProblemInvalid, line: 3, verified: 2,
		},
	}
	l, path := openLog(t)
	appendN(t, l, 6)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	orig := readLines(t, path)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := make([][]byte, len(orig))
			for i := range orig {
				lines[i] = bytes.Clone(orig[i])
			}
			file := filepath.Join(t.TempDir(), "audit.jsonl")
			writeLines(t, file, tt.edit(t, lines))
			rep, err := audit.Verify(file)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Records != tt.verified {
				t.Errorf("%d records verified, want %d", rep.Records, tt.verified)
			}
			if tt.kind == "" {
				if rep.Problem != nil {
					t.Errorf("problem %s, want none", rep.Problem)
				}
				return
			}
			p := rep.Problem
			if p == nil {
				t.Fatalf("no problem found, want %s at line %d", tt.kind, tt.line)
			}
			if p.Kind != tt.kind || p.Line != tt.line || p.File != file || !strings.Contains(p.Detail, tt.detail) {
				t.Errorf("problem = %+v, want %s at %s:%d (%q)", *p, tt.kind, file, tt.line, tt.detail)
			}
			if !strings.HasPrefix(p.String(), file+":"+strconv.Itoa(tt.line)+": ") {
				t.Errorf("String() = %q", p.String())
			}
		})
	}
}

func TestVerifyReportsAnEarlierChain(t *testing.T) {
	l, path := openLog(t)
	recs := appendN(t, l, 3)
	lines := readLines(t, path)
	file := filepath.Join(t.TempDir(), "tail.jsonl")
	writeLines(t, file, lines[1:])
	rep, err := audit.Verify(file)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Records != 2 || rep.FirstPrev != recs[0].Hash || rep.LastHash != recs[2].Hash {
		t.Errorf("report = %+v", rep)
	}
	rep, _ = audit.Verify(path)
	if rep.FirstPrev != "" {
		t.Errorf("a log from its start reports FirstPrev %q", rep.FirstPrev)
	}
}

// TestTornTail writes half a record, as a crash in the middle of a write leaves it: Verify
// reports it without failing the complete records, and the next append moves it aside (kept
// in a .torn- file, with a warning) and continues the chain from the last complete record.
func TestTornTail(t *testing.T) {
	var logs logBuffer
	l, path := openLog(t, audit.WithLogger(logs.logger()))
	appendN(t, l, 3)
	half := readLines(t, path)[1]
	half = half[:len(half)/2]
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(half); err != nil {
		t.Fatal(err)
	}
	f.Close()

	rep := verifyLog(t, path)
	if rep.Problem != nil || rep.Records != 3 {
		t.Fatalf("report = %+v, want 3 records and no problem", rep)
	}
	if rep.Torn == nil || *rep.Torn != (audit.Torn{File: path, Line: 4, Bytes: int64(len(half))}) {
		t.Fatalf("torn = %+v, want line 4, %d bytes", rep.Torn, len(half))
	}
	if rep.OK() {
		t.Error("a torn log is OK")
	}

	recs := appendN(t, l, 1)
	rep = verifyLog(t, path)
	requireOK(t, rep, 4)
	torn, err := os.ReadFile(globOne(t, path+".torn-*"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(torn, half) {
		t.Errorf("torn file holds %q, want the torn bytes", torn)
	}
	if lines := readLines(t, path); recs[0].Prev != claimed(t, lines[2]) {
		t.Error("the chain did not continue from the last complete record")
	}
	if w := logs.String(); !strings.Contains(w, "level=WARN") || !strings.Contains(w, "moved_to=") {
		t.Errorf("no warning logged: %q", w)
	}
	// The torn file is not part of the chain.
	files, _ := audit.Files(path)
	if len(files) != 1 {
		t.Errorf("files = %v", files)
	}
}

func TestOpenRecoversATornTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":"abc","time":"2026`), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := audit.Open(path, audit.WithLogger(new(logBuffer).logger()))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	recs := appendN(t, l, 2)
	if recs[0].Prev != "" {
		t.Errorf("first prev after a torn-only file = %q", recs[0].Prev)
	}
	requireOK(t, verifyLog(t, path), 2)
	globOne(t, path+".torn-*")
}

func TestVerifyMissingFile(t *testing.T) {
	if _, err := audit.Verify(filepath.Join(t.TempDir(), "nope.jsonl")); err == nil {
		t.Error("Verify of a missing file succeeded")
	}
}

// claimed is the hash a line claims.
func claimed(t testing.TB, line []byte) string {
	t.Helper()
	i := bytes.LastIndex(line, []byte(`,"hash":"`))
	if i < 0 {
		t.Fatalf("no hash in %s", line)
	}
	return string(line[i+9 : len(line)-2])
}

// forge re-hashes a line whose content was changed, as someone who knows the scheme would.
func forge(t testing.TB, line []byte) []byte {
	t.Helper()
	i := bytes.LastIndex(line, []byte(`,"hash":"`))
	body := append(bytes.Clone(line[:i]), '}')
	sum := sha256.Sum256(body)
	return append(bytes.Clone(line[:i]), []byte(`,"hash":"sha256:`+hex.EncodeToString(sum[:])+`"}`)...)
}

func replaceOnce(t testing.TB, line []byte, old, new string) []byte {
	t.Helper()
	if bytes.Count(line, []byte(old)) != 1 {
		t.Fatalf("%q is not in the line exactly once: %s", old, line)
	}
	return bytes.Replace(line, []byte(old), []byte(new), 1)
}
