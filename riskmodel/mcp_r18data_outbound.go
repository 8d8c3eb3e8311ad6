package riskmodel

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Data and credentials leaving through business servers, the r18 additions to
// mcp_r16_outbound.go's two halves (where a call publishes, what it carries). docs/policy.md
// denies credentials, customer data and exports sent to any host that is not the project's
// own. The r16 half recognised credentials by their token formats; people hand over a login
// as prose ("login is admin / Bloom!2024", "Password: …", "MFA backup codes: 3921-1182").
// It read a table of people only with two full rows; a pasted export is often a header, one
// row and "… 4,812 rows". And some sinks are not messages at all: a file picked for a web
// form's upload, a drive share to an outside address, a customer export dropped into a
// public sync folder, an automation that posts every record to an outside URL.

// mcpR18ProseCred are the detectors of a credential written as prose, built on first use.
type mcpR18ProseCredRes struct {
	pair, labelled, codes *regexp.Regexp
}

var mcpR18ProseCred = table[*mcpR18ProseCredRes]{build: func() *mcpR18ProseCredRes {
	return &mcpR18ProseCredRes{
		// "login is admin / Bloom!2024", "SQL admin: sa / C0ntoso!Prod#2024", "creds: bob/Passw0rd!".
		pair: regexp.MustCompile(`(?i)\b(?:login|log-?in|sign-?in|credentials?|creds|admin|administrator|root|user(?:name)?|account)\b(?:\s+(?:is|are))?\s*[:=-]?\s*([A-Za-z0-9_.@\\-]{2,40})\s?/\s?([^\s/<>"'` + "`" + `]{6,64})`),
		// "Password: Qu1ck-Fox-88!", "pwd=…", "the passcode is …", and a few other languages'.
		labelled: regexp.MustCompile(`(?i)\b(?:password|passwd|pwd|passcode|passphrase|pass|kennwort|passwort|wachtwoord|contrase[ñn]a|senha|mot de passe|has[łl]o)\b(?:\s*[:=]|\s+(?:is|was|ist|est|es)\b:?)\s*["'` + "`" + `]?([^\s"'<>` + "`" + `]{6,64})`),
		// MFA backup, recovery and one-time codes followed by the code itself.
		codes: regexp.MustCompile(`(?i)\b(?:mfa|2fa|two[- ]?factor|2-step|backup|recovery|one[- ]time|otp|verification|security|sign[- ]?in|login|auth(?:entication|enticator)?)\s+(?:backup\s+)?(?:codes?|pins?|tokens?)\b[^0-9\n]{0,24}(\d{3,5}[- ]?\d{3,5})\b`),
	}
}}

// mcpR18PasswordLike reports a value shaped like a password, not a placeholder, a mask, a
// variable or a sentence's next word: letters with digits or symbols.
func mcpR18PasswordLike(v string) bool {
	v = strings.TrimRight(v, ".,;:)")
	if len(v) < 6 || strings.Contains(v, "://") || strings.ContainsAny(v[:1], "$%{<[(*") || secIsPlaceholder(v) {
		return false
	}
	letter, other := false, false
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letter = true
		default:
			other = true
		}
	}
	if !letter || !other || strings.Trim(v, "*xX•.") == "" {
		return false
	}
	l := strings.ToLower(v)
	for _, w := range []string{"password", "changeme", "example", "redacted", "placeholder", "your", "secret", "hidden"} {
		if strings.Contains(l, w) {
			return false
		}
	}
	return true
}

// mcpR18ProseCredential returns what credential a text hands over as prose, or "".
func mcpR18ProseCredential(s string) string {
	s = mcpClip(s, 64<<10)
	re := mcpR18ProseCred.get()
	for _, m := range re.pair.FindAllStringSubmatch(s, 8) {
		if mcpR18PasswordLike(m[2]) && !strings.ContainsAny(m[1], "\\") {
			return "a login and its password"
		}
	}
	for _, m := range re.labelled.FindAllStringSubmatch(s, 8) {
		if mcpR18PasswordLike(m[1]) {
			return "a password"
		}
	}
	if re.codes.MatchString(s) {
		return "one-time, backup or recovery codes"
	}
	return ""
}

// proseCredentialPosted is postedSecret's prose half: the argument and what it hands over.
func (c *mcpCtx) proseCredentialPosted(where string) string {
	for _, a := range c.args {
		if !a.str || a.val == "" || mcpR13AuthKeys.has(a.nkey) {
			continue
		}
		if what := mcpR18ProseCredential(a.val); what != "" {
			return fmt.Sprintf("%s, which writes %s (in %s) into %s", c.call(), what, mcpCleanText(a.path, 60), where)
		}
	}
	return ""
}

// mcpR18MoreRows matches an export cut short by a count of the rows left out ("... 4,812
// rows", "… +2,100 more records"): the table goes on.
var mcpR18MoreRows = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:\.\.\.|…)\s*(?:\(?\s*\+?\s*)?\d[\d,.]*\s*k?\s+(?:more\s+)?(?:rows|records|lines|entries|contacts|customers|people|users)\b|\b\d[\d,]*\s+more\s+(?:rows|records|lines|entries)\b`)
}}

// mcpR18SourceArchive matches an archive named as a repository's source ("src.zip",
// "repo-main.tar.gz", "Billing.Source.7z"), which a signed link hands to whoever holds it.
var mcpR18SourceArchive = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^a-z])(?:src|source|sources|sourcecode|repo|repository|codebase|monorepo)(?:[^a-z][^/]*)?\.(?:zip|tar|tgz|gz|bz2|xz|7z|bundle)$`)
}}

// mcpR18StreetAddr matches a street address ("12 Elm St", "5 Oak Road").
var mcpR18StreetAddr = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\b\d{1,5}[A-Za-z]?\s+(?:[A-Z][a-z]+\s+){1,3}(?:St|Street|Rd|Road|Ave|Avenue|Lane|Ln|Drive|Dr|Close|Way|Court|Ct|Place|Pl|Boulevard|Blvd|Crescent|Terrace|Gardens|Row|Square|Sq)\b`)
}}

// peopleAddresses names several distinct street addresses in a text: other people's homes.
func mcpR18PeopleAddresses(text string) string {
	seen := map[string]bool{}
	for _, m := range mcpR18StreetAddr.get().FindAllString(mcpClip(text, 64<<10), 16) {
		seen[strings.ToLower(m)] = true
	}
	if len(seen) >= 2 {
		return "several people's street addresses"
	}
	return ""
}

// mcpR18Bulk reports outboundData's names for many people's records, which typed into a web
// form leave for the page's site whatever the page is.
func mcpR18Bulk(what string) bool {
	switch what {
	case "a table of people's records", "a list of people's contact details", "social security numbers",
		"national insurance numbers", "payment card numbers":
		return true
	}
	return false
}

// mcpR18UploadWords are a tool's words for handing a local file to a remote service.
var mcpR18UploadWords = wordSet{words: `upload uploads uploadfile fileupload setinputfiles`}

// mcpR18BackupFile matches a database backup's or dump's file name by its format.
var mcpR18BackupFile = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\.(?:bak|bacpac|mdf|ldf|dump|dmp|pgdump|sql|sqlite3?|db|frm|ibd|rdb|archive)(?:\.(?:gz|zip|bz2|xz|7z|zst))?$`)
}}

// mcpR18FixtureDir matches a path under a test or sample directory: a fixture, not an export.
var mcpR18FixtureDir = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[/\\])(?:test|tests|testdata|fixtures?|samples?|examples?|mocks?|seeds?|__tests__|spec)(?:[/\\]|$)`)
}}

// uploadedDataFile names a database backup, an export or a source archive a call uploads to
// a remote service or a web page's file picker.
func (c *mcpCtx) uploadedDataFile() string {
	if c.local || c.act < mcpActWrite && !c.browser || !mcpAnyWord(c.toolWords, mcpR18UploadWords.get()) && !mcpAnyWord(c.actWords, mcpR18UploadWords.get()) {
		return ""
	}
	if mcpAnyWord(c.serverWords, mcpFsServerWords.get()) && !c.browser {
		return "" // a local copy; the write rules judge it
	}
	fixture := false
	for _, a := range c.args {
		if !a.str || len(a.val) > 1024 || strings.ContainsAny(a.val, "\n") {
			continue
		}
		if mcpR18FixtureDir.get().MatchString(a.val) {
			fixture = true
			continue
		}
		p := strings.ReplaceAll(strings.TrimSpace(a.val), `\`, "/")
		if mcpR18BackupFile.get().MatchString(p) && strings.Contains(p, "/") {
			return "the database backup or dump " + mcpCleanText(path.Base(p), 60)
		}
	}
	if w := c.outboundFile(); w != "" && !fixture {
		return w
	}
	return ""
}

// mcpR18ShareWords are a tool's words for granting someone access to a file.
var mcpR18ShareWords = wordSet{words: `share sharing permission permissions addpermission createpermission invite
	collaborator collaborators addcollaborator grant`}

// mcpR18DocKeys name the file a share is about.
var mcpR18DocKeys = wordSet{words: `fileid file itemid documentid docid name title path filename filepath folderid
	driveitemid objectid resourceid id`}

// mcpR18BusinessDoc matches a file's name or id naming business data: customers, exports,
// pricing, contracts, payroll, finance.
var mcpR18BusinessDoc = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:cust(?:omer)?s?|clients?|contacts|leads|subscribers|members|export(?:s|ed)?|dump|pricing|price(?:s|list)?|contracts?|payroll|salar(?:y|ies)|invoices?|financials?|revenue|masterlist|crm|pii|budget|forecast|proposal|quotes?|nda|bank)(?:[^a-z]|$)`)
}}

// mcpR18WriteRoles are share roles that let the other party change or reshare the file.
var mcpR18WriteRoles = wordSet{words: `writer editor owner organizer fileorganizer coowner contributor edit write
	canedit readwrite fullcontrol manager`}

// sharedBusinessDoc judges a drive share to someone outside: the destination, whether it is
// surely outside and the file names business data (deny), or the role lets an unknown party
// write (ask at high).
func (c *mcpCtx) sharedBusinessDoc() (string, bool) {
	if c.local || c.browser || mcpAnyWord(c.serverWords, mcpFsServerWords.get()) || !mcpAnyWord(c.toolWords, mcpR18ShareWords.get()) && !mcpAnyWord(c.actWords, mcpR18ShareWords.get()) {
		return "", false
	}
	where, outside := c.outboundDest()
	if where == "" {
		return "", false
	}
	if l := strings.ToLower(where); strings.Contains(l, "rival") || strings.Contains(l, "competitor") || strings.Contains(l, "competition") {
		outside = true
	}
	doc, writer := "", false
	for _, a := range c.args {
		if !a.str || a.depth > 3 {
			continue
		}
		if mcpR18DocKeys.has(a.nkey) && doc == "" && len(a.val) <= 200 {
			s := strings.Join(mcpSplitWords(a.val), " ")
			if mcpR18BusinessDoc.get().MatchString(s) || mcpR18BusinessDoc.get().MatchString(a.val) {
				doc = a.val
			}
		}
		if (a.nkey == "role" || a.nkey == "roles" || a.nkey == "permission" || a.nkey == "accesslevel" || a.nkey == "access") &&
			mcpR18WriteRoles.has(mcpNormKey(a.val)) {
			writer = true
		}
	}
	switch {
	case outside && doc != "":
		return fmt.Sprintf("%s, which shares %s, named as business data, with %s", c.call(), mcpCleanText(doc, 50), mcpCleanText(where, 80)), true
	case writer && !strings.HasPrefix(where, "type=") && !strings.HasPrefix(where, "access="):
		return fmt.Sprintf("%s, which lets %s change and reshare the file", c.call(), mcpCleanText(where, 80)), false
	}
	return "", false
}

// mcpR18PublicFolder matches a synced folder whose files anyone with the link (or everyone in
// the organisation) can read: Dropbox's Public folder, a OneDrive or Box Public folder,
// "Shared with everyone", a Google Drive "Public" folder.
var mcpR18PublicFolder = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)/(?:dropbox(?: \([^/]*\))?|onedrive[^/]*|box(?: sync)?|google ?drive|my drive|icloud drive)/(?:[^/]+/)*(?:public|shared with everyone|everyone|anyone)(?:/|$)|/shared with everyone(?:/|$)`)
}}

// mcpR18WriteTargetKeys are the keys of a filesystem write's destination.
var mcpR18WriteTargetKeys = wordSet{words: `path filepath file destination dest target to newpath destinationpath targetpath
	output outputpath`}

// publicFolderData names a customer export or dump written, moved or copied into a public
// sync folder.
func (c *mcpCtx) publicFolderData() string {
	if !c.fsTool || c.act < mcpActWrite {
		return ""
	}
	content := ""
	for _, a := range c.args {
		if a.str && (a.nkey == "content" || a.nkey == "contents" || a.nkey == "text" || a.nkey == "data") {
			content = a.val
		}
	}
	for _, a := range c.args {
		if !a.str || !mcpR18WriteTargetKeys.has(a.nkey) || len(a.val) > 1024 {
			continue
		}
		p := strings.ReplaceAll(a.val, `\`, "/")
		if !mcpR18PublicFolder.get().MatchString(p) {
			continue
		}
		base := strings.ToLower(path.Base(p))
		for _, d := range mcpDataFileRe[:2] {
			if d.re().MatchString(base) && (d.what != "customer data" || mcpR16DataExt.get().MatchString(base)) {
				return fmt.Sprintf("%s, which puts %s (%s) into a public sync folder", c.call(), d.what, mcpCleanText(path.Base(p), 60))
			}
		}
		if csvPeople(content) {
			return fmt.Sprintf("%s, which puts a table of people's records (%s) into a public sync folder", c.call(), mcpCleanText(path.Base(p), 60))
		}
	}
	return ""
}

// mcpR18AutomationWords are the objects an automation platform or CRM runs on every new or
// changed record: workflows, zaps, scenarios, flows, webhooks, subscriptions.
var mcpR18AutomationWords = wordSet{words: `workflow workflows zap zaps scenario scenarios flow flows automation
	automations webhook webhooks subscription subscriptions trigger triggers recipe recipes hook hooks`}

// mcpR18AllRecords are values and keys that make an automation send every field or every
// record.
var (
	mcpR18AllValues = wordSet{words: `all allcontacts allrecords allproperties allfields allobjects allleads
		allcompanies alldeals allusers everything`}
	mcpR18AllKeys = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:include|send|post|sync|forward|with)?all(?:properties|fields|records|contacts|data|columns|attributes)$`)
	}}
)

// automationSink names an automation created to post every record or every field to a URL
// outside the project's hosts.
func (c *mcpCtx) automationSink() string {
	if c.local || c.browser || c.act < mcpActWrite || mcpAnyWord(c.serverWords, mcpFsServerWords.get()) {
		return ""
	}
	words := append(append(append([]string{}, c.toolWords...), c.actWords...), c.objWords...)
	for _, a := range c.args {
		if a.str && a.depth <= 2 && (a.nkey == "objecttype" || a.nkey == "type" || a.nkey == "kind") {
			words = append(words, mcpSplitWords(a.val)...)
		}
	}
	if !mcpAnyWord(words, mcpR18AutomationWords.get()) {
		return ""
	}
	host := ""
	for _, u := range c.urls {
		if !u.local && !u.trust && u.service == "" && u.host != "" {
			host = u.host
			break
		}
	}
	if host == "" {
		return ""
	}
	for _, a := range c.args {
		v := strings.TrimSpace(a.val)
		switch {
		case mcpR18AllKeys.get().MatchString(a.nkey) && (v == "true" || v == "1" || strings.EqualFold(v, "true")),
			a.str && (v == "*" || mcpR18AllValues.has(mcpNormKey(v))):
			return fmt.Sprintf("%s, which creates an automation posting every record or field (%s) to %s", c.call(), mcpCleanText(a.key+"="+v, 40), mcpCleanText(host, 60))
		}
	}
	return ""
}

// mcpR18Rules are the rules of this file.
func mcpR18DataRules() []*Rule {
	return []*Rule{
		{ID: "mcp.upload-data-file", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Uploads a database backup, an export or a source archive to a remote service or a web page",
			mcp: func(c *mcpCtx) (string, bool) {
				if w := c.uploadedDataFile(); w != "" {
					return fmt.Sprintf("%s, which uploads %s", c.call(), w), true
				}
				return "", false
			}},
		{ID: "mcp.share-business-doc", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the party is surely outside (a personal mailbox, a domain named as an outside party or a rival, anyone with the link) and the file is named as customers, an export, pricing or a contract",
			Message:     "Shares a business document with a party outside the organisation",
			mcp: func(c *mcpCtx) (string, bool) {
				m, sure := c.sharedBusinessDoc()
				if m == "" {
					return "", false
				}
				if sure {
					c.certainty = certaintySure
				}
				return m, true
			}},
		{ID: "mcp.public-folder-data", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Writes a customer export or dump into a public sync folder (Dropbox Public, Shared with everyone)",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.publicFolderData()
				return m, m != ""
			}},
		{ID: "mcp.automation-sink", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Creates a workflow, zap or webhook that posts every record or field to an outside URL",
			mcp: func(c *mcpCtx) (string, bool) {
				m := c.automationSink()
				return m, m != ""
			}},
	}
}
