package riskmodel

import "strings"

// Secret stores read through SQL. Some tables exist only to hold secrets: Supabase Vault's
// decrypted_secrets view hands out every secret in clear text, Supabase Auth's auth.users
// holds each user's password hash, and applications keep API keys and OAuth tokens in
// tables named for them. Reading their secret columns, or all columns, of every row is a
// bulk secret dump (docs/policy.md: "reading credential stores without need … bulk secret
// dumps"); reading one row by name is reading one secret, which a human decides. Reading
// only ids, names or counts of them is inventory, not a secret read.

// sqlSecretStores are tables and views that hold secrets in clear or recoverable form.
// Sources: Supabase docs "Vault" (vault.secrets, vault.decrypted_secrets), Supabase docs
// "Auth: users" (auth.users.encrypted_password), Laravel Sanctum (personal_access_tokens),
// Doorkeeper and django-oauth-toolkit (oauth_access_tokens, oauth2_provider_accesstoken),
// and the tables applications name for what they store.
var sqlSecretStores = wordSet{words: `DECRYPTED_SECRETS SECRETS API_KEYS APIKEYS API_TOKENS ACCESS_TOKENS
	PERSONAL_ACCESS_TOKENS OAUTH_TOKENS OAUTH_ACCESS_TOKENS OAUTH_REFRESH_TOKENS OAUTH2_PROVIDER_ACCESSTOKEN
	REFRESH_TOKENS AUTH_TOKENS CREDENTIALS USER_CREDENTIALS SECRET_KEYS PRIVATE_KEYS SERVICE_ACCOUNT_KEYS
	INTEGRATION_TOKENS WEBHOOK_SECRETS`}

// sqlStoreSecretColumns are columns of such a table that hold the secret itself, besides
// sqlSecretColumns.
var sqlStoreSecretColumns = wordSet{words: `DECRYPTED_SECRET KEY VALUE KEY_VALUE SECRET_VALUE TOKEN_VALUE
	ENCRYPTED_VALUE PLAINTEXT RAW_KEY`}

// sqlAggregates summarise rows without returning their values.
var sqlAggregates = wordSet{words: `COUNT MAX MIN SUM AVG`}

var sqlReSelectStar = lazyRegexp(`(?is)^\s*(?:WITH\b.*?\)\s*)?SELECT\s+(?:DISTINCT\s+|ALL\s+)?(?:[a-z_][a-z0-9_]*\.)?\*`)

// sqlSecretStoreRead reports a SELECT that reads the secrets of a secret store: the kind
// (mcpSqlSecret or mcpSqlNeutral), a description, and whether a WHERE clause narrows it
// to chosen rows.
func sqlSecretStoreRead(w []string, st string) (mcpSqlKind, string, bool) {
	if len(w) == 0 || w[0] != "SELECT" && w[0] != "WITH" && w[0] != "TABLE" {
		return mcpSqlNeutral, "", false
	}
	store := ""
	authUsers := false
	for i := 0; i+1 < len(w); i++ {
		if w[i] != "FROM" && w[i] != "JOIN" && w[i] != "TABLE" {
			continue
		}
		for _, t := range w[i+1 : min(i+3, len(w))] {
			if sqlSecretStores.has(t) || sqlTokenTableName(t) {
				store = strings.ToLower(t)
			}
		}
		if w[i+1] == "AUTH" && i+2 < len(w) && w[i+2] == "USERS" {
			authUsers = true
		}
	}
	if store == "" && !authUsers {
		return mcpSqlNeutral, "", false
	}
	from := mcpIndexOf(w, "FROM")
	star := sqlReSelectStar().MatchString(st) || w[0] == "TABLE"
	secretCol := ""
	if from > 1 {
		for _, v := range w[1:from] {
			if sqlSecretColumns.has(v) || store != "" && sqlStoreSecretColumns.has(v) {
				secretCol = strings.ToLower(v)
				break
			}
		}
	}
	if !star && secretCol == "" {
		return mcpSqlNeutral, "", false // ids, names, counts: an inventory
	}
	if !star && from > 1 {
		agg := true
		for _, v := range w[1:from] {
			if !sqlAggregates.has(v) && !sqlSecretColumns.has(v) && !sqlStoreSecretColumns.has(v) {
				agg = false
			}
		}
		if agg && sqlAggregates.has(w[1]) {
			return mcpSqlNeutral, "", false // count(token): a number, not the tokens
		}
	}
	filtered := mcpContains(w, "WHERE") && !mcpReTrivialWhere().MatchString(st)
	what := "reads the secrets stored in " + store
	if authUsers && store == "" {
		what = "reads every user's password hash (auth.users)"
	}
	if filtered {
		what = "reads a secret stored in " + mcpOrStr(store, "auth.users")
	}
	return mcpSqlSecret, what, filtered
}

// sqlSecretRead returns the call's statement that reads secrets, preferring a bulk read;
// a read narrowed to chosen rows is not certain (mcp.sql-secret-read asks about it).
func (c *mcpCtx) sqlSecretRead() (mcpSqlStmt, bool) {
	var one *mcpSqlStmt
	for i, s := range c.sql {
		if s.kind != mcpSqlSecret {
			continue
		}
		if !s.one {
			return s, true
		}
		if one == nil {
			one = &c.sql[i]
		}
	}
	if one == nil {
		return mcpSqlStmt{}, false
	}
	c.certainty = certaintyUnsure
	return *one, true
}
