package riskmodel

import (
	"net/url"
	"strings"
)

// An agent must not answer its own approvals. docs/policy.md puts "the agent's own approval or
// sandbox settings … guardian's own config" on the deny list; since guardian holds requests
// for a person (guardian serve's approval queue) and stores grants and rules a person wrote,
// the same reasoning covers everything that answers those approvals or writes that policy:
//
//   - guardian's own verbs that decide or write policy: approve, deny, allow, block,
//     grants revoke, hook install/uninstall --write;
//   - HTTP requests to guardian serve's routes that decide (…/v1/pending/ID/approve|deny),
//     revoke a grant (/v1/grants/ID) or reset a breaker (/v1/breakers/reset), on loopback or
//     over its unix socket — judged by the route, whatever the port, since serve's --addr is
//     the user's choice;
//   - writes to guardian's config and state files, which are agent-config paths in
//     catalog/paths.toml (fs.write.agent-config and mcp.fs-agent-config-write judge those).
//
// Read-only guardian commands (pending, audit tail, verify, review, rules list) are in the
// command catalogue and stay allowed; a GET of /v1/pending or /v1/decisions is left to the
// network rules.

// guardianDecidingVerbs are guardian's subcommands that answer an approval or change policy,
// with the words that must follow (nil: the verb alone is enough).
var guardianDecidingVerbs = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"approve": nil,
		"deny":    nil,
		"allow":   nil,
		"block":   nil,
		"grants":  {"revoke"},
		"hook":    {"install", "uninstall"},
	}
}}

// guardianVerbs lists every guardian subcommand, so that the first of them among the
// arguments is the verb whatever global flags (--config FILE) come before it.
var guardianVerbs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"approve": true, "deny": true, "allow": true, "block": true, "grants": true, "hook": true,
		"pending": true, "audit": true, "verify": true, "review": true, "rules": true, "serve": true,
		"eval": true, "config": true, "model": true, "mcp-proxy": true, "version": true, "help": true,
		"completion": true,
	}
}}

// guardianDecision returns what a guardian command line does when it answers an approval or
// writes policy ("approve", "grants revoke", …), "" when it does neither.
func guardianDecision(s *Segment) string {
	if s.Name() != "guardian" {
		return ""
	}
	args := s.Args[1:]
	for i, a := range args {
		if strings.HasPrefix(a, "-") || !guardianVerbs.get()[a] {
			continue
		}
		next, ok := guardianDecidingVerbs.get()[a]
		if !ok {
			return ""
		}
		if next == nil {
			return a
		}
		rest := args[i+1:]
		for _, w := range rest {
			if strings.HasPrefix(w, "-") {
				continue
			}
			for _, n := range next {
				if w == n && (a != "hook" || hasFlag(rest, "--write")) {
					return a + " " + w
				}
			}
			return ""
		}
		return ""
	}
	return ""
}

// hasFlag reports whether args hold flag, alone or as flag=value.
func hasFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag || strings.HasPrefix(a, flag+"=") {
			return true
		}
	}
	return false
}

// guardianRoute reports whether an HTTP path is one of guardian serve's routes that answer an
// approval, revoke a grant or reset a breaker, and names it.
func guardianRoute(p string) (string, bool) {
	p = strings.TrimRight(p, "/")
	switch {
	case strings.HasPrefix(p, "/v1/pending/") && (strings.HasSuffix(p, "/approve") || strings.HasSuffix(p, "/deny")):
		return "answers a pending approval", true
	case strings.HasPrefix(p, "/v1/grants/"):
		return "revokes a stored grant", true
	case p == "/v1/breakers/reset":
		return "resets a circuit breaker", true
	}
	return "", false
}

// guardianAPICall returns the first URL of a segment that reaches a deciding route of guardian
// serve on loopback or over a unix socket (curl --unix-socket), and what it does.
func guardianAPICall(s *Segment) (string, string) {
	unix := hasFlag(s.Args, "--unix-socket") || hasFlag(s.Args, "--abstract-unix-socket")
	for _, u := range urls(s) {
		if !unix && !isLocalHost(strings.ToLower(u.Hostname())) {
			continue
		}
		if what, ok := guardianRoute(u.Path); ok {
			return u.String(), what
		}
	}
	return "", ""
}

func selfApprovalRules() []*Rule {
	return []*Rule{
		{
			ID: "guardian.self-approve", Level: Critical, Category: CatSecurityWeakening,
			Message: "Answers guardian's approvals or writes guardian's policy: an agent approving its own requests",
			exec: func(_ *execCtx, s *Segment) (string, bool) {
				verb := guardianDecision(s)
				if verb == "" {
					return "", false
				}
				return "Runs `guardian " + verb + "`, which answers guardian's approvals or changes its policy: only a person may do that, never the agent being reviewed", true
			},
		},
		{
			ID: "guardian.approval-api", Level: Critical, Category: CatSecurityWeakening,
			Message: "Calls guardian serve's approval, grant or breaker routes: an agent approving its own requests",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if f := s.CodeFacts; f != nil && f.GuardianRoute != "" && !c.anySegment(func(o *Segment) bool { u, _ := guardianAPICall(o); return u != "" }) {
					what, _ := guardianRoute(routeShape(f.GuardianRoute))
					return "Runs inline " + langOf(s.Name()) + " code that requests " + f.GuardianRoute + " on this machine, which " + what + " in guardian serve: only a person may do that, never the agent being reviewed", true
				}
				u, what := guardianAPICall(s)
				if u == "" {
					return "", false
				}
				return "Requests " + u + ", which " + what + " in guardian serve: only a person may do that, never the agent being reviewed", true
			},
		},
		{
			ID: "mcp.guardian-approval-api", Kind: KindMCP, Level: Critical, Category: CatSecurityWeakening,
			Message: "Calls a tool that reaches guardian serve's approval, grant or breaker routes: an agent approving its own requests",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, mu := range c.urls {
					u, err := url.Parse(mu.raw)
					if err != nil || !isLocalHost(mu.host) {
						continue
					}
					if what, ok := guardianRoute(u.Path); ok {
						return c.call() + ", which reaches " + mu.raw + " and " + what + " in guardian serve: only a person may do that", true
					}
				}
				if p, what := mcpSplitGuardianRoute(c); p != "" {
					return c.call() + ", which requests " + p + " on this machine and " + what + " in guardian serve: only a person may do that", true
				}
				return "", false
			},
		},
	}
}

// reCodeRoute is a deciding route of guardian serve in code, its ID possibly a placeholder
// (%s, {id}, ${id}) or a variable concatenated in ('/v1/pending/' + id + '/approve').
var (
	reCodeRoute    = lazyRegexp(`/v1/(?:pending/[^\s/]{0,80}?(?:/|["'` + "`" + `][^"'` + "`" + `\n]{0,40}["'` + "`" + `]/)(?:approve|deny)\b|grants/(?:[\w${%<:]|["'` + "`" + `]\s*(?:\+|\.))|breakers/reset\b)`)
	reCodeHost     = lazyRegexp(`(?i)\b(?:https?|wss?)://([a-z0-9.\-]+|\[[0-9a-f:.]+\])`)
	reCodeLoopback = lazyRegexp(`(?i)localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0|unix`)
)

// codeGuardianRoute returns the deciding route of guardian serve that inline code requests
// on this machine: the route appears in the code, and every host the code names is loopback
// (or it names none, the address coming from a variable), "" otherwise. Routes of another
// host's API with the same shape are left to the network rules.
func codeGuardianRoute(code string) string {
	m := reCodeRoute().FindString(code)
	if m == "" {
		return ""
	}
	for _, h := range reCodeHost().FindAllStringSubmatch(code, 16) {
		if !isLocalHost(strings.ToLower(strings.Trim(h[1], "[]"))) && !isLocalHost(strings.ToLower(h[1])) {
			return ""
		}
	}
	return m
}

// routeShape turns a route found in code into a path guardianRoute can name: the ID and any
// text concatenated around it become one placeholder segment.
func routeShape(m string) string {
	switch {
	case strings.HasPrefix(m, "/v1/pending/") && strings.HasSuffix(m, "approve"):
		return "/v1/pending/ID/approve"
	case strings.HasPrefix(m, "/v1/pending/"):
		return "/v1/pending/ID/deny"
	case strings.HasPrefix(m, "/v1/grants/"):
		return "/v1/grants/ID"
	}
	return m
}

// anySegment reports whether some segment of the request satisfies f: the URL a piece of
// inline code requests is followed into a synthetic segment of its own, which then speaks for
// the code.
func (c *execCtx) anySegment(f func(*Segment) bool) bool {
	for _, o := range c.segs {
		if f(o) {
			return true
		}
	}
	return false
}

// mcpSplitGuardianRoute finds a request tool given the address and the route apart
// ({"host": "127.0.0.1", "port": 8787, "path": "/v1/pending/ID/approve"}, or a base_url and a
// path): a deciding route of guardian serve in one argument and a loopback address, and no
// other host, in the others. It returns the route and what it does.
func mcpSplitGuardianRoute(c *mcpCtx) (string, string) {
	route, what, local := "", "", false
	for _, a := range c.args {
		if !a.str {
			continue
		}
		v := strings.TrimSpace(a.val)
		if w, ok := guardianRoute(v); ok && strings.HasPrefix(v, "/v1/") {
			route, what = v, w
			continue
		}
		h := strings.ToLower(v)
		if u, err := url.Parse(v); err == nil && u.Host != "" {
			h = strings.ToLower(u.Hostname())
		}
		switch {
		case isLocalHost(h):
			local = true
		case a.nkey == "host" || a.nkey == "hostname" || a.nkey == "baseurl" || a.nkey == "server" || strings.Contains(v, "://"):
			return "", "" // another host's API
		}
	}
	if route == "" || !local {
		return "", ""
	}
	return route, what
}
