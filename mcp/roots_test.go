package mcp

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// rootsHost is a host that declares the roots capability and lists roots (or fails to).
type rootsHost struct {
	mu    sync.Mutex
	roots []mcpgo.Root
	err   error
	hang  chan struct{} // when set, ListRoots waits for it to close, then fails
	calls int
}

func (h *rootsHost) ListRoots(ctx context.Context, _ mcpgo.ListRootsRequest) (*mcpgo.ListRootsResult, error) {
	h.mu.Lock()
	h.calls++
	roots, err, hang := slices.Clone(h.roots), h.err, h.hang
	h.mu.Unlock()
	if hang != nil {
		select {
		case <-hang:
		case <-ctx.Done():
		}
		return nil, errors.New("gave up")
	}
	if err != nil {
		return nil, err
	}
	return &mcpgo.ListRootsResult{Roots: roots}, nil
}

func (h *rootsHost) set(uris ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.roots = nil
	for _, u := range uris {
		h.roots = append(h.roots, mcpgo.Root{URI: u})
	}
}

func (h *rootsHost) listed() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls
}

// rootsDownstreams connect a host that can be asked for its roots: over HTTP mcp-go sends
// roots/list only on the GET stream, so that host keeps one open.
var rootsDownstreams = []downstreamKind{{"stdio", connectStdio}, {"http", func(t *testing.T, p *Proxy, opts ...client.ClientOption) *client.Client {
	return connectHTTPWith(t, p, "test-host", []transport.StreamableHTTPCOption{transport.WithContinuousListening()}, opts...)
}}}

// newProxyWith is newProxy with proxy options.
func newProxyWith(t *testing.T, opts []Option, specs ...Upstream) (*Proxy, *memAudit) {
	t.Helper()
	d, audit := rulesDecider(t)
	p, err := New(context.Background(), d, specs, append([]Option{WithStderr(testWriter{t})}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Logf("close: %v", err)
		}
	})
	return p, audit
}

// lastWorkspace is the workspace of the latest review in the audit log.
func lastWorkspace(t *testing.T, a *memAudit) []string {
	t.Helper()
	all := a.all()
	if len(all) == 0 || all[len(all)-1].Request.MCP == nil {
		t.Fatalf("no MCP review in the audit log: %+v", all)
	}
	return all[len(all)-1].Request.MCP.Workspace
}

// TestRootsWorkspace: a host's roots are the workspace of the gate's reviews (with the
// upstream's configured workspace after them), listed once per session, and listed again after
// the host says they changed.
func TestRootsWorkspace(t *testing.T) {
	for _, dk := range rootsDownstreams {
		t.Run(dk.name, func(t *testing.T) {
			up := gated("fx", "tools -legacy")
			up.Workspace = []string{"/srv/shared"}
			p, audit := newProxy(t, up)
			rh := &rootsHost{}
			rh.set("file:///home/dev/proj/", "file:///home/dev/my%20proj", "https://example.com/repo", "file://build-host/home/dev/x", "file:///home/dev/proj")
			c := dk.connect(t, p, append(slices.Clone(legacyHost), client.WithRootsHandler(rh))...)

			for i := range 2 {
				if got := text(t, callTool(t, c, "echo", map[string]any{"message": "hi"})); got != "hi" {
					t.Fatalf("call %d: %q", i, got)
				}
				if got, want := lastWorkspace(t, audit), []string{"/home/dev/proj", "/home/dev/my proj", "/srv/shared"}; !slices.Equal(got, want) {
					t.Fatalf("call %d: review workspace %q, want %q", i, got, want)
				}
			}
			if n := rh.listed(); n != 1 {
				t.Errorf("roots listed %d times for two calls, want once", n)
			}

			rh.set("file:///home/dev/other")
			if err := c.RootListChanges(context.Background()); err != nil {
				t.Fatal(err)
			}
			callTool(t, c, "echo", map[string]any{"message": "hi"})
			if got, want := lastWorkspace(t, audit), []string{"/home/dev/other", "/srv/shared"}; !slices.Equal(got, want) {
				t.Errorf("after list_changed: review workspace %q, want %q", got, want)
			}
			if n := rh.listed(); n != 2 {
				t.Errorf("roots listed %d times, want twice (once more after list_changed)", n)
			}
		})
	}
}

// TestRootsDecideElicitations: the roots decide whether the same approval request is routine —
// a write inside the host's project is accepted without asking, the same write with another
// project open goes to the host.
func TestRootsDecideElicitations(t *testing.T) {
	meta := approvalMeta("write_file", map[string]any{"path": "/home/dev/proj/src/x.go", "content": "package x"})
	cases := []struct {
		root   string
		action string // what the upstream got
		asked  bool
	}{
		{"file:///home/dev/proj", "accept", false},
		{"file:///home/dev/other", "cancel", true},
	}
	for _, tc := range cases {
		t.Run(tc.root, func(t *testing.T) {
			p, _ := newProxy(t, stdioUpstream("filesystem", "tools -legacy"))
			rh := &rootsHost{}
			rh.set(tc.root)
			h := &host{}
			c := connectStdio(t, p, append(hostOpts(legacyHost, h), client.WithRootsHandler(rh))...)
			got := upstreamSaw(t, callTool(t, c, "elicit", map[string]any{"message": askMessage, "meta": meta}))
			if got["action"] != tc.action || (len(h.questions()) == 1) != tc.asked {
				t.Errorf("upstream got %v, host asked %d times; want %s, asked %v", got, len(h.questions()), tc.action, tc.asked)
			}
		})
	}
}

// TestRootsFallback: without roots the configured workspace applies, and a host whose roots
// cannot be listed (an error, no answer in time) still gets its call reviewed with it.
func TestRootsFallback(t *testing.T) {
	cases := []struct {
		name string
		rh   func() *rootsHost // nil: the host declares no roots
		// listed is how often roots/list reached the host over two calls: a failure is not
		// asked again for every call.
		listed int
	}{
		{"no roots capability", nil, 0},
		{"roots/list fails", func() *rootsHost { return &rootsHost{err: errors.New("no roots here")} }, 1},
		{"roots/list never answers", func() *rootsHost { return &rootsHost{hang: make(chan struct{})} }, 1},
		{"no file roots", func() *rootsHost {
			return &rootsHost{roots: []mcpgo.Root{{URI: "https://example.com"}, {URI: "file:relative"}}}
		}, 1},
	}
	// An HTTP host without a GET stream is never reached by roots/list: it times out.
	noListen := downstreamKind{"http without GET stream", connectHTTP}
	for _, dk := range append(slices.Clone(rootsDownstreams), noListen) {
		for _, tc := range cases {
			if dk.name == noListen.name && tc.listed == 0 {
				continue
			}
			t.Run(dk.name+"/"+tc.name, func(t *testing.T) {
				p, audit := newProxyWith(t, []Option{WithWorkspace("/home/dev/proj/"), WithRootsTimeout(50 * time.Millisecond)}, gated("fx", "tools -legacy"))
				opts := slices.Clone(legacyHost)
				var rh *rootsHost
				if tc.rh != nil {
					rh = tc.rh()
					opts = append(opts, client.WithRootsHandler(rh))
				}
				c := dk.connect(t, p, opts...)
				if rh != nil && rh.hang != nil {
					t.Cleanup(func() { close(rh.hang) }) // before the client closes
				}
				for i := range 2 {
					if got := text(t, callTool(t, c, "echo", map[string]any{"message": "hi"})); got != "hi" {
						t.Fatalf("call %d: %q", i, got)
					}
					if got, want := lastWorkspace(t, audit), []string{"/home/dev/proj"}; !slices.Equal(got, want) {
						t.Fatalf("call %d: review workspace %q, want %q", i, got, want)
					}
				}
				want := tc.listed
				if dk.name == noListen.name {
					want = 0
				}
				if rh != nil && rh.listed() != want {
					t.Errorf("roots listed %d times, want %d", rh.listed(), want)
				}
			})
		}
	}
}

// TestModernHostNoRoots: a 2026-07-28 host is not sent roots/list (it takes no
// server-initiated requests); its reviews use the configured workspace.
func TestModernHostNoRoots(t *testing.T) {
	p, audit := newProxyWith(t, []Option{WithWorkspace("/home/dev/proj")}, gated("fx", "tools"))
	rh := &rootsHost{}
	rh.set("file:///home/dev/other")
	c := connectHTTP(t, p, append(slices.Clone(modernHost), client.WithRootsHandler(rh))...)
	callTool(t, c, "echo", map[string]any{"message": "hi"})
	if got := lastWorkspace(t, audit); !slices.Equal(got, []string{"/home/dev/proj"}) || rh.listed() != 0 {
		t.Errorf("review workspace %q, roots listed %d times", got, rh.listed())
	}
}

func TestRootDir(t *testing.T) {
	cases := []struct{ uri, want string }{
		{"file:///home/dev/proj", "/home/dev/proj"},
		{"file:///home/dev/proj/", "/home/dev/proj"},
		{"file://localhost/home/dev/a%20b", "/home/dev/a b"},
		{"FILE:///srv/app/../app2", "/srv/app2"},
		{"file:///home/dev/%E2%9C%93", "/home/dev/✓"},
		{"file://server/share", ""},
		{"https://example.com/home/dev", ""},
		{"file:relative/dir", ""},
		{"file:///home/dev/a%0Ab", ""},
		{"%zz", ""},
		// A host on Windows (VS Code's roots): the drive path, as the analysis reads it.
		{"file:///c%3A/Users/dev/Shop", "c:/Users/dev/Shop"},
		{"file:///C:/Users/dev/source/repos/Shop/", "C:/Users/dev/source/repos/Shop"},
	}
	for _, tc := range cases {
		got, err := rootDir(tc.uri)
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("rootDir(%q) = %q, %v; want %q", tc.uri, got, err, tc.want)
		}
	}
}

func TestWorkspaceValidation(t *testing.T) {
	d, _ := rulesDecider(t)
	for _, opts := range [][]Option{{WithWorkspace("proj")}, {WithWorkspace("/")}} {
		if _, err := New(context.Background(), d, []Upstream{stdioUpstream("fx", "tools")}, opts...); err == nil {
			t.Errorf("New accepted a bad workspace")
		}
	}
	u := stdioUpstream("fx", "tools")
	u.Workspace = []string{"~/proj"}
	if err := u.Validate(); err == nil {
		t.Errorf("Validate accepted workspace %q", u.Workspace)
	}
}
