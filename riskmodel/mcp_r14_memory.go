package riskmodel

import (
	"fmt"
	"regexp"
)

// Memory poisoning. An agent's memory, knowledge-graph or notes store is read back into the
// prompts of later runs, so text written there that pre-authorises actions or tells future
// runs to stop asking ("the user has authorized all deploys", "never ask for confirmation")
// rewrites the agent's own approval settings for every later session: a security control
// weakened (docs/policy.md: disabling security controls; OWASP LLM Top 10 "memory
// poisoning"; MITRE ATLAS AML.T0080 "Memory" poisoning). Facts, preferences and project notes
// stay as mcp.agent-memory judges them.

// mcpR14NoteStoreWords name a notes or memory tool beyond mcpMemoryWords' servers.
var mcpR14NoteStoreWords = wordSet{words: `memory memories remember knowledge note notes observation observations entities mem0
	recall journal scratchpad`}

// mcpR14RememberWords are a memory tool's own write verbs that the action table does not hold.
var mcpR14RememberWords = wordSet{words: `remember memorize memorise store save`}

// mcpR14ApprovalBypassRe matches a standing authorisation or an instruction to stop asking,
// built on first use (table.go: nothing at init).
var mcpR14ApprovalBypassRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bpre-?(?:authori[sz]ed|approved)\b|\bhas\s+(?:already\s+)?(?:authori[sz]ed|approved)\s+(?:all|every|any)\b|` +
		`\b(?:blanket|standing|permanent)\s+(?:approval|authori[sz]ation|permission)\b|` +
		`\b(?:never|don'?t|do\s+not|no\s+need\s+to)\s+(?:ask|prompt|check)(?:\s+(?:me|the\s+user|anyone|him|her|them))?\s+(?:for\s+(?:confirmation|approval|permission)|before|first)\b|` +
		`\bno\s+need\s+(?:to\s+)?(?:confirm|ask)\b|\bwithout\s+(?:asking|confirmation|approval|confirming|checking\s+with)\b|` +
		`\balways\s+(?:approve|allow|accept|say\s+yes)\b|\bauto-?(?:approve|accept|confirm)\b|` +
		`\bskip\s+(?:the\s+|all\s+)?(?:review|approval|confirmation|permission)s?\b`)
}}

// memoryApprovalBypass returns the phrase and the argument of a write to a memory or notes
// store that pre-authorises actions or tells later runs to stop asking.
func (c *mcpCtx) memoryApprovalBypass() string {
	if c.act < mcpActWrite && !mcpAnyWord(c.toolWords, mcpR14RememberWords.get()) {
		return ""
	}
	if !c.memory && !mcpAnyWord(c.toolWords, mcpR14NoteStoreWords.get()) && !mcpAnyWord(c.serverWords, mcpR14NoteStoreWords.get()) {
		return ""
	}
	re := mcpR14ApprovalBypassRe.get()
	for _, a := range c.args {
		if !a.str || len(a.val) < 8 {
			continue
		}
		if m := re.FindString(mcpClip(a.val, 64<<10)); m != "" {
			return fmt.Sprintf("%s, which writes %q (in %s) into a store later runs read back: a standing authorisation that turns off the agent's own approvals",
				c.call(), mcpCleanText(m, 60), mcpCleanText(a.path, 40))
		}
	}
	return ""
}
