package guardian

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxAgentNameBytes bounds a name in [agents] trusted. Hosts name agents after their
// definitions ("Explore", "test-runner"), which are short.
const MaxAgentNameBytes = 256

var agentsSchema = []schemaKey{
	{"agents", "a table: [agents]"},
	{"agents.auto_approve", `a string: "everywhere", "subagent-only" or "off"`},
	{"agents.trusted", `a list of agent names such as ["Explore", "test-runner", "main"]`},
}

type fileAgents struct {
	AutoApprove *cfgAutoApprove `toml:"auto_approve"`
	Trusted     []cfgAgentName  `toml:"trusted"`
}

type cfgAutoApprove struct{ v AutoApprove }

func (m *cfgAutoApprove) UnmarshalText(b []byte) error {
	switch v := AutoApprove(b); v {
	case AutoApproveEverywhere, AutoApproveSubagentOnly, AutoApproveOff:
		m.v = v
		return nil
	}
	msg := fmt.Sprintf(`unknown auto_approve %q; use "everywhere" (guardian may approve for every agent), "subagent-only" (only for sub-agents: the main agent's requests go to you) or "off" (guardian approves nothing, you do)`, b)
	if s := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(string(b))), "_", "-"); s != string(b) {
		switch AutoApprove(s) {
		case AutoApproveEverywhere, AutoApproveSubagentOnly, AutoApproveOff:
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
	}
	return errors.New(msg)
}

type cfgAgentName struct{ v string }

func (n *cfgAgentName) UnmarshalText(b []byte) error {
	s := string(b)
	switch {
	case strings.TrimSpace(s) == "":
		return errors.New(`empty agent name; write the name the host reports for the agent (its agent_type, e.g. "Explore" or "test-runner"), or "main" for the main agent`)
	case !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl):
		return fmt.Errorf("agent name %q holds control characters or invalid UTF-8; write the agent's name as the host reports it, e.g. \"Explore\"", s)
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("agent name %q has leading or trailing spaces; names are compared exactly, so remove them", s)
	case len(s) > MaxAgentNameBytes:
		return fmt.Errorf("agent name is %d bytes, the limit is %d; write the agent's name as the host reports it, e.g. \"Explore\"", len(s), MaxAgentNameBytes)
	}
	n.v = s
	return nil
}

// agentSettings is what a file's [agents] table sets, after validation.
type agentSettings struct {
	mode    *AutoApprove
	trusted []string // nil when the file does not set trusted
}

// apply sets the fields of ap that the file sets.
func (s agentSettings) apply(ap *AgentPolicy) {
	if s.mode != nil {
		ap.AutoApprove = *s.mode
	}
	if s.trusted != nil {
		ap.Trusted = slices.Clone(s.trusted)
	}
}

// validateAgents checks [agents] and fills pf.agents. Settings that could have no effect are
// errors, as elsewhere in the config: a list that changes nothing would let its author believe
// it restricts something.
func (pf *parsedFile) validateAgents() {
	fa := pf.fc.Agents
	if fa == nil {
		return
	}
	s := &pf.agents
	if fa.AutoApprove != nil {
		m := fa.AutoApprove.v
		s.mode = &m
	}
	const key = "agents.trusted"
	if !pf.ix.has(key) {
		return
	}
	if len(fa.Trusted) == 0 {
		pf.addAt(key, pf.ix.valuePos(key), `trusted = [] would name no agent; remove trusted to let guardian approve for every agent auto_approve allows, or set auto_approve = "off" to approve for none`)
		return
	}
	first := map[string]int{}
	s.trusted = []string{}
	for i, n := range fa.Trusted {
		p := fmt.Sprintf("%s[%d]", key, i)
		if j, dup := first[n.v]; dup {
			pf.addAt(p, pf.ix.valuePos(p), fmt.Sprintf("%q is listed twice (first as item %d); list each agent once", n.v, j+1))
			continue
		}
		first[n.v] = i
		s.trusted = append(s.trusted, n.v)
		if n.v == MainAgent && s.mode != nil && *s.mode == AutoApproveSubagentOnly {
			pf.addAt(p, pf.ix.valuePos(p), `"main" has no effect under auto_approve = "subagent-only", which never approves the main agent's requests automatically; remove it, or set auto_approve = "everywhere"`)
		}
	}
	if s.mode != nil && *s.mode == AutoApproveOff {
		pf.add(key, `trusted has no effect under auto_approve = "off", which approves no agent's requests automatically; remove trusted, or set auto_approve = "everywhere" or "subagent-only"`)
	}
}

// mergeAgents sets out.Agents: the user's [agents] with a project file's on top. Untrusted, a
// project may only tighten it — a mode at least as strict as the user's (everywhere <
// subagent-only < off) and a trusted list naming only agents the user's list names (any list
// narrows a user config without one); its list then replaces the user's. A trusted project
// may set both freely.
func (c Config) mergeAgents(out *Config, pf *parsedFile, trusted bool, loosen func(p, what string)) {
	out.Agents = AgentPolicy{AutoApprove: c.Agents.AutoApprove, Trusted: slices.Clone(c.Agents.Trusted)}
	fa := pf.fc.Agents
	if fa == nil {
		return
	}
	s := pf.agents
	if !trusted {
		user := c.Agents.Mode()
		if s.mode != nil && s.mode.strictness() < user.strictness() {
			loosen("agents.auto_approve", fmt.Sprintf("auto_approve = %q is less strict than %q in the user config and would let guardian approve more agents' requests automatically", *s.mode, user))
		}
		if s.trusted != nil && len(c.Agents.Trusted) > 0 {
			for i, n := range fa.Trusted {
				if !slices.Contains(c.Agents.Trusted, n.v) {
					loosen(fmt.Sprintf("agents.trusted[%d]", i), fmt.Sprintf("%q is not in trusted = %s of the user config, so naming it would let guardian approve its requests automatically", n.v, quoteList(c.Agents.Trusted)))
				}
			}
		}
	}
	s.apply(&out.Agents)
}
