package riskmodel

// mcpR15Rules are the rules of the r15 MCP classes (mcp_r15_*.go): bulk secret values read
// from a secret store, audit trails deleted through SQL, people's data read in bulk.
func mcpR15Rules() []*Rule {
	return []*Rule{
		{ID: "mcp.secret-bulk-values", Kind: KindMCP, Level: Critical, Category: CatCredentialAccess,
			Message: "Lists a secret store with its values: every secret lands in the transcript",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.bulkSecretValues()
				return m, m != ""
			}},
		{ID: "mcp.sql-audit-delete", Kind: KindMCP, Level: High, Category: CatSecurityWeakening, Certain: true,
			Message: "Deletes, truncates or drops an audit table: the record of who did what is erased",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.sqlAuditDelete()
				return m, m != ""
			}},
		{ID: "mcp.sql-bulk-pii-read", Kind: KindMCP, Level: High, Category: CatDataExfiltration, Certain: true,
			Message: "Reads identifying columns of a production people table in bulk into the transcript, which is sent to the model provider",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.bulkPIIRead()
				return m, m != ""
			}},
	}
}
