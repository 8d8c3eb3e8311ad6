package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestHubDropsLaggingSubscriber: a subscriber whose buffer is full is dropped — it gets what
// fitted, then its channel closes with Lagged set — and Publish goes on for the others
// without waiting.
func TestHubDropsLaggingSubscriber(t *testing.T) {
	hub := server.NewHub(2, 4)
	slow, _ := hub.Subscribe()
	fast, _ := hub.Subscribe()
	var got []string
	for i, kind := range []string{"a", "b", "c"} {
		hub.Publish(server.Event{Kind: kind, Data: json.RawMessage(`{}`)})
		if i < 2 {
			n := <-fast.C
			got = append(got, n.Kind)
		}
	}
	got = append(got, (<-fast.C).Kind)
	if strings.Join(got, "") != "abc" {
		t.Errorf("the reading subscriber got %q, want abc", got)
	}
	var slowGot []string
	for n := range slow.C { // closed after the two that fitted
		slowGot = append(slowGot, n.Kind)
	}
	if strings.Join(slowGot, "") != "ab" || !slow.Lagged() || fast.Lagged() {
		t.Errorf("lagging subscriber got %q (lagged %v), the other lagged %v; want ab, true, false", slowGot, slow.Lagged(), fast.Lagged())
	}
	if n := hub.Subscribers(); n != 1 {
		t.Errorf("%d subscribers left, want 1", n)
	}
	// The maximum number of subscribers holds.
	for range 3 {
		if _, ok := hub.Subscribe(); !ok {
			t.Fatal("subscribe refused below the maximum")
		}
	}
	if _, ok := hub.Subscribe(); ok {
		t.Error("a fifth subscriber was accepted, the maximum is 4")
	}
}

// readUntil reads SSE lines until one has the prefix, and returns it.
func readUntil(t *testing.T, sc *bufio.Scanner, prefix string) string {
	t.Helper()
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), prefix) {
			return sc.Text()
		}
	}
	t.Fatalf("stream ended before a line starting %q: %v", prefix, sc.Err())
	return ""
}

// TestEventsStream: a decision made through the API reaches an open event stream as the audit
// record, and a breaker that opens is pushed as a breaker event.
func TestEventsStream(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	br := &fakeBreakers{}
	s, _ := consoleServer(token, br)
	ts := httptest.NewServer(s)
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodGet, ts.URL+server.RouteEvents, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("GET /v1/events: %d %s", resp.StatusCode, ct)
	}
	sc := bufio.NewScanner(resp.Body)
	readUntil(t, sc, ": guardian events") // subscribed

	c, _ := server.NewClient(ts.URL, server.WithClientToken(token))
	br.setOpen(true)
	if _, err := c.Decide(context.Background(), guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"rm", "-rf", "/"}}), guardian.Caller{Host: "claude"}); err != nil {
		t.Fatal(err)
	}
	readUntil(t, sc, "event: decision")
	var rec struct {
		Decision, DecidedBy string
		Caller              guardian.Caller
	}
	data := strings.TrimPrefix(readUntil(t, sc, "data: "), "data: ")
	if err := json.Unmarshal([]byte(data), &rec); err != nil || rec.Decision != "deny" || rec.Caller.Host != "claude" {
		t.Errorf("decision event %s: %v", data, err)
	}
	readUntil(t, sc, "event: breaker")
	data = strings.TrimPrefix(readUntil(t, sc, "data: "), "data: ")
	var b server.BreakersBody
	if err := json.Unmarshal([]byte(data), &b); err != nil || !b.Open || b.Breakers[0].Denials.State != "open" {
		t.Errorf("breaker event %s: %v", data, err)
	}
}

// TestEventsEndAtShutdown: an open event stream does not hold the shutdown up until the drain
// timeout; Serve drains cleanly.
func TestEventsEndAtShutdown(t *testing.T) {
	hub := server.NewHub(0, 0)
	s := server.New(&fixed{res: askResult()}, server.WithEvents(hub), server.WithDrainTimeout(3*time.Second))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + server.RouteEvents)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	readUntil(t, sc, ": guardian events")
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve with an open event stream: %v", err)
	}
}

// TestConsoleSession: the token is traded for an HttpOnly, SameSite=Strict cookie; the cookie
// opens the API; a state-changing call with it needs the session's own CSRF value; a forged,
// tampered or foreign session gets nothing.
func TestConsoleSession(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	br := &fakeBreakers{open: true}
	s, _ := consoleServer(token, br)
	ts := httptest.NewServer(s)
	defer ts.Close()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	resp, err := noRedirect.Get(ts.URL + "/console?token=wrong-token-wrong-token")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 {
		t.Fatalf("a wrong ?token=: %d with %d cookies, want 401 and none", resp.StatusCode, len(resp.Cookies()))
	}
	resp, err = noRedirect.PostForm(ts.URL+server.RouteLogin, url.Values{"token": {token}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/console" {
		t.Fatalf("login: %d to %q, want 303 to /console", resp.StatusCode, resp.Header.Get("Location"))
	}
	var session, csrf *http.Cookie
	for _, c := range resp.Cookies() {
		switch c.Name {
		case server.SessionCookie:
			session = c
		case server.CSRFCookie:
			csrf = c
		}
	}
	if session == nil || csrf == nil || !session.HttpOnly || session.SameSite != http.SameSiteStrictMode ||
		csrf.HttpOnly || csrf.SameSite != http.SameSiteStrictMode || session.MaxAge != int(server.SessionLifetime/time.Second) {
		t.Fatalf("cookies %+v %+v: want an HttpOnly SameSite=Strict session and a readable SameSite=Strict CSRF cookie", session, csrf)
	}
	// The same login from another moment is another session, with another CSRF value.
	_, other := server.NewSessionForTest(token, time.Now().Add(time.Minute))

	call := func(method, path string, cookie *http.Cookie, csrfValue string) int {
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(`{}`))
		if cookie != nil {
			req.AddCookie(cookie)
		}
		if csrfValue != "" {
			req.Header.Set(server.HeaderCSRF, csrfValue)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	tampered := *session
	tampered.Value = strings.Replace(session.Value, ".", "9.", 1) // a later expiry, same signature
	tests := []struct {
		name         string
		method, path string
		cookie       *http.Cookie
		csrf         string
		want         int
	}{
		{"read with the cookie", http.MethodGet, "/v1/decisions", session, "", 200},
		{"read without it", http.MethodGet, "/v1/decisions", nil, "", 401},
		{"tampered cookie", http.MethodGet, "/v1/decisions", &tampered, "", 401},
		{"reset without CSRF", http.MethodPost, server.RouteBreakerReset, session, "", 403},
		{"reset with another session's CSRF", http.MethodPost, server.RouteBreakerReset, session, other, 403},
		{"reset with the session's CSRF", http.MethodPost, server.RouteBreakerReset, session, csrf.Value, 200},
	}
	for _, tc := range tests {
		if got := call(tc.method, tc.path, tc.cookie, tc.csrf); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := br.resetCalls(); len(got) != 1 {
		t.Errorf("%d resets, want exactly the one with the right CSRF value", len(got))
	}
}

// TestBreakerResetBody: the reset names one breaker or all; anything else is a 400.
func TestBreakerResetBody(t *testing.T) {
	br := &fakeBreakers{open: true}
	s, _ := consoleServer("", br)
	for _, tc := range []struct {
		body string
		code int
		call string
	}{
		{`{"breaker":"model"}`, 200, "model"},
		{`{"breaker":"all"}`, 200, ""},
		{``, 200, ""},
		{`{"breaker":"everything"}`, 400, ""},
		{`{"breaker":"denials","extra":1}`, 400, ""},
	} {
		before := len(br.resetCalls())
		w := do(t, s, http.MethodPost, server.RouteBreakerReset, tc.body, nil)
		if w.Code != tc.code {
			t.Errorf("reset %s: %d %s, want %d", tc.body, w.Code, w.Body, tc.code)
			continue
		}
		calls := br.resetCalls()
		if tc.code == 200 && (len(calls) != before+1 || calls[len(calls)-1] != tc.call) {
			t.Errorf("reset %s: calls %q, want a last call %q", tc.body, calls, tc.call)
		}
	}
}

// TestStatsCountTheDay: the counts start from today's records in the audit log (yesterday's
// are left out) and go on with each decision; answers to asks (asked_by set) are not reviews
// but the approved, refused and unanswered counts, per rule and as the override rate.
func TestStatsCountTheDay(t *testing.T) {
	now := time.Now()
	rec := func(ti time.Time, decision, by string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"time": ti, "decision": decision, "decided_by": by})
		return b
	}
	answer := func(decision, status, askedBy string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"time": now, "decision": decision, "status": status, "decided_by": "human:alice", "asked_by": askedBy})
		return b
	}
	hub := server.NewHub(0, 0)
	src := &records{recs: []json.RawMessage{
		rec(now.AddDate(0, 0, -1), "ask", "rule:yesterday"),
		rec(now, "ask", "rule:a"), rec(now, "ask", "rule:a"), rec(now, "ask", "rule:b"), rec(now, "deny", "rule:c"), rec(now, "allow", "rule:d"),
	}}
	s := server.New(&fixed{res: askResult()}, server.WithEvents(hub), server.WithDecisions(src))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	hub.PublishDecision(rec(now, "ask", "rule:b"))
	hub.PublishDecision(rec(now, "ask", "rule:b"))
	hub.PublishDecision(answer("allow", "human", "rule:b"))
	hub.PublishDecision(answer("allow", "grant", "rule:b"))
	hub.PublishDecision(answer("deny", "human", "rule:a"))
	hub.PublishDecision(answer("ask", "unanswered", "rule:a"))
	resp, err := http.Get("http://" + ln.Addr().String() + server.RouteStats)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got server.StatsBody
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	rate := 2.0 / 5
	want := server.StatsBody{Day: now.Format(time.DateOnly), Reviews: 7, Allow: 1, Ask: 5, Deny: 1,
		Approved: 2, Refused: 1, Unanswered: 1, OverrideRate: &rate,
		TopAsking: []server.Count{{DecidedBy: "rule:b", Count: 3, Approved: 2}, {DecidedBy: "rule:a", Count: 2, Refused: 1, Unanswered: 1}}}
	if g, _ := json.Marshal(got); string(g) != string(mustJSON(want)) {
		t.Errorf("stats %s, want %s", g, mustJSON(want))
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
