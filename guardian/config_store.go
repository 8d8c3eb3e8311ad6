package guardian

import (
	"fmt"
	"net/url"
	"strings"
)

// StoreConfig is the [store] table: where guardian serve keeps the state its replicas share
// (breakers, the decision cache). Only the user config may set it: a repository must not be
// able to point a team's breakers somewhere else.
type StoreConfig struct {
	// URL is the store: "" (or "local") for the replica's own memory, the default;
	// redis://[user:password@]host:port[/db], rediss://… (TLS) or unix:///path for Redis.
	URL string
	// Prefix namespaces the keys ("guardian" when empty), so deployments can share a Redis.
	Prefix string
}

var storeSchema = []schemaKey{
	{"store", "a table: [store]"},
	{"store.url", `a string: "local", or a Redis URL such as "redis://redis:6379/0"`},
	{"store.prefix", `a string without spaces, e.g. "guardian-team1"`},
}

type fileStore struct {
	URL    *cfgStoreURL `toml:"url"`
	Prefix *string      `toml:"prefix"`
}

type cfgStoreURL struct{ v string }

func (u *cfgStoreURL) UnmarshalText(b []byte) error {
	s, err := CheckStoreURL(string(b))
	if err != nil {
		return err
	}
	u.v = s
	return nil
}

// CheckStoreURL checks a store URL as [store] url and guardian serve --store take it, and
// returns it in canonical form ("" for local).
func CheckStoreURL(s string) (string, error) {
	if s == "" || s == "local" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("store URL: %v; want \"local\" or a Redis URL such as redis://redis:6379/0", redactedErr(err))
	}
	switch u.Scheme {
	case "redis", "rediss":
		if u.Host == "" {
			return "", fmt.Errorf("store URL %s has no host; write e.g. redis://redis:6379/0", u.Redacted())
		}
	case "unix":
		if u.Path == "" {
			return "", fmt.Errorf("store URL %s has no socket path; write e.g. unix:///run/redis/redis.sock", u.Redacted())
		}
	default:
		return "", fmt.Errorf("store URL %s: unknown scheme %q; use \"local\", redis://, rediss:// (TLS) or unix://", u.Redacted(), u.Scheme)
	}
	return s, nil
}

// redactedErr hides a URL's password that url.Parse quotes in its error.
func redactedErr(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "://"); i >= 0 {
		if j := strings.LastIndex(msg, "@"); j > i {
			msg = msg[:i+3] + "[REDACTED]" + msg[j:]
		}
	}
	return msg
}

// validateStore checks [store] and fills pf.store.
func (pf *parsedFile) validateStore() {
	fs := pf.fc.Store
	if fs == nil {
		return
	}
	if fs.URL != nil {
		pf.store.URL = fs.URL.v
	}
	if fs.Prefix != nil {
		p := *fs.Prefix
		if p == "" || strings.ContainsAny(p, " \t\r\n") {
			pf.addAt("store.prefix", pf.ix.valuePos("store.prefix"), fmt.Sprintf("prefix %q: want a non-empty word without spaces, e.g. \"guardian-team1\"", p))
		} else {
			pf.store.Prefix = p
		}
	}
}

// refuseProjectStore reports [store] in a project file.
func (c Config) refuseProjectStore(pf *parsedFile) {
	if pf.fc.Store != nil {
		pf.add("store", fmt.Sprintf("[store] decides where guardian serve shares its breakers and cache, so only the user config may set it; set it in %s", c.userConfigPath()))
	}
}
