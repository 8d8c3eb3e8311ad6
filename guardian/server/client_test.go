package server_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// serve runs srv on a real listener at addr until the test ends and returns the client
// target for it.
func serve(t *testing.T, srv *server.Server, addr string) string {
	t.Helper()
	ln, err := server.Listen(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	if _, ok := server.SocketPath(addr); ok {
		return "unix://" + ln.Addr().String()
	}
	return "http://" + ln.Addr().String()
}

func TestClientRoundTrip(t *testing.T) {
	an, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	p := guardian.New(an)
	req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"bash", "-c", "git push --force origin main"}, Cwd: "/home/dev/proj",
		Justification: "ship it", SandboxReason: "network"})
	want, err := p.Review(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{"127.0.0.1:0", "unix:" + filepath.Join(t.TempDir(), "g.sock")} {
		t.Run(strings.SplitN(addr, ":", 2)[0], func(t *testing.T) {
			rec := &fixed{}
			d := guardian.DeciderFunc(func(ctx context.Context, r guardian.Request, c guardian.Caller) (guardian.Result, error) {
				_, _ = rec.Decide(ctx, r, c)
				return p.Decide(ctx, r, c)
			})
			c, err := server.NewClient(serve(t, server.New(d), addr))
			if err != nil {
				t.Fatal(err)
			}
			caller := guardian.Caller{Host: "claude", Session: "3f1c-session", Turn: "toolu_01", Agent: "reviewer", AgentRole: guardian.AgentRoleSubagent, AgentID: "a4833e03e534681fc"}
			got, err := c.Decide(context.Background(), req, caller)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("result (-in-process +served):\n%s", diff)
			}
			gotCaller, gotReq, _ := rec.last()
			if gotCaller != caller {
				t.Errorf("caller reached the decider as %+v, want %+v", gotCaller, caller)
			}
			if diff := cmp.Diff(req, gotReq); diff != "" {
				t.Errorf("request (-sent +received):\n%s", diff)
			}
		})
	}
}

func TestClientErrors(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}, Cwd: "/tmp"})
	tests := []struct {
		name   string
		srv    *server.Server
		opts   []server.ClientOption
		status int
		code   string
		retry  time.Duration
	}{
		{name: "no token", srv: server.New(&fixed{res: askResult()}, server.WithToken(token)), status: 401, code: "unauthorized"},
		{name: "wrong token", srv: server.New(&fixed{res: askResult()}, server.WithToken(token)), opts: []server.ClientOption{server.WithClientToken("nope")}, status: 401, code: "unauthorized"},
		{name: "decider fails", srv: server.New(&fixed{err: errDisk}), status: 500, code: "internal"},
		{name: "saturated", status: 503, code: "saturated", retry: time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var target string
			if tc.srv != nil {
				target = serve(t, tc.srv, "127.0.0.1:0")
			} else {
				// Saturated: hold the only slot with a review that waits on a gate.
				g := newGate(1)
				target = serve(t, server.New(g, server.WithConcurrency(1)), "127.0.0.1:0")
				held, err := server.NewClient(target)
				if err != nil {
					t.Fatal(err)
				}
				done := make(chan struct{})
				go func() { _, _ = held.Decide(context.Background(), req, guardian.Caller{}); close(done) }()
				<-g.entered
				defer func() { close(g.release); <-done }()
			}
			c, err := server.NewClient(target, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.Decide(context.Background(), req, guardian.Caller{})
			var se *server.StatusError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v (%T), want a *StatusError", err, err)
			}
			if se.StatusCode != tc.status || se.Code != tc.code || se.RetryAfter != tc.retry || se.Message == "" {
				t.Errorf("StatusError %+v, want %d %s retry %s", se, tc.status, tc.code, tc.retry)
			}
			if errors.Is(err, server.ErrUnreachable) {
				t.Error("a server that answered is not unreachable")
			}
			if res.Decision != 0 {
				t.Errorf("an error came with decision %s", res.Decision)
			}
		})
	}
	// With the right token the same server answers.
	c, err := server.NewClient(serve(t, server.New(&fixed{res: askResult()}, server.WithToken(token)), "127.0.0.1:0"), server.WithClientToken(token))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := c.Decide(context.Background(), req, guardian.Caller{}); err != nil || res.Decision != riskmodel.Ask {
		t.Errorf("with the token: %+v, %v", res, err)
	}
}

// TestClientRejectsBadReplies: whatever answers 200 must answer exactly a Result with a
// decision; anything else is an error, never a decision.
func TestClientRejectsBadReplies(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"no decision", 200, `{"status":"rule","decided_by":"x","assessment":{"summary":"","risk_level":"low","category":"none","rationale":""}}`, `no "decision"`},
		{"unknown decision", 200, `{"decision":"maybe","status":"rule","decided_by":"x","assessment":{}}`, `maybe`},
		{"no status", 200, `{"decision":"allow","decided_by":"x","assessment":{}}`, `no "status"`},
		{"unknown key", 200, `{"decision":"allow","status":"rule","approved":true}`, `unknown field "approved"`},
		{"two objects", 200, `{"decision":"allow","status":"rule"}{"decision":"deny","status":"rule"}`, `data after the JSON object`},
		{"not JSON", 200, `allow`, `not a guardian result`},
		{"proxy error page", 502, "<html><body>\x1b[1mBad gateway</body></html>", `answered 502 Bad Gateway: <html><body>\[1mBad gateway`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer ts.Close()
			c, err := server.NewClient(ts.URL)
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.Decide(context.Background(), guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}}), guardian.Caller{})
			if err == nil || !strings.Contains(err.Error(), strings.ReplaceAll(tc.want, `\[`, "[")) {
				t.Fatalf("err = %v, want it to mention %s", err, tc.want)
			}
			if res.Decision != 0 || errors.Is(err, server.ErrUnreachable) {
				t.Errorf("res %+v, unreachable %v", res, errors.Is(err, server.ErrUnreachable))
			}
		})
	}
}

func TestClientUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedPort := "http://" + ln.Addr().String()
	ln.Close()
	req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}})
	for name, target := range map[string]string{
		"missing socket": "unix://" + filepath.Join(t.TempDir(), "none.sock"),
		"closed port":    closedPort,
	} {
		t.Run(name, func(t *testing.T) {
			c, err := server.NewClient(target)
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.Decide(context.Background(), req, guardian.Caller{})
			if !errors.Is(err, server.ErrUnreachable) {
				t.Fatalf("err = %v, want ErrUnreachable", err)
			}
			if !strings.Contains(err.Error(), target) || res.Decision != 0 {
				t.Errorf("err %q should name %s; res %+v", err, target, res)
			}
		})
	}
	// A context that is already over is the caller's deadline, not an absent server: there is
	// no time left to fall back.
	c, err := server.NewClient(closedPort)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Decide(ctx, req, guardian.Caller{}); errors.Is(err, server.ErrUnreachable) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled and not ErrUnreachable", err)
	}
}

func TestNewClientTargets(t *testing.T) {
	for _, bad := range []string{"", "127.0.0.1:7420", "ftp://host", "http://", "http://user:pw@host:1", "http://h:1/?x=1", "unix:relative.sock", "unix://"} {
		if _, err := server.NewClient(bad); err == nil {
			t.Errorf("NewClient(%q) accepted a bad target", bad)
		}
	}
	for _, good := range []string{"http://127.0.0.1:7420", "https://guardian.internal:7420/", "unix:///run/g.sock", "unix:/run/g.sock"} {
		if _, err := server.NewClient(good); err != nil {
			t.Errorf("NewClient(%q): %v", good, err)
		}
	}
	if _, err := server.NewClient("unix:///run/g.sock", server.WithHTTPClient(&http.Client{Transport: roundTripperFunc(nil)})); err == nil {
		t.Error("a unix target with a transport that cannot dial sockets was accepted")
	}
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
