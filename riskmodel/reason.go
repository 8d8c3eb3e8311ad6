package riskmodel

import (
	"strings"
	"unicode"
)

// The agent's stated reason (an exec request's justification, an MCP request's message
// without the host's own question) is untrusted text: it never lowers a level. It does
// decide certainty where docs/policy.md makes the reason the difference — "reading one
// production secret for a stated debugging reason" is asked, the same read "without need"
// is denied — and the policy counts "a mismatch between the justification and the command"
// for the deny side. A reason that shares no word with what the command names (its secret,
// parameter, account, service) is no reason for it.

// mcpStatedReason is the agent's reason in an MCP request's message: the message without
// the host's approval question ("Allow aws to run call_aws?"), "" when nothing else is left.
func mcpStatedReason(msg string) string {
	msg = strings.TrimSpace(msg)
	if strings.HasPrefix(msg, "Allow ") {
		if i := strings.IndexByte(msg, '?'); i >= 0 && strings.Contains(msg[:i], " to run ") {
			msg = strings.TrimSpace(msg[i+1:])
		}
	}
	return msg
}

// reasonRelates reports whether reason names something the command names: a word of three
// letters or more, other than the filler words of any sentence, found in both. An empty
// reason relates to nothing.
func reasonRelates(reason string, command []string) bool {
	rw := reasonWords(reason)
	if len(rw) == 0 {
		return false
	}
	for _, a := range command {
		for w := range reasonWords(a) {
			if rw[w] {
				return true
			}
		}
	}
	return false
}

// reasonWords splits text into lower-case words at anything that is not a letter or digit
// (api-db, DB_HOST and {.data.password} give their parts), dropping filler words.
func reasonWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 3 && !fillerWords.get()[w] {
			out[w] = true
		}
	}
	return out
}

// fillerWords carry no subject: articles, pronouns, auxiliaries and the verbs of any request
// ("need to get", "check the", "run it").
var fillerWords = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"the": true, "and": true, "for": true, "with": true, "this": true, "that": true, "these": true, "those": true,
		"from": true, "into": true, "onto": true, "which": true, "what": true, "when": true, "where": true, "why": true,
		"how": true, "are": true, "was": true, "were": true, "has": true, "have": true, "had": true, "not": true, "but": true,
		"its": true, "our": true, "their": true, "they": true, "them": true, "you": true, "your": true, "can": true,
		"could": true, "should": true, "would": true, "will": true, "all": true, "any": true, "one": true, "now": true,
		"need": true, "needs": true, "want": true, "get": true, "got": true, "set": true, "run": true, "use": true,
		"using": true, "check": true, "checking": true, "make": true, "sure": true, "see": true, "just": true, "only": true,
		"also": true, "then": true, "than": true, "there": true, "here": true, "out": true, "about": true, "some": true,
		"via": true, "per": true, "new": true, "old": true, "yes": true, "true": true, "false": true, "null": true,
		"http": true, "https": true, "www": true, "com": true, "query": true, "output": true, "text": true, "json": true,
		"yaml": true, "value": true, "name": true,
	}
}}

// namesAdmin reports an account or user name that is an administrator's: a word admin,
// administrator, root, owner or superuser in it (root-admin, admin@acme.io, org-owner).
func namesAdmin(name string) bool {
	for w := range reasonWords(name) {
		switch w {
		case "admin", "administrator", "root", "owner", "superuser", "superadmin", "sysadmin":
			return true
		}
	}
	return false
}

// adminCredentialMinted reports a command that hands the agent a new credential of an
// administrator — an access token of an admin account (gcloud auth print-access-token
// --account admin@…), an access key for an admin user (aws iam create-access-key --user-name
// root-admin) — with no stated reason that names it.
func adminCredentialMinted(c *execCtx, s *Segment) bool {
	var who string
	switch n, a, b := s.Name(), s.sub(0), s.sub(1); {
	case n == "gcloud" && a == "auth" && (b == "print-access-token" || b == "print-identity-token"):
		who = flagValue(s, "--account")
		if v := flagValue(s, "--impersonate-service-account"); v != "" {
			who = v
		}
		if p := s.positional(0, "--account", "--impersonate-service-account", "--audiences", "--lifetime", "--scopes"); len(p) > 2 {
			who = p[2]
		}
	case n == "aws" && a == "iam" && (b == "create-access-key" || b == "create-login-profile" || b == "create-service-specific-credential"):
		who = flagValue(s, "--user-name")
	}
	return who != "" && namesAdmin(who) && !reasonRelates(c.req.Justification, s.Args)
}

// argValues lists the MCP call's string arguments, for reasonRelates.
func (c *mcpCtx) argValues() []string {
	out := make([]string, 0, len(c.args))
	for _, a := range c.args {
		if a.str {
			out = append(out, a.val)
		}
	}
	return out
}

// kubeSecretListed reports a Kubernetes Secret read of many at once: across namespaces, a
// list, or no name. docs/policy.md denies bulk secret dumps whatever the reason.
func (c *mcpCtx) kubeSecretListed() bool {
	name, _ := c.top("name", "secretname", "resourcename")
	return c.truthy("allnamespaces") || c.truthy("all") || c.truthy("a") ||
		mcpAnyWord(c.actWords, mcpWordSet("list ls")) || strings.TrimSpace(name.val) == ""
}
