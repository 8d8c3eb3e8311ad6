package riskmodel

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// This file judges browser automation on account-security pages. The browser an agent drives
// is often the user's own, logged in: opening the page that mints a personal access token or
// an API key, with its form pre-filled by the URL, creates a credential in the user's name
// (docs/policy.md: reading or minting credentials without need), and typing a repository's
// name into a delete-confirmation field destroys the repository (deny: deleting
// repositories). The pages are data: host and path patterns from the vendors' own docs.

// mcpR13KeyPage is one account page that mints credentials.
type mcpR13KeyPage struct {
	host string // host or host suffix
	path string // expression on the path (and fragment, for single-page consoles)
	what string
}

// mcpR13KeyPages are the credential-minting pages. Sources: GitHub "Managing your personal
// access tokens" (settings/tokens/new, settings/personal-access-tokens/new) and "Adding a
// new SSH key" (settings/ssh/new, settings/keys); GitLab "Personal access tokens"
// (-/user_settings/personal_access_tokens, -/profile/personal_access_tokens); AWS IAM "Manage
// access keys" (console security_credentials, users/…/create-access-key); Google Cloud
// "Create and delete service account keys" (iam-admin/serviceaccounts/…/keys) and "API keys"
// (apis/credentials); Azure "app registrations > certificates & secrets"; npm, PyPI, Hugging
// Face, Vercel, Cloudflare, OpenAI, Anthropic and Stripe token pages.
var mcpR13KeyPages = []mcpR13KeyPage{
	{"github.com", `^/settings/(?:tokens|personal-access-tokens)(?:/new|$|/)|^/settings/(?:ssh|gpg)/new|^/settings/keys|^/[^/]+/[^/]+/settings/keys`, "a GitHub token or key"},
	{"gitlab.com", `^/-/(?:user_settings|profile)/(?:personal_access_tokens|ssh_keys)|/-/settings/access_tokens`, "a GitLab access token or key"},
	{"console.aws.amazon.com", `(?i)security_credentials|create-access-key|/iam/.*access[-_]?key`, "an AWS access key"},
	{"console.cloud.google.com", `^/iam-admin/serviceaccounts/.*keys|^/apis/credentials`, "a Google Cloud key"},
	{"portal.azure.com", `(?i)credentials|certificates?andsecrets|Credentials`, "an Azure client secret"},
	{"npmjs.com", `^/settings/[^/]+/tokens`, "an npm token"},
	{"pypi.org", `^/manage/account/token`, "a PyPI token"},
	{"huggingface.co", `^/settings/tokens`, "a Hugging Face token"},
	{"vercel.com", `^/account/tokens|^/account/settings/tokens`, "a Vercel token"},
	{"dash.cloudflare.com", `^/profile/api-tokens`, "a Cloudflare API token"},
	{"platform.openai.com", `^/(?:account/)?api-keys`, "an OpenAI API key"},
	{"console.anthropic.com", `^/settings/keys`, "an Anthropic API key"},
	{"dashboard.stripe.com", `^/(?:test/)?apikeys`, "a Stripe API key"},
	{"app.netlify.com", `^/user/applications`, "a Netlify token"},
	{"supabase.com", `^/dashboard/account/tokens`, "a Supabase access token"},
}

// mcpR13KeyPageRes are mcpR13KeyPages' expressions compiled, in the same order.
var mcpR13KeyPageRes = table[[]*regexp.Regexp]{build: func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(mcpR13KeyPages))
	for i, p := range mcpR13KeyPages {
		out[i] = regexp.MustCompile(p.path)
	}
	return out
}}

// keyPage names the credential a browser call's URL mints, when it opens such a page.
func (c *mcpCtx) keyPage() string {
	if !c.browser {
		return ""
	}
	for _, u := range c.urls {
		p, err := url.Parse(strings.TrimSpace(u.raw))
		if err != nil || p.Host == "" {
			continue
		}
		h := strings.ToLower(strings.TrimPrefix(p.Hostname(), "www."))
		for i, k := range mcpR13KeyPages {
			if h != k.host && !strings.HasSuffix(h, "."+k.host) {
				continue
			}
			if mcpR13KeyPageRes.get()[i].MatchString(p.Path) || p.Fragment != "" && mcpR13KeyPageRes.get()[i].MatchString(p.Fragment) {
				return fmt.Sprintf("%s, which opens the page that creates %s (%s%s) in the user's logged-in browser", c.call(), k.what, h, mcpCleanText(p.Path, 60))
			}
		}
	}
	return ""
}

// mcpR13ConfirmField matches the label of a field that confirms a deletion: GitHub's "type
// the repository name to confirm", GitLab's, Vercel's and Netlify's "enter the project name",
// cloud consoles' "type delete".
var mcpR13ConfirmField = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:delet|remov|destroy|transfer)\w*\b.*\b(?:confirm|name|verify)|\b(?:confirm|verify)\w*\b.*\b(?:delet|remov|destroy)|\b(?:repository|repo|project|site|database|bucket|organi[sz]ation|team|account)\s+name\s+confirm|\bconfirm\w*\s+(?:repository|repo|project|site|organi[sz]ation)\s+name|danger\s*zone`)
}}

// mcpR13TypeKeys are the arguments that hold what a browser call types.
var mcpR13TypeKeys = wordSet{words: `text value input keys`}

// mcpR13TargetKeys are the arguments that describe the element typed into.
var mcpR13TargetKeys = wordSet{words: `element selector label name target description field placeholder`}

// typedInto returns what a browser typing call types and the description of the field it
// types into, when that description matches label; "" and "" otherwise. The deletion-dialog
// rules (deleteConfirmTyped, confirmFieldTyped) differ only in the label and in what they
// accept as typed.
func (c *mcpCtx) typedInto(label *regexp.Regexp) (target, typed string) {
	if !c.browser || !mcpAnyWord(c.toolWords, mcpWordSet("type fill input enter")) {
		return "", ""
	}
	for _, a := range c.args {
		if !a.str || a.depth > 2 {
			continue
		}
		switch {
		case mcpR13TargetKeys.has(a.nkey) && label.MatchString(mcpClip(a.val, 512)):
			target = a.val
		case mcpR13TypeKeys.has(a.nkey):
			typed = strings.TrimSpace(a.val)
		}
	}
	return target, typed
}

// deleteConfirmTyped reports typing a name into a deletion-confirmation field.
func (c *mcpCtx) deleteConfirmTyped() string {
	target, typed := c.typedInto(mcpR13ConfirmField.get())
	if target == "" || typed == "" || strings.ContainsAny(typed, " \n") && !strings.EqualFold(typed, "delete my project") {
		return ""
	}
	return fmt.Sprintf("%s, which types %q into %q: confirming a deletion", c.call(), mcpCleanText(typed, 60), mcpCleanText(target, 60))
}
