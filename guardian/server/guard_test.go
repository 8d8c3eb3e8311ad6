package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
)

// get sends one request to a live server with the given Host and extra headers.
func send(t *testing.T, ts *httptest.Server, method, path, host, body string, header map[string]string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestHostHeader: a page whose DNS name was rebound to the server's address sends its own
// name as Host, and gets 403 before the token or the route is looked at; the server's own
// names (IP literals, localhost, --allow-host) are served.
func TestHostHeader(t *testing.T) {
	recs := &records{recs: []json.RawMessage{json.RawMessage(`{"decision":"deny"}`)}}
	s := server.New(&fixed{res: askResult()}, server.WithDecisions(recs), server.WithAllowedHosts("Guardian.LAN"))
	ts := httptest.NewServer(s)
	defer ts.Close()
	port := ts.Listener.Addr().(*net.TCPAddr).Port
	tests := []struct {
		host string
		want int
	}{
		{fmt.Sprintf("127.0.0.1:%d", port), http.StatusOK},
		{fmt.Sprintf("localhost:%d", port), http.StatusOK},
		{fmt.Sprintf("[::1]:%d", port), http.StatusOK},
		{"10.1.2.3", http.StatusOK}, // an IP literal cannot be rebound
		{fmt.Sprintf("guardian.lan:%d", port), http.StatusOK},
		{"guardian.lan.", http.StatusOK},
		{fmt.Sprintf("evil.example:%d", port), http.StatusForbidden},
		{"127.0.0.1.nip.io", http.StatusForbidden},
		{"localhost.evil.example", http.StatusForbidden},
	}
	for _, tc := range tests {
		t.Run(tc.host, func(t *testing.T) {
			code, body := send(t, ts, http.MethodGet, "/v1/decisions", tc.host, "", nil)
			if code != tc.want {
				t.Fatalf("GET /v1/decisions with Host %q: %d %s, want %d", tc.host, code, body, tc.want)
			}
			if code == http.StatusForbidden {
				if e := errorOf(t, []byte(body)); e.Code != server.CodeForbidden || strings.Contains(body, "deny") {
					t.Errorf("refusal %s: want code forbidden and no record", body)
				}
			}
		})
	}
}

// TestOrigin: a browser request from another origin — another site, or another port of
// localhost — cannot post a review or read decisions; the server's own page and programs
// that send no Origin can.
func TestOrigin(t *testing.T) {
	dec := &fixed{res: askResult()}
	recs := &records{recs: []json.RawMessage{json.RawMessage(`{"decision":"deny"}`)}}
	ts := httptest.NewServer(server.New(dec, server.WithDecisions(recs)))
	defer ts.Close()
	self := ts.URL // http://127.0.0.1:PORT
	port := ts.Listener.Addr().(*net.TCPAddr).Port
	tests := []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"no origin (curl, hooks)", nil, http.StatusOK},
		{"own page", map[string]string{"Origin": self, "Sec-Fetch-Site": "same-origin", server.HeaderCSRF: "x"}, http.StatusOK},
		{"typed in the address bar", map[string]string{"Sec-Fetch-Site": "none", server.HeaderCSRF: "x"}, http.StatusOK},
		{"another site", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"another port of localhost", map[string]string{"Origin": fmt.Sprintf("http://127.0.0.1:%d", port+1)}, http.StatusForbidden},
		{"same site, other origin", map[string]string{"Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		{"cross-site without Origin", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"opaque origin", map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"not a URL", map[string]string{"Origin": "javascript:alert(1)"}, http.StatusForbidden},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, before := dec.last()
			code, body := send(t, ts, http.MethodPost, "/v1/review", "", execBody, tc.header)
			if code != tc.want {
				t.Fatalf("POST /v1/review: %d %s, want %d", code, body, tc.want)
			}
			_, _, after := dec.last()
			if reviewed := after > before; reviewed != (tc.want == http.StatusOK) {
				t.Errorf("reviewed: %v, want %v", reviewed, tc.want == http.StatusOK)
			}
			if code, _ := send(t, ts, http.MethodGet, "/v1/decisions", "", "", tc.header); code != tc.want {
				t.Errorf("GET /v1/decisions: %d, want %d", code, tc.want)
			}
		})
	}
}

// TestSlowBodiesHoldNoSlot: 300 clients that send their headers and then trickle their bodies
// (more than the 256 review slots) do not stop a normal review from being answered while they
// are all still connected: a review takes its slot only once its body is read.
func TestSlowBodiesHoldNoSlot(t *testing.T) {
	const slow = 300
	s := server.New(&fixed{res: askResult()}) // the default 256 slots
	entered := make(chan struct{}, slow+8)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Slow") != "" {
			entered <- struct{}{}
		}
		s.ServeHTTP(w, r)
	}))
	defer ts.Close()
	addr := ts.Listener.Addr().String()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range slow {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		// Headers and the first byte of a 100-byte body; the rest never comes.
		if _, err := fmt.Fprintf(c, "POST /v1/review HTTP/1.1\r\nHost: %s\r\nX-Slow: 1\r\nContent-Length: 100\r\n\r\n{", addr); err != nil {
			t.Fatal(err)
		}
	}
	for range slow {
		<-entered // every slow request is in the handler, reading its body
	}
	c, err := server.NewClient(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	req, err := guardian.ReadRequest(strings.NewReader(execBody))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Decide(context.Background(), req, guardian.Caller{Host: "claude"})
	if err != nil {
		t.Fatalf("a normal review while %d clients trickle their bodies: %v", slow, err)
	}
	if res.Decision != askResult().Decision {
		t.Errorf("decision %s, want %s", res.Decision, askResult().Decision)
	}
}
