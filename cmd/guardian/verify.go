package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/hook"
)

func (a *app) verifyCmd() *cobra.Command {
	flags := map[string]*string{}
	var use []string
	for _, h := range hook.Hosts() {
		use = append(use, "[--"+h.ConfigFlag+" PATH]")
	}
	c := &cobra.Command{
		Use:   "verify " + strings.Join(use, " "),
		Short: "Check that each installed hook really answers as expected",
		Long: `Check each installed guardian hook the way its host runs it: find the hook in every host's
config (` + strings.Join(hostNames(), ", ") + `), check its matcher, timeout and — for Codex — the trust
entry without which Codex skips it silently, then run its command through /bin/sh with canary
payloads from the main agent: a harmless command must be allowed (or get the host's answer to
guardian's ask when [agents] does not let guardian approve for the main agent), a destructive
one denied, and a malformed payload must get the fail-safe reply. Canary decisions are
audited with session "guardian-verify".

Exit status 0 when every installed hook passes, 1 when any check fails or no hook is
installed.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.verify(cmd, flags) },
	}
	for _, h := range hook.Hosts() {
		flags[h.Name] = c.Flags().String(h.ConfigFlag, "", h.ConfigUsage)
	}
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
	want    string // "allow", "deny", "failsafe", or the host's answer to guardian's ask
}

func (a *app) verify(cmd *cobra.Command, flags map[string]*string) error {
	ctx := cmd.Context()
	cfg, cfgErr := a.diagnosticConfig(cmd)
	r := &verifyReport{a: a, reviewDeadline: cfg.Review.Deadline, agents: cfg.Agents}
	if cfgErr != nil {
		// Still run every check: the canaries then show the fail-safe answers the hosts get.
		fmt.Fprintln(a.stdout, "config")
		r.check(false, "%s", strings.ReplaceAll(brokenConfigNote(cfgErr), "\n", "\n        "))
	}
	project, err := os.MkdirTemp("", "guardian-verify-")
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer os.RemoveAll(project)
	installed := 0
	for _, h := range hook.Hosts() {
		paths, err := h.Paths(*flags[h.Name], a.getenv)
		if err != nil {
			continue // no config location for this host: nothing can be installed there
		}
		n, err := a.verifyHost(ctx, r, h, paths, project)
		if err != nil {
			return err
		}
		installed += n
	}
	if installed == 0 {
		return &exitError{code: exitInternal, err: fmt.Errorf("verify: no guardian hook is installed; run guardian hook install %s --write", strings.Join(hostNames(), "|"))}
	}
	if r.failed {
		return &exitError{code: exitInternal, err: errors.New("verify: some checks failed (see FAIL above)")}
	}
	return nil
}

// verifyHost checks the guardian hooks in one host's config files and returns how many it
// found.
func (a *app) verifyHost(ctx context.Context, r *verifyReport, h hook.Host, paths []string, project string) (int, error) {
	files := make([]hook.File, len(paths))
	for i, p := range paths {
		content, err := readOptional(p)
		if err != nil {
			return 0, err
		}
		files[i] = hook.File{Path: p, Content: content}
	}
	fmt.Fprintf(a.stdout, "%s  %s\n", h.Name, paths[0])
	if files[0].Content == nil {
		r.note("not installed (no such file)")
		return 0, nil
	}
	hooks, err := h.Verify.Find(files)
	if err != nil {
		r.check(false, "%s does not parse: %v", paths[0], err)
		return 1, nil
	}
	if len(hooks) == 0 {
		r.note("no guardian %s hook installed", h.Verify.Event)
		return 0, nil
	}
	r.check(len(hooks) == 1, "%d guardian %s hook(s) installed (want exactly one: each would review every call)", len(hooks), h.Verify.Event)
	for _, ih := range hooks {
		a.verifyHook(ctx, r, h, files, ih, project)
	}
	return len(hooks), nil
}

func (a *app) verifyHook(ctx context.Context, r *verifyReport, host hook.Host, files []hook.File, h hook.Installed, project string) {
	v := host.Verify
	timeout := v.Timeout(h)
	fmt.Fprintf(a.stdout, "  hook: %s (matcher %q, timeout %s)\n", h.Command, h.Matcher, timeout)
	var missed []string
	for _, tool := range v.Tools {
		if !h.Matches(tool) {
			missed = append(missed, tool)
		}
	}
	r.check(len(missed) == 0, "matcher covers %s%s", strings.Join(v.Tools, ", "), missing(missed))
	deadline, err := h.Deadline()
	if err != nil {
		r.check(false, "%v", err)
		return
	}
	r.check(deadline+3*time.Second <= timeout, "hook deadline %s leaves at least 3 s before the host timeout %s (a killed hook fails open)", deadline, timeout)
	if r.reviewDeadline > 0 {
		r.check(r.reviewDeadline < deadline, "review deadline %s is below the hook deadline %s", r.reviewDeadline, deadline)
	}
	if v.Check != nil {
		for _, f := range v.Check(files, h) {
			r.check(f.OK, "%s", f.Message)
		}
	}
	cs := canaries(host, project, r.agents)
	if h.Monitor() {
		// Every canary must come back as no verdict: the host decides, guardian only records.
		nv := hook.NoVerdict(host.Protocol, v.Event)
		silent := v.Interpret(nv.Stdout, nv.Exit)
		r.note("MONITOR MODE: guardian records every decision in the audit log but gives %s no verdict — nothing is enforced; install again without --monitor to enforce", host.Title)
		for i := range cs {
			cs[i].want = silent
		}
	}
	run := h.Command
	if h.Wrapper != "" {
		run = h.Wrapper // what the host runs: guardian's fail-closed wrapper around the command
	}
	for _, c := range cs {
		start := time.Now()
		out, code, err := runHookCommand(ctx, run, c.payload, project, timeout)
		took := time.Since(start).Round(time.Millisecond)
		if err != nil {
			r.check(false, "canary %s: %v", c.name, err)
			continue
		}
		got := v.Interpret(out, code)
		ok := got == c.want || (c.want == "failsafe" && (got == "ask" || got == "blocked" || got == "no verdict" || got == "deny"))
		r.check(ok, "canary %s → %s (want %s, %s)", c.name, got, c.want, took)
	}
}

func missing(tools []string) string {
	if len(tools) == 0 {
		return ""
	}
	return " — misses " + strings.Join(tools, ", ")
}

// canaries are the payloads verify sends: one the rules allow, one they deny, one malformed.
// They come from the main agent, so when the agent policy does not let guardian approve for
// the main agent, the allowed command must come back as the host's answer to guardian's ask.
func canaries(h hook.Host, project string, agents guardian.AgentPolicy) []canary {
	v := h.Verify
	ls := canary{"`ls`", v.Payload("ls", project), "allow"}
	if ok, _ := agents.Grants(guardian.Caller{Host: h.Name, AgentRole: guardian.AgentRoleMain}); !ok {
		ls = canary{"`ls` from the main agent, whose allows [agents] holds", v.Payload("ls", project), v.Held}
	}
	return []canary{
		ls,
		{"`rm -rf ~/`", v.Payload("rm -rf ~/", project), "deny"},
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
