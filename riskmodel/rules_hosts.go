package riskmodel

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Look-alike and international host names (catalog/lookalike.go). A URL or remote whose host
// is spelled with non-ASCII letters, punycode or percent escapes is never the vendor or
// registry it resembles. When it imitates one (gіthub.com with a Cyrillic і) it is a
// homoglyph domain, on docs/policy.md's deny list: high and certain, whatever the command
// does with it — fetched and run, the pipe-to-shell rules rate it critical besides. When it
// imitates nothing the catalogue knows it is an unknown destination spelled unusually: asked.

// remoteHostOf returns the host a word names when it is a URL or a [user@]host:path remote, "" if
// it names none.
func remoteHostOf(w string) string {
	h := w
	if i := strings.Index(h, "://"); i > 0 {
		h = h[i+3:]
	} else if !strings.Contains(h, "@") && !strings.Contains(h, ":") {
		return ""
	}
	if i := strings.IndexAny(h, "/?#"); i >= 0 {
		h = h[:i]
	}
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	if i := strings.IndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	if u, err := url.PathUnescape(h); err == nil {
		h = u
	}
	if !strings.Contains(h, ".") {
		return ""
	}
	return h
}

// segmentIntlHosts returns the international hosts a command names (nil for the common case
// of plain ASCII arguments, checked byte by byte first so ordinary commands pay nothing).
func segmentIntlHosts(s *Segment) []string {
	if len(s.Args) < 2 {
		return nil
	}
	var out []string
	for _, a := range s.Args[1:] {
		if !catalog.International(a) && !containsFold(a, "xn--") {
			continue
		}
		if i := strings.IndexByte(a, '='); i > 0 && strings.HasPrefix(a, "-") {
			a = a[i+1:]
		}
		if h := remoteHostOf(a); h != "" && catalog.International(h) {
			out = append(out, h)
		}
	}
	return out
}

// lookalikeMessage describes the first host that imitates a known one, "" if none does.
func lookalikeMessage(hosts []string) string {
	for _, h := range hosts {
		if known, ok := catalog.Default().Lookalike(h); ok {
			return fmt.Sprintf("Reaches %s, a look-alike of %s spelled with other characters: not %s but whoever registered the look-alike", quoteName(h), known, known)
		}
	}
	return ""
}

func hostRules() []*Rule {
	return []*Rule{
		{
			ID: "net.lookalike-host", Level: High, Category: CatNetworkEgress,
			Message: "Reaches a host that imitates a well-known one with look-alike characters (a homoglyph domain)",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				msg := lookalikeMessage(segmentIntlHosts(s))
				return msg, msg != ""
			},
		},
		{
			ID: "net.international-host", Level: Medium, Category: CatNetworkEgress,
			Message: "Reaches a host whose name is spelled with non-ASCII characters or punycode, an unknown destination",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				hs := segmentIntlHosts(s)
				if len(hs) == 0 || lookalikeMessage(hs) != "" {
					return "", false
				}
				return fmt.Sprintf("Reaches %s, a host spelled with non-ASCII characters or punycode; check it is the one you mean", quoteName(hs[0])), true
			},
		},
		{
			ID: "mcp.lookalike-host", Kind: KindMCP, Level: High, Category: CatNetworkEgress,
			Message: "Calls a tool with a URL whose host imitates a well-known one with look-alike characters (a homoglyph domain)",
			mcp: func(c *mcpCtx) (string, bool) {
				msg := lookalikeMessage(c.intlHosts())
				if msg == "" {
					return "", false
				}
				return c.call() + ", which " + strings.ToLower(msg[:1]) + msg[1:], true
			},
		},
		{
			ID: "mcp.international-host", Kind: KindMCP, Level: Medium, Category: CatNetworkEgress,
			Message: "Calls a tool with a URL whose host is spelled with non-ASCII characters or punycode, an unknown destination",
			mcp: func(c *mcpCtx) (string, bool) {
				hs := c.intlHosts()
				if len(hs) == 0 || lookalikeMessage(hs) != "" {
					return "", false
				}
				return fmt.Sprintf("%s, which reaches %s, a host spelled with non-ASCII characters or punycode", c.call(), quoteName(hs[0])), true
			},
		},
	}
}

// intlHosts returns the international hosts of the call's destination URLs.
func (c *mcpCtx) intlHosts() []string {
	var out []string
	for _, u := range c.urls {
		if catalog.International(u.host) || catalog.International(u.raw) {
			if h := remoteHostOf(u.raw); h != "" && catalog.International(h) {
				out = append(out, h)
			} else if catalog.International(u.host) {
				out = append(out, u.host)
			}
		}
	}
	return out
}

// containsFold reports whether s contains the lower-case ASCII sub, ignoring ASCII case,
// without allocating (this runs on every argument of every command).
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for ; j < len(sub); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}
