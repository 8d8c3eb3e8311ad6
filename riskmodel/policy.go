package riskmodel

import (
	"fmt"
	"regexp"
)

// Policy is the compiled, validated form of the user's configuration as far as the rule
// reviewer is concerned. The guardian package reads TOML into it; riskmodel never does I/O.
// The zero Policy is usable: cwd is the workspace, home is inferred, default mapping.
type Policy struct {
	// Workspaces are absolute directories the agent may change freely. The request's cwd is
	// added per request unless it is "/" or the home directory itself.
	Workspaces []string
	// Home is the agent's home directory for "~" and $HOME. Empty: inferred from the cwd
	// (/home/NAME, /Users/NAME, /root), else "/home/user".
	Home string
	// ProtectedPaths are globs ("~/notes/**", "/srv/data/*") that no agent may write, delete or
	// change permissions of: such a segment is denied. Reading them is asked about.
	ProtectedPaths []string
	// TrustedHosts are host globs ("github.com", "*.internal.example") whose plain downloads
	// are low risk and from which piping an installer to a shell is asked about, not denied.
	TrustedHosts []string
	// Rules are the user's own allow/ask/deny rules, matched per segment (exec) or per
	// server/tool (mcp). Precedence: deny > ask > allow.
	Rules []UserRule
	// Mapping is the level→decision mapping per request kind; missing kinds use
	// DefaultMapping.
	Mapping map[Kind]Mapping
}

// UserRule is one allow/ask/deny rule from the config, applied by the policy applier
// (apply.go) to each command of an exec request and to each MCP call. Every condition it sets
// must hold. An exec rule says which commands it covers — Commands, or one of Prefix, Glob and
// Regex over the argv, or both — and may narrow them by effect: where they run (CwdUnder) and
// which paths they name (PathsWithin). An mcp rule's Glob is matched against "server/tool"
// (and "server/tool:verb"); PathsWithin narrows it to calls whose paths lie in those places.
type UserRule struct {
	// ID names the rule in findings and decided_by, e.g. "user:deny-prod-kubectl".
	ID       string
	Kind     Kind
	Decision Decision
	// Prefix matches when the segment's argv starts with these words (["git","push"]).
	Prefix []string
	// Glob matches the whole space-joined argv; "*" matches any run of characters, "?" one.
	Glob string
	// Regex matches anywhere in the space-joined argv (anchor it yourself).
	Regex *regexp.Regexp
	// Commands are command names ("git", "jq"): the command, after every wrapper is
	// unwrapped, must be one of them. exec only.
	Commands []string
	// CwdUnder are directory globs (absolute or ~/-relative) that the command must work
	// under: its cwd after cd, and for git also -C, --git-dir and --work-tree. exec only.
	CwdUnder []string
	// PathsWithin are places — PlaceWorkspace or path globs, absolute or ~/-relative, each
	// also covering what is below it — that every local path the command or call names must
	// lie in. A path that cannot be placed (a variable, a remote host:path or URL) or code
	// whose paths cannot be seen (python -c, a shell command inside an MCP call) fails it.
	PathsWithin []string
	// Reason is shown to the human and the agent.
	Reason string
}

// Mapping turns a risk level into a decision. MediumContained applies to medium findings that
// stay inside the workspace and are reversible; Medium to the other medium findings. High
// applies to high findings the analysis cannot confirm (it may be dangerous, it cannot tell);
// HighCertain to high findings whose effect is established and on docs/policy.md's deny list.
type Mapping struct {
	Low             Decision
	MediumContained Decision
	Medium          Decision
	High            Decision
	// HighCertain is the decision for certain high findings. Zero (a Mapping written before
	// certainty existed) means the same as High.
	HighCertain Decision
	Critical    Decision
}

// DefaultMapping is docs/policy.md's mapping: low → allow, medium → allow if inside the
// workspace and reversible else ask, high → deny when the analysis is certain of the effect
// else ask, critical → deny.
func DefaultMapping() Mapping {
	return Mapping{Low: Allow, MediumContained: Allow, Medium: Ask, High: Ask, HighCertain: Deny, Critical: Deny}
}

// highCertain is the decision for certain high findings, High when unset.
func (m Mapping) highCertain() Decision {
	if m.HighCertain == 0 {
		return m.High
	}
	return m.HighCertain
}

// Decide maps one finding's level (its containment, its certainty) to a decision.
func (m Mapping) Decide(l Level, contained, certain bool) Decision {
	switch l {
	case Low:
		return sane(m.Low)
	case Medium:
		if contained {
			return sane(m.MediumContained)
		}
		return sane(m.Medium)
	case High:
		if certain {
			return sane(m.highCertain())
		}
		return sane(m.High)
	case Critical:
		return sane(m.Critical)
	}
	return Ask
}

// Validate refuses mappings that would let the worst requests through unseen: critical must be
// deny or ask, and no level may be mapped more leniently than a lower one.
func (m Mapping) Validate() error {
	order := []struct {
		name string
		d    Decision
	}{{"low", m.Low}, {"medium_contained", m.MediumContained}, {"medium", m.Medium}, {"high", m.High},
		{"high_certain", m.highCertain()}, {"critical", m.Critical}}
	for i, o := range order {
		if o.d < Allow || o.d > Deny {
			return fmt.Errorf("mapping %s: missing or invalid decision", o.name)
		}
		if i > 0 && o.d < order[i-1].d {
			return fmt.Errorf("mapping %s = %s is more lenient than %s = %s; a riskier level cannot map to a weaker decision",
				o.name, o.d, order[i-1].name, order[i-1].d)
		}
	}
	if m.Critical == Allow {
		return fmt.Errorf("mapping critical = allow is not permitted: critical requests are denied or asked about")
	}
	return nil
}

// mappingFor returns the mapping configured for kind, or the default.
func (p *Policy) mappingFor(k Kind) Mapping {
	if m, ok := p.Mapping[k]; ok {
		return m
	}
	return DefaultMapping()
}
