package audit

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenNextMidRotation pins the follower's view of a log caught between rotations: the
// file after the one it read is the next rotated file when there is one, the current file
// otherwise, and nothing yet (not an error that ends `audit tail -f`) when the writer has
// renamed the current file and not yet created the new one.
func TestOpenNextMidRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	a := path + ".20261124T100000.000000000Z"
	b := path + ".20261124T100000.000000001Z"
	for _, name := range []string{a, b} {
		if err := os.WriteFile(name, []byte(name+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stA, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	stB, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	// After a: b, although the current file does not exist.
	f, err := openNext(path, stA)
	if err != nil || f == nil || f.Name() != b {
		t.Fatalf("after a: %v, %v; want %s", f, err, b)
	}
	f.Close()
	// After b, with no current file (between rename and create): nothing yet, no error.
	if f, err := openNext(path, stB); err != nil || f != nil {
		t.Fatalf("after b, mid-rotation: %v, %v; want nil, nil", f, err)
	}
	// Once the current file exists, it follows b.
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err = openNext(path, stB)
	if err != nil || f == nil || f.Name() != path {
		t.Fatalf("after b: %v, %v; want %s", f, err, path)
	}
	f.Close()
}
