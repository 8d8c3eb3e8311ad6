package riskmodel

import (
	"regexp"
	"strings"
)

// Audit-trail deletion through SQL. An application's audit table (audit_log, audit_events,
// audit_trail, …) is the record of who did what; deleting its rows, truncating it or dropping
// it from an MCP SQL tool erases that record, often the agent's own entries: a security control
// disabled (docs/policy.md: disabling security controls; MITRE ATT&CK T1070 Indicator Removal).
// Reading the table and deleting from other tables stay as mcp.sql-delete judges them.

// mcpR15AuditDeleteRe matches a DELETE, TRUNCATE or DROP TABLE whose target names an audit
// table, built on first use (table.go: nothing at init).
var mcpR15AuditDeleteRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*(?:DELETE\s+(?:FROM\s+)?|TRUNCATE\s+(?:TABLE\s+)?(?:ONLY\s+)?|DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?)` +
		"([\\w.\"`\\[\\]]*audit[\\w.\"`\\[\\]]*)")
}}

// sqlAuditDelete returns the audit table that a statement of the call deletes, truncates or
// drops.
func (c *mcpCtx) sqlAuditDelete() string {
	re := mcpR15AuditDeleteRe.get()
	for _, s := range c.sql {
		if s.kind <= mcpSqlRead {
			continue
		}
		if m := re.FindStringSubmatch(s.text); m != nil {
			return strings.Trim(m[1], "\"`[]")
		}
	}
	return ""
}
