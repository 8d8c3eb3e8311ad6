package riskmodel

import (
	"net"
	"strings"
)

// git's url.<base>.insteadOf and pushInsteadOf rewrite every URL that starts with a prefix to
// start with <base> instead: `url."https://git.example/".insteadOf "https://github.com/"` sends
// every later fetch and push of a GitHub repository — the code and the credentials git offers
// with it — to git.example, silently, in every repository when set globally. Rewriting a
// prefix to another transport of the same host and owner (https → ssh) is the everyday use;
// a rewrite to another host or owner reroutes source code, which docs/policy.md denies when
// the destination is not the project's own. The analysis cannot tell a company mirror from
// someone else's host, so it asks (high); a raw public IP, a paste or request-bin service or a
// look-alike host is not the project's for certain.

// gitURLRewrite is one rewrite a git command sets: the new prefix and the prefix it replaces.
type gitURLRewrite struct {
	base, old string
	push      bool
}

// gitURLRewrites returns the insteadOf rewrites a git command sets, through git config (any
// scope) or a one-off -c.
func gitURLRewrites(s *Segment) []gitURLRewrite {
	if s.Name() != "git" {
		return nil
	}
	var out []gitURLRewrite
	parse := func(key, val string) {
		k := strings.ToLower(key)
		if !strings.HasPrefix(k, "url.") {
			return
		}
		var push bool
		switch {
		case strings.HasSuffix(k, ".pushinsteadof"):
			push = true
		case strings.HasSuffix(k, ".insteadof"):
		default:
			return
		}
		end := strings.LastIndexByte(key, '.')
		if end <= len("url.") {
			return // url.insteadOf: no base
		}
		base := key[len("url."):end]
		out = append(out, gitURLRewrite{base: base, old: val, push: push})
	}
	// git -c url.X.insteadOf=Y …
	for i := 1; i+1 < len(s.Args); i++ {
		if s.Args[i] == "-c" {
			if k, v, ok := strings.Cut(s.Args[i+1], "="); ok {
				parse(k, v)
			}
		}
	}
	sub, rest := gitSub(s)
	if sub != "config" {
		return out
	}
	var pos []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "-f" || a == "--file" || a == "--blob" || a == "--type" || a == "--comment" || a == "--default":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) >= 2 {
		parse(pos[0], pos[1])
	}
	return out
}

// gitRemoteParts splits a git URL or scp-style remote into host and path, lower-cased host.
func gitRemoteParts(u string) (host, p string) {
	if i := strings.Index(u, "://"); i > 0 {
		h := u[i+3:]
		h, p, _ = strings.Cut(h, "/")
		if j := strings.LastIndexByte(h, '@'); j >= 0 {
			h = h[j+1:]
		}
		if hh, _, err := net.SplitHostPort(h); err == nil {
			h = hh
		}
		return strings.ToLower(strings.Trim(h, "[]")), strings.Trim(p, "/")
	}
	if h, p, ok := strings.Cut(u, ":"); ok && !strings.Contains(h, "/") {
		if j := strings.LastIndexByte(h, '@'); j >= 0 {
			h = h[j+1:]
		}
		return strings.ToLower(h), strings.Trim(p, "/")
	}
	return "", strings.Trim(u, "/")
}

// reroutes describes where a rewrite sends what it matches when that is another host or
// another owner, "" for a transport change of the same place (or a rewrite it cannot read).
func (r gitURLRewrite) reroutes() (dest string, otherHost bool) {
	nh, np := gitRemoteParts(r.base)
	oh, op := gitRemoteParts(r.old)
	if nh == "" || isLocalHost(nh) {
		return "", false // a local mirror or a relative base
	}
	if !strings.Contains(oh, ".") && !strings.Contains(oh, ":") && !strings.Contains(r.old, "://") {
		return "", false // a shorthand (gh:acme/) that names no host of its own
	}
	if nh != oh {
		return nh, true
	}
	if !strings.HasPrefix(np+"/", op+"/") && !strings.HasPrefix(op+"/", np+"/") {
		return nh + "/" + np, false
	}
	return "", false
}

func gitRerouteRules() []*Rule {
	return []*Rule{
		{
			ID: "vcs.url-reroute", Level: High, Category: CatDataExfiltration,
			CertainWhen: "the new host is a raw public IP address, an anonymous paste or request-bin service, or a look-alike host",
			Message:     "Rewrites git URLs (insteadOf) so that fetches and pushes of one host or owner go to another",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, r := range gitURLRewrites(s) {
					dest, otherHost := r.reroutes()
					if dest == "" {
						continue
					}
					what := "fetch and push"
					if r.push {
						what = "push"
					}
					msg := "Rewrites git URLs starting with " + capText(r.old) + " to " + capText(r.base) + ": every later " + what + " of those repositories, with the code and the credentials git sends, goes to " + dest
					if otherHost {
						if where := uncontrolledDest(&Segment{Args: []string{"git"}}, dest); where != "" || len(segmentIntlHosts(&Segment{Args: []string{"git", dest}})) > 0 {
							c.certainty = certaintySure // docs/policy.md: source and credentials to raw IPs, pastes, look-alike hosts
						}
					}
					return msg, true
				}
				return "", false
			},
		},
	}
}
