package guardian

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/guardianhq/guardian/riskmodel"
)

// Reviewer is a second-stage reviewer — the model — consulted only for what the rules leave
// open. It gets the rules' verdict as hints. An error never becomes allow: the pipeline turns
// it into the fallback decision.
type Reviewer interface {
	Review(ctx context.Context, req Request, rules riskmodel.Verdict) (Review, error)
}

// Review is a second reviewer's answer.
type Review struct {
	Decision   riskmodel.Decision
	Assessment riskmodel.Assessment
	// DecidedBy identifies the reviewer and its version, e.g. "model:gpt-x@exec-v1#ab12".
	DecidedBy string
}

// ReviewError lets a reviewer say which failure status applies (timeout, unavailable,
// bad_output). Errors of other types are reported as unavailable, or timeout when the deadline
// passed.
type ReviewError struct {
	Status Status
	Err    error
}

// Error reports the status and the underlying failure.
func (e *ReviewError) Error() string { return fmt.Sprintf("%s: %v", e.Status, e.Err) }

// Unwrap returns the underlying failure, so errors.Is sees through the status.
func (e *ReviewError) Unwrap() error { return e.Err }

// FallbackMode says what happens when the second reviewer fails: ask the human, or — with no
// human around — deny.
type FallbackMode string

// The fallback modes.
const (
	FallbackAsk      FallbackMode = "ask"
	FallbackHeadless FallbackMode = "headless"
)

// DefaultDeadline bounds a whole second-stage review, retries included. It is well under the
// 5 s hook timeouts hosts are usually configured with, so the host never kills guardian first.
const DefaultDeadline = 4 * time.Second

// Pipeline runs one request through the rules, then (if configured and needed) the second
// reviewer, and maps the outcome to a Result. It is safe for concurrent use.
type Pipeline struct {
	rules    *riskmodel.Analyzer
	second   Reviewer
	fallback FallbackMode
	deadline time.Duration
	ceiling  riskmodel.Level
}

// Option configures a Pipeline.
type Option func(*Pipeline)

// WithReviewer adds a second-stage reviewer for requests the rules leave at ask.
func WithReviewer(r Reviewer) Option { return func(p *Pipeline) { p.second = r } }

// WithFallback sets the fallback mode (FallbackAsk by default).
func WithFallback(m FallbackMode) Option { return func(p *Pipeline) { p.fallback = m } }

// WithDeadline sets the deadline of the second-stage review.
func WithDeadline(d time.Duration) Option { return func(p *Pipeline) { p.deadline = d } }

// WithAllowCeiling sets the highest risk level at which a second reviewer's allow stands; above
// it (by the rules' level or the reviewer's own) an allow becomes ask. Default: medium.
func WithAllowCeiling(l riskmodel.Level) Option { return func(p *Pipeline) { p.ceiling = l } }

// New builds a pipeline around the rule analyzer.
func New(rules *riskmodel.Analyzer, opts ...Option) *Pipeline {
	p := &Pipeline{rules: rules, fallback: FallbackAsk, deadline: DefaultDeadline, ceiling: riskmodel.Medium}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Rules returns the rule analyzer.
func (p *Pipeline) Rules() *riskmodel.Analyzer { return p.rules }

// Review judges one request. The error is non-nil only for a request that cannot be reviewed
// at all (malformed or too large); every reviewer failure is a Result with a failure status.
func (p *Pipeline) Review(ctx context.Context, req Request) (Result, error) {
	if err := req.Validate(); err != nil {
		return Result{}, err
	}
	v := p.ruleVerdict(ctx, req)
	ruled := Result{Decision: v.Decision, Status: StatusRule, DecidedBy: v.DecidedBy, Assessment: v.Assessment}
	if p.second == nil || v.Decision != riskmodel.Ask {
		return ruled, nil
	}
	rctx, cancel := context.WithTimeout(ctx, p.deadline)
	defer cancel()
	rev, err := p.second.Review(rctx, req, v)
	if err != nil {
		return p.fallbackResult(rctx, v, err), nil
	}
	return p.combine(v, rev), nil
}

func (p *Pipeline) ruleVerdict(ctx context.Context, req Request) riskmodel.Verdict {
	if req.Kind == riskmodel.KindMCP {
		return p.rules.MCP(ctx, *req.MCP)
	}
	return p.rules.Exec(ctx, *req.Exec)
}

// combine applies the second reviewer's answer within the limits the rules set: the rules
// only reach here at ask, a reviewer's deny stands, and its allow stands only at or below the
// ceiling by both assessments.
func (p *Pipeline) combine(rules riskmodel.Verdict, rev Review) Result {
	res := Result{Decision: riskmodel.Ask, Status: StatusOK, DecidedBy: rev.DecidedBy, Assessment: rev.Assessment}
	res.Assessment.Findings = append(append([]riskmodel.Finding(nil), rules.Assessment.Findings...), rev.Assessment.Findings...)
	switch rev.Decision {
	case riskmodel.Deny:
		res.Decision = riskmodel.Deny
	case riskmodel.Allow:
		if rules.Assessment.Level <= p.ceiling && rev.Assessment.Level >= riskmodel.Low && rev.Assessment.Level <= p.ceiling {
			res.Decision = riskmodel.Allow
		}
	}
	return res
}

func (p *Pipeline) fallbackResult(ctx context.Context, rules riskmodel.Verdict, err error) Result {
	status := StatusUnavailable
	var re *ReviewError
	switch {
	case errors.As(err, &re) && re.Status != "":
		status = re.Status
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		status = StatusTimeout
	}
	d := riskmodel.Ask
	if p.fallback == FallbackHeadless {
		d = riskmodel.Deny
	}
	a := rules.Assessment
	a.Rationale = fmt.Sprintf("The second reviewer failed (%s: %v); falling back to %s with the rule assessment. %s", status, err, d, a.Rationale)
	return Result{Decision: d, Status: status, DecidedBy: "fallback", Assessment: a}
}
