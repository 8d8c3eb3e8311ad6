package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// execBody is a small valid review request.
const execBody = `{"kind":"exec","request":{"command":["git","status"],"cwd":"/home/dev/proj"}}`

// askResult is what the fake deciders answer.
func askResult() guardian.Result {
	return guardian.Result{Decision: riskmodel.Ask, Status: guardian.StatusRule, DecidedBy: "rule:test",
		Assessment: riskmodel.Assessment{Summary: "a test", Level: riskmodel.Medium, Category: riskmodel.CatNone, Rationale: "because"}}
}

// fixed answers every request with res or err and remembers the last caller and request.
type fixed struct {
	res guardian.Result
	err error

	mu     sync.Mutex
	caller guardian.Caller
	req    guardian.Request
	calls  int
}

func (f *fixed) Decide(_ context.Context, req guardian.Request, c guardian.Caller) (guardian.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.caller, f.req = c, req
	f.calls++
	return f.res, f.err
}

func (f *fixed) last() (guardian.Caller, guardian.Request, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.caller, f.req, f.calls
}

// gate blocks every review until release is closed, announcing each one on entered, so a
// test can hold reviews in flight without sleeping.
type gate struct {
	entered chan struct{}
	release chan struct{}
}

func newGate(n int) *gate {
	return &gate{entered: make(chan struct{}, n), release: make(chan struct{})}
}

func (g *gate) Decide(ctx context.Context, _ guardian.Request, _ guardian.Caller) (guardian.Result, error) {
	g.entered <- struct{}{}
	select {
	case <-g.release:
		return askResult(), nil
	case <-ctx.Done():
		return guardian.Result{}, ctx.Err()
	}
}

// countingAuditor counts audited decisions, passing each to next first when it is set (the
// load benchmark's real audit log), so a test can check that every answered review was audited.
type countingAuditor struct {
	next guardian.Auditor
	n    atomic.Int64
}

func (a *countingAuditor) Audit(ctx context.Context, e guardian.AuditEntry) error {
	if a.next != nil {
		if err := a.next.Audit(ctx, e); err != nil {
			return err
		}
	}
	a.n.Add(1)
	return nil
}

func (a *countingAuditor) len() int { return int(a.n.Load()) }

// records is a DecisionSource over a fixed list.
type records struct {
	recs  []json.RawMessage
	err   error
	asked int
}

func (r *records) Recent(_ context.Context, n int) ([]json.RawMessage, error) {
	r.asked = n
	if r.err != nil {
		return nil, r.err
	}
	return r.recs[max(0, len(r.recs)-n):], nil
}

// do sends one request straight to the handler.
func do(t *testing.T, h http.Handler, method, path, body string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, path, rd)
	for k, vs := range header {
		r.Header[k] = vs
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// errorOf decodes an error reply, failing the test when the body is not exactly one.
func errorOf(t *testing.T, body []byte) server.ErrorDetail {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	var eb server.ErrorBody
	if err := dec.Decode(&eb); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	if eb.Error.Code == "" || eb.Error.Message == "" {
		t.Fatalf("error body %q: code and message must be set", body)
	}
	return eb.Error
}

var errDisk = errors.New("audit log: write: no space left on device")
