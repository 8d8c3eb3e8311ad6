package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/filelock"
)

// ErrClosed is returned by Append and Audit after Close.
var ErrClosed = errors.New("audit log is closed")

// Log appends records to one audit log file (and its rotated successors). It is safe for
// concurrent use, and several processes may append to the same log at once. Open it once per
// process; Close flushes it.
type Log struct {
	path string
	opts options
	// lock is <path>.lock, the sidecar file flocked while appending: a sidecar, because the log
	// file itself is renamed on rotation.
	lock *os.File

	mu      sync.Mutex
	queue   []*pending
	writing bool // a writer goroutine is draining the queue
	closed  bool
	writers sync.WaitGroup

	// disk is touched only by the single writer goroutine and, after it is gone, by Close.
	disk disk
}

// pending is one record waiting for the writer.
type pending struct {
	rec Record
	// body is rec encoded with an empty prev and no hash, done by the appending goroutine so
	// that the one writer only splices in prev and hashes (see encodeLine).
	body []byte
	done chan struct{}
	out  Record
	err  error
}

func (p *pending) finish(out Record, err error) {
	p.out, p.err = out, err
	close(p.done)
}

// Open opens the log at path for appending, creating its directory (mode 0700) and the file
// (mode 0600) if needed. A torn tail left by a crash is moved aside now rather than at the
// first append, so that the warning comes at startup.
func Open(path string, opts ...Option) (*Log, error) {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	if o.maxSize < 0 {
		return nil, fmt.Errorf("audit: max size %d is negative; use 0 to never rotate", o.maxSize)
	}
	if path == "" {
		return nil, errors.New("audit: no log path; set [audit] path in the config or GUARDIAN_AUDIT_LOG")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("audit: log path %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("audit: create the log directory: %w", err)
	}
	lock, err := os.OpenFile(abs+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit: open the lock file: %w", err)
	}
	l := &Log{path: abs, opts: o, lock: lock}
	l.disk = disk{path: abs, opts: &l.opts, size: -1}
	err = l.withLock(l.disk.resync)
	if err != nil {
		l.disk.close()
		lock.Close()
		return nil, err
	}
	return l, nil
}

// Path is the absolute path of the log's current file.
func (l *Log) Path() string { return l.path }

// Audit records one decision (guardian.Auditor): the request and assessment are redacted and
// the record is appended. It returns once the record is on disk.
func (l *Log) Audit(ctx context.Context, e guardian.AuditEntry) error {
	rec, err := NewRecord(e)
	if err != nil {
		return err
	}
	_, err = l.Append(ctx, rec)
	return err
}

// Append writes rec and returns it as written: with its id (a new one unless rec has one),
// its time in UTC (now, unless rec has one), its digest (computed unless rec has one), prev
// and hash. It returns only once the record is written and fsynced, in every sync mode.
//
// rec.Request is written as given: records built by NewRecord are redacted, so build records
// with it. When ctx ends first Append returns ctx.Err(), and the record may or may not be in
// the log.
func (l *Log) Append(ctx context.Context, rec Record) (Record, error) {
	if rec.ID == "" {
		rec.ID = newID()
	}
	if rec.Time.IsZero() {
		rec.Time = l.opts.now()
	}
	rec.Time = rec.Time.UTC()
	if rec.Digest == "" && len(rec.Request) > 0 {
		d, err := digestOfRequest(rec.Kind, rec.Request)
		if err != nil {
			return Record{}, err
		}
		rec.Digest = d
	}
	body, err := encodeBody(rec)
	if err != nil {
		return Record{}, err
	}
	p := &pending{rec: rec, body: body, done: make(chan struct{})}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return Record{}, fmt.Errorf("audit: append to %s: %w", l.path, ErrClosed)
	}
	l.queue = append(l.queue, p)
	if !l.writing {
		l.writing = true
		l.writers.Add(1)
		go l.drain()
	}
	l.mu.Unlock()
	select {
	case <-p.done:
		return p.out, p.err
	case <-ctx.Done():
		return Record{}, fmt.Errorf("audit: append to %s: %w", l.path, ctx.Err())
	}
}

// drain writes queued records until the queue is empty. Only one drain runs at a time; it
// takes one record per commit with SyncRecord and everything queued with SyncBatch, so that
// records queued while an fsync runs share the next one.
func (l *Log) drain() {
	defer l.writers.Done()
	for {
		l.mu.Lock()
		n := len(l.queue)
		if n == 0 {
			l.writing = false
			l.mu.Unlock()
			return
		}
		if l.opts.sync == SyncRecord {
			n = 1
		}
		batch := make([]*pending, n)
		copy(batch, l.queue)
		l.queue = append(l.queue[:0], l.queue[n:]...)
		l.mu.Unlock()
		if err := l.withLock(func() error { return l.disk.commit(batch) }); err != nil {
			for _, p := range batch {
				select {
				case <-p.done:
				default:
					p.finish(Record{}, err)
				}
			}
		}
	}
}

// withLock runs f holding the exclusive flock on the lock file.
func (l *Log) withLock(f func() error) error {
	if err := filelock.Lock(l.lock); err != nil {
		return fmt.Errorf("audit: lock %s: %w", l.lock.Name(), err)
	}
	err := f()
	if uerr := filelock.Unlock(l.lock); uerr != nil && err == nil {
		err = fmt.Errorf("audit: unlock %s: %w", l.lock.Name(), uerr)
	}
	return err
}

// Recent returns the last n complete records of the log, newest last, read from disk (so
// records other processes appended are included) and from the end of the file backwards.
func (l *Log) Recent(ctx context.Context, n int) ([]json.RawMessage, error) {
	return Tail(ctx, l.path, n)
}

// Close waits for the records already handed to Append to reach the disk, then releases the
// files. Append after Close returns ErrClosed; closing twice is harmless.
func (l *Log) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	l.mu.Unlock()
	l.writers.Wait()
	err := l.disk.close()
	if cerr := l.lock.Close(); cerr != nil && err == nil && !errors.Is(cerr, fs.ErrClosed) {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("audit: close %s: %w", l.path, err)
	}
	return nil
}
