package riskmodel

import (
	"fmt"
	"strings"
)

// Database platforms' MCP servers hand out the database's credentials: Neon's
// get_connection_string returns a URL with the role's password, others have
// get_database_credentials, reveal_password, get_connection_uri. Read-only by annotation,
// the call puts a live password into the agent's context: credential access, as a secret
// manager's read is (mcp.secret-value-read). The owner's or an admin's password (neondb_owner,
// postgres, root, a superuser) opens every table and every grant, and is denied outright
// (policy: credentials "beyond what the task needs"); another role's is asked about.

// mcpDBCredVerb reports tool-name words that read or show.
func mcpDBCredVerb(w string) bool {
	switch w {
	case "get", "read", "show", "reveal", "fetch", "print", "retrieve", "list", "describe":
		return true
	}
	return false
}

// mcpDBOwnerRole reports role-name words of a database's owner or the server's administrator.
func mcpDBOwnerRole(w string) bool {
	switch w {
	case "owner", "admin", "administrator", "superuser", "root", "postgres", "sa", "master", "dbo", "rdsadmin", "cloudsqlsuperuser":
		return true
	}
	return false
}

// dbCredRead reports a call that returns a database credential, and whether it is the
// owner's or an administrator's.
func (c *mcpCtx) dbCredRead() (hit, owner bool) {
	name := strings.ToLower(strings.NewReplacer("_", "", "-", "", ".", "").Replace(c.tool))
	verb, obj := false, false
	for _, w := range c.toolWords {
		verb = verb || mcpDBCredVerb(w)
	}
	for _, o := range []string{"connectionstring", "connectionuri", "connectionurl", "credential", "password", "databaseurl", "dburl", "dsn"} {
		if strings.Contains(name, o) {
			obj = true
		}
	}
	if !obj || !verb && !strings.HasPrefix(name, "connection") {
		return false, false
	}
	for _, a := range c.args {
		if !a.str {
			continue
		}
		if a.nkey == "role" || a.nkey == "rolename" || a.nkey == "user" || a.nkey == "username" || a.nkey == "dbuser" {
			for _, w := range strings.FieldsFunc(strings.ToLower(a.val), func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
				if mcpDBOwnerRole(w) {
					owner = true
				}
			}
		}
	}
	return true, owner
}

// dbOwnerCredRead is the certainty condition of mcp.db-credential-read (certainty.go).
func dbOwnerCredRead(c *mcpCtx) string {
	if hit, owner := c.dbCredRead(); hit && owner {
		return "it reads the database owner's or an administrator's credentials (docs/policy.md: credentials beyond what the task needs)"
	}
	return ""
}

func mcpDBCredentialRules() []*Rule {
	return []*Rule{
		{ID: "mcp.db-credential-read", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			CertainWhen: "the credential is the database owner's or an administrator's",
			Message:     "Reads a database's credentials (a connection string with its password) into the agent's context",
			mcp: func(c *mcpCtx) (string, bool) {
				hit, owner := c.dbCredRead()
				if !hit {
					return "", false
				}
				if owner {
					c.certainty = certaintySure // policy: credentials beyond what the task needs
					return fmt.Sprintf("%s, which reads the database owner's or an administrator's credentials into the agent's context", c.call()), true
				}
				return fmt.Sprintf("%s, which reads a database credential into the agent's context%s", c.call(), c.prodSuffix()), true
			}},
	}
}
