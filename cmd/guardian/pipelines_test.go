package main

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// countingBuild builds real rules-only pipelines and counts them.
type countingBuild struct {
	mu     sync.Mutex
	builds int
	homes  []string
}

func (b *countingBuild) build(cfg guardian.Config, home string) (*guardian.Pipeline, error) {
	b.mu.Lock()
	b.builds++
	b.homes = append(b.homes, home)
	b.mu.Unlock()
	return newApp(deps{}).newPipeline(cfg, home, nil)
}

func (b *countingBuild) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.builds
}

func TestProjectPipelinesAreBuiltOncePerProject(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	projA := filepath.Join(home, "a")
	projB := filepath.Join(home, "b")
	plain := filepath.Join(home, "plain")
	writeFile(t, filepath.Join(projA, ".git", "HEAD"), "")
	writeFile(t, filepath.Join(projA, ".guardian.toml"), "protected_paths = [\"~/a-secrets/**\"]\n")
	writeFile(t, filepath.Join(projB, ".git", "HEAD"), "")
	writeFile(t, filepath.Join(projB, ".guardian.toml"), "protected_paths = [\"~/b-secrets/**\"]\n")
	writeFile(t, filepath.Join(plain, ".git", "HEAD"), "")

	b := &countingBuild{}
	pp := newProjectPipelines(guardian.DefaultConfig(), home, 3, b.build)
	ctx := context.Background()
	review := func(cwd string) {
		t.Helper()
		req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}, Cwd: cwd})
		if cwd == "" {
			req = guardian.MCPRequest(riskmodel.MCPRequest{Server: "fs", Tool: "read_file"})
		}
		if res, err := pp.Decide(ctx, req, guardian.Caller{}); err != nil || res.Decision == 0 {
			t.Fatalf("review in %q: %+v %v", cwd, res, err)
		}
	}
	steps := []struct {
		cwd        string
		wantBuilds int
		why        string
	}{
		{projA, 1, "first request in project a"},
		{filepath.Join(projA, "src", "pkg"), 1, "a subdirectory of a has the same project file"},
		{projA, 1, "again"},
		{projB, 2, "project b has its own file"},
		{plain, 3, "no project file: the user config alone"},
		{"", 3, "an MCP request (no cwd) also uses the user config alone"},
		{"relative/dir", 3, "a relative cwd is not a project directory"},
		{projB, 3, "b is still kept"},
	}
	for _, s := range steps {
		review(s.cwd)
		if got := b.count(); got != s.wantBuilds {
			t.Fatalf("%s: %d builds, want %d", s.why, got, s.wantBuilds)
		}
	}

	// A cwd in another user's home: "~" is no longer this server's home, so that is another
	// effective config.
	review("/home/someone-else/proj")
	if got := b.count(); got != 4 || b.homes[3] != "" {
		t.Fatalf("another home: %d builds, home %q; want a 4th build with the home left to inference", got, b.homes[3])
	}
	if pp.Len() != 3 {
		t.Errorf("%d pipelines kept, want at most 3", pp.Len())
	}
	// projA was the least recently used and was dropped; using it again rebuilds it.
	review(projA)
	if got := b.count(); got != 5 {
		t.Errorf("evicted project: %d builds, want 5", got)
	}

	// Editing a project file makes a new pipeline.
	writeFile(t, filepath.Join(projB, ".guardian.toml"), "protected_paths = [\"~/b-secrets/**\", \"~/more/**\"]\n")
	review(projB)
	if got := b.count(); got != 6 {
		t.Errorf("edited project file: %d builds, want 6", got)
	}
	if err := pp.Close(); err != nil || pp.Len() != 0 {
		t.Errorf("Close: %v, %d kept", err, pp.Len())
	}
}

func TestProjectPipelinesShareOnePipelinePerKey(t *testing.T) {
	dir := t.TempDir()
	b := &countingBuild{}
	pp := newProjectPipelines(guardian.DefaultConfig(), dir, 8, b.build)
	const n = 16
	got := make(chan *guardian.Pipeline, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			p, err := pp.forDir(dir)
			if err != nil {
				t.Error(err)
			}
			got <- p
		})
	}
	wg.Wait()
	close(got)
	first := <-got
	for p := range got {
		if p != first {
			t.Fatal("concurrent first requests got different pipelines: their caches and breakers would diverge")
		}
	}
	if pp.Len() != 1 {
		t.Errorf("%d pipelines kept, want 1", pp.Len())
	}
}

// TestProjectPipelinesApplyAgentPolicy: guardian serve decides for the caller the headers
// name, under the user's [agents] tightened by the request's project file.
func TestProjectPipelinesApplyAgentPolicy(t *testing.T) {
	dir := t.TempDir()
	strict := filepath.Join(dir, "strict")
	writeFile(t, filepath.Join(strict, ".git", "HEAD"), "")
	writeFile(t, filepath.Join(strict, ".guardian.toml"), "[agents]\nauto_approve = \"off\"\n")
	user := guardian.DefaultConfig()
	user.Agents = guardian.AgentPolicy{AutoApprove: guardian.AutoApproveSubagentOnly}
	pp := newProjectPipelines(user, dir, 4, (&countingBuild{}).build)
	defer pp.Close()
	sub := guardian.Caller{Host: "claude", AgentRole: guardian.AgentRoleSubagent, Agent: "Explore"}
	main := guardian.Caller{Host: "claude", AgentRole: guardian.AgentRoleMain}
	for _, tc := range []struct {
		cwd    string
		caller guardian.Caller
		want   riskmodel.Decision
	}{
		{dir, sub, riskmodel.Allow},
		{dir, main, riskmodel.Ask},
		{strict, sub, riskmodel.Ask},
	} {
		req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}, Cwd: tc.cwd})
		res, err := pp.Decide(context.Background(), req, tc.caller)
		if err != nil {
			t.Fatal(err)
		}
		if res.Decision != tc.want {
			t.Errorf("%s in %s: %s (%s), want %s", tc.caller.AgentRole, tc.cwd, res.Decision, res.Status, tc.want)
		}
	}
}
