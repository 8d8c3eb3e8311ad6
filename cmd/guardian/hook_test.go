package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/oneshot"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

const hookRmPayload = `{"session_id":"s1","cwd":"/home/dev/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~/"},"tool_use_id":"t1"}`

// runHook runs `guardian hook claude` in-process with hookRmPayload and the environment and
// returns its exit code and the PreToolUse decision and reason it printed ("" when none).
func runHook(t *testing.T, env map[string]string, args ...string) (code int, decision, reason string) {
	t.Helper()
	return runHookPayload(t, hookRmPayload, env, args...)
}

// runHookPayload is runHook with another payload.
func runHookPayload(t *testing.T, payload string, env map[string]string, args ...string) (code int, decision, reason string) {
	t.Helper()
	d, out, errb := testDeps(payload)
	d.getenv = func(k string) string { return env[k] }
	code = run(context.Background(), append([]string{"hook", "claude"}, args...), d)
	if out.Len() == 0 {
		return code, "", errb.String()
	}
	var reply struct {
		HookSpecificOutput struct{ PermissionDecision, PermissionDecisionReason string }
	}
	if err := json.Unmarshal(out.Bytes(), &reply); err != nil {
		t.Fatalf("reply %q: %v", out, err)
	}
	return code, reply.HookSpecificOutput.PermissionDecision, reply.HookSpecificOutput.PermissionDecisionReason
}

// hookEnv is an environment with a private state directory (audit log, breaker state) and a
// socket path for a serve, and no user config.
func hookEnv(t *testing.T) map[string]string {
	dir := t.TempDir()
	return map[string]string{"HOME": filepath.Join(dir, "home"), "XDG_CONFIG_HOME": filepath.Join(dir, "config"),
		"XDG_STATE_HOME": filepath.Join(dir, "state"), "GUARDIAN_SOCKET": filepath.Join(dir, "g.sock")}
}

// serveOn runs a guardian server with decider d on a unix socket until the test ends.
func serveOn(t *testing.T, path string, d guardian.Decider) {
	t.Helper()
	ln, err := server.ListenUnix(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.New(d).Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
}

// TestHookDelegates: a hook asks the serve on the default socket, passing who asked — the
// agent's name, role and id included, so the serve's agent policy judges the same agent; the
// serve's answer is the hook's.
func TestHookDelegates(t *testing.T) {
	env := hookEnv(t)
	var mu sync.Mutex
	var got guardian.Caller
	serveOn(t, env["GUARDIAN_SOCKET"], guardian.DeciderFunc(func(_ context.Context, _ guardian.Request, c guardian.Caller) (guardian.Result, error) {
		mu.Lock()
		got = c
		mu.Unlock()
		return guardian.Result{Decision: riskmodel.Ask, Status: guardian.StatusRule, DecidedBy: "serve-under-test",
			Assessment: riskmodel.Assessment{Summary: "asked by the serve", Level: riskmodel.High, Category: riskmodel.CatDataDeletion}}, nil
	}))
	for _, tc := range []struct {
		payload string
		want    guardian.Caller
	}{
		{hookRmPayload, guardian.Caller{Host: "claude", Session: "s1", Turn: "t1", AgentRole: guardian.AgentRoleMain}},
		{string(hookFixture(t, "claude-pretooluse-subagent.json")), guardian.Caller{Host: "claude", Session: "c9754084-5308-4d7f-8631-d84515aa6a91",
			Turn: "toolu_fakesub0000000000000001", Agent: "general-purpose", AgentRole: guardian.AgentRoleSubagent, AgentID: "af7ee3509eb83af2d"}},
	} {
		code, decision, reason := runHookPayload(t, tc.payload, env)
		if code != 0 || decision != "ask" || !strings.Contains(reason, "asked by the serve") {
			t.Fatalf("exit %d, %s %q; want the serve's ask", code, decision, reason)
		}
		mu.Lock()
		if got != tc.want {
			t.Errorf("serve saw caller %+v, want %+v", got, tc.want)
		}
		mu.Unlock()
	}
}

// hookFixture reads a real host payload from guardian/hook/testdata (see the README there).
func hookFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "guardian", "hook", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHookAgentPolicy runs the real main- and sub-agent payloads of both hosts through the
// in-process hooks under [agents] auto_approve = "subagent-only", trusted = ["Explore",
// "explorer"]. Every command is one the rules allow; only the trusted sub-agents keep the
// allow, the rest go to the human — and the audit log records who asked and why.
func TestHookAgentPolicy(t *testing.T) {
	env := hookEnv(t)
	config := filepath.Join(env["XDG_CONFIG_HOME"], "guardian", "config.toml")
	writeFile(t, config, "[agents]\nauto_approve = \"subagent-only\"\ntrusted = [\"Explore\", \"explorer\"]\n")
	const codexAllow = `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}` + "\n"
	tests := []struct {
		fixture, host string
		want          string // claude: the permissionDecision; codex: the exact stdout
		why           string // in the reason of a held allow
		caller        guardian.Caller
	}{
		{"claude-pretooluse-subagent-explore.json", "claude", "allow", "",
			guardian.Caller{Agent: "Explore", AgentRole: guardian.AgentRoleSubagent, AgentID: "ae46f093fd4c1d156"}},
		{"claude-pretooluse-main.json", "claude", "ask", `the request comes from the main agent, and [agents] auto_approve = \"subagent-only\"`,
			guardian.Caller{AgentRole: guardian.AgentRoleMain}},
		{"claude-pretooluse-main-agent-flag.json", "claude", "ask", `the main agent (running as \"test-runner\")`,
			guardian.Caller{Agent: "test-runner", AgentRole: guardian.AgentRoleMain}},
		{"claude-pretooluse-subagent.json", "claude", "ask", `sub-agent \"general-purpose\" is not named in [agents] trusted = [\"Explore\", \"explorer\"]`,
			guardian.Caller{Agent: "general-purpose", AgentRole: guardian.AgentRoleSubagent, AgentID: "af7ee3509eb83af2d"}},
		{"claude-pretooluse-subagent-fork.json", "claude", "ask", `sub-agent \"fork\"`,
			guardian.Caller{Agent: "fork", AgentRole: guardian.AgentRoleSubagent, AgentID: "a78f953b0424136a4"}},
		{"codex-permission-request-subagent-explorer.json", "codex", codexAllow, "",
			guardian.Caller{Agent: "explorer", AgentRole: guardian.AgentRoleSubagent, AgentID: "01a1fe29-d644-7ba2-ba13-eeaccfd78308"}},
		{"codex-permission-request-subagent.json", "codex", "", "",
			guardian.Caller{Agent: "default", AgentRole: guardian.AgentRoleSubagent, AgentID: "01a1fe29-9486-7950-a5de-d49b67a850d6"}},
		{"codex-permission-request-main.json", "codex", "", "", guardian.Caller{AgentRole: guardian.AgentRoleMain}},
	}
	for _, tc := range tests {
		d, out, errb := testDeps(string(hookFixture(t, tc.fixture)))
		d.getenv = func(k string) string { return env[k] }
		if code := run(context.Background(), []string{"hook", tc.host, "--config", config}, d); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.fixture, code, errb)
		}
		got := out.String()
		if tc.host == "claude" {
			if !strings.Contains(got, `"permissionDecision":"`+tc.want+`"`) || !strings.Contains(got, tc.why) {
				t.Errorf("%s: reply %s; want %s with %q", tc.fixture, got, tc.want, tc.why)
			}
		} else if got != tc.want {
			t.Errorf("%s: reply %q, want %q", tc.fixture, got, tc.want)
		}
	}

	recs, err := audit.Tail(context.Background(), filepath.Join(env["XDG_STATE_HOME"], "guardian", "audit.jsonl"), 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(tests) {
		t.Fatalf("audit log holds %d records, want %d", len(recs), len(tests))
	}
	for i, raw := range recs {
		var r audit.Record
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		tc := tests[i]
		c := r.Caller
		if c.Agent != tc.caller.Agent || c.AgentRole != tc.caller.AgentRole || c.AgentID != tc.caller.AgentID || c.Host != tc.host {
			t.Errorf("%s: audited caller %+v, want host %s and agent %+v", tc.fixture, c, tc.host, tc.caller)
		}
		held := r.Status == guardian.StatusAgentPolicy
		if wantHeld := tc.want != "allow" && tc.want != codexAllow; held != wantHeld || held && (r.Decision != riskmodel.Ask || r.DecidedBy != guardian.DecidedByAgentPolicy) {
			t.Errorf("%s: audited %s (%s, %s), held = %v, want %v", tc.fixture, r.Decision, r.Status, r.DecidedBy, held, wantHeld)
		}
	}
}

// TestHookServeDown: a GUARDIAN_URL that does not answer, or a serve that fails, gives the
// fail-safe ask; a stale default socket falls back to the in-process review (a deny here).
func TestHookServeDown(t *testing.T) {
	t.Run("GUARDIAN_URL down", func(t *testing.T) {
		env := hookEnv(t)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		env[oneshot.EnvURL] = "http://" + ln.Addr().String()
		ln.Close() // nothing listens there now
		code, decision, reason := runHook(t, env)
		if code != 0 || decision != "ask" || !strings.Contains(reason, "unreachable") {
			t.Errorf("exit %d, %s %q; want ask naming the unreachable serve", code, decision, reason)
		}
		wantFailsafeRecord(t, env, "unreachable")
	})
	t.Run("serve answers 500", func(t *testing.T) {
		env := hookEnv(t)
		serveOn(t, env["GUARDIAN_SOCKET"], guardian.DeciderFunc(func(context.Context, guardian.Request, guardian.Caller) (guardian.Result, error) {
			return guardian.Result{}, os.ErrPermission
		}))
		code, decision, _ := runHook(t, env)
		if code != 0 || decision != "ask" {
			t.Errorf("exit %d, %s; want the fail-safe ask, not an in-process review", code, decision)
		}
		wantFailsafeRecord(t, env, "500")
	})
	t.Run("serve past the hook deadline", func(t *testing.T) {
		env := hookEnv(t)
		release := make(chan struct{})
		serveOn(t, env["GUARDIAN_SOCKET"], guardian.DeciderFunc(func(ctx context.Context, _ guardian.Request, _ guardian.Caller) (guardian.Result, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return guardian.Result{}, context.Canceled
		}))
		defer close(release)
		code, decision, reason := runHook(t, env, "--deadline", "100ms")
		if code != 0 || decision != "ask" || !strings.Contains(reason, "deadline") {
			t.Errorf("exit %d, %s %q; want ask after the deadline", code, decision, reason)
		}
		wantFailsafeRecord(t, env, "deadline")
	})
	t.Run("stale default socket", func(t *testing.T) {
		env := hookEnv(t)
		ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: env["GUARDIAN_SOCKET"], Net: "unix"})
		if err != nil {
			t.Fatal(err)
		}
		ln.SetUnlinkOnClose(false)
		ln.Close() // the socket file stays, nothing listens
		code, decision, _ := runHook(t, env)
		if code != 0 || decision != "deny" {
			t.Errorf("exit %d, %s; want the in-process deny", code, decision)
		}
	})
}

// wantFailsafeRecord checks that the hook's audit log holds exactly one record, the fail-safe
// ask the host was given, with the reason (containing why) and who asked.
func wantFailsafeRecord(t *testing.T, env map[string]string, why string) {
	t.Helper()
	recs, err := audit.Tail(context.Background(), filepath.Join(env["XDG_STATE_HOME"], "guardian", "audit.jsonl"), 10)
	if err != nil {
		t.Fatalf("audit log: %v", err)
	}
	if len(recs) != 1 {
		t.Fatalf("audit log holds %d records, want the one fail-safe answer", len(recs))
	}
	var r audit.Record
	if err := json.Unmarshal(recs[0], &r); err != nil {
		t.Fatal(err)
	}
	if r.Decision != riskmodel.Ask || r.Status != guardian.StatusFailsafe || r.DecidedBy != "fallback" ||
		!strings.Contains(r.Assessment.Rationale, why) || r.Caller.Host != "claude" || r.Caller.Session != "s1" {
		t.Errorf("audited %s/%s/%s %q by %+v; want the fail-safe ask naming %q for claude session s1",
			r.Decision, r.Status, r.DecidedBy, r.Assessment.Rationale, r.Caller, why)
	}
}

// TestHookInProcessPastDeadline: an in-process review whose model outlives the hook's deadline
// gives the fail-safe ask, and the audit log holds that ask alone — not also the review's own
// late result, which the host never saw.
func TestHookInProcessPastDeadline(t *testing.T) {
	env := hookEnv(t)
	release := make(chan struct{})
	stalls := http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	model := httptest.NewServer(stalls)
	defer model.Close()
	defer close(release) // before Close, which waits for the handler
	env["GUARDIAN_MODEL_BASE_URL"], env["GUARDIAN_MODEL"], env["GUARDIAN_API_KEY"] = model.URL+"/v1", "m", "k"
	payload := `{"session_id":"s1","cwd":"/home/dev/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"frobnicate --all"},"tool_use_id":"t"}`
	code, decision, reason := runHookPayload(t, payload, env, "--deadline", "200ms")
	if code != 0 || decision != "ask" || !strings.Contains(reason, "deadline") {
		t.Fatalf("exit %d, %s %q; want the fail-safe ask after the deadline", code, decision, reason)
	}
	wantFailsafeRecord(t, env, "deadline")
}

// TestHookBreakerStateShared: in-process hooks share the model breaker through the state
// file — after enough failures a later process skips the model (status breaker_open).
func TestHookBreakerStateShared(t *testing.T) {
	env := hookEnv(t)
	fails := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "down", http.StatusInternalServerError) })
	model := httptest.NewServer(fails)
	defer model.Close()
	env["GUARDIAN_MODEL_BASE_URL"], env["GUARDIAN_MODEL"], env["GUARDIAN_API_KEY"] = model.URL+"/v1", "m", "k"
	d, out, _ := testDeps(`{"session_id":"s","cwd":"/home/dev/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"frobnicate --all"},"tool_use_id":"t"}`)
	d.getenv = func(k string) string { return env[k] }
	var statuses []string
	for range 4 {
		out.Reset()
		d.stdin = strings.NewReader(`{"session_id":"s","cwd":"/home/dev/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"frobnicate --all"},"tool_use_id":"t"}`)
		if code := run(context.Background(), []string{"hook", "claude"}, d); code != 0 {
			t.Fatalf("exit %d", code)
		}
		var reply struct {
			HookSpecificOutput struct{ PermissionDecisionReason string }
		}
		if err := json.Unmarshal(out.Bytes(), &reply); err != nil {
			t.Fatal(err)
		}
		r := reply.HookSpecificOutput.PermissionDecisionReason
		switch {
		case strings.Contains(r, "status: breaker_open"):
			statuses = append(statuses, "breaker_open")
		case strings.Contains(r, "status: unavailable"):
			statuses = append(statuses, "unavailable")
		default:
			statuses = append(statuses, r)
		}
	}
	if strings.Join(statuses, ",") != "unavailable,unavailable,unavailable,breaker_open" {
		t.Errorf("statuses across 4 hook processes = %v, want 3 model failures then the open breaker", statuses)
	}
}

// TestHookAgentPolicyProject: a repository's .guardian.toml can tighten [agents] for the
// requests made in it, and an attempt to loosen it is a config error — the hook's fail-safe
// ask, naming the file and the key — never a quietly wider trust.
func TestHookAgentPolicyProject(t *testing.T) {
	env := hookEnv(t)
	config := filepath.Join(env["XDG_CONFIG_HOME"], "guardian", "config.toml")
	writeFile(t, config, "[agents]\ntrusted = [\"Explore\"]\n")
	repo := filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	explore := `{"session_id":"s","cwd":"` + repo + `","hook_event_name":"PreToolUse","agent_id":"a1","agent_type":"Explore","tool_name":"Bash","tool_input":{"command":"ls -la"},"tool_use_id":"t"}`
	tests := []struct {
		project  string
		decision string
		why      string
	}{
		{"", "allow", ""},
		{"[agents]\nauto_approve = \"off\"\n", "ask", `[agents] auto_approve = "off"`},
		{"[agents]\ntrusted = [\"Explore\", \"fork\"]\n", "ask", `.guardian.toml:2:23: key "agents.trusted": "fork" is not in trusted = ["Explore"] of the user config`},
	}
	for _, tc := range tests {
		if tc.project != "" {
			writeFile(t, filepath.Join(repo, ".guardian.toml"), tc.project)
		}
		code, decision, reason := runHookPayload(t, explore, env, "--config", config)
		if code != 0 || decision != tc.decision || !strings.Contains(reason, tc.why) {
			t.Errorf("project %q: exit %d, %s %q; want %s with %q", tc.project, code, decision, reason, tc.decision, tc.why)
		}
	}
}
