package oneshot

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/hook"
	"github.com/guardianhq/guardian/riskmodel"
)

// The environment variables that point a one-shot process at a guardian serve.
const (
	EnvURL   = "GUARDIAN_URL"   // the serve the process must delegate to
	EnvToken = "GUARDIAN_TOKEN" // its bearer token
)

// Decider chooses who decides req and returns a function that releases what it holds:
//
//   - $GUARDIAN_URL set: that guardian serve, and nothing else — if it does not answer, the
//     error reaches the caller, whose host gets the fail-safe reply, rather than a review
//     under whatever configuration this process happens to see;
//   - else, when a socket exists at the serve's default path: that serve, unless nothing
//     listens there (a stale socket), which falls through to
//   - an in-process review (Local).
//
// A serve is reached through e.Network; approvals is the hook's approval mode for it
// ("queue", "host", or "" for the serve's own: see approvalMode).
func (e Env) Decider(ctx context.Context, req guardian.Request, approvals string) (guardian.Decider, func(), error) {
	s := Serve{Token: e.Getenv(EnvToken), Approvals: approvals}
	if s.Target = e.Getenv(EnvURL); s.Target != "" {
		d, done, err := e.network().Serve(s)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", EnvURL, err)
		}
		return d, done, nil
	}
	if path := guardian.DefaultSocketPath(e.Getenv); path != "" {
		if st, err := os.Stat(path); err == nil && st.Mode()&os.ModeSocket != 0 {
			s.Target = "unix://" + path
			s.Local = func() (guardian.Decider, func(), error) { return e.Local(req) }
			return e.network().Serve(s)
		}
	}
	return e.Local(req)
}

// RequestDir is the project directory of a request: an exec request's cwd, else the working
// directory (MCP requests carry none).
func (e Env) RequestDir(req guardian.Request) string {
	if req.Kind == riskmodel.KindExec && req.Exec.Cwd != "" {
		return req.Exec.Cwd
	}
	if wd, err := e.Getwd(); err == nil {
		return wd
	}
	return ""
}

// Local reviews in-process, as a one-shot process: the pipeline of the request's project,
// the audit log, and the breakers shared with other hook processes through the breaker
// state file. Failing to update the breaker state does not withhold the decision; it is
// logged.
func (e Env) Local(req guardian.Request) (guardian.Decider, func(), error) {
	bf := hook.BreakerFile{Path: hook.DefaultBreakerFile(e.Getenv)}
	saved, err := bf.Load()
	if err != nil {
		return nil, nil, err
	}
	// A model review that was never reached (see UnreachedError) ends the call with the
	// fail-safe reply, before anything is audited or the breakers are saved.
	var unreached error
	notice := func(r guardian.Reviewer) guardian.Reviewer { return reachedReviewer{r, &unreached} }
	p, cfg, err := e.pipeline(e.RequestDir(req), notice, guardian.WithSavedBreakers(saved))
	if err != nil {
		return nil, nil, err
	}
	log, err := e.OpenAudit(cfg)
	if err != nil {
		return nil, nil, err
	}
	// A result that comes after the hook's deadline is not recorded: the host has already
	// been given the fail-safe answer, which the fail-safe record stands for instead.
	inTime := guardian.DeciderFunc(func(ctx context.Context, req guardian.Request, c guardian.Caller) (guardian.Result, error) {
		res, err := p.Decide(ctx, req, c)
		if err == nil && unreached != nil {
			return guardian.Result{}, unreached
		}
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
			slog.New(slog.NewTextHandler(e.Stderr, nil)).Warn("breaker state not updated", "err", err)
		}
		return res, nil
	})
	return d, func() { log.Close(); p.Close() }, nil
}
