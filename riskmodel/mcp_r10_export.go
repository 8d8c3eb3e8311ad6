package riskmodel

import (
	"fmt"
	"regexp"
	"strings"
)

// Data sent out of the project by a setting rather than a message: an SQL statement that
// exports a table to object storage or a URL, a mail rule that forwards a mailbox, a log sink
// or export whose destination belongs to another project, and a whole drive, workspace or
// database shared with a personal mailbox. docs/policy.md: "sending secrets, credentials,
// customer data or source code to any host that is not the project's own … outside email".
// Each is certain when the destination is shown not to be the project's own (another
// project, a personal mailbox, credentials of another account inline, a bucket named as
// public or shared) or when what leaves is the people in it (a users or customers table,
// every message of a mailbox); otherwise it is high and asked: an export to the team's own
// bucket or a forward to a colleague is a change a human may want.
//
// Sources: BigQuery EXPORT DATA (OPTIONS uri), Redshift UNLOAD … TO 's3://', Snowflake COPY
// INTO 's3://'|'gcs://'|'azure://', Aurora MySQL SELECT … INTO OUTFILE S3, ClickHouse INSERT
// INTO FUNCTION s3()/url(), DuckDB COPY … TO 's3://', RDS PostgreSQL
// aws_s3.query_export_to_s3; Gmail API users.settings.filters (action.forward) and
// users.settings.updateAutoForwarding, Microsoft Graph messageRule (forwardTo, redirectTo);
// Cloud Logging sinks (destination storage/bigquery/pubsub/logging of projects/ID), Pub/Sub
// and BigQuery Data Transfer destinations; Google Drive permissions on shared drives.

// r10SQLExportRe are SQL exports to object storage or a URL; each captures the destination.
var r10SQLExportRe = table[[]*regexp.Regexp]{build: func() []*regexp.Regexp {
	const dest = `((?:gs|s3|s3a|gcs|az|azure|abfss?|wasbs?|r2|https?)://[^'"\s)]+)`
	return []*regexp.Regexp{
		regexp.MustCompile(`(?is)\bexport\s+data\b.*?\buri\s*=\s*['"]` + dest),
		regexp.MustCompile(`(?is)\bunload\s*\(.*?\)\s*to\s*'` + dest),
		regexp.MustCompile(`(?is)\bcopy\s+into\s+'` + dest),
		regexp.MustCompile(`(?is)\binto\s+outfile\s+s3\s+'` + dest),
		regexp.MustCompile(`(?is)\binsert\s+into\s+function\s+(?:s3|url|gcs|azureblobstorage|s3cluster)\s*\(\s*'` + dest),
		regexp.MustCompile(`(?is)\bcopy\b.{0,1000}?\bto\s+'` + dest),
		regexp.MustCompile(`(?is)\baws_s3\.query_export_to_s3\s*\(.*?aws_commons\.create_s3_uri\s*\(\s*'([^']+)'`),
		regexp.MustCompile(`(?is)\binsert\s+overwrite\s+(?:local\s+)?directory\s+'` + dest), // Spark/Databricks/Hive
	}
}}

// sqlExportOut says why SQL exports data to object storage or a URL, and whether the
// destination or the data puts it on the deny list.
func sqlExportOut(c *mcpCtx) (string, bool) {
	for _, a := range c.args {
		if !a.str || len(a.val) < 16 || mcpFreeTextKeys.get()[a.nkey] && !mcpSqlKeys.has(a.nkey) {
			continue
		}
		t := mcpClip(a.val, 256<<10)
		if !strings.Contains(t, "://") && !strings.Contains(t, "s3_uri") {
			continue // every export names its destination as a URL (or aws_commons.create_s3_uri)
		}
		for _, re := range r10SQLExportRe.get() {
			m := re.FindStringSubmatchIndex(t)
			if m == nil {
				continue
			}
			d := t[m[2]:m[3]]
			host := d
			if _, rest, ok := strings.Cut(d, "://"); ok {
				host, _, _ = strings.Cut(rest, "/")
			}
			if isLocalHost(strings.ToLower(host)) {
				continue
			}
			stmt := t
			if i := strings.IndexByte(t[m[1]:], ';'); i >= 0 {
				stmt = t[:m[1]+i]
			}
			why := "its SQL exports data to " + mcpCleanText(d, 80)
			switch {
			case r10ExportRe.get().r10SQLInlineCredRe.MatchString(stmt):
				return why + " with credentials of its own, another account's (docs/policy.md: sending customer data to any host that is not the project's own)", true
			case r10ExportRe.get().r10ForeignBucketRe.MatchString(host):
				return why + ", a destination named as not the project's own (docs/policy.md: sending customer data to any host that is not the project's own)", true
			case r10ExportRe.get().r10PersonalTableRe.MatchString(stmt):
				return why + ": a table of people, customer data (docs/policy.md: sending customer data to any host that is not the project's own)", true
			}
			return why + ": whose storage it is cannot be told (docs/policy.md: sending data to hosts that are not the project's own)", false
		}
	}
	return "", false
}

var (
	r10MailWords        = &wordSet{words: `gmail mail email emails outlook inbox mailbox exchange fastmail proton protonmail imap o365 office365 m365`}
	r10MailSettingWords = &wordSet{words: `filter filters rule rules forwarding autoforwarding autoforward settings setting`}
)

// mailForwardOut says why a mail rule or setting forwards mail out, and whether for certain.
func mailForwardOut(c *mcpCtx) (string, bool) {
	if c.act < mcpActWrite || c.act == mcpActDestroy || !c.callWord(r10MailWords.get()) || !mcpAnyWord(c.toolWords, r10MailSettingWords.get()) {
		return "", false
	}
	autoForward := mcpAnyWord(c.toolWords, mcpWordSet("autoforwarding autoforward forwarding"))
	addr, domain := "", ""
	catchAll := autoForward
	hasCriteria := false
	for _, a := range c.args {
		p := strings.ToLower(a.path)
		v := strings.TrimSpace(a.val)
		if strings.Contains(p, "criteria") || strings.Contains(p, "condition") || strings.Contains(p, "predicate") {
			hasCriteria = true
			if lv := strings.ToLower(v); lv == "*" || lv == "" || lv == "*@*" || lv == "all" {
				catchAll = true
			}
		}
		if m := r10ExportRe.get().r10EmailRe.FindStringSubmatch(v); m != nil && (strings.Contains(p, "forward") || strings.Contains(p, "redirect") || autoForward) {
			addr, domain = v, strings.ToLower(m[1])
		}
	}
	if addr == "" {
		return "", false
	}
	if !hasCriteria && !autoForward && mcpAnyWord(c.toolWords, mcpWordSet("filter filters rule rules")) {
		catchAll = true // a rule with no condition matches every message
	}
	why := "it forwards mail to " + mcpCleanText(addr, 60)
	switch {
	case mcpWebmailDomains.has(domain):
		return why + ", a personal mailbox outside the organisation (docs/policy.md: sending customer data … outside email)", true
	case catchAll:
		return why + ", every message of the mailbox (docs/policy.md: sending customer data … outside email)", true
	}
	return why + " (docs/policy.md: messages to external parties; sending data outside)", false
}

// sinkToOtherProject says why a log sink, export, transfer or subscription sends data to
// another project than the one the call is made in.
func sinkToOtherProject(c *mcpCtx) string {
	if c.act < mcpActWrite || c.act == mcpActDestroy ||
		!mcpAnyWord(c.toolWords, mcpWordSet("sink sinks export exports transfer transfers replication replicate mirror subscription subscriptions destination")) {
		return ""
	}
	own := ""
	for _, a := range c.args {
		if !a.str {
			continue
		}
		switch a.nkey {
		case "project", "projectid", "projectname":
			own = strings.TrimSpace(a.val)
		case "parent", "name", "resource", "source":
			if m := r10ExportRe.get().r10ProjectRefRe.FindStringSubmatch(a.val); m != nil && own == "" {
				own = m[1]
			}
		}
	}
	if own == "" {
		return ""
	}
	for _, a := range c.args {
		if !a.str || !(strings.Contains(a.nkey, "destination") || strings.Contains(a.nkey, "sink") || strings.Contains(a.nkey, "target") || a.nkey == "topic" || a.nkey == "dataset" || a.nkey == "uri") {
			continue
		}
		if m := r10ExportRe.get().r10ProjectRefRe.FindStringSubmatch(a.val); m != nil && m[1] != own {
			return fmt.Sprintf("it sends the data of project %s to %s, another project (docs/policy.md: sending data to hosts that are not the project's own)", mcpCleanText(own, 40), mcpCleanText(a.val, 80))
		}
	}
	return ""
}

// r10WholeShareNouns are containers whose sharing hands over everything in them.
var r10WholeShareNouns = &wordSet{words: `drive drives shareddrive shareddrives teamdrive teamdrives workspace workspaces database databases
	project projects organization organisation org space spaces vault vaults account`}

// wholeStoreSharedOut says why a call shares a whole drive, workspace or database with a
// personal mailbox.
func wholeStoreSharedOut(c *mcpCtx) string {
	if c.act < mcpActWrite || c.act == mcpActDestroy || !mcpAnyWord(c.toolWords, mcpWordSet("share invite permission permissions member members add grant collaborator collaborators access")) {
		return ""
	}
	noun := mcpFirstWord(c.toolWords, r10WholeShareNouns.get())
	if noun == "" {
		return ""
	}
	for _, a := range c.args {
		if m := r10ExportRe.get().r10EmailRe.FindStringSubmatch(strings.TrimSpace(a.val)); m != nil && mcpWebmailDomains.has(strings.ToLower(m[1])) {
			return fmt.Sprintf("it gives %s, a personal mailbox outside the organisation, access to a whole %s (docs/policy.md: sending customer data or source code to any host that is not the project's own)", mcpCleanText(a.val, 60), noun)
		}
	}
	return ""
}

// r10ThirdPartyQueryWords name services that take a query and keep it: web search engines,
// answer engines, translators. A credential typed into one has left for their servers and
// logs, whatever the tool's read-only hint says.
var r10ThirdPartyQueryWords = &wordSet{words: `search websearch google bing brave duckduckgo ddg tavily exa perplexity serp serpapi serper kagi
	searxng you jina firecrawl translate translator deepl wolfram wolframalpha`}

// secretInSearch says why a call sends a credential to a search or answer engine.
func secretInSearch(c *mcpCtx) string {
	if len(c.secrets) == 0 || c.sends || c.local {
		return ""
	}
	if !c.callWord(r10ThirdPartyQueryWords.get()) {
		return ""
	}
	return fmt.Sprintf("it sends %s (%s) to %s, a third party's search or answer service that keeps its queries (docs/policy.md: sending secrets to any host that is not the project's own)", c.secrets[0].kind, mcpCleanText(c.secrets[0].where, 40), c.server)
}

func mcpR10ExportRules() []*Rule {
	pair := func(f func(*mcpCtx) (string, bool)) func(*mcpCtx) (string, bool) {
		return func(c *mcpCtx) (string, bool) {
			why, sure := f(c)
			if why == "" {
				return "", false
			}
			if sure {
				c.certainty = certaintySure
			}
			return c.call() + ", which " + strings.TrimPrefix(why, "it "), true
		}
	}
	return []*Rule{
		{ID: "mcp.sql-export-out", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the export carries credentials of its own, its destination is named as public, shared or external, or it exports a table of people",
			Message:     "Runs SQL that exports data to object storage or a URL (EXPORT DATA, UNLOAD, COPY INTO/TO, INTO OUTFILE S3)",
			mcp:         pair(sqlExportOut)},
		{ID: "mcp.mail-forward-out", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the address is a personal mailbox or the rule forwards every message",
			Message:     "Creates a mail rule or setting that forwards mail to another address",
			mcp:         pair(mailForwardOut)},
		{ID: "mcp.sink-other-project", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Creates a log sink, export, transfer or subscription whose destination is another project",
			mcp:     mcpWhich(sinkToOtherProject)},
		{ID: "mcp.secret-to-search", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Sends a credential in the query of a web search, answer or translation service",
			mcp:     mcpWhich(secretInSearch)},
		{ID: "mcp.whole-store-shared-out", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Shares a whole drive, workspace or database with a personal mailbox",
			mcp:     mcpWhich(wholeStoreSharedOut)},
	}
}

// r10ExportReexps are the file's expressions, compiled on first use (a table, not package init).
type r10ExportReexps struct {
	// r10SQLInlineCredRe is an access key handed to the export: the destination is reached with
	// credentials of its own, another account's.
	r10SQLInlineCredRe *regexp.Regexp
	// r10PersonalTableRe is a table that holds people: exporting it sends customer data.
	r10PersonalTableRe *regexp.Regexp
	// r10ForeignBucketRe is a destination named as not the project's: public, shared, external,
	// personal, temporary, a drop.
	r10ForeignBucketRe *regexp.Regexp
	// r10ProjectRefRe is a cloud project named in a resource path.
	r10ProjectRefRe *regexp.Regexp
	// r10EmailRe is an e-mail address, its domain captured.
	r10EmailRe *regexp.Regexp
}

var r10ExportRe = table[r10ExportReexps]{build: func() r10ExportReexps {
	return r10ExportReexps{
		r10SQLInlineCredRe: regexp.MustCompile(`(?i)\b(?:credentials\s*=|aws_key_id|aws_secret_key|access_key_id|secret_access_key|aws_access_key_id|azure_sas_token|sas_token|hmac_key|access_key\s*=|secret\s*=)`),
		r10PersonalTableRe: regexp.MustCompile(`(?i)\bfrom\s+[\w."` + "`" + `]*?\b(?:users?|customers?|accounts?|members?|profiles?|contacts?|patients?|employees?|subscribers?|people|persons?|clients?|leads?|payments?|orders?|auth_users?|identities)\b`),
		r10ForeignBucketRe: regexp.MustCompile(`(?i)(?:^|[^a-z])(?:public|shared|share|external|ext|partner|vendor|personal|tmp|temp|dump|drop|exfil|transfer|outside|other|anon|backup-?\d+)(?:[^a-z]|$)`),
		r10EmailRe:         regexp.MustCompile(`^[^@\s]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})$`),
		r10ProjectRefRe:    regexp.MustCompile(`\bprojects/([a-z][a-z0-9-]{4,61}[a-z0-9])\b`),
	}
}}
