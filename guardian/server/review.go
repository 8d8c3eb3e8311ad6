package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/guardianhq/guardian/guardian"
)

// review answers POST /v1/review: the body is one request envelope, the reply the Result.
func (s *Server) review(ex *exchange) {
	select {
	case s.sem <- struct{}{}:
		// The slot is given back once the review is done, before a held request waits for a
		// person: a thousand requests waiting for answers must not starve the reviews.
		release := sync.OnceFunc(func() { <-s.sem })
		defer release()
		ex.releaseSlot = release
	default:
		// Refuse at once: queueing would only move the wait into the client's hook deadline,
		// and the client can retry or fall back sooner than a queue would drain.
		ex.w.Header().Set("Retry-After", "1")
		ex.fail(http.StatusServiceUnavailable, CodeSaturated, fmt.Sprintf(
			"saturated: %d reviews are in flight, the server's limit (guardian serve --concurrency); retry after 1 s", cap(s.sem)))
		return
	}
	r := ex.r
	if r.ContentLength > s.bodyLimit {
		ex.fail(http.StatusRequestEntityTooLarge, CodeTooLarge, s.bodyLimitMessage(r.ContentLength))
		return
	}
	body, empty, err := peekBody(http.MaxBytesReader(ex.w, r.Body, s.bodyLimit))
	if err == nil && empty {
		ex.fail(http.StatusBadRequest, CodeBadRequest, `empty body: send one JSON request envelope, e.g. {"kind":"exec","request":{"command":["git","status"],"cwd":"/src/app"}}`)
		return
	}
	var req guardian.Request
	if err == nil {
		req, err = guardian.ReadRequest(body)
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
	hold, err := holdFrom(r.Header)
	if err != nil {
		ex.fail(http.StatusBadRequest, CodeBadRequest, err.Error())
		return
	}
	res, err := s.decider.Decide(r.Context(), req, ex.caller)
	if err == nil && s.gate != nil && validDecision(res) {
		ex.releaseSlot()
		res, err = s.resolve(ex, req, res, hold)
	}
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

// peekBody reads the first byte of r to tell an empty body from one that is merely short, and
// returns a reader that still yields the whole body.
func peekBody(r io.Reader) (body io.Reader, empty bool, err error) {
	var first [1]byte
	n, err := io.ReadFull(r, first[:])
	switch {
	case n == 0 && errors.Is(err, io.EOF):
		return nil, true, nil
	case n == 0:
		return nil, false, fmt.Errorf("read request body: %w", err)
	}
	return io.MultiReader(bytes.NewReader(first[:]), r), false, nil
}
