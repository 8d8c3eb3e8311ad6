package riskmodel

import (
	"fmt"
	"strings"
)

// MCP calls that switch a security setting off by their arguments, whatever the server: a
// key named for a control (MFA, audit, encryption, TLS, a WAF, backups, retention, data
// scrubbing, a protection) set to false, "off", "disabled", "none" or 0 in a write; the
// same for a Kubernetes server's calls (a NetworkPolicy or admission policy deleted, Istio's
// mutual TLS disabled, a security or backup tool uninstalled); and stored data shared out (a
// snapshot or image made restorable by other accounts, customer data copied into a bucket
// named for outsiders). Vocabulary from the settings pages and APIs these keys come from:
// Sentry's project settings (dataScrubber, scrubIPAddresses), Supabase's and Neon's project
// settings (ssl_enforcement), Okta's and Auth0's MFA policies, Cloudflare's zone settings
// (ssl, always_use_https, waf, security_level), Azure Storage's properties
// (enableHttpsTrafficOnly, minimumTlsVersion), AWS's API fields (BackupRetentionPeriod,
// DeletionProtection, PointInTimeRecoveryEnabled), GitHub's security_and_analysis, Vercel's
// deployment protection (ssoProtection, passwordProtection).

// r16SureWords name a security control in a key: switched off, it is on the deny list.
var r16SureWords = wordSet{words: `scrub scrubber scrubbing scrubbers scrubdefaults mfa 2fa twofactor multifactor totp webauthn
	audit auditing auditlog auditlogs encryption encrypt encrypted tls ssl https hsts firewall waf backup backups pitr
	retention rls rowlevelsecurity protection protections versioning signing signoff dlp antivirus malware ddos captcha
	sso saml enforcement enforce secretscanning pushprotection scanning threat detection guardduty defender immutability
	objectlock lock locked authenticator authenticators otp passkey passkeys anonymize anonymise anonymization redact
	redaction mask masking`}

// r16UnsureWords name a control whose off switch may be routine (a noisy log, an alert
// during a migration): asked at high.
var r16UnsureWords = wordSet{words: `logging logs monitoring alerting alerts alarm alarms`}

// r16SkipWords make a key a preference or a different question: a notification, TLS
// verification of the caller's own request (the one-off bypass rules judge that), or a
// setting where off is the safer value.
var r16SkipWords = wordSet{words: `notify notification notifications email emails digest reminder verify verification insecure
	public anonymous debug verbose level sample sampling color theme`}

// r16NegWords turn a key around: true switches the control off ("disable_mfa": true).
var r16NegWords = wordSet{words: `disable disabled skip bypass no without allowunencrypted unencrypted permissive exempt`}

// r16OffValue reports a value that switches a control off.
func r16OffValue(a mcpArg) bool {
	v := strings.ToLower(strings.TrimSpace(a.val))
	switch v {
	case "false", "off", "disabled", "disable", "none", "no", "inactive", "0", "essentially_off", "permissive", "detection", "detectiononly", "audit_only", "allow_unencrypted_and_encrypted":
		return true
	}
	return false
}

// r16WeakTLS reports a minimum TLS version or an SSL mode that allows plain text or outdated
// protocols.
func r16WeakTLS(key []string, v string) bool {
	if !mcpAnyWord(key, mcpWordSet("tls ssl sslmode tlsversion mintls")) {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "tls1_0", "tls1.0", "tlsv1", "tlsv1.0", "1.0", "tls1_1", "tls1.1", "tlsv1.1", "1.1", "allow", "prefer", "allow_unencrypted_and_encrypted", "ssl3", "sslv3":
		return true
	}
	return false
}

// r16KeyWords are the words of an argument's key and its parent's ({"versioning":
// {"enabled": false}}).
func r16KeyWords(a mcpArg) []string {
	p := a.path
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		if j := strings.LastIndexByte(p[:i], '.'); j >= 0 {
			p = p[j+1:]
		}
	}
	return mcpSplitWords(p)
}

// securitySettingOff says which argument switches a security control off, and whether that is
// certain.
func securitySettingOff(c *mcpCtx) (string, bool) {
	if c.act < mcpActWrite || c.shell != nil || len(c.sql) > 0 || mcpAnyWord(c.toolWords, mcpWordSet("create new add insert list get search query read describe")) {
		return "", false
	}
	for _, a := range c.args {
		if a.str && len(a.val) < 200 && !mcpFreeTextKeys.get()[a.nkey] &&
			(r10ArgRe.get().r10NonProdRe.MatchString(a.val) || isLocalHost(strings.ToLower(strings.TrimSpace(a.val)))) {
			return "", false // a development target or a local connection: asked as the change it is
		}
	}
	// A setting named by one argument and valued by another (Cloudflare: {"setting": "ssl",
	// "value": "off"}).
	var named string
	for _, a := range c.args {
		if a.depth <= 2 && a.str && len(a.val) <= 60 && (a.nkey == "setting" || a.nkey == "settingid" || a.nkey == "settingname" || a.nkey == "feature") {
			named = a.val
		}
	}
	for _, a := range c.args {
		if a.depth > 4 || mcpFreeTextKeys.get()[a.nkey] {
			continue
		}
		key := r16KeyWords(a)
		if mcpAnyWord(key, r16SkipWords.get()) {
			continue
		}
		if r16GenericKeys.has(a.nkey) {
			// A generic key takes its meaning from the setting it values: the named setting,
			// a sibling's id in a list of settings, or the tool ("update_authenticator").
			if named != "" {
				key = append(key, mcpSplitWords(named)...)
			}
			if !c.callWord(mcpWordSet("flag flags feature features toggle toggles experiment experiments launchdarkly unleash flagsmith")) {
				key = append(key, r16SiblingName(c, a)...) // a feature flag's key names the feature, not a setting
			}
			if a.depth == 1 {
				key = append(key, c.toolWords...)
			}
		}
		sure := mcpAnyWord(key, r16SureWords.get())
		if !sure && !mcpAnyWord(key, r16UnsureWords.get()) {
			continue
		}
		v := strings.ToLower(strings.TrimSpace(a.val))
		off := false
		switch {
		case mcpAnyWord(key, r16NegWords.get()):
			off = v == "true" || v == "1" || v == "yes"
		case r16WeakTLS(key, v):
			off = true
		case !a.str && (v == "null" || v == "") && mcpAnyWord(key, mcpWordSet("protection retention")):
			off = true
		default:
			off = r16OffValue(a)
		}
		if !off {
			continue
		}
		if mcpAnyWord(key, mcpWordSet("audit access flow security threat")) {
			sure = true
		}
		return fmt.Sprintf("%s = %s", mcpCleanText(strings.TrimSpace(a.path+orStrIf(named != "" && a.nkey == "value", " ("+named+")")), 80), mcpOrStr(mcpCleanText(a.val, 40), "null")), sure
	}
	return "", false
}

// r16GenericKeys value a setting without naming it.
var r16GenericKeys = wordSet{words: `value enabled enable state status mode active isenabled`}

// r16SiblingName returns the words of the id or name next to a list item's value
// ({"settings": [{"id": "ssl", "value": "off"}]}).
func r16SiblingName(c *mcpCtx, a mcpArg) []string {
	parent := ""
	if i := strings.LastIndexByte(a.path, '.'); i >= 0 {
		parent = a.path[:i+1]
	} else if a.depth != 1 {
		return nil
	}
	for _, b := range c.args {
		if b.str && len(b.val) <= 60 && strings.HasPrefix(b.path, parent) && !strings.Contains(b.path[len(parent):], ".") &&
			(b.nkey == "id" && parent != "" || b.nkey == "name" || b.nkey == "key" || b.nkey == "setting" || b.nkey == "type" && parent != "") {
			return mcpSplitWords(b.val)
		}
	}
	return nil
}

func orStrIf(cond bool, s string) string {
	if cond {
		return s
	}
	return ""
}

// k8sMCPSecurityOff says what a Kubernetes or Helm server's call switches off, and whether
// that is certain.
func k8sMCPSecurityOff(c *mcpCtx) (string, bool) {
	words := append(append([]string{}, c.serverWords...), c.toolWords...)
	if !mcpAnyWord(words, mcpWordSet("kubernetes k8s kubectl helm kube cluster resources resource openshift chart release istio")) || c.shell != nil {
		return "", false
	}
	get := func(keys ...string) string {
		for _, k := range keys {
			for _, a := range c.args {
				if a.depth == 1 && a.str && a.nkey == k {
					return a.val
				}
			}
		}
		return ""
	}
	name := get("name", "resourcename", "releasename", "release", "chart")
	ns := get("namespace", "ns")
	deletes := c.act == mcpActDestroy || mcpAnyWord(c.toolWords, mcpWordSet("delete uninstall remove destroy"))
	if deletes && mcpAnyWord(words, mcpWordSet("helm chart release uninstall")) {
		if t := k8sSecurityTool(name); t != "" {
			return "uninstalls " + t + " (" + mcpCleanText(name, 40) + "), a security or backup tool", true
		}
		if t := k8sSecurityTool(ns); t != "" && name != "" {
			return "uninstalls " + mcpCleanText(name, 40) + " from the " + mcpCleanText(ns, 40) + " namespace, a security or backup tool", true
		}
	}
	if deletes {
		kind := get("kind", "resourcetype", "resource", "type", "resourcekind")
		all := false
		for _, a := range c.args {
			if a.depth == 1 && (a.nkey == "all" && a.val == "true" || a.nkey == "name" && a.val == "--all") {
				all = true
			}
		}
		var names []string
		if name != "" {
			names = []string{name}
		}
		if why, sure := k8sDeleteOff(kind, names, all); why != "" {
			return why, sure
		}
		if k := strings.ToLower(kind); (k == "deployment" || k == "daemonset" || k == "statefulset" || k == "deploy" || k == "ds") && k8sSecurityTool(name) != "" {
			return "deletes the " + k8sSecurityTool(name) + " workload (" + mcpCleanText(name, 40) + "), a security or backup tool", true
		}
		return "", false
	}
	if mcpAnyWord(c.toolWords, mcpWordSet("scale")) {
		for _, a := range c.args {
			if a.depth == 1 && (a.nkey == "replicas" || a.nkey == "replicacount") && strings.TrimSpace(a.val) == "0" && k8sSecurityTool(name) != "" {
				return "scales " + mcpCleanText(name, 40) + " to zero, stopping a security or backup tool", true
			}
		}
	}
	if c.act >= mcpActWrite {
		for _, a := range c.args {
			if a.str && len(a.val) > 20 {
				if why, sure := manifestWeakens(a.val); why != "" {
					return why, sure
				}
			}
		}
	}
	return "", false
}

// mcpDataSharedOut says how a call shares stored data outside, "" when it does not.
func mcpDataSharedOut(c *mcpCtx) string {
	if c.shell != nil {
		return ""
	}
	if why := mcpSignedLinkOut(c); why != "" {
		return why
	}
	if c.act < mcpActWrite {
		return ""
	}
	// A snapshot or image made restorable or launchable by other accounts.
	if mcpAnyWord(c.toolWords, mcpWordSet("snapshot snapshots image images ami amis")) {
		add := false
		for _, a := range c.args {
			v := strings.ToLower(strings.TrimSpace(a.val))
			switch {
			case a.nkey == "valuestoadd" || a.nkey == "attributevaluestoadd":
				add = v != ""
			case a.nkey == "operationtype" && v == "add":
				add = true
			case strings.Contains(strings.ToLower(a.path), ".add[") || strings.HasSuffix(strings.ToLower(a.path), ".add"):
				add = true
			}
		}
		if add && mcpAnyWord(c.toolWords, mcpWordSet("attribute attributes permission permissions share")) {
			return "it shares a snapshot or image with other accounts, which can then copy its data"
		}
	}
	// Customer data copied into a bucket named for outsiders.
	if mcpAnyWord(c.toolWords, mcpWordSet("copy sync transfer replicate move replication")) {
		var src, dst string
		for _, a := range c.args {
			if !a.str || a.depth > 2 || len(a.val) > 300 {
				continue
			}
			k := mcpSplitWords(a.key)
			isBucket := mcpAnyWord(k, mcpWordSet("bucket container uri url path location"))
			switch {
			case mcpAnyWord(k, mcpWordSet("source src from")) && (isBucket || strings.Contains(a.val, "://")):
				if b := bucketName(a.val); b != "" {
					src = b
				} else if !strings.Contains(a.val, "/") {
					src = a.val
				}
			case mcpAnyWord(k, mcpWordSet("destination dest dst target to")) && (isBucket || strings.Contains(a.val, "://")):
				if b := bucketName(a.val); b != "" {
					dst = b
				} else if !strings.Contains(a.val, "/") {
					dst = a.val
				}
			}
		}
		if src != "" && dst != "" && regulatedBucket(src) && outsideBucket(src) == "" {
			if w := outsideBucket(dst); w != "" {
				return fmt.Sprintf("it copies %s (production, customer or health data) to %s, a bucket named for sharing outside (%s)", mcpCleanText(src, 60), mcpCleanText(dst, 60), w)
			}
		}
	}
	return ""
}

func mcpR16SecRules() []*Rule {
	return []*Rule{
		{ID: "mcp.security-setting-off", Kind: KindMCP, Level: High, Category: CatSecurityWeakening, Certain: true,
			Message: "Switches a security setting off by its arguments: MFA, audit logging, encryption, TLS, a WAF or firewall, backups, retention, data scrubbing or a protection",
			mcp: func(c *mcpCtx) (string, bool) {
				s, sure := securitySettingOff(c)
				if s == "" {
					return "", false
				}
				if !sure {
					c.certainty = certaintyUnsure // logging or alerting: a change a human may want
				}
				return fmt.Sprintf("%s, which sets %s: a security control switched off (docs/policy.md: disabling security controls)", c.call(), s), true
			}},
		{ID: "mcp.k8s-security-off", Kind: KindMCP, Level: High, Category: CatSecurityWeakening, Certain: true,
			Message: "Deletes or weakens a cluster security control (network or admission policy, mutual TLS) or uninstalls a security or backup tool",
			mcp: func(c *mcpCtx) (string, bool) {
				why, sure := k8sMCPSecurityOff(c)
				if why == "" {
					return "", false
				}
				if !sure {
					c.certainty = certaintyUnsure
				}
				return c.call() + ", which " + why, true
			}},
		{ID: "mcp.data-shared-out", Kind: KindMCP, Level: High, Category: CatDataExfiltration, Certain: true,
			Message: "Shares stored data outside: a snapshot or image with other accounts, customer data into a bucket for outsiders",
			mcp: func(c *mcpCtx) (string, bool) {
				why := mcpDataSharedOut(c)
				if why == "" {
					return "", false
				}
				return c.call() + ", which " + strings.TrimPrefix(why, "it "), true
			}},
	}
}
