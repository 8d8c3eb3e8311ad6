package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/filelock"
)

// BreakerFile is the state file in which hook processes share the pipeline's circuit
// breakers when no guardian serve holds them in memory. Readers and writers lock a sidecar
// "<path>.lock" (flock), and the state is replaced atomically (write a temporary file, then
// rename), so a crash never leaves a half-written state.
type BreakerFile struct {
	Path string
}

// DefaultBreakerFile is $XDG_STATE_HOME/guardian/breakers.json, else
// $HOME/.local/state/guardian/breakers.json; "" when neither variable is set.
func DefaultBreakerFile(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "guardian", "breakers.json")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "guardian", "breakers.json")
	}
	return ""
}

// Load reads the shared state (the zero state when the file does not exist yet).
func (f BreakerFile) Load() (guardian.SavedBreakers, error) {
	var s guardian.SavedBreakers
	err := f.locked(func() error {
		var err error
		s, _, err = f.read()
		return err
	})
	return s, err
}

// Update applies fn to the current state and stores the result, under the lock, so that
// concurrent hook processes never lose each other's outcomes.
func (f BreakerFile) Update(fn func(guardian.SavedBreakers) guardian.SavedBreakers) error {
	return f.locked(func() error {
		cur, raw, err := f.read()
		if err != nil {
			return err
		}
		b, err := json.Marshal(fn(cur))
		if err != nil {
			return err
		}
		b = append(b, '\n')
		if bytes.Equal(b, raw) {
			// Nothing changed (a routine call once the denials window is full of allows):
			// leave the file as it is rather than write and rename an identical copy.
			return nil
		}
		tmp, err := os.CreateTemp(filepath.Dir(f.Path), ".breakers-*.json")
		if err != nil {
			return fmt.Errorf("breaker state: %w", err)
		}
		defer os.Remove(tmp.Name()) // after a successful rename this finds nothing
		if _, err := tmp.Write(b); err != nil {
			tmp.Close()
			return fmt.Errorf("breaker state: %w", err)
		}
		if err := tmp.Close(); err != nil {
			return fmt.Errorf("breaker state: %w", err)
		}
		if err := os.Rename(tmp.Name(), f.Path); err != nil {
			return fmt.Errorf("breaker state: %w", err)
		}
		return nil
	})
}

// read reads the state file; a corrupt file is reported, not silently reset, so that an open
// breaker cannot be closed by damaging its file.
// It also returns the file's bytes, so that an update that changes nothing can skip the write.
func (f BreakerFile) read() (guardian.SavedBreakers, []byte, error) {
	var s guardian.SavedBreakers
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil, nil
	}
	if err != nil {
		return s, nil, fmt.Errorf("breaker state: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, nil, fmt.Errorf("breaker state %s is corrupt (%v): delete it to reset both breakers", f.Path, err)
	}
	return s, b, nil
}

// locked runs fn holding an exclusive flock on <path>.lock.
func (f BreakerFile) locked(fn func() error) error {
	if f.Path == "" {
		return errors.New("breaker state: no path (set XDG_STATE_HOME or HOME)")
	}
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return fmt.Errorf("breaker state: %w", err)
	}
	lf, err := os.OpenFile(f.Path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("breaker state: %w", err)
	}
	defer lf.Close()
	if err := filelock.Lock(lf); err != nil {
		return fmt.Errorf("breaker state: lock %s: %w", lf.Name(), err)
	}
	defer filelock.Unlock(lf)
	return fn()
}
