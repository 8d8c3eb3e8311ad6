package riskmodel

import (
	"fmt"
	"strings"
)

// Calls the policy puts on its ask row that the rules allowed as team work:
//
//   - an error or alert ignored, muted or archived in an error tracker (Sentry, Rollbar,
//     Bugsnag, Honeybadger, Raygun, Airbrake): future occurrences stop alerting anyone, a
//     production change a human should make (unlike resolving, which reopens on regression);
//   - an issue, comment or page written into a project, space or page named as an outside
//     party's (a vendor's, a partner's, a supplier's, a contractor's): a message to an external
//     party;
//   - a fork into another owner: an unofficial fork, asked; one into an owner named as a copy
//     (a mirror, a backup) or after the repository itself is the source carried off to a
//     look-alike (forkOwnerNamedAsCopy, mcp.repo-exposure).
//
// Sources: Sentry's issue API (status resolved/unresolved/ignored, substatus archived_*),
// Rollbar's item status (muted), Bugsnag's error status (ignored, snoozed), Honeybadger's
// fault ignore; docs/policy.md's ask row ("messages to external parties", "unofficial
// forks").

// r10ErrorTrackerWords name error trackers and their objects.
var r10ErrorTrackerWords = &wordSet{words: `sentry rollbar bugsnag honeybadger raygun airbrake glitchtip errbit crashlytics`}

// r10IgnoredStates silence an error's future alerts.
var r10IgnoredStates = &wordSet{words: `ignored ignore muted mute archived archive snoozed snooze archiveduntilescalating archived_until_escalating archivedforever archived_forever`}

// errorIgnored says why a call silences an error's alerts in an error tracker.
func errorIgnored(c *mcpCtx) string {
	if c.act < mcpActWrite || c.act == mcpActDestroy || !c.callWord(r10ErrorTrackerWords.get()) {
		return ""
	}
	if mcpAnyWord(c.toolWords, mcpWordSet("ignore mute snooze archive")) {
		return "it ignores an error in " + c.server + ": its next occurrences alert nobody (docs/policy.md: production changes)"
	}
	for _, a := range c.args {
		if (a.nkey == "status" || a.nkey == "substatus" || a.nkey == "state" || a.nkey == "resolution") && r10IgnoredStates.has(strings.ToLower(strings.TrimSpace(a.val))) {
			return fmt.Sprintf("it sets %s to %s in %s: the error's next occurrences alert nobody (docs/policy.md: production changes)", a.key, a.val, c.server)
		}
	}
	return ""
}

// r10OutsidePartyWords name an outside party in a project key, space or page.
var r10OutsidePartyWords = &wordSet{words: `vendor vendors partner partners supplier suppliers contractor contractors agency thirdparty external extern`}

// r10SpaceKeys hold where an issue, comment or page is written.
var r10SpaceKeys = &wordSet{words: `project projectkey projectid space spacekey spaceid parent parentid pageid parentpageid database databaseid
	board boardid team teamid channel channelid`}

// outsidePartySpace says why a write goes to an outside party's project, space or page.
func outsidePartySpace(c *mcpCtx) string {
	if c.act < mcpActWrite || c.act == mcpActDestroy {
		return ""
	}
	for _, a := range c.args {
		if !a.str || a.depth > 3 || len(a.val) > 120 {
			continue
		}
		if !r10SpaceKeys.has(a.nkey) && !strings.HasPrefix(strings.ToLower(a.path), "parent") {
			continue
		}
		if w := mcpFirstWord(mcpSplitWords(a.val), r10OutsidePartyWords.get()); w != "" {
			return fmt.Sprintf("it writes into %s (%s), an outside party's: a message to an external party (docs/policy.md: messages to external parties)", mcpCleanText(a.val, 40), a.key)
		}
	}
	return ""
}

// forkOwnerNamedAsCopy reports a fork target owner made to hold a copy of this repository:
// named as a copy (a mirror, a backup, an export) or after the repository itself beside the
// original owner's name (acme/billing-portal into acme-billing-tmp), a look-alike of the
// project rather than a team's sandbox or a company's org for an upstream patch.
func forkOwnerNamedAsCopy(target, owner, repo string) bool {
	words := mcpSplitWords(target)
	if mcpAnyWord(words, mcpCopyNameWords.get()) {
		return true
	}
	ownerWords := mcpWordSet(strings.Join(mcpSplitWords(owner), " "))
	for _, w := range mcpSplitWords(repo) {
		if len(w) >= 4 && !ownerWords[w] && mcpContains(words, w) {
			return true
		}
	}
	return false
}

func mcpR10AskRules() []*Rule {
	return []*Rule{
		{ID: "mcp.error-ignored", Kind: KindMCP, Level: Medium, Category: CatFinancialOrProduction,
			Message: "Ignores, mutes or archives an error in an error tracker: its next occurrences alert nobody",
			mcp:     mcpWhich(errorIgnored)},
		{ID: "mcp.outside-party-space", Kind: KindMCP, Level: Medium, Category: CatNetworkEgress,
			Message: "Writes an issue, comment or page into a project, space or page named as an outside party's (vendor, partner)",
			mcp:     mcpWhich(outsidePartySpace)},
	}
}

// topValue is the first of keys given as a top-level argument, "" when none is.
func (c *mcpCtx) topValue(keys ...string) string {
	a, _ := c.top(keys...)
	return a.val
}
