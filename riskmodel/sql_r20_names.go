package riskmodel

import "strings"

// The databases' own credential tables (mysql.user, pg_authid, pg_shadow, sys.sql_logins)
// hold a password hash per account next to its name, host and flags. Listing the accounts
// (`SELECT user, host FROM mysql.user`) is read-only inspection that reveals no secret; the
// hash columns, every column, or anything the analysis cannot see into (a function of the
// row, a union) read the hashes. And applications name the tables that hold their tokens for
// them: Django REST framework's authtoken_token, NetBox's users_token, a users_api_keys table;
// a table whose name ends in a token, key or secret word is a secret store like the named ones
// in sql_secretstore.go.

// sqlCredHashColumns are the columns of the databases' credential tables that hold password
// hashes or stored passwords. Sources: MySQL Reference "The mysql.user table"
// (authentication_string, password), PostgreSQL docs pg_authid (rolpassword), pg_shadow
// (passwd), pg_user_mappings (umoptions), SQL Server docs sys.sql_logins (password_hash),
// sys.syslogins (password).
var sqlCredHashColumns = wordSet{words: `AUTHENTICATION_STRING PASSWORD ROLPASSWORD PASSWD UMOPTIONS SRVOPTIONS
	OPTION_VALUE PASSWORD_HASH PWDHASH`}

// sqlNamesOnly reports a SELECT whose select list names only plain columns, none of them a
// hash or secret column, anywhere in the statement.
func sqlNamesOnly(w []string, st string) bool {
	if len(w) < 4 || w[0] != "SELECT" || mcpContains(w, "UNION") {
		return false
	}
	from := mcpIndexOf(w, "FROM")
	if from < 2 {
		return false
	}
	u := strings.ToUpper(st)
	i := strings.Index(u, "FROM")
	if i < 0 || strings.ContainsAny(u[:i], "*(") {
		return false
	}
	for _, v := range w {
		if sqlCredHashColumns.has(v) || sqlSecretColumns.has(v) {
			return false
		}
	}
	for _, v := range w[1:from] {
		if sqlSecretTables.has(v) || v == "PG_SHADOW" || v == "MYSQL" {
			return false // the whole row as a value (SELECT pg_authid FROM pg_authid)
		}
	}
	return true
}

// sqlTokenWords end the names of tables that hold tokens, keys or secrets.
var sqlTokenWords = wordSet{words: `TOKEN TOKENS APIKEY APIKEYS SECRET SECRETS CREDENTIAL CREDENTIALS ACCESSTOKEN ACCESSTOKENS
	REFRESHTOKEN REFRESHTOKENS AUTHTOKEN AUTHTOKENS`}

// sqlKeyPairs are two last words of such names: users_api_keys, service_access_keys.
var sqlKeyPairs = wordSet{words: `API_KEY API_KEYS ACCESS_KEY ACCESS_KEYS PRIVATE_KEY PRIVATE_KEYS SIGNING_KEY SIGNING_KEYS
	SECRET_KEY SECRET_KEYS ACCESS_TOKEN ACCESS_TOKENS REFRESH_TOKEN REFRESH_TOKENS`}

// sqlTokenTableName reports a table named for the tokens, keys or secrets it holds.
func sqlTokenTableName(t string) bool {
	parts := strings.Split(t, "_")
	if len(parts) < 2 {
		return false // one word: SECRETS, TOKENS are in sqlSecretStores; TOKEN alone is too vague
	}
	last := parts[len(parts)-1]
	if sqlTokenWords.has(last) {
		return true
	}
	return sqlKeyPairs.has(parts[len(parts)-2] + "_" + last)
}
