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
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

const hookRmPayload = `{"session_id":"s1","cwd":"/home/dev/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~/"},"tool_use_id":"t1"}`

// runHook runs `guardian hook claude` in-process with the payload and environment and
// returns its exit code and the PreToolUse decision and reason it printed ("" when none).
func runHook(t *testing.T, env map[string]string, args ...string) (code int, decision, reason string) {
	t.Helper()
	d, out, errb := testDeps(hookRmPayload)
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

// TestHookDelegates: a hook asks the serve on the default socket, passing who asked; the
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
	code, decision, reason := runHook(t, env)
	if code != 0 || decision != "ask" || !strings.Contains(reason, "asked by the serve") {
		t.Fatalf("exit %d, %s %q; want the serve's ask", code, decision, reason)
	}
	mu.Lock()
	defer mu.Unlock()
	if got != (guardian.Caller{Host: "claude", Session: "s1", Turn: "t1"}) {
		t.Errorf("serve saw caller %+v", got)
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
		env[envURL] = "http://" + ln.Addr().String()
		ln.Close() // nothing listens there now
		code, decision, reason := runHook(t, env)
		if code != 0 || decision != "ask" || !strings.Contains(reason, "unreachable") {
			t.Errorf("exit %d, %s %q; want ask naming the unreachable serve", code, decision, reason)
		}
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
