package riskmodel

// Finding is one thing a rule noticed about one segment of a request. Findings are the
// evidence behind an assessment: the decision can always be traced to a rule id and the text it
// matched.
type Finding struct {
	RuleID   string   `json:"rule_id"`
	Segment  string   `json:"segment"`
	Level    Level    `json:"level"`
	Category Category `json:"category"`
	Message  string   `json:"message"`
	// Decision is what this finding maps to under the policy (mapping, user rules).
	Decision Decision `json:"decision"`
	// Contained marks a medium finding that stays inside the workspace and is reversible; the
	// default mapping allows those and asks about other medium findings.
	Contained bool `json:"contained,omitempty"`
	// Certain marks a finding whose effect the analysis established (it is on the policy's deny
	// list); the default mapping denies certain high findings and asks about uncertain ones.
	Certain bool `json:"certain,omitempty"`
}

// Assessment is guardian's explanation of a request: what it does, how risky it is, why.
// The rule reviewer and the model reviewer both produce one.
type Assessment struct {
	// Summary is one human sentence on what the request does, e.g. "Recursively deletes
	// /home/dev, outside the workspace".
	Summary   string    `json:"summary"`
	Level     Level     `json:"risk_level"`
	Category  Category  `json:"category"`
	Rationale string    `json:"rationale"`
	Findings  []Finding `json:"findings"`
}

// Verdict is an assessment with the decision it maps to.
type Verdict struct {
	Decision   Decision
	Assessment Assessment
	// DecidedBy names the rule that set the decision ("rule:fs.rm.home"), or "rules" when the
	// decision came from the combination of several findings.
	DecidedBy string
}
