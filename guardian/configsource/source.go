// Package configsource loads the user config from one place a team controls — an HTTPS URL
// or a file it distributes — checks each version as `guardian config check` does, and
// notices new versions, so that every replica of guardian serve (and every laptop running
// one) enforces the same policy without a restart.
//
// A version that does not load or does not compile is refused: the one in force stays, and
// the error is reported. A URL can be pinned to a SHA-256: any other content is refused, so
// a compromised or mistaken server cannot change the policy.
package configsource

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// MaxConfigBytes is the largest config accepted from a URL.
const MaxConfigBytes = 1 << 20

// Version is one loaded and checked version of the config.
type Version struct {
	Config guardian.Config
	// Digest is "sha256:<hex>" of the file's bytes: what every decision record names as
	// its policy.
	Digest string
}

// Source is where the user config comes from. It is safe for concurrent use, though Poll is
// meant to be called from one goroutine.
type Source struct {
	loc string // the path or URL as given
	u   *url.URL
	pin string // expected hex SHA-256, "" for none
	hc  *http.Client

	mu           sync.Mutex
	etag         string
	lastModified string
	digest       string // of the version in force
}

// Option configures New.
type Option func(*Source)

// WithSHA256 pins the content: only a version whose SHA-256 is hex (64 digits) is accepted.
func WithSHA256(hex string) Option { return func(s *Source) { s.pin = strings.ToLower(hex) } }

// WithHTTPClient sets the client for URLs (default: a client with a 10 s timeout).
func WithHTTPClient(hc *http.Client) Option { return func(s *Source) { s.hc = hc } }

// IsURL reports whether loc names a URL rather than a file.
func IsURL(loc string) bool {
	return strings.HasPrefix(loc, "https://") || strings.HasPrefix(loc, "http://")
}

// New returns the source at loc: an https:// URL or a file path. Plain http:// is refused
// unless the host is loopback: a policy fetched in clear text could be replaced on the way.
func New(loc string, opts ...Option) (*Source, error) {
	s := &Source{loc: loc, hc: &http.Client{Timeout: 10 * time.Second}}
	for _, o := range opts {
		o(s)
	}
	if s.pin != "" {
		if b, err := hex.DecodeString(s.pin); err != nil || len(b) != sha256.Size {
			return nil, fmt.Errorf("config sha256 %q: want 64 hex digits, e.g. the output of sha256sum config.toml", s.pin)
		}
	}
	if !IsURL(loc) {
		return s, nil
	}
	u, err := url.Parse(loc)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("config URL %q: want https://host/path/config.toml", loc)
	}
	if u.Scheme == "http" && !isLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("config URL %s is plain HTTP: the policy could be replaced on the way; serve it over https (or pin it with a sha256)", u.Redacted())
	}
	s.u = u
	return s, nil
}

func isLoopbackHost(h string) bool {
	return h == "localhost" || h == "::1" || strings.HasPrefix(h, "127.")
}

// String names the source in logs and errors (a URL without its password).
func (s *Source) String() string {
	if s.u != nil {
		return s.u.Redacted()
	}
	return s.loc
}

// ErrUnchanged is returned by Poll when the version in force is still current.
var ErrUnchanged = errors.New("config unchanged")

// Load fetches, checks and returns the current version, and makes it the one in force.
func (s *Source) Load(ctx context.Context) (Version, error) {
	v, err := s.fetch(ctx, false)
	if err != nil {
		return Version{}, err
	}
	return v, nil
}

// Poll returns a new version when the source has one (ErrUnchanged when it has not). A URL
// is asked with If-None-Match / If-Modified-Since, so an unchanged config costs a 304. Any
// other error means the new version was refused and the one in force stays.
func (s *Source) Poll(ctx context.Context) (Version, error) { return s.fetch(ctx, true) }

func (s *Source) fetch(ctx context.Context, conditional bool) (Version, error) {
	var data []byte
	var etag, lastMod string
	var err error
	if s.u != nil {
		data, etag, lastMod, err = s.get(ctx, conditional)
	} else {
		data, err = os.ReadFile(s.loc)
		if err != nil {
			err = fmt.Errorf("cannot read guardian config: %w", err)
		}
	}
	if err != nil {
		return Version{}, err
	}
	sum := sha256.Sum256(data)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	s.mu.Lock()
	same := conditional && digest == s.digest
	s.mu.Unlock()
	if same {
		s.remember(etag, lastMod, digest)
		return Version{}, ErrUnchanged
	}
	if s.pin != "" && digest != "sha256:"+s.pin {
		return Version{}, fmt.Errorf("config %s has %s, not the pinned sha256:%s: refused (update the pin to accept a new version)", s, digest, s.pin)
	}
	cfg, err := guardian.ParseConfig(s.String(), data)
	if err != nil {
		return Version{}, err
	}
	if _, err := riskmodel.New(cfg.Policy); err != nil {
		return Version{}, fmt.Errorf("%s: %w", s, err)
	}
	s.remember(etag, lastMod, digest)
	return Version{Config: cfg, Digest: digest}, nil
}

func (s *Source) remember(etag, lastMod, digest string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.etag, s.lastModified, s.digest = etag, lastMod, digest
}

// get fetches the URL; conditional adds the validators of the version in force, and a 304
// is ErrUnchanged.
func (s *Source) get(ctx context.Context, conditional bool) (data []byte, etag, lastMod string, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.u.String(), nil)
	if err != nil {
		return nil, "", "", fmt.Errorf("config %s: %w", s, err)
	}
	if conditional {
		s.mu.Lock()
		if s.etag != "" {
			req.Header.Set("If-None-Match", s.etag)
		}
		if s.lastModified != "" {
			req.Header.Set("If-Modified-Since", s.lastModified)
		}
		s.mu.Unlock()
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, "", "", fmt.Errorf("fetch config %s: %w", s, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified && conditional:
		return nil, "", "", ErrUnchanged
	case resp.StatusCode != http.StatusOK:
		return nil, "", "", fmt.Errorf("fetch config %s: HTTP %s", s, resp.Status)
	}
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(resp.Body, MaxConfigBytes+1))
	if err != nil {
		return nil, "", "", fmt.Errorf("fetch config %s: %w", s, err)
	}
	if n > MaxConfigBytes {
		return nil, "", "", fmt.Errorf("config %s is over %d bytes: refused", s, MaxConfigBytes)
	}
	return buf.Bytes(), resp.Header.Get("ETag"), resp.Header.Get("Last-Modified"), nil
}
