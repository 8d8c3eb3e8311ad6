package riskmodel

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// This file reads a message's text fields together. A message tool splits what it sends
// across fields (a plain-text part and an HTML part, a subject and a body, a caption and a
// link), so an export of people can be announced in one ("CSV of 3,112 customers
// (name,email,plan)") and carried in another (the rows), and a production dump can travel as
// a presigned link rather than an attachment. docs/policy.md denies customer data to any host
// that is not the project's own; to a recipient outside the team for certain
// (messageRecipientOutside, mcp_r12_message.go) that is certain.

// mcpR13ColumnList matches a parenthesised or bracketed list of column names in prose.
var mcpR13ColumnList = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`[(\[{]\s*([A-Za-z_][A-Za-z0-9_ ]{0,30}(?:\s*[,;|/]\s*[A-Za-z_][A-Za-z0-9_ ]{0,30}){1,30})\s*[)\]}]`)
}}

// mcpR13DataRow matches one line of a table of people: an e-mail address next to a cell
// separator.
var mcpR13DataRow = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[^\n]{0,200}[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}\s*[,;\t|][^\n]*$|(?m)^[^\n]{0,200}[,;\t|]\s*[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)
}}

// mcpR13DumpPath matches the file names of a database dump or backup in a link.
var mcpR13DumpPath = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^a-z])(?:dump|dumps|backup|backups|pg_?dump|mysqldump|snapshot)(?:[^a-z]|$)|\.(?:sql|dump|bak|pgdump|sqlite3?|db)(?:\.(?:gz|zst|bz2|xz|zip))?$`)
}}

// mcpR13URL matches a whole http(s) URL in prose.
var mcpR13URL = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>]+`) }}

// mcpR13PresignKeys are query keys of a presigned or shared-access link: whoever holds the
// link downloads the object (S3 SigV4/V2, GCS, Azure SAS).
var mcpR13PresignKeys = wordSet{words: `xamzsignature xamzcredential signature awsaccesskeyid xgoogsignature sig sv se sp`}

// messageTexts returns the text fields of a message joined, each on its own line.
func (c *mcpCtx) messageTexts() string {
	var b strings.Builder
	for _, a := range c.args {
		if a.str && (mcpBodyKeys.has(a.nkey) || mcpFreeTextKeys.get()[a.nkey]) {
			b.WriteString(mcpClip(a.val, 64<<10))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// splitPIITable finds a table of people whose header is named in prose in one field and
// whose rows are in another (or the same).
func mcpR13SplitPIITable(text string) []string {
	text = strings.ReplaceAll(text, `\n`, "\n")
	if !mcpR13DataRow.get().MatchString(text) {
		return nil
	}
	for _, m := range mcpR13ColumnList.get().FindAllStringSubmatch(text, 8) {
		var pii []string
		strong := false
		for _, cell := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == ';' || r == '|' || r == '/' }) {
			k := mcpNormKey(strings.TrimSpace(cell))
			if mcpPIIColumns.has(k) {
				pii = append(pii, k)
				strong = strong || mcpStrongPIIColumns.has(k)
			}
		}
		if strong {
			return pii
		}
	}
	return nil
}

// dumpLink finds a download link to a database dump or backup in the message's text.
func (c *mcpCtx) dumpLink(text string) string {
	for _, raw := range mcpR13URL.get().FindAllString(text, 16) {
		u, err := url.Parse(strings.TrimRight(raw, `.,;)"'`))
		if err != nil || u.Host == "" {
			continue
		}
		if !mcpR13DumpPath.get().MatchString(strings.ToLower(path.Base(u.Path))) {
			continue
		}
		presigned := false
		for k := range u.Query() {
			if mcpR13PresignKeys.has(mcpNormKey(k)) {
				presigned = true
			}
		}
		if presigned || strings.Contains(strings.ToLower(u.Path), "prod") || strings.Contains(strings.ToLower(text), "prod") {
			return u.Host + u.Path
		}
	}
	return ""
}

// messageDataSplit finds customer data or a production dump in a message to a recipient
// outside the team for certain.
func (c *mcpCtx) messageDataSplit() string {
	if c.act != mcpActWrite || c.httpSend || c.browser || c.draft() ||
		!c.sends && !mcpAnyWord(c.serverWords, mcpMessagingWords.get()) && !mcpAnyWord(c.toolWords, mcpMessagingWords.get()) {
		return ""
	}
	text := c.messageTexts()
	if text == "" {
		return ""
	}
	what := ""
	if cols := mcpR13SplitPIITable(text); cols != nil {
		what = fmt.Sprintf("a table of people's personal data (columns %s)", strings.Join(cols, ", "))
	} else if l := c.dumpLink(text); l != "" {
		what = "a download link to a database dump (" + mcpCleanText(l, 60) + ")"
	}
	if what == "" {
		return ""
	}
	who := c.messageRecipientOutside()
	if who == "" {
		return ""
	}
	return fmt.Sprintf("%s, which sends %s to %s", c.call(), what, who)
}

// mcpR13ProjectFiles are extension-less names of files that sit in a source directory: an
// attachment named so is a file, not a project.
var mcpR13ProjectFiles = wordSet{words: `makefile dockerfile license licence readme procfile gemfile rakefile jenkinsfile
	vagrantfile codeowners notice authors changelog brewfile justfile taskfile`}

// mcpR13ProjectDir reports an attachment that is a whole project directory: a path directly
// under a source directory (~/dev/app, ~/src/app, ~/code/app) with no file extension.
func mcpR13ProjectDir(p string) bool {
	p = strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(p, "file://")), "/")
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~/") {
		return false
	}
	base := path.Base(p)
	if base == "" || base == "." || strings.HasPrefix(base, ".") || strings.Contains(base, ".") || mcpR13ProjectFiles.has(strings.ToLower(base)) {
		return false
	}
	return mcpSourceDirs.has(strings.ToLower(path.Base(path.Dir(p))))
}
