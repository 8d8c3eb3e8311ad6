// Package model is guardian's second reviewer: a fresh-context LLM review of the requests that
// the rules (package riskmodel) leave undecided.
//
// Its first part is the contract with the model: the Verdict it must answer,
// the JSON Schema sent as the structured-output format (Schema), and the strict parser (Parse,
// ParseChoice) that turns the model's text into a Verdict. The parser is the last line between
// untrusted model output and an automatic "allow", so it is deliberately unforgiving: anything
// it is not sure about is a *BadOutputError, which the pipeline maps to status bad_output and
// the fail-safe fallback (ask, or deny in headless mode). It never guesses, repairs or
// defaults a field.
package model

import (
	"fmt"
	"strings"

	"github.com/guardianhq/guardian/riskmodel"
)

// Authorization is the model's judgement of how clearly the user (not the agent) asked for
// this very action. It is separate from the risk level because a risky action the user
// explicitly requested and one the agent decided on its own deserve different outcomes, and
// the mapping stage needs to see which case the model thought it was looking at.
type Authorization string

// The authorization grades. Unknown is the honest answer when the request carries no evidence
// of the user's intent; the agent's own justification is not such evidence.
const (
	AuthUnknown Authorization = "unknown"
	AuthLow     Authorization = "low"
	AuthMedium  Authorization = "medium"
	AuthHigh    Authorization = "high"
)

// Authorizations lists every grade from least to most informed. The schema's enum is built from
// it, so the schema and the parser cannot disagree.
func Authorizations() []Authorization {
	return []Authorization{AuthUnknown, AuthLow, AuthMedium, AuthHigh}
}

// ParseAuthorization checks s against the closed list, case-sensitively (see Parse); the
// error names the accepted values.
func ParseAuthorization(s string) (Authorization, error) {
	for _, a := range Authorizations() {
		if string(a) == s {
			return a, nil
		}
	}
	return "", fmt.Errorf("unknown user authorization %q (want one of %s)", s, strings.Join(authorizationNames(), ", "))
}

// MarshalText implements encoding.TextMarshaler; an invalid grade is an error rather than a
// string no reader would accept back.
func (a Authorization) MarshalText() ([]byte, error) {
	if _, err := ParseAuthorization(string(a)); err != nil {
		return nil, err
	}
	return []byte(a), nil
}

// UnmarshalText implements encoding.TextUnmarshaler so that an unknown grade is rejected at
// decode time wherever a Verdict is read.
func (a *Authorization) UnmarshalText(b []byte) error {
	v, err := ParseAuthorization(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

func authorizationNames() []string {
	out := make([]string, 0, 4)
	for _, a := range Authorizations() {
		out = append(out, string(a))
	}
	return out
}

// Verdict is what the model must answer for one request. Every field is required on the wire
// (SaferAlternative may be the empty string) so that a truncated or half-followed answer is
// detectable as such instead of being read with zero values. On the wire (Schema) Outcome
// comes last, after the reasoning; the struct keeps the order of the design.
//
// A Verdict returned by Parse is valid: its enums come from the vocabulary, Summary and
// Rationale are not blank, every string is within MaxFieldRunes, and Outcome is Allow only
// when RiskLevel is Low or Medium.
type Verdict struct {
	// Summary is one human sentence on what the request does; it is shown to the human when
	// the decision is ask.
	Summary string `json:"summary"`
	// RiskLevel is the model's rating of the harm the request can do.
	RiskLevel riskmodel.Level `json:"risk_level"`
	// Category is the main kind of harm risked (riskmodel's closed list).
	Category riskmodel.Category `json:"category"`
	// UserAuthorization is how clearly the user asked for this action.
	UserAuthorization Authorization `json:"user_authorization"`
	// Outcome is the model's proposed decision. It is only a proposal: the pipeline caps it by
	// the rules' verdict and the configured ceiling.
	Outcome riskmodel.Decision `json:"outcome"`
	// Rationale says why, citing the parts of the request that decided it.
	Rationale string `json:"rationale"`
	// SaferAlternative is a safer way to the same goal, or "" when there is none.
	SaferAlternative string `json:"safer_alternative"`
}

// UnmarshalJSON decodes a Verdict with Parse's strict rules. encoding/json on its own would
// match keys case-insensitively, keep the last of duplicate keys and ignore unknown ones —
// each a way for crafted output to smuggle an allow — so no code path (cache, audit replay,
// tests) can decode a Verdict leniently by accident.
func (v *Verdict) UnmarshalJSON(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*v = p
	return nil
}

// Assessment turns the verdict into guardian's common explanation shape, so that a model
// review and a rule review are shown, logged and audited alike. The safer alternative has no
// field of its own there, so it is appended to the rationale when present. Secrets are redacted
// from the text as riskmodel does for rule findings: the prompt is redacted before it is sent,
// but model text travels on to logs, terminals and audit records, so it is redacted again
// rather than trusted. Findings are left empty; the pipeline attaches the rule findings.
func (v Verdict) Assessment() riskmodel.Assessment {
	rationale := strings.TrimSpace(v.Rationale)
	if alt := strings.TrimSpace(v.SaferAlternative); alt != "" {
		if rationale != "" && !strings.ContainsAny(rationale[len(rationale)-1:], ".!?") {
			rationale += "."
		}
		rationale += " Safer alternative: " + alt
	}
	return riskmodel.Assessment{
		Summary:   riskmodel.RedactSecrets(strings.TrimSpace(v.Summary)),
		Level:     v.RiskLevel,
		Category:  v.Category,
		Rationale: riskmodel.RedactSecrets(strings.TrimSpace(rationale)),
	}
}
