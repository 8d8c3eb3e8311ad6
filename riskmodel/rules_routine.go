package riskmodel

// routineRules gathers the rules that tell routine work from its risky neighbours for tools
// the other families do not cover: PHP's development server (rules_phpserver.go).
func routineRules() []*Rule {
	return phpServerRules()
}
