package riskmodel

import (
	"fmt"
)

// Decision is what guardian answers: let the request run, refuse it, or hand it to the human.
// Decisions are ordered by restrictiveness (Allow < Ask < Deny) so that combining the verdicts
// of several segments or stages is a max: the most restrictive wins.
type Decision uint8

// The three decisions. The zero value is not a decision.
const (
	Allow Decision = iota + 1
	Ask
	Deny
)

var decisionNames = [...]string{Allow: "allow", Ask: "ask", Deny: "deny"}

// String returns the wire name ("allow", "ask", "deny") or "invalid(N)".
func (d Decision) String() string {
	if d >= Allow && d <= Deny {
		return decisionNames[d]
	}
	return fmt.Sprintf("invalid(%d)", uint8(d))
}

// ParseDecision reads a wire name.
func ParseDecision(s string) (Decision, error) {
	for d := Allow; d <= Deny; d++ {
		if decisionNames[d] == s {
			return d, nil
		}
	}
	return 0, fmt.Errorf("unknown decision %q (want allow, ask or deny)", s)
}

// MarshalText implements encoding.TextMarshaler; an invalid decision is an error.
func (d Decision) MarshalText() ([]byte, error) {
	if d < Allow || d > Deny {
		return nil, fmt.Errorf("cannot marshal decision %d", uint8(d))
	}
	return []byte(decisionNames[d]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Decision) UnmarshalText(b []byte) error {
	v, err := ParseDecision(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Stricter returns the more restrictive of a and b; an invalid (zero) decision counts as Ask,
// so that a bug can never widen a verdict to Allow.
func Stricter(a, b Decision) Decision {
	a, b = sane(a), sane(b)
	if a > b {
		return a
	}
	return b
}

func sane(d Decision) Decision {
	if d < Allow || d > Deny {
		return Ask
	}
	return d
}
