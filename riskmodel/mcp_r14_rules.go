package riskmodel

// mcpR14Rules are the rules of the r14 MCP classes (mcp_r14_*.go): approval bypasses written
// into an agent's memory, destroy runs auto-applied on production.
func mcpR14Rules() []*Rule {
	return []*Rule{
		{ID: "mcp.memory-approval-bypass", Kind: KindMCP, Level: High, Category: CatSecurityWeakening, Certain: true,
			Message: "Writes a standing authorisation or an instruction to stop asking into the agent's memory or notes",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.memoryApprovalBypass()
				return m, m != ""
			}},
		{ID: "mcp.iac-destroy-applied", Kind: KindMCP, Level: Critical, Category: CatFinancialOrProduction,
			Message: "Starts an infrastructure destroy run, applied without plan review, on a production workspace or stack",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.iacDestroyApplied()
				return m, m != ""
			}},
	}
}
