package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

func TestStatusCodes(t *testing.T) {
	notReady := errors.New("the audit log is not open")
	tests := []struct {
		name    string
		opts    []server.Option
		decider guardian.Decider
		method  string
		path    string
		body    string
		code    int
		errCode string      // "" for a success
		message string      // regexp the error message must match
		header  http.Header // reply headers that must be present
	}{
		{name: "review", method: "POST", path: "/v1/review", body: execBody, code: 200},
		{name: "review with a wrong content type", method: "POST", path: "/v1/review", body: execBody, code: 200},
		{name: "empty body", method: "POST", path: "/v1/review", code: 400, errCode: "bad_request", message: `^empty body: send one JSON request envelope`},
		{name: "malformed JSON names line and column", method: "POST", path: "/v1/review",
			body: "{\n  \"kind\": \"exec\",\n  \"request\": {\"command\": [\"ls\"],}\n}", code: 400, errCode: "bad_request",
			message: `^decode request: line 3, column \d+: invalid character '\}'`},
		{name: "unknown key", method: "POST", path: "/v1/review", body: `{"kind":"exec","request":{"cmd":["ls"]}}`,
			code: 400, errCode: "bad_request", message: `unknown field "cmd"`},
		// Security F2/F7: keys are read exactly and a repeated key is refused, never last-wins.
		{name: "key differing only in case", method: "POST", path: "/v1/review", body: `{"kind":"exec","request":{"command":["rm","-rf","/"],"Command":["ls"]}}`,
			code: 400, errCode: "bad_request", message: `"Command" is not "command"`},
		{name: "duplicate command", method: "POST", path: "/v1/review", body: `{"kind":"exec","request":{"command":["rm","-rf","/"],"command":["ls"]}}`,
			code: 400, errCode: "bad_request", message: `duplicate key "request.command"`},
		{name: "duplicate kind", method: "POST", path: "/v1/review", body: `{"kind":"mcp","kind":"exec","request":{"command":["ls"]}}`,
			code: 400, errCode: "bad_request", message: `duplicate key "kind"`},
		{name: "invalid request", method: "POST", path: "/v1/review", body: `{"kind":"exec","request":{"command":[]}}`,
			code: 400, errCode: "bad_request", message: `"command" must be a non-empty argv array`},
		{name: "mcp review with a workspace", method: "POST", path: "/v1/review",
			body: `{"kind":"mcp","request":{"server":"fs","tool":"write_file","workspace":["/home/dev/proj"]}}`, code: 200},
		{name: "relative workspace", method: "POST", path: "/v1/review", body: `{"kind":"mcp","request":{"tool":"t","workspace":["proj"]}}`,
			code: 400, errCode: "bad_request", message: `"workspace"\[0\] "proj" must be an absolute directory`},
		{name: "body over the body limit", opts: []server.Option{server.WithBodyLimit(1024)}, method: "POST", path: "/v1/review",
			body: bigBody(2000), code: 413, errCode: "too_large", message: `2\d\d\d bytes, the limit is 1024 bytes \(0\.000977 MiB\).*--max-body`},
		{name: "request over 256 KiB", method: "POST", path: "/v1/review", body: bigBody(300 << 10), code: 413, errCode: "too_large",
			message: `request too large: input exceeds the limit of 266240 bytes \(256 KiB`},
		{name: "request payload just over 256 KiB", method: "POST", path: "/v1/review", body: bigBody(262140), code: 413, errCode: "too_large",
			message: `the limit is 262144 bytes \(256 KiB\)`},
		{name: "decider error", decider: &fixed{err: errDisk}, method: "POST", path: "/v1/review", body: execBody,
			code: 500, errCode: "internal", message: `^no decision: audit log: write: no space left on device$`},
		{name: "config error", decider: &fixed{err: fmt.Errorf("project: %w", &guardian.ConfigError{})}, method: "POST", path: "/v1/review", body: execBody,
			code: 500, errCode: "invalid_config", message: `^no decision: the config for this request does not load`},
		{name: "no decision", decider: &fixed{res: guardian.Result{Status: guardian.StatusRule}}, method: "POST", path: "/v1/review", body: execBody,
			code: 500, errCode: "internal", message: `no valid decision`},
		{name: "review by GET", method: "GET", path: "/v1/review", code: 405, errCode: "method_not_allowed",
			message: `^/v1/review answers POST, not "GET"$`, header: http.Header{"Allow": {"POST"}}},
		{name: "healthz by POST", method: "POST", path: "/healthz", code: 405, errCode: "method_not_allowed", header: http.Header{"Allow": {"GET, HEAD"}}},
		{name: "unknown path", method: "GET", path: "/v1/reviews", code: 404, errCode: "not_found", message: `^no route "/v1/reviews"`},
		{name: "trailing slash", method: "POST", path: "/v1/review/", body: execBody, code: 404, errCode: "not_found"},
		{name: "healthz", method: "GET", path: "/healthz", code: 200},
		{name: "healthz by HEAD", method: "HEAD", path: "/healthz", code: 200},
		{name: "ready", opts: []server.Option{server.WithReady(func(context.Context) error { return nil })}, method: "GET", path: "/readyz", code: 200},
		{name: "not ready", opts: []server.Option{server.WithReady(func(context.Context) error { return nil }), server.WithReady(func(context.Context) error { return notReady })},
			method: "GET", path: "/readyz", code: 503, errCode: "not_ready", message: `^not ready: the audit log is not open$`},
		{name: "metrics not enabled", method: "GET", path: "/metrics", code: 404, errCode: "not_found", message: `metrics are not enabled`},
		{name: "decisions not enabled", method: "GET", path: "/v1/decisions", code: 404, errCode: "not_found", message: `no audit log`},
		{name: "decisions", opts: []server.Option{server.WithDecisions(&records{})}, method: "GET", path: "/v1/decisions", code: 200},
		{name: "decisions limit zero", opts: []server.Option{server.WithDecisions(&records{})}, method: "GET", path: "/v1/decisions?limit=0",
			code: 400, errCode: "bad_request", message: `^bad limit "0": want an integer from 1 to 1000 \(default 50\)`},
		{name: "decisions limit too big", opts: []server.Option{server.WithDecisions(&records{})}, method: "GET", path: "/v1/decisions?limit=1001", code: 400, errCode: "bad_request"},
		{name: "decisions limit not a number", opts: []server.Option{server.WithDecisions(&records{})}, method: "GET", path: "/v1/decisions?limit=ten", code: 400, errCode: "bad_request"},
		{name: "decisions source fails", opts: []server.Option{server.WithDecisions(&records{err: errDisk})}, method: "GET", path: "/v1/decisions",
			code: 500, errCode: "internal", message: `^cannot read the audit log: audit log: write`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.decider
			if d == nil {
				d = &fixed{res: askResult()}
			}
			h := server.New(d, tc.opts...)
			hdr := http.Header{}
			if strings.Contains(tc.name, "content type") {
				hdr.Set("Content-Type", "text/plain")
			}
			w := do(t, h, tc.method, tc.path, tc.body, hdr)
			if w.Code != tc.code {
				t.Fatalf("status %d, want %d; body %s", w.Code, tc.code, w.Body)
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			for k := range tc.header {
				if got := w.Header().Get(k); got != tc.header.Get(k) {
					t.Errorf("header %s = %q, want %q", k, got, tc.header.Get(k))
				}
			}
			if tc.method == "HEAD" {
				return
			}
			if tc.errCode == "" {
				var v map[string]any
				if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil || v["error"] != nil {
					t.Fatalf("success body %s: %v", w.Body, err)
				}
				return
			}
			e := errorOf(t, w.Body.Bytes())
			if e.Code != tc.errCode {
				t.Errorf("code %q, want %q", e.Code, tc.errCode)
			}
			if tc.message != "" && !regexp.MustCompile(tc.message).MatchString(e.Message) {
				t.Errorf("message %q does not match %s", e.Message, tc.message)
			}
		})
	}
}

// bigBody is an exec request envelope whose command has n letters.
func bigBody(n int) string {
	return `{"kind":"exec","request":{"command":["echo","` + strings.Repeat("a", n) + `"],"cwd":"/tmp"}}`
}

func TestReviewReplyIsTheCLIResult(t *testing.T) {
	an, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	p := guardian.New(an)
	req, err := guardian.ReadRequest(strings.NewReader(`{"kind":"exec","request":{"command":["bash","-lc","rm -rf ~/ && echo '<done>'"],"cwd":"/home/dev/proj"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.Review(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var cli strings.Builder
	if err := guardian.WriteResultJSON(&cli, want); err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	w := do(t, server.New(p), "POST", "/v1/review", string(body), nil)
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if diff := cmp.Diff(cli.String(), w.Body.String()); diff != "" {
		t.Errorf("reply differs from `guardian review --json` (-cli +serve):\n%s", diff)
	}
	if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
}

func TestAuth(t *testing.T) {
	const token = "s3cret-token-0123456789abcdef"
	tests := []struct {
		name      string
		token     string // server token; "" = none
		auth      string // Authorization header sent
		path      string
		code      int
		challenge string // WWW-Authenticate expected on 401
	}{
		{name: "no token configured, none sent", path: "/v1/review", code: 200},
		{name: "no token configured, one sent anyway", auth: "Bearer whatever", path: "/v1/review", code: 200},
		{name: "token required, none sent", token: token, path: "/v1/review", code: 401, challenge: `Bearer realm="guardian"`},
		{name: "token required, wrong one", token: token, auth: "Bearer nope", path: "/v1/review", code: 401, challenge: `Bearer realm="guardian", error="invalid_token"`},
		{name: "token required, a prefix of it", token: token, auth: "Bearer " + token[:10], path: "/v1/review", code: 401},
		{name: "token required, wrong scheme", token: token, auth: "Basic " + token, path: "/v1/review", code: 401},
		{name: "token required, right one", token: token, auth: "Bearer " + token, path: "/v1/review", code: 200},
		{name: "scheme is case-insensitive", token: token, auth: "bearer " + token, path: "/v1/review", code: 200},
		{name: "healthz is public", token: token, path: "/healthz", code: 200},
		{name: "readyz is not", token: token, path: "/readyz", code: 401},
		{name: "metrics are not", token: token, path: "/metrics", code: 401},
		{name: "decisions are not", token: token, path: "/v1/decisions", code: 401},
		{name: "unknown paths look the same without the token", token: token, path: "/admin", code: 401},
		{name: "unknown paths are 404 with it", token: token, auth: "Bearer " + token, path: "/admin", code: 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := server.New(&fixed{res: askResult()}, server.WithToken(tc.token), server.WithDecisions(&records{}))
			hdr := http.Header{}
			if tc.auth != "" {
				hdr.Set("Authorization", tc.auth)
			}
			method, body := "GET", ""
			if tc.path == "/v1/review" {
				method, body = "POST", execBody
			}
			w := do(t, h, method, tc.path, body, hdr)
			if w.Code != tc.code {
				t.Fatalf("status %d, want %d: %s", w.Code, tc.code, w.Body)
			}
			if tc.code != 401 {
				return
			}
			if e := errorOf(t, w.Body.Bytes()); e.Code != "unauthorized" || !strings.Contains(e.Message, "Authorization: Bearer <token>") && !strings.Contains(e.Message, "does not match") {
				t.Errorf("error %+v", e)
			}
			if got := w.Header().Get("WWW-Authenticate"); got == "" || tc.challenge != "" && got != tc.challenge {
				t.Errorf("WWW-Authenticate %q, want %q", got, tc.challenge)
			}
		})
	}
}

func TestCallerHeadersAreSanitized(t *testing.T) {
	d := &fixed{res: askResult()}
	h := server.New(d)
	long := strings.Repeat("é", 200) // 400 bytes
	hdr := http.Header{}
	hdr.Set(server.HeaderSession, "sess\x1b[31m-1\u0085\x7f")
	hdr.Set(server.HeaderTurn, "toolu_\xff01\t")
	hdr.Set(server.HeaderAgent, long)
	hdr.Set(server.HeaderAgentRole, " subagent\r")
	hdr.Set(server.HeaderAgentID, "a1\x00b2")
	if w := do(t, h, "POST", "/v1/review", execBody, hdr); w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	c, _, _ := d.last()
	want := guardian.Caller{Host: "http", Session: "sess[31m-1", Turn: "toolu_01", Agent: strings.Repeat("é", 128),
		AgentRole: guardian.AgentRoleSubagent, AgentID: "a1b2"}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("caller (-want +got):\n%s", diff)
	}
	for _, v := range []string{c.Host, c.Session, c.Turn, c.Agent, c.AgentID} {
		if len(v) > server.MaxCallerField || !utf8.ValidString(v) || strings.IndexFunc(v, unicode.IsControl) >= 0 {
			t.Errorf("caller field %q is not sanitized", v)
		}
	}

	hdr = http.Header{}
	hdr.Set(server.HeaderHost, "claude")
	hdr.Set(server.HeaderSession, "abc")
	if w := do(t, h, "POST", "/v1/review", execBody, hdr); w.Code != 200 {
		t.Fatalf("status %d", w.Code)
	}
	if c, _, _ := d.last(); c != (guardian.Caller{Host: "claude", Session: "abc"}) {
		t.Errorf("caller %+v", c)
	}

	// A monitor-mode hook says so, so that the serve's audit record is marked.
	hdr.Set(server.HeaderMonitor, "1")
	if w := do(t, h, "POST", "/v1/review", execBody, hdr); w.Code != 200 {
		t.Fatalf("status %d", w.Code)
	}
	if c, _, _ := d.last(); c != (guardian.Caller{Host: "claude", Session: "abc", Monitor: true}) {
		t.Errorf("caller %+v, want Monitor", c)
	}
}

// TestBadAgentRoleIsRefused: a role the server does not know is a 400 naming the header, not
// an unknown role that would quietly change what the agent policy grants.
func TestBadAgentRoleIsRefused(t *testing.T) {
	d := &fixed{res: askResult()}
	for _, role := range []string{"Main", "sub-agent", "root"} {
		hdr := http.Header{}
		hdr.Set(server.HeaderAgentRole, role)
		w := do(t, server.New(d), "POST", "/v1/review", execBody, hdr)
		if w.Code != 400 {
			t.Fatalf("role %q: status %d, want 400", role, w.Code)
		}
		if e := errorOf(t, w.Body.Bytes()); e.Code != "bad_request" || !strings.Contains(e.Message, server.HeaderAgentRole) || !strings.Contains(e.Message, `"subagent"`) {
			t.Errorf("role %q: error %+v, want bad_request naming the header and the valid roles", role, e)
		}
	}
	if _, _, n := d.last(); n != 0 {
		t.Errorf("the decider was asked %d times, want 0", n)
	}
}

func TestDecisions(t *testing.T) {
	var recs []json.RawMessage
	for i := range 80 {
		recs = append(recs, json.RawMessage(fmt.Sprintf(`{"seq":%d}`, i)))
	}
	src := &records{recs: recs}
	h := server.New(&fixed{res: askResult()}, server.WithDecisions(src))
	for _, tc := range []struct {
		query     string
		n         int
		first     int
		wantAsked int
	}{
		{query: "", n: 50, first: 30, wantAsked: 50},
		{query: "?limit=3", n: 3, first: 77, wantAsked: 3},
		{query: "?limit=1000", n: 80, first: 0, wantAsked: 1000},
	} {
		w := do(t, h, "GET", "/v1/decisions"+tc.query, "", nil)
		if w.Code != 200 {
			t.Fatalf("%s: status %d", tc.query, w.Code)
		}
		var body struct{ Decisions []struct{ Seq int } }
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if src.asked != tc.wantAsked || len(body.Decisions) != tc.n || body.Decisions[0].Seq != tc.first || body.Decisions[tc.n-1].Seq != 79 {
			t.Errorf("%s: asked %d, got %d records from %d: want %d from %d, newest (79) last", tc.query, src.asked, len(body.Decisions), body.Decisions[0].Seq, tc.n, tc.first)
		}
	}
	// An empty log is an empty list, not null.
	w := do(t, server.New(&fixed{}, server.WithDecisions(&records{})), "GET", "/v1/decisions", "", nil)
	if got := strings.TrimSpace(w.Body.String()); got != `{"decisions":[]}` {
		t.Errorf("empty log: %s", got)
	}
}

// TestSaturated holds the only review slots with a gate and checks that one more review is
// refused at once, then that the held ones complete.
func TestSaturated(t *testing.T) {
	const slots = 2
	g := newGate(slots)
	ts := httptest.NewServer(server.New(g, server.WithConcurrency(slots)))
	defer ts.Close()
	done := make(chan int, slots)
	for range slots {
		go func() {
			resp, err := http.Post(ts.URL+"/v1/review", "application/json", strings.NewReader(execBody))
			if err != nil {
				done <- -1
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			done <- resp.StatusCode
		}()
	}
	for range slots {
		<-g.entered
	}
	resp, err := http.Post(ts.URL+"/v1/review", "application/json", strings.NewReader(execBody))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "1" {
		t.Fatalf("status %d, Retry-After %q; want 503 and 1", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if e := errorOf(t, body); e.Code != "saturated" || !strings.Contains(e.Message, "2 reviews are in flight") {
		t.Errorf("error %+v", e)
	}
	// Other routes are not limited.
	if r, err := http.Get(ts.URL + "/healthz"); err != nil || r.StatusCode != 200 {
		t.Errorf("healthz while saturated: %v %v", r, err)
	} else {
		r.Body.Close()
	}
	close(g.release)
	for range slots {
		if code := <-done; code != 200 {
			t.Errorf("held review: status %d, want 200", code)
		}
	}
	// Slots are given back.
	resp, err = http.Post(ts.URL+"/v1/review", "application/json", strings.NewReader(execBody))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("after release: status %d", resp.StatusCode)
	}
}

// TestChunkedBodyOverLimit sends a body without Content-Length, so only reading finds out.
func TestChunkedBodyOverLimit(t *testing.T) {
	ts := httptest.NewServer(server.New(&fixed{res: askResult()}, server.WithBodyLimit(4096)))
	defer ts.Close()
	req, err := http.NewRequest("POST", ts.URL+"/v1/review", io.MultiReader(strings.NewReader(bigBody(10000))))
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if e := errorOf(t, body); e.Code != "too_large" || !strings.Contains(e.Message, "the limit is 4096 bytes (0.00391 MiB)") {
		t.Errorf("error %+v", e)
	}
}
