package e2e

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// serveFake serves a fake's handler on 127.0.0.1 until the test ends.
func serveFake(t *testing.T, handler http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return srv
}

// recorder keeps what a fake model server saw, for the test to read after the host exits:
// a line for every request, and the tool results the host sent back for the scripted call.
// The server's handlers write to it concurrently.
type recorder struct {
	mu       sync.Mutex
	results  []toolResult
	requests []string
}

func (r *recorder) request(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, line)
}

func (r *recorder) result(res toolResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results = append(r.results, res)
}

// Result is the first tool result the host sent back for the scripted call.
func (r *recorder) Result() (toolResult, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.results) == 0 {
		return toolResult{}, false
	}
	return r.results[0], true
}

// Requests lists the requests the host made, for failure messages.
func (r *recorder) Requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.requests...)
}
