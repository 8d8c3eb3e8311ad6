package server

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/guardianhq/guardian/guardian"
)

// review answers POST /v1/review: the body is one request envelope, the reply the Result.
func (s *Server) review(ex *exchange) {
	r := ex.r
	if r.ContentLength > s.bodyLimit {
		ex.fail(http.StatusRequestEntityTooLarge, CodeTooLarge, s.bodyLimitMessage(r.ContentLength))
		return
	}
	// The whole body is read before a review slot is taken, under its own deadline: a client
	// trickling its body holds a connection and a goroutine, never one of the --concurrency
	// slots every agent shares. (Taking the slot first let 256 slow clients deny service.)
	raw, err := s.readBody(ex)
	var req guardian.Request
	switch {
	case err == nil && len(raw) == 0:
		ex.fail(http.StatusBadRequest, CodeBadRequest, `empty body: send one JSON request envelope, e.g. {"kind":"exec","request":{"command":["git","status"],"cwd":"/src/app"}}`)
		return
	case err == nil:
		req, err = guardian.ReadRequest(bytes.NewReader(raw))
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		ex.fail(http.StatusRequestEntityTooLarge, CodeTooLarge, s.bodyLimitMessage(-1))
		return
	case errors.Is(err, guardian.ErrTooLarge):
		ex.fail(http.StatusRequestEntityTooLarge, CodeTooLarge, err.Error())
		return
	case err != nil:
		ex.fail(http.StatusBadRequest, CodeBadRequest, err.Error())
		return
	}

	if ex.caller, err = callerFrom(r.Header); err != nil {
		ex.fail(http.StatusBadRequest, CodeBadRequest, err.Error())
		return
	}
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	default:
		// Refuse at once: queueing would only move the wait into the client's hook deadline,
		// and the client can retry or fall back sooner than a queue would drain.
		ex.w.Header().Set("Retry-After", "1")
		ex.fail(http.StatusServiceUnavailable, CodeSaturated, fmt.Sprintf(
			"saturated: %d reviews are in flight, the server's limit (guardian serve --concurrency); retry after 1 s", cap(s.sem)))
		return
	}
	res, err := s.decider.Decide(r.Context(), req, ex.caller)
	s.watchBreakers()
	var cfgErr *guardian.ConfigError
	switch {
	case errors.As(err, &cfgErr):
		ex.err = err
		ex.fail(http.StatusInternalServerError, CodeInvalidConfig, "no decision: the config for this request does not load: "+err.Error())
		return
	case errors.Is(err, guardian.ErrTooLarge):
		ex.fail(http.StatusRequestEntityTooLarge, CodeTooLarge, err.Error())
		return
	case err != nil:
		ex.err = err
		ex.fail(http.StatusInternalServerError, CodeInternal, "no decision: "+err.Error())
		return
	case !validDecision(res):
		ex.err = fmt.Errorf("the decider returned no valid decision (status %q)", sanitize(string(res.Status), 64))
		ex.fail(http.StatusInternalServerError, CodeInternal, "no decision: the reviewer returned no valid decision")
		return
	}
	var b bytes.Buffer
	if err := guardian.WriteResultJSON(&b, res); err != nil {
		ex.err = err
		ex.fail(http.StatusInternalServerError, CodeInternal, "cannot encode the decision: "+err.Error())
		return
	}
	ex.decision, ex.status, ex.decidedBy = res.Decision.String(), string(res.Status), sanitize(res.DecidedBy, 200)
	ex.write(http.StatusOK, b.Bytes())
}

// validDecision reports whether res carries one of allow, ask, deny: the zero Decision is
// invalid, and a 200 must never go out without a decision in it.
func validDecision(res guardian.Result) bool {
	_, err := res.Decision.MarshalText()
	return err == nil
}

// bodyLimitMessage names the body limit in bytes and MiB and how to raise it; size is the
// body's length when the client declared it, else -1.
func (s *Server) bodyLimitMessage(size int64) string {
	got := ""
	if size >= 0 {
		got = strconv.FormatInt(size, 10) + " bytes, "
	}
	return fmt.Sprintf("request body too large: %sthe limit is %d bytes (%s); send a smaller request (a request itself may be at most %d bytes, 256 KiB) or raise guardian serve --max-body",
		got, s.bodyLimit, mib(s.bodyLimit), guardian.MaxRequestBytes)
}

// BodyReadTimeout bounds how long a client may take to send a review's body, from the moment
// its headers were read. A hook sends its request at once; a client still sending after this
// is cut off (and the connection closed), so it cannot keep a goroutine and a buffer forever.
const BodyReadTimeout = 10 * time.Second

// readBody reads the request body whole, at most the body limit, under BodyReadTimeout.
func (s *Server) readBody(ex *exchange) ([]byte, error) {
	rc := http.NewResponseController(ex.w)
	if err := rc.SetReadDeadline(time.Now().Add(BodyReadTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return nil, fmt.Errorf("read request body: %w", err)
	}
	var b bytes.Buffer
	if ex.r.ContentLength > 0 {
		b.Grow(int(ex.r.ContentLength))
	}
	_, err := b.ReadFrom(http.MaxBytesReader(ex.w, ex.r.Body, s.bodyLimit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, err
		}
		return nil, fmt.Errorf("read request body: %w", err)
	}
	return b.Bytes(), nil
}
