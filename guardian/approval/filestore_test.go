package approval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestFileStoreRestart: answers and grants survive a restart (and a torn last line); an
// approval that was merely open does not, since its hook is gone with the process.
func TestFileStoreRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state", "approvals.jsonl")
	s, err := OpenFileStore(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, id := range []string{"aaaa0001", "bbbb0002", "cccc0003"} {
		if err := s.Put(ctx, Pending{ID: id, Created: now, Key: "k-" + id, Caller: guardian.Caller{Host: "claude", Session: "s1"}, Assessment: riskmodel.Assessment{Level: riskmodel.Medium, Category: riskmodel.CatNone}}); err != nil {
			t.Fatal(err)
		}
	}
	gr := &Grant{ID: "g0000001", Scope: ScopeAlways, Key: "k-aaaa0001", By: "alice", Created: now, Expires: now.Add(time.Hour)}
	if _, err := s.Answer(ctx, "aaaa", Answer{Decision: riskmodel.Allow, Scope: ScopeAlways, By: "alice", Time: now, Grant: gr.ID}, gr); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Answer(ctx, "bbbb", Answer{Decision: riskmodel.Deny, Scope: ScopeOnce, By: "bob", Time: now}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Deliver(ctx, "bbbb0002"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddGrant(ctx, Grant{ID: "g0000002", Scope: ScopeAlways, Key: "x", By: "alice", Created: now, Expires: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RevokeGrant(ctx, "g0000002"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// A crash in the middle of a write leaves a torn last line.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"op":"grant","grant":{"id":"torn`)
	f.Close()

	s2, err := OpenFileStore(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	all, _ := s2.List(ctx, true)
	got := map[string]State{}
	for _, p := range all {
		got[p.ID] = p.State
	}
	want := map[string]State{"aaaa0001": StateAnswered, "bbbb0002": StateDelivered}
	if len(got) != len(want) || got["aaaa0001"] != want["aaaa0001"] || got["bbbb0002"] != want["bbbb0002"] {
		t.Fatalf("after restart: %v, want %v", got, want)
	}
	grants, _ := s2.Grants(ctx, now)
	if len(grants) != 1 || grants[0].ID != "g0000001" {
		t.Fatalf("grants after restart: %+v", grants)
	}
	// The late answer is still there for a retry.
	if p, ok, _ := s2.Claim(ctx, "k-aaaa0001", "claude", "s1", now); !ok || p.Answer.By != "alice" {
		t.Fatalf("claim after restart: %v %+v", ok, p)
	}
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), "torn") || strings.Contains(string(b), "g0000002") {
		t.Errorf("the journal was not compacted:\n%s", b)
	}
}

func TestFileStoreCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "approvals.jsonl")
	if err := os.WriteFile(path, []byte("not json\n{\"op\":\"revoke\",\"id\":\"x\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFileStore(path); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("got %v, want an error naming line 1", err)
	}
}

func TestShape(t *testing.T) {
	tests := []struct {
		name string
		req  guardian.Request
		line string
	}{
		{"bash -c", execReq("  npm publish ", "/"), "npm publish"},
		{"argv", guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"git", "commit", "-m", "a b"}}), `git commit -m "a b"`},
		{"secret redacted", execReq("curl -H 'Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789' x", "/"), ""},
		{"mcp", guardian.MCPRequest(riskmodel.MCPRequest{Server: "posthog", Tool: "exec", Arguments: map[string]any{"id": 42, "command": "destroy"}}), `posthog/exec {"command":"destroy","id":42}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, key := Shape(tt.req)
			if tt.line != "" && line != tt.line {
				t.Errorf("line %q, want %q", line, tt.line)
			}
			if strings.Contains(line, "ghp_") {
				t.Errorf("secret in the line: %q", line)
			}
			if !strings.HasPrefix(key, "sha256:") {
				t.Errorf("key %q", key)
			}
		})
	}
	_, k1 := Shape(execReq("rm -rf build", "/a"))
	_, k2 := Shape(execReq("rm -rf build", "/b"))
	_, k3 := Shape(execReq("rm -rf build2", "/a"))
	if k1 != k2 || k1 == k3 {
		t.Errorf("keys: same command %v, different command %v", k1 == k2, k1 != k3)
	}
}
