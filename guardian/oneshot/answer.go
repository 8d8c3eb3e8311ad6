package oneshot

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/hook"
	"github.com/guardianhq/guardian/riskmodel"
)

// Answer runs one hook protocol exchange: reads the host's payload from stdin, decides it
// within deadline, writes the reply to stdout, and returns the exit status the host reads —
// 0, or the reply's own (2 for a block): every failure has already become the protocol's
// fail-safe reply inside hook.Run. A fail-safe reply is recorded in the audit log.
func (e Env) Answer(ctx context.Context, p hook.Protocol, stdin io.Reader, stdout io.Writer, deadline time.Duration) int {
	e.fault("start")
	r := hook.Run(ctx, p, hook.Input{Stdin: stdin, Getenv: e.Getenv, Record: e.recordOutcome}, e.decide, deadline)
	if len(r.Stdout) > 0 {
		if _, err := stdout.Write(r.Stdout); err != nil {
			// The host cannot read our answer: block (exit 2 with a reason) rather than let a
			// half-written reply fail open.
			fmt.Fprintf(e.Stderr, "guardian: cannot write the hook reply: %v\n", err)
			return 2
		}
	}
	if r.Stderr != "" {
		fmt.Fprint(e.Stderr, r.Stderr)
	}
	if r.Failsafe != "" {
		e.auditFailsafe(ctx, r)
	}
	return r.Exit
}

func (e Env) fault(point string) {
	if e.Fault != nil {
		e.Fault(point)
	}
}

// decide is how a hook decides: through a reachable guardian serve, else in-process.
func (e Env) decide(ctx context.Context, c hook.Call) (guardian.Result, error) {
	e.fault("decide")
	d, done, err := e.Decider(ctx, *c.Request, e.approvalMode(c))
	if err != nil {
		return guardian.Result{}, err
	}
	defer done()
	return d.Decide(ctx, *c.Request, c.Caller)
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
// does not record a decision it reaches after the deadline (see Local).
func (e Env) auditFailsafe(ctx context.Context, r hook.Reply) {
	if r.Call == nil || r.Call.Request == nil {
		return
	}
	c := *r.Call
	done := make(chan error, 1)
	go func() {
		cfg, err := e.LoadConfig(e.RequestDir(*c.Request))
		if err != nil {
			// The config is what failed: record the answer in the default log, where
			// `guardian audit` looks when the config does not load, rather than nowhere.
			cfg = guardian.DefaultConfig()
		}
		log, err := e.OpenAudit(cfg)
		if err != nil {
			done <- err
			return
		}
		defer log.Close()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), failsafeAuditBudget)
		defer cancel()
		done <- log.Audit(ctx, guardian.AuditEntry{Time: time.Now(), Request: *c.Request, Caller: c.Caller, Result: FailsafeResult(r.Failsafe)})
	}()
	timer := time.NewTimer(failsafeAuditBudget)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			fmt.Fprintf(e.Stderr, "guardian: the fail-safe answer is not in the audit log: %v\n", err)
		}
	case <-timer.C:
		fmt.Fprintf(e.Stderr, "guardian: the fail-safe answer is not in the audit log: not written within %s\n", failsafeAuditBudget)
	}
}

// FailsafeResult is the audit record's result for a fail-safe reply: ask (the host's own
// prompt or reviewer decides), by the fallback, with the reason as the rationale. The risk is
// unknown, so it is recorded as high, as riskmodel rates a request it could not analyse.
func FailsafeResult(why string) guardian.Result {
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
