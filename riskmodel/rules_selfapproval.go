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
var guardianDecidingVerbs = map[string][]string{
	"approve": nil,
	"deny":    nil,
	"allow":   nil,
	"block":   nil,
	"grants":  {"revoke"},
	"hook":    {"install", "uninstall"},
}

// guardianVerbs lists every guardian subcommand, so that the first of them among the
// arguments is the verb whatever global flags (--config FILE) come before it.
var guardianVerbs = map[string]bool{
	"approve": true, "deny": true, "allow": true, "block": true, "grants": true, "hook": true,
	"pending": true, "audit": true, "verify": true, "review": true, "rules": true, "serve": true,
	"eval": true, "config": true, "model": true, "mcp-proxy": true, "version": true, "help": true,
	"completion": true,
}

// guardianDecision returns what a guardian command line does when it answers an approval or
// writes policy ("approve", "grants revoke", …), "" when it does neither.
func guardianDecision(s *Segment) string {
	if s.Name() != "guardian" {
		return ""
	}
	args := s.Args[1:]
	for i, a := range args {
		if strings.HasPrefix(a, "-") || !guardianVerbs[a] {
			continue
		}
		next, ok := guardianDecidingVerbs[a]
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
			ID: "guardian.self-approve", Level: Critical, Category: CatSecurityWeakening, Certain: true,
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
			ID: "guardian.approval-api", Level: Critical, Category: CatSecurityWeakening, Certain: true,
			Message: "Calls guardian serve's approval, grant or breaker routes: an agent approving its own requests",
			exec: func(_ *execCtx, s *Segment) (string, bool) {
				u, what := guardianAPICall(s)
				if u == "" {
					return "", false
				}
				return "Requests " + u + ", which " + what + " in guardian serve: only a person may do that, never the agent being reviewed", true
			},
		},
		{
			ID: "mcp.guardian-approval-api", Kind: KindMCP, Level: Critical, Category: CatSecurityWeakening, Certain: true,
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
				return "", false
			},
		},
	}
}
