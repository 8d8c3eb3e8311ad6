package e2e

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// stallingModel is an OpenAI-compatible chat completions endpoint that never answers: each
// request is held until the client gives up or the test ends. Configured as guardian's model,
// it makes every model review run past its deadline.
type stallingModel struct {
	srv  *httptest.Server
	stop chan struct{}

	mu       sync.Mutex
	requests int
}

// newStallingModel starts the endpoint on 127.0.0.1; at the end of the test it releases the
// held requests and closes.
func newStallingModel(t *testing.T) *stallingModel {
	t.Helper()
	m := &stallingModel{stop: make(chan struct{})}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.requests++
		m.mu.Unlock()
		select {
		case <-r.Context().Done():
		case <-m.stop:
		}
		http.Error(w, "stalled on purpose", http.StatusServiceUnavailable)
	}))
	t.Cleanup(func() {
		close(m.stop)
		m.srv.Close()
	})
	return m
}

// URL is the API root (with /v1) for guardian's [model] base_url.
func (m *stallingModel) URL() string { return m.srv.URL + "/v1" }

// Requests is how many reviews reached the endpoint.
func (m *stallingModel) Requests() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.requests
}
