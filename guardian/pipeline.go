package guardian

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/guardianhq/guardian/riskmodel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
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
	// Usage is the reviewer's token usage, zero for reviewers that do not spend tokens.
	Usage Usage
	// Reasoning is the model's reasoning before its verdict, secrets redacted and capped by
	// the reviewer, for the audit record; empty when the model gave none.
	Reasoning string
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
// reviewer, and maps the outcome to a Result. Around that core sit an optional decision cache,
// two circuit breakers (denials and model health) and otel metrics, all owned by the Pipeline:
// there is no package-level state, so two pipelines never influence each other. It is safe for
// concurrent use.
type Pipeline struct {
	rules           *riskmodel.Analyzer
	second          Reviewer
	fallback        FallbackMode
	deadline        time.Duration
	ceiling         riskmodel.Level
	unsupportedDeny riskmodel.Decision
	agents          AgentPolicy
	now             func() time.Time

	// Configuration gathered by options; the stateful parts are built in New once every option
	// (the clock in particular) is known.
	denialsCfg    *DenialsBreakerConfig
	modelCfg      ModelBreakerConfig
	saved         *SavedBreakers // WithSavedBreakers: the breakers' starting state
	cacheTTL      time.Duration
	cacheSize     int
	cacheVersion  string
	meterProvider metric.MeterProvider
	tracer        trace.Tracer
	denials       *denialsBreaker // nil: disabled
	model         *modelBreaker   // nil: disabled
	cache         *decisionCache  // nil: disabled
	metrics       *pipelineMetrics
	store         StateStore // nil: the breakers and the cache live in memory only
	storeScope    string
}

// Option configures a Pipeline.
type Option func(*Pipeline)

// WithReviewer adds a second-stage reviewer for requests the rules leave at ask.
func WithReviewer(r Reviewer) Option { return func(p *Pipeline) { p.second = r } }

// WithFallback sets the fallback mode (FallbackAsk by default). It also decides what an open
// circuit breaker answers: ask, or deny in headless mode where no human can be asked.
func WithFallback(m FallbackMode) Option { return func(p *Pipeline) { p.fallback = m } }

// WithDeadline sets the deadline of the second-stage review.
func WithDeadline(d time.Duration) Option { return func(p *Pipeline) { p.deadline = d } }

// WithAllowCeiling sets the highest risk level at which a second reviewer's allow stands; above
// it (by the rules' level or the reviewer's own) an allow becomes ask. Default: medium.
func WithAllowCeiling(l riskmodel.Level) Option { return func(p *Pipeline) { p.ceiling = l } }

// WithUnsupportedDeny sets what a second reviewer's deny becomes when nothing backs it at high
// risk: the reviewer rated the request low or medium (or gave no valid level) and no rule
// finding is at high or above. Default Deny (trust the reviewer); Ask lets the human overrule a
// reviewer that is stricter than the policy, which keeps false denials from blocking an agent.
// Only Deny and Ask make sense: anything else (Allow included) is taken as Ask, so this option
// can never open a path to allow.
func WithUnsupportedDeny(d riskmodel.Decision) Option {
	return func(p *Pipeline) { p.unsupportedDeny = riskmodel.Stricter(d, riskmodel.Ask) }
}

// WithClock replaces time.Now for the breakers' cool-down, the cache's TTL and the review
// duration, so tests can move time without sleeping. A nil clock is ignored.
func WithClock(now func() time.Time) Option {
	return func(p *Pipeline) {
		if now != nil {
			p.now = now
		}
	}
}

// WithDenialsBreaker enables the denials breaker (off by default: a Pipeline shared by several
// agents or sessions would let one of them trip it for all, and a one-shot CLI never reaches the
// thresholds). When open, every request is handed to the human — allow and deny alike become the
// fallback decision (ask; deny in headless mode) with status breaker_open — until ResetDenials.
func WithDenialsBreaker(c DenialsBreakerConfig) Option {
	return func(p *Pipeline) { p.denialsCfg = &c }
}

// WithModelBreaker configures the model health breaker, which is on by default (3 failures,
// 60 s cool-down) and only matters with a second reviewer. Failures < 0 disables it.
func WithModelBreaker(c ModelBreakerConfig) Option { return func(p *Pipeline) { p.modelCfg = c } }

// WithCache enables the exact-match decision cache: results are kept for ttl, at most size of
// them (least recently used evicted first), under a key that includes version — pass the
// policy and prompt version, so a policy or prompt change never replays an old decision. A
// non-positive ttl or size leaves the cache off (the default).
func WithCache(ttl time.Duration, size int, version string) Option {
	return func(p *Pipeline) { p.cacheTTL, p.cacheSize, p.cacheVersion = ttl, size, version }
}

// WithTracerProvider sets where the pipeline's "guardian.review" spans go (the model call's
// span nests under it). Default: none (a no-op tracer; see newPipelineMetrics for why not the
// otel global).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(p *Pipeline) {
		if tp != nil {
			p.tracer = tp.Tracer("github.com/guardianhq/guardian/guardian")
		}
	}
}

// WithMeterProvider sets where the pipeline's metrics go. Default: none (no-op instruments).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(p *Pipeline) { p.meterProvider = mp }
}

// New builds a pipeline around the rule analyzer.
func New(rules *riskmodel.Analyzer, opts ...Option) *Pipeline {
	p := &Pipeline{rules: rules, fallback: FallbackAsk, deadline: DefaultDeadline, ceiling: riskmodel.Medium,
		unsupportedDeny: riskmodel.Deny, now: time.Now, tracer: tracenoop.NewTracerProvider().Tracer("github.com/guardianhq/guardian/guardian")}
	for _, o := range opts {
		o(p)
	}
	if p.denialsCfg != nil {
		p.denials = newDenialsBreaker(*p.denialsCfg)
	}
	p.model = newModelBreaker(p.modelCfg, p.now)
	if p.saved != nil {
		p.denials.restore(*p.saved)
		p.model.restore(*p.saved)
	}
	p.cache = newDecisionCache(p.cacheTTL, p.cacheSize, p.cacheVersion, p.now)
	p.metrics = newPipelineMetrics(p.meterProvider, p)
	return p
}

// Close releases what the pipeline registered with its MeterProvider (the breaker gauge's
// callback, which otherwise keeps the pipeline reachable). The pipeline stays usable.
func (p *Pipeline) Close() error {
	if p.metrics.reg == nil {
		return nil
	}
	if err := p.metrics.reg.Unregister(); err != nil {
		return fmt.Errorf("unregister breaker gauge: %w", err)
	}
	p.metrics.reg = nil
	return nil
}

// Rules returns the rule analyzer.
func (p *Pipeline) Rules() *riskmodel.Analyzer { return p.rules }

// BreakerState returns a snapshot of both circuit breakers (closed when disabled).
func (p *Pipeline) BreakerState() BreakerState {
	var s BreakerState
	p.denials.snapshot(&s)
	p.model.snapshot(&s)
	return s
}

// ResetDenials closes the denials breaker and clears its history: the human has looked at the
// situation and guardian may decide on its own again.
func (p *Pipeline) ResetDenials() { p.denials.reset() }

// ResetModel closes the model health breaker: the human knows the model is back, and the next
// request calls it instead of waiting out the cool-down.
func (p *Pipeline) ResetModel() { p.model.success() }

// Review judges one request on its own, for no particular caller: the agent policy
// (WithAgentPolicy) does not apply, which is what `guardian review` and the eval harness want.
// The error is non-nil only for a request that cannot be reviewed at all (malformed or too
// large); every reviewer failure is a Result with a failure status.
//
// The order is: validate → denials breaker (open: rules only, handed to the human) → cache →
// rules (a rule deny or allow stands) → model breaker → model under the deadline →
// combine or fallback → cache store → denials breaker count → metrics.
func (p *Pipeline) Review(ctx context.Context, req Request) (Result, error) {
	return p.run(ctx, req, nil)
}

// Decide judges req for the caller c: Review, then the agent policy, which hands an allow to
// the human when it does not grant automatic approval to c's agent (see AgentPolicy.Apply).
// Every adapter — hooks, guardian serve, the MCP proxy — asks through Decide, so all of them
// honour the policy; it runs after the cache, so a cached allow is held as well, and before
// the metrics, so they count what was answered.
func (p *Pipeline) Decide(ctx context.Context, req Request, c Caller) (Result, error) {
	return p.run(ctx, req, &c)
}

// run is Review (c nil) or Decide.
func (p *Pipeline) run(ctx context.Context, req Request, c *Caller) (Result, error) {
	start := p.now()
	ctx, span := p.tracer.Start(ctx, "guardian.review", trace.WithAttributes(attribute.String("guardian.kind", string(req.Kind))))
	defer span.End()
	if err := req.Validate(); err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, "invalid request")
		return Result{}, err
	}
	res := p.review(ctx, req)
	if c != nil {
		res = p.agents.Apply(res, *c)
		span.SetAttributes(attribute.String("guardian.agent_role", c.AgentRole.String()))
	}
	span.SetAttributes(attribute.String("guardian.decision", res.Decision.String()), attribute.String("guardian.status", string(res.Status)),
		attribute.String("guardian.decided_by", res.DecidedBy), attribute.String("guardian.risk_level", res.Assessment.Level.String()))
	p.metrics.record(ctx, res, p.now().Sub(start))
	return res, nil
}

func (p *Pipeline) review(ctx context.Context, req Request) Result {
	p.pullBreakers(ctx)
	if open, why := p.denials.isOpen(); open {
		// Neither the cache nor the model is consulted: the human decides anyway, and the
		// rules' assessment is the cheap, deterministic explanation to show them.
		v := p.ruleVerdict(ctx, req)
		return p.breakerResult(v, "the denials breaker is open ("+why+")")
	}
	var key cacheKey
	keyed := false
	if p.cache != nil {
		if k, err := p.cache.key(req); err == nil {
			key, keyed = k, true
			if res, ok := p.cacheGet(ctx, k); ok {
				p.denials.record(res.Decision == riskmodel.Deny)
				p.pushBreakers(ctx, res)
				return res
			}
		}
	}
	v := p.ruleVerdict(ctx, req)
	res := p.decide(ctx, req, v)
	if keyed && cacheable(res, v.Assessment.Level) {
		p.cachePut(ctx, key, res)
	}
	p.denials.record(res.Decision == riskmodel.Deny)
	p.pushBreakers(ctx, res)
	return res
}

// decide runs the rules' verdict past the second reviewer when the rules leave it at ask.
func (p *Pipeline) decide(ctx context.Context, req Request, v riskmodel.Verdict) Result {
	ruled := Result{Decision: v.Decision, Status: StatusRule, DecidedBy: v.DecidedBy, Assessment: v.Assessment}
	if p.second == nil || v.Decision != riskmodel.Ask {
		return ruled
	}
	if !p.model.allow() {
		s := p.BreakerState()
		why := fmt.Sprintf("the model is skipped after %d consecutive failures (model breaker %s", s.ModelFailures, s.Model)
		if !s.ModelRetryAt.IsZero() {
			why += ", next trial after " + s.ModelRetryAt.Format(time.RFC3339)
		}
		return p.breakerResult(v, why+")")
	}
	rctx, cancel := context.WithTimeout(ctx, p.deadline)
	defer cancel()
	rev, err := p.second.Review(rctx, req, v)
	if err != nil {
		if ctx.Err() != nil {
			// The caller gave up (or its own deadline was shorter): that says nothing about
			// the model's health.
			p.model.abandon()
		} else {
			p.model.failure()
		}
		return p.fallbackResult(rctx, v, err)
	}
	p.model.success()
	return p.combine(v, rev)
}

func (p *Pipeline) ruleVerdict(ctx context.Context, req Request) riskmodel.Verdict {
	if req.Kind == riskmodel.KindMCP {
		return p.rules.MCP(ctx, *req.MCP)
	}
	return p.rules.Exec(ctx, *req.Exec)
}

// combine applies the second reviewer's answer within the limits the rules set:
//   - a rules deny stands whatever the reviewer says (the pipeline only calls combine at ask);
//   - a reviewer's deny stands when it is backed at high risk — by the reviewer's own level or
//     by a rule finding at high or above — and otherwise becomes the unsupported-deny decision
//     (deny by default, or ask);
//   - a reviewer's allow stands only when both the rules' level and the reviewer's (valid)
//     level are at or below the ceiling, else it becomes ask;
//   - anything else (ask, an invalid decision) is ask.
func (p *Pipeline) combine(rules riskmodel.Verdict, rev Review) Result {
	res := Result{Decision: riskmodel.Ask, Status: StatusOK, DecidedBy: rev.DecidedBy, Assessment: rev.Assessment, Reasoning: rev.Reasoning}
	if rev.Usage != (Usage{}) {
		u := rev.Usage
		res.Usage = &u
	}
	res.Assessment.Findings = append(append([]riskmodel.Finding(nil), rules.Assessment.Findings...), rev.Assessment.Findings...)
	switch {
	case rules.Decision == riskmodel.Deny:
		res.Decision = riskmodel.Deny
	case rev.Decision == riskmodel.Deny:
		res.Decision = riskmodel.Deny
		if rev.Assessment.Level < riskmodel.High && !rulesAtHigh(rules) {
			res.Decision = p.unsupportedDeny
			if res.Decision != riskmodel.Deny {
				res.Assessment.Rationale = fmt.Sprintf("The reviewer's deny at %s risk has no rule finding at high or above; handed to the human. %s",
					rev.Assessment.Level, res.Assessment.Rationale)
			}
		}
	case rev.Decision == riskmodel.Allow:
		if rules.Assessment.Level <= p.ceiling && rev.Assessment.Level >= riskmodel.Low && rev.Assessment.Level <= p.ceiling {
			res.Decision = riskmodel.Allow
		}
	}
	return res
}

// rulesAtHigh reports whether any rule finding (or the rules' overall level) is high or above.
func rulesAtHigh(v riskmodel.Verdict) bool {
	if v.Assessment.Level >= riskmodel.High {
		return true
	}
	for _, f := range v.Assessment.Findings {
		if f.Level >= riskmodel.High {
			return true
		}
	}
	return false
}

// fallbackDecision is what guardian answers when it cannot decide itself: ask the human, or
// deny when there is none (headless).
func (p *Pipeline) fallbackDecision() riskmodel.Decision {
	if p.fallback == FallbackHeadless {
		return riskmodel.Deny
	}
	return riskmodel.Ask
}

// breakerResult hands a request over on behalf of an open breaker: the fallback decision (never
// allow), with the rules' assessment and what the rules alone would have decided.
func (p *Pipeline) breakerResult(v riskmodel.Verdict, why string) Result {
	d := p.fallbackDecision()
	to := "handing the request to the human"
	if d == riskmodel.Deny {
		to = "denying: no human to ask in headless mode"
	}
	a := v.Assessment
	a.Rationale = fmt.Sprintf("Circuit breaker: %s; %s. The rules alone would %s (%s). %s", why, to, v.Decision, v.DecidedBy, a.Rationale)
	return Result{Decision: d, Status: StatusBreakerOpen, DecidedBy: "breaker", Assessment: a}
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
	d := p.fallbackDecision()
	a := rules.Assessment
	a.Rationale = fmt.Sprintf("The second reviewer failed (%s: %v); falling back to %s with the rule assessment. %s", status, err, d, a.Rationale)
	return Result{Decision: d, Status: status, DecidedBy: "fallback", Assessment: a}
}
