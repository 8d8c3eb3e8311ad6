package guardian

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/guardianhq/guardian/riskmodel"
)

// AutoApprove is the [agents] auto_approve mode: for which agents guardian's allow stands as an
// automatic approval. It never touches deny or ask, only whether an allow reaches the host as
// allow or is handed to the human.
type AutoApprove string

// The auto-approve modes, from the most to the least permissive.
const (
	// AutoApproveEverywhere lets an allow stand for the main agent and every sub-agent: guardian
	// as it is without an [agents] table.
	AutoApproveEverywhere AutoApprove = "everywhere"
	// AutoApproveSubagentOnly lets an allow stand only for sub-agents, which work out of the
	// user's sight; the main agent's requests, which the user is watching, go to the user.
	AutoApproveSubagentOnly AutoApprove = "subagent-only"
	// AutoApproveOff approves nothing automatically: guardian still denies and annotates, and
	// the human approves.
	AutoApproveOff AutoApprove = "off"
)

// strictness orders the modes, so a project file can be checked to only tighten them. A
// value that is no mode (only a Go caller can make one) counts as off, like in Grants.
func (m AutoApprove) strictness() int {
	switch m {
	case "", AutoApproveEverywhere:
		return 0
	case AutoApproveSubagentOnly:
		return 1
	}
	return 2
}

// MainAgent is the name that stands for the main agent in AgentPolicy.Trusted. It matches a
// caller its host identified as the main agent (AgentRoleMain), whatever the agent's own name,
// and never a sub-agent — not even one whose type is called "main" — nor a caller whose host
// did not say.
const MainAgent = "main"

// DecidedByAgentPolicy is the DecidedBy of a result the agent policy handed to the human.
const DecidedByAgentPolicy = "agent-policy"

// AgentPolicy is the [agents] table: which of a host's agents guardian may approve
// automatically. The main agent is what the user talks to and watches; sub-agents are started
// by an agent (Claude Code's Agent tool, Codex's spawn_agent) and work out of sight, often in
// parallel. The zero value approves automatically for every agent, as guardian does without
// the table.
type AgentPolicy struct {
	// AutoApprove is the mode; "" means AutoApproveEverywhere.
	AutoApprove AutoApprove
	// Trusted, when non-empty, names the only agents whose requests may be approved
	// automatically, within what the mode allows: agent names as the host reports them
	// (Caller.Agent, compared exactly), and MainAgent for the main agent. Empty: every agent
	// the mode allows. A caller whose host gave no name matches no name.
	Trusted []string
}

// Mode is the effective mode: AutoApprove, or AutoApproveEverywhere when unset.
func (ap AgentPolicy) Mode() AutoApprove {
	if ap.AutoApprove == "" {
		return AutoApproveEverywhere
	}
	return ap.AutoApprove
}

// Grants reports whether the policy lets guardian approve c's requests automatically and, when
// it does not, why — naming the agent and the setting, for the human who is asked instead.
//
// A caller whose host did not say which agent asked gets the least trust any reading of it
// would give: under subagent-only it is the main agent (not approved automatically), and a
// trusted list never matches it by MainAgent.
//
// A mode that is none of the three (only a Go caller can set one) approves nothing, like off.
func (ap AgentPolicy) Grants(c Caller) (bool, string) {
	switch m := ap.Mode(); m {
	case AutoApproveEverywhere:
	case AutoApproveSubagentOnly:
		if c.AgentRole != AgentRoleSubagent {
			who := "the request comes from " + describeAgent(c)
			if c.AgentRole == AgentRoleUnknown {
				who = "the host did not say which agent asked, so it counts as the main agent"
			}
			return false, who + `, and [agents] auto_approve = "subagent-only" approves only sub-agents' requests automatically`
		}
	case AutoApproveOff:
		return false, `[agents] auto_approve = "off": no agent's requests are approved automatically`
	default:
		return false, fmt.Sprintf("[agents] auto_approve = %s is not a mode guardian knows, so no agent's requests are approved automatically", quoteName(string(m)))
	}
	if len(ap.Trusted) == 0 || ap.trusts(c) {
		return true, ""
	}
	return false, fmt.Sprintf("%s is not named in [agents] trusted = %s, the only agents approved automatically", describeAgent(c), quoteList(ap.Trusted))
}

// trusts reports whether the trusted list names c: by MainAgent when the host identified c as
// the main agent, else by its name.
func (ap AgentPolicy) trusts(c Caller) bool {
	for _, t := range ap.Trusted {
		if t == MainAgent {
			if c.AgentRole == AgentRoleMain {
				return true
			}
			continue
		}
		if c.Agent != "" && c.Agent == t {
			return true
		}
	}
	return false
}

// Apply returns res as the caller c gets it. An allow the policy does not grant to c's agent
// becomes ask — the human decides — with status agent_policy, decided_by agent-policy and a
// rationale saying which agent and which setting held it and what the review had decided; the
// assessment (summary, level, category, findings) is kept for the human to see. Deny and ask
// are returned unchanged: the policy only ever withholds an approval.
func (ap AgentPolicy) Apply(res Result, c Caller) Result {
	if res.Decision != riskmodel.Allow {
		return res
	}
	ok, why := ap.Grants(c)
	if ok {
		return res
	}
	a := res.Assessment
	a.Rationale = strings.TrimSpace(fmt.Sprintf("Agent policy: %s; handing the request to the human. The review would allow (decided by %s, status %s). %s",
		why, res.DecidedBy, res.Status, a.Rationale))
	return Result{Decision: riskmodel.Ask, Status: StatusAgentPolicy, DecidedBy: DecidedByAgentPolicy, Assessment: a, Usage: res.Usage}
}

// WithAgentPolicy sets the agent policy that Decide applies to every review it answers
// (default: the zero AgentPolicy, under which every allow stands). Review, which has no
// caller, never applies it.
func WithAgentPolicy(ap AgentPolicy) Option {
	ap.Trusted = slices.Clone(ap.Trusted)
	return func(p *Pipeline) { p.agents = ap }
}

// maxAgentNameShown caps an agent name quoted in a rationale: the name comes from the host's
// payload or an HTTP header, and a rationale is shown to a human.
const maxAgentNameShown = 80

// describeAgent names the caller's agent for a rationale. Names are quoted (control characters
// escaped) and capped: they are the host's or a client's text, not guardian's.
func describeAgent(c Caller) string {
	name := quoteName(c.Agent)
	switch {
	case c.AgentRole == AgentRoleSubagent && c.Agent != "":
		return "sub-agent " + name
	case c.AgentRole == AgentRoleSubagent:
		return "a sub-agent without a name"
	case c.AgentRole == AgentRoleMain && c.Agent != "":
		return "the main agent (running as " + name + ")"
	case c.AgentRole == AgentRoleMain:
		return "the main agent"
	case c.Agent != "":
		return "agent " + name + " (the host did not say whether it is the main agent or a sub-agent)"
	}
	return "an agent the host did not identify"
}

func quoteName(s string) string {
	if len(s) <= maxAgentNameShown {
		return strconv.Quote(s)
	}
	cut := maxAgentNameShown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteName(n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
