// Package notify sends guardian's events to webhooks: a deny, a circuit breaker that opens, a
// request waiting for a human. A webhook gets a generic JSON body or a Slack-compatible one.
// Delivery never holds up a review: Notify only queues, each webhook has its own bounded queue
// and its own worker (a dead endpoint delays nobody else), a full queue drops the event (and
// says so in the log), and a failed delivery is retried with exponential backoff.
package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// Kind is what happened.
type Kind string

// The kinds a webhook can ask for.
const (
	// KindDeny is a decision of deny.
	KindDeny Kind = "deny"
	// KindBreakerOpen is a circuit breaker that opened: the denials breaker (every request now
	// goes to the human) or the model breaker (the model is skipped).
	KindBreakerOpen Kind = "breaker_open"
	// KindPending is a request held for a human to approve or deny.
	KindPending Kind = "pending"
)

// Kinds lists every kind, in the order the docs give them.
var Kinds = []Kind{KindDeny, KindBreakerOpen, KindPending}

// Format is the body a webhook gets.
type Format string

// The formats.
const (
	// FormatJSON is the Event as JSON.
	FormatJSON Format = "json"
	// FormatSlack is {"text": "…"}, what Slack's incoming webhooks (and Mattermost's, and
	// Discord's /slack endpoints) accept.
	FormatSlack Format = "slack"
)

// Webhook is one [[notify.webhook]]: where to post, which kinds, in which format.
type Webhook struct {
	URL    string
	Kinds  []Kind // empty: every kind
	Format Format // "" is FormatJSON
}

// wants reports whether w asks for kind.
func (w Webhook) wants(k Kind) bool { return len(w.Kinds) == 0 || slices.Contains(w.Kinds, k) }

// Event is one notification. Its text comes from guardian's own records, already redacted
// (an audit record has its secrets removed before it is written).
type Event struct {
	Kind Kind      `json:"kind"`
	Time time.Time `json:"time"`
	// Summary is one line for a person: what was asked and what guardian answered.
	Summary string `json:"summary"`
	// ID is the audit record's id (guardian audit explain ID), or the pending request's.
	ID        string `json:"id,omitempty"`
	Host      string `json:"host,omitempty"`
	Session   string `json:"session,omitempty"`
	DecidedBy string `json:"decided_by,omitempty"`
	// Details is the audit record, the breakers' state or the pending request, as JSON.
	Details json.RawMessage `json:"details,omitempty"`
}

// Defaults.
const (
	// DefaultQueue is how many events wait per webhook before new ones are dropped.
	DefaultQueue = 256
	// DefaultTimeout bounds one delivery attempt.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxElapsed bounds the retries of one event.
	DefaultMaxElapsed = 2 * time.Minute
)

// Option configures a Notifier.
type Option func(*Notifier)

// WithHTTPClient sets the client deliveries use (default: one with DefaultTimeout).
func WithHTTPClient(c *http.Client) Option { return func(n *Notifier) { n.client = c } }

// WithLogger sets where dropped events and failed deliveries are reported (default: discarded).
func WithLogger(l *slog.Logger) Option { return func(n *Notifier) { n.logger = l } }

// WithQueue sets the per-webhook queue length (DefaultQueue). Values below 1 are ignored.
func WithQueue(size int) Option {
	return func(n *Notifier) {
		if size > 0 {
			n.queue = size
		}
	}
}

// WithBackOff sets the retry policy, made anew for each event (default: exponential, from
// 500 ms, at most 30 s apart, for DefaultMaxElapsed).
func WithBackOff(f func() backoff.BackOff) Option { return func(n *Notifier) { n.backoff = f } }

// Notifier delivers events to webhooks. Its zero value is not usable; a nil *Notifier
// accepts and drops every event, so callers need no check for "notifications off".
type Notifier struct {
	client  *http.Client
	logger  *slog.Logger
	queue   int
	backoff func() backoff.BackOff

	sinks  []*sink
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.RWMutex
	closed bool
}

// sink is one webhook's queue and worker.
type sink struct {
	hook Webhook
	name string // the redacted URL, for logs
	c    chan Event
}

// New starts one worker per webhook. Close stops them.
func New(hooks []Webhook, opts ...Option) *Notifier {
	n := &Notifier{client: &http.Client{Timeout: DefaultTimeout}, logger: slog.New(slog.DiscardHandler), queue: DefaultQueue,
		backoff: func() backoff.BackOff {
			b := backoff.NewExponentialBackOff()
			b.InitialInterval, b.MaxInterval, b.MaxElapsedTime = 500*time.Millisecond, 30*time.Second, DefaultMaxElapsed
			return b
		}}
	for _, o := range opts {
		o(n)
	}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	for _, h := range hooks {
		s := &sink{hook: h, name: RedactURL(h.URL), c: make(chan Event, n.queue)}
		n.sinks = append(n.sinks, s)
		n.wg.Add(1)
		go n.work(s)
	}
	return n
}

// Notify queues e for every webhook that asks for its kind. It never blocks: an event that
// finds a webhook's queue full is dropped for that webhook, and the drop is logged.
func (n *Notifier) Notify(ctx context.Context, e Event) {
	if n == nil {
		return
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	n.mu.RLock()
	defer n.mu.RUnlock()
	if n.closed {
		return
	}
	for _, s := range n.sinks {
		if !s.hook.wants(e.Kind) {
			continue
		}
		select {
		case s.c <- e:
		default:
			n.logger.LogAttrs(ctx, slog.LevelWarn, "notification dropped: the webhook's queue is full",
				slog.String("webhook", s.name), slog.String("kind", string(e.Kind)), slog.Int("queue", n.queue))
		}
	}
}

// Close stops accepting events and waits for the queued ones to be delivered, until ctx ends;
// then the deliveries still running are abandoned.
func (n *Notifier) Close(ctx context.Context) error {
	if n == nil {
		return nil
	}
	n.mu.Lock()
	if !n.closed {
		n.closed = true
		for _, s := range n.sinks {
			close(s.c)
		}
	}
	n.mu.Unlock()
	done := make(chan struct{})
	go func() { n.wg.Wait(); close(done) }()
	select {
	case <-done:
		n.cancel()
		return nil
	case <-ctx.Done():
		n.cancel()
		<-done
		return fmt.Errorf("notify: undelivered notifications abandoned at shutdown: %w", ctx.Err())
	}
}

func (n *Notifier) work(s *sink) {
	defer n.wg.Done()
	for e := range s.c {
		if err := n.deliver(s, e); err != nil {
			n.logger.LogAttrs(n.ctx, slog.LevelWarn, "notification not delivered", slog.String("webhook", s.name),
				slog.String("kind", string(e.Kind)), slog.String("err", err.Error()))
		}
	}
}

// deliver posts e to s, retrying network errors, 408, 429 and 5xx with backoff.
func (n *Notifier) deliver(s *sink, e Event) error {
	body, err := Body(s.hook.Format, e)
	if err != nil {
		return err
	}
	attempt := func() error {
		req, err := http.NewRequestWithContext(n.ctx, http.MethodPost, s.hook.URL, bytes.NewReader(body))
		if err != nil {
			return backoff.Permanent(fmt.Errorf("build the request: %w", redactErr(err, s.hook.URL)))
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", "guardian-notify")
		resp, err := n.client.Do(req)
		if err != nil {
			return redactErr(err, s.hook.URL)
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		switch {
		case resp.StatusCode >= 200 && resp.StatusCode < 300:
			return nil
		case resp.StatusCode == http.StatusRequestTimeout, resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode >= 500:
			return fmt.Errorf("the webhook answered %s", resp.Status)
		}
		return backoff.Permanent(fmt.Errorf("the webhook answered %s; check its URL and format", resp.Status))
	}
	return backoff.Retry(attempt, backoff.WithContext(n.backoff(), n.ctx))
}

// Body is what a webhook of format f is sent for e.
func Body(f Format, e Event) ([]byte, error) {
	switch f {
	case "", FormatJSON:
		return json.Marshal(e)
	case FormatSlack:
		return json.Marshal(struct {
			Text string `json:"text"`
		}{slackText(e)})
	}
	return nil, fmt.Errorf("notify: unknown format %q: want json or slack", f)
}

// slackText is the event as one Slack message. Slack reads <…> as links and mentions and &
// as an entity, so the event's text — which quotes an agent's command — is escaped: a command
// cannot become a link or an @channel.
func slackText(e Event) string {
	var b strings.Builder
	b.WriteString("*guardian " + slackEscape(string(e.Kind)) + "*: " + slackEscape(e.Summary))
	var meta []string
	for _, kv := range [][2]string{{"by", e.DecidedBy}, {"host", e.Host}, {"session", e.Session}, {"id", e.ID}} {
		if kv[1] != "" {
			meta = append(meta, kv[0]+" `"+slackEscape(strings.ReplaceAll(kv[1], "`", "'"))+"`")
		}
	}
	if len(meta) > 0 {
		b.WriteString("\n" + strings.Join(meta, " · "))
	}
	return b.String()
}

var slackEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func slackEscape(s string) string { return slackEscaper.Replace(s) }

// RedactURL shows a webhook URL without what makes it a secret: scheme and host only. A
// Slack webhook's path is its credential, and a query may hold a token.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(webhook URL)"
	}
	s := u.Scheme + "://" + u.Host
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		s += "/…"
	}
	return s
}

// redactErr replaces the webhook's URL in an error's text (net/http quotes it) by its
// redacted form.
func redactErr(err error, raw string) error {
	msg := err.Error()
	if !strings.Contains(msg, raw) {
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			return fmt.Errorf("%s %s: %w", ue.Op, RedactURL(raw), ue.Err)
		}
		return err
	}
	return errors.New(strings.ReplaceAll(msg, raw, RedactURL(raw)))
}
