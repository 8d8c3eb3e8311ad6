package audit

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/guardianhq/guardian/guardian"
)

// DefaultMaxSize is the size at which a log file is rotated unless WithMaxSize says otherwise.
const DefaultMaxSize = guardian.DefaultAuditMaxSize

// SyncMode says how appends reach the disk. In both modes Append returns only once its record
// is written and fsynced; they differ in how many records share one fsync.
type SyncMode int

const (
	// SyncRecord writes and fsyncs every record on its own: the simplest and slowest mode,
	// and the default.
	SyncRecord SyncMode = iota
	// SyncBatch is group commit: the records of concurrent appenders are written together
	// and covered by one fsync, and each appender waits for the fsync that covers its record.
	SyncBatch
)

// ParseSyncMode reads the config's spelling of a mode: "record" or "batch".
func ParseSyncMode(s string) (SyncMode, error) {
	switch s {
	case "record", "":
		return SyncRecord, nil
	case "batch":
		return SyncBatch, nil
	}
	return 0, fmt.Errorf(`unknown audit sync mode %q; use "record" (fsync every record) or "batch" (group commit)`, s)
}

// String returns the config's spelling of the mode.
func (m SyncMode) String() string {
	if m == SyncBatch {
		return "batch"
	}
	return "record"
}

// Option configures Open.
type Option func(*options)

type options struct {
	sync    SyncMode
	maxSize int64
	now     func() time.Time
	logger  *slog.Logger
	// onCommit sees every record this process wrote, once it is on disk, in chain order.
	onCommit func(rec Record, line []byte)
}

func defaultOptions() options {
	return options{sync: SyncRecord, maxSize: DefaultMaxSize, now: time.Now, logger: slog.Default()}
}

// WithSync sets how records are fsynced (SyncRecord by default).
func WithSync(m SyncMode) Option { return func(o *options) { o.sync = m } }

// WithMaxSize sets the size in bytes past which the log file is rotated (DefaultMaxSize by
// default); 0 never rotates. A record is never split: one that does not fit starts a new file.
func WithMaxSize(n int64) Option { return func(o *options) { o.maxSize = n } }

// WithClock sets the clock that stamps records without a time and names rotated and torn
// files (time.Now by default); tests pass a fixed one.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithOnCommit calls f with every record this Log writes, as written (id, prev and hash
// included) and with its line (without the newline), once it is fsynced, in the order of the
// chain. f runs on the writer goroutine, before the appender is answered: it must not block
// (hand the record to a bounded queue, as the OTLP shipper does) and must not keep line.
func WithOnCommit(f func(rec Record, line []byte)) Option { return func(o *options) { o.onCommit = f } }

// WithLogger sets where warnings go (a torn tail moved aside, an unreadable last record);
// slog.Default() by default.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }
