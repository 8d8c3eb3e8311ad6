package configsource_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/guardianhq/guardian/guardian/configsource"
)

const (
	good1 = "fallback = \"ask\"\n"
	good2 = "fallback = \"headless\"\n"
	bad   = "fallback = \"maybe\"\n"
)

// team serves one config with an ETag and answers conditional requests, counting them.
type team struct {
	mu           sync.Mutex
	body         string
	notModified  int
	conditionals int
}

func (tm *team) set(b string) { tm.mu.Lock(); tm.body = b; tm.mu.Unlock() }

func (tm *team) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	sum := sha256.Sum256([]byte(tm.body))
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	if r.Header.Get("If-None-Match") != "" {
		tm.conditionals++
	}
	if r.Header.Get("If-None-Match") == etag {
		tm.notModified++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", etag)
	w.Write([]byte(tm.body))
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func TestURLSourcePollsAndKeepsTheGoodVersion(t *testing.T) {
	tm := &team{body: good1}
	srv := httptest.NewTLSServer(tm)
	defer srv.Close()
	src, err := configsource.New(srv.URL+"/guardian.toml", configsource.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	v, err := src.Load(ctx)
	if err != nil || v.Digest != digest(good1) || v.Config.Fallback != "ask" {
		t.Fatalf("Load: %+v, %v", v, err)
	}
	if _, err := src.Poll(ctx); !errors.Is(err, configsource.ErrUnchanged) {
		t.Fatalf("Poll of the same version: %v, want ErrUnchanged", err)
	}
	if tm.notModified != 1 {
		t.Errorf("the unchanged poll was not a 304 (%d conditional, %d not modified)", tm.conditionals, tm.notModified)
	}
	tm.set(bad)
	if _, err := src.Poll(ctx); err == nil || errors.Is(err, configsource.ErrUnchanged) || !strings.Contains(err.Error(), "maybe") {
		t.Fatalf("Poll of a bad version: %v, want its config error", err)
	}
	tm.set(good2)
	v, err = src.Poll(ctx)
	if err != nil || v.Digest != digest(good2) || v.Config.Fallback != "headless" {
		t.Fatalf("Poll of a new good version: %+v, %v", v, err)
	}
}

func TestPinnedSHA256(t *testing.T) {
	tm := &team{body: good1}
	srv := httptest.NewTLSServer(tm)
	defer srv.Close()
	pin := strings.TrimPrefix(digest(good1), "sha256:")
	src, err := configsource.New(srv.URL, configsource.WithHTTPClient(srv.Client()), configsource.WithSHA256(pin))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	tm.set(good2)
	if _, err := src.Poll(context.Background()); err == nil || !strings.Contains(err.Error(), "pinned") {
		t.Fatalf("a version other than the pinned one: %v, want it refused", err)
	}
}

func TestNewRefuses(t *testing.T) {
	for _, tc := range []struct{ loc, pin, want string }{
		{"http://config.example.com/g.toml", "", "plain HTTP"},
		{"https://", "", "want https://"},
		{"https://example.com/g.toml", "abc", "64 hex digits"},
	} {
		var opts []configsource.Option
		if tc.pin != "" {
			opts = append(opts, configsource.WithSHA256(tc.pin))
		}
		if _, err := configsource.New(tc.loc, opts...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q): %v, want %q", tc.loc, err, tc.want)
		}
	}
	if _, err := configsource.New("http://127.0.0.1:8080/g.toml"); err != nil {
		t.Errorf("loopback http: %v", err)
	}
}

func TestFileSource(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(good1), 0o600); err != nil {
		t.Fatal(err)
	}
	src, err := configsource.New(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if v, err := src.Load(ctx); err != nil || v.Digest != digest(good1) {
		t.Fatalf("Load: %+v %v", v, err)
	}
	if _, err := src.Poll(ctx); !errors.Is(err, configsource.ErrUnchanged) {
		t.Fatalf("Poll: %v", err)
	}
	os.WriteFile(path, []byte(good2), 0o600)
	if v, err := src.Poll(ctx); err != nil || v.Digest != digest(good2) {
		t.Fatalf("Poll after an edit: %+v %v", v, err)
	}
}
