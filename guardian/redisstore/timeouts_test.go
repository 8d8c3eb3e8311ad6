package redisstore

import (
	"testing"
	"time"
)

// TestURLTimeouts: the timeouts a store URL sets itself stand, the others get DefaultTimeout,
// so a Redis across a region can be given more time without a flag.
func TestURLTimeouts(t *testing.T) {
	for _, tc := range []struct {
		url        string
		dial, read time.Duration
	}{
		{"redis://127.0.0.1:6379/0", DefaultTimeout, DefaultTimeout},
		{"redis://127.0.0.1:6379/0?dial_timeout=2s", 2 * time.Second, DefaultTimeout},
		{"redis://127.0.0.1:6379/0?dial_timeout=2s&read_timeout=750ms", 2 * time.Second, 750 * time.Millisecond},
		{"unix:///run/redis.sock?read_timeout=1s", DefaultTimeout, time.Second},
	} {
		s, err := New(tc.url)
		if err != nil {
			t.Fatalf("New(%q): %v", tc.url, err)
		}
		o := s.rdb.Options()
		if o.DialTimeout != tc.dial || o.ReadTimeout != tc.read {
			t.Errorf("New(%q): dial %v read %v, want %v and %v", tc.url, o.DialTimeout, o.ReadTimeout, tc.dial, tc.read)
		}
		s.Close()
	}
}
