package hook

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/guardianhq/guardian/guardian"
)

func TestBreakerFile(t *testing.T) {
	f := BreakerFile{Path: filepath.Join(t.TempDir(), "state", "breakers.json")}
	s, err := f.Load()
	if err != nil || s.ModelFailures != 0 {
		t.Fatalf("missing file: %+v, %v; want the zero state", s, err)
	}
	// Concurrent updates (goroutines here; the lock is an flock, so processes too) lose none.
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if err := f.Update(func(s guardian.SavedBreakers) guardian.SavedBreakers { s.ModelFailures++; return s }); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if s, err = f.Load(); err != nil || s.ModelFailures != 20 {
		t.Fatalf("after 20 updates: %+v, %v", s, err)
	}
	if err := os.WriteFile(f.Path, []byte("{garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Load(); err == nil || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("corrupt file: err = %v, want a pointed error", err)
	}
}

func TestDefaultBreakerFile(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if got := DefaultBreakerFile(env(map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"})); got != "/s/guardian/breakers.json" {
		t.Errorf("XDG: %s", got)
	}
	if got := DefaultBreakerFile(env(map[string]string{"HOME": "/h"})); got != "/h/.local/state/guardian/breakers.json" {
		t.Errorf("HOME: %s", got)
	}
	if got := DefaultBreakerFile(env(nil)); got != "" {
		t.Errorf("nothing set: %q", got)
	}
}

// An update that changes nothing leaves the file as it was: a routine hook call pays for no
// write and rename once the state is settled, and a real change still replaces the file.
func TestBreakerFileUnchangedUpdateWritesNothing(t *testing.T) {
	f := BreakerFile{Path: filepath.Join(t.TempDir(), "breakers.json")}
	set := func(s guardian.SavedBreakers) guardian.SavedBreakers { s.ModelFailures = 2; return s }
	if err := f.Update(set); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Update(set); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Errorf("an update that changed nothing replaced the file")
	}
	if err := f.Update(func(s guardian.SavedBreakers) guardian.SavedBreakers { s.ModelFailures = 3; return s }); err != nil {
		t.Fatal(err)
	}
	if s, err := f.Load(); err != nil || s.ModelFailures != 3 {
		t.Errorf("a real change was not stored: %+v, %v", s, err)
	}
}
