// Package online is what a one-shot process (a hook, the Codex predicate, a review from the
// command line) reaches over the network: a guardian serve and the model of the second-stage
// review. It implements oneshot.Network for guardian.
//
// It is a package of its own so that package oneshot links no HTTP client: the lean hook
// entry (cmd/guardian-hook) answers a rules-only call without net/http, TLS, go-openai or
// the serve's client, whose initialisation would run in every hook call, and hands a call
// that needs any of them to guardian, which links this package.
package online

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/model/client"
	"github.com/guardianhq/guardian/guardian/oneshot"
	"github.com/guardianhq/guardian/guardian/server"
)

// Network reaches a guardian serve through server.Client and the model through
// client.Reviewer. The zero value is ready to use, with no telemetry.
type Network struct {
	// TracerProvider and MeterProvider receive the model client's spans and metrics; nil:
	// none.
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
}

var _ oneshot.Network = Network{}

// Serve implements oneshot.Network: a client of the serve at s.Target. With s.Local set, a
// target that cannot be made into a client, or a serve that turns out not to listen
// (server.ErrUnreachable), is reviewed through s.Local instead.
func (n Network) Serve(s oneshot.Serve) (guardian.Decider, func(), error) {
	opts := []server.ClientOption{server.WithClientToken(s.Token)}
	if s.Approvals != "" {
		opts = append(opts, server.WithApprovalMode(s.Approvals))
	}
	c, err := server.NewClient(s.Target, opts...)
	switch {
	case err != nil && s.Local != nil:
		return s.Local()
	case err != nil:
		return nil, nil, err
	case s.Local != nil:
		return fallbackDecider{remote: c, local: s.Local}, func() {}, nil
	}
	return c, func() {}, nil
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

// ModelReviewer implements oneshot.Network with NewModelClient.
func (n Network) ModelReviewer(cfg guardian.Config, mc guardian.ModelConfig) (guardian.Reviewer, error) {
	r, err := n.NewModelClient(cfg, mc)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// NewModelClient builds the model client for an endpoint with the config's prompt policy and
// the process's telemetry; extra options (an HTTP client for record/replay) come last.
func (n Network) NewModelClient(cfg guardian.Config, mc guardian.ModelConfig, extra ...client.Option) (*client.Reviewer, error) {
	opts := []client.Option{client.WithPolicy(cfg.Prompt.PromptPolicy())}
	if n.TracerProvider != nil {
		opts = append(opts, client.WithTracerProvider(n.TracerProvider))
	}
	if n.MeterProvider != nil {
		opts = append(opts, client.WithMeterProvider(n.MeterProvider))
	}
	return client.New(client.Config{BaseURL: mc.BaseURL, Model: mc.Model, APIKey: mc.APIKey, Azure: mc.Azure,
		AzureAPIVersion: mc.AzureAPIVersion, Timeout: mc.Timeout, MaxTokens: mc.MaxTokens, Seed: mc.Seed}, append(opts, extra...)...)
}
