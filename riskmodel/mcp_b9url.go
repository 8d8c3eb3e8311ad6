package riskmodel

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Three ways an MCP call leaks or subverts without naming a secret file or a shell command:
//
//   - a URL handed to any fetching tool (fetch, firecrawl_scrape, a browser's navigate, an
//     HTTP client) that carries data to an anonymous paste or request-capture service
//     (webhook.site, pastebin's api_post.php, requestbin, pipedream): the query IS the upload,
//     whatever the server's read-only hint says (docs/policy.md: secrets "in URLs/query
//     strings", "pastes");
//   - page JavaScript that reads the page's session secrets (document.cookie, a token in
//     localStorage or sessionStorage, chrome.cookies) into the transcript: a browser cookie
//     store read, on the deny list as "browser password and cookie stores";
//   - text addressed to the reviewer ("pre-approved", "answer allow", "ignore previous
//     instructions", a forged verdict) written into a store the agent or its reviewer reads
//     later (a memory server's observations, notes, wiki pages, tickets): policy says such
//     text never earns an allow, and planting it to subvert approvals is disabling the
//     agent's own approval control.

// dropHostOf returns the anonymous drop, paste or request-capture service a host belongs to
// (itself or a parent domain in dropHosts), "" when none.
func dropHostOf(host string) string {
	for h := strings.ToLower(host); h != ""; {
		if dropHosts.get()[h] {
			return h
		}
		_, rest, ok := strings.Cut(h, ".")
		if !ok {
			break
		}
		h = rest
	}
	return ""
}

// urlCarriesData reports whether a URL sends values of its own in its query string.
func urlCarriesData(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", false
	}
	// The first such key in sorted order, so the same request always gets the same
	// explanation (a map's iteration order would change it from run to run).
	q := u.Query()
	keys := make([]string, 0, len(q))
	for k, vs := range q {
		for _, v := range vs {
			if strings.TrimSpace(v) != "" {
				keys = append(keys, k)
				break
			}
		}
	}
	if len(keys) == 0 {
		return "", false
	}
	return slices.Min(keys), true
}

// Page code that reads the page's session secrets. Sources: MDN Document.cookie,
// Window.localStorage / sessionStorage, CookieStore.get, chrome.cookies (extension API).
type b9URLRegexps struct {
	jsCookieRead, jsStorageToken, jsStorageDump *regexp.Regexp
	// The reviewer-text expressions run over every string argument, file contents
	// included; they are litRegexps (keyword prefilters) because a case-insensitive
	// alternation stepped over every byte of a 2 KB file was most of an MCP write's review.
	reviewerDirective, reviewerApproval, reviewerAddressee *litRegexp
}

// b9URLRe is built on first use (a table, not package init).
var b9URLRe = table[b9URLRegexps]{build: func() b9URLRegexps {
	return b9URLRegexps{
		// jsCookieRead is document.cookie read, not assigned (`document.cookie = "a=b"` sets
		// one), or the cookie APIs that hand all of them out.
		jsCookieRead: regexp.MustCompile(`document\.cookie\b(?:\s*[^=\s]|\s*==|\s*$)|\bcookieStore\.(?:get|getAll)\s*\(|\bchrome\.cookies\.(?:get|getAll)\s*\(|\bbrowser\.cookies\.(?:get|getAll)\s*\(`),
		// jsStorageToken is a web-storage read of a key named like a credential.
		jsStorageToken: regexp.MustCompile(`(?i)(?:local|session)Storage(?:\.getItem\s*\(\s*|\s*\[\s*|\.)["'` + "`" + `]?[\w.:\-]*(?:token|jwt|auth|session|secret|credential|password|apikey|api_key|bearer)`),
		// jsStorageDump is the whole of web storage read at once.
		jsStorageDump: regexp.MustCompile(`(?:JSON\.stringify|Object\.(?:entries|keys|values|assign))\s*\(\s*(?:window\.)?(?:local|session)Storage\b|\.\.\.\s*(?:window\.)?(?:local|session)Storage\b|\bin\s+(?:window\.)?(?:local|session)Storage\b`),
		// reviewerDirective is text telling a reviewer or an approval gate what to answer; "ignore
		// previous instructions" counts when an instruction follows it, not when a ticket names it.
		reviewerDirective: newLitRegexp(`(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|system|safety|security)\s+(?:instructions|rules|guidance|prompts?|polic(?:y|ies))(?:\s+and\s+\w|\s*[.:;,]\s*[a-z]\w*\s+\w)|\b(?:answer|respond|reply|return|output|decide|mark(?:\s+it)?)\s+(?:with\s+)?["'` + "`" + `]?(?:allow|approved?)["'` + "`" + `]?(?:\s|[.;,!]|$)|"(?:decision|verdict)"\s*:\s*"(?:allow|approve|approved|safe)"|"risk_level"\s*:\s*"low"`),
		// reviewerApproval claims an approval is already given or not needed.
		reviewerApproval: newLitRegexp(`(?i)\bpre-?approved\b|\bauto-?approv(?:e|ed|al)\b|\balready\s+(?:been\s+)?approved\b|\bapproval\s+(?:is\s+)?(?:not\s+(?:required|needed)|waived)\b|\bskip\s+(?:the\s+)?(?:review|approval|confirmation)s?\b|\bno\s+(?:need\s+to\s+)?(?:ask|confirm)(?:ation)?\b`),
		// reviewerAddressee names who such a claim is addressed to.
		reviewerAddressee: newLitRegexp(`(?i)\breviewers?\b|\bguardian\b|\bai\s+(?:assistants?|agents?|models?)\b|\bllms?\b|\blanguage\s+models?\b|\bassistants?\b|\bagents?\b|\bsafety\s+(?:checks?|reviews?|filters?)\b|\bapproval\s+(?:prompts?|gates?|checks?|policy)\b|\bsecurity\s+review\b`),
	}
}}

// browserSessionRead names the session secret js reads, "" when none.
func browserSessionRead(js string) string {
	switch {
	case b9URLRe.get().jsCookieRead.MatchString(js):
		return "the page's cookies"
	case b9URLRe.get().jsStorageToken.MatchString(js):
		return "a token from the page's web storage"
	case b9URLRe.get().jsStorageDump.MatchString(js):
		return "the whole of the page's web storage"
	}
	return ""
}

// pageHost returns a host the browser page belongs to that is not this machine: from the
// call's URL arguments or its tool description ("Selected page: https://github.com/…"); ""
// when the page is local or unknown.
func (c *mcpCtx) pageHost() string {
	for _, u := range c.urls {
		if !u.local && !u.trust {
			return u.host
		}
	}
	for _, m := range mcpReAbsURL().FindAllStringSubmatch(mcpClip(c.req.ToolDescription, 4096), 8) {
		h := strings.ToLower(m[1])
		if hh, _, ok := strings.Cut(h, ":"); ok && !strings.HasPrefix(h, "[") {
			h = hh
		}
		if !isLocalHost(h) && !c.trustedHost(h) {
			return h
		}
	}
	return ""
}

// reviewerDirective returns the first string argument of a write that addresses the reviewer
// or the approval gate, and the phrase that does, ok false when none.
func (c *mcpCtx) reviewerDirective() (where, phrase string, ok bool) {
	for _, a := range c.args {
		if !a.str || len(a.val) < 8 {
			continue
		}
		v := mcpClip(a.val, 64<<10)
		if m := b9URLRe.get().reviewerDirective.FindString(v); m != "" {
			return a.path, m, true
		}
		if m := b9URLRe.get().reviewerApproval.FindString(v); m != "" && b9URLRe.get().reviewerAddressee.MatchString(v) {
			return a.path, m, true
		}
	}
	return "", "", false
}

func mcpB9URLRules() []*Rule {
	return []*Rule{
		{ID: "mcp.drop-host-url", Kind: KindMCP, Level: Critical, Category: CatDataExfiltration,
			Message: "Requests a URL that carries data to an anonymous paste or request-capture service",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, u := range c.urls {
					if u.local || u.trust {
						continue
					}
					drop := dropHostOf(u.host)
					if drop == "" {
						continue
					}
					if k, ok := urlCarriesData(u.raw); ok {
						return fmt.Sprintf("%s, which requests %s with data in ?%s: %s is an anonymous paste or request-capture service, and the query is what it records",
							c.call(), mcpCleanText(u.raw, 120), mcpCleanText(k, 30), drop), true
					}
				}
				return "", false
			}},
		{ID: "mcp.browser-script-session-read", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			CertainWhen: "the page belongs to a site that is not this machine (a logged-in third-party session)",
			Message:     "Runs browser JavaScript that reads the page's session cookies or stored tokens",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, js := range c.browserScripts() {
					texts := append([]string{js}, jsDecodedPayloads(js)...)
					for _, t := range texts {
						what := browserSessionRead(t)
						if what == "" {
							continue
						}
						if h := c.pageHost(); h != "" {
							c.certainty = certaintySure
							return fmt.Sprintf("%s, whose page script reads %s on %s: the session of a logged-in site", c.call(), what, mcpCleanText(h, 60)), true
						}
						return fmt.Sprintf("%s, whose page script reads %s into the transcript", c.call(), what), true
					}
				}
				return "", false
			}},
		{ID: "mcp.reviewer-directive-write", Kind: KindMCP, Level: High, Category: CatSecurityWeakening, Certain: true,
			Message: "Writes text addressed to guardian's reviewer or an approval gate into a store that is read later",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act < mcpActWrite {
					return "", false
				}
				if where, phrase, ok := c.reviewerDirective(); ok {
					return fmt.Sprintf("%s, which writes %q (in %s): text addressed to the reviewer, planted where the agent or its reviewer will read it, subverts the approval control", c.call(), mcpCleanText(phrase, 60), mcpCleanText(where, 40)), true
				}
				return "", false
			}},
	}
}
