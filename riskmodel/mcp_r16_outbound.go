package riskmodel

import (
	"fmt"
	"net"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Data-shaped content handed to a party outside the team. Business servers (chat, mail,
// trackers, wikis, drives, CRMs, help desks, calendars, forms) publish what a call carries to
// whoever the destination reaches: a free-mail or foreign recipient, a channel or space
// named as shared with a vendor, partner or guest, a page or file opened to anyone with the
// link, an event with outside attendees. docs/policy.md denies customer data, credentials and
// exports to any host that is not the project's own, and asks about plain messages to
// external parties. This file reads the two halves separately — where it goes
// (outboundDest) and what it carries (outboundData) — so that every spelling of a server and
// tool meets the same judgement: data that is surely people's records, an export or a dump
// to a destination that is surely outside is denied; either half unsure is asked (high).
// Credentials are the secret rules' (mcp.secret-exfil, mcp.secret-posted): denied anywhere.

// mcpR16PublishWords are a tool's or action's words for something other people read once it
// is created: a page, a ticket, an event, a shared link.
var mcpR16PublishWords = wordSet{words: `page pages doc docs document documents ticket tickets issue issues comment
	comments message messages email emails mail draft drafts event events invite invitation invitations meeting
	meetings calendar note notes post posts reply replies response responses submission submit form share shared
	sharing permission permissions link links attachment attachments upload card cards task tasks article articles
	wiki conversation conversations thread threads chat record records case cases lead leads contact contacts
	row rows sheet sheets spreadsheet spreadsheets values`}

// mcpR16DestKeys name where a call publishes (a channel, a space, a team, a project, a folder).
var mcpR16DestKeys = wordSet{words: `channel channels channelid channelname conversation conversationid chat chatid room
	roomid team teamid teamname space spaceid spacekey spacename project projectkey projectid projectname board
	boardid folder folderid foldername parent parentid parentpage database databaseid workspace workspaceid list
	listid group groupid groupname audience target destination site siteid drive driveid queue mailbox tablename
	basename sheetname baseid spreadsheetid spreadsheetname sheetid workbookid`}

// mcpR16RoomKeys name a place people read (a channel, a room, a space): "public" in its name
// is its audience.
var mcpR16RoomKeys = wordSet{words: `channel channels channelid channelname room roomid space spaceid spacekey
	spacename audience target destination group groupname`}

// mcpR16ExternalWords mark a destination's name as shared outside the team.
var mcpR16ExternalWords = wordSet{words: `ext external externals shared guest guests vendor vendors partner partners
	public contractor contractors agency agencies community connect outside thirdparty freelancer freelancers
	consultant consultants supplier suppliers reseller resellers`}

// mcpR16PeopleKeys hold the people an event, a share or a message reaches, besides
// mcpRecipientKeys.
var mcpR16PeopleKeys = wordSet{words: `attendees attendee guests guest invitees invitee participants participant
	members member emailaddress useremail user users grantee granteeemail shareemail sharewith emailaddresses
	requiredattendees optionalattendees people recipientemail address`}

// mcpR16PublicKeys are the keys whose value opens a page or a file to anyone, and the values.
var (
	mcpR16PublicKeys = wordSet{words: `type granteetype audience visibility access linksharing sharing scope who
		accesslevel generalaccess requestedvisibility linkaccess sharetype permissiontype role publicaccess sharingmode
		linkvisibility shareaccess`}
	mcpR16PublicValues = wordSet{words: `anyone anyonewithlink anyonewiththelink public everyone world internet
		publiconweb domainandpublic open openlink publiclink webpublic anonymous unauthenticated`}
	mcpR16PublicFlags = wordSet{words: `public ispublic publish publishtoweb published anonymous allowanonymous
		external isexternal guest isguest externaluser publicaccess sharepublicly publicly`}
)

// mcpR16RelayHosts are automation relays whose webhooks hand a request to whoever made the
// hook (Zapier, Make, IFTTT, Pipedream's endpoints, Discord's channel webhooks).
var mcpR16RelayHosts = wordSet{words: `hooks.zapier.com hook.eu1.make.com hook.us1.make.com hook.eu2.make.com
	hook.us2.make.com hook.integromat.com maker.ifttt.com eo.pipedream.net m.pipedream.net discord.com discordapp.com
	webhook.site requestbin.com requestcatcher.com beeceptor.com`}

// outboundHTTPDest returns the destination of an HTTP write that is not the project's own:
// sure for a drop, capture or relay service and a raw public address, unsure otherwise.
func (c *mcpCtx) outboundHTTPDest() (string, bool) {
	unsure := ""
	for _, u := range c.urls {
		if u.local || u.trust || u.service != "" {
			continue
		}
		h := strings.ToLower(strings.Trim(u.host, "[]"))
		if i := strings.LastIndexByte(h, ':'); i > 0 && !strings.Contains(h[:i], ":") {
			h = h[:i]
		}
		parent := h
		if i := strings.IndexByte(h, '.'); i > 0 {
			parent = h[i+1:]
		}
		switch {
		case mcpR16RelayHosts.has(h) || dropHosts.get()[h] || dropHosts.get()[parent]:
			return h + ", a relay, drop or capture service", true
		case net.ParseIP(h) != nil && publicIP(net.ParseIP(h)):
			return h + ", a raw public address", true
		case unsure == "" && h != "":
			unsure = h
		}
	}
	if unsure != "" {
		return unsure + ", a host not known to be the project's", false
	}
	return "", false
}

// mcpR16PersonKey reports an argument that names whom a call reaches: a recipient, an
// attendee, a grantee (test_emails, toRecipients[0].emailAddress.address, share_with).
func mcpR16PersonKey(a mcpArg) bool {
	if mcpRecipientKeys.has(a.nkey) || mcpR16PeopleKeys.has(a.nkey) {
		return true
	}
	for _, suf := range []string{"emails", "email", "recipients", "recipient", "addresses", "attendees", "invitees"} {
		if strings.HasSuffix(a.nkey, suf) && !strings.HasPrefix(a.nkey, "from") && !strings.HasPrefix(a.nkey, "sender") && !strings.HasPrefix(a.nkey, "replyto") {
			return true
		}
	}
	p := strings.ToLower(a.path)
	return strings.Contains(p, "recipient") || strings.Contains(p, "attendee")
}

// mcpR16PhoneRecipient matches a recipient that is a phone number (E.164 or national).
var mcpR16PhoneRecipient = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:whatsapp:)?\+?\d[\d ().-]{6,18}\d$`)
}}

// publishes reports a call that sends or creates something other people read (a message,
// a page, a ticket, a share): the tool's, action's or object's words say so.
func (c *mcpCtx) publishes() bool {
	if c.sends {
		return true
	}
	words := append(append(append([]string{}, c.toolWords...), c.actWords...), c.objWords...)
	return mcpAnyWord(words, mcpR16PublishWords.get())
}

// outboundDest returns where a publishing call's content goes when that is outside the team
// (a recipient, a channel, "anyone with the link"), and whether that is certain.
func (c *mcpCtx) outboundDest() (where string, sure bool) {
	if c.httpSend && !c.browser {
		return c.outboundHTTPDest()
	}
	if c.browser && mcpAnyWord(c.toolWords, mcpWordSet("type fill paste insert")) {
		return "the web page open in the browser", false // which site it is, the call does not say
	}
	if c.browser || c.local || c.act < mcpActWrite {
		return "", false
	}
	if !c.publishes() {
		return "", false
	}
	sender := ""
	for _, a := range c.args {
		if a.str && a.depth <= 3 && mcpSenderKeys.has(a.nkey) {
			if m := mcpEmailRe().FindStringSubmatch(a.val); m != nil {
				sender = strings.ToLower(m[1])
			}
		}
	}
	unsure := ""
	for _, a := range c.args {
		if a.depth > 6 {
			continue
		}
		v := strings.TrimSpace(a.val)
		switch {
		case !a.str && (v == "true" || v == "1") && mcpR16PublicFlags.has(a.nkey),
			a.str && strings.EqualFold(v, "true") && mcpR16PublicFlags.has(a.nkey):
			return fmt.Sprintf("%s=%s", a.key, v), true
		case a.str && mcpR16PublicKeys.has(a.nkey) && (mcpR16PublicValues.has(mcpNormKey(v)) || mcpR16PublicValues.has(strings.ToLower(v))):
			return fmt.Sprintf("%s=%s", a.key, mcpCleanText(v, 30)), true
		case !a.str:
			continue
		case mcpR16PersonKey(a):
			if mcpR16PublicValues.has(mcpNormKey(v)) {
				return fmt.Sprintf("%s=%s", a.key, mcpCleanText(v, 30)), true // share_with: anyone
			}
			if unsure == "" && mcpR16PhoneRecipient.get().MatchString(v) {
				unsure = v // a text message to a number: someone, not known to be the team
			}
			for _, m := range mcpEmailRe().FindAllStringSubmatch(mcpClip(a.val, 4096), 32) {
				d := strings.ToLower(m[1])
				switch {
				case c.trustedHost(d) || sender != "" && (d == sender || strings.HasSuffix(d, "."+sender)):
				case mcpWebmailDomains.has(d):
					return m[0] + ", a personal mailbox", true
				case sender != "":
					return m[0] + ", outside the sender's domain", true
				case mcpAnyWord(mcpSplitWordsPlain(strings.NewReplacer("-", " ", "_", " ").Replace(d)), mcpR16ExternalWords.get()):
					return m[0] + ", a domain named as an outside party", true
				default:
					if unsure == "" {
						unsure = m[0]
					}
				}
			}
		case mcpR16DestKeys.has(a.nkey) || mcpChannelKeys.has(a.nkey):
			if len(v) > 200 {
				continue
			}
			words := append(mcpSplitWordsPlain(strings.NewReplacer("-", " ", "_", " ").Replace(v)), mcpSplitWords(v)...)
			if !mcpR16RoomKeys.has(a.nkey) {
				// "Public API" names a team's or a project's subject, not its audience.
				words = slices.DeleteFunc(words, func(w string) bool { return w == "public" })
			}
			if mcpAnyWord(words, mcpR16ExternalWords.get()) || mcpR17IDExternal(v) {
				return fmt.Sprintf("%s %q, named as shared outside the team", a.key, mcpCleanText(v, 40)), true
			}
		}
	}
	if unsure != "" {
		return unsure + ", an address not known to be the team's", false
	}
	return "", false
}

// mcpR16Res are the data detectors of this file, built on first use (table.go: nothing at
// init). A labelled value may be quoted as in JSON or YAML ("ssn": "512-44-8812").
type mcpR16Detectors struct {
	ssn, ukNI, natID, dob, card, iban, phone, presign, htmlTable, mdTable *regexp.Regexp
}

var mcpR16Res = table[*mcpR16Detectors]{build: func() *mcpR16Detectors {
	return &mcpR16Detectors{
		// US SSN: area 001-899 but 666, group and serial not zero (ssa.gov).
		ssn:  regexp.MustCompile(`\b(?:00[1-9]|0[1-9]\d|[1-578]\d\d|6[0-57-9]\d|66[0-57-9])-(?:0[1-9]|[1-9]\d)-(?:000[1-9]|00[1-9]\d|0[1-9]\d\d|[1-9]\d{3})\b`),
		ukNI: regexp.MustCompile(`\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D]\b`),
		// A labelled national identifier: PESEL, NIR, BSN, Aadhaar, SIN, passport, tax id.
		natID: regexp.MustCompile(`(?i)\b(?:pesel|nir|bsn|aadhaar|sin|ssn|social\s+security(?:\s+number)?|passport(?:\s+(?:no|number))?|national\s+id|tax\s*id|tin|nino|national\s+insurance(?:\s+number)?|personnummer|dni|nif|codice\s+fiscale|cpf|curp)\b["']?\s*(?:#|no\.?|number)?\s*[:=]?\s*["']?[A-Z]{0,2}[\d][\d .-]{5,16}`),
		dob:   regexp.MustCompile(`(?i)\b(?:dob|d\.o\.b\.|date\s+of\s+birth|birth\s*date|birthday|born(?:\s+on)?)\b["']?\s*[:=]?\s*["']?(?:\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{1,2}\s+[a-z]{3,9}\s+\d{4}|[a-z]{3,9}\s+\d{1,2},?\s+\d{4})`),
		card:  regexp.MustCompile(`\b[3-6]\d{3}(?:[ -]?\d{4}){2}[ -]?\d{1,7}\b`),
		iban:  regexp.MustCompile(`\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,3})?\b`),
		phone: regexp.MustCompile(`(?:\+\d{1,3}[ .-]?)?\(?\d{2,4}\)?[ .-]\d{3}[ .-]\d{3,4}\b`),
		presign: regexp.MustCompile(`(?i)[?&](?:x-amz-signature|x-amz-credential|x-goog-signature|x-goog-credential|signature|sig|awsaccesskeyid)=` +
			`|[?&]se=\d{4}-`),
		htmlTable: regexp.MustCompile(`(?is)<th[^>]*>\s*(?:full\s*name|first\s*name|last\s*name|name|e-?mail|phone|mobile|ssn|dob|date\s+of\s+birth|address|iban|card)`),
		mdTable:   regexp.MustCompile(`(?im)^\s*\|?\s*(?:full\s*name|first\s*name|name|e-?mail|phone|ssn|dob)\s*\|`),
	}
}}

// mcpR16PersonFields are a header's words for a person's fields.
var mcpR16PersonFields = wordSet{words: `name fullname firstname lastname surname givenname familyname email emailaddress
	mail phone phonenumber mobile tel telephone dob birthdate dateofbirth birthday ssn sin nino pesel nationalid
	taxid passport address street streetaddress city zip zipcode postcode postalcode iban card cardnumber ccnumber
	pan salary diagnosis patient patientid mrn gender customer customerid userid username accountnumber`}

// mcpR16TestCards are the card numbers payment providers publish for testing (Stripe,
// Adyen, Braintree, PayPal docs): a ticket or a message quoting one carries nobody's card.
var mcpR16TestCards = wordSet{words: `4242424242424242 4000056655665556 5555555555554444 2223003122003222
	5200828282828210 5105105105105100 378282246310005 371449635398431 6011111111111117 6011000990139424
	3056930009020004 36227206271667 3566002020360505 6200000000000005 4111111111111111 4012888888881881
	4000000000000002 4000000000009995 4000000000000077 4000000000003220 5454545454545454 4988438843884305
	4444333322221111 4917610000000000 5500000000000004 4000000000000010`}

// luhn reports a card-number-shaped digit string that passes the Luhn check.
func luhn(s string) bool {
	sum, n, dbl := 0, 0, false
	for i := len(s) - 1; i >= 0; i-- {
		ch := s[i]
		if ch == ' ' || ch == '-' {
			continue
		}
		d := int(ch - '0')
		if dbl {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum, n, dbl = sum+d, n+1, !dbl
	}
	return n >= 13 && n <= 19 && sum%10 == 0
}

// ibanValid reports an IBAN whose ISO 13616 check digits hold (mod 97 = 1).
func ibanValid(s string) bool {
	s = strings.ReplaceAll(s, " ", "")
	if len(s) < 15 || len(s) > 34 {
		return false
	}
	s = s[4:] + s[:4]
	rem := 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= '0' && ch <= '9':
			rem = (rem*10 + int(ch-'0')) % 97
		case ch >= 'A' && ch <= 'Z':
			rem = (rem*100 + int(ch-'A'+10)) % 97
		default:
			return false
		}
	}
	return rem == 1
}

// csvPeople reports text holding a table of people: a header line naming two or more person
// fields, cut by one separator, and two or more rows cut by the same separator.
func csvPeople(t string) bool {
	t = strings.ReplaceAll(t, `\n`, "\n")
	lines := strings.Split(t, "\n")
	for i, l := range lines {
		if i > 400 {
			break
		}
		for _, sep := range []string{",", "\t", ";", "|"} {
			cells := strings.Split(strings.Trim(strings.TrimSpace(l), sep), sep)
			if len(cells) < 2 {
				continue
			}
			fields := 0
			for _, cell := range cells {
				if mcpR16PersonFields.has(mcpNormKey(strings.Trim(strings.TrimSpace(cell), `"'*`))) {
					fields++
				}
			}
			if fields < 2 {
				continue
			}
			rows := 0
			for _, r := range lines[i+1 : min(len(lines), i+12)] {
				r = strings.Trim(strings.TrimSpace(r), sep)
				if strings.Trim(r, "-:| ") == "" {
					continue // a Markdown table's rule
				}
				if strings.Count(r, sep) >= len(cells)-1 && len(cells) > 1 {
					rows++
				}
			}
			if rows >= 2 || rows == 1 && mcpR18MoreRows.get().MatchString(t) { // mcp_r18data_outbound.go
				return true
			}
		}
	}
	return false
}

// outboundText returns the text of the call's string arguments that are not recipients or
// destinations, each on its own line.
func (c *mcpCtx) outboundText() string {
	var b strings.Builder
	for _, a := range c.args {
		if !a.str || mcpR16PersonKey(a) || mcpSenderKeys.has(a.nkey) {
			continue
		}
		b.WriteString(mcpClip(a.val, 64<<10))
		b.WriteByte('\n')
		if b.Len() > 256<<10 {
			break
		}
	}
	return b.String()
}

// outboundData names the data a publishing call carries — people's records, payment or
// identity numbers, an export or dump (a file or a signed link to one), a directory — and
// whether it is surely data rather than a mention of it.
func (c *mcpCtx) outboundData() (what string, sure bool) {
	re := mcpR16Res.get()
	text := c.outboundText()
	if n := len(re.ssn.FindAllString(text, 4)); n >= 2 || n == 1 && re.natID.MatchString(text) {
		return "social security numbers", true
	}
	if n := len(re.ukNI.FindAllString(text, 4)); n >= 2 || n == 1 && re.natID.MatchString(text) {
		return "national insurance numbers", true
	}
	cards := 0
	for _, m := range re.card.FindAllString(text, 16) {
		if luhn(m) && !mcpR16TestCards.has(strings.NewReplacer(" ", "", "-", "").Replace(m)) {
			cards++
		}
	}
	if cards > 0 {
		return "payment card numbers", true
	}
	ibans := 0
	for _, m := range re.iban.FindAllString(text, 16) {
		if ibanValid(m) {
			ibans++
		}
	}
	if ibans > 0 {
		return "bank account numbers (IBAN)", true
	}
	if csvPeople(text) || re.htmlTable.MatchString(text) && strings.Count(strings.ToLower(text), "<tr") >= 3 {
		return "a table of people's records", true
	}
	if re.natID.MatchString(text) {
		return "national identity numbers", true
	}
	domains := map[string]bool{}
	emails := mcpEmailRe().FindAllStringSubmatch(mcpClip(text, 64<<10), 64)
	for _, m := range emails {
		domains[strings.ToLower(m[1])] = true
	}
	phones := len(re.phone.FindAllString(mcpClip(text, 64<<10), 16))
	dob := re.dob.MatchString(text)
	switch {
	case len(emails) >= 3 && (len(domains) >= 3 || dob || phones >= 2), phones >= 3 && (dob || len(emails) >= 2):
		return "a list of people's contact details", true
	case dob && (len(emails) > 0 || phones > 0):
		return mcpR16OnePerson, true
	}
	for _, m := range mcpR13URL.get().FindAllString(mcpClip(text, 64<<10), 32) {
		if !re.presign.MatchString(m) {
			continue
		}
		u, err := url.Parse(m)
		if err != nil {
			continue
		}
		base := strings.ToLower(path.Base(u.Path))
		for _, d := range mcpDataFileRe {
			if (d.what != "source code" || mcpArchiveExt().MatchString(base)) && d.re().MatchString(base) { // a source archive: mcp_r18data_outbound.go
				return "a signed download link to " + d.what + " (" + mcpCleanText(path.Base(u.Path), 40) + ")", true
			}
		}
		if mcpR13DumpPath.get().MatchString(strings.ToLower(u.Path)) || mcpR18SourceArchive.get().MatchString(base) {
			return "a signed download link to a dump (" + mcpCleanText(path.Base(u.Path), 40) + ")", true
		}
	}
	if w := c.outboundFile(); w != "" {
		return w, true
	}
	if w := c.describedPeopleData(text); w != "" {
		return w, true
	}
	if w := mcpR18PeopleAddresses(text); w != "" { // mcp_r18data_outbound.go
		return w, true
	}
	switch {
	case len(emails) >= 3 || phones >= 3:
		return "a list of contact details", false
	case dob:
		return "a birth date", false
	}
	return "", false
}

// mcpR16OnePerson is outboundData's name for one person's details: sent to someone outside
// it is data, typed into a web form it is the form's purpose.
const mcpR16OnePerson = "a person's birth date and contact details"

// mcpR16FileKeys hold a file a call attaches, uploads or shares.
var mcpR16FileKeys = wordSet{words: `file files filename filepath path paths attachment attachments attach source
	sourcepath localpath upload uploadfile name title itemname documentname objectname key objectkey fileurl url
	dir directory folder folderpath`}

// outboundFile names the data a file argument of the call holds by its name: an export or
// dump, a table of customers, credentials, an archive of source, a whole directory.
func (c *mcpCtx) outboundFile() string {
	for _, a := range c.args {
		if !a.str || len(a.val) > 1024 || strings.ContainsAny(a.val, "\n") {
			continue
		}
		if !mcpR16FileKeys.has(a.nkey) && !strings.HasSuffix(a.nkey, "path") && !strings.HasSuffix(a.nkey, "file") &&
			!strings.HasSuffix(a.nkey, "filename") && !strings.Contains(strings.ToLower(a.path), "attach") {
			continue
		}
		v := strings.TrimSpace(strings.TrimPrefix(a.val, "file://"))
		if i := strings.IndexAny(v, "?#"); i > 0 && strings.Contains(v, "://") {
			v = v[:i]
		}
		base := strings.ToLower(path.Base(v))
		fileish := !strings.Contains(base, " ") && strings.ContainsAny(base, "._-") || strings.Contains(v, "/")
		if !fileish {
			continue
		}
		for _, d := range mcpDataFileRe {
			if !d.re().MatchString(base) {
				continue
			}
			switch d.what {
			case "customer data":
				// A name like users-guide.pdf names people but holds none: a data format or
				// an export word is needed besides.
				if !mcpR16DataExt.get().MatchString(base) {
					continue
				}
			case "source code":
				if src := c.sourceArchive(v); src == "" {
					continue
				}
			}
			return d.what + " (" + mcpCleanText(path.Base(v), 60) + ")"
		}
		if (a.nkey == "dir" || a.nkey == "directory" || a.nkey == "folder" || a.nkey == "folderpath" || strings.HasSuffix(v, "/")) &&
			(v == "." || v == "./" || v == "~" || v == "~/" || v == "/" || strings.HasSuffix(v, "/src/") || strings.HasSuffix(v, "/src")) {
			return "a whole directory (" + mcpCleanText(v, 60) + ")"
		}
	}
	return ""
}

// mcpR16DataExt matches a data file's extension or an export word in a file name.
var mcpR16DataExt = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\.(?:csv|tsv|xlsx?|json|jsonl|ndjson|sql|parquet|avro|orc|dump|bak|db|sqlite3?|zip|gz|tgz|7z)$|(?:^|[^a-z])(?:export|exports|dump|backup|list|full|all|pii)(?:[^a-z]|$)`)
}}

// outboundDataExfil joins the two halves: the finding's text and whether it is certain.
func (c *mcpCtx) outboundDataExfil() (string, bool) {
	if len(c.secrets) > 0 {
		return "", false // the secret rules judge credentials, anywhere
	}
	where, outside := c.outboundDest()
	if where == "" {
		return "", false
	}
	what, data := c.outboundData()
	if what == "" || c.browser && (!data || what == mcpR16OnePerson) {
		return "", false // a form filled with one person's details is a browser chore
	}
	// A people's table typed into a page leaves for the page's site, whichever it is.
	return fmt.Sprintf("%s, which publishes %s to %s", c.call(), what, mcpCleanText(where, 80)), outside && data || c.browser && mcpR18Bulk(what)
}
