package riskmodel

import (
	"regexp"
	"strconv"
	"strings"
)

// Bulk personal, health or financial data read into the transcript. A SELECT through an MCP
// database tool returns its rows to the agent, and the transcript is sent to the model
// provider: selecting identifying columns (names, birth dates, SSNs, diagnoses, addresses,
// e-mails, phones, card numbers) of a people table (patients, members, claimants, customers,
// users, employees) in bulk — a LIMIT of 1000 or more, or no LIMIT and no WHERE — from a
// production database ships customer data to a third party (docs/policy.md: sending customer
// data to a host that is not the project's own; HIPAA minimum necessary). Aggregates, small
// samples, narrowed reads and non-production databases stay as mcp.read judges them.

// mcpR15PIIRes are the patterns of this file, built on first use (table.go: nothing at init):
// the SELECT list and its table, a people table's name, an identifying column, an aggregate,
// the LIMIT, and a production name.
var mcpR15PIIRes = table[[6]*regexp.Regexp]{build: func() [6]*regexp.Regexp {
	return [6]*regexp.Regexp{
		regexp.MustCompile(`(?is)^\s*SELECT\s+(?:DISTINCT\s+|TOP\s+\d+\s+)?(.*?)\s+FROM\s+([\w.\x60"\[\]-]+)(.*)$`),
		regexp.MustCompile(`(?i)(?:^|[._\x60"\[])(?:\w*_)?(?:patients?|members?|claimants?|customers?|users?|employees?|clients?|persons?|people|cardholders?|policyholders?|beneficiar(?:y|ies)|subscribers?|accounts?)[\x60"\]]*$`),
		regexp.MustCompile(`(?i)(?:^|[\s,.(_])(?:\*|(?:full_?|first_?|last_?|sur|given_?|family_?)?name|dob|date_?of_?birth|birth_?date|ssn|social_?security\w*|sin|national_?id|tax_?id|passport\w*|diagnos[ie]s\w*|icd\w*|address\w*|street|zip|postcode|e_?mail\w*|phone\w*|mobile|card_?(?:number|no|num)?|pan|cc_?num\w*|iban|account_?number)(?:$|[\s,)])`),
		regexp.MustCompile(`(?i)\b(?:COUNT|AVG|SUM|MIN|MAX|STDDEV\w*|APPROX_\w+)\s*\(|\bGROUP\s+BY\b`),
		regexp.MustCompile(`(?i)\bLIMIT\s+(\d+)|\bFETCH\s+FIRST\s+(\d+)`),
		regexp.MustCompile(`(?i)(?:^|[^a-z])prod(?:uction)?(?:[^a-z]|$)`),
	}
}}

// mcpR15PIIMinRows is the LIMIT from which a read of identifying columns is a bulk export.
const mcpR15PIIMinRows = 1000

// bulkPIIRead returns the people table whose identifying columns a SQL argument of the call
// reads in bulk from a production database.
func (c *mcpCtx) bulkPIIRead() string {
	if len(c.sql) == 0 {
		return ""
	}
	re := mcpR15PIIRes.get()
	prod := false
	for _, a := range c.args {
		if a.str && re[5].MatchString(a.val) {
			prod = true
			break
		}
	}
	if !prod && !re[5].MatchString(c.server) {
		return ""
	}
	keys := map[string]bool{}
	for _, k := range c.sqlArgKeys {
		keys[k] = true
	}
	for _, a := range c.args {
		if !a.str || !keys[a.key] {
			continue
		}
		for _, st := range mcpSplitSQL(mcpClip(a.val, 64<<10)) {
			if t := bulkPIISelect(re, st); t != "" {
				return t
			}
		}
	}
	return ""
}

// bulkPIISelect returns the table of one statement that selects identifying columns of a
// people table in bulk.
func bulkPIISelect(re [6]*regexp.Regexp, st string) string {
	m := re[0].FindStringSubmatch(st)
	if m == nil {
		return ""
	}
	cols, tbl, rest := m[1], m[2], m[3]
	if !re[1].MatchString(tbl) || !re[2].MatchString(cols) || re[3].MatchString(cols) || re[3].MatchString(rest) {
		return ""
	}
	if l := re[4].FindStringSubmatch(rest); l != nil {
		n, err := strconv.Atoi(l[1] + l[2])
		if err != nil || n < mcpR15PIIMinRows {
			return ""
		}
	} else if strings.Contains(strings.ToUpper(rest), "WHERE") {
		return "" // narrowed to chosen rows, size unknown
	}
	return strings.Trim(tbl, "`\"[]")
}
