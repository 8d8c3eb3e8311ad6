package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/server"
)

// approvalEnv is a serve and its clients on one socket, with private state and no config.
type approvalEnv struct {
	env  map[string]string
	dir  string
	stop func() int
}

func startApprovalEnv(t *testing.T, serveArgs ...string) *approvalEnv {
	t.Helper()
	env := hookEnv(t)
	env["USER"] = "tester"
	cfg := filepath.Join(t.TempDir(), "config.toml")
	writeFile(t, cfg, "")
	e := &approvalEnv{env: env, dir: filepath.Dir(env["GUARDIAN_SOCKET"])}
	e.start(t, cfg, serveArgs...)
	return e
}

func (e *approvalEnv) start(t *testing.T, cfg string, serveArgs ...string) {
	t.Helper()
	env := e.env
	_, e.stop = runningServe(t, func(k string) string { return env[k] }, append([]string{"--config", cfg, "--socket", env["GUARDIAN_SOCKET"]}, serveArgs...)...)
}

// guardian runs a guardian command line against the serve and returns its exit code and output.
func (e *approvalEnv) guardian(t *testing.T, args ...string) (int, string) {
	t.Helper()
	d, out, errb := testDeps("")
	d.getenv = func(k string) string { return e.env[k] }
	code := run(context.Background(), args, d)
	return code, out.String() + errb.String()
}

// hook runs a Claude Code hook for command in the background; its reply arrives on the channel.
func (e *approvalEnv) hook(t *testing.T, command, session string, args ...string) <-chan [2]string {
	t.Helper()
	payload := fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q},"tool_use_id":"toolu_1"}`,
		session, e.dir, command)
	out := make(chan [2]string, 1)
	go func() {
		_, decision, reason := runHookPayload(t, payload, e.env, args...)
		out <- [2]string{decision, reason}
	}()
	return out
}

// awaitPending asks `guardian pending --json` until n approvals are open, as a person
// watching the queue would; it gives up after 10 s.
func (e *approvalEnv) awaitPending(t *testing.T, n int) []approval.Pending {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		code, out := e.guardian(t, "pending", "--json")
		if code != 0 {
			t.Fatalf("guardian pending: exit %d: %s", code, out)
		}
		var list server.PendingList
		if err := json.Unmarshal([]byte(out), &list); err != nil {
			t.Fatalf("guardian pending --json: %v\n%s", err, out)
		}
		if len(list.Pending) == n {
			return list.Pending
		}
	}
	t.Fatalf("no %d pending approvals within 10 s", n)
	return nil
}

// TestApprovalQueueCLI: a headless host's hook waits in guardian serve; `guardian approve`
// from another terminal releases it with allow, `guardian deny` with deny and the reason,
// and nobody answering gives the ask back before the hook's deadline.
func TestApprovalQueueCLI(t *testing.T) {
	e := startApprovalEnv(t)
	const prune = "docker system prune -f" // the rules ask (medium)

	reply := e.hook(t, prune, "s1", "--approvals", "queue", "--deadline", "30s")
	held := e.awaitPending(t, 1)[0]
	if code, out := e.guardian(t, "pending"); code != 0 || !strings.Contains(out, held.ID) || !strings.Contains(out, prune) {
		t.Fatalf("guardian pending: %d\n%s", code, out)
	}
	if code, out := e.guardian(t, "approve", held.ID[:4], "--as", "alice"); code != 0 || !strings.Contains(out, "approved "+held.ID) {
		t.Fatalf("guardian approve: %d\n%s", code, out)
	}
	if got := <-reply; got[0] != "allow" || !strings.Contains(got[1], "approved by alice") {
		t.Fatalf("the hook got %q", got)
	}
	if code, out := e.guardian(t, "approve", held.ID); code != exitUsage || !strings.Contains(out, "already answered") {
		t.Errorf("second answer: %d %s", code, out)
	}

	// GUARDIAN_APPROVALS=queue in the host's environment does what --approvals queue does.
	e.env[envApprovals] = "queue"
	reply = e.hook(t, prune, "s1", "--deadline", "30s")
	held = e.awaitPending(t, 1)[0]
	if code, out := e.guardian(t, "deny", held.ID, "--reason", "not during the release"); code != 0 {
		t.Fatalf("guardian deny: %d\n%s", code, out)
	}
	if got := <-reply; got[0] != "deny" || !strings.Contains(got[1], "not during the release") || !strings.Contains(got[1], "denied by tester") {
		t.Fatalf("the hook got %q", got)
	}

	start := time.Now()
	got := <-e.hook(t, prune, "s1", "--approvals", "queue", "--deadline", "3500ms")
	if got[0] != "ask" || !strings.Contains(got[1], "nobody answered") {
		t.Fatalf("unanswered: the hook got %q", got)
	}
	if took := time.Since(start); took > 3500*time.Millisecond {
		t.Errorf("the hook answered after %s, past its deadline", took)
	}

	// A host that prompts (--approvals host) is never held, even with the environment set.
	if got := <-e.hook(t, prune, "s1", "--approvals", "host"); got[0] != "ask" || strings.Contains(got[1], "nobody answered") {
		t.Errorf("host mode: the hook got %q", got)
	}

	// The audit log holds every answer, with who and how long.
	code, out := e.guardian(t, "audit", "tail", "-n", "20", "--json")
	if code != 0 {
		t.Fatalf("audit tail: %d %s", code, out)
	}
	for _, want := range []string{`"decided_by":"human:alice"`, `"decided_by":"human:tester"`, `"status":"unanswered"`, `"asked_by":"rule:container.prune"`, `"wait_ms":`} {
		if !strings.Contains(out, want) {
			t.Errorf("audit log lacks %s:\n%s", want, out)
		}
	}
}

// TestGrantsCLI: approve --scope session leaves a grant that the next identical request of
// the session uses, survives a serve restart, and stops applying once revoked; a high-risk
// request gets no grant.
func TestGrantsCLI(t *testing.T) {
	e := startApprovalEnv(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	writeFile(t, cfg, "")
	const prune = "docker system prune -f"

	reply := e.hook(t, prune, "s1", "--approvals", "queue", "--deadline", "30s")
	held := e.awaitPending(t, 1)[0]
	code, out := e.guardian(t, "approve", held.ID, "--scope", "session")
	if code != 0 || !strings.Contains(out, "grant ") {
		t.Fatalf("approve --scope session: %d\n%s", code, out)
	}
	<-reply

	e.stop()
	e.start(t, cfg)
	code, out = e.guardian(t, "grants")
	if code != 0 || !strings.Contains(out, prune) || !strings.Contains(out, "session") {
		t.Fatalf("grants after restart: %d\n%s", code, out)
	}
	if got := <-e.hook(t, prune, "s1"); got[0] != "allow" || !strings.Contains(got[1], "allowed by grant") {
		t.Fatalf("same session after restart: %q", got)
	}
	if got := <-e.hook(t, prune, "s2"); got[0] != "ask" {
		t.Fatalf("another session: %q", got)
	}
	var list server.GrantList
	_, out = e.guardian(t, "grants", "--json")
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list.Grants) != 1 {
		t.Fatalf("grants --json: %v\n%s", err, out)
	}
	if code, out := e.guardian(t, "grants", "revoke", list.Grants[0].ID[:5]); code != 0 || !strings.Contains(out, "revoked grant") {
		t.Fatalf("revoke: %d %s", code, out)
	}
	if got := <-e.hook(t, prune, "s1"); got[0] != "ask" {
		t.Fatalf("revoked grant still applies: %q", got)
	}

	// npm publish is rated high: no grant, only once.
	reply = e.hook(t, "npm publish", "s1", "--approvals", "queue", "--deadline", "30s")
	held = e.awaitPending(t, 1)[0]
	if code, out := e.guardian(t, "approve", held.ID, "--scope", "always"); code != exitUsage || !strings.Contains(out, "never given for a high or critical request") {
		t.Fatalf("grant for a high request: %d %s", code, out)
	}
	if code, out := e.guardian(t, "approve", held.ID); code != 0 {
		t.Fatalf("approve once: %d %s", code, out)
	}
	if got := <-reply; got[0] != "allow" {
		t.Fatalf("npm publish approved once: %q", got)
	}
}

func TestApprovalCLIErrors(t *testing.T) {
	e := startApprovalEnv(t)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"approve", "abcd"}, exitUsage, `no approval "abcd"`},
		{[]string{"approve", "abcd", "--scope", "forever"}, exitUsage, "unknown scope"},
		{[]string{"deny"}, exitUsage, "needs ID"},
		{[]string{"grants", "revoke", "ab"}, exitUsage, `no grant "ab"`},
		{[]string{"pending"}, 0, "no pending approvals"},
		{[]string{"grants"}, 0, "no grants"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out := e.guardian(t, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, output:\n%s\nwant exit %d and %q", code, out, tt.code, tt.want)
			}
		})
	}
	e.stop()
	if code, out := e.guardian(t, "pending"); code != exitInternal || !strings.Contains(out, "start it (guardian serve)") {
		t.Fatalf("serve down: %d %s", code, out)
	}
}

// TestPolicyFrom: guardian allow --from takes the command of a pending approval or of an
// audit record; a line of several commands is refused.
func TestPolicyFrom(t *testing.T) {
	e := startApprovalEnv(t)
	cfg := filepath.Join(t.TempDir(), "user.toml")
	reply := e.hook(t, "docker system prune -f", "s1", "--approvals", "queue", "--deadline", "30s")
	held := e.awaitPending(t, 1)[0]
	code, out := e.guardian(t, "--config", cfg, "allow", "--from", held.ID)
	if code != 0 || !strings.Contains(out, "allow command docker system prune -f") {
		t.Fatalf("allow --from pending: %d %s", code, out)
	}
	e.guardian(t, "deny", held.ID)
	<-reply

	<-e.hook(t, "ls && rm -rf build", "s1")
	_, out = e.guardian(t, "audit", "tail", "-n", "1", "--json")
	var rec struct{ ID string }
	if err := json.Unmarshal([]byte(out), &rec); err != nil || rec.ID == "" {
		t.Fatalf("audit tail: %v %s", err, out)
	}
	if code, out := e.guardian(t, "--config", cfg, "block", "--from", rec.ID); code != exitUsage || !strings.Contains(out, "holds several commands") {
		t.Fatalf("block --from a two-command line: %d %s", code, out)
	}
	if code, out := e.guardian(t, "--config", cfg, "block", "--from", "ffffffff"); code != exitUsage || !strings.Contains(out, "no audit record with that id") {
		t.Fatalf("block --from unknown: %d %s", code, out)
	}
}

// TestHostOutcome: with guardian installed for Claude Code's PostToolUse and PermissionDenied
// too, what the person answered at Claude Code's prompt is recorded against guardian's ask
// (and nothing for calls guardian did not ask about), and `guardian audit overrides` counts it.
// The outcome payloads follow Claude Code's documented hook input (the PreToolUse fields plus
// tool_response); they are not recordings.
func TestHostOutcome(t *testing.T) {
	env := hookEnv(t)
	dir := t.TempDir()
	payload := func(event, command, turn string) string {
		return fmt.Sprintf(`{"session_id":"s1","cwd":%q,"hook_event_name":%q,"tool_name":"Bash","tool_input":{"command":%q},"tool_use_id":%q,"tool_response":{"stdout":"","stderr":"","interrupted":false}}`,
			dir, event, command, turn)
	}
	const prune = "docker system prune -f"
	steps := []struct {
		event, command, turn string
		decision             string // the hook's reply; "" for none
	}{
		{"PreToolUse", prune, "toolu_1", "ask"},
		{"PostToolUse", prune, "toolu_1", ""}, // the person said yes at the prompt
		{"PreToolUse", "ls", "toolu_2", "allow"},
		{"PostToolUse", "ls", "toolu_2", ""}, // guardian allowed it: nothing to record
		{"PreToolUse", prune, "toolu_3", "ask"},
		{"PermissionDenied", prune, "toolu_3", ""},
		{"PostToolUse", prune, "toolu_9", ""}, // no ask for this call: nothing to record
	}
	for _, s := range steps {
		code, decision, reason := runHookPayload(t, payload(s.event, s.command, s.turn), env)
		if code != 0 || decision != s.decision {
			t.Fatalf("%s %s: exit %d, decision %q (%s), want %q", s.event, s.turn, code, decision, reason, s.decision)
		}
	}
	d, out, errb := testDeps("")
	d.getenv = func(k string) string { return env[k] }
	if code := run(context.Background(), []string{"audit", "overrides", "--json"}, d); code != 0 {
		t.Fatalf("audit overrides: %d %s", code, errb)
	}
	var s struct {
		Reviews, Asks, Approved, Refused int
		Rules                            []struct {
			Rule                     string
			Asked, Approved, Refused int
		}
	}
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if s.Reviews != 3 || s.Asks != 2 || s.Approved != 1 || s.Refused != 1 || len(s.Rules) != 1 ||
		s.Rules[0].Rule != "rule:container.prune" || s.Rules[0].Asked != 2 || s.Rules[0].Approved != 1 || s.Rules[0].Refused != 1 {
		t.Fatalf("overrides: %s", out)
	}
	out.Reset()
	if code := run(context.Background(), []string{"audit", "overrides"}, d); code != 0 || !strings.Contains(out.String(), "rule:container.prune") || !strings.Contains(out.String(), "50%") {
		t.Fatalf("audit overrides: %d\n%s", code, out)
	}
}

// TestApproverTokenCLI: a serve started with an approver token refuses guardian approve
// without GUARDIAN_APPROVER_TOKEN, and takes it with.
func TestApproverTokenCLI(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "approver")
	writeFile(t, tokenFile, "approver-token-0123456789\n")
	e := startApprovalEnv(t, "--approver-token-file", tokenFile)
	if code, out := e.guardian(t, "approve", "abcd"); code != exitUsage || !strings.Contains(out, "needs the approver token") {
		t.Fatalf("without the token: %d %s", code, out)
	}
	e.env[envApproverToken] = "approver-token-0123456789"
	if code, out := e.guardian(t, "approve", "abcd"); code != exitUsage || !strings.Contains(out, `no approval "abcd"`) {
		t.Fatalf("with the token: %d %s", code, out)
	}
}
