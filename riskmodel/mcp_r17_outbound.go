package riskmodel

import (
	"regexp"
	"strings"
)

// A message that describes the customer data it carries. "Attached top 500 customers with
// emails and MRR", "here is the full user list with phone numbers", "export of all accounts":
// the attachment is not in the arguments, but the words say what leaves — a set of people
// (a count, "all", "full", "top N" before a people noun) with the fields that identify them
// or an export word. Sent to a destination outbound.go finds surely outside the team, that
// is customer data to an outside party, which docs/policy.md denies; to the team it stays a
// message (the description alone is no finding there).

// mcpR17DataDesc matches a description of a set of people's records: a quantity before a
// people noun, then within a few words an identifying field or an export word.
var mcpR17DataDesc = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	qty := `(?:\d{2,}[\d,.]*k?|\d+(?:[.,]\d+)?k|all|every|full|entire|whole|complete|top\s+\d[\d,]*)`
	people := `(?:customers?|users?|clients?|accounts?|subscribers?|members?|patients?|employees?|staff|leads?|contacts?|buyers?|donors?|students?|tenants?|merchants?|signups?|prospects?)`
	fields := `(?:e-?mails?|email\s+addresses|phones?(?:\s+numbers?)?|addresses|names|ssns?|dobs?|birth\s*dates?|dates?\s+of\s+birth|mrr|arr|revenue|spend|ltv|payment|card|billing|pii|contact\s+(?:details|info)|home\s+addresses|ip\s+addresses|passwords?|diagnos[ie]s|records?|profiles?|details)`
	export := `(?:export|dump|list|csv|xlsx|spreadsheet|table|database|db|extract|backup|data\s*set|dataset)`
	return regexp.MustCompile(`(?i)\b` + qty + `\s+(?:[a-z-]+\s+){0,3}?` + people + `\b(?:\W+\w+){0,6}?\W+(?:` + fields + `|` + export + `)\b` +
		`|\b` + export + `\s+(?:of|with)\s+(?:[a-z-]+\s+){0,2}?` + people + `\b` +
		`|\b` + people + `\s+(?:export|dump|csv|xlsx|spreadsheet|extract|backup|dataset)\b`)
}}

// describedPeopleData returns the words of a call's text that describe people's records it
// carries, or "".
func (c *mcpCtx) describedPeopleData(text string) string {
	if m := mcpR17DataDesc.get().FindString(mcpClip(text, 16<<10)); m != "" {
		return "what its text describes as people's records (" + mcpCleanText(m, 60) + ")"
	}
	return ""
}

// mcpR17IDExternal reports a channel or conversation id written in capitals and digits
// (Slack's D…, C…, G… ids) that spells an outside party's word inside it (D05VENDORX,
// C0PARTNERS1): the id was named for who is in it. Only words of five letters or more, so
// that a random id's letters do not make one.
func mcpR17IDExternal(v string) bool {
	if len(v) < 6 || len(v) > 40 || strings.ToUpper(v) != v || strings.ContainsAny(v, " -_#.") {
		return false
	}
	l := strings.ToLower(v)
	for _, w := range []string{"vendor", "partner", "guest", "external", "contractor", "agency", "supplier", "freelance", "consultant", "reseller", "thirdparty"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
