package riskmodel

import (
	"fmt"
	"regexp"
	"strings"
)

// This file finds credentials written into a message, page, comment or issue. docs/policy.md
// denies "sending secrets, credentials … to any host that is not the project's own": a chat
// server, a hosted wiki and an issue tracker are such hosts, whoever reads them there. A full
// credential is found by FindSecrets (secret.go). People and agents also paste a credential
// cut short ("sk_live_51Px…", "eyJhbGciOi…") beside a label saying what it is; the prefix of a
// known token format then tells what was shared, and the cut says nothing about whether the
// rest went along (an editor's preview, a model abbreviating its own output).

// mcpR13SecretPrefixes are prefixes that only credentials start with, from the vendors' own
// token-format documentation (Stripe API keys, GitHub's token prefixes, GitLab PATs, Slack
// token types, AWS access key ids, OpenAI/Anthropic keys, SendGrid, npm, Hugging Face,
// Supabase, Shopify, Linear, Notion, DigitalOcean, Google API keys, Grafana service
// accounts) and the JWT header a signed token always starts with ({"alg": → eyJhbGciOi).
// Publishable keys (pk_live_) are public by design and not listed.
var mcpR13SecretPrefixes = [...]string{
	"sk_live_", "rk_live_", "sk_test_", "rk_test_", "whsec_",
	"sk-ant-", "sk-proj-", "sk-svcacct-", "sk-admin-",
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_",
	"glpat-", "glsa_",
	"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxe-", "xapp-",
	"AKIA", "ASIA",
	"eyJhbGciOi",
	"SG.", "npm_", "hf_", "pypi-AgE", "sbp_", "shpat_", "shpss_", "lin_api_", "ntn_", "dop_v1_", "AIza",
}

// mcpR13TruncatedRe matches a prefix followed by a few token characters and an ellipsis.
var mcpR13TruncatedRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	q := make([]string, len(mcpR13SecretPrefixes))
	for i, p := range mcpR13SecretPrefixes {
		q[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9_])((?:` + strings.Join(q, "|") + `)[A-Za-z0-9_\-]{3,})(?:\.\.\.|…|\[\.\.\.\]|\.\.$)`)
}}

// mcpR13SecretLabel matches words that present the text around a value as a credential being
// handed over ("service role: …", "credentials", "API key for testing").
var mcpR13SecretLabel = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:credentials?|creds|secrets?|service[ _-]?role|api[ _-]?keys?|access[ _-]?keys?|secret[ _-]?keys?|tokens?|passwords?|private[ _-]?keys?|live[ _-]?keys?)\b`)
}}

// mcpR13RevokedWords say a cut-short key is being reported as dead, the way an incident note
// names a key without sharing it.
var mcpR13RevokedWords = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:revoked|rotated|rolled|invalidated|expired|deactivated|deleted|leaked|compromised|redacted)\b`)
}}

// mcpR13PostServers are hosts whose writes publish text to other people: hosted wikis and
// document stores, pastes, besides the trackers and chats mcp.go knows.
var mcpR13PostServers = wordSet{words: `notion confluence coda wiki gitbook outline slab nuclino gdocs googledocs docs
	sharepoint onenote quip hackmd etherpad pastebin paste gist gists discourse forum reddit`}

// mcpR13PublicWords mark a parent page, space or channel that anyone may read.
var mcpR13PublicWords = wordSet{words: `public published anyone world external everyone`}

// truncatedSecret returns the first cut-short credential in s whose text labels it as one.
func mcpR13TruncatedSecret(s string) string {
	s = mcpClip(s, 64<<10)
	if !mcpR13SecretLabel.get().MatchString(s) || mcpR13RevokedWords.get().MatchString(s) {
		return ""
	}
	for _, m := range mcpR13TruncatedRe.get().FindAllStringSubmatch(s, 8) {
		body := m[1]
		for _, p := range mcpR13SecretPrefixes {
			if strings.HasPrefix(body, p) {
				body = body[len(p):]
				break
			}
		}
		if strings.Trim(body, "xX*0_-") == "" || secIsPlaceholder(body) {
			continue // sk_live_xxxx…: a placeholder
		}
		return m[1]
	}
	return ""
}

// postsText reports where a write publishes text to others: a message, a chat, a hosted page
// or an issue tracker. It returns "" for local tools and the agent's own memory.
func (c *mcpCtx) postsText() string {
	if c.act < mcpActWrite || c.local || c.memory || c.fsTool || c.browser {
		return ""
	}
	switch {
	case mcpAnyWord(c.serverWords, mcpR13PostServers.get()):
		return "a page hosted by " + mcpOrStr(c.server, "a third party")
	case mcpAnyWord(c.serverWords, mcpTrackerServers.get()):
		return "a tracker hosted by " + mcpOrStr(c.server, "a third party")
	case c.sends || mcpAnyWord(c.serverWords, mcpMessagingWords.get()) || mcpAnyWord(c.serverWords, mcpTeamChatServers.get()):
		return "a message through " + mcpOrStr(c.server, "the tool")
	}
	return ""
}

// mcpR13AuthKeys are the arguments by which a tool authenticates itself: a credential there
// is the tool's own, not one being posted.
var mcpR13AuthKeys = wordSet{words: `token apikey apitoken key secret auth authorization password accesstoken bottoken
	credentials credential bearer clientsecret`}

// postedSecret finds a credential in the text of a post.
func (c *mcpCtx) postedSecret() string {
	where := c.postsText()
	if where == "" {
		return ""
	}
	public := c.postsPublic()
	for _, a := range c.args {
		if !a.str || a.val == "" || mcpR13AuthKeys.has(a.nkey) {
			continue
		}
		v := mcpClip(a.val, mcpMaxScan)
		for _, m := range FindSecrets(v) {
			if m.Kind == "url-password" || m.Kind == "auth-header" {
				continue // a link or header sample: mcp.text-url-secret and friends judge these
			}
			return fmt.Sprintf("%s, which writes %s (in %s) into %s", c.call(), m.Kind, mcpCleanText(a.path, 60), where)
		}
		if t := mcpR13TruncatedSecret(v); t != "" {
			return fmt.Sprintf("%s, which writes the credential %s… (in %s) into %s%s", c.call(), mcpCleanText(t, 16), mcpCleanText(a.path, 60), where, public)
		}
	}
	return c.proseCredentialPosted(where) // mcp_r18data_outbound.go
}

// postsPublic says when the post's parent, space or channel is named public.
func (c *mcpCtx) postsPublic() string {
	for _, a := range c.args {
		if !a.str || a.depth > 3 {
			continue
		}
		k := a.nkey
		if strings.Contains(k, "parent") || strings.Contains(k, "space") || strings.Contains(k, "channel") || k == "pageid" || k == "databaseid" {
			if mcpAnyWord(mcpSplitWords(a.val), mcpR13PublicWords.get()) {
				return ", under " + mcpCleanText(a.val, 40) + " which is public"
			}
		}
	}
	return ""
}
