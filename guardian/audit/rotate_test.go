package audit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian/audit"
)

func TestRotationKeepsTheChain(t *testing.T) {
	const maxSize = 4 << 10
	clock := time.Date(2026, 11, 15, 10, 0, 0, 0, time.UTC)
	var logs logBuffer
	// A clock that never moves: rotated names must still be unique and in order.
	l, path := openLog(t, audit.WithMaxSize(maxSize), audit.WithClock(func() time.Time { return clock }), audit.WithLogger(logs.logger()))
	recs := appendN(t, l, 40)
	files, err := audit.Files(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 4 {
		t.Fatalf("files = %v, want several rotations of %d-byte files", files, maxSize)
	}
	if files[len(files)-1] != path {
		t.Errorf("the current file is not last: %v", files)
	}
	for _, f := range files[:len(files)-1] {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > maxSize {
			t.Errorf("%s is %d bytes, over the max of %d", f, st.Size(), maxSize)
		}
		if !strings.HasPrefix(filepath.Base(f), "audit.jsonl.20261115T100000.") || !strings.HasSuffix(f, "Z") {
			t.Errorf("rotated name %s", f)
		}
	}
	rep, err := audit.Verify(files...)
	if err != nil {
		t.Fatal(err)
	}
	requireOK(t, rep, 40)
	if rep.LastHash != recs[39].Hash {
		t.Errorf("last hash %s, want %s", rep.LastHash, recs[39].Hash)
	}

	// The current file alone continues an earlier chain: not an error, but said.
	rep, err = audit.Verify(path)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.FirstPrev == "" {
		t.Errorf("current file alone: %+v", rep)
	}
	// Leaving a rotated file out of the middle breaks the chain where it was.
	rep, _ = audit.Verify(append(files[:1:1], files[2:]...)...)
	if rep.Problem == nil || rep.Problem.Kind != audit.ProblemChain || rep.Problem.File != files[2] || rep.Problem.Line != 1 {
		t.Errorf("a missing rotated file: %+v", rep.Problem)
	}
	if !strings.Contains(logs.String(), "audit log rotated") {
		t.Error("rotation was not logged")
	}
}

// TestRotationByACrashedProcess: a process renamed the file and died before creating the new
// one; the next append creates it and still links to the rotated file's last record.
func TestRotationByACrashedProcess(t *testing.T) {
	l, path := openLog(t)
	recs := appendN(t, l, 3)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path, path+".20261115T100000.000000000Z"); err != nil {
		t.Fatal(err)
	}
	l2, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	next := appendN(t, l2, 1)
	if next[0].Prev != recs[2].Hash {
		t.Errorf("prev = %s, want the rotated file's last hash %s", next[0].Prev, recs[2].Hash)
	}
	requireOK(t, verifyLog(t, path), 4)
}

func TestNoRotationWithMaxSizeZero(t *testing.T) {
	l, path := openLog(t, audit.WithMaxSize(0))
	appendN(t, l, 50)
	files, err := audit.Files(path)
	if err != nil || len(files) != 1 {
		t.Errorf("files = %v, %v", files, err)
	}
}

func TestARecordLargerThanMaxSizeGetsAFileOfItsOwn(t *testing.T) {
	l, path := openLog(t, audit.WithMaxSize(100))
	appendN(t, l, 3)
	files, err := audit.Files(path)
	if err != nil || len(files) != 3 {
		t.Fatalf("files = %v, %v; want one record a file", files, err)
	}
	requireOK(t, verifyLog(t, path), 3)
	for _, f := range files {
		if n := len(readLines(t, f)); n != 1 {
			t.Errorf("%s has %d records", f, n)
		}
	}
}
