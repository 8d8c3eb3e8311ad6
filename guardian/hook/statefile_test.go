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
