package oneshot

import (
	"context"
	"errors"
	"fmt"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// Network is what a one-shot process reaches over the network: a guardian serve and the
// model of the second-stage review. This package links no network client, so that the lean
// hook entry (cmd/guardian-hook), which answers a host's routine tool call in a few
// milliseconds, does not pay for net/http, TLS and the model client's initialisation in
// every call. guardian sets Env.Network to package online's implementation; guardian-hook
// sets one that hands the call, unchanged, to guardian.
//
// Its methods, and the Review of the reviewer ModelReviewer returns, are called exactly where
// a call first needs the network, before anything is audited or written for the call, so an
// implementation may replace the process there.
type Network interface {
	// Serve returns a decider that asks the guardian serve s names, and a function that
	// releases what it holds.
	Serve(s Serve) (guardian.Decider, func(), error)
	// ModelReviewer returns the second-stage reviewer for the model endpoint mc, with cfg's
	// prompt policy. The pipeline calls the reviewer's Review only when the rules leave a
	// call to the model. An error of its Review that wraps an *UnreachedError ends the call with the fail-safe
	// reply; any other is a failed model review (the config's fallback, counted by the
	// model breaker).
	ModelReviewer(cfg guardian.Config, mc guardian.ModelConfig) (guardian.Reviewer, error)
}

// UnreachedError is the error of a reviewer that never reached the model: guardian-hook's,
// when it cannot hand the call to guardian. It is not a failed model review: the model was
// not asked, so its breaker, which guardian shares through the breaker state file, must not
// count it, and the call is not decided by the fallback. Local returns it instead of the
// pipeline's result, so that the host gets the fail-safe reply, as for any other failure
// to review.
type UnreachedError struct{ Err error }

func (e *UnreachedError) Error() string { return e.Err.Error() }
func (e *UnreachedError) Unwrap() error { return e.Err }

// reachedReviewer notes, in *unreached, a review that ended in an *UnreachedError. The
// pipeline calls Review synchronously from Decide, which reads *unreached after it returns.
type reachedReviewer struct {
	guardian.Reviewer
	unreached *error
}

func (r reachedReviewer) Review(ctx context.Context, req guardian.Request, v riskmodel.Verdict) (guardian.Review, error) {
	rev, err := r.Reviewer.Review(ctx, req, v)
	if ue := (*UnreachedError)(nil); errors.As(err, &ue) {
		*r.unreached = err
	}
	return rev, err
}

// Serve is a guardian serve a one-shot process delegates to.
type Serve struct {
	// Target is its address: "http://127.0.0.1:7420", "unix:///run/user/1000/guardian/guardian.sock".
	Target string
	// Token is the bearer token ($GUARDIAN_TOKEN); "" sends none.
	Token string
	// Approvals is the hook's approval mode: ApprovalQueue, ApprovalHost, or "" for the
	// serve's own.
	Approvals string
	// Local, when set, reviews in-process; it is used when nothing listens at Target (a
	// socket left behind by a serve that is gone). nil: an unreachable serve is an error.
	Local func() (guardian.Decider, func(), error)
}

// errNoNetwork is the error of an Env without a Network asked to reach one.
var errNoNetwork = errors.New("this process links no network client (oneshot.Env.Network is nil)")

// network is e.Network, or one whose every method fails when there is none.
func (e Env) network() Network {
	if e.Network == nil {
		return noNetwork{}
	}
	return e.Network
}

type noNetwork struct{}

func (noNetwork) Serve(s Serve) (guardian.Decider, func(), error) {
	return nil, nil, fmt.Errorf("cannot reach the guardian serve at %s: %w", s.Target, errNoNetwork)
}

func (noNetwork) ModelReviewer(_ guardian.Config, mc guardian.ModelConfig) (guardian.Reviewer, error) {
	return nil, fmt.Errorf("cannot reach model %q: %w", mc.Model, errNoNetwork)
}
