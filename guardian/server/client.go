package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/propagation"

	"github.com/guardianhq/guardian/guardian"
)

// ErrUnreachable is wrapped by Client errors that happened before any request reached a
// server: the connection was refused, the socket file is missing, the name does not resolve.
// Nothing was decided, so an adapter may fall back to reviewing in-process. Every other error
// (a non-200 answer, a broken reply, a timeout after the request was sent) means a server is
// there: the adapter must answer its host's fail-safe, not review a second time.
var ErrUnreachable = errors.New("guardian serve is unreachable")

// maxReplyBytes bounds a review reply the client reads. A result quotes segments of the
// request (at most 256 KiB) in its findings, so it stays well below this.
const maxReplyBytes = 8 << 20

// Client asks a running guardian serve for decisions. It is a guardian.Decider, so an adapter
// uses it exactly like the in-process pipeline. It is safe for concurrent use and keeps
// connections alive between calls.
type Client struct {
	target   string // as given, for messages
	base     string // URL prefix of the routes
	token    string
	hc       *http.Client
	approval string // HeaderApproval to send with reviews; "" sends none
	approver string // HeaderApproverToken to send; "" sends none
}

// ClientOption configures a Client.
type ClientOption func(*clientConfig)

type clientConfig struct {
	token    string
	hc       *http.Client
	approval string
	approver string
}

// WithClientApproverToken sends the approver token (HeaderApproverToken), which a server started
// with one requires to answer approvals and revoke grants.
func WithClientApproverToken(token string) ClientOption {
	return func(c *clientConfig) { c.approver = token }
}

// WithApprovalMode sends HeaderApproval with every review: ApprovalQueue asks the server to
// hold a review that asks until a person answers it, for at most the time left before the
// review's context deadline (less HoldMargin, sent as HeaderWait); ApprovalHost asks it not to.
func WithApprovalMode(mode string) ClientOption { return func(c *clientConfig) { c.approval = mode } }

// HoldMargin is the part of a review's deadline a held review leaves to the client: to read
// the answer, record it and reply to its host before the host's own timeout.
const HoldMargin = 2 * time.Second

// WithClientToken sends "Authorization: Bearer <token>" with every request, for a server
// started with a token.
func WithClientToken(token string) ClientOption { return func(c *clientConfig) { c.token = token } }

// WithHTTPClient replaces the default HTTP client (keep-alive, 5 s connect timeout, no overall
// timeout: the caller's context bounds a review). For a unix socket target, the client's
// Transport must be nil or an *http.Transport; a copy of it dials the socket.
func WithHTTPClient(hc *http.Client) ClientOption { return func(c *clientConfig) { c.hc = hc } }

// NewClient returns a client of the guardian serve at target: "http://host:port",
// "https://host:port" or "unix:///path/to.sock" (also "unix:/path/to.sock").
func NewClient(target string, opts ...ClientOption) (*Client, error) {
	var cfg clientConfig
	for _, o := range opts {
		o(&cfg)
	}
	c := &Client{target: target, token: cfg.token, approval: cfg.approval, approver: cfg.approver}
	if path, ok := SocketPath(target); ok {
		if path == "" || !strings.HasPrefix(path, "/") {
			return nil, fmt.Errorf("guardian serve target %q: a unix socket needs an absolute path, e.g. unix:///run/user/1000/guardian/guardian.sock", target)
		}
		hc, err := socketClient(cfg.hc, path)
		if err != nil {
			return nil, fmt.Errorf("guardian serve target %q: %w", target, err)
		}
		// The host part is a placeholder: the transport dials the socket whatever it says.
		c.base, c.hc = "http://guardian", hc
		return c, nil
	}
	u, err := url.Parse(target)
	switch {
	case err != nil:
		return nil, fmt.Errorf("guardian serve target %q: %w", target, err)
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return nil, fmt.Errorf("guardian serve target %q: want http://HOST:PORT, https://HOST:PORT or unix:///PATH", target)
	case u.User != nil:
		return nil, fmt.Errorf("guardian serve target %q: credentials do not belong in the URL: pass the token with GUARDIAN_TOKEN", target)
	case u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("guardian serve target %q: want a base URL without query or fragment", target)
	}
	c.base = strings.TrimRight(u.String(), "/")
	c.hc = cfg.hc
	if c.hc == nil {
		c.hc = &http.Client{Transport: newTransport(http.ProxyFromEnvironment)}
	}
	return c, nil
}

// newTransport is the default transport: connections kept alive for a burst of hook calls.
func newTransport(proxy func(*http.Request) (*url.URL, error)) *http.Transport {
	return &http.Transport{
		Proxy:                 proxy,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          128,
		MaxIdleConnsPerHost:   128,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// socketClient returns an HTTP client whose transport dials the unix socket at path.
func socketClient(hc *http.Client, path string) (*http.Client, error) {
	var tr *http.Transport
	switch {
	case hc == nil:
		tr = newTransport(nil)
	case hc.Transport == nil:
		tr = http.DefaultTransport.(*http.Transport).Clone()
	default:
		t, ok := hc.Transport.(*http.Transport)
		if !ok {
			return nil, fmt.Errorf("a unix socket needs an *http.Transport to dial it, the HTTP client has a %T", hc.Transport)
		}
		tr = t.Clone()
	}
	tr.Proxy = nil
	d := net.Dialer{Timeout: 5 * time.Second}
	tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
		return d.DialContext(ctx, "unix", path)
	}
	out := &http.Client{Transport: tr}
	if hc != nil {
		cp := *hc
		cp.Transport = tr
		out = &cp
	}
	return out, nil
}

// Target is the server the client asks, as given to NewClient.
func (c *Client) Target() string { return c.target }

// StatusError is a server's non-200 answer: its status, the error body's code and message,
// and Retry-After when the server sent one (503 saturated).
type StatusError struct {
	Target     string
	StatusCode int
	Code       string
	Message    string
	RetryAfter time.Duration
}

// Error says who answered what.
func (e *StatusError) Error() string {
	msg := fmt.Sprintf("guardian serve at %s answered %d %s", e.Target, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Code != "" {
		msg += " (" + e.Code + ")"
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// Decide asks the server to review req for caller. Any failure — the server unreachable
// (ErrUnreachable), a non-200 answer (*StatusError), a reply that is not exactly a Result
// with a valid decision — is an error: the client never makes a decision up.
func (c *Client) Decide(ctx context.Context, req guardian.Request, caller guardian.Caller) (guardian.Result, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return guardian.Result{}, fmt.Errorf("encode the request for guardian serve: %w", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+RouteReview, bytes.NewReader(body))
	if err != nil {
		return guardian.Result{}, fmt.Errorf("guardian serve at %s: %w", c.target, err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json")
	setCaller(hr.Header, caller)
	if c.approval != "" {
		hr.Header.Set(HeaderApproval, c.approval)
		if dl, ok := ctx.Deadline(); ok && c.approval == ApprovalQueue {
			hr.Header.Set(HeaderWait, max(time.Until(dl)-HoldMargin, time.Millisecond).Round(time.Millisecond).String())
		}
	}
	c.decorate(ctx, hr)
	resp, err := c.hc.Do(hr)
	if err != nil {
		return guardian.Result{}, c.transportError(ctx, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes+1))
	if err != nil {
		return guardian.Result{}, fmt.Errorf("guardian serve at %s: read the reply: %w", c.target, err)
	}
	if resp.StatusCode != http.StatusOK {
		return guardian.Result{}, c.statusError(resp, b)
	}
	if len(b) > maxReplyBytes {
		return guardian.Result{}, fmt.Errorf("guardian serve at %s: the reply is over %d bytes", c.target, maxReplyBytes)
	}
	res, err := decodeResult(b)
	if err != nil {
		return guardian.Result{}, fmt.Errorf("guardian serve at %s: bad reply: %w", c.target, err)
	}
	return res, nil
}

// decorate adds the token and the trace context to an outgoing request.
func (c *Client) decorate(ctx context.Context, hr *http.Request) {
	if c.token != "" {
		hr.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.approver != "" {
		hr.Header.Set(HeaderApproverToken, c.approver)
	}
	propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(hr.Header))
}

// transportError classifies an error of http.Client.Do. A dial error means no request went
// out (ErrUnreachable) — unless the caller's context ended, in which case there is no time
// left to fall back either.
func (c *Client) transportError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("guardian serve at %s: %w", c.target, err)
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return fmt.Errorf("%w at %s (is guardian serve running?): %w", ErrUnreachable, c.target, err)
	}
	return fmt.Errorf("guardian serve at %s: %w", c.target, err)
}

// statusError turns a non-200 reply into a *StatusError, using the JSON error body when there
// is one and a sanitized excerpt of the body otherwise (a proxy's HTML page, …).
func (c *Client) statusError(resp *http.Response, b []byte) error {
	e := &StatusError{Target: c.target, StatusCode: resp.StatusCode}
	var eb ErrorBody
	if json.Unmarshal(b, &eb) == nil && eb.Error.Code != "" {
		e.Code, e.Message = sanitize(eb.Error.Code, 64), oneLine(eb.Error.Message, 4096)
	} else {
		e.Message = sanitize(string(b), 200)
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	return e
}

// decodeResult decodes a review reply strictly: exactly one Result object with no unknown
// keys (a reply from something that is not guardian must not pass for a decision) and a valid
// decision and status.
func decodeResult(b []byte) (guardian.Result, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var res guardian.Result
	if err := dec.Decode(&res); err != nil {
		return guardian.Result{}, fmt.Errorf("not a guardian result: %w", err)
	}
	if dec.More() {
		return guardian.Result{}, errors.New("not a guardian result: data after the JSON object")
	}
	if !validDecision(res) {
		return guardian.Result{}, errors.New(`not a guardian result: no "decision" (want allow, ask or deny)`)
	}
	if res.Status == "" {
		return guardian.Result{}, errors.New(`not a guardian result: no "status"`)
	}
	return res, nil
}
