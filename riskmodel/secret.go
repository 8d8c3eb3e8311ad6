package riskmodel

import (
	"math"
	"regexp"
	"sort"
	"strings"
)

// SecretMatch is one secret found in a text: Kind names what it is ("github-token",
// "url-password", …) and [Start, End) are the byte offsets of the secret value itself — for
// "password=hunter2" only "hunter2", so a redacted text still shows which key held a secret.
type SecretMatch struct {
	Kind  string
	Start int
	End   int
}

// secRedactedPrefix starts every replacement RedactSecrets writes. A value that already starts
// with it is never reported again, which keeps redaction idempotent.
const secRedactedPrefix = "[REDACTED"

// secSecretPattern is one detector. The secret is submatch group (0 = the whole match); for keyed
// detectors keyGroup names the key, and the first non-empty group of valGroups is the value.
type secSecretPattern struct {
	kind      string
	re        func() *regexp.Regexp // compiled on first use
	group     int
	keyGroup  int
	valGroups []int
	// check filters candidates (key may be ""); nil accepts every match.
	check func(key, val string) (kind string, ok bool)
	// need lists substrings one of which must occur for the expression to match at all (in
	// the lower-cased text when lower is set); the expression is skipped otherwise.
	need  []string
	lower bool
	// needAll lists substrings every one of which must occur (in the text as given) for the
	// expression to match: a cheap test before an expression that Go's regexp steps through
	// every byte for.
	needAll []string
	// pre, when set, stands for need: a cheap test the text must pass for the expression to
	// run at all, for a token with no fixed substring (a Discord bot token's two dots).
	pre func(s string) bool
}

// Every expression is RE2 (linear in the input). Value classes stop at quotes and whitespace
// so that a redacted value cannot swallow its neighbour.
var secSecretPatterns = []secSecretPattern{
	{need: []string{"PRIVATE KEY"}, kind: "private-key", re: lazyRegexp(
		`-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY( BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9]{0,40}PRIVATE KEY( BLOCK)?-----|[A-Za-z0-9+/=\s\\:,-]*)`)},
	{need: []string{"AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA"}, kind: "aws-access-key-id", re: lazyRegexp(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b`)},
	{need: []string{"aws"}, lower: true, kind: "aws-secret-key", group: 1, re: lazyRegexp(
		`(?i)aws_?secret_?access_?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)`)},
	{need: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, kind: "github-token", re: lazyRegexp(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,255}\b`)},
	{need: []string{"github_pat_"}, kind: "github-token", re: lazyRegexp(`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`)},
	{need: []string{"glpat-"}, kind: "gitlab-token", re: lazyRegexp(`\bglpat-[A-Za-z0-9_\-]{20,}`)},
	{need: []string{"npm_"}, kind: "npm-token", re: lazyRegexp(`\bnpm_[A-Za-z0-9]{36}\b`)},
	{need: []string{"hf_"}, kind: "huggingface-token", re: lazyRegexp(`\bhf_[A-Za-z0-9]{30,}\b`)},
	{need: []string{"pypi-"}, kind: "pypi-token", re: lazyRegexp(`\bpypi-AgE[A-Za-z0-9_\-]{50,}`)},
	{need: []string{"_v1_"}, kind: "digitalocean-token", re: lazyRegexp(`\bdo[opr]_v1_[a-f0-9]{64}\b`)},
	{need: []string{"SG."}, kind: "sendgrid-key", re: lazyRegexp(`\bSG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}`)},
	{need: []string{"sk-"}, kind: "api-key", re: lazyRegexp(`\bsk-(?:ant-(?:api\d\d-|admin\d\d-)?|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`), check: secCheckSkKey},
	{need: []string{"xox"}, kind: "slack-token", re: lazyRegexp(`\bxox[abposr]-[A-Za-z0-9\-]{10,}`)},
	{need: []string{"xapp-"}, kind: "slack-token", re: lazyRegexp(`\bxapp-\d-[A-Za-z0-9\-]{10,}`)},
	{need: []string{"hooks.slack.com"}, kind: "slack-webhook", re: lazyRegexp(`hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{20,}`)},
	{need: []string{"discord"}, kind: "discord-webhook", re: lazyRegexp(`discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{20,}`)},
	{need: []string{"_live_", "_test_"}, kind: "stripe-key", re: lazyRegexp(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}\b`)},
	{need: []string{"whsec_"}, kind: "stripe-webhook-secret", re: lazyRegexp(`\bwhsec_[A-Za-z0-9]{20,}\b`)},
	{need: []string{"AIza"}, kind: "google-api-key", re: lazyRegexp(`\bAIza[0-9A-Za-z_\-]{35}`)},
	// Chat and bot platforms' tokens (gitleaks/trufflehog detectors): a Discord bot token is
	// base64(user id).timestamp.HMAC; a Telegram bot token is bot-id:AA…; Mailgun, Mailchimp,
	// Shopify, Linear, Notion, Supabase, Postman and Atlassian keys carry fixed prefixes.
	{pre: secVendorPre, kind: "api-key", check: secCheckVendorPrefix, re: secVendorRegexp},
	// HashiCorp Vault tokens: hvs./hvb./hvr. (Vault 1.10+) and the legacy s./b./r. forms
	// (secret_vault.go).
	{need: []string{"s.", "b.", "r."}, kind: "vault-token", re: secVaultRegexp, check: secVaultLegacy},
	{need: []string{"eyJ"}, kind: "jwt", re: lazyRegexp(`\beyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*`)},
	// Authorization headers: the credential after the scheme.
	{need: []string{"authorization"}, lower: true, kind: "auth-header", group: 1, re: lazyRegexp(
		`(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:bearer|basic|token|bot|digest|apikey)\s+([A-Za-z0-9._~+/=\-]{6,})`)},
	{need: []string{"bearer"}, lower: true, kind: "auth-header", group: 1, re: lazyRegexp(`(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{16,}=*)`), check: secCheckBearer},
	// scheme://user:password@host — only the password is the secret.
	{need: []string{"://"}, needAll: []string{"@"}, kind: "url-password", group: 1, re: lazyRegexp(
		`\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^/\s:@"'<>]{1,256}:([^/\s@"'<>]{1,256})@`), check: secCheckPlainValue},
	// curl -u user:password, --user=user:password.
	{need: []string{"-u", "--user"}, needAll: []string{":"}, kind: "basic-credentials", group: 1, re: lazyRegexp(
		`(?:^|\s)(?:-u|--user)(?:\s+|=)["']?[^\s:"']{1,128}:([^\s"']{1,256})`), check: secCheckPlainValue},
	// --password VALUE, --token VALUE on a command line.
	{need: []string{"pass", "token", "secret", "key"}, lower: true, kind: "secret-flag", keyGroup: 1, valGroups: []int{2}, re: lazyRegexp(
		`(?i)(?:^|\s)--?((?:[a-z]+-)?(?:password|passwd|passphrase|token|secret|api-key|apikey|access-key|private-key|client-secret))(?:\s+)([^\s\-"'][^\s"']*)`),
		check: func(key, val string) (string, bool) {
			k, ok := secCheckKeyed(key, val)
			if ok && k == "" {
				k = secKeyedKind(key)
			}
			return k, ok
		}},
}

// secKeyedDetector finds `key = value`, `"key": "value"` and `key: value` pairs. Its expression
// matches only up to the separator, so a rejected key never hides the text after it
// ("url=https://h/?token=…" still finds token); the value is then read by hand.
type secKeyedDetector struct {
	re    func() submatcher
	style byte // '=' assignment, 'j' quoted JSON key, 'y' line-leading YAML key
}

// submatcher is the part of *regexp.Regexp the keyed detectors use, so that a faster search
// with the same results (litRegexp, lineRegexp) can stand in for it.
type submatcher interface {
	FindAllStringSubmatchIndex(s string, n int) [][]int
}

var secKeyedDetectors = []secKeyedDetector{
	// KEY=value (env, INI, query strings, --flag=value).
	// Every match lies within one line and the newline before it: lineRegexp looks only at
	// lines holding an '='.
	{style: '=', re: lazySubmatcher(lazyLineRegexp(`(?:^|[^A-Za-z0-9_\-.])-{0,2}([A-Za-z_][A-Za-z0-9_\-.]{0,63})[ \t]*=[ \t]*`, '=', true))},
	// "key": "value" (JSON, Python dicts). Every match starts at a quote: litRegexp looks only
	// there.
	{style: 'j', re: lazySubmatcher(lazyLitRegexp(`["']([A-Za-z_][A-Za-z0-9_\-.]{0,63})["'][ \t]*:[ \t]*`))},
	// key: value at the start of a line (YAML, HTTP headers). Every match lies within one line
	// holding a colon: lineRegexp looks only at those.
	{style: 'y', re: lazySubmatcher(lazyLineRegexp(`^[ \t\-]*([A-Za-z_][A-Za-z0-9_\-.]{0,63})[ \t]*:[ \t]+`, ':', false))},
}

func lazySubmatcher[T submatcher](f func() T) func() submatcher {
	return func() submatcher { return f() }
}

// FindSecrets reports the secrets in s, sorted by position and without overlaps (overlapping
// detections are merged and keep the first kind). It never reports a value that is already a
// redaction marker.
func FindSecrets(s string) []SecretMatch {
	if s == "" {
		return nil
	}
	var out []SecretMatch
	lower := ""
	for i := range secSecretPatterns {
		p := &secSecretPatterns[i]
		hay := s
		if p.lower {
			if lower == "" {
				lower = strings.ToLower(s)
			}
			hay = lower
		}
		found := len(p.need) == 0 && (p.pre == nil || p.pre(s))
		for _, n := range p.need {
			if strings.Contains(hay, n) {
				found = true
				break
			}
		}
		for _, n := range p.needAll {
			if !strings.Contains(s, n) {
				found = false
				break
			}
		}
		if !found {
			continue
		}
		for _, m := range p.re().FindAllStringSubmatchIndex(s, -1) {
			start, end := m[2*p.group], m[2*p.group+1]
			kind := p.kind
			if len(p.valGroups) > 0 {
				start, end = -1, -1
				for _, g := range p.valGroups {
					if 2*g+1 < len(m) && m[2*g] >= 0 && m[2*g+1] > m[2*g] {
						start, end = m[2*g], m[2*g+1]
						break
					}
				}
			}
			if start < 0 || end <= start {
				continue
			}
			val := s[start:end]
			if strings.HasPrefix(val, secRedactedPrefix) {
				continue
			}
			if p.check != nil {
				key := ""
				if p.keyGroup > 0 && m[2*p.keyGroup] >= 0 {
					key = s[m[2*p.keyGroup]:m[2*p.keyGroup+1]]
				}
				k, ok := p.check(key, val)
				if !ok {
					continue
				}
				if k != "" {
					kind = k
				}
			}
			out = append(out, SecretMatch{Kind: kind, Start: start, End: end})
		}
	}
	for i := range secKeyedDetectors {
		d := &secKeyedDetectors[i]
		// Each expression's literal parts, tested first: a hook that audits a routine call
		// then compiles none of them.
		switch {
		case d.style == '=' && !strings.Contains(s, "="),
			d.style == 'j' && (!strings.Contains(s, ":") || !strings.ContainsAny(s, `"'`)),
			d.style == 'y' && (!strings.Contains(s, ": ") && !strings.Contains(s, ":\t") || !secYAMLKeyLine(s)):
			continue
		}
		for _, m := range d.re().FindAllStringSubmatchIndex(s, -1) {
			key := s[m[2]:m[3]]
			if secSecretKeyStrength(key) == secKeyNone {
				continue
			}
			start, end, quoted := secScanValue(s, m[1], d.style)
			if end <= start {
				continue
			}
			val := s[start:end]
			check := secCheckKeyed
			if d.style == 'y' && !quoted {
				check = secCheckYAMLKeyed
			}
			kind, ok := check(key, val)
			if !ok {
				continue
			}
			if kind == "" {
				kind = secKeyedKind(key)
			}
			out = append(out, SecretMatch{Kind: kind, Start: start, End: end})
		}
	}
	return secMergeSecretMatches(out)
}

// secYAMLKeyLine reports whether some line of s has, before its first colon, a key that
// names a secret: the only lines on which the YAML-key detector can report anything. That
// detector's expression, ^[ \t\-]*(KEY)[ \t]*:[ \t]+, can match a line only at its first
// colon (no part before the colon holds one), so its KEY is what is left of the text before
// that colon once leading blanks and dashes and trailing blanks are cut (KEY starts with a
// letter or _ and ends with no blank). A hook audits a routine call's rationale, "rule: …",
// and so no longer compiles the expression for it. FuzzSecYAMLKeyLine checks the claim.
func secYAMLKeyLine(s string) bool {
	for s != "" {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		i := strings.IndexByte(line, ':')
		if i < 0 {
			continue
		}
		key := strings.TrimRight(strings.TrimLeft(line[:i], " \t-"), " \t")
		if secYAMLKeyShape(key) && secSecretKeyStrength(key) != secKeyNone {
			return true
		}
	}
	return false
}

// secYAMLKeyShape reports whether key has the YAML-key detector's KEY shape,
// [A-Za-z_][A-Za-z0-9_\-.]{0,63}: most lines with a colon (code, prose) fail it at once,
// without secSecretKeyStrength's allocations.
func secYAMLKeyShape(key string) bool {
	if key == "" || len(key) > 64 {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_':
		case i > 0 && ('0' <= c && c <= '9' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// secScanValue reads the value that starts at i: a quoted string (without its quotes) or, for
// assignments and YAML, an unquoted run. JSON keys only take quoted values.
func secScanValue(s string, i int, style byte) (start, end int, quoted bool) {
	if i >= len(s) {
		return i, i, false
	}
	const maxLen = 512
	if q := s[i]; q == '"' || q == '\'' {
		j := i + 1
		for j < len(s) && j-i <= maxLen {
			c := s[j]
			if c == '\\' && q == '"' && j+1 < len(s) {
				j += 2
				continue
			}
			if c == q || c == '\n' {
				break
			}
			j++
		}
		if j >= len(s) || s[j] != q {
			return i, i, true // unterminated or too long: not a value we understand
		}
		return i + 1, j, true
	}
	if style == 'j' {
		return i, i, false
	}
	stop := "\"'&;,<>()[]{}|` \t\r\n"
	if style == 'y' {
		stop = "\"'# \t\r\n"
	}
	j := i
	for j < len(s) && j-i < maxLen && !strings.ContainsRune(stop, rune(s[j])) {
		j++
	}
	return i, j, false
}

func secMergeSecretMatches(ms []SecretMatch) []SecretMatch {
	if len(ms) < 2 {
		return ms
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].Start != ms[j].Start {
			return ms[i].Start < ms[j].Start
		}
		return ms[i].End > ms[j].End
	})
	out := ms[:1]
	for _, m := range ms[1:] {
		last := &out[len(out)-1]
		if m.Start < last.End {
			if m.End > last.End {
				last.End = m.End
			}
			continue
		}
		out = append(out, m)
	}
	return out
}

// RedactSecrets replaces every secret FindSecrets reports with "[REDACTED:<kind>]". Any other
// occurrence of a detected secret of 8 bytes or more is replaced too ("password=hunter2024 …
// echo hunter2024" loses both), and the result is redacted again until nothing is found, so
// RedactSecrets(RedactSecrets(s)) == RedactSecrets(s).
func RedactSecrets(s string) string {
	for pass := 0; pass < 32; pass++ {
		ms := FindSecrets(s)
		if len(ms) == 0 {
			return s
		}
		s = secRedactOnce(s, ms)
	}
	return s
}

func secRedactOnce(s string, ms []SecretMatch) string {
	// Other occurrences of the same secret values.
	all := append([]SecretMatch(nil), ms...)
	seen := map[string]bool{}
	for _, m := range ms {
		v := s[m.Start:m.End]
		if len(v) < 8 || seen[v] || len(seen) >= 64 {
			continue // at most 64 distinct values: the search stays O(64·len(s))
		}
		seen[v] = true
		for off := 0; off < len(s); {
			i := strings.Index(s[off:], v)
			if i < 0 {
				break
			}
			all = append(all, SecretMatch{Kind: m.Kind, Start: off + i, End: off + i + len(v)})
			off += i + len(v)
		}
	}
	all = secMergeSecretMatches(all)
	var b strings.Builder
	b.Grow(len(s))
	prev := 0
	for _, m := range all {
		b.WriteString(s[prev:m.Start])
		b.WriteString(secRedactedPrefix + ":" + m.Kind + "]")
		prev = m.End
	}
	b.WriteString(s[prev:])
	return b.String()
}

// --- filters -------------------------------------------------------------------------------

// secCheckSkKey keeps sk-… keys that look generated (a digit and mixed case), not
// "sk-learn-style-long-identifiers".
func secCheckSkKey(_, val string) (string, bool) {
	body := strings.TrimPrefix(val, "sk-")
	kind := "api-key"
	if strings.HasPrefix(body, "ant-") {
		kind = "anthropic-key"
	} else if strings.HasPrefix(body, "proj-") || strings.HasPrefix(body, "svcacct-") {
		kind = "openai-key"
	}
	var digit, upper, lower bool
	for _, r := range body {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= 'a' && r <= 'z':
			lower = true
		}
	}
	return kind, digit && (upper && lower || len(body) >= 40)
}

// secCheckBearer keeps a bare "Bearer xyz" only when xyz looks like a token rather than words.
func secCheckBearer(_, val string) (string, bool) {
	return "", secLooksRandom(val, 16) && !secIsPlaceholder(val)
}

func secCheckPlainValue(_, val string) (string, bool) { return "", !secIsPlaceholder(val) }

// secCheckKeyed accepts a value held by a secret-ish key: any non-placeholder value for a strong
// key (password, token, api_key…), a long high-entropy value for a weak one (key, auth, sig…).
func secCheckKeyed(key, val string) (string, bool) {
	switch secSecretKeyStrength(key) {
	case secKeyStrong:
		if secIsPlaceholder(val) || len(val) < 4 || secIsSmallNumber(val) {
			return "", false
		}
		return "", true
	case secKeyWeak:
		if secIsPlaceholder(val) || !secLooksRandom(val, 32) {
			return "", false
		}
		return "high-entropy-secret", true
	}
	return "", false
}

// secCheckYAMLKeyed is secCheckKeyed for unquoted `key: value` lines, which also occur in prose
// ("Password: see below"): an unquoted value must not be a plain lower-case word.
func secCheckYAMLKeyed(key, val string) (string, bool) {
	if secIsPlainWord(val) {
		return "", false
	}
	return secCheckKeyed(key, val)
}

// secKeySeparators drops the separators of a key name; built once (a Replacer is safe for
// concurrent use and builds its tables on first use).
var secKeySeparators = table[*strings.Replacer]{build: func() *strings.Replacer { return strings.NewReplacer("_", "", "-", "", ".", "") }}

// secKeyedKind names a keyed secret after its key: "password", "token", "api-key" or "secret".
func secKeyedKind(key string) string {
	k := strings.ToLower(key)
	k = secKeySeparators.get().Replace(k)
	switch {
	case strings.Contains(k, "pass"):
		return "password"
	case strings.Contains(k, "token"):
		return "token"
	case strings.Contains(k, "apikey") || strings.Contains(k, "accesskey"):
		return "api-key"
	case strings.Contains(k, "privatekey"):
		return "private-key"
	}
	return "secret"
}

type secKeyStrength uint8

const (
	secKeyNone secKeyStrength = iota
	secKeyWeak
	secKeyStrong
)

var secStrongSecretWords = []string{"password", "passwd", "passphrase", "passwort", "secret", "token",
	"apikey", "accesskey", "privatekey", "signingkey", "encryptionkey", "masterkey", "credential",
	"authkey", "sessionkey", "secretkey", "pgpass", "connectionstring"}

var secWeakSecretSuffixes = []string{"key", "auth", "sig", "signature", "session", "sessionid", "cookie",
	"cred", "creds", "hmac", "bearer", "salt"}

// Suffixes and words of keys that talk about a secret without holding one.
var secNotSecretKeyParts = []string{"tokens", "tokenizer", "tokenize", "count", "limit", "size", "length", "len",
	"ttl", "expiry", "expires", "expiresin", "expiration", "timeout", "path", "file", "dir", "url", "uri",
	"endpoint", "name", "type", "id", "ids", "header", "policy", "hint", "prompt", "field", "label", "required",
	"enabled", "mode", "version", "format", "env", "var", "provider", "method", "kind", "usage", "page",
	"next", "cursor", "max", "min", "num", "reset", "changed", "rotation", "strength", "template", "placeholder",
	"keyboard", "keyword", "keywords", "keys", "keyspace", "keyring", "monkey", "turkey", "hotkey", "primarykey",
	"foreignkey", "sortkey", "partitionkey", "idempotencykey", "cachekey", "keyfile", "public", "pub"}

// secSecretKeyStrength classifies a key name such as "DB_PASSWORD", "x-api-key" or "session".
func secSecretKeyStrength(key string) secKeyStrength {
	k := strings.ToLower(strings.TrimLeft(key, "-_"))
	if k == "" || len(k) > 64 {
		return secKeyNone
	}
	parts := strings.FieldsFunc(k, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	if len(parts) == 0 {
		return secKeyNone
	}
	norm := strings.Join(parts, "")
	switch norm {
	case "pwd", "oldpwd", "authorization", "proxyauthorization", "passwordless", "bypass":
		return secKeyNone
	}
	for _, p := range parts {
		for _, bad := range secNotSecretKeyParts {
			if p == bad {
				return secKeyNone
			}
		}
	}
	for _, bad := range []string{"maxtoken", "mintoken", "numtoken", "tokencount", "tokenlimit", "pagetoken",
		"nexttoken", "tokenurl", "tokenendpoint", "tokentype", "publickey", "passwordpolicy", "passwordhint",
		"secretname", "secretid", "secretref", "passwordfile", "passwordlength", "passwordreset", "tokenid"} {
		if strings.Contains(norm, bad) {
			return secKeyNone
		}
	}
	for _, w := range secStrongSecretWords {
		if strings.Contains(norm, w) {
			return secKeyStrong
		}
	}
	if last := parts[len(parts)-1]; last == "pass" || last == "pw" || norm == "pass" {
		return secKeyStrong
	}
	for _, suf := range secWeakSecretSuffixes {
		if strings.HasSuffix(norm, suf) {
			return secKeyWeak
		}
	}
	return secKeyNone
}

// secIsPlaceholder recognises values that stand for a secret without being one.
func secIsPlaceholder(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || strings.HasPrefix(v, secRedactedPrefix) {
		return true
	}
	switch v[0] {
	case '$', '<', '%', '{', '@':
		return true // $VAR, ${VAR}, <token>, %s, {{ secrets.X }}, @file
	}
	lv := strings.ToLower(v)
	switch lv {
	case "null", "none", "nil", "true", "false", "undefined", "redacted", "example", "placeholder",
		"string", "secret", "password", "token", "changeme", "required", "optional", "hidden", "masked",
		"your-token", "your_token", "your-api-key", "your_api_key", "env", "prompt", "keychain", "stdin", "-":
		return true
	}
	if strings.HasPrefix(lv, "your") || strings.HasPrefix(lv, "<") || strings.HasPrefix(lv, "process.env") ||
		strings.HasPrefix(lv, "os.environ") || strings.HasPrefix(lv, "env.") || strings.HasPrefix(lv, "secrets.") {
		return true
	}
	// xxxx, ****, ...., ----, 0000
	same := true
	for i := 1; i < len(v); i++ {
		if v[i] != v[0] {
			same = false
			break
		}
	}
	if same {
		return true
	}
	masked := 0
	for i := 0; i < len(v); i++ {
		if v[i] == '*' || v[i] == 'x' || v[i] == 'X' || v[i] == '.' {
			masked++
		}
	}
	return masked*2 > len(v) && masked >= 3
}

func secIsSmallNumber(v string) bool {
	if len(v) > 6 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// secIsPlainWord reports a lower-case word of letters only ("required", "none", "see").
func secIsPlainWord(v string) bool {
	if len(v) > 12 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 'a' || v[i] > 'z' {
			return false
		}
	}
	return true
}

var (
	secReHex40 = lazyRegexp(`^[0-9a-fA-F]{40}$`)
	secReUUID  = lazyRegexp(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// secLooksRandom reports a token-like value of at least minLen bytes: no spaces, not a git SHA or a
// UUID, at least two character classes and a Shannon entropy of 3.5 bits per byte or more.
func secLooksRandom(v string, minLen int) bool {
	if len(v) < minLen || strings.ContainsAny(v, " \t\n") || secReHex40().MatchString(v) || secReUUID().MatchString(v) {
		return false
	}
	var digit, upper, lower bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		}
	}
	classes := 0
	for _, b := range []bool{digit, upper, lower} {
		if b {
			classes++
		}
	}
	return classes >= 2 && secShannon(v) >= 3.5
}

func secShannon(s string) float64 {
	var freq [256]int
	for i := 0; i < len(s); i++ {
		freq[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, f := range freq {
		if f > 0 {
			p := float64(f) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// secCheckMixedCase accepts a dotted token whose parts look random: each part has two of
// digits, upper and lower case, and the last part has a random's entropy. It keeps a long
// dotted identifier (a Java class path) from reading as a Discord bot token.
func secCheckMixedCase(_, val string) (string, bool) {
	parts := strings.Split(val, ".")
	if len(parts) != 3 || !secLooksRandom(parts[2], 20) {
		return "", false
	}
	for _, p := range parts[:2] {
		if !secLooksRandom(p, 6) && !strings.ContainsAny(p, "0123456789") {
			return "", false
		}
	}
	return "", true
}

// secVendorPrefixes names the vendor of a key matched by its fixed prefix.
var secVendorPrefixes = [...][2]string{{"key-", "mailgun-key"}, {"shp", "shopify-token"}, {"lin_api_", "linear-key"},
	{"ntn_", "notion-token"}, {"secret_", "notion-token"}, {"sbp_", "supabase-token"}, {"PMAK-", "postman-key"},
	{"ATATT3", "atlassian-token"}}

func secCheckVendorPrefix(key, val string) (string, bool) {
	if strings.Count(val, ".") == 2 {
		if _, ok := secCheckMixedCase(key, val); ok {
			return "discord-bot-token", true
		}
		return "", false
	}
	if i := strings.Index(val, ":AA"); i > 0 && secIsDigits(val[:i]) {
		return "telegram-bot-token", true
	}
	for _, p := range secVendorPrefixes {
		if strings.HasPrefix(val, p[0]) {
			return p[1], true
		}
	}
	return "mailchimp-key", true
}

// secVendorPre is the vendor expression's prefilter: one of its fixed prefixes, or the shape
// of a Discord bot token — a dot, six token characters, a dot. A plain "." (what the entry
// needed before) is in nearly every command, which ran the expression over every request
// (13 % of a typical command's review).
func secVendorPre(s string) bool {
	for _, n := range [...]string{":AA", "key-", "-us", "shp", "lin_api_", "ntn_", "secret_", "sbp_", "PMAK-", "ATATT3"} {
		if strings.Contains(s, n) {
			return true
		}
	}
	for i := strings.IndexByte(s, '.'); i >= 0 && i+7 < len(s); {
		if s[i+7] == '.' && secTokenChars(s[i+1:i+7]) {
			return true
		}
		j := strings.IndexByte(s[i+1:], '.')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func secTokenChars(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func secIsDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// secVendorRe is the expression of the fixed-prefix vendor tokens, built on first use; a
// package-level function rather than a lazyRegexp keeps package init free of allocations.
var secVendorRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}|\d{8,10}:AA[A-Za-z0-9_\-]{33}|key-[0-9a-f]{32}|[0-9a-f]{32}-us\d{1,2}|shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}|lin_api_[A-Za-z0-9]{40}|ntn_[A-Za-z0-9]{40,50}|secret_[A-Za-z0-9]{43}|sbp_[a-f0-9]{40}|PMAK-[a-f0-9]{24}-[a-f0-9]{34})\b|\bATATT3[A-Za-z0-9_\-=]{180,}`)
}}

func secVendorRegexp() *regexp.Regexp { return secVendorRe.get() }
