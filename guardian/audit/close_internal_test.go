package audit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/filelock"
	"github.com/guardianhq/guardian/riskmodel"
)

func testRec(label string) Record {
	rec, err := NewRecord(guardian.AuditEntry{
		Time:    time.Date(2026, 11, 15, 10, 0, 0, 0, time.UTC),
		Request: guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}, Justification: label}),
		Result: guardian.Result{Decision: riskmodel.Allow, Status: guardian.StatusRule, DecidedBy: "rules",
			Assessment: riskmodel.Assessment{Level: riskmodel.Low, Category: riskmodel.CatReadOnly}},
	})
	if err != nil {
		panic(err)
	}
	return rec
}

// waitFor spins until cond holds, yielding the processor; it synchronises on the log's own
// state rather than on time.
func waitFor(l *Log, cond func() bool) {
	for {
		l.mu.Lock()
		ok := cond()
		l.mu.Unlock()
		if ok {
			return
		}
		runtime.Gosched()
	}
}

// TestCloseFlushes queues records behind a writer that cannot get the lock (another process
// holds it), then closes the log: Close must wait until every queued record is on disk, and
// each Append must return its record without error.
func TestCloseFlushes(t *testing.T) {
	for _, mode := range []SyncMode{SyncRecord, SyncBatch} {
		t.Run(mode.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			l, err := Open(path, WithSync(mode), WithLogger(slog.New(slog.DiscardHandler)))
			if err != nil {
				t.Fatal(err)
			}
			// "Another process": a second descriptor on the lock file holding the flock.
			other, err := os.OpenFile(path+".lock", os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			if err := filelock.Lock(other); err != nil {
				t.Fatal(err)
			}

			const n = 10
			results := make(chan error, n)
			appendOne := func(i int) {
				_, err := l.Append(context.Background(), testRec(fmt.Sprint(i)))
				results <- err
			}
			go appendOne(0)
			// The writer took record 0 and is blocked on the lock; the rest queue behind it.
			waitFor(l, func() bool { return l.writing && len(l.queue) == 0 })
			for i := 1; i < n; i++ {
				go appendOne(i)
			}
			waitFor(l, func() bool { return len(l.queue) == n-1 })

			closed := make(chan error, 1)
			go func() { closed <- l.Close() }()
			waitFor(l, func() bool { return l.closed })
			if _, err := l.Append(context.Background(), testRec("late")); !errors.Is(err, ErrClosed) {
				t.Errorf("Append during Close = %v, want ErrClosed", err)
			}
			select {
			case err := <-closed:
				t.Fatalf("Close returned (%v) before the queued records were written", err)
			default:
			}

			if err := filelock.Unlock(other); err != nil {
				t.Fatal(err)
			}
			if err := <-closed; err != nil {
				t.Fatal(err)
			}
			for range n {
				if err := <-results; err != nil {
					t.Errorf("Append: %v", err)
				}
			}
			rep, err := Verify(path)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.OK() || rep.Records != n {
				t.Errorf("after Close: %+v, want %d records", rep, n)
			}
		})
	}
}
