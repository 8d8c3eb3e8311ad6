package riskmodel

// MCP calls that switch off a control or publish data by their arguments, not their verb:
// the forge settings that gate merges, a monitoring service muted wholesale, a file shared
// with anyone who has the link, and a posted message whose link carries a secret. Each was
// rated like any other write (medium), so a model answering allow let it through; each is
// on docs/policy.md's deny list when the effect is known (branch protection off, a security
// control disabled, customer data or secrets sent where anyone can read them).

import (
	"fmt"
	"net/url"
	"path"
	"strings"
)

// ---------------------------------------------------------------------------------------------
// Merge gates on a forge.

// mcpMergeGateOff are the settings (normalised keys) that gate merges into a protected
// branch, and the value that switches each off: "false" for a requirement, "true" for a
// permission that bypasses the gate, "0" for a count of required approvals, "null" for a
// whole requirement removed (GitHub's update_branch_protection takes null to remove one).
var mcpMergeGateOff = table[map[string]string]{build: func() map[string]string {
	return map[string]string{
		// GitLab project and protected-branch settings.
		"onlyallowmergeifpipelinesucceeds":          "false",
		"onlyallowmergeifalldiscussionsareresolved": "false",
		"approvalsbeforemerge":                      "0",
		"resetapprovalsonpush":                      "false",
		"mergerequestsauthorapproval":               "true",
		"mergerequestsdisablecommittersapproval":    "false",
		"disableoverridingapproverspermergerequest": "false",
		"codeownerapprovalrequired":                 "false",
		"allowforcepush":                            "true",
		// GitHub branch protection and rulesets.
		"requiredapprovingreviewcount": "0",
		"requirecodeownerreviews":      "false",
		"dismissstalereviews":          "false",
		"requirelastpushapproval":      "false",
		"enforceadmins":                "false",
		"requiredstatuschecks":         "null",
		"requiredpullrequestreviews":   "null",
		"requiredsignatures":           "false",
		"allowforcepushes":             "true",
		"allowdeletions":               "true",
		// Bitbucket and Gitea spellings.
		"requiredapprovals":        "0",
		"enablestatuscheck":        "false",
		"enableapprovalswhitelist": "false",
	}
}}

// mergeGateOff returns the setting a forge call switches off, "" if none.
func (c *mcpCtx) mergeGateOff() string {
	if !c.forge() || c.act < mcpActWrite {
		return ""
	}
	for _, a := range c.args {
		off, ok := mcpMergeGateOff.get()[a.nkey]
		if !ok || a.depth > 3 {
			continue
		}
		v := strings.ToLower(strings.TrimSpace(a.val))
		if v == off || off == "null" && (v == "" || v == "null") && !a.str {
			return fmt.Sprintf("%s = %s", a.key, mcpOrStr(v, "null"))
		}
	}
	return ""
}

// ---------------------------------------------------------------------------------------------
// Monitoring muted wholesale.

var (
	mcpMuteWords    = wordSet{words: `mute muted silence silenced snooze snoozed disable disabled pause paused suppress`}
	mcpMonitorWords = wordSet{words: `monitor monitors alert alerts alerting alarm alarms alertrule alertrules detector detectors`}
	mcpMonitorIDs   = wordSet{words: `id ids monitorid monitorids alertid alertids ruleid ruleids detectorid alarmname alarmnames name`}
	mcpScopeKeys    = wordSet{words: `scope scopes filter query tags tag selector env environment`}
)

// alertsMutedWholesale describes a call that mutes every monitor or alert, or every one of an
// environment, "" otherwise. Muting one named monitor for a deploy is a production change
// with a reason (asked); muting all of them switches the alerting off.
func (c *mcpCtx) alertsMutedWholesale() string {
	if c.act < mcpActWrite {
		return ""
	}
	words := append(append([]string{}, c.toolWords...), c.actWords...)
	if c.verb != "" {
		words = append(words, mcpSplitWords(c.verb)...)
	}
	if !mcpAnyWord(words, mcpMuteWords.get()) || !mcpAnyWord(words, mcpMonitorWords.get()) {
		return ""
	}
	if mcpAnyWord(words, mcpWordSet(`all every`)) {
		return "every monitor"
	}
	for _, a := range c.args {
		if a.depth <= 2 && mcpMonitorIDs.get()[a.nkey] && strings.TrimSpace(a.val) != "" && a.val != "*" && a.val != "null" {
			return "" // one named monitor (its scope narrows that monitor's mute): asked as a production change
		}
	}
	scoped := false
	for _, a := range c.args {
		if a.depth > 2 || !mcpScopeKeys.get()[a.nkey] || !a.str {
			continue
		}
		scoped = true
		v := strings.ToLower(strings.TrimSpace(a.val))
		switch {
		case v == "*" || v == "all" || v == "" || v == "any":
			return fmt.Sprintf("every monitor (%s %q)", a.key, a.val)
		case isProductionScope(v):
			return fmt.Sprintf("every monitor of production (%s %q)", a.key, a.val)
		}
	}
	if scoped {
		return "" // a narrower scope (service:checkout): asked as a production change
	}
	return "every monitor (none is named)"
}

// reProdScope is a monitoring scope that selects a whole production environment.
var reProdScope = lazyRegexp(`^(env|environment|stage|tier)\s*[:=]\s*(prod|production|prd|live)$`)

func isProductionScope(v string) bool { return reProdScope().MatchString(v) }

// ---------------------------------------------------------------------------------------------
// Files shared with anyone.

var (
	mcpShareWords      = wordSet{words: `share sharing permission permissions visibility access publish link`}
	mcpPublicValues    = wordSet{words: `anyone anyonewithlink anyone_with_link public everyone world internet publiconweb domain_and_public open`} // open: Box shared_link.access (developer.box.com: "open" — anyone with the link)
	mcpShareAudienceKe = wordSet{words: `type granteetype audience visibility access linksharing sharing scope role who accesslevel generalaccess`}
	mcpShareNameKeys   = wordSet{words: `filename name title file filepath path documentname docname sheetname item itemname objectname`}
)

// publicShare returns whom a sharing call opens a file to ("anyone with the link") and the
// kind of data its name says it holds ("" when the name says nothing).
func (c *mcpCtx) publicShare() (audience, what, name string) {
	if c.act < mcpActWrite || !mcpAnyWord(append(append([]string{}, c.toolWords...), c.actWords...), mcpShareWords.get()) {
		return "", "", ""
	}
	for _, a := range c.args {
		if !a.str || a.depth > 3 || !mcpShareAudienceKe.get()[a.nkey] {
			continue
		}
		if v := mcpNormKey(a.val); mcpPublicValues.get()[v] || mcpPublicValues.get()[strings.ToLower(strings.TrimSpace(a.val))] {
			audience = a.val
			break
		}
	}
	if audience == "" {
		return "", "", ""
	}
	for _, a := range c.args {
		if !a.str || len(a.val) > 512 || !mcpShareNameKeys.get()[a.nkey] {
			continue
		}
		base := strings.ToLower(path.Base(strings.TrimSpace(a.val)))
		for _, d := range mcpDataFileRe {
			if d.re().MatchString(base) && (d.what != "customer data" || mcpR16DataExt.get().MatchString(base)) { // users-guide.pdf holds no one's data
				return audience, d.what, path.Base(strings.TrimSpace(a.val))
			}
		}
	}
	return audience, "", ""
}

// ---------------------------------------------------------------------------------------------
// A posted text whose link carries a secret.

// reTextURL finds http(s) URLs in free text (Markdown links and images included).
var reTextURL = lazyRegexp(`https?://[^\s<>"'` + "`" + `()\[\]{}|\\^]+`)

// textURLSecret returns the host of a URL in the text a write posts (a comment, an issue, a message, a
// page) that carries a secret to its host: an image in a comment is fetched by every reader's
// client or the forge's proxy, and any link is readable by everyone who sees the text.
func (c *mcpCtx) textURLSecret() (raw, what string, sure bool) {
	if c.act < mcpActWrite {
		return "", "", false
	}
	for _, a := range c.args {
		if !a.str || mcpUrlKeys.has(a.nkey) || !strings.Contains(a.val, "://") {
			continue
		}
		for _, m := range reTextURL().FindAllString(mcpClip(a.val, 64<<10), 32) {
			u, err := url.Parse(strings.TrimRight(m, ".,;:!?"))
			if err != nil || u.Host == "" {
				continue
			}
			h := strings.ToLower(u.Hostname())
			if isLocalHost(h) || c.trustedHost(h) {
				continue
			}
			if w, ok := urlSecret(u); w != "" {
				return h, w, ok // the host only: the URL holds the secret
			}
		}
	}
	return "", "", false
}

func mcpControlRules() []*Rule {
	return []*Rule{
		{ID: "mcp.merge-gate-off", Kind: KindMCP, Level: High, Category: CatSecurityWeakening,
			Message: "Switches off a forge setting that gates merges (required approvals, passing pipelines, code-owner review, no force pushes)",
			mcp: func(c *mcpCtx) (string, bool) {
				if s := c.mergeGateOff(); s != "" {
					return fmt.Sprintf("%s, which sets %s: a merge gate (branch protection) switched off", c.call(), mcpCleanText(s, 80)), true
				}
				return "", false
			}},
		{ID: "mcp.alerts-muted", Kind: KindMCP, Level: High, Category: CatSecurityWeakening,
			Message: "Mutes every monitor or alert, or every one of production: the alerting switched off",
			mcp: func(c *mcpCtx) (string, bool) {
				if w := c.alertsMutedWholesale(); w != "" {
					return fmt.Sprintf("%s, which mutes %s: nobody hears of an outage or an intrusion while it lasts", c.call(), w), true
				}
				return "", false
			}},
		{ID: "mcp.public-share", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the file's name says it holds customer data, an export or dump, credentials or source code",
			Message:     "Shares a file or document with anyone who has the link, or publicly",
			mcp: func(c *mcpCtx) (string, bool) {
				who, what, name := c.publicShare()
				if who == "" {
					return "", false
				}
				if what != "" {
					c.certainty = certaintySure // policy: customer data, credentials or source to anyone
					return fmt.Sprintf("%s, which shares %s (%s) with %s", c.call(), mcpCleanText(name, 60), what, mcpCleanText(who, 30)), true
				}
				return fmt.Sprintf("%s, which shares a file with %s", c.call(), mcpCleanText(who, 30)), true
			}},
		{ID: "mcp.text-url-secret", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the value is key-shaped, long, or decodes to credentials",
			Message:     "Posts text whose link or image carries a secret to another host",
			mcp: func(c *mcpCtx) (string, bool) {
				raw, what, sure := c.textURLSecret()
				if raw == "" {
					return "", false
				}
				if sure {
					c.certainty = certaintySure // policy: secrets in URLs to hosts that are not the project's
				}
				return fmt.Sprintf("%s, whose text links to %s with %s", c.call(), mcpCleanText(raw, 80), what), true
			}},
	}
}
