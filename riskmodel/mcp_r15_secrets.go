package riskmodel

import "fmt"

// Bulk secret values read through a secret-store server. Azure Key Vault, AWS Secrets Manager
// and SSM Parameter Store, GCP Secret Manager, Vault, Doppler and Infisical servers expose
// list or get-all tools whose arguments choose between names and values (include_values,
// with_values, WithDecryption, reveal, show_values). With values asked for, every secret of
// the store lands in the transcript, which is sent to the model provider: a bulk credential
// dump (docs/policy.md: reading secrets beyond what the task needs). Listing names only
// stays as mcp.read judges it.

// mcpR15SecretStoreWords name a secret store in a server's or a tool's name.
var mcpR15SecretStoreWords = wordSet{words: `secret secrets keyvault vault kv secretsmanager secretmanager ssm parameter
	parameters doppler infisical onepassword 1password bitwarden keychain credentials passwords`}

// mcpR15BulkWords are a tool name's words for more than one secret at a time.
var mcpR15BulkWords = wordSet{words: `list all bulk export dump values batch path many search`}

// mcpR15ValueKeys are the normalised argument keys that ask for values, not names.
var mcpR15ValueKeys = wordSet{words: `includevalues withvalues withdecryption decrypt decrypted reveal revealvalues
	showvalues showsecrets includesecrets includesecretvalues withsecrets plaintext unmask unmasked expand resolve`}

// bulkSecretValues returns the argument of a list/get-all call on a secret store that asks for
// the values.
func (c *mcpCtx) bulkSecretValues() string {
	store := mcpR15SecretStoreWords.get()
	if !mcpAnyWord(c.toolWords, store) && !mcpAnyWord(c.serverWords, store) {
		return ""
	}
	if !mcpAnyWord(c.toolWords, mcpR15BulkWords.get()) {
		return ""
	}
	keys := mcpR15ValueKeys.get()
	for _, a := range c.args {
		if a.depth == 1 && keys[a.nkey] && (a.val == "true" || a.val == "1") {
			return fmt.Sprintf("%s=%s", a.key, a.val)
		}
	}
	return ""
}
