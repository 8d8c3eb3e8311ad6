package riskmodel

import (
	"fmt"
	"strings"
)

// MCP calls whose effect is on docs/policy.md's deny list by what they touch, named in the
// certainty table (certainty.go): emptying a whole store (Redis FLUSHALL/FLUSHDB, a queue
// purge, delete_all_documents, nuke) on anything but this machine; deleting a production
// backup, snapshot, vault, database or bucket; switching off a resource's deletion protection,
// audit logging, MFA or versioning; scheduling an encryption key's deletion; making storage
// readable by anyone. A deploy, restart, scale, migration, refund or flag change in production
// stays asked, with or without a reason (docs/policy.md: production changes).
//
// Sources: the Redis command reference (redis.io/docs/latest/commands/flushall, flushdb),
// RabbitMQ's and SQS's purge (rabbitmq.com/docs/queues, docs.aws.amazon.com/AWSSimpleQueueService
// PurgeQueue), the AWS APIs behind the AWS MCP servers (RDS ModifyDBInstance
// DeletionProtection, KMS ScheduleKeyDeletion, S3 PutBucketAcl canned ACLs and
// PutPublicAccessBlock), Cloud Storage's allUsers principal, Azure Blob's public access
// levels.

// mcpCompoundDestroyWords are tool-name words that glue a destroying verb to "all" or a store,
// as Redis names its commands (flushall, flushdb) and servers copy them (dropall, deleteall,
// wipedb): the verb table cannot see the verb inside them.
func mcpCompoundDestroyWords() []string {
	var out []string
	for _, v := range []string{"flush", "drop", "delete", "purge", "wipe", "truncate", "reset", "nuke", "erase", "destroy", "remove"} {
		for _, n := range []string{"all", "db", "dbs", "database", "databases", "everything"} {
			out = append(out, v+n)
		}
	}
	return out
}

// mcpWholeStoreWords empty a whole store at once, by their name alone.
var mcpWholeStoreWords = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{"nuke": true}
	for _, w := range mcpCompoundDestroyWords() {
		m[w] = true
	}
	return m
}}

// mcpRecordNouns are what a store holds: "delete all" of them empties it.
var mcpRecordNouns = &wordSet{words: "documents docs document rows records keys objects items entries data vectors points events " +
	"users customers orders files tables collections indices indexes messages jobs tasks"}

// mcpLocalEnvWords name an environment on this machine.
var mcpLocalEnvWords = &wordSet{words: "local localhost dev development test testing"}

// localTarget names what puts an MCP call on this machine (a loopback URL or host, a local
// environment), "" when nothing does.
func (c *mcpCtx) localTarget() string {
	for _, u := range c.urls {
		if u.local {
			return u.host
		}
	}
	for _, a := range c.args {
		if !a.str || a.depth != 1 {
			continue
		}
		v := strings.ToLower(strings.TrimSpace(a.val))
		if isLocalHost(v) || strings.Contains(v, "://") && loopbackURL(v) {
			return a.val
		}
		switch a.nkey {
		case "environment", "env", "stage", "target", "context":
			if mcpLocalEnvWords.has(v) {
				return a.val
			}
		}
	}
	return ""
}

// mcpDestroyCertain says why an MCP deletion is certain: it deletes a data store the policy
// names, empties one (flushall, purge, delete_all_documents, nuke) or deletes a wildcard;
// not when the call is aimed at this machine and nothing names production.
func mcpDestroyCertain(c *mcpCtx) string {
	if c.prodHint == "" && c.localTarget() != "" {
		return ""
	}
	if why := destroysDataStore(c); why != "" {
		return why
	}
	all, deletes, noun := false, false, ""
	for _, w := range c.toolWords {
		w = strings.ToLower(w)
		if mcpWholeStoreWords.get()[w] {
			return "it empties the whole store with " + w + " (docs/policy.md: bulk deleting production data)"
		}
		switch {
		case w == "all" || w == "everything":
			all = true
		case deleteWords.has(w) || w == "clear" || w == "truncate" || w == "flush":
			deletes = true
		case mcpRecordNouns.has(w):
			noun = w
		}
	}
	if all && deletes && noun != "" {
		return "it deletes all " + noun + " (docs/policy.md: bulk deleting production data)"
	}
	return ""
}

// mcpProtectedStores are what docs/policy.md names as deny-list deletions, with the audit
// and recovery machinery whose loss is the same: a trail, a detector, a key.
var mcpProtectedStores = &wordSet{words: "backup backups snapshot snapshots vault vaults database databases db bucket buckets " +
	"trail trails detector cluster clusters project projects namespace namespaces repository repositories keyring"}

// mcpReSQLPublic finds SQL that hands a table to everyone: a grant to Postgres's PUBLIC or
// Supabase's anon role (any visitor with the project's public key), or row-level security
// switched off.
var mcpReSQLPublic = lazyRegexp(`(?i)\bgrant\s+[^;]*\bto\s+(public|anon)\b|\bdisable\s+row\s+level\s+security\b|\bno\s+force\s+row\s+level\s+security\b`)

// mcpProtectionKeys are argument names (normalised) that keep a resource from deletion or
// keep a record of what happens to it; set false, they switch that off.
var mcpProtectionKeys = &wordSet{words: "deletionprotection deletionprotectionenabled terminationprotection enableterminationprotection " +
	"disableapitermination protection protected auditlogging auditlog logging enablelogging mfa mfadelete mfaenabled versioning " +
	"enablelogfilevalidation logfilevalidation encryption encrypted blockpublicacls blockpublicpolicy ignorepublicacls restrictpublicbuckets " +
	"flowlogs enableflowlogs ssl tls alwaysusehttps waf firewall"}

// mcpDenyListEffect says why an MCP production change is certainly on the deny list by what it
// touches, "" when it is a routine change.
func mcpDenyListEffect(c *mcpCtx) string {
	if c.hardDestroy() {
		for _, w := range c.toolWords {
			if w = strings.ToLower(w); mcpProtectedStores.has(w) {
				return "it deletes a " + w + " (docs/policy.md: deleting buckets, volumes, backups, namespaces, projects)"
			}
		}
	}
	for _, a := range c.args {
		if mcpProtectionKeys.has(a.nkey) && mcpFalsy(a.val) {
			return fmt.Sprintf("it sets %s to %s, switching a protection off (docs/policy.md: disabling security controls)", a.key, a.val)
		}
	}
	for _, a := range c.args {
		if a.str && mcpReSQLPublic().MatchString(a.val) {
			return "its SQL " + strings.TrimSpace(mcpReSQLPublic().FindString(a.val)) + " opens the data to anyone (docs/policy.md: disabling row-level security, sending data to hosts that are not the project's own)"
		}
	}
	if mcpAnyWord(append(append([]string{}, c.serverWords...), c.toolWords...), mcpWordSet("terraform tofu opentofu pulumi cdk terragrunt")) &&
		mcpAnyWord(c.toolWords, mcpWordSet("destroy")) {
		return "it destroys every resource the stack manages (docs/policy.md: deleting buckets, volumes, backups, namespaces, projects)"
	}
	key, gone := false, false
	for _, w := range c.toolWords {
		switch strings.ToLower(w) {
		case "key", "keys", "cmk":
			key = true
		case "deletion", "destroy", "disable", "delete":
			gone = true
		}
	}
	if key && gone && mcpAnyWord(c.serverWords, mcpWordSet("kms keyvault aws gcp azure cloud")) {
		return "it deletes or disables an encryption key, so nothing it protects can be read (docs/policy.md: destruction of data)"
	}
	return mcpPublicStorage(c)
}

func mcpFalsy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "false", "0", "off", "disabled", "no", "suspended":
		return true
	}
	return false
}

// mcpStorageWords name storage in a tool's name.
var mcpStorageWords = &wordSet{words: "bucket buckets acl acls blob blobs container containers storage object objects s3 gcs policy iam access"}

// mcpPublicACLs are canned ACLs and principals that mean everyone.
var mcpPublicACLs = &wordSet{words: "public-read public-read-write publicread publicreadwrite authenticated-read allusers allauthenticatedusers"}

// mcpPublicStorage says why an MCP call makes storage readable by anyone: a public canned ACL,
// the allUsers principal, a public access level, a public flag.
func mcpPublicStorage(c *mcpCtx) string {
	if !mcpAnyWord(c.toolWords, mcpStorageWords.get()) || c.act == mcpActRead {
		return ""
	}
	if mcpAnyWord(c.toolWords, mcpWordSet("public publicly")) && !mcpAnyWord(c.toolWords, mcpWordSet("private unpublic block")) {
		return "it makes storage public, readable by anyone (docs/policy.md: sending data to hosts that are not the project's own)"
	}
	if c.act < mcpActWrite {
		return ""
	}
	for _, a := range c.args {
		v := strings.ToLower(strings.TrimSpace(a.val))
		switch {
		case mcpPublicACLs.has(v):
			return "it grants " + a.val + " on storage, readable by anyone (docs/policy.md: sending data to hosts that are not the project's own)"
		case (a.nkey == "publicaccess" || a.nkey == "publicaccesslevel" || a.nkey == "accesslevel" || a.nkey == "visibility") && (v == "blob" || v == "container" || v == "public"):
			return "it sets " + a.key + " to " + a.val + ", readable by anyone (docs/policy.md: sending data to hosts that are not the project's own)"
		case (a.nkey == "public" || a.nkey == "ispublic" || a.nkey == "allowblobpublicaccess" || a.nkey == "publicread") && (v == "true" || v == "1"):
			return "it sets " + a.key + " to true, readable by anyone (docs/policy.md: sending data to hosts that are not the project's own)"
		}
	}
	return ""
}

func mcpStorageRules() []*Rule {
	return []*Rule{
		{ID: "mcp.storage-public", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Makes a bucket, container or object readable by anyone",
			mcp: func(c *mcpCtx) (string, bool) {
				why := mcpPublicStorage(c)
				if why == "" {
					return "", false
				}
				return c.call() + ", which " + strings.TrimPrefix(why, "it "), true
			}},
	}
}
