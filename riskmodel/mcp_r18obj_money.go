package riskmodel

import (
	"fmt"
	"regexp"
	"strings"
)

// Money redirected and money moved in bulk. Changing the bank account a supplier, contact,
// employee or payee is paid to is the payment-diversion fraud pattern (UK Finance "invoice
// and mandate fraud", FBI IC3 business e-mail compromise): whoever asked, the next payment
// goes to the new account. Refunds, voids and payouts of every payment, a wildcard or a whole
// period move money nobody reviewed one by one. Sources: Xero Contacts BankAccountDetails,
// QuickBooks Vendor AcctNum/BankAccountRef, Stripe external_accounts and payout destination,
// Gusto and Deel bank_accounts (routing_number, account_number), Square RefundPayment.

// r18BankKeys are argument keys that hold where money is paid.
var r18BankKeys = wordSet{words: `bankaccountdetails bankaccount bankaccounts bankaccountnumber bankdetails bankinfo
	iban sortcode routingnumber abaroutingnumber bsb bsbnumber swiftcode bic transitnumber externalaccount
	externalaccounts payoutdestination payoutaccount payoutmethod destinationaccount beneficiaryaccount
	achdetails achaccount directdeposit remittanceaccount`}

// r18BankNoteRe matches a payment's note that says the bank details changed.
var r18BankNoteRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:new|updated?|changed?|different|revised)\s+(?:bank(?:ing)?|account|payment|remittance)\s+(?:details|account|info(?:rmation)?|instructions)\b`)
}}

// r18MoneyWords are tool words of money moves that can be made in bulk.
var r18MoneyWords = wordSet{words: `refund refunds void voids payout payouts reverse reversal reversals chargeback
	credit creditnote disburse disbursement payment payments transfer transfers pay`}

// r18BulkSelRe matches a selector that means every object: all, every, a wildcard, ALL_TODAY,
// "<every succeeded payment …>" placeholders.
var r18BulkSelRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*(?:<\s*)?(?:all|every|each|entire|whole|any)(?:\b|_)|^\s*\*\s*$|^\s*%\s*$`)
}}

// r18PeriodKeys are selector keys for a whole period.
var r18PeriodKeys = wordSet{words: `date day period month since createdafter createdsince from startdate fromdate createdgte`}

func (c *mcpCtx) r18PayeeBank() string {
	if c.act == mcpActRead || c.act == mcpActDestroy || c.browser || c.fsTool || c.shellish {
		return ""
	}
	for _, a := range c.args {
		if r18BankKeys.has(a.nkey) && strings.TrimSpace(a.val) != "" && strings.ContainsAny(a.val, "0123456789") {
			return fmt.Sprintf("sets %s: the next payment goes to the new account, the payment-diversion fraud pattern", a.key)
		}
	}
	if c.payment || mcpAnyWord(c.toolWords, r18MoneyWords.get()) || mcpAnyWord(c.toolWords, mcpWordSet("bill bills")) {
		for _, a := range c.args {
			if a.str && r18BankNoteRe.get().MatchString(a.val) {
				return fmt.Sprintf("pays on %q: a payment on changed bank details is the payment-diversion fraud pattern", mcpCleanText(r18BankNoteRe.get().FindString(a.val), 50))
			}
		}
	}
	return ""
}

// r18BulkList returns the largest number of elements an array argument holds.
func (c *mcpCtx) r18BulkList() (string, int) {
	counts := map[string]int{}
	best, n := "", 0
	for _, a := range c.args {
		i := strings.LastIndexByte(a.path, '[')
		if i < 0 || !strings.HasSuffix(a.path, "]") {
			continue
		}
		p := a.path[:i]
		counts[p]++
		if counts[p] > n {
			best, n = p, counts[p]
		}
	}
	return best, n
}

// r18BulkSelector names an argument that selects every object.
func (c *mcpCtx) r18BulkSelector(period bool) string {
	for _, a := range c.args {
		if !a.str {
			continue
		}
		v := strings.TrimSpace(a.val)
		if r18BulkSelRe.get().MatchString(v) && !r18ProseRe.get().MatchString(v) {
			return fmt.Sprintf("%s %q", a.key, mcpCleanText(v, 60))
		}
		if period && r18PeriodKeys.has(a.nkey) && !strings.ContainsAny(v, "0123456789") && v != "" {
			return fmt.Sprintf("%s %q", a.key, mcpCleanText(v, 40))
		}
	}
	return ""
}

// r18ProseRe matches a sentence rather than a selector ("all good", "any questions?").
var r18ProseRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:all|any|every|each)\s+(?:good|set|done|fine|clear|questions?|feedback|ok|right)\b|[.!?]\s*$`)
}}

func (c *mcpCtx) r18BulkMoney() string {
	money := mcpAnyWord(c.toolWords, r18MoneyWords.get()) || mcpAnyWord(mcpSplitWords(c.verb), r18MoneyWords.get())
	for _, a := range c.args {
		if a.depth == 1 && a.str && mcpWordSet("method action operation verb")[a.nkey] && mcpAnyWord(mcpSplitWords(a.val), r18MoneyWords.get()) {
			money = true
		}
	}
	if !money {
		return ""
	}
	if c.act == mcpActRead {
		return ""
	}
	if w := c.r18BulkSelector(true); w != "" {
		return "selects " + w + ": money moves for every payment it matches, none reviewed one by one"
	}
	if p, n := c.r18BulkList(); n > 5 && strings.Contains(strings.ToLower(p), "id") {
		return fmt.Sprintf("moves money for %d payments at once (%s)", n, p)
	}
	return ""
}

func (c *mcpCtx) r18BulkDelete() string {
	if c.act != mcpActDestroy || c.fsTool || c.shellish || c.sqlTool || c.local || c.browser {
		return ""
	}
	if w := c.r18BulkSelector(false); w != "" {
		return "selects " + w + ": every record it matches is deleted, never reviewed one by one"
	}
	return ""
}

// r18SpaceWords are the containers of a team's pages and files.
var r18SpaceWords = wordSet{words: `space spaces workspace workspaces teamdrive teamdrives shareddrive shareddrives wiki wikis`}

// r18HomePageRe matches a page id or title that names a team's home or root page.
var r18HomePageRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[\s_/-])(?:home|root|team|teams|workspace|company|wiki|hq|handbook|top)(?:$|[\s_/-])`)
}}

func (c *mcpCtx) r18SpaceDelete() string {
	if c.fsTool || c.shellish || c.sqlTool || c.browser || mcpAnyWord(c.serverWords, mcpWordSet("huggingface hf")) {
		return ""
	}
	if c.act == mcpActDestroy && c.hardDestroy() && mcpAnyWord(c.toolWords, r18SpaceWords.get()) {
		return "deletes a whole " + mcpFirstWord(c.toolWords, r18SpaceWords.get()) + " with every page and file in it"
	}
	archived := false
	for _, a := range c.args {
		if (a.nkey == "archived" || a.nkey == "intrash" || a.nkey == "trashed") && a.val == "true" {
			archived = true
		}
	}
	if !archived || !mcpAnyWord(c.toolWords, mcpWordSet("page pages block database update patch")) {
		return ""
	}
	for _, a := range c.args {
		if a.str && (a.nkey == "pageid" || a.nkey == "blockid" || a.nkey == "id" || a.nkey == "title") && r18HomePageRe.get().MatchString(a.val) {
			return fmt.Sprintf("archives %q, a team's home page, with every page under it", mcpCleanText(a.val, 60))
		}
	}
	return ""
}
