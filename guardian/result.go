package guardian

import "github.com/guardianhq/guardian/riskmodel"

// Status says how a result came about, separately from what it decided: an agent must be able
// to tell "reviewer unavailable" from "policy says no".
type Status string

// The statuses of docs/design.md.
const (
	StatusOK          Status = "ok"           // the second reviewer (model) answered validly
	StatusRule        Status = "rule"         // the rules decided
	StatusTimeout     Status = "timeout"      // the second reviewer missed the deadline → fallback
	StatusUnavailable Status = "unavailable"  // transport or server error → fallback
	StatusBadOutput   Status = "bad_output"   // invalid reviewer output → fallback
	StatusCached      Status = "cached"       // served from the decision cache
	StatusBreakerOpen Status = "breaker_open" // a circuit breaker handed the request to the human
	StatusAgentPolicy Status = "agent_policy" // the agent policy ([agents]) handed an allow to the human
	StatusFailsafe    Status = "failsafe"     // an entry point answered its fail-safe: no review finished
	StatusHuman       Status = "human"        // a person answered a held request (guardian approve/deny)
	StatusGrant       Status = "grant"        // a person's standing grant allowed the request
	StatusHost        Status = "host"         // the host reported what the person answered at its own prompt
	StatusUnanswered  Status = "unanswered"   // a held request got no answer in time: the ask stands
)

// Result is the pipeline's answer to one request.
type Result struct {
	Decision riskmodel.Decision `json:"decision"`
	Status   Status             `json:"status"`
	// DecidedBy names what set the decision: "rule:<id>", "rules", "model:<model>@<prompt>",
	// "fallback", "cache", "breaker", "agent-policy".
	DecidedBy  string               `json:"decided_by"`
	Assessment riskmodel.Assessment `json:"assessment"`
	// Usage is the model's token usage when a model answered; nil when no model was called
	// (or its answer was unusable), so rules-only results stay as they were.
	Usage *Usage `json:"usage,omitempty"`
	// Reasoning is the model's reasoning before its verdict (redacted, capped), kept for the
	// audit record only: it is not part of the answer an agent gets, since it would show an
	// injected request how the reviewer thought about it.
	Reasoning string `json:"-"`
}

// Usage is the token usage of one model review, summed over its attempts, for the audit
// record, the eval harness's cost estimate and metrics.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// CachedTokens (of InputTokens) came from the provider's prompt cache; ReasoningTokens
	// (of OutputTokens) were reasoning. Absent when the server did not report them.
	CachedTokens    int `json:"cached_tokens,omitempty"`
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
}
