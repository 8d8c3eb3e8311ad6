package riskmodel

import "fmt"

// mcpR16Rules are the rules of the r16 MCP classes (mcp_r16_*.go): data-shaped content
// published to a party outside the team, and read-named tools whose arguments do the harm.
func mcpR16Rules() []*Rule {
	return []*Rule{
		{ID: "mcp.outbound-data", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the destination is surely outside the team (a personal mailbox, a foreign domain beside the sender's, a channel named external, anyone with the link) and the content is surely people's records, identity or payment numbers, an export or a dump",
			Message:     "Publishes people's records, an export or a dump to a destination outside the team",
			mcp: func(c *mcpCtx) (string, bool) {
				m, sure := c.outboundDataExfil()
				if m == "" {
					return "", false
				}
				if sure {
					c.certainty = certaintySure
				}
				return m, true
			}},
		{ID: "mcp.remote-credential-path", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			CertainWhen: "the path climbs out of the repository or names a home or system store",
			Message:     "Reads a credential store through a read tool of a remote reader (a forge, SFTP, a drive)",
			mcp: func(c *mcpCtx) (string, bool) {
				what, sure := c.remoteCredentialPath()
				if what == "" {
					return "", false
				}
				if sure {
					c.certainty = certaintySure
				}
				return fmt.Sprintf("%s, which reads %s into the agent's context", c.call(), what), true
			}},
		{ID: "mcp.secret-bulk-get", Kind: KindMCP, Level: Critical, Category: CatCredentialAccess,
			Message: "Gets several secrets at once with their values decrypted: a bulk secret read",
			mcp: func(c *mcpCtx) (string, bool) {
				if m := c.bulkSecretGet(); m != "" {
					return fmt.Sprintf("%s, which fetches several secrets with %s: their values land in the transcript", c.call(), m), true
				}
				return "", false
			}},
		{ID: "mcp.sql-remote-reach", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the other server is a public address, or the call hands it a password",
			Message:     "Runs SQL that makes the database connect to another server (remote(), dblink(), OPENROWSET, a foreign server)",
			mcp: func(c *mcpCtx) (string, bool) {
				host, sure := c.sqlRemoteReach()
				if host == "" {
					return "", false
				}
				if sure {
					c.certainty = certaintySure
				}
				return fmt.Sprintf("%s, whose SQL makes the database connect to %s, another server", c.call(), mcpCleanText(host, 60)), true
			}},
		{ID: "mcp.sql-net-call", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the address is built from a query, is a public address or a UNC path, or an HTTP object is created",
			Message:     "Runs SQL that makes the database server call the network (UTL_HTTP, UTL_INADDR, xp_dirtree, sp_OACreate)",
			mcp: func(c *mcpCtx) (string, bool) {
				name, sure := c.sqlNetCall()
				if name == "" {
					return "", false
				}
				if sure {
					c.certainty = certaintySure
				}
				return fmt.Sprintf("%s, whose SQL calls %s: the database server contacts another host", c.call(), name), true
			}},
		{ID: "mcp.url-carries-data", Kind: KindMCP, Level: High, Category: CatDataExfiltration, Certain: true,
			Message: "Fetches or opens a URL whose query string carries people's records or identity numbers to another host",
			mcp: func(c *mcpCtx) (string, bool) {
				if what, host := c.urlCarriesData(); what != "" {
					return fmt.Sprintf("%s, whose URL carries %s to %s", c.call(), what, mcpCleanText(host, 60)), true
				}
				return "", false
			}},
		{ID: "mcp.browser-confirm-typed", Kind: KindMCP, Level: High, Category: CatDataDeletion, Certain: true,
			Message: "Types a repository's name or a destroy verb into a confirmation field: confirms a deletion or transfer",
			mcp:     mcpWhich((*mcpCtx).confirmFieldTyped)},
	}
}
