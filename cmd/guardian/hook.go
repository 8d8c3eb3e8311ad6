package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/hook"
	"github.com/guardianhq/guardian/riskmodel"
)

func (a *app) hookCmd() *cobra.Command {
	var list strings.Builder
	for _, h := range hook.Hosts() {
		fmt.Fprintf(&list, "  guardian hook %-10s %s\n", h.Name, h.Summary)
	}
	c := &cobra.Command{
		Use:   "hook",
		Short: "Answer an agent host's tool hook (" + strings.Join(hostNames(), ", ") + ") or install one",
		Long: `Answer an agent host's tool hook: read the host's JSON payload on stdin, review the tool
call, and write the reply the host acts on.

` + list.String() + `  guardian hook install    print or write the host configuration that runs these
  guardian hook uninstall  remove it again

When anything goes wrong — a malformed payload, a broken config, a reviewer past the
deadline, a guardian serve that is down — the host gets its fail-safe reply ("ask", "no
verdict" or a block; docs/hooks.md), never allow; and the command never exits with a status
the host would read as "run the tool".

When a guardian serve is reachable ($GUARDIAN_URL, or its default socket) the review is
delegated to it, so its cache, breakers and audit log are shared; otherwise the hook
reviews in-process and appends to the audit log itself.`,
		Args: cobra.ArbitraryArgs,
		RunE: groupRunE,
	}
	for _, h := range hook.Hosts() {
		c.AddCommand(a.hookRunCmd(h.Name, "Answer a "+h.Summary+" hook", h.Protocol))
	}
	c.AddCommand(a.hookInstallCmd(), a.hookUninstallCmd())
	return c
}

// hostNames lists the names of the supported hosts.
func hostNames() []string {
	var names []string
	for _, h := range hook.Hosts() {
		names = append(names, h.Name)
	}
	return names
}

// hookRunCmd is `guardian hook HOST`.
func (a *app) hookRunCmd(name, short string, p hook.Protocol) *cobra.Command {
	var (
		deadline time.Duration
		monitor  bool
	)
	c := &cobra.Command{
		Use:   name + " [--deadline 8s] [--monitor]",
		Short: short,
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if monitor {
				return a.answerHook(cmd, hook.Monitor(p), deadline)
			}
			return a.answerHook(cmd, p, deadline)
		},
	}
	c.Flags().DurationVar(&deadline, "deadline", hook.DefaultDeadline, "answer within `DURATION`, whatever happens (keep it below the host's hook timeout)")
	c.Flags().BoolVar(&monitor, "monitor", false, "monitor mode: review and record every call in the audit log, but give the host no verdict (its own permissions decide)")
	return c
}

func (a *app) predicateCmd() *cobra.Command {
	var deadline time.Duration
	c := &cobra.Command{
		Use:   "predicate [--deadline 8s]",
		Short: "Answer the Codex approval-predicate protocol: print allow, deny or ask",
		Long: `Answer the Codex approval-predicate protocol: review the shell command in $CODEX_COMMAND
(run in $CODEX_CONTAINER_CWD, else $CODEX_HOST_CWD; session $CODEX_SESSION_ID) and print
exactly allow, deny or ask. Whatever goes wrong, it prints ask.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.answerHook(cmd, hook.Predicate{}, deadline)
		},
	}
	c.Flags().DurationVar(&deadline, "deadline", hook.DefaultDeadline, "answer within `DURATION`, whatever happens")
	return c
}

// answerHook runs one hook protocol exchange and writes its reply. The only exit statuses are
// 0 and the reply's own (2 for a block): every failure has already become the protocol's
// fail-safe reply inside hook.Run.
func (a *app) answerHook(cmd *cobra.Command, p hook.Protocol, deadline time.Duration) error {
	a.injectFault("start")
	r := hook.Run(cmd.Context(), p, hook.Input{Stdin: cmd.InOrStdin(), Getenv: a.getenv}, a.hookDecide(cmd), deadline)
	if len(r.Stdout) > 0 {
		if _, err := a.stdout.Write(r.Stdout); err != nil {
			// The host cannot read our answer: block (exit 2 with a reason) rather than let a
			// half-written reply fail open.
			fmt.Fprintf(a.stderr, "guardian: cannot write the hook reply: %v\n", err)
			return &exitError{code: 2}
		}
	}
	if r.Stderr != "" {
		fmt.Fprint(a.stderr, r.Stderr)
	}
	if r.Failsafe != "" {
		a.auditFailsafe(cmd, r)
	}
	if r.Exit != 0 {
		return &exitError{code: r.Exit}
	}
	return nil
}

// failsafeAuditBudget bounds recording a fail-safe answer, which happens after the reply is
// written but before the process exits: the host waits for the exit, and a host that times
// out runs the tool. It fits in the 5 s the installers leave between --deadline and the
// host's timeout.
const failsafeAuditBudget = time.Second

// auditFailsafe records a fail-safe reply in the audit log, so that the log says what the host
// was told even when no review finished. It is best effort and bounded: a call that could not
// be parsed has no request to record; when the config is what failed, the record goes to the
// default log; when the log is what failed, it cannot be written — then stderr says so. The abandoned in-process review
// does not record a decision it reaches after the deadline (see localDecider).
func (a *app) auditFailsafe(cmd *cobra.Command, r hook.Reply) {
	if r.Call == nil || r.Call.Request == nil {
		return
	}
	c := *r.Call
	done := make(chan error, 1)
	go func() {
		cfg, err := a.loadConfig(cmd, a.requestDir(*c.Request))
		if err != nil {
			// The config is what failed: record the answer in the default log, where
			// `guardian audit` looks when the config does not load, rather than nowhere.
			cfg = guardian.DefaultConfig()
		}
		log, err := a.openAudit(cmd, cfg)
		if err != nil {
			done <- err
			return
		}
		defer log.Close()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(cmd.Context()), failsafeAuditBudget)
		defer cancel()
		done <- log.Audit(ctx, guardian.AuditEntry{Time: time.Now(), Request: *c.Request, Caller: c.Caller, Result: failsafeResult(r.Failsafe)})
	}()
	timer := time.NewTimer(failsafeAuditBudget)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			fmt.Fprintf(a.stderr, "guardian: the fail-safe answer is not in the audit log: %v\n", err)
		}
	case <-timer.C:
		fmt.Fprintf(a.stderr, "guardian: the fail-safe answer is not in the audit log: not written within %s\n", failsafeAuditBudget)
	}
}

// failsafeResult is the audit record's result for a fail-safe reply: ask (the host's own
// prompt or reviewer decides), by the fallback, with the reason as the rationale. The risk is
// unknown, so it is recorded as high, as riskmodel rates a request it could not analyse.
func failsafeResult(why string) guardian.Result {
	why = riskmodel.RedactSecrets(why)
	return guardian.Result{
		Decision:  riskmodel.Ask,
		Status:    guardian.StatusFailsafe,
		DecidedBy: "fallback",
		Assessment: riskmodel.Assessment{
			Summary:   "No review finished; the host was given its fail-safe answer.",
			Level:     riskmodel.High,
			Category:  riskmodel.CatNone,
			Rationale: "guardian could not decide: " + why,
		},
	}
}

// hookDecide is how a hook decides: through a reachable guardian serve, else in-process.
func (a *app) hookDecide(cmd *cobra.Command) hook.DecideFunc {
	return func(ctx context.Context, c hook.Call) (guardian.Result, error) {
		a.injectFault("decide")
		d, done, err := a.decider(ctx, cmd, *c.Request)
		if err != nil {
			return guardian.Result{}, err
		}
		defer done()
		return d.Decide(ctx, *c.Request, c.Caller)
	}
}

// requestDir is the project directory of a request: an exec request's cwd, else the working
// directory (MCP requests carry none).
func (a *app) requestDir(req guardian.Request) string {
	if req.Kind == riskmodel.KindExec && req.Exec.Cwd != "" {
		return req.Exec.Cwd
	}
	if wd, err := a.getwd(); err == nil {
		return wd
	}
	return ""
}

// localDecider reviews in-process, as a one-shot process: the pipeline of the request's
// project, the audit log, and the breakers shared with other hook processes through the
// breaker state file. Failing to update the breaker state does not withhold the decision;
// it is logged.
func (a *app) localDecider(cmd *cobra.Command, req guardian.Request) (guardian.Decider, func(), error) {
	bf := hook.BreakerFile{Path: hook.DefaultBreakerFile(a.getenv)}
	saved, err := bf.Load()
	if err != nil {
		return nil, nil, err
	}
	p, cfg, err := a.pipelineConfig(cmd, a.requestDir(req), guardian.WithSavedBreakers(saved))
	if err != nil {
		return nil, nil, err
	}
	log, err := a.openAudit(cmd, cfg)
	if err != nil {
		return nil, nil, err
	}
	// A result that comes after the hook's deadline is not recorded: the host has already
	// been given the fail-safe answer, which auditFailsafe records instead.
	inTime := guardian.DeciderFunc(func(ctx context.Context, req guardian.Request, c guardian.Caller) (guardian.Result, error) {
		res, err := p.Decide(ctx, req, c)
		if err == nil && ctx.Err() != nil {
			return guardian.Result{}, fmt.Errorf("decided after the hook's deadline: %w", ctx.Err())
		}
		return res, err
	})
	audited := guardian.Audited(inTime, log, time.Now)
	d := guardian.DeciderFunc(func(ctx context.Context, req guardian.Request, c guardian.Caller) (guardian.Result, error) {
		res, err := audited.Decide(ctx, req, c)
		if err != nil {
			return res, err
		}
		if err := bf.Update(func(s guardian.SavedBreakers) guardian.SavedBreakers { return p.MergeBreakers(s, res) }); err != nil {
			slog.New(slog.NewTextHandler(a.stderr, nil)).Warn("breaker state not updated", "err", err)
		}
		return res, nil
	})
	return d, func() { log.Close(); p.Close() }, nil
}
