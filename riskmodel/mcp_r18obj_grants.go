package riskmodel

import (
	"fmt"
	"regexp"
	"strings"
)

// Admin grants in business systems. A call that makes a user, staff member or role assignment
// an administrator of a CRM, CMS, shop, workspace or identity provider hands that account
// every other account's data and settings: privilege escalation on docs/policy.md's deny list.
// Sources: Salesforce User.ProfileId and PermissionSetAssignment (System Administrator),
// WordPress REST users `roles: ["administrator"]` and WP-CLI `wp user create --role`, Shopify
// staff permissions ("full"), HubSpot users `superAdmin`, Google Admin SDK roleAssignments
// (_SEED_ADMIN_ROLE, SUPER_ADMIN), Okta role types (SUPER_ADMIN, ORG_ADMIN) and Entra directory
// roles (Global Administrator, 62e90394-69f5-4237-9190-012177145e10).

// r18RoleKeys are the argument keys that carry a role, profile or permission level.
var r18RoleKeys = wordSet{words: `role roles rolename roleid roletype roledefinitionid roledefinitionname roletemplateid
	profile profileid profilename permissionset permissionsetid permissionsetname permissionsets accesslevel
	usertype userrole userroles adminrole adminroles memberrole permission permissions permissionlevel privilege
	privileges group groups groupname accountrole orgrole workspacerole teamrole type`}

// r18AdminFlags are boolean keys that make an account an administrator when true.
var r18AdminFlags = wordSet{words: `isadmin admin superadmin issuperadmin siteadmin issiteadmin isorgadmin orgadmin
	isowner accountowner isaccountowner globaladmin isglobaladmin fullaccess`}

// r18AdminValue matches a role value that is an administrator role. Bare "all", "full" and
// "*" count only under permission keys (Shopify staff permissions), not as role names.
var r18AdminValue = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:[\w .:/-]*?[\s_:./-])?(?:super[\s_-]?admin(?:istrator)?|global[\s_-]?admin(?:istrator)?|` +
		`system[\s_-]?admin(?:istrator)?|sys[\s_-]?adm\w*|administrators?|admins?|org(?:anization)?[\s_-]?admin(?:istrator)?|` +
		`company[\s_-]?admin|account[\s_-]?owner|site[\s_-]?owner|workspace[\s_-]?(?:admin|owner)|_?seed[\s_-]?admin[\s_-]?role|` +
		`privileged[\s_-]?role[\s_-]?admin(?:istrator)?|62e90394-69f5-4237-9190-012177145e10)(?:[\s_:./-][\w .:/-]*)?$`)
}}

// r18AdminInID matches an administrator profile's name run into an id or API name
// (00eXX0000000SysAdm, System_Administrator).
var r18AdminInID = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(?i)sys_?adm|system_?administrator|super_?admin`) }}

// r18SubjectWords are tool or object words for the accounts and assignments a grant changes.
var r18SubjectWords = wordSet{words: `user users staff member members account accounts admin admins role roles
	assignment assignments roleassignment roleassignments permission permissions permissionset
	permissionsetassignment profile profiles principal principals employee employees collaborator
	collaborators seat seats invite invitation dml records record`}

// r18AdminGrant names an administrator role granted through a write call.
func (c *mcpCtx) r18AdminGrant() string {
	if c.act == mcpActRead || c.act == mcpActDestroy || c.browser || c.fsTool || c.shellish {
		return ""
	}
	words := append(append([]string{}, c.toolWords...), c.objWords...)
	for _, a := range c.args {
		if a.nkey == "objectname" || a.nkey == "objecttype" || a.nkey == "sobject" || a.nkey == "resource" {
			words = append(words, mcpSplitWords(a.val)...)
		}
	}
	if !mcpAnyWord(words, r18SubjectWords.get()) {
		return ""
	}
	for _, a := range c.args {
		switch {
		case r18AdminFlags.has(a.nkey) && !a.str && a.val == "true":
			return fmt.Sprintf("sets %s to true: the account becomes an administrator of the whole system", a.key)
		case r18RoleKeys.has(a.nkey) && a.str && (r18AdminValue.get().MatchString(strings.TrimSpace(a.val)) || r18AdminInID.get().MatchString(a.val)):
			return fmt.Sprintf("sets %s to %q: the account becomes an administrator of the whole system", a.key, mcpCleanText(a.val, 60))
		case (a.nkey == "permissions" || a.nkey == "permission" || a.nkey == "accesslevel" || a.nkey == "scopes") && a.str &&
			mcpWordSet("full all * fullaccess full_access")[strings.ToLower(strings.TrimSpace(a.val))]:
			return fmt.Sprintf("grants %s %q: every permission of the system", a.key, mcpCleanText(a.val, 30))
		}
	}
	return ""
}
