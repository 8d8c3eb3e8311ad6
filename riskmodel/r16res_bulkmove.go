package riskmodel

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Bulk money and message moves: a refund, a cancelled subscription or one e-mail is a
// production change a human asks for with a reason (docs/policy.md's ask row); the same
// command repeated over a list the request computes (`stripe charges list | jq | xargs
// stripe refunds create`, a for loop over $(cat customers.txt) posting to SendGrid) moves
// money or messages customers in bulk with no guard, and cannot be called back: deny. A loop
// over a short list of literal ids the request names (three charges) stays a chosen set.
// The verbs and endpoints are data from the vendors' references: Stripe CLI resource
// commands and its API paths, AWS SES/SESv2/SNS/Pinpoint send commands, the Twilio CLI, and
// the send endpoints of SendGrid, Mailgun, Postmark, Resend, SparkPost, Mandrill, Brevo,
// Twilio, Vonage, MessageBird, Telnyx, Plivo and PayPal Payouts.

// moneyCLIVerbs are Stripe CLI "RESOURCE VERB" pairs that move money or end a customer's
// service.
var moneyCLIVerbs = wordSet{words: `refunds.create payouts.create payouts.cancel payouts.reverse transfers.create
	transfer_reversals.create charges.capture charges.create payment_intents.create payment_intents.confirm
	payment_intents.capture payment_intents.cancel subscriptions.cancel subscriptions.delete
	subscription_schedules.cancel subscription_schedules.release invoices.void invoices.pay invoices.send
	invoices.finalize_invoice invoices.mark_uncollectible credit_notes.create customers.delete
	topups.create application_fees.refund`}

// moneyAPIPath matches Stripe API paths (stripe post/delete PATH, curl URLs) that move money
// or end service.
var moneyAPIPath = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)/v1/(refunds|payouts|transfers|credit_notes|topups|charges/[^/\s]+/capture|payment_intents(/[^/\s]+/(confirm|capture|cancel))?|subscriptions/[^/\s]+|invoices/[^/\s]+/(void|pay|send|finalize|mark_uncollectible)|customers/[^/\s]+$)`)
}}

// messageSendURL matches the send endpoints of e-mail and SMS APIs, and payout APIs.
var messageSendURL = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(api\.sendgrid\.com/v3/mail/send|api(\.eu)?\.mailgun\.net/v3/[^\s]*messages|api\.postmarkapp\.com/email|api\.resend\.com/emails|api(\.eu)?\.sparkpost\.com/api/v1/transmissions|mandrillapp\.com/api/1\.0/messages/send|api\.(brevo|sendinblue)\.com/v3/smtp/email|api\.twilio\.com/[^\s]*/(Messages|Calls)(\.json)?|(rest|api)\.nexmo\.com/(sms|v1/messages|v1/calls)|api\.nexmo\.com|api\.vonage\.com/v[01]/messages|rest\.messagebird\.com/messages|api\.telnyx\.com/v2/messages|api\.plivo\.com/v1/Account/[^\s]*/Message|api(-m)?\.(sandbox\.)?paypal\.com/v1/payments/payouts|api\.stripe\.com/v1/)`)
}}

// mailers are local programs that send one e-mail per run.
var mailers = wordSet{words: `mail mailx sendmail mutt swaks msmtp ssmtp s-nail`}

// bulkMoveOp says what money or message move s makes, "" when none.
func bulkMoveOp(s *Segment) string {
	if len(s.Args) < 2 {
		return ""
	}
	tool := baseName(s.Args[0])
	args := s.Args[1:]
	switch tool {
	case "stripe":
		pos := positionals(args)
		if len(pos) >= 2 {
			if moneyCLIVerbs.has(pos[0] + "." + pos[1]) {
				return "stripe " + pos[0] + " " + pos[1]
			}
			m := strings.ToLower(pos[0])
			if (m == "post" || m == "delete") && moneyAPIPath.get().MatchString(pos[1]) && (m == "delete" || !strings.Contains(pos[1], "/subscriptions/") && !strings.Contains(pos[1], "/customers/")) {
				return "stripe " + pos[0] + " " + pos[1]
			}
		}
	case "aws":
		for i := 0; i+1 < len(args); i++ {
			svc, op := args[i], args[i+1]
			switch {
			case (svc == "ses" || svc == "sesv2") && strings.HasPrefix(op, "send-"):
				return "aws " + svc + " " + op
			case svc == "sns" && op == "publish" && hasArg(s.Args, "--phone-number"):
				return "aws sns publish --phone-number"
			case (svc == "pinpoint" || svc == "pinpoint-sms-voice-v2") && strings.HasPrefix(op, "send-"):
				return "aws " + svc + " " + op
			}
		}
	case "twilio":
		if strings.Contains(args[0], "messages:create") || strings.Contains(args[0], "calls:create") {
			return "twilio " + args[0]
		}
	case "curl", "wget", "http", "https", "xh", "httpie", "curlie":
		for _, a := range args {
			if u := messageSendURL.get().FindString(a); u != "" {
				if strings.Contains(u, "api.stripe.com") {
					if !moneyAPIPath.get().MatchString(a) || !writesBody(s) {
						continue
					}
				}
				return tool + " " + u
			}
		}
	default:
		if mailers.has(tool) {
			return tool
		}
	}
	return ""
}

// positionals are args without options and the values that follow --opt (best effort:
// an option followed by a word not starting with "-" is taken as valued).
func positionals(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && len(out) >= 2 {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// writesBody reports an HTTP client call that sends a body or a non-GET method.
func writesBody(s *Segment) bool {
	for i, a := range s.Args {
		switch {
		case a == "-d" || a == "--data" || strings.HasPrefix(a, "--data") || a == "-F" || a == "--form" || strings.HasPrefix(a, "-d"):
			return true
		case (a == "-X" || a == "--request") && i+1 < len(s.Args) && !strings.EqualFold(s.Args[i+1], "GET"):
			return true
		case strings.HasPrefix(a, "-X") && len(a) > 2 && !strings.EqualFold(a[2:], "GET"):
			return true
		}
	}
	return false
}

// bulkMove says why s moves money or messages people in bulk, "" when it does not.
func bulkMove(c *execCtx, s *Segment) string {
	op := bulkMoveOp(s)
	if op == "" {
		return ""
	}
	r := repeatedIn(c, s)
	if !r.repeated || r.chosen || (r.times > 0 && r.times <= chosenListMax) {
		return ""
	}
	n := "a list the request computes"
	if r.times > 0 {
		n = strconv.FormatFloat(r.times, 'f', -1, 64) + " items"
	}
	return fmt.Sprintf("Repeats %s %s over %s, with no guard: money moved or people messaged in bulk, which cannot be called back", op, r.how, n)
}
