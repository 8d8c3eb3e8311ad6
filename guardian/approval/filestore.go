package approval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// DefaultRetention is how long FileStore keeps an approval after it stopped being open: long
// enough for a late answer to reach a retry and for `guardian pending --all` to show recent
// answers; the audit log is the permanent record.
const DefaultRetention = time.Hour

// FileStore is the local Store: the state in memory, every answer and grant appended to a
// journal file (fsynced before the call returns) and the journal compacted when it is opened.
// So a restart or a crash of guardian serve loses no person's answer and no grant; approvals
// that were merely open are gone with the process, and so are the hooks that waited on them,
// which answered their hosts' fail-safe (ask or deny, never allow) when the connection broke.
//
// One process uses a journal at a time (guardian serve); it is not shared between processes.
type FileStore struct {
	path   string
	now    func() time.Time
	retain time.Duration

	mu        sync.Mutex
	approvals map[string]*entry
	open      int
	grants    map[string]Grant
	journal   *os.File // nil: memory only
	lastPrune time.Time
}

// entry is an approval and the channel closed when it leaves the open state.
type entry struct {
	p    Pending
	done chan struct{}
}

// FileOption configures a FileStore.
type FileOption func(*FileStore)

// WithClock sets the store's clock (time.Now by default), for tests.
func WithClock(now func() time.Time) FileOption { return func(s *FileStore) { s.now = now } }

// WithRetention sets how long settled approvals are kept (DefaultRetention).
func WithRetention(d time.Duration) FileOption {
	return func(s *FileStore) {
		if d > 0 {
			s.retain = d
		}
	}
}

// NewMemoryStore returns a FileStore that keeps nothing on disk, for tests and for a serve
// without a state directory.
func NewMemoryStore(opts ...FileOption) *FileStore {
	s := &FileStore{now: time.Now, retain: DefaultRetention, approvals: map[string]*entry{}, grants: map[string]Grant{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// OpenFileStore opens the journal at path (creating it and its directory, mode 0700/0600),
// replays it, drops what has expired, and rewrites it compacted. A line that is not a journal
// entry is an error naming it, except a torn last line (a crash mid-write), which is dropped.
func OpenFileStore(path string, opts ...FileOption) (*FileStore, error) {
	s := NewMemoryStore(opts...)
	s.path = path
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("approvals: create the state directory: %w", err)
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("approvals: read %s: %w", path, err)
	}
	if err := s.replay(data); err != nil {
		return nil, fmt.Errorf("approvals: %s: %w (move the file aside to start without its grants and answers)", path, err)
	}
	s.prune(s.now())
	if err := s.compact(); err != nil {
		return nil, err
	}
	return s, nil
}

// Path is the journal's path ("" for a memory store).
func (s *FileStore) Path() string { return s.path }

// Close closes the journal. Waiters are not woken: their contexts bound them.
func (s *FileStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.journal == nil {
		return nil
	}
	err := s.journal.Close()
	s.journal = nil
	return err
}

// op is one journal line.
type op struct {
	Op      string   `json:"op"` // answer, deliver, grant, revoke
	ID      string   `json:"id,omitempty"`
	Pending *Pending `json:"pending,omitempty"`
	Grant   *Grant   `json:"grant,omitempty"`
}

func (s *FileStore) replay(data []byte) error {
	lines := bytes.Split(data, []byte("\n"))
	for i, line := range lines {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var o op
		if err := json.Unmarshal(line, &o); err != nil {
			if i == len(lines)-1 { // no newline after it: a torn write
				continue
			}
			return fmt.Errorf("line %d: not a journal entry: %w", i+1, err)
		}
		switch {
		case o.Op == "answer" && o.Pending != nil && o.Pending.Answer != nil:
			s.approvals[o.Pending.ID] = &entry{p: *o.Pending, done: closedChan()}
		case o.Op == "deliver":
			if e, ok := s.approvals[o.ID]; ok {
				e.p.State = StateDelivered
			}
		case o.Op == "grant" && o.Grant != nil:
			s.grants[o.Grant.ID] = *o.Grant
		case o.Op == "revoke":
			delete(s.grants, o.ID)
		default:
			return fmt.Errorf("line %d: unknown journal entry %q", i+1, o.Op)
		}
	}
	return nil
}

// compact rewrites the journal with the current state and opens it for appending.
func (s *FileStore) compact() error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, e := range s.sortedApprovals(true) {
		if e.p.Answer != nil {
			p := e.p
			_ = enc.Encode(op{Op: "answer", Pending: &p})
		}
	}
	for _, g := range s.sortedGrants() {
		_ = enc.Encode(op{Op: "grant", Grant: &g})
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), filepath.Base(s.path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("approvals: compact: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b.Bytes()); err == nil {
		err = tmp.Sync()
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("approvals: compact: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("approvals: compact: %w", err)
	}
	f, err := os.OpenFile(s.path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("approvals: open %s: %w", s.path, err)
	}
	s.journal = f
	return nil
}

// write appends one journal line and fsyncs it. Called with s.mu held.
func (s *FileStore) write(o op) error {
	if s.journal == nil {
		return nil
	}
	b, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("approvals: encode: %w", err)
	}
	if _, err := s.journal.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("approvals: write %s: %w", s.path, err)
	}
	if err := s.journal.Sync(); err != nil {
		return fmt.Errorf("approvals: sync %s: %w", s.path, err)
	}
	return nil
}

func closedChan() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// prune drops settled approvals past the retention and expired grants. Called with s.mu held.
func (s *FileStore) prune(now time.Time) {
	s.lastPrune = now
	for id, e := range s.approvals {
		if e.p.State != StateOpen && now.Sub(e.p.Created) > s.retain {
			delete(s.approvals, id)
		}
	}
	for id, g := range s.grants {
		if !now.Before(g.Expires) {
			delete(s.grants, id)
		}
	}
}

// Put implements Store.
func (s *FileStore) Put(ctx context.Context, p Pending) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if now := s.now(); now.Sub(s.lastPrune) > time.Minute {
		s.prune(now)
	}
	if _, dup := s.approvals[p.ID]; dup || p.ID == "" {
		return fmt.Errorf("approvals: id %q is empty or taken", p.ID)
	}
	p.State, p.Answer = StateOpen, nil
	s.approvals[p.ID] = &entry{p: p, done: make(chan struct{})}
	s.open++
	return nil
}

// lookup resolves an id prefix. Called with s.mu held.
func (s *FileStore) lookup(id string) (*entry, error) {
	full, err := resolve("approval", id, maps.Keys(s.approvals))
	if err != nil {
		return nil, err
	}
	return s.approvals[full], nil
}

// Get implements Store.
func (s *FileStore) Get(ctx context.Context, id string) (Pending, error) {
	if err := ctx.Err(); err != nil {
		return Pending{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.lookup(id)
	if err != nil {
		return Pending{}, err
	}
	return e.p, nil
}

// List implements Store.
func (s *FileStore) List(ctx context.Context, all bool) ([]Pending, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Pending{}
	for _, e := range s.sortedApprovals(all) {
		out = append(out, e.p)
	}
	return out, nil
}

// sortedApprovals returns the approvals (open only, unless all), oldest first.
func (s *FileStore) sortedApprovals(all bool) []*entry {
	var es []*entry
	for _, e := range s.approvals {
		if all || e.p.State == StateOpen {
			es = append(es, e)
		}
	}
	slices.SortFunc(es, func(a, b *entry) int {
		if c := a.p.Created.Compare(b.p.Created); c != 0 {
			return c
		}
		return compareStrings(a.p.ID, b.p.ID)
	})
	return es
}

func (s *FileStore) sortedGrants() []Grant {
	gs := slices.Collect(maps.Values(s.grants))
	slices.SortFunc(gs, func(a, b Grant) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return compareStrings(a.ID, b.ID)
	})
	return gs
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// OpenCount implements Store.
func (s *FileStore) OpenCount(context.Context) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open, nil
}

// Answer implements Store. The answer (with the grant it creates) is on disk before the
// waiter wakes, so an agent never acts on an answer a crash could lose.
func (s *FileStore) Answer(ctx context.Context, id string, a Answer, g *Grant) (Pending, error) {
	if err := ctx.Err(); err != nil {
		return Pending{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.lookup(id)
	if err != nil {
		return Pending{}, err
	}
	if e.p.State != StateOpen && e.p.State != StateExpired {
		return e.p, fmt.Errorf("approval %s was answered by %s at %s: %w", e.p.ID, e.p.Answer.By, e.p.Answer.Time.Format(time.RFC3339), ErrSettled)
	}
	p := e.p
	p.Answer, p.State = &a, StateAnswered
	if g != nil {
		if err := s.write(op{Op: "grant", Grant: g}); err != nil {
			return Pending{}, err
		}
		s.grants[g.ID] = *g
	}
	if err := s.write(op{Op: "answer", Pending: &p}); err != nil {
		return Pending{}, err
	}
	if e.p.State == StateOpen {
		s.open--
		close(e.done)
	}
	e.p = p
	return p, nil
}

// Wait implements Store.
func (s *FileStore) Wait(ctx context.Context, id string) (Pending, error) {
	s.mu.Lock()
	e, ok := s.approvals[id]
	s.mu.Unlock()
	if !ok {
		return Pending{}, fmt.Errorf("no approval %q: %w", id, ErrNotFound)
	}
	select {
	case <-e.done:
	case <-ctx.Done():
		return Pending{}, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return e.p, nil
}

// Deliver implements Store.
func (s *FileStore) Deliver(ctx context.Context, id string) (Pending, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.approvals[id]
	if !ok {
		return Pending{}, fmt.Errorf("no approval %q: %w", id, ErrNotFound)
	}
	if e.p.State != StateAnswered {
		return e.p, nil
	}
	if err := s.write(op{Op: "deliver", ID: id}); err != nil {
		return Pending{}, err
	}
	e.p.State = StateDelivered
	return e.p, nil
}

// Expire implements Store.
func (s *FileStore) Expire(ctx context.Context, id string) (Pending, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.approvals[id]
	if !ok {
		return Pending{}, fmt.Errorf("no approval %q: %w", id, ErrNotFound)
	}
	if e.p.State == StateOpen {
		e.p.State = StateExpired
		s.open--
		close(e.done)
	}
	return e.p, nil
}

// Claim implements Store.
func (s *FileStore) Claim(ctx context.Context, key, host, session string, now time.Time) (Pending, bool, error) {
	if session == "" {
		return Pending{}, false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.sortedApprovals(true) {
		p := e.p
		if p.State != StateAnswered || p.Key != key || p.Caller.Host != host || p.Caller.Session != session || now.Sub(p.Answer.Time) > s.retain {
			continue
		}
		if err := s.write(op{Op: "deliver", ID: p.ID}); err != nil {
			return Pending{}, false, err
		}
		e.p.State = StateDelivered
		return e.p, true, nil
	}
	return Pending{}, false, nil
}

// AddGrant implements Store.
func (s *FileStore) AddGrant(ctx context.Context, g Grant) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.grants[g.ID]; dup || g.ID == "" {
		return fmt.Errorf("approvals: grant id %q is empty or taken", g.ID)
	}
	if err := s.write(op{Op: "grant", Grant: &g}); err != nil {
		return err
	}
	s.grants[g.ID] = g
	return nil
}

// Grants implements Store.
func (s *FileStore) Grants(ctx context.Context, now time.Time) ([]Grant, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Grant{}
	for _, g := range s.sortedGrants() {
		if now.Before(g.Expires) {
			out = append(out, g)
		}
	}
	return out, nil
}

// RevokeGrant implements Store.
func (s *FileStore) RevokeGrant(ctx context.Context, id string) (Grant, error) {
	if err := ctx.Err(); err != nil {
		return Grant{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	full, err := resolve("grant", id, maps.Keys(s.grants))
	if err != nil {
		return Grant{}, err
	}
	if err := s.write(op{Op: "revoke", ID: full}); err != nil {
		return Grant{}, err
	}
	g := s.grants[full]
	delete(s.grants, full)
	return g, nil
}

// MatchGrant implements Store. The oldest matching grant wins, so the answer is stable.
func (s *FileStore) MatchGrant(ctx context.Context, q GrantQuery) (Grant, bool, error) {
	if err := ctx.Err(); err != nil {
		return Grant{}, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var best *Grant
	for _, g := range s.grants {
		if g.Applies(q) && (best == nil || g.Created.Before(best.Created)) {
			best = &g
		}
	}
	if best == nil {
		return Grant{}, false, nil
	}
	return *best, true, nil
}

var _ Store = (*FileStore)(nil)
