package riskmodel

import (
	"fmt"
	"path"
	"strings"
)

// This file judges what a message carries to whom. docs/policy.md asks about "messages to
// external parties" but denies "sending secrets, credentials, customer data or source code to
// any host that is not the project's own (… outside email)". A message tool (chat post, e-mail,
// comment) is such a host when its recipient is outside the team: a personal webmail address,
// a Slack Connect or guest conversation, a channel marked shared with another organisation.
// The payload is customer data when it is a table whose header names personal columns (an
// export pasted as CSV/TSV, often cut short after one row), and source code when an
// attachment is an archive of a source tree or of the workspace itself.

// mcpPIIColumns are header cells that name personal data of the people in a table. Generic
// identifiers (id, name, plan) are not among them: a table of plans or regions is not
// personal data; an e-mail or phone column is.
var mcpPIIColumns = wordSet{words: `email emails emailaddress mail mailaddress e-mail phone phonenumber phoneno mobile
	cellphone telephone msisdn address streetaddress street addressline1 addressline postcode zipcode zip
	postalcode ssn socialsecuritynumber nationalid nin taxid tin dob dateofbirth birthdate birthday passport
	passportnumber iban accountnumber cardnumber creditcard ccnumber cardlast4 last4 firstname lastname
	fullname surname customeremail useremail contactemail billingaddress shippingaddress`}

// mcpStrongPIIColumns are the columns that alone make a table personal data; names only
// count beside one of them.
var mcpStrongPIIColumns = wordSet{words: `email emails emailaddress mail mailaddress e-mail phone phonenumber phoneno
	mobile cellphone telephone msisdn address streetaddress street addressline1 addressline ssn
	socialsecuritynumber nationalid nin taxid tin dob dateofbirth birthdate birthday passport passportnumber iban
	accountnumber cardnumber creditcard ccnumber customeremail useremail contactemail billingaddress
	shippingaddress`}

// mcpTableSeps are the cell separators of pasted tables: CSV, TSV, semicolon CSV, pipes.
const mcpTableSeps = ",\t;|"

// mcpPIITable finds a pasted table of people in a message text: a header row with a personal
// column and at least one data row of the same width. Literal "\n" sequences count as line
// breaks (a JSON-escaped paste). It returns the personal columns found.
func mcpPIITable(text string) []string {
	text = strings.ReplaceAll(mcpClip(text, 64<<10), `\n`, "\n")
	lines := strings.Split(text, "\n")
	for i := 0; i+1 < len(lines) && i < 64; i++ {
		sep, cells := mcpTableCells(lines[i])
		if len(cells) < 2 {
			continue
		}
		var pii []string
		strong := false
		for _, h := range cells {
			f := strings.Fields(h)
			if len(f) == 0 {
				continue
			}
			// The header may follow prose on its line ("the export: id,email,plan").
			k := mcpNormKey(strings.Trim(f[len(f)-1], `"'*:`+"`"))
			if mcpPIIColumns.has(k) {
				pii = append(pii, k)
				strong = strong || mcpStrongPIIColumns.has(k)
			}
		}
		if !strong {
			continue
		}
		row := lines[i+1]
		if strings.Count(row, string(sep)) == len(cells)-1 && strings.TrimSpace(strings.ReplaceAll(row, string(sep), "")) != "" {
			return pii
		}
	}
	return nil
}

// mcpTableCells splits a line by the separator it uses most, when it uses one.
func mcpTableCells(line string) (byte, []string) {
	best, n := byte(0), 0
	for i := 0; i < len(mcpTableSeps); i++ {
		if c := strings.Count(line, mcpTableSeps[i:i+1]); c > n {
			best, n = mcpTableSeps[i], c
		}
	}
	if n == 0 || len(line) > 2048 {
		return 0, nil
	}
	return best, strings.Split(line, string(best))
}

// mcpExtSharedKeys are fields chat APIs use to mark a conversation shared with another
// organisation (Slack's is_ext_shared, is_org_shared with an external team, Teams' shared
// channels).
var mcpExtSharedKeys = wordSet{words: `isextshared extshared isexternal external ispendingextshared sharedwithexternal isshared shared guest isguest`}

// messageRecipientOutside names the recipient of a message when it is outside the team for
// certain: a Slack Connect or guest conversation by name or marker, a field marking the
// conversation external, a personal webmail address, or a domain other than the sender's.
func (c *mcpCtx) messageRecipientOutside() string {
	sender := ""
	for _, a := range c.args {
		if a.str && a.depth <= 3 && mcpSenderKeys.has(a.nkey) {
			if m := mcpEmailRe().FindStringSubmatch(a.val); m != nil {
				sender = strings.ToLower(m[1])
			}
		}
	}
	for _, a := range c.args {
		if a.depth > 3 {
			continue
		}
		if mcpExtSharedKeys.has(a.nkey) && strings.EqualFold(strings.TrimSpace(a.val), "true") {
			return fmt.Sprintf("a conversation marked %s", a.key)
		}
		if !a.str || !mcpChannelKeys.has(a.nkey) && !mcpRecipientKeys.has(a.nkey) {
			continue
		}
		v := mcpClip(a.val, 4096)
		if !strings.Contains(v, "@") && (mcpAnyWord(mcpSplitWords(v), mcpExternalChannelWords.get()) || mcpReExternalChannel().MatchString(v)) {
			return mcpCleanText(v, 40) + ", an external or guest conversation"
		}
		for _, m := range mcpEmailRe().FindAllStringSubmatch(v, 32) {
			d := strings.ToLower(m[1])
			if mcpWebmailDomains.has(d) {
				return mcpCleanText(m[0], 60) + ", a personal webmail address"
			}
			if sender != "" && d != sender && !strings.HasSuffix(d, "."+sender) {
				return mcpCleanText(m[0], 60) + ", outside the sender's organisation"
			}
		}
	}
	return ""
}

// messageDataOut finds a message whose text is a table of people's personal data sent to a
// recipient outside the team. sure is true when the recipient is outside for certain; a
// channel merely not known as the team's own is high and asked.
func (c *mcpCtx) messageDataOut() (string, bool) {
	if c.act != mcpActWrite || c.httpSend || c.browser || c.draft() ||
		!c.sends && !mcpAnyWord(c.serverWords, mcpMessagingWords.get()) && !mcpAnyWord(c.toolWords, mcpMessagingWords.get()) {
		return "", false
	}
	var cols []string
	for _, a := range c.args {
		if a.str && (mcpBodyKeys.has(a.nkey) || mcpFreeTextKeys.get()[a.nkey]) {
			if cols = mcpPIITable(a.val); cols != nil {
				break
			}
		}
	}
	if cols == nil {
		return "", false
	}
	if who := c.messageRecipientOutside(); who != "" {
		return fmt.Sprintf("%s, which sends a table of people's personal data (columns %s) to %s", c.call(), strings.Join(cols, ", "), who), true
	}
	return "", false
}

// mcpArchiveExt matches the archive and bundle formats a source tree is sent in.
var mcpArchiveExt = lazyRegexp(`\.(tar|tgz|tbz2?|txz|zip|7z|rar|bundle|jar)$|\.tar\.(gz|bz2|xz|zst)$`)

// mcpSourceDirs are directory names under which people keep source trees (~/src/app,
// ~/code/app, ~/projects/app, ~/go/src/…); an archive kept directly in one is a repository
// archived.
var mcpSourceDirs = wordSet{words: `src source sources code repos repo repositories projects project workspace workspaces git github gitlab dev`}

// sourceArchive reports an attachment that is the workspace's source: an archive inside a
// source directory or the workspace, an archive named after a workspace, a .git directory or
// archive of one, or a workspace root itself.
func (c *mcpCtx) sourceArchive(val string) string {
	v := strings.TrimSpace(val)
	if v == "" || len(v) > 1024 || strings.ContainsAny(v, "\n") {
		return ""
	}
	p := strings.TrimPrefix(v, "file://")
	base := strings.ToLower(path.Base(p))
	if base == ".git" || strings.HasPrefix(base, ".git.") || strings.Contains(p, "/.git/") {
		return "the repository's .git directory"
	}
	abs, ok := c.scope.Resolve(p)
	if ok && c.scope.IsWorkspaceRoot(abs) {
		return "the workspace itself"
	}
	loc := mcpArchiveExt().FindStringIndex(base)
	if loc == nil {
		if mcpR13ProjectDir(p) { // mcp_r13_message.go
			return "the project directory " + path.Dir(p) + "/" + path.Base(p)
		}
		return ""
	}
	stem := base[:loc[0]]
	for _, w := range c.scope.Workspaces {
		if wb := strings.ToLower(path.Base(w)); wb != "" && wb != "/" && stem == wb {
			return "an archive named after the workspace"
		}
	}
	if ok && c.scope.InWorkspace(abs) && !strings.Contains(strings.ToLower(abs), "/dist/") {
		return "an archive inside the workspace"
	}
	if dir := strings.ToLower(path.Base(path.Dir(p))); mcpSourceDirs.has(dir) {
		return "an archive in the source directory " + path.Dir(p)
	}
	return ""
}

func mcpR12Rules() []*Rule {
	return []*Rule{
		{ID: "mcp.message-data-out", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the recipient is outside the team for certain (guest or Slack Connect conversation, webmail, another organisation's domain)",
			Message:     "Sends a table of people's personal data in a message to someone outside the team",
			mcp: func(c *mcpCtx) (string, bool) {
				m, sure := c.messageDataOut()
				if m == "" {
					return "", false
				}
				if sure {
					c.certainty = certaintySure // policy deny list: customer data to a host that is not the project's own
				}
				return m, true
			}},
	}
}
