// Package auditotlp ships audit records as OpenTelemetry log records over OTLP/HTTP, so that a
// team's collector sends guardian's decisions wherever it already sends logs. The local
// hash-chained log stays the source of truth: a record is shipped only once it is on disk, a
// record that cannot be shipped is dropped and counted, and shipping never holds up a review.
//
// Each log record carries the audit record exactly as written (its line, redacted as the log
// is) as its body, its time as the timestamp, and attributes for filtering:
// guardian.decision, guardian.status, guardian.decided_by, guardian.kind, guardian.caller.host,
// guardian.audit.id, guardian.audit.prev, guardian.audit.hash and guardian.policy. prev/hash
// let a reader check that it has every record of a replica, in order.
package auditotlp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"

	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/riskmodel"
)

// Defaults of the options.
const (
	DefaultQueueSize = 4096
	DefaultBatchSize = 512
	DefaultInterval  = time.Second
	// DefaultExportTimeout bounds one export, retries included.
	DefaultExportTimeout = 30 * time.Second
)

// The metric names.
const (
	MetricShipped = "guardian.audit.otlp.shipped" // counter: records the collector accepted
	MetricDropped = "guardian.audit.otlp.dropped" // counter: reason = queue_full|export_failed|closed
)

// Shipper exports audit records. Ship is called by the audit log's writer (audit.WithOnCommit)
// and never blocks: a full queue drops the record and counts it. One goroutine batches the
// queue and exports it, so records leave in the order they were written.
type Shipper struct {
	exp       sdklog.Exporter
	logger    otellog.Logger
	provider  *sdklog.LoggerProvider
	queue     chan sdklog.Record
	batchSize int
	interval  time.Duration
	timeout   time.Duration
	log       *slog.Logger

	shipped, dropped metric.Int64Counter

	mu     sync.RWMutex // guards closed against Ship's send
	closed bool
	done   chan struct{}
}

// Option configures New.
type Option func(*config)

type config struct {
	queueSize, batchSize int
	interval, timeout    time.Duration
	mp                   metric.MeterProvider
	log                  *slog.Logger
	res                  *resource.Resource
}

// WithQueueSize bounds the records waiting to be exported (4096).
func WithQueueSize(n int) Option { return func(c *config) { c.queueSize = n } }

// WithBatchSize sets the most records one export carries (512).
func WithBatchSize(n int) Option { return func(c *config) { c.batchSize = n } }

// WithInterval sets how long a record may wait for its batch to fill (1 s).
func WithInterval(d time.Duration) Option { return func(c *config) { c.interval = d } }

// WithMeterProvider sets where the shipped and dropped counters go.
func WithMeterProvider(mp metric.MeterProvider) Option { return func(c *config) { c.mp = mp } }

// WithLogger sets where failed exports are logged (slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.log = l } }

// WithResource sets the resource the records are exported under (service.name=guardian and
// what the caller adds, e.g. the replica's host name).
func WithResource(r *resource.Resource) Option { return func(c *config) { c.res = r } }

// NewHTTP returns a shipper to an OTLP/HTTP collector: endpoint is its base URL
// (https://collector:4318, to which /v1/logs is added) or the full URL of its logs path.
func NewHTTP(ctx context.Context, endpoint string, headers map[string]string, insecure bool, opts ...Option) (*Shipper, error) {
	eo := []otlploghttp.Option{otlploghttp.WithEndpointURL(logsURL(endpoint)), otlploghttp.WithTimeout(10 * time.Second)}
	if insecure {
		eo = append(eo, otlploghttp.WithInsecure())
	}
	if len(headers) > 0 {
		eo = append(eo, otlploghttp.WithHeaders(headers))
	}
	exp, err := otlploghttp.New(ctx, eo...)
	if err != nil {
		return nil, fmt.Errorf("audit OTLP exporter for %s: %w", endpoint, err)
	}
	return New(exp, opts...), nil
}

// logsURL adds /v1/logs to an endpoint given without a path.
func logsURL(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Path != "" && u.Path != "/") {
		return endpoint
	}
	u.Path = "/v1/logs"
	return u.String()
}

// New returns a shipper around any log exporter and starts its export goroutine.
func New(exp sdklog.Exporter, opts ...Option) *Shipper {
	c := config{queueSize: DefaultQueueSize, batchSize: DefaultBatchSize, interval: DefaultInterval, timeout: DefaultExportTimeout, log: slog.Default()}
	for _, o := range opts {
		o(&c)
	}
	if c.res == nil {
		c.res = resource.NewSchemaless(attribute.String("service.name", "guardian"))
	}
	s := &Shipper{exp: exp, queue: make(chan sdklog.Record, max(c.queueSize, 1)), batchSize: max(c.batchSize, 1),
		interval: c.interval, timeout: c.timeout, log: c.log, done: make(chan struct{})}
	s.provider = sdklog.NewLoggerProvider(sdklog.WithProcessor(queueProcessor{s}), sdklog.WithResource(c.res))
	s.logger = s.provider.Logger("github.com/guardianhq/guardian/guardian/audit")
	mp := c.mp
	if mp == nil {
		mp = noop.NewMeterProvider()
	}
	meter := mp.Meter("github.com/guardianhq/guardian/guardian/audit/auditotlp")
	var err error
	if s.shipped, err = meter.Int64Counter(MetricShipped, metric.WithUnit("{record}"),
		metric.WithDescription("Audit records the OTLP collector accepted.")); err != nil {
		s.shipped = noop.Int64Counter{}
	}
	if s.dropped, err = meter.Int64Counter(MetricDropped, metric.WithUnit("{record}"),
		metric.WithDescription("Audit records not shipped over OTLP, by reason (queue_full, export_failed, closed); they are in the local log.")); err != nil {
		s.dropped = noop.Int64Counter{}
	}
	go s.run()
	return s
}

// Ship queues one record for export (audit.WithOnCommit's signature). It never blocks.
func (s *Shipper) Ship(rec audit.Record, line []byte) {
	var r otellog.Record
	r.SetTimestamp(rec.Time)
	r.SetObservedTimestamp(time.Now())
	r.SetSeverity(severity(rec.Decision))
	r.SetSeverityText(rec.Decision.String())
	r.SetEventName("guardian.decision")
	r.SetBody(attribute.StringValue(string(line)))
	r.AddAttributes(
		attribute.String("guardian.decision", rec.Decision.String()),
		attribute.String("guardian.status", string(rec.Status)),
		attribute.String("guardian.decided_by", rec.DecidedBy),
		attribute.String("guardian.kind", string(rec.Kind)),
		attribute.String("guardian.caller.host", rec.Caller.Host),
		attribute.String("guardian.audit.id", rec.ID),
		attribute.String("guardian.audit.prev", rec.Prev),
		attribute.String("guardian.audit.hash", rec.Hash),
		attribute.String("guardian.policy", rec.Policy),
	)
	s.logger.Emit(context.Background(), r)
}

func severity(d riskmodel.Decision) otellog.Severity {
	if d == riskmodel.Allow {
		return otellog.SeverityInfo
	}
	return otellog.SeverityWarn
}

// queueProcessor is the LoggerProvider's only processor: it hands each record to the
// shipper's bounded queue, dropping it (counted) when the queue is full or closed.
type queueProcessor struct{ s *Shipper }

func (p queueProcessor) OnEmit(ctx context.Context, r *sdklog.Record) error {
	s := p.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		s.dropped.Add(ctx, 1, metric.WithAttributes(attribute.String("reason", "closed")))
		return nil
	}
	select {
	case s.queue <- r.Clone():
	default:
		s.dropped.Add(ctx, 1, metric.WithAttributes(attribute.String("reason", "queue_full")))
	}
	return nil
}

func (queueProcessor) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (queueProcessor) Shutdown(context.Context) error                         { return nil }
func (queueProcessor) ForceFlush(context.Context) error                       { return nil }

// run exports the queue in batches of up to batchSize, or what has come within interval,
// until the queue is closed and drained.
func (s *Shipper) run() {
	defer close(s.done)
	batch := make([]sdklog.Record, 0, s.batchSize)
	tick := time.NewTicker(s.interval)
	defer tick.Stop()
	for {
		select {
		case r, ok := <-s.queue:
			if !ok {
				s.export(batch)
				return
			}
			batch = append(batch, r)
			if len(batch) < s.batchSize {
				continue
			}
		case <-tick.C:
		}
		s.export(batch)
		batch = batch[:0]
	}
}

func (s *Shipper) export(batch []sdklog.Record) {
	if len(batch) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	if err := s.exp.Export(ctx, batch); err != nil {
		s.dropped.Add(ctx, int64(len(batch)), metric.WithAttributes(attribute.String("reason", "export_failed")))
		s.log.Warn("audit records not shipped over OTLP (they are in the local log)", "records", len(batch), "err", err)
		return
	}
	s.shipped.Add(ctx, int64(len(batch)))
}

// Close stops accepting records, exports what is queued (bounded by ctx), and shuts the
// exporter down. Records shipped after Close are dropped and counted.
func (s *Shipper) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.queue)
	s.mu.Unlock()
	var err error
	select {
	case <-s.done:
	case <-ctx.Done():
		err = fmt.Errorf("audit OTLP: records still queued at shutdown: %w", ctx.Err())
	}
	return errors.Join(err, s.exp.Shutdown(ctx), s.provider.Shutdown(ctx))
}
