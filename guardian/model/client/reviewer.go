package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cenkalti/backoff/v4"
	openai "github.com/sashabaranov/go-openai"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/model"
	"github.com/guardianhq/guardian/prompts"
	"github.com/guardianhq/guardian/riskmodel"
)

// ResponseFormat is the structured-output mode a request used.
type ResponseFormat string

// The response formats. JSONSchema (strict) is preferred; JSONObject with the schema pasted
// into the system prompt is the fallback for servers that reject json_schema, and FormatNone
// (profile.go) the last resort. Whichever is used, Parse enforces the schema on the answer.
const (
	FormatJSONSchema ResponseFormat = "json_schema"
	FormatJSONObject ResponseFormat = "json_object"
)

// Retry defaults: a first wait short enough to fit several attempts into the default 4 s
// review deadline, a cap on the wait, and a cap on attempts so that a server that fails fast
// (refused or dropped connections, 500s) is reported as unavailable rather than hammered until
// the deadline.
const (
	DefaultBackoffInitial = 100 * time.Millisecond
	DefaultBackoffMax     = time.Second
	DefaultMaxAttempts    = 4
)

// Usage is the token usage of one review, summed over its attempts as the server reported it.
// CachedTokens (of InputTokens) were served from the provider's prompt cache; ReasoningTokens
// (of OutputTokens) were the model's reasoning, hidden or not. Servers that do not report
// them leave them 0.
type Usage struct {
	InputTokens     int
	OutputTokens    int
	TotalTokens     int
	CachedTokens    int
	ReasoningTokens int
}

// MaxAuditReasoningBytes caps the reasoning kept for the audit record.
const MaxAuditReasoningBytes = 4 << 10

// Detail is everything one model review produced beyond guardian.Review: what the audit
// record, the eval harness and metrics need. guardian.Review has no place for it yet; the
// pipeline is meant to carry Usage (and the prompt identity) into guardian.Result later.
type Detail struct {
	// Review is the answer for the pipeline; the zero Review when the call failed.
	Review guardian.Review
	// Verdict is the parsed model answer (zero on failure).
	Verdict model.Verdict
	// Usage is the token usage reported by the server, over all attempts.
	Usage Usage
	// Attempts is the number of HTTP requests made, the json_object fallback included.
	Attempts int
	// Format is the response format of the last request.
	Format ResponseFormat
	// FellBack is set when this review found that the server rejects json_schema.
	FellBack bool
	// Changes are the adaptations this review made to the endpoint's profile, in order.
	Changes []Change
	// Profile is the profile the last request was sent with.
	Profile Profile
	// Reasoning is the model's reasoning (from reasoning_content, a reasoning field or a
	// leading think block), secrets redacted and capped at MaxAuditReasoningBytes. It is
	// never parsed for a verdict.
	Reasoning string
	// FinishReason is the finish reason of the answer's choice.
	FinishReason string
	// raisedBudget is set once this review has raised the token budget.
	raisedBudget bool
	// Duration is the wall time of the whole call, waits included.
	Duration time.Duration
	// Template, PolicyHash, Nonce and Truncated identify the prompt (see prompts.Rendered).
	Template   string
	PolicyHash string
	Nonce      string
	Truncated  []prompts.Field
}

// Reviewer is the model reviewer: it implements guardian.Reviewer with one fresh-context chat
// completion per request against an OpenAI-compatible endpoint. It is safe for concurrent use:
// its configuration is immutable after New, the only mutable state (the endpoint's learned
// Profile) is an atomic pointer to an immutable value, and each review has its own backoff and
// records.
type Reviewer struct {
	cfg         Config
	client      *openai.Client
	tel         *telemetry
	policy      prompts.Policy
	initial     time.Duration
	maxWait     time.Duration
	maxAttempts int
	log         *slog.Logger
	now         func() time.Time
	serverAddr  string
	// schema is model.Schema() computed once: it is immutable, and building it per request showed in
	// the concurrency benchmark's profile.
	schema json.RawMessage
	// profile is what this endpoint accepts, learned from its 400s: later reviews start from
	// it instead of paying the failed requests again.
	profile atomic.Pointer[Profile]
	// autoBudget is true when the operator left max_tokens unset, so a reasoning model that
	// runs out of budget may get a bigger one.
	autoBudget bool
}

var _ guardian.Reviewer = (*Reviewer)(nil)

type options struct {
	http        openai.HTTPDoer
	tp          trace.TracerProvider
	mp          metric.MeterProvider
	policy      prompts.Policy
	initial     time.Duration
	maxWait     time.Duration
	maxAttempts int
	log         *slog.Logger
}

// Option configures a Reviewer.
type Option func(*options)

// WithHTTPClient sets the HTTP client (any openai.HTTPDoer): a proxy, custom TLS, or a test
// transport. Timeouts belong in the review ctx and Config.Timeout, not in the client.
func WithHTTPClient(c openai.HTTPDoer) Option { return func(o *options) { o.http = c } }

// WithTracerProvider sets where spans go; the default is the otel global provider, a no-op
// unless the process installed one.
func WithTracerProvider(tp trace.TracerProvider) Option { return func(o *options) { o.tp = tp } }

// WithMeterProvider sets where metrics go; the default is the otel global provider, a no-op
// unless the process installed one.
func WithMeterProvider(mp metric.MeterProvider) Option { return func(o *options) { o.mp = mp } }

// WithPolicy sets the operator's policy text, appended to or replacing the built-in policy of
// the prompts. It is validated by New.
func WithPolicy(p prompts.Policy) Option { return func(o *options) { o.policy = p } }

// WithBackoff sets the first and the longest wait between attempts. Tests use tiny values; a
// deployment rarely needs to change the defaults, since the review deadline bounds the total.
func WithBackoff(initial, max time.Duration) Option {
	return func(o *options) { o.initial, o.maxWait = initial, max }
}

// WithMaxAttempts caps the attempts of one review (DefaultMaxAttempts; the json_object
// fallback request does not count). The deadline still bounds the total time.
func WithMaxAttempts(n int) Option { return func(o *options) { o.maxAttempts = n } }

// WithLogger sets the logger for retries and the json_object fallback (default: discard).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// New validates cfg and builds a Reviewer. No request is sent; use Check to probe the endpoint.
func New(cfg Config, opts ...Option) (*Reviewer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	configuredMax := cfg.MaxTokens
	cfg = cfg.withDefaults()
	o := options{initial: DefaultBackoffInitial, maxWait: DefaultBackoffMax, maxAttempts: DefaultMaxAttempts}
	for _, opt := range opts {
		opt(&o)
	}
	if o.initial <= 0 || o.maxWait < o.initial {
		return nil, fmt.Errorf("model: backoff %s..%s: want 0 < initial <= max", o.initial, o.maxWait)
	}
	if o.maxAttempts < 1 {
		return nil, fmt.Errorf("model: max attempts %d: want at least 1", o.maxAttempts)
	}
	if err := o.policy.Validate(); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if o.http == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64 // reviews come in bursts to one host
		o.http = &http.Client{Transport: t}
	}
	if o.tp == nil {
		o.tp = otel.GetTracerProvider()
	}
	if o.mp == nil {
		o.mp = otel.GetMeterProvider()
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	tel, err := newTelemetry(o.tp, o.mp)
	if err != nil {
		return nil, err
	}

	var oc openai.ClientConfig
	if cfg.Azure {
		oc = openai.DefaultAzureConfig(cfg.APIKey, cfg.BaseURL)
		oc.APIVersion = cfg.AzureAPIVersion
	} else {
		oc = openai.DefaultConfig(cfg.APIKey)
		oc.BaseURL = cfg.BaseURL
	}
	now := time.Now
	oc.HTTPClient = recordingDoer{next: o.http, now: now}
	host := ""
	if u, err := url.Parse(cfg.BaseURL); err == nil {
		host = u.Hostname()
	}
	r := &Reviewer{
		cfg: cfg, client: openai.NewClientWithConfig(oc), tel: tel, policy: o.policy,
		initial: o.initial, maxWait: o.maxWait, maxAttempts: o.maxAttempts, log: o.log, now: now,
		serverAddr: host, schema: model.Schema(), autoBudget: configuredMax == 0,
	}
	start := startProfile(cfg, configuredMax)
	r.profile.Store(&start)
	return r, nil
}

// Config returns the configuration in use, defaults filled in.
func (r *Reviewer) Config() Config { return r.cfg }

// Format returns the response format the next review will use: json_schema until the endpoint
// has rejected it, then json_object, then none.
func (r *Reviewer) Format() ResponseFormat { return r.Profile().Format }

// Profile returns what the reviewer has learned about the endpoint so far (a copy).
func (r *Reviewer) Profile() Profile { return r.profile.Load().clone() }

// learn replaces the profile old with next, unless another review changed it meanwhile (its
// change then stands, and this review's next request starts from it).
func (r *Reviewer) learn(ctx context.Context, old *Profile, next Profile, c Change) {
	if r.profile.CompareAndSwap(old, &next) {
		r.log.WarnContext(ctx, "model endpoint: adapted the request", "model", r.cfg.Model, "base_url", r.cfg.BaseURL,
			"param", c.Param, "from", c.From, "to", c.To, "why", c.Why)
	}
}

// Review implements guardian.Reviewer: one fresh-context model review of req, given the rules'
// verdict as hints. The ctx deadline (set by the pipeline) bounds every attempt and wait; a ctx
// without one gets guardian.DefaultDeadline so a review can never hang. On any failure it
// returns the zero Review and a *guardian.ReviewError whose Status is timeout (the deadline
// passed, or attempts timed out), bad_output (the answer is not a valid verdict) or
// unavailable (everything else: transport, 5xx/429 exhausted, other 4xx) — never an allow.
func (r *Reviewer) Review(ctx context.Context, req guardian.Request, rules riskmodel.Verdict) (guardian.Review, error) {
	d, err := r.ReviewDetailed(ctx, req, rules)
	if err != nil {
		return guardian.Review{}, err
	}
	rev := d.Review
	rev.Usage = guardian.Usage{InputTokens: d.Usage.InputTokens, OutputTokens: d.Usage.OutputTokens,
		CachedTokens: d.Usage.CachedTokens, ReasoningTokens: d.Usage.ReasoningTokens}
	return rev, nil
}

// ReviewDetailed is Review with the details (usage, attempts, format, prompt identity) that
// guardian.Review has no room for. On failure Detail.Review is the zero Review, the other
// fields say what was spent, and the error is a *guardian.ReviewError.
func (r *Reviewer) ReviewDetailed(ctx context.Context, req guardian.Request, rules riskmodel.Verdict) (Detail, error) {
	in := prompts.Input{Kind: req.Kind, Exec: req.Exec, MCP: req.MCP, Rules: rules, Policy: r.policy}
	return r.review(ctx, in)
}

// review renders the prompt, runs the retry loop and maps the outcome.
func (r *Reviewer) review(ctx context.Context, in prompts.Input) (det Detail, err error) {
	start := r.now()
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, guardian.DefaultDeadline)
		defer cancel()
	}
	deadline, _ := ctx.Deadline()

	base := []attribute.KeyValue{attrSystem.String(r.cfg.system()), attrRequestModel.String(r.cfg.Model)}
	ctx, span := r.tel.tracer.Start(ctx, SpanName, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		attrSystem.String(r.cfg.system()), attrOperation.String("chat"), attrRequestModel.String(r.cfg.Model),
		attribute.String("server.address", r.serverAddr),
	))
	defer func() {
		det.Duration = r.now().Sub(start)
		outcome := string(guardian.StatusOK)
		if err != nil {
			var re *guardian.ReviewError
			if errors.As(err, &re) {
				outcome = string(re.Status)
			}
			span.RecordError(err)
			span.SetStatus(codes.Error, outcome)
		}
		span.SetAttributes(attrAttempts.Int(det.Attempts), attrFormat.String(string(det.Format)), attrOutcome.String(outcome),
			attrInputTokens.Int(det.Usage.InputTokens), attrOutputTokens.Int(det.Usage.OutputTokens),
			attrMaxTokens.Int(det.Profile.MaxTokens), attrSeed.Int(r.cfg.Seed))
		if det.Profile.Temperature {
			span.SetAttributes(attrTemperature.Float64(float64(r.cfg.Temperature)))
		}
		if det.Template != "" {
			span.SetAttributes(attrTemplate.String(det.Template))
		}
		if det.FinishReason != "" {
			span.SetAttributes(attrFinish.StringSlice([]string{det.FinishReason}))
		}
		span.End()
		r.tel.record(ctx, base, outcome, det.Format, det.Duration, det.Usage)
	}()

	rendered, err := prompts.Render(in)
	if err != nil {
		return det, &guardian.ReviewError{Status: guardian.StatusUnavailable, Err: fmt.Errorf("model: render prompt: %w", err)}
	}
	det.Template = rendered.Template.String()
	det.PolicyHash, det.Nonce, det.Truncated = rendered.PolicyHash, rendered.Nonce, rendered.Truncated

	for {
		resp, rec, lastErr, err := r.call(ctx, deadline, rendered, &det)
		if err != nil {
			return det, r.mapError(ctx, err, lastErr)
		}
		if resp.Model != "" {
			span.SetAttributes(attrResponseModel.String(resp.Model))
		}
		if len(resp.Choices) == 0 {
			return det, &guardian.ReviewError{Status: guardian.StatusBadOutput, Err: &model.BadOutputError{Reason: "the completion has no choices"}}
		}
		ch := resp.Choices[0]
		det.FinishReason = string(ch.FinishReason)
		v, reasoning, err := parseAnswer(ch, rec)
		det.Reasoning = model.CapReasoning(riskmodel.RedactSecrets(reasoning), MaxAuditReasoningBytes)
		if err == nil {
			det.Verdict = v
			det.Review = guardian.Review{
				Decision:   v.Outcome,
				Assessment: v.Assessment(),
				DecidedBy:  "model:" + r.cfg.Model + "@" + rendered.Template.ID + "#" + rendered.Template.Hash,
				Reasoning:  det.Reasoning,
			}
			return det, nil
		}
		if ch.FinishReason != openai.FinishReasonLength {
			if reasoning != "" && model.IsBadOutput(err) && strings.TrimSpace(ch.Message.Content) == "" {
				err = fmt.Errorf("the model reasoned but gave no answer: %w", err)
			}
			return det, &guardian.ReviewError{Status: guardian.StatusBadOutput, Err: err}
		}
		// Cut off at the budget: a reasoning model that spent it thinking gets a bigger one
		// once, if the operator left the budget to guardian and the deadline allows.
		cur := r.profile.Load()
		why := fmt.Sprintf("the answer was cut off at %d tokens (finish_reason length, %d of them reasoning)", det.Profile.MaxTokens, reasoningTokens(resp.Usage))
		if next, c, ok := cur.raiseBudget(why); ok && r.autoBudget && !det.raisedBudget && deadline.Sub(r.now()) > r.initial {
			det.raisedBudget = true
			r.learn(ctx, cur, next, c)
			det.Changes = append(det.Changes, c)
			continue
		}
		return det, &guardian.ReviewError{Status: guardian.StatusBadOutput, Err: &CutOffError{Budget: det.Profile.MaxTokens,
			Reasoning: reasoningTokens(resp.Usage), Configured: !r.autoBudget, Err: err}}
	}
}

// CutOffError is an answer cut off at the token budget (finish_reason length): the budget
// named is the one to raise. It wraps the parse error, so it is bad output.
type CutOffError struct {
	Budget     int
	Reasoning  int
	Configured bool
	Err        error
}

func (e *CutOffError) Error() string {
	what := "guardian's automatic budget"
	if e.Configured {
		what = "max_tokens in [model]"
	}
	r := ""
	if e.Reasoning > 0 {
		r = fmt.Sprintf(", %d of them hidden reasoning", e.Reasoning)
	}
	return fmt.Sprintf("answer cut off at the %d-token budget (%s%s): set max_tokens = %d in [model]: %v",
		e.Budget, what, r, SuggestedBudget(e.Budget), e.Err)
}

func (e *CutOffError) Unwrap() error { return e.Err }

// SuggestedBudget is the max_tokens to suggest after an answer was cut off at budget.
func SuggestedBudget(budget int) int { return min(max(budget*2, DefaultReasoningMaxTokens), 32768) }

// reasoningTokens reads the reasoning tokens a server reported, 0 when it did not.
func reasoningTokens(u openai.Usage) int {
	if u.CompletionTokensDetails == nil {
		return 0
	}
	return u.CompletionTokensDetails.ReasoningTokens
}

// parseAnswer sets aside the choice's reasoning — the reasoning_content field, a "reasoning"
// field (vLLM's newer parsers, Ollama, OpenRouter) and a leading think block in the content —
// and parses what is left strictly. The reasoning is returned for the audit record only.
func parseAnswer(ch openai.ChatCompletionChoice, rec *attemptRecord) (model.Verdict, string, error) {
	var parts []string
	if s := strings.TrimSpace(ch.Message.ReasoningContent); s != "" {
		parts = append(parts, s)
	}
	if s := strings.TrimSpace(rec.extra.reasoning()); s != "" && (len(parts) == 0 || parts[0] != s) {
		parts = append(parts, s)
	}
	thought, answer, err := model.SplitReasoning(ch.Message.Content)
	if thought != "" {
		parts = append(parts, thought)
	}
	reasoning := strings.Join(parts, "\n\n")
	if err != nil {
		return model.Verdict{}, reasoning, err
	}
	v, err := model.ParseChoice(answer, ch.Message.Refusal)
	return v, reasoning, err
}

// call runs the attempts. It returns the completion and its attempt's record, or the error that
// ended the loop together with the last attempt's own error (which explains a bare deadline).
// A deterministic refusal of the request (a 400 naming a parameter, or go-openai refusing to
// send it) adapts the endpoint's profile and is sent again at once: that is learning, not a
// retry, and it does not use up an attempt.
func (r *Reviewer) call(ctx context.Context, deadline time.Time, rendered prompts.Rendered, det *Detail) (*openai.ChatCompletionResponse, *attemptRecord, error, error) {
	exp := backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(r.initial), backoff.WithMaxInterval(r.maxWait),
		backoff.WithMaxElapsedTime(0)) // the ctx deadline bounds the total
	hinted := &hintedBackOff{BackOff: exp}
	b := backoff.WithContext(backoff.WithMaxRetries(hinted, uint64(r.maxAttempts-1)), ctx)

	var lastErr error
	var okRec *attemptRecord
	adaptations := 0
	op := func() (*openai.ChatCompletionResponse, error) {
		for {
			cur := r.profile.Load()
			resp, rec, err := r.attempt(ctx, rendered, *cur, det)
			if err == nil {
				okRec = rec
				return resp, nil
			}
			if rj, ok := rejectionOf(err); ok && adaptations < maxAdaptations && ctx.Err() == nil {
				if next, c, ok := cur.adapt(rj); ok {
					adaptations++
					if c.Param == "response_format" && c.From == string(FormatJSONSchema) {
						det.FellBack = true
					}
					det.Changes = append(det.Changes, c)
					r.learn(ctx, cur, next, c)
					continue
				}
			}
			if ctx.Err() == nil { // keep the last real failure, not the deadline cutting an attempt
				lastErr = err
			}
			retry, out := classify(ctx, err, rec, deadline, r.now())
			if !retry {
				return nil, backoff.Permanent(out)
			}
			if rec.hasRetryAfter {
				hinted.hint, hinted.hasHint = rec.retryAfter, true
			}
			return nil, out
		}
	}
	notify := func(err error, wait time.Duration) {
		r.log.DebugContext(ctx, "model attempt failed; retrying", "attempt", det.Attempts, "wait", wait, "error", err)
		trace.SpanFromContext(ctx).AddEvent("retry", trace.WithAttributes(
			attrAttempts.Int(det.Attempts), attribute.Int64("guardian.model.wait_ms", wait.Milliseconds()),
			attribute.String("error", err.Error())))
	}
	resp, err := backoff.RetryNotifyWithData(op, b, notify)
	return resp, okRec, lastErr, err
}

// attempt sends one chat completion with the given profile, its own record and, if
// configured, its own timeout.
func (r *Reviewer) attempt(ctx context.Context, rendered prompts.Rendered, p Profile, det *Detail) (*openai.ChatCompletionResponse, *attemptRecord, error) {
	det.Attempts++
	det.Format = p.Format
	det.Profile = p
	rec := &attemptRecord{}
	actx := context.WithValue(ctx, attemptKey{}, rec)
	if r.cfg.Timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(actx, r.cfg.Timeout) // min(Timeout, the review's deadline)
		defer cancel()
	}
	resp, err := r.client.CreateChatCompletion(actx, r.request(rendered, p))
	if !rec.sent {
		det.Attempts-- // go-openai refused the request before sending it: no HTTP request was made
	}
	if err != nil {
		return nil, rec, fmt.Errorf("model: attempt %d (%s): %w", det.Attempts, p.Format, err)
	}
	rec.extra = decodeExtra(rec.body)
	rec.body = nil
	det.Usage.InputTokens += resp.Usage.PromptTokens
	det.Usage.OutputTokens += resp.Usage.CompletionTokens
	det.Usage.TotalTokens += resp.Usage.TotalTokens
	det.Usage.ReasoningTokens += reasoningTokens(resp.Usage)
	switch {
	case resp.Usage.PromptTokensDetails != nil && resp.Usage.PromptTokensDetails.CachedTokens > 0:
		det.Usage.CachedTokens += resp.Usage.PromptTokensDetails.CachedTokens
	default:
		det.Usage.CachedTokens += rec.extra.cachedTokens()
	}
	return &resp, rec, nil
}

// request builds the chat completion from the profile: exactly two messages (the policy as
// system prompt, the fenced request as user message), the sampling parameters the model
// accepts (near-zero temperature and a seed where allowed), the token cap in the field it
// reads, the reasoning controls, and the structured-output format. The system prompt depends
// only on the policy and the format, never on the request, so providers' prompt caches hit.
func (r *Reviewer) request(rendered prompts.Rendered, p Profile) openai.ChatCompletionRequest {
	system := rendered.System
	var rf *openai.ChatCompletionResponseFormat
	switch p.Format {
	case FormatJSONSchema:
		rf = &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name: model.SchemaName, Schema: r.schema, Strict: true,
			},
		}
	case FormatJSONObject:
		rf = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
		system += "\n\n## JSON Schema\nThe JSON object must validate against this JSON Schema:\n" + string(r.schema)
	default:
		system += "\n\n## JSON Schema\nAnswer with the JSON object alone. It must validate against this JSON Schema:\n" + string(r.schema)
	}
	req := openai.ChatCompletionRequest{
		Model: r.cfg.Model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: system},
			{Role: openai.ChatMessageRoleUser, Content: rendered.User},
		},
		ResponseFormat:  rf,
		ReasoningEffort: p.ReasoningEffort,
	}
	if p.Temperature {
		req.Temperature = r.cfg.Temperature
	}
	if p.Seed {
		seed := r.cfg.Seed
		req.Seed = &seed
	}
	if p.TokenField == TokensMax {
		req.MaxTokens = p.MaxTokens
	} else {
		req.MaxCompletionTokens = p.MaxTokens
	}
	if p.ThinkingOff {
		req.ChatTemplateKwargs = map[string]any{"enable_thinking": false}
	}
	return req
}

// mapError turns the error that ended the retry loop into a *guardian.ReviewError. lastErr is
// the last attempt's own error, kept in the message when the loop ended on the deadline.
func (r *Reviewer) mapError(ctx context.Context, err, lastErr error) error {
	switch {
	case model.IsBadOutput(err):
		return &guardian.ReviewError{Status: guardian.StatusBadOutput, Err: err}
	case ctx.Err() != nil:
		if lastErr != nil && !errors.Is(lastErr, context.DeadlineExceeded) && !errors.Is(lastErr, context.Canceled) {
			err = fmt.Errorf("%w (last attempt: %v)", ctx.Err(), lastErr)
		} else if !errors.Is(err, ctx.Err()) {
			err = fmt.Errorf("%w: %v", ctx.Err(), err)
		}
		return &guardian.ReviewError{Status: guardian.StatusTimeout, Err: fmt.Errorf("model: review deadline: %w", err)}
	case errors.Is(err, context.DeadlineExceeded):
		// The per-attempt timeout ended every attempt: the model is too slow, not down.
		return &guardian.ReviewError{Status: guardian.StatusTimeout, Err: fmt.Errorf("model: every attempt timed out: %w", err)}
	}
	return &guardian.ReviewError{Status: guardian.StatusUnavailable, Err: err}
}
