package riskmodel

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// JavaScript handed to a browser. Browser-automation servers run code in the page:
// Puppeteer's puppeteer_evaluate {script}, Playwright's browser_evaluate {function},
// Chrome DevTools' evaluate_script {function}, Browserbase's and Selenium's execute_script.
// That code is inline code like node -e's and is judged by the same capability tables
// (codecaps.go): clicking, reading the DOM's text or filling a form is page scripting and
// stays allowed (mcp.browser-interaction); code that evaluates text fetched from the network
// (fetch(…).then(eval), new Function(await r.text()), import('https://…')) runs code nobody
// reviewed with the page's logged-in session, and code that decodes a literal (atob, a
// base64 Buffer, String.fromCharCode) and evaluates it hides what it runs: both are on
// docs/policy.md's deny list ("running code fetched from the network or decoded from an
// encoding without review"; "Obfuscation never lowers a label"). A decoded payload is judged
// again, so a cookie theft inside atob(…) is the theft it decodes to.
//
// Sources: Puppeteer Page.evaluate, Playwright page.evaluate and the Playwright MCP server's
// browser_evaluate, Chrome DevTools MCP evaluate_script, MDN eval / Function / import() /
// atob; OWASP "DOM based XSS" sinks.

// mcpBrowserServerWords name browser-automation servers besides mcpBrowserWords.
var mcpBrowserServerWords = &wordSet{words: `chrome devtools cdp browserbase stagehand hyperbrowser browseruse browserless steel webdriverio`}

// mcpBrowserScriptKeys hold code a browser runs.
var mcpBrowserScriptKeys = &wordSet{words: `function script code expression js javascript source pagefunction fn`}

// browserScripts returns the JavaScript the call hands to a browser page, clipped.
func (c *mcpCtx) browserScripts() []string {
	if !c.browser && !mcpAnyWord(c.serverWords, mcpBrowserServerWords.get()) {
		return nil
	}
	var out []string
	for _, a := range c.args {
		if a.str && mcpBrowserScriptKeys.has(a.nkey) && strings.TrimSpace(a.val) != "" {
			out = append(out, mcpClip(a.val, 64<<10))
		}
	}
	return out
}

// browserJSRegexps are the expressions the browser-script rules read code with, compiled on
// first use (a table, not package init: a hook reviewing one shell command never needs them).
type browserJSRegexps struct {
	// decoded finds a literal handed to a decoder: atob('…'), Buffer.from('…', 'base64').
	decoded *regexp.Regexp
	// fetchText finds a request whose response the code can read as text.
	fetchText *regexp.Regexp
	// scriptElem finds a script element created or written into the page.
	scriptElem *regexp.Regexp
	// getScript finds jQuery's fetch-and-run.
	getScript *regexp.Regexp
}

var browserJSRe = table[browserJSRegexps]{build: func() browserJSRegexps {
	return browserJSRegexps{
		decoded:    regexp.MustCompile(`\b(?:atob|Buffer\.from|decodeURIComponent|unescape)\s*\(\s*["'` + "`" + `]([A-Za-z0-9+/=_%\-]{12,})["'` + "`" + `]`),
		fetchText:  regexp.MustCompile(`\bfetch\s*\(|XMLHttpRequest|\$\.(?:get|getScript|ajax)\b|axios\b`),
		scriptElem: regexp.MustCompile(`createElement\s*\(\s*["']script["']\s*\)|<script\b[^>]*\bsrc\s*=`),
		getScript:  regexp.MustCompile(`\$\.getScript\s*\(`),
	}
}}

// jsDecodedPayloads returns the text of the encoded literals in js that decode to printable
// text, at most 8.
func jsDecodedPayloads(js string) []string {
	var out []string
	for _, m := range browserJSRe.get().decoded.FindAllStringSubmatch(js, 8) {
		if dec, ok := decodeB64(m[1]); ok && mostlyPrintable(dec) {
			out = append(out, dec)
		}
	}
	return out
}

// browserRemoteCode says how js runs code from the network: the host it comes from, whether
// it is certain (evaluated text, not a library element), and what it does; ok false when it
// does not.
func (c *mcpCtx) browserRemoteCode(js string) (host string, certain bool, what string, ok bool) {
	remote := ""
	for _, m := range mcpReAbsURL().FindAllStringSubmatch(js, 16) {
		h := strings.ToLower(m[1])
		if !isLocalHost(h) && !c.trustedHost(h) {
			remote = h
			break
		}
	}
	if remote == "" {
		return "", false, "", false
	}
	for _, u := range codeLoadsURLs("node", js) {
		if h := hostOf(u); h != "" && !isLocalHost(h) && !c.trustedHost(h) {
			_, alike := catalog.Default().Lookalike(h)
			return h, alike, "imports a module from " + h, true
		}
	}
	_, caps := scanCaps("node", js)
	if caps&capEval != 0 && (browserJSRe.get().fetchText.MatchString(js) || browserJSRe.get().getScript.MatchString(js)) {
		return remote, true, "evaluates code it fetches from " + remote, true
	}
	if browserJSRe.get().getScript.MatchString(js) {
		return remote, true, "runs a script it fetches from " + remote, true
	}
	if browserJSRe.get().scriptElem.MatchString(js) {
		_, alike := catalog.Default().Lookalike(remote)
		return remote, alike, "adds a script from " + remote + " to the page", true
	}
	return "", false, "", false
}

func mcpBrowserJSRules() []*Rule {
	return []*Rule{
		{ID: "mcp.browser-script-decoded-exec", Kind: KindMCP, Level: High, Category: CatRemoteCodeExecution,
			CertainWhen: "the decoded text is evaluated (eval, Function, a script element)",
			Message:     "Runs browser JavaScript that decodes a hidden payload and evaluates it",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, js := range c.browserScripts() {
					decs := jsDecodedPayloads(js)
					if len(decs) == 0 {
						continue
					}
					_, caps := scanCaps("node", js)
					evals := caps&capEval != 0 || browserJSRe.get().scriptElem.MatchString(js)
					for _, d := range decs {
						if _, dc := scanCaps("node", d); dc&capEval != 0 {
							evals = true
						}
					}
					if !evals {
						continue
					}
					c.certainty = certaintySure
					return fmt.Sprintf("%s, whose page script decodes `%s` and evaluates it: code hidden by an encoding", c.call(), mcpCleanText(decs[0], 100)), true
				}
				return "", false
			}},
		{ID: "mcp.browser-script-remote-code", Kind: KindMCP, Level: High, Category: CatRemoteCodeExecution,
			CertainWhen: "the script evaluates text it fetched, or loads it from a look-alike host",
			Message:     "Runs browser JavaScript that loads and runs code from another host",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, js := range c.browserScripts() {
					texts := append([]string{js}, jsDecodedPayloads(js)...)
					for _, t := range texts {
						if _, certain, what, ok := c.browserRemoteCode(t); ok {
							if certain {
								c.certainty = certaintySure
							}
							return fmt.Sprintf("%s, whose page script %s: code nobody reviewed runs with the page's session", c.call(), what), true
						}
					}
				}
				return "", false
			}},
		{ID: "mcp.browser-script-decoded-exfil", Kind: KindMCP, Level: Critical, Category: CatDataExfiltration,
			Message: "Runs browser JavaScript whose decoded payload sends cookies, tokens or page secrets to another host",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, js := range c.browserScripts() {
					for _, d := range jsDecodedPayloads(js) {
						if !mcpReNetCall().MatchString(d) || !mcpReSensitiveJS().MatchString(d) {
							continue
						}
						for _, m := range mcpReAbsURL().FindAllStringSubmatch(d, 16) {
							if h := strings.ToLower(m[1]); !isLocalHost(h) && !c.trustedHost(h) {
								return fmt.Sprintf("%s, whose encoded page script sends %s to %s", c.call(),
									strings.ToLower(mcpReSensitiveJS().FindString(d)), mcpCleanText(h, 60)), true
							}
						}
					}
				}
				return "", false
			}},
	}
}
