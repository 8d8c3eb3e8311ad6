package filelock_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardianhq/guardian/guardian/filelock"
)

// TestLockExcludes: a second descriptor (as another process would hold) waits until the first
// releases the lock.
func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	if err := filelock.Lock(a); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() { got <- filelock.Lock(b) }()
	select {
	case err := <-got:
		t.Fatalf("second lock taken while the first is held (err %v)", err)
	default:
	}
	if err := filelock.Unlock(a); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if err := filelock.Unlock(b); err != nil {
		t.Fatal(err)
	}
}
