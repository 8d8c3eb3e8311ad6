package riskmodel

// mcpR13Rules are the rules of the r13 MCP classes (mcp_r13_*.go): credentials posted to a
// third-party host, …
func mcpR13Rules() []*Rule {
	return []*Rule{
		{ID: "mcp.secret-posted", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Writes a credential into a message, page, comment or issue on a third-party host",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.postedSecret()
				return m, m != ""
			}},
		{ID: "mcp.message-data-split", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Sends customer data or a production dump link, spread over a message's fields, to someone outside the team",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.messageDataSplit()
				return m, m != ""
			}},
		{ID: "mcp.browser-key-page", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			Message: "Opens the page that mints an access token or API key in the user's logged-in browser",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.keyPage()
				return m, m != ""
			}},
		{ID: "mcp.browser-delete-confirm", Kind: KindMCP, Level: Critical, Category: CatDataDeletion,
			Message: "Types a name into a deletion-confirmation field in the browser",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.deleteConfirmTyped()
				return m, m != ""
			}},
		{ID: "mcp.physical-security", Kind: KindMCP, Level: Critical, Category: CatSecurityWeakening,
			Message: "Unlocks, disarms, opens or switches off a physical security device",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.securityDeviceMsg()
				return m, m != ""
			}},
	}
}
