package riskmodel

// mcpR18ObjRules are the rules of the r18 business-object classes (mcp_r18obj_*.go): admin
// grants in business systems, money redirected or moved in bulk, bulk deletes of business
// data, read tools that read credentials or exhaust a service, out-of-band capture hosts and
// look-alike download hosts, and anonymous Apex that posts records out.
func mcpR18ObjRules() []*Rule {
	return []*Rule{
		{ID: "mcp.business-admin-grant", Kind: KindMCP, Level: High, Category: CatPrivilegeEscalation, Certain: true,
			Message: "Grants an administrator role in a business system (a user, staff member or role assignment made admin, super admin or owner)",
			mcp:     mcpWhich((*mcpCtx).r18AdminGrant)},
		{ID: "mcp.payee-bank-change", Kind: KindMCP, Level: High, Category: CatFinancialOrProduction, Certain: true,
			Message: "Changes where money is paid (bank account, IBAN, sort code, routing number, payout destination) of a supplier, contact, employee or payee",
			mcp:     mcpWhich((*mcpCtx).r18PayeeBank)},
		{ID: "mcp.bulk-money-move", Kind: KindMCP, Level: Critical, Category: CatFinancialOrProduction, Certain: true,
			Message: "Refunds, voids or pays out in bulk: every payment, a wildcard, a whole period or a long list of ids",
			mcp:     mcpWhich((*mcpCtx).r18BulkMoney)},
		{ID: "mcp.bulk-selector-delete", Kind: KindMCP, Level: High, Category: CatDataDeletion, Certain: true,
			Message: "Deletes or archives business records in bulk selected as all of them (a wildcard, \"all …\" or a whole mailbox, list or history)",
			mcp:     mcpWhich((*mcpCtx).r18BulkDelete)},
		{ID: "mcp.team-space-delete", Kind: KindMCP, Level: High, Category: CatDataDeletion, Certain: true,
			Message: "Deletes or archives a team's whole space, workspace or home page with everything under it",
			mcp:     mcpWhich((*mcpCtx).r18SpaceDelete)},
		{ID: "mcp.read-credential-fields", Kind: KindMCP, Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "A read that selects the password, secret, token or API key fields of records, or a browser's cookie or login store, or a production container's environment",
			mcp:     mcpWhich((*mcpCtx).r18CredentialRead)},
		{ID: "mcp.read-exhaustion", Kind: KindMCP, Level: High, Category: CatResourceExhaustion, Certain: true,
			Message: "A query or page script that exhausts the service: cartesian joins of whole tables, billions of generated rows, an endless loop of requests",
			mcp:     mcpWhich((*mcpCtx).r18Exhaustion)},
		{ID: "mcp.oast-callback", Kind: KindMCP, Level: High, Category: CatDataExfiltration, Certain: true,
			Message: "Requests an out-of-band capture host (Burp Collaborator, interactsh, dnslog, canary tokens) with data in its name",
			mcp:     mcpWhich((*mcpCtx).r18OASTCallback)},
		{ID: "mcp.lookalike-download", Kind: KindMCP, Level: High, Category: CatRemoteCodeExecution, Certain: true,
			Message: "Downloads an executable or installer from a host named for a vendor but not the vendor's own",
			mcp:     mcpWhich((*mcpCtx).r18LookalikeDownload)},
		{ID: "mcp.apex-callout-records", Kind: KindMCP, Level: High, Category: CatDataExfiltration, Certain: true,
			Message: "Runs anonymous Apex that queries records and sends them to an outside endpoint",
			mcp:     mcpWhich((*mcpCtx).r18ApexCallout)},
	}
}
