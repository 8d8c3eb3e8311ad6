package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// DefaultRootsTimeout bounds a roots/list request to the host. The roots only sharpen a
// review (what counts as the workspace), so a host slow to list them must not hold up the
// call it made: after this the review goes on with the configured workspace.
const DefaultRootsTimeout = 3 * time.Second

// hostRoots caches each downstream session's roots, as workspace directories. A session's
// entry is fetched by the first call that needs it and dropped when the host says its roots
// changed (notifications/roots/list_changed) or the session ends. A failed listing is cached
// too: a host that declared roots but cannot list them (over HTTP: one that keeps no GET
// stream open, where mcp-go sends roots/list) would otherwise cost every call the timeout.
type hostRoots struct {
	mu sync.Mutex
	m  map[string]*rootsEntry // session id → its roots
}

// rootsEntry is one session's roots: being fetched until done is closed.
type rootsEntry struct {
	done chan struct{}
	dirs []string
}

func newHostRoots() *hostRoots { return &hostRoots{m: map[string]*rootsEntry{}} }

// forget drops a session's roots, so that its next call asks again.
func (r *hostRoots) forget(session string) {
	r.mu.Lock()
	delete(r.m, session)
	r.mu.Unlock()
}

// rootsOf returns the workspace directories of the host behind ctx (a downstream request of
// the session h describes): its roots as local paths, fetched once per session and cached.
// nil when the host declared no roots capability, speaks protocol 2026-07-28 (which has no
// server-initiated requests), or could not list them — then only the configured workspace
// applies. It never fails and waits at most the roots timeout.
func (p *Proxy) rootsOf(ctx context.Context, h hostInfo) []string {
	if !h.roots || h.modern || h.session == "" {
		return nil
	}
	r := p.roots
	r.mu.Lock()
	e := r.m[h.session]
	mine := e == nil
	if mine {
		e = &rootsEntry{done: make(chan struct{})}
		r.m[h.session] = e
	}
	r.mu.Unlock()
	if !mine {
		select {
		case <-e.done:
			return e.dirs
		case <-ctx.Done():
			return nil
		}
	}
	dirs, err := p.listRoots(ctx)
	if err != nil {
		p.log.Warn("the host's roots could not be listed; reviewing with the configured workspace only", "session", h.session, "host", h.name, "err", err)
		if ctx.Err() != nil {
			// The host gave up on its own call: that says nothing about its roots.
			r.mu.Lock()
			if r.m[h.session] == e {
				delete(r.m, h.session)
			}
			r.mu.Unlock()
		}
	}
	e.dirs = dirs
	close(e.done)
	return dirs
}

// listRoots asks the host of ctx's session for its roots and returns those that name local
// directories.
func (p *Proxy) listRoots(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, p.opts.rootsTimeout)
	defer cancel()
	res, err := p.srv.RequestRoots(ctx, mcpgo.ListRootsRequest{Request: mcpgo.Request{Method: string(mcpgo.MethodListRoots)}})
	if err != nil {
		return nil, fmt.Errorf("roots/list: %w", err)
	}
	if res == nil {
		return nil, errors.New("roots/list: no result")
	}
	var dirs []string
	for _, root := range res.Roots {
		d, err := rootDir(root.URI)
		if err != nil {
			p.log.Info("host root ignored", "uri", clip(root.URI, 200), "why", err)
			continue
		}
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs, nil
}

// rootDir converts a root's file:// URI to the local directory it names (percent-decoded,
// cleaned). Roots that are not local files — another scheme, a file URI with a remote host, a
// path that is not absolute or holds a NUL or line break — name no workspace here.
func rootDir(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("not a URI: %w", err)
	}
	if !strings.EqualFold(u.Scheme, "file") {
		return "", fmt.Errorf("scheme %q is not file", u.Scheme)
	}
	if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		return "", fmt.Errorf("file URI on another host %q", u.Host)
	}
	p := u.Path
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\x00\r\n") {
		return "", errors.New("not an absolute local path")
	}
	p = path.Clean(p)
	if len(p) >= 4 && p[2] == ':' && p[3] == '/' && (p[1]|0x20 >= 'a' && p[1]|0x20 <= 'z') {
		// file:///C:/Users/dev/proj, a host on Windows: the directory is C:/Users/dev/proj,
		// which the analysis reads as Windows paths are read (catalog.FromWindows).
		return p[1:], nil
	}
	return p, nil
}

// onRootsChanged handles a host's notifications/roots/list_changed: its next call lists the
// roots again.
func (p *Proxy) onRootsChanged(ctx context.Context, _ mcpgo.JSONRPCNotification) {
	if s := server.ClientSessionFromContext(ctx); s != nil {
		p.roots.forget(s.SessionID())
	}
}

// sessionHooks forgets a session's roots when it ends.
func (p *Proxy) sessionHooks() *server.Hooks {
	h := &server.Hooks{}
	h.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) { p.roots.forget(s.SessionID()) })
	return h
}

// workspaceFor is the workspace of a review of u's request for host h: the host's roots, then
// the upstream's configured workspace, then the proxy's (--workspace), each directory once.
// The operator's configuration always counts, the host's roots add the project the host is
// working in now; a call's own arguments never count.
func (p *Proxy) workspaceFor(u *upstream, h hostInfo) []string {
	var out []string
	for _, list := range [][]string{h.workspace, u.spec.Workspace, p.opts.workspace} {
		for _, d := range list {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// checkWorkspace says what is wrong with a configured workspace directory, if anything.
func checkWorkspace(d string) error {
	if !strings.HasPrefix(d, "/") || strings.ContainsAny(d, "\x00\r\n") {
		return fmt.Errorf("workspace %q: want an absolute directory, e.g. /home/dev/proj", d)
	}
	if path.Clean(d) == "/" {
		return errors.New(`workspace "/": / is never a workspace (everything would be inside it); name the project's directory`)
	}
	return nil
}
