package riskmodel

import (
	"regexp"
	"strings"
)

// Interpreter code reaches the same secret stores the shell's keychain tools do, through
// their libraries: Python's keyring (keyring.get_password, get_credential), secretstorage
// (Item.get_secret), pywin32's win32cred.CredRead, libsecret through gi.repository.Secret
// (Secret.password_lookup_sync); Node's keytar (getPassword, findPassword, findCredentials);
// Ruby's ruby-keychain (Keychain.generic_passwords); PowerShell's CredentialManager
// (Get-StoredCredential), SecretManagement (Get-Secret) and the WinRT PasswordVault. A call
// of one returns a stored password, exactly as `keyring get SERVICE USER` or `security
// find-generic-password -w` prints one, so it becomes that synthetic segment and the
// credential rules judge it the same way (docs/policy.md: reading keychains without need is
// denied). Listing backends or writing a password reads nothing and is not matched.

// secretAPICall is one library call that returns a stored secret: the module the code must
// mention and the call itself.
type secretAPICall struct {
	module string
	call   *regexp.Regexp
}

var secretAPICalls = table[map[string][]secretAPICall]{build: func() map[string][]secretAPICall {
	re := regexp.MustCompile
	return map[string][]secretAPICall{
		"python": {
			{"keyring", re(`\bget_(?:password|credential)\b(?:\s*\(|\s+as\s+\w)`)},
			{"secretstorage", re(`\.get_secret\s*\(`)},
			{"win32cred", re(`\bCred(?:Read|Enumerate)\s*\(`)},
			{"Secret", re(`\bSecret\.password_lookup(?:_sync)?\s*\(`)},
		},
		"node": {
			{"keytar", re(`\b(?:getPassword|findPassword|findCredentials)\s*\(`)},
		},
		"ruby": {
			{"Keychain", re(`\bKeychain\.(?:generic|internet)_passwords\b`)},
		},
		"pwsh": {
			{"", re(`(?i)\bGet-StoredCredential\b|\bGet-Secret\b|PasswordVault[\s\S]*\.(?:Retrieve(?:All)?|RetrievePassword)\s*\(`)},
		},
	}
}}

// codeSecretReads returns the secret-store library calls in code, as the text of each call.
func codeSecretReads(lang, code string) []string {
	var out []string
	for _, c := range secretAPICalls.get()[lang] {
		if c.module != "" && !strings.Contains(code, c.module) {
			continue
		}
		if m := c.call.FindString(code); m != "" {
			out = append(out, m)
		}
	}
	return out
}
