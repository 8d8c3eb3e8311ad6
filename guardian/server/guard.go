package server

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// CodeForbidden is the error code of a request refused for where it comes from: a Host header
// the server does not answer to, or a browser request from another origin.
const CodeForbidden = "forbidden" // 403

// hostAllowed reports whether the request's Host header names this server, so that a page whose
// DNS name was rebound to the server's address (evil.example → 127.0.0.1) gets nothing: the
// browser sends that page's own name as Host, and only names the server answers to are let
// through. An IP literal is always allowed — a browser that sends one connected to that very
// address, which no rebinding can fake — and so is "localhost"; other names must be given with
// WithAllowedHosts (guardian serve --allow-host). A request that did not come over TCP (a unix
// socket, which no browser reaches, or a handler called directly) is not checked.
func (s *Server) hostAllowed(r *http.Request) bool {
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if local == nil || local.Network() != "tcp" {
		return true
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "" {
		return false
	}
	if h, _, ok := strings.Cut(host, "%"); ok { // an IPv6 zone
		host = h
	}
	if net.ParseIP(host) != nil || host == "localhost" {
		return true
	}
	_, ok := s.allowedHosts[host]
	return ok
}

// sameOrigin reports whether a request that a browser may have sent comes from this server's
// own pages. A request with an Origin header must name the origin it was sent to (scheme
// aside, the Host it carries); a browser's Sec-Fetch-Site, when present, must say
// same-origin or none (typed in the address bar). Every browser sends one of the two on a
// cross-origin POST, so a page on another site — or on another port of localhost, which is
// the same site but not the same origin — can neither post a review, nor reset a breaker, nor
// read the event stream. Programs (curl, the hooks, server.Client) send neither and pass.
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false
	}
	origin := r.Header.Values("Origin")
	if len(origin) == 0 {
		return true
	}
	if len(origin) > 1 || origin[0] == "null" {
		return false
	}
	u, err := url.Parse(origin[0])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

// WithAllowedHosts adds DNS names the server answers to in the Host header, beside IP
// literals and localhost: the names clients use to reach a server listening off loopback
// (guardian.lan). Requests naming any other host are answered 403, which stops DNS rebinding.
func WithAllowedHosts(names ...string) Option {
	return func(s *Server) {
		for _, n := range names {
			n = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(n)), ".")
			if h, _, err := net.SplitHostPort(n); err == nil {
				n = h
			}
			if n != "" {
				s.allowedHosts[n] = struct{}{}
			}
		}
	}
}
