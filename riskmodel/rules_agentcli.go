package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// A coding agent started with its approvals or sandbox switched off (codex
// --dangerously-bypass-approvals-and-sandbox, claude --dangerously-skip-permissions, gemini
// --yolo) runs whatever it is told with nobody asked: docs/policy.md denies disabling "the
// agent's own approval or sandbox settings", and an agent that hands its remaining work to
// such a process has done exactly that, whatever the prompt says. Which tools are agents and
// which options do it is data (catalog/commands.toml, class coding_agent); the same agent
// started with its approvals on is left to the other rules.

func agentCLIRules() []*Rule {
	return []*Rule{
		{
			ID: "agent.unsandboxed", Level: Critical, Category: CatSecurityWeakening,
			Message: "Starts a coding agent with its approvals or sandbox switched off",
			exec: func(_ *execCtx, s *Segment) (string, bool) {
				// The agent itself, or the package a runner fetches and starts (npx @openai/codex).
				cur := s
				for depth := 0; depth < 4 && cur != nil && len(cur.Args) > 0; depth++ {
					name, _, _ := strings.Cut(strings.TrimPrefix(cur.Name(), "@"), "@")
					look := catalog.DefaultCommands().Lookup
					if depth > 0 {
						look = catalog.DefaultCommands().LookupPackage
					}
					if e, ok := look(name, cur.Args[1:]); ok {
						if flag, ok := e.Unsandboxed(cur.Args[1:]); ok {
							return "Starts " + e.Name + " with " + capText(flag) + " (" + e.What + "): an agent without the approvals and sandbox this one runs under", true
						}
					}
					next, _, ok := pkgRunnerInner(cur)
					if !ok {
						break
					}
					cur = next
				}
				return "", false
			},
		},
	}
}
