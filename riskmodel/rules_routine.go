package riskmodel

// routineRules gathers the rules that tell routine work from its risky neighbours for tools
// the other families do not cover: PHP's development server (rules_phpserver.go), writes to a
// development database on this machine (rules_dblocal.go), widely used packages run straight
// from their registry (rules_pkgrun.go), and the question rules beside them: one-off TLS
// bypasses (rules_tlsonce.go).
func routineRules() []*Rule {
	var out []*Rule
	for _, fam := range [][]*Rule{phpServerRules(), dbLocalRules(), pkgRunRules(), tlsOnceRules()} {
		out = append(out, fam...)
	}
	return out
}
