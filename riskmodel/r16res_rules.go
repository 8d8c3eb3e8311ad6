package riskmodel

// r16ResRules are the exec rules of the r16 resource classes (r16res_*.go): runaway cloud
// capacity, bulk money and message moves repeated by a loop, and destruction of production
// DNS, data stores and databases.
func r16ResRules() []*Rule {
	return []*Rule{
		{ID: "cloud.runaway-capacity", Level: High, Category: CatResourceExhaustion,
			Message: "Asks a cloud for far more machines, accelerators, nodes or replicas than any development task needs",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				m := runawayCapacity(c, s)
				return m, m != ""
			}},
		{ID: "cloud.bulk-money-move", Level: High, Category: CatFinancialOrProduction,
			Message: "Refunds, pays out, cancels or messages customers in a loop over a computed list, with no guard",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				m := bulkMove(c, s)
				return m, m != ""
			}},
	}
}
