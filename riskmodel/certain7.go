package riskmodel

import "strings"

// gitProgramKey reports a git setting under a named section whose value is a program git
// runs on content: a filter's clean, smudge or process command (run at checkout and add), a
// diff driver's textconv or command, a merge driver, diff.external.
func gitProgramKey(k string) bool {
	sec, rest, ok := strings.Cut(k, ".")
	if !ok {
		return false
	}
	i := strings.LastIndexByte(rest, '.')
	last := rest[i+1:]
	switch sec {
	case "filter":
		return i > 0 && (last == "clean" || last == "smudge" || last == "process")
	case "diff":
		return rest == "external" || i > 0 && (last == "textconv" || last == "command")
	case "merge":
		return i > 0 && last == "driver"
	}
	return false
}

// fullAdminRoles are the roles and policies that hand over a whole account or cluster:
// granting one is privilege escalation (docs/policy.md), not a routine production change.
var fullAdminRoles = &wordSet{words: "administratoraccess cluster-admin roles/owner iamfullaccess"}

// grantsFullAdmin returns the full-admin role a list of values names, "" when none does.
func grantsFullAdmin(vals []string) string {
	for _, v := range vals {
		for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '/')
		}) {
			if fullAdminRoles.has(w) {
				return w
			}
		}
		if i := strings.LastIndex(v, "policy/"); i >= 0 && fullAdminRoles.has(strings.ToLower(v[i+len("policy/"):])) {
			return v[i+len("policy/"):]
		}
	}
	return ""
}

// securityControls are the controls docs/policy.md forbids switching off; disableWords the
// verbs that switch one off.
var (
	securityControls = &wordSet{words: "waf firewall audit auditd cloudtrail guardduty selinux apparmor defender gatekeeper protection rls mfa"}
	disableWords     = &wordSet{words: "disable disabled off stop delete remove"}
)

// mcpAdminOrControlOff says why an MCP production change is certainly denied: it grants a
// full-admin role, or its tool switches a security control off (waf_disable,
// disable_branch_protection).
func mcpAdminOrControlOff(c *mcpCtx) string {
	var vals []string
	for _, a := range c.args {
		if a.str {
			vals = append(vals, a.val)
		}
	}
	if r := grantsFullAdmin(vals); r != "" {
		return "it grants " + r + ", full control of the account or cluster (docs/policy.md: privilege escalation)"
	}
	ctl, off := "", false
	for _, w := range c.toolWords {
		w = strings.ToLower(w)
		if securityControls.has(w) {
			ctl = w
		}
		if disableWords.has(w) {
			off = true
		}
	}
	if ctl != "" && off {
		return "it switches off " + ctl + ", a security control (docs/policy.md: disabling security controls)"
	}
	return ""
}

// cloudGrantsAdmin says why a cloud change is certainly denied: it grants a full-admin role.
func cloudGrantsAdmin(s *Segment) string {
	if r := grantsFullAdmin(s.Args[1:]); r != "" {
		return "it grants " + r + ", full control of the account or project (docs/policy.md: privilege escalation)"
	}
	return ""
}
