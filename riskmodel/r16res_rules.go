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
		{ID: "cloud.dns-delete", Level: High, Category: CatFinancialOrProduction,
			Message: "Deletes DNS records or a zone that is not named for development or test",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				m := dnsDelete(s)
				return m, m != ""
			}},
		{ID: "cloud.datastore-replace", Level: High, Category: CatDataDeletion,
			Message: "Replaces a database or other data store through Terraform: the data is gone, an empty one takes its place",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				m := tfReplaceData(c, s)
				return m, m != ""
			}},
		{ID: "cloud.datastore-uninstall", Level: High, Category: CatDataDeletion,
			Message: "Uninstalls the Helm release of a data store outside a development cluster",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				m := helmDataUninstall(s)
				return m, m != ""
			}},
		{ID: "sys.runaway-written", Level: Critical, Category: CatResourceExhaustion,
			Message: "Runs a script this command writes that floods hosts or exhausts the machine",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				m := writtenRunaway(c, s)
				return m, m != ""
			}},
	}
}
