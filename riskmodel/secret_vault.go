package riskmodel

import (
	"regexp"
	"strings"
)

// secVaultRe matches a HashiCorp Vault token: hvs. (service), hvb. (batch) or hvr. (recovery)
// and base62 since Vault 1.10, and the legacy s., b., r. forms with 24 characters before it.
var secVaultRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:hv[sbr]\.[A-Za-z0-9_\-]{24,}|[sbr]\.[A-Za-z0-9]{24}\b)`)
}}

func secVaultRegexp() *regexp.Regexp { return secVaultRe.get() }

// secVaultLegacy screens a legacy Vault token (s., b. or r. and 24 base62 characters): such a
// string is only a token when it looks random — upper case, lower case and digits all
// present — so that "s.somethingInCamelCaseXY" in prose or code is not one. The hv*. forms
// carry their own prefix and pass.
func secVaultLegacy(_, val string) (string, bool) {
	if strings.HasPrefix(val, "hv") {
		return "", true
	}
	body := val[2:]
	return "", strings.ContainsAny(body, "0123456789") &&
		strings.ContainsAny(body, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
		strings.ContainsAny(body, "abcdefghijklmnopqrstuvwxyz") && !secIsPlaceholder(val)
}
