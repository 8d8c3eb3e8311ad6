// Package oneshot answers one request in a process of its own: a host's hook or the Codex
// predicate, which the host starts afresh for every tool call. It loads the user config and
// the request's project file, builds the review pipeline (rules, and the model the config
// names), opens the audit log and shares the circuit breakers with the other hook processes
// through their state file — or hands the request to a guardian serve when one runs.
//
// Both guardian and its lean hook entry (cmd/guardian-hook) answer hooks through this
// package, so they answer alike; the lean entry exists because a hook's whole cost is its
// process start, and guardian links packages (the MCP server's JSON-schema compiler, the
// Prometheus and OTLP exporters) whose initialisation alone takes longer than the review.
// Nothing here may import them, nor net/http: what needs the network (a serve, the model)
// is reached through Env.Network, which guardian fills from package online and guardian-hook
// with a hand-off to guardian. TestLeanDeps checks it.
package oneshot

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// Env is what a one-shot process takes from its surroundings. Tests substitute each part.
type Env struct {
	Getenv func(string) string
	Getwd  func() (string, error)
	// Stderr receives warnings (a torn audit log tail recovered, a breaker state file that
	// could not be updated) and the notes of a fail-safe answer.
	Stderr io.Writer
	// ConfigPath is the user config named on the command line (--config), which must exist;
	// "" means the default path, which may be missing.
	ConfigPath string
	// TracerProvider and MeterProvider receive the review's spans and metrics; nil means the
	// otel globals, which are no-ops unless something installed a provider.
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	// Fault, when set, is called at the named points of a hook exchange ("start", "decide"):
	// the end-to-end suite's fault-injection build breaks the process there. nil in the
	// binaries that ship.
	Fault func(point string)
	// Approvals is the hook's --approvals mode: "queue", "host", or "auto"/"" (see
	// approvalMode).
	Approvals string
	// Network reaches a guardian serve and the model (package online in guardian); nil: a
	// call that needs either fails, and its host gets the fail-safe reply.
	Network Network
}

// InvalidError is a config that does not load or does not make a pipeline: the CLI's exit
// status 3, where other failures are 1.
type InvalidError struct{ Err error }

func (e *InvalidError) Error() string { return e.Err.Error() }
func (e *InvalidError) Unwrap() error { return e.Err }

// invalid wraps err as an *InvalidError; nil stays nil.
func invalid(err error) error {
	if err == nil {
		return nil
	}
	return &InvalidError{Err: err}
}

// IsInvalid reports whether err is (or wraps) an *InvalidError.
func IsInvalid(err error) bool {
	var ie *InvalidError
	return errors.As(err, &ie)
}

// LoadConfig reads the user config (ConfigPath, or the default path, which may be missing)
// and merges the project file of dir into it. Every failure is an *InvalidError.
func (e Env) LoadConfig(dir string) (guardian.Config, error) {
	cfg, err := guardian.LoadUserConfig(e.ConfigPath, e.Getenv)
	if err != nil {
		return guardian.Config{}, invalid(err)
	}
	if dir != "" {
		if cfg, err = cfg.WithProject(dir); err != nil {
			return guardian.Config{}, invalid(err)
		}
	}
	return cfg, nil
}

// Pipeline builds the review pipeline for a request whose project directory is dir, with
// extra options after the config's, and returns the config it was built from.
func (e Env) Pipeline(dir string, extra ...guardian.Option) (*guardian.Pipeline, guardian.Config, error) {
	return e.pipeline(dir, nil, extra...)
}

// pipeline is Pipeline with wrap, when set, applied to the model reviewer.
func (e Env) pipeline(dir string, wrap func(guardian.Reviewer) guardian.Reviewer, extra ...guardian.Option) (*guardian.Pipeline, guardian.Config, error) {
	cfg, err := e.LoadConfig(dir)
	if err != nil {
		return nil, guardian.Config{}, err
	}
	rev, err := e.ModelReviewer(cfg)
	if err != nil {
		return nil, guardian.Config{}, invalid(err)
	}
	if rev != nil && wrap != nil {
		rev = wrap(rev)
	}
	p, err := e.NewPipeline(cfg, AgentHome(e.Getenv("HOME"), dir), rev, extra...)
	return p, cfg, err
}

// NewPipeline builds a pipeline from an effective config, the agent's home to use when the
// config sets none, the second-stage reviewer (nil: rules only) and extra options after the
// config's. It compiles the rule policy, which is why guardian serve keeps the result per
// project instead of calling this per request.
func (e Env) NewPipeline(cfg guardian.Config, home string, second guardian.Reviewer, extra ...guardian.Option) (*guardian.Pipeline, error) {
	policy := cfg.Policy
	if policy.Home == "" {
		policy.Home = home
	}
	an, err := riskmodel.New(policy)
	if err != nil {
		return nil, invalid(fmt.Errorf("config: %w", err))
	}
	opts := cfg.PipelineOptions()
	if e.TracerProvider != nil {
		opts = append(opts, guardian.WithTracerProvider(e.TracerProvider))
	}
	if e.MeterProvider != nil {
		opts = append(opts, guardian.WithMeterProvider(e.MeterProvider))
	}
	if second != nil {
		opts = append(opts, guardian.WithReviewer(second))
	}
	return guardian.New(an, append(opts, extra...)...), nil
}

// ModelReviewer builds the model reviewer the config and environment name, through
// e.Network, or returns nil when they name none (rules only). A configured model that cannot
// be built is an error, never a silent fall back to rules only.
func (e Env) ModelReviewer(cfg guardian.Config) (guardian.Reviewer, error) {
	mc, ok, err := cfg.ModelFromEnv(e.Getenv)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if !ok {
		return nil, nil
	}
	return e.network().ModelReviewer(cfg, mc)
}

// AgentHome is what "~" means in a request reviewed from the command line when the config
// sets no home: the CLI usually runs as the agent (a hook, a predicate), so its $HOME. But a
// request whose cwd lies in another user's home (/home/NAME, /Users/NAME, /root) came from
// elsewhere; then "" lets riskmodel infer the home from the cwd.
func AgentHome(envHome, cwd string) string {
	if !filepath.IsAbs(envHome) {
		return ""
	}
	envHome = filepath.Clean(envHome)
	if cwd == "" || cwd == envHome || strings.HasPrefix(cwd, envHome+string(filepath.Separator)) {
		return envHome
	}
	for _, root := range []string{"/home/", "/Users/"} {
		if strings.HasPrefix(cwd, root) {
			return ""
		}
	}
	if cwd == "/root" || strings.HasPrefix(cwd, "/root/") {
		return ""
	}
	return envHome
}
