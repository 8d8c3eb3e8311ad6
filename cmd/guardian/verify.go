package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/hook"
)

// verifyFlags are the flags of `guardian verify`.
type verifyFlags struct {
	settings  string
	codexHome string
}

func (a *app) verifyCmd() *cobra.Command {
	var f verifyFlags
	c := &cobra.Command{
		Use:   "verify [--settings FILE] [--codex-home DIR]",
		Short: "Check that each installed hook really answers as expected",
		Long: `Check each installed guardian hook the way its host runs it: find the hook in the host's
config (Claude Code settings, Codex hooks.json), check its matcher, timeout and — for Codex —
the trust entry without which Codex skips it silently, then run its command through /bin/sh
with canary payloads from the main agent: a harmless command must be allowed (or get the
host's ask when [agents] does not let guardian approve for the main agent), a destructive one
denied, and a malformed payload must get the fail-safe reply. Canary decisions are audited with session
"guardian-verify".

Exit status 0 when every installed hook passes, 1 when any check fails or no hook is
installed.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.verify(cmd, f) },
	}
	c.Flags().StringVar(&f.settings, "settings", "", "Claude Code settings `FILE` (default ~/.claude/settings.json)")
	c.Flags().StringVar(&f.codexHome, "codex-home", "", "Codex home `DIR` (default $CODEX_HOME, else ~/.codex)")
	return c
}

// verifyReport collects check lines and whether any failed.
type verifyReport struct {
	a      *app
	failed bool
	// reviewDeadline is the configured review deadline, which must fit in a hook's.
	reviewDeadline time.Duration
	// agents is the configured agent policy, which decides whether the canaries' main agent
	// may be approved automatically.
	agents guardian.AgentPolicy
}

func (r *verifyReport) check(ok bool, format string, args ...any) {
	mark := "ok  "
	if !ok {
		mark, r.failed = "FAIL", true
	}
	fmt.Fprintf(r.a.stdout, "  %s  %s\n", mark, fmt.Sprintf(format, args...))
}

func (r *verifyReport) note(format string, args ...any) {
	fmt.Fprintf(r.a.stdout, "  --    %s\n", fmt.Sprintf(format, args...))
}

// canary is one payload sent through an installed hook and the reply it must get.
type canary struct {
	name    string
	payload string
	want    string // "allow", "deny", "failsafe"
}

func (a *app) verify(cmd *cobra.Command, f verifyFlags) error {
	ctx := cmd.Context()
	cfg, err := a.loadConfig(cmd, "")
	if err != nil {
		return err
	}
	r := &verifyReport{a: a, reviewDeadline: cfg.Review.Deadline, agents: cfg.Agents}
	project, err := os.MkdirTemp("", "guardian-verify-")
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer os.RemoveAll(project)
	installed := 0

	settings := f.settings
	if settings == "" && filepath.IsAbs(a.getenv("HOME")) {
		settings = filepath.Join(a.getenv("HOME"), ".claude", "settings.json")
	}
	if settings != "" {
		n, err := a.verifyHost(ctx, r, "claude", settings, hook.EventPreToolUse, project)
		if err != nil {
			return err
		}
		installed += n
	}
	if home, err := a.codexHome(f.codexHome); err == nil {
		n, err := a.verifyHost(ctx, r, "codex", filepath.Join(home, "hooks.json"), hook.EventPermissionRequest, project)
		if err != nil {
			return err
		}
		installed += n
	}
	if installed == 0 {
		return &exitError{code: exitInternal, err: errors.New("verify: no guardian hook is installed; run guardian hook install claude|codex --write")}
	}
	if r.failed {
		return &exitError{code: exitInternal, err: errors.New("verify: some checks failed (see FAIL above)")}
	}
	return nil
}

// verifyHost checks the guardian hooks in one host config file and returns how many it found.
func (a *app) verifyHost(ctx context.Context, r *verifyReport, host, path, event, project string) (int, error) {
	content, err := readOptional(path)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(a.stdout, "%s  %s\n", host, path)
	if content == nil {
		r.note("not installed (no such file)")
		return 0, nil
	}
	hooks, err := hook.FindInstalled(content, event, host)
	if err != nil {
		r.check(false, "%s does not parse: %v", path, err)
		return 1, nil
	}
	if len(hooks) == 0 {
		r.note("no guardian %s hook installed", event)
		return 0, nil
	}
	r.check(len(hooks) == 1, "%d guardian %s hook(s) installed (want exactly one: each would review every call)", len(hooks), event)
	for _, h := range hooks {
		a.verifyHook(ctx, r, host, path, h, project)
	}
	return len(hooks), nil
}

func (a *app) verifyHook(ctx context.Context, r *verifyReport, host, path string, h hook.Installed, project string) {
	fmt.Fprintf(a.stdout, "  hook: %s (matcher %q, timeout %ds)\n", h.Command, h.Matcher, h.Timeout)
	tools := []string{"Bash", "mcp__example__tool"}
	if host == "claude" {
		tools = append(tools, "Write", "Edit")
	}
	var missed []string
	for _, tool := range tools {
		if !h.Matches(tool) {
			missed = append(missed, tool)
		}
	}
	r.check(len(missed) == 0, "matcher covers %s%s", strings.Join(tools, ", "), missing(missed))
	timeout := time.Duration(h.Timeout) * time.Second
	if h.Timeout == 0 {
		timeout = map[string]time.Duration{"claude": 60 * time.Second, "codex": 600 * time.Second}[host]
	}
	deadline, err := h.Deadline()
	if err != nil {
		r.check(false, "%v", err)
		return
	}
	r.check(deadline+3*time.Second <= timeout, "hook deadline %s leaves at least 3 s before the host timeout %s (a killed hook fails open)", deadline, timeout)
	if r.reviewDeadline > 0 {
		r.check(r.reviewDeadline < deadline, "review deadline %s is below the hook deadline %s", r.reviewDeadline, deadline)
	}
	if host == "codex" {
		a.verifyCodexTrust(r, path, h)
	}
	for _, c := range canaries(host, project, r.agents) {
		start := time.Now()
		out, code, err := runHookCommand(ctx, h.Command, c.payload, project, timeout)
		took := time.Since(start).Round(time.Millisecond)
		if err != nil {
			r.check(false, "canary %s: %v", c.name, err)
			continue
		}
		got := interpretReply(host, out, code)
		ok := got == c.want || (c.want == "failsafe" && (got == "ask" || got == "blocked" || got == "no verdict"))
		r.check(ok, "canary %s → %s (want %s, %s)", c.name, got, c.want, took)
	}
}

func (a *app) verifyCodexTrust(r *verifyReport, hooksPath string, h hook.Installed) {
	configPath := filepath.Join(filepath.Dir(hooksPath), "config.toml")
	config, err := readOptional(configPath)
	if err != nil {
		r.check(false, "%v", err)
		return
	}
	key := hook.CodexTrustKey(hooksPath, h.Group, h.Index)
	want, err := hook.CodexTrustHash(h.Matcher, h.Command, h.Timeout)
	if err != nil {
		r.check(false, "%v", err)
		return
	}
	got, err := hook.CodexTrustedHash(config, key)
	switch {
	case err != nil:
		r.check(false, "%s: %v", configPath, err)
	case got == "":
		r.check(false, "trusted: no [hooks.state.%q] in %s — Codex skips this hook silently; run guardian hook install codex --write", key, configPath)
	case got != want:
		r.check(false, "trusted: the trusted_hash in %s is for another hook (the hook changed since it was trusted) — Codex skips it silently; run guardian hook install codex --write", configPath)
	default:
		r.check(true, "trusted by %s", configPath)
	}
}

func missing(tools []string) string {
	if len(tools) == 0 {
		return ""
	}
	return " — misses " + strings.Join(tools, ", ")
}

// canaries are the payloads verify sends: one the rules allow, one they deny, one malformed.
// They come from the main agent (Codex: its transcript is named after the session, as the
// main thread's is), so when the agent policy does not let guardian approve for the main
// agent, the allowed command must come back as the host's "ask" instead.
func canaries(host, project string, agents guardian.AgentPolicy) []canary {
	event, held := hook.EventPreToolUse, "ask"
	if host == "codex" {
		event, held = hook.EventPermissionRequest, "no verdict"
	}
	payload := func(command string) string {
		b, _ := json.Marshal(map[string]any{
			"session_id": "guardian-verify", "transcript_path": filepath.Join(project, "guardian-verify.jsonl"),
			"cwd": project, "hook_event_name": event, "tool_name": "Bash",
			"tool_input": map[string]any{"command": command, "description": "guardian verify canary"}, "tool_use_id": "guardian-verify",
		})
		return string(b)
	}
	ls := canary{"`ls`", payload("ls"), "allow"}
	if ok, _ := agents.Grants(guardian.Caller{Host: host, AgentRole: guardian.AgentRoleMain}); !ok {
		ls = canary{"`ls` from the main agent, whose allows [agents] holds", payload("ls"), held}
	}
	return []canary{
		ls,
		{"`rm -rf ~/`", payload("rm -rf ~/"), "deny"},
		{"malformed payload", "{not json", "failsafe"},
	}
}

// runHookCommand runs a hook command as the hosts do — /bin/sh -c COMMAND in the project
// directory with the payload on stdin — and returns its stdout and exit status.
func runHookCommand(ctx context.Context, command, payload, dir string, timeout time.Duration) ([]byte, int, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, 0, fmt.Errorf("no answer within the host timeout %s (the host would run the tool)", timeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return nil, 0, err
	}
	return out.Bytes(), cmd.ProcessState.ExitCode(), nil
}

// interpretReply says what the host makes of a hook's reply, as docs/hooks.md records:
// "allow", "deny", "ask", "blocked" (exit 2), "no verdict" (Codex: no output), or
// "runs (fails open: …)" for every reply the host would let the tool run on.
func interpretReply(host string, out []byte, code int) string {
	if code == 2 {
		if host == "codex" {
			return "deny"
		}
		return "blocked"
	}
	if code != 0 {
		return fmt.Sprintf("runs (fails open: exit status %d)", code)
	}
	if len(bytes.TrimSpace(out)) == 0 {
		if host == "codex" {
			return "no verdict"
		}
		return "no opinion"
	}
	var reply struct {
		HookSpecificOutput struct {
			HookEventName      string `json:"hookEventName"`
			PermissionDecision string `json:"permissionDecision"`
			Decision           struct {
				Behavior string `json:"behavior"`
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&reply); err != nil || dec.More() {
		return "runs (fails open: the reply is not one JSON object)"
	}
	o := reply.HookSpecificOutput
	switch {
	case host == "claude" && o.HookEventName == hook.EventPreToolUse:
		switch o.PermissionDecision {
		case "allow", "deny", "ask":
			return o.PermissionDecision
		}
		return fmt.Sprintf("runs (fails open: permissionDecision %q)", o.PermissionDecision)
	case o.HookEventName == hook.EventPermissionRequest:
		switch o.Decision.Behavior {
		case "allow", "deny":
			return o.Decision.Behavior
		}
		return fmt.Sprintf("no verdict (behavior %q)", o.Decision.Behavior)
	}
	return fmt.Sprintf("runs (fails open: hookEventName %q)", o.HookEventName)
}
