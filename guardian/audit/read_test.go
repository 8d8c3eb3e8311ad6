package audit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/riskmodel"
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
	// A prefix of an id finds the record, as a git commit prefix does.
	if raw, _, err := audit.Find(context.Background(), files, recs[3].ID[:8]); err != nil || !strings.HasPrefix(string(raw), `{"id":"`+recs[3].ID+`"`) {
		t.Errorf("prefix of an id: %s, %v", raw, err)
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

// TestFindPrefix: an id prefix names the one record whose id begins with it; a prefix shared by
// several is an error listing them, one too short finds nothing, and only the id key counts.
func TestFindPrefix(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	lines := `{"id":"abcd000011112222","request":{"note":"abce000000000000"},"hash":"sha256:1"}
{"id":"abcd000033334444","hash":"sha256:2"}
{"id":"abce000055556666","hash":"sha256:3"}
{"id":"0123456789abcdef","hash":"sha256:4"}
`
	if err := os.WriteFile(path, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	files := []string{path}
	for _, tt := range []struct {
		id, want  string // want: the id found, "" for none
		ambiguous []string
	}{
		{"abcd00003333", "abcd000033334444", nil},
		{"abce", "abce000055556666", nil}, // not the abce… quoted inside the first record
		{"0123456789abcdef", "0123456789abcdef", nil},
		{"abcd", "", []string{"abcd000011112222", "abcd000033334444"}},
		{"abc", "", nil},  // shorter than MinIDPrefix
		{"ffff", "", nil}, // no such record
		{"abcd000011112222x", "", nil},
	} {
		raw, loc, err := audit.Find(context.Background(), files, tt.id)
		var amb *audit.AmbiguousError
		switch {
		case tt.want != "":
			if err != nil || !strings.HasPrefix(string(raw), `{"id":"`+tt.want+`"`) {
				t.Errorf("Find(%s) = %s, %v; want %s", tt.id, raw, err, tt.want)
			}
			if lines := readLines(t, loc.File); !bytes.Equal(lines[loc.Line-1], raw) {
				t.Errorf("Find(%s): line %d is not the record", tt.id, loc.Line)
			}
		case tt.ambiguous != nil:
			if !errors.As(err, &amb) || !slices.Equal(amb.IDs, tt.ambiguous) || !strings.Contains(err.Error(), "give more of the id") {
				t.Errorf("Find(%s) = %v, want ambiguous among %v", tt.id, err, tt.ambiguous)
			}
		default:
			if !errors.Is(err, audit.ErrNotFound) {
				t.Errorf("Find(%s) = %s, %v; want ErrNotFound", tt.id, raw, err)
			}
		}
	}
}

// TestTailMatching: the filters select records, and -n counts the selected ones.
func TestTailMatching(t *testing.T) {
	l, path := openLog(t, audit.WithMaxSize(4<<10)) // rotated files too
	recs := make([]audit.Record, 20)
	for i := range recs {
		rec := testRecord(fmt.Sprintf("record %d", i))
		rec.Decision = []riskmodel.Decision{riskmodel.Allow, riskmodel.Ask, riskmodel.Deny}[i%3]
		rec.Caller = guardian.Caller{Host: []string{"claude", "codex"}[i%2], Session: fmt.Sprintf("s%d", i%4)}
		rec.Time = rec.Time.Add(time.Duration(i) * time.Minute)
		if i%4 == 1 {
			rec.DecidedBy = "rule:net.curl"
			rec.Assessment.Findings[0].RuleID = "net.curl"
		}
		var err error
		if recs[i], err = l.Append(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(raws []json.RawMessage) []string {
		var out []string
		for _, raw := range raws {
			var r audit.Record
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatal(err)
			}
			out = append(out, r.ID)
		}
		return out
	}
	want := func(keep func(audit.Record) bool, n int) []string {
		var out []string
		for _, r := range recs {
			if keep(r) {
				out = append(out, r.ID)
			}
		}
		if len(out) > n {
			out = out[len(out)-n:]
		}
		return out
	}
	for _, tt := range []struct {
		name string
		f    audit.Filter
		keep func(audit.Record) bool
	}{
		{"none", audit.Filter{}, func(audit.Record) bool { return true }},
		{"deny", audit.Filter{Decisions: []riskmodel.Decision{riskmodel.Deny}}, func(r audit.Record) bool { return r.Decision == riskmodel.Deny }},
		{"allow or ask", audit.Filter{Decisions: []riskmodel.Decision{riskmodel.Allow, riskmodel.Ask}}, func(r audit.Record) bool { return r.Decision != riskmodel.Deny }},
		{"host", audit.Filter{Host: recs[1].Caller.Host}, func(r audit.Record) bool { return r.Caller.Host == recs[1].Caller.Host }},
		{"session", audit.Filter{Session: recs[2].Caller.Session}, func(r audit.Record) bool { return r.Caller.Session == recs[2].Caller.Session }},
		{"rule glob", audit.Filter{Rule: "fs.rm.*"}, func(r audit.Record) bool {
			return slices.ContainsFunc(r.Assessment.Findings, func(f riskmodel.Finding) bool { return strings.HasPrefix(f.RuleID, "fs.rm.") })
		}},
		{"since", audit.Filter{Since: recs[15].Time}, func(r audit.Record) bool { return !r.Time.Before(recs[15].Time) }},
		{"nothing", audit.Filter{Host: "no-such-host"}, func(audit.Record) bool { return false }},
	} {
		for _, n := range []int{3, 100} {
			got, err := audit.TailMatching(context.Background(), path, n, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if w := want(tt.keep, n); !slices.Equal(ids(got), w) {
				t.Errorf("%s, -n %d: %v, want %v", tt.name, n, ids(got), w)
			}
		}
	}
}
