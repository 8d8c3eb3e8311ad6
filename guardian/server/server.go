// Package server is guardian's HTTP face: `guardian serve` answers approval requests over
// HTTP (TCP on loopback or a unix socket), so that every hook, predicate and proxy on a machine
// shares one pipeline — one decision cache, one set of circuit breakers, one audit log —
// instead of each starting cold. Client is the other end: a guardian.Decider that asks a
// running server, so an adapter does not care whether it reviews in-process or remotely.
//
// The wire format is guardian's own: a review request is the {"kind","request"} envelope that
// guardian.ReadRequest reads, and a reply is the guardian.Result that `guardian review --json`
// prints. Every error reply is {"error":{"code","message"}} with a stable code (see the Code
// constants), and a review is answered 200 only with a decision that was made — and, when the
// Decider audits, recorded.
package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/guardianhq/guardian/guardian"
)

// The routes. Paths are matched exactly: "/v1/review/" is not "/v1/review".
const (
	RouteReview    = "/v1/review"
	RouteDecisions = "/v1/decisions"
	RouteHealthz   = "/healthz"
	RouteReadyz    = "/readyz"
	RouteMetrics   = "/metrics"
	// routeUnmatched labels requests for unknown paths in metrics and logs, so a scanner
	// probing random paths cannot blow up the number of metric series.
	routeUnmatched = "unmatched"
)

// Defaults of the options.
const (
	// DefaultBodyLimit is the largest request body read (1 MiB). guardian.MaxRequestBytes
	// (256 KiB) bounds the request itself; this bound stops a client from making the server
	// read an arbitrarily large body before that check applies.
	DefaultBodyLimit = 1 << 20
	// DefaultConcurrency is how many reviews may be in flight at once. A review is mostly
	// waiting (for the model, for the audit log's fsync), so this is well above the core
	// count; beyond it the server answers 503 at once rather than queueing.
	DefaultConcurrency = 256
	// DefaultDrainTimeout bounds how long Serve waits for in-flight requests at shutdown.
	// Reviews normally end within their deadline (4 s by default); one still running after
	// the drain timeout is abandoned, and its client falls back to its host's fail-safe.
	DefaultDrainTimeout = 30 * time.Second
	// DefaultDecisionsLimit and MaxDecisionsLimit bound GET /v1/decisions?limit=N.
	DefaultDecisionsLimit = 50
	MaxDecisionsLimit     = 1000
)

// instrumentation is the scope name of the server's spans and metrics.
const instrumentation = "github.com/guardianhq/guardian/guardian/server"

// DecisionSource gives the most recent audit records for GET /v1/decisions. The audit log
// implements it; the records are passed through as they are stored (already redacted).
type DecisionSource interface {
	// Recent returns up to n records, oldest first (newest last).
	Recent(ctx context.Context, n int) ([]json.RawMessage, error)
}

// Server is the guardian HTTP service: an http.Handler serving the routes above around one
// Decider. It holds no package-level state; two Servers in one process are independent. It is
// safe for concurrent use.
type Server struct {
	decider   guardian.Decider
	token     *BearerToken // nil: no token required
	bodyLimit int64
	sem       chan struct{}
	ready     []func(context.Context) error
	metricsH  http.Handler
	decisions DecisionSource
	logger    *slog.Logger
	tracer    trace.Tracer
	mp        metric.MeterProvider
	metrics   *httpMetrics
	drain     time.Duration
	routes    map[string]route
	// allowedHosts are the DNS names accepted in the Host header beside IP literals and
	// localhost (WithAllowedHosts).
	allowedHosts map[string]struct{}
	// hub carries the live events (WithEvents); counts are the day's, fed by it.
	hub       *Hub
	counts    *dayCounts
	heartbeat time.Duration
	// breakers are shown and reset by the console (WithBreakers); onBreakerOpen is told when
	// one opens (notifications).
	breakers      *breakerWatch
	onBreakerOpen func(BreakersBody, []BreakerOpened)
	now           func() time.Time
}

// route is one path: the methods it answers and its handler. public routes need no token.
type route struct {
	name    string
	methods []string
	public  bool
	handle  func(*Server, *exchange)
}

// Option configures a Server.
type Option func(*Server)

// WithToken requires "Authorization: Bearer <token>" on every route but /healthz (which a
// load balancer or supervisor must reach without a secret and which reveals nothing). An empty
// token leaves the server open, which the serve command allows only on loopback.
func WithToken(token string) Option {
	return func(s *Server) { s.token = NewBearerToken(token) }
}

// WithBodyLimit sets the largest request body read, in bytes (DefaultBodyLimit). A larger body
// is answered 413 before it is read. Values below 1 are ignored.
func WithBodyLimit(n int64) Option {
	return func(s *Server) {
		if n > 0 {
			s.bodyLimit = n
		}
	}
}

// WithConcurrency sets how many reviews may be in flight (DefaultConcurrency); one more is
// answered 503 with Retry-After at once. Values below 1 are ignored.
func WithConcurrency(n int) Option {
	return func(s *Server) {
		if n > 0 {
			s.sem = make(chan struct{}, n)
		}
	}
}

// WithReady adds a readiness check to GET /readyz: the server is ready when every check
// returns nil, and answers 503 with the first failure's message otherwise. Checks get the
// request's context and should be quick; /readyz is polled.
func WithReady(check func(context.Context) error) Option {
	return func(s *Server) {
		if check != nil {
			s.ready = append(s.ready, check)
		}
	}
}

// WithMetrics serves h at GET /metrics (the Prometheus handler of the process's exporter).
// Without it /metrics is 404.
func WithMetrics(h http.Handler) Option { return func(s *Server) { s.metricsH = h } }

// WithDecisions serves src's records at GET /v1/decisions. Without it that route is 404.
func WithDecisions(src DecisionSource) Option { return func(s *Server) { s.decisions = src } }

// WithLogger sets where the one line per request goes (route, method, code, duration and, for
// reviews, the decision — never the request's text). Default: discarded.
func WithLogger(l *slog.Logger) Option {
	return func(s *Server) {
		if l != nil {
			s.logger = l
		}
	}
}

// WithTracerProvider sets where the server's request spans go; an incoming W3C traceparent
// header becomes their parent, so a hook's trace continues into the review. Default: the
// otel global, a no-op unless the process installed one.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(s *Server) {
		if tp != nil {
			s.tracer = tp.Tracer(instrumentation)
		}
	}
}

// WithMeterProvider sets where the HTTP metrics go (http.server.request.duration by route,
// method and status code; http.server.active_requests). Default: the otel global, a no-op
// unless the process installed one.
func WithMeterProvider(mp metric.MeterProvider) Option { return func(s *Server) { s.mp = mp } }

// WithDrainTimeout bounds how long Serve waits for in-flight requests once its context is
// cancelled (DefaultDrainTimeout). Values below 1 are ignored.
func WithDrainTimeout(d time.Duration) Option {
	return func(s *Server) {
		if d > 0 {
			s.drain = d
		}
	}
}

// New returns a Server that answers reviews with d. d should be audited
// (guardian.Audited) so that every 200 is on record.
func New(d guardian.Decider, opts ...Option) *Server {
	s := &Server{
		decider:   d,
		bodyLimit: DefaultBodyLimit,
		sem:       make(chan struct{}, DefaultConcurrency),
		logger:    slog.New(slog.DiscardHandler),
		tracer:    otel.Tracer(instrumentation),
		drain:     DefaultDrainTimeout,

		allowedHosts: map[string]struct{}{},
		heartbeat:    DefaultHeartbeat,
		now:          time.Now,
	}
	for _, o := range opts {
		o(s)
	}
	s.counts = newDayCounts(s.now)
	if s.hub != nil {
		s.hub.observe(func(e Event) {
			if e.Kind == EventDecision {
				s.counts.add(e.Data)
			}
		})
	}
	s.metrics = newHTTPMetrics(s.mp)
	get := []string{http.MethodGet, http.MethodHead}
	s.routes = map[string]route{
		RouteReview:    {name: RouteReview, methods: []string{http.MethodPost}, handle: (*Server).review},
		RouteDecisions: {name: RouteDecisions, methods: get, handle: (*Server).recent},
		RouteHealthz:   {name: RouteHealthz, methods: get, public: true, handle: (*Server).healthz},
		RouteReadyz:    {name: RouteReadyz, methods: get, handle: (*Server).readyz},
		RouteMetrics:   {name: RouteMetrics, methods: get, handle: (*Server).serveMetrics},

		RouteEvents:       {name: RouteEvents, methods: []string{http.MethodGet}, handle: (*Server).events},
		RouteStats:        {name: RouteStats, methods: get, handle: (*Server).stats},
		RouteBreakers:     {name: RouteBreakers, methods: get, handle: (*Server).breakerList},
		RouteBreakerReset: {name: RouteBreakerReset, methods: []string{http.MethodPost}, handle: (*Server).breakerReset},

		RouteRoot:       {name: RouteRoot, methods: get, public: true, handle: (*Server).root},
		RouteConsole:    {name: RouteConsole, methods: get, public: true, handle: (*Server).console},
		RouteLogin:      {name: RouteLogin, methods: []string{http.MethodPost}, public: true, handle: (*Server).loginPost},
		RouteLogout:     {name: RouteLogout, methods: []string{http.MethodPost}, public: true, handle: (*Server).logout},
		routeConsoleJS:  {name: routeConsoleJS, methods: get, public: true, handle: (*Server).consoleScript},
		routeConsoleCSS: {name: routeConsoleCSS, methods: get, public: true, handle: (*Server).consoleStyle},
	}
	return s
}

// exchange is one request being answered: what the handlers report back for the metrics, the
// span and the log line.
type exchange struct {
	w     http.ResponseWriter
	r     *http.Request
	route string
	code  int
	// errCode is the error body's code when the reply is an error.
	errCode string
	// err is the cause of a 5xx, for the log (never sent anywhere else than the reply).
	err error
	// decision, status and decidedBy describe a review's result.
	decision, status, decidedBy string
	caller                      guardian.Caller
}

// ServeHTTP routes the request, checks the token, and records the exchange in the metrics,
// the span and one log line.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rt, known := s.routes[r.URL.Path]
	name := routeUnmatched
	if known {
		name = rt.name
	}
	method := methodLabel(r.Method)
	ctx := propagation.TraceContext{}.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	ctx, span := s.tracer.Start(ctx, method+" "+name, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(attribute.String("http.request.method", method), attribute.String("http.route", name)))
	defer span.End()
	routeAttrs := metric.WithAttributeSet(attribute.NewSet(attribute.String("http.request.method", method), attribute.String("http.route", name)))
	s.metrics.active.Add(ctx, 1, routeAttrs)
	defer s.metrics.active.Add(ctx, -1, routeAttrs)

	ex := &exchange{w: w, r: r.WithContext(ctx), route: name}
	s.dispatch(ex, rt, known)

	took := time.Since(start)
	s.metrics.duration.Record(ctx, took.Seconds(), metric.WithAttributes(
		attribute.String("http.request.method", method), attribute.String("http.route", name),
		attribute.Int("http.response.status_code", ex.code)))
	span.SetAttributes(attribute.Int("http.response.status_code", ex.code))
	if ex.decision != "" {
		span.SetAttributes(attribute.String("guardian.decision", ex.decision), attribute.String("guardian.status", ex.status))
	}
	if ex.code >= 500 {
		span.SetStatus(codes.Error, ex.errCode)
	}
	s.log(ctx, ex, method, took)
}

// dispatch checks the Host and Origin headers, the token, the path and the method, then runs
// the route's handler. The token is checked before the path, so without it every path but
// /healthz looks the same; Host and Origin before the token, so that a rebound or cross-site
// page learns nothing at all.
func (s *Server) dispatch(ex *exchange, rt route, known bool) {
	if !s.hostAllowed(ex.r) {
		ex.fail(http.StatusForbidden, CodeForbidden, "host "+quoteForMessage(ex.r.Host)+
			" is not a name this server answers to: use its IP address or localhost, or start guardian serve with --allow-host NAME")
		return
	}
	if !sameOrigin(ex.r) {
		ex.fail(http.StatusForbidden, CodeForbidden, "cross-origin request refused: only guardian's own console page may call the API from a browser")
		return
	}
	if !(known && rt.public) {
		via, msg, ok := s.authenticate(ex.r)
		if !ok {
			challenge := `Bearer realm="guardian"`
			if ex.r.Header.Get("Authorization") != "" {
				challenge += `, error="invalid_token"`
			}
			ex.w.Header().Set("WWW-Authenticate", challenge)
			ex.fail(http.StatusUnauthorized, CodeUnauthorized, msg)
			return
		}
		if !s.csrfOK(ex.r, via) {
			ex.fail(http.StatusForbidden, CodeForbidden, "missing or wrong "+HeaderCSRF+" header: a state-changing call from the console must echo the "+CSRFCookie+" cookie in it")
			return
		}
	}
	if !known {
		ex.fail(http.StatusNotFound, CodeNotFound, "no route "+quoteForMessage(ex.r.URL.Path)+
			"; the routes are POST /v1/review, GET /v1/decisions, /v1/events, /v1/stats, /v1/breakers, POST /v1/breakers/reset, /healthz, /readyz, /metrics and the console at /console")
		return
	}
	if !slices.Contains(rt.methods, ex.r.Method) {
		ex.w.Header().Set("Allow", strings.Join(rt.methods, ", "))
		ex.fail(http.StatusMethodNotAllowed, CodeMethodNotAllowed,
			rt.name+" answers "+strings.Join(rt.methods, " and ")+", not "+quoteForMessage(ex.r.Method))
		return
	}
	rt.handle(s, ex)
}

// log writes the request's one line. Only values the server itself produced or sanitized go
// in: the route (from the fixed table, not the raw path), the code, the decision.
func (s *Server) log(ctx context.Context, ex *exchange, method string, took time.Duration) {
	level := slog.LevelInfo
	switch {
	case ex.code == http.StatusServiceUnavailable:
		level = slog.LevelWarn
	case ex.code >= 500:
		level = slog.LevelError
	}
	if !s.logger.Enabled(ctx, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 10)
	attrs = append(attrs, slog.String("method", method), slog.String("route", ex.route), slog.Int("code", ex.code),
		slog.Float64("duration_ms", float64(took.Microseconds())/1000))
	if ex.decision != "" {
		attrs = append(attrs, slog.String("decision", ex.decision), slog.String("status", ex.status), slog.String("decided_by", ex.decidedBy))
	}
	if ex.caller.Host != "" {
		attrs = append(attrs, slog.String("host", ex.caller.Host))
	}
	if ex.errCode != "" {
		attrs = append(attrs, slog.String("error", ex.errCode))
	}
	if ex.err != nil {
		attrs = append(attrs, slog.String("cause", oneLine(ex.err.Error(), 2048)))
	}
	s.logger.LogAttrs(ctx, level, "request", attrs...)
}

// methodLabel bounds the method label to the standard methods, as OpenTelemetry's HTTP
// conventions ask, so arbitrary method strings cannot become metric series.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodConnect, http.MethodOptions, http.MethodTrace:
		return m
	}
	return "_OTHER"
}

// healthz is liveness: the process answers HTTP. It checks nothing else, so a supervisor
// never restarts a server that is merely waiting on its model.
func (s *Server) healthz(ex *exchange) {
	ex.json(http.StatusOK, statusBody{Status: "ok"})
}

// readyz is readiness: every WithReady check passes.
func (s *Server) readyz(ex *exchange) {
	for _, check := range s.ready {
		if err := check(ex.r.Context()); err != nil {
			ex.err = err
			ex.fail(http.StatusServiceUnavailable, CodeNotReady, "not ready: "+err.Error())
			return
		}
	}
	ex.json(http.StatusOK, statusBody{Status: "ready"})
}

// serveMetrics hands /metrics to the exporter's handler.
func (s *Server) serveMetrics(ex *exchange) {
	if s.metricsH == nil {
		ex.fail(http.StatusNotFound, CodeNotFound, "metrics are not enabled on this server")
		return
	}
	rec := &codeRecorder{ResponseWriter: ex.w, code: http.StatusOK}
	s.metricsH.ServeHTTP(rec, ex.r)
	ex.code = rec.code
}

// codeRecorder notes the status code a wrapped handler writes.
type codeRecorder struct {
	http.ResponseWriter
	code int
}

func (c *codeRecorder) WriteHeader(code int) {
	c.code = code
	c.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the underlying writer (flush, deadlines).
func (c *codeRecorder) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// statusBody is the reply of /healthz and /readyz.
type statusBody struct {
	Status string `json:"status"`
}
