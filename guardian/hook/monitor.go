package hook

import "github.com/guardianhq/guardian/guardian"

// NoVerdicter is a protocol whose "no verdict" reply is not the empty one: Gemini CLI reads
// {} as "no decision", and an empty stdout is not guaranteed to mean the same.
type NoVerdicter interface {
	// NoVerdict is the reply that leaves the call to the host's own permission flow.
	NoVerdict(event string) Reply
}

// NoVerdict is p's reply that gives the host no verdict: its NoVerdict when it has one, else
// no output and exit 0, which Claude Code reads as "no opinion" and Codex as "no verdict".
func NoVerdict(p Protocol, event string) Reply {
	if nv, ok := p.(NoVerdicter); ok {
		return nv.NoVerdict(event)
	}
	return Reply{}
}

// Monitor is p in monitor mode, for a trial period before guardian is enforced: every call is
// reviewed and recorded as usual (the caller is marked Monitor, so the audit record says the
// decision was not enforced), but the host always gets p's no-verdict reply — for a decision
// and for a fail-safe alike — so the host's own permission flow decides everything, as if
// guardian were not installed. `guardian verify` reports a hook in this mode.
func Monitor(p Protocol) Protocol { return monitor{p} }

type monitor struct{ p Protocol }

// Parse marks the call as a monitored one.
func (m monitor) Parse(stdin []byte, getenv func(string) string) (Call, error) {
	c, err := m.p.Parse(stdin, getenv)
	c.Caller.Monitor = true
	return c, err
}

// Answer gives the host no verdict, whatever was decided.
func (m monitor) Answer(c Call, _ guardian.Result) Reply { return NoVerdict(m.p, c.Event) }

// Failsafe gives the host no verdict too: in monitor mode guardian never stands in the way,
// not even when it could not review (Run still records the fail-safe in the audit log).
func (m monitor) Failsafe(event, _ string) Reply { return NoVerdict(m.p, event) }

// NoVerdict is the monitored protocol's.
func (m monitor) NoVerdict(event string) Reply { return NoVerdict(m.p, event) }
