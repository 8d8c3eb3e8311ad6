package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
)

// envURL names the guardian serve the adapters must delegate to.
const envURL = "GUARDIAN_URL"

// decider chooses who decides a request for an adapter (hook, predicate) and returns a
// function that releases what it holds:
//
//   - $GUARDIAN_URL set: that guardian serve, and nothing else — if it does not answer, the
//     error reaches the adapter, whose host gets the fail-safe reply, rather than a review
//     under whatever configuration this process happens to see;
//   - else, when a socket exists at the serve's default path: that serve, unless nothing
//     listens there (a stale socket), which falls through to
//   - an in-process review (localDecider).
func (a *app) decider(ctx context.Context, cmd *cobra.Command, req guardian.Request, opts ...server.ClientOption) (guardian.Decider, func(), error) {
	token := a.getenv(envToken)
	opts = append([]server.ClientOption{server.WithClientToken(token)}, opts...)
	if target := a.getenv(envURL); target != "" {
		c, err := server.NewClient(target, opts...)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", envURL, err)
		}
		return c, func() {}, nil
	}
	if path := server.DefaultSocketPath(a.getenv); path != "" {
		if st, err := os.Stat(path); err == nil && st.Mode()&os.ModeSocket != 0 {
			c, err := server.NewClient("unix://"+path, opts...)
			if err == nil {
				return fallbackDecider{remote: c, local: func() (guardian.Decider, func(), error) { return a.localDecider(cmd, req) }}, func() {}, nil
			}
		}
	}
	return a.localDecider(cmd, req)
}

// fallbackDecider asks the serve on the default socket and reviews in-process only when
// nothing listens there. Any other failure of the serve (an error status, a bad reply, a
// deadline) is returned: the serve was there and did not decide, which the adapter answers
// with its fail-safe.
type fallbackDecider struct {
	remote guardian.Decider
	local  func() (guardian.Decider, func(), error)
}

// Decide implements guardian.Decider.
func (f fallbackDecider) Decide(ctx context.Context, req guardian.Request, c guardian.Caller) (guardian.Result, error) {
	res, err := f.remote.Decide(ctx, req, c)
	if !errors.Is(err, server.ErrUnreachable) {
		return res, err
	}
	d, done, lerr := f.local()
	if lerr != nil {
		return guardian.Result{}, lerr
	}
	defer done()
	return d.Decide(ctx, req, c)
}
