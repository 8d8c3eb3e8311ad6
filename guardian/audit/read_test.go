package audit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guardianhq/guardian/guardian/audit"
)

func TestTail(t *testing.T) {
	l, path := openLog(t, audit.WithMaxSize(4<<10))
	recs := appendN(t, l, 30)
	files, _ := audit.Files(path)
	if len(files) < 3 {
		t.Fatalf("want a rotated log, got %v", files)
	}
	for _, n := range []int{0, 1, 5, 30, 100} {
		got, err := audit.Tail(context.Background(), path, n)
		if err != nil {
			t.Fatal(err)
		}
		want := recs[max(0, len(recs)-n):]
		if len(got) != len(want) {
			t.Fatalf("Tail(%d): %d records, want %d", n, len(got), len(want))
		}
		for i := range got {
			var r audit.Record
			if err := json.Unmarshal(got[i], &r); err != nil || r.ID != want[i].ID {
				t.Errorf("Tail(%d)[%d] = %s, want id %s", n, i, got[i], want[i].ID)
			}
		}
	}

	// A torn tail is not a record.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"id":"half`)
	f.Close()
	got, err := l.Recent(context.Background(), 1)
	if err != nil || len(got) != 1 || !bytes.Contains(got[0], []byte(recs[29].ID)) {
		t.Errorf("Recent(1) with a torn tail = %s, %v", got, err)
	}

	if _, err := audit.Tail(context.Background(), filepath.Join(t.TempDir(), "none.jsonl"), 5); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Tail of a missing log: %v", err)
	}
}

func TestTailEmptyLog(t *testing.T) {
	l, _ := openLog(t)
	got, err := l.Recent(context.Background(), 10)
	if err != nil || len(got) != 0 {
		t.Errorf("Recent on an empty log = %v, %v", got, err)
	}
}

func TestFind(t *testing.T) {
	l, path := openLog(t, audit.WithMaxSize(4<<10))
	recs := appendN(t, l, 20)
	files, err := audit.Files(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 7, 19} {
		raw, loc, err := audit.Find(context.Background(), files, recs[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		var r audit.Record
		if err := json.Unmarshal(raw, &r); err != nil || r.ID != recs[i].ID || r.Hash != recs[i].Hash {
			t.Errorf("Find(%s) = %s", recs[i].ID, raw)
		}
		if loc.Index != i || loc.PrevHash != recs[i].Prev || loc.First != (i == 0) {
			t.Errorf("Find(%s) location = %+v, want index %d, prev %s", recs[i].ID, loc, i, recs[i].Prev)
		}
		if lines := readLines(t, loc.File); !bytes.Equal(lines[loc.Line-1], raw) {
			t.Errorf("line %d of %s is not the record", loc.Line, loc.File)
		}
	}
	// Only the id key matches: an id quoted inside a request is not the record.
	if _, _, err := audit.Find(context.Background(), files, recs[3].ID[:8]); !errors.Is(err, audit.ErrNotFound) {
		t.Errorf("prefix of an id: %v, want ErrNotFound", err)
	}
	if _, _, err := audit.Find(context.Background(), files, "nope"); !errors.Is(err, audit.ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
}

func TestFollow(t *testing.T) {
	l, path := openLog(t, audit.WithMaxSize(4<<10))
	recs := appendN(t, l, 3)
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan string, 100)
	done := make(chan error, 1)
	go func() {
		done <- audit.Follow(ctx, path, 2, time.Millisecond, func(r json.RawMessage) error {
			var rec audit.Record
			if err := json.Unmarshal(r, &rec); err != nil {
				return err
			}
			got <- rec.ID
			return nil
		})
	}()
	want := []string{recs[1].ID, recs[2].ID}
	for range 2 {
		if id := <-got; id != want[0] {
			t.Fatalf("followed %s, want %s", id, want[0])
		}
		want = want[1:]
	}
	// New records, across several rotations, arrive in order.
	more := appendN(t, l, 40)
	for _, r := range more {
		if id := <-got; id != r.ID {
			t.Fatalf("followed %s, want %s", id, r.ID)
		}
	}
	if files, _ := audit.Files(path); len(files) < 3 {
		t.Errorf("no rotation while following: %v", files)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Follow returned %v after cancel", err)
	}
}

func TestFollowStopsOnCallbackError(t *testing.T) {
	l, path := openLog(t)
	appendN(t, l, 1)
	stop := errors.New("stop")
	err := audit.Follow(context.Background(), path, 5, time.Millisecond, func(json.RawMessage) error { return stop })
	if !errors.Is(err, stop) {
		t.Errorf("Follow = %v, want the callback's error", err)
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	for _, name := range []string{
		"audit.jsonl", "audit.jsonl.lock", "audit.jsonl.torn-1763200000",
		"audit.jsonl.20261115T100000.000000002Z", "audit.jsonl.20261115T090000.000000000Z",
		"audit.jsonl.2026", "other.jsonl.20261115T100000.000000002Z", "audit.jsonl.20261315T100000.000000002Z",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := audit.Files(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{path + ".20261115T090000.000000000Z", path + ".20261115T100000.000000002Z", path}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Files (-want +got):\n%s", d)
	}
	os.Remove(path)
	if got, _ := audit.Files(path); len(got) != 2 {
		t.Errorf("without the current file: %v", got)
	}
}

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"GUARDIAN_AUDIT_LOG": "/var/log/g.jsonl", "XDG_STATE_HOME": "/x", "HOME": "/h"}, "/var/log/g.jsonl"},
		{map[string]string{"XDG_STATE_HOME": "/x/state", "HOME": "/h"}, "/x/state/guardian/audit.jsonl"},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"}, "/h/.local/state/guardian/audit.jsonl"},
		{map[string]string{"HOME": "/h"}, "/h/.local/state/guardian/audit.jsonl"},
		{map[string]string{}, ""},
	}
	for _, tt := range tests {
		if got := audit.DefaultPath(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("DefaultPath(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
}
