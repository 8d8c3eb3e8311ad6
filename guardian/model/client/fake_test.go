package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/model/client"
	"github.com/guardianhq/guardian/riskmodel"
)

// fakeModel is an OpenAI-compatible chat-completions server for tests. Each request's decoded
// body is kept; handle answers request n (0-based). Handlers that block must select on the
// request's context and stop, which is closed when the test ends (before the server closes),
// so no handler outlives the test.
type fakeModel struct {
	srv    *httptest.Server
	stop   chan struct{}
	handle func(w http.ResponseWriter, r *http.Request, n int, body map[string]any)

	mu     sync.Mutex
	bodies []map[string]any
	paths  []string
}

const chatPath = "/v1/chat/completions"

func newFake(tb testing.TB, handle func(w http.ResponseWriter, r *http.Request, n int, body map[string]any)) *fakeModel {
	tb.Helper()
	f := &fakeModel{stop: make(chan struct{}), handle: handle}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	tb.Cleanup(f.srv.Close)
	tb.Cleanup(func() { close(f.stop) }) // runs first: unblocks handlers, then the server closes
	return f
}

func (f *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, "bad json: "+err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, body)
	f.paths = append(f.paths, r.URL.Path)
	f.mu.Unlock()
	f.handle(w, r, n, body)
}

// requests returns the bodies seen so far.
func (f *fakeModel) requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.bodies...)
}

func (f *fakeModel) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

// block waits until the client gives up or the test ends: a model that never answers.
func (f *fakeModel) block(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-f.stop:
	}
}

// completion is a chat-completion response body with one choice.
func completion(content string) map[string]any {
	return map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": "test-model",
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content},
		}},
		"usage": map[string]any{"prompt_tokens": 120, "completion_tokens": 45, "total_tokens": 165},
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func apiError(w http.ResponseWriter, status int, msg, param string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": param, "code": nil}})
}

// answer serves the same content to every request.
func answer(content string) func(http.ResponseWriter, *http.Request, int, map[string]any) {
	return func(w http.ResponseWriter, r *http.Request, _ int, _ map[string]any) {
		if r.URL.Path != chatPath {
			http.NotFound(w, r)
			return
		}
		writeJSON(w, http.StatusOK, completion(content))
	}
}

func verdictJSON(outcome, level string) string {
	return fmt.Sprintf(`{"summary":"Shows the working tree status.","risk_level":%q,"category":"read_only","user_authorization":"unknown","rationale":"Reads repository metadata only.","safer_alternative":"","outcome":%q}`, level, outcome)
}

func newReviewer(tb testing.TB, f *fakeModel, opts ...client.Option) *client.Reviewer {
	tb.Helper()
	cfg := client.Config{BaseURL: f.srv.URL + "/v1", Model: "test-model", APIKey: "sk-test", Seed: 42}
	rev, err := client.New(cfg, append([]client.Option{client.WithBackoff(time.Millisecond, 4*time.Millisecond)}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	return rev
}

func execRequest(cmd ...string) guardian.Request {
	return guardian.ExecRequest(riskmodel.ExecRequest{Command: cmd, Cwd: "/home/dev/project", Justification: "check the repo"})
}

var askRules = riskmodel.Verdict{Decision: riskmodel.Ask, DecidedBy: "rules",
	Assessment: riskmodel.Assessment{Level: riskmodel.Medium, Category: riskmodel.CatNone, Summary: "unknown command"}}

// review runs one review with the given deadline.
func review(tb testing.TB, rev *client.Reviewer, deadline time.Duration, req guardian.Request) (client.Detail, error) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	return rev.ReviewDetailed(ctx, req, askRules)
}

// status returns the *guardian.ReviewError status of err, or "" when it is not one.
func status(err error) guardian.Status {
	var re *guardian.ReviewError
	if errors.As(err, &re) {
		return re.Status
	}
	return ""
}
