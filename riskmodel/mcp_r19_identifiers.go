package riskmodel

import (
	"fmt"
	"strings"
)

// Identity and payment numbers posted where the team reads them. mcp.outbound-data denies
// people's records sent outside the team; inside it (a team channel, the project's tracker)
// a message or page that carries social security, national identity, card or bank account
// numbers is still personal data copied into a system that keeps it, searchable by everyone
// there. Whether the team's space is the right place is the user's call, not a model's: high
// (ask), not certain.

// mcpR19Identifiers are outboundData's names for numbers that identify or pay a person.
var mcpR19Identifiers = []string{"social security numbers", "national insurance numbers", "payment card numbers",
	"bank account numbers (IBAN)", "national identity numbers"}

// identifiersPosted returns why a publishing call with no outside destination carries
// identity or payment numbers, or "".
func (c *mcpCtx) identifiersPosted() string {
	if len(c.secrets) > 0 || c.browser || c.local || c.httpSend || c.act < mcpActWrite {
		return ""
	}
	if !c.publishes() {
		return ""
	}
	if where, _ := c.outboundDest(); where != "" {
		return "" // mcp.outbound-data's
	}
	what, sure := c.outboundData()
	if !sure {
		return ""
	}
	for _, w := range mcpR19Identifiers {
		if strings.EqualFold(what, w) {
			return fmt.Sprintf("%s, which posts %s where the team reads and keeps them", c.call(), what)
		}
	}
	return ""
}

func mcpR19IdentifierRules() []*Rule {
	return []*Rule{
		{ID: "mcp.identifiers-posted", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Posts identity or payment numbers (SSNs, national IDs, card or bank account numbers) into a message, ticket or page",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.identifiersPosted()
				return m, m != ""
			}},
	}
}
