package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v4"
	openai "github.com/sashabaranov/go-openai"

	"github.com/guardianhq/guardian/guardian/model"
)

// MaxResponseBytes caps the HTTP response body of one attempt. A verdict is a few hundred
// bytes and Parse rejects content over model.MaxBodyBytes anyway; this cap bounds memory before
// go-openai decodes anything, whatever a broken or hostile server sends.
const MaxResponseBytes = 1 << 20

// errResponseTooLarge is what the capped body returns once MaxResponseBytes is exceeded.
var errResponseTooLarge = fmt.Errorf("response body over %d bytes", MaxResponseBytes)

// attemptRecord is what the recording Doer learns about one HTTP exchange that go-openai does
// not expose: the status, the Retry-After header, and whether the body hit the cap. It travels
// in the request's context, so each attempt has its own and concurrent reviews share nothing.
// It is written and read on the goroutine that calls CreateChatCompletion (go-openai calls Do
// and reads the body synchronously), so it needs no lock.
type attemptRecord struct {
	// sent is set once the request reached the HTTP client: go-openai refuses some requests
	// (reasoning models' parameters) before sending them.
	sent          bool
	status        int
	retryAfter    time.Duration
	hasRetryAfter bool
	tooLarge      bool
	// body is the successful response body as read, for the fields go-openai does not decode.
	body  []byte
	extra extraFields
}

type attemptKey struct{}

// recordingDoer wraps the caller's HTTP client: it records per attempt what go-openai hides
// (see attemptRecord) and caps the response body.
type recordingDoer struct {
	next openai.HTTPDoer
	now  func() time.Time
}

// Do implements openai.HTTPDoer.
func (d recordingDoer) Do(req *http.Request) (*http.Response, error) {
	if rec, ok := req.Context().Value(attemptKey{}).(*attemptRecord); ok {
		rec.sent = true
	}
	resp, err := d.next.Do(req)
	if err != nil || resp == nil {
		return resp, err
	}
	if rec, ok := req.Context().Value(attemptKey{}).(*attemptRecord); ok {
		rec.status = resp.StatusCode
		rec.retryAfter, rec.hasRetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), d.now())
		resp.Body = &cappedBody{rc: resp.Body, left: MaxResponseBytes, rec: rec, keep: resp.StatusCode/100 == 2}
	} else {
		resp.Body = &cappedBody{rc: resp.Body, left: MaxResponseBytes, rec: &attemptRecord{}}
	}
	return resp, nil
}

// cappedBody fails reading once more than left bytes arrive, like http.MaxBytesReader.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
	rec  *attemptRecord
	keep bool // keep a copy of the body in rec (successful responses of a review attempt)
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errResponseTooLarge
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		b.rec.tooLarge = true
		return n - int(-b.left), errResponseTooLarge
	}
	if b.keep {
		b.rec.body = append(b.rec.body, p[:n]...)
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP date. A date in the past
// is a zero wait; an unreadable value is ignored (ok false), falling back to the backoff.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(24*time.Hour/time.Second) {
			secs = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// httpStatus returns the HTTP status of a go-openai error, or 0 when there was no response.
func httpStatus(err error) int {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode
	}
	return 0
}

// retryableStatus lists the statuses worth another attempt: request timeout, conflict, rate
// limit and server errors. Every other 4xx will fail the same way again.
func retryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusConflict ||
		code == http.StatusTooManyRequests || code >= 500
}

// retryAfterError says the server asked for a wait that does not fit before the deadline.
type retryAfterError struct {
	wait, left time.Duration
	err        error
}

func (e *retryAfterError) Error() string {
	return fmt.Sprintf("server asked to retry after %s, but only %s remain before the deadline: %v",
		e.wait, e.left.Round(time.Millisecond), e.err)
}

func (e *retryAfterError) Unwrap() error { return e.err }

// classify decides what the retry loop does with a failed attempt: nil-free, it returns the
// error to retry with, or a backoff.Permanent one to stop with. ctx is the review's ctx.
func classify(ctx context.Context, err error, rec *attemptRecord, deadline time.Time, now time.Time) (retry bool, out error) {
	switch {
	case rec.tooLarge || errors.Is(err, errResponseTooLarge):
		return false, &model.BadOutputError{Reason: fmt.Sprintf("response body over %d bytes", MaxResponseBytes)}
	case ctx.Err() != nil:
		return false, err // the review's deadline passed or it was cancelled: no more attempts
	case errors.Is(err, context.DeadlineExceeded):
		return true, err // this attempt's own timeout
	case !rec.sent:
		return false, err // the client refused to send it: the same request fails the same way
	}
	if code := httpStatus(err); code != 0 {
		if !retryableStatus(code) {
			return false, err
		}
		if rec.hasRetryAfter {
			if left := deadline.Sub(now); rec.retryAfter >= left {
				return false, &retryAfterError{wait: rec.retryAfter, left: left, err: err}
			}
		}
		return true, err
	}
	if rec.status == 0 {
		return true, err // no response at all: a network error
	}
	// A response arrived with a success status but could not be read as a completion.
	var netErr net.Error
	if errors.As(err, &netErr) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true, err // the connection broke mid-body
	}
	return false, &model.BadOutputError{Reason: fmt.Sprintf("response is not a chat completion (HTTP %d): %v", rec.status, err)}
}

// hintedBackOff is an exponential backoff that a Retry-After hint can lengthen for the next
// wait. backoff/v4 has no notion of a server-suggested delay, so the retry loop sets the hint
// after an attempt and NextBackOff uses it once.
type hintedBackOff struct {
	backoff.BackOff
	hint    time.Duration
	hasHint bool
}

func (h *hintedBackOff) NextBackOff() time.Duration {
	d := h.BackOff.NextBackOff()
	if d == backoff.Stop {
		return d
	}
	if h.hasHint {
		h.hasHint = false
		d = max(d, h.hint)
	}
	return d
}
