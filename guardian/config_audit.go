package guardian

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Audit log sizes: the default at which the log file is rotated, and the smallest max_size a
// config may set (rotating more often would scatter the log over a file per few records).
const (
	DefaultAuditMaxSize int64 = 64 << 20
	MinAuditMaxSize     int64 = 64 << 10
)

// AuditConfig is the [audit] table: where guardian's audit log is written and how. Only the
// user config may set it — a repository must not be able to move, split or silence the
// record of what was decided in it.
type AuditConfig struct {
	// Path is the log file, "~" already expanded; "" means GUARDIAN_AUDIT_LOG, else the
	// default under $XDG_STATE_HOME or ~/.local/state (see audit.DefaultPath).
	Path string
	// Sync is "record" (fsync every record, the default) or "batch" (group commit).
	Sync string
	// MaxSize is the size in bytes past which the log file is rotated.
	MaxSize int64
	// OTLP, when set, also exports every record as an OpenTelemetry log record
	// ([audit.otlp]); the local log stays the source of truth.
	OTLP *AuditOTLPConfig
}

// AuditOTLPConfig is the [audit.otlp] table: the OTLP/HTTP collector that decision records
// are shipped to.
type AuditOTLPConfig struct {
	// Endpoint is the collector's base URL (http(s)://host:4318, /v1/logs is added) or the
	// full URL of its logs path.
	Endpoint string
	// Headers are sent with every export (e.g. authorization). A value "env:NAME" is read
	// from the environment variable NAME when guardian starts, so a shared config need not
	// hold the secret.
	Headers map[string]string
	// Insecure allows a plain-HTTP endpoint; without it the endpoint must be https.
	Insecure bool
}

// DefaultAuditConfig is the [audit] configuration when the file has none.
func DefaultAuditConfig() AuditConfig {
	return AuditConfig{Sync: "record", MaxSize: DefaultAuditMaxSize}
}

var auditSchema = []schemaKey{
	{"audit", "a table: [audit]"},
	{"audit.path", `a string holding an absolute or ~/-relative file path, e.g. "~/.local/state/guardian/audit.jsonl"`},
	{"audit.sync", `a string: "record" or "batch"`},
	{"audit.max_size", `a size: a string such as "64MiB" or "500KB", or an integer number of bytes`},
	{"audit.otlp", "a table: [audit.otlp]"},
	{"audit.otlp.endpoint", `a string holding an http(s) URL, e.g. "https://otel-collector:4318"`},
	{"audit.otlp.headers", `a table of strings, e.g. { authorization = "env:OTLP_TOKEN" }`},
	{"audit.otlp.insecure", "a boolean: true or false"},
}

type fileAudit struct {
	Path *cfgAuditPath `toml:"path"`
	Sync *cfgAuditSync `toml:"sync"`
	// MaxSize is a TOML string ("64MiB") or integer (bytes); checkTypes refuses other kinds.
	MaxSize any            `toml:"max_size"`
	OTLP    *fileAuditOTLP `toml:"otlp"`
}

type fileAuditOTLP struct {
	Endpoint *string           `toml:"endpoint"`
	Headers  map[string]string `toml:"headers"`
	Insecure *bool             `toml:"insecure"`
}

type cfgAuditPath struct{ v string }

func (p *cfgAuditPath) UnmarshalText(b []byte) error {
	s := string(b)
	switch {
	case s == "":
		return errors.New(`empty path; write the log file's path, e.g. "~/.local/state/guardian/audit.jsonl", or remove path for that default`)
	case strings.HasSuffix(s, "/") || s == "~":
		return fmt.Errorf("audit path %q names a directory; name the log file in it, e.g. %q", s, strings.TrimSuffix(s, "/")+"/audit.jsonl")
	}
	if err := checkDirPath("audit path", s); err != nil {
		return err
	}
	p.v = s
	return nil
}

type cfgAuditSync struct{ v string }

func (m *cfgAuditSync) UnmarshalText(b []byte) error {
	switch s := string(b); s {
	case "record", "batch":
		m.v = s
		return nil
	}
	return fmt.Errorf(`unknown sync mode %q; use "record" (write and fsync every record) or "batch" (group commit: concurrent records share one fsync)`, b)
}

// sizeUnits are the units a size may carry: decimal (KB = 1000) and binary (KiB = 1024).
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

var sizeRE = lazyRegexp(`^\s*([0-9]+)\s*([A-Za-z]*)\s*$`)

// parseSize reads "64MiB", "500KB", "1 GiB" or "65536" (bytes).
func parseSize(s string) (int64, error) {
	bad := fmt.Errorf(`invalid size %q; write a number and a unit such as "64MiB", "500KB" or "1GiB" (KB, MB, GB are powers of 1000; KiB, MiB, GiB of 1024), or an integer number of bytes`, s)
	m := sizeRE().FindStringSubmatch(s)
	if m == nil {
		return 0, bad
	}
	unit, ok := sizeUnits[strings.ToLower(m[2])]
	if !ok {
		return 0, bad
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil || n > math.MaxInt64/unit {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n * unit, nil
}

// validateAudit checks [audit] and fills pf.audit with what the file sets; "~" in path is
// expanded with the home of the user running guardian, whose log it is.
func (pf *parsedFile) validateAudit() {
	fa := pf.fc.Audit
	if fa == nil {
		return
	}
	a := &pf.audit
	if fa.Path != nil {
		p := fa.Path.v
		if p == "~" || strings.HasPrefix(p, "~/") {
			home, err := os.UserHomeDir()
			if err != nil || home == "" {
				pf.addAt("audit.path", pf.ix.valuePos("audit.path"), fmt.Sprintf("cannot expand ~ in %q: no home directory is known; write an absolute path", p))
			} else {
				p = filepath.Join(home, p[1:])
			}
		}
		a.Path = filepath.Clean(p)
	}
	if fa.Sync != nil {
		a.Sync = fa.Sync.v
	}
	if fa.OTLP != nil {
		pf.validateAuditOTLP(fa.OTLP)
	}
	if fa.MaxSize != nil {
		const p = "audit.max_size"
		var n int64
		var err error
		shown := fmt.Sprint(fa.MaxSize) // as written: 4096 or "4KiB"
		switch v := fa.MaxSize.(type) {
		case int64:
			n = v
		case string:
			n, err = parseSize(v)
			shown = strconv.Quote(v)
		default:
			err = fmt.Errorf("wrong type: found %T, want %s", v, auditSchema[3].want)
		}
		switch {
		case err != nil:
			pf.addAt(p, pf.ix.valuePos(p), err.Error())
		case n < MinAuditMaxSize:
			pf.addAt(p, pf.ix.valuePos(p), fmt.Sprintf("max_size = %s (%d bytes) is below the minimum of 64KiB (%d bytes): rotating that often would scatter the log over many small files; use e.g. \"64MiB\"", shown, n, MinAuditMaxSize))
		default:
			a.MaxSize = n
		}
	}
}

// validateAuditOTLP checks [audit.otlp]: an endpoint is required, https unless insecure.
func (pf *parsedFile) validateAuditOTLP(f *fileAuditOTLP) {
	o := &AuditOTLPConfig{Headers: f.Headers}
	if f.Insecure != nil {
		o.Insecure = *f.Insecure
	}
	if f.Endpoint == nil {
		pf.add("audit.otlp", `[audit.otlp] needs endpoint, the collector's OTLP/HTTP URL, e.g. endpoint = "https://otel-collector:4318"`)
		return
	}
	const p = "audit.otlp.endpoint"
	u, err := url.Parse(*f.Endpoint)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https"):
		pf.addAt(p, pf.ix.valuePos(p), fmt.Sprintf("endpoint %q: want an http(s) URL such as \"https://otel-collector:4318\"", *f.Endpoint))
		return
	case u.Scheme == "http" && !o.Insecure:
		pf.addAt(p, pf.ix.valuePos(p), fmt.Sprintf("endpoint %q is plain HTTP: decision records would cross the network unencrypted; use https, or set insecure = true for a collector on this host or a trusted network", *f.Endpoint))
		return
	}
	for k, v := range f.Headers {
		if name, ok := strings.CutPrefix(v, "env:"); ok && name == "" {
			pf.add("audit.otlp.headers."+k, fmt.Sprintf("header %s = %q names no environment variable; write e.g. \"env:OTLP_TOKEN\"", k, v))
		}
	}
	o.Endpoint = *f.Endpoint
	pf.audit.OTLP = o
}

// apply sets the fields of c that the file sets.
func (s AuditConfig) apply(c *AuditConfig) {
	if s.OTLP != nil {
		c.OTLP = s.OTLP
	}
	if s.Path != "" {
		c.Path = s.Path
	}
	if s.Sync != "" {
		c.Sync = s.Sync
	}
	if s.MaxSize != 0 {
		c.MaxSize = s.MaxSize
	}
}

// refuseProjectAudit reports every [audit] key of a project file, trusted or not: where the
// audit trail goes is the user's to say, never the repository's it records.
func (c Config) refuseProjectAudit(pf *parsedFile) {
	if pf.fc.Audit == nil {
		return
	}
	msg := fmt.Sprintf("[audit] decides where guardian records its decisions, so only the user config may set it (a repository, trusted or not, must not move or split the audit trail); set it in %s", c.userConfigPath())
	set := false
	for _, k := range []string{"path", "sync", "max_size"} {
		if pf.ix.has("audit." + k) {
			pf.add("audit."+k, msg)
			set = true
		}
	}
	if !set {
		pf.add("audit", msg)
	}
}
