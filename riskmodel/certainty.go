package riskmodel

import (
	"net"
	"strings"
)

// Certainty is decided by the class of a high finding's effect, in one table, not rule by
// rule as sets showed misses. docs/policy.md's rules floor: the rules deny outright when the
// effect is known and on the policy's deny list, and ask at high when something dangerous may
// be going on but the analysis cannot be sure. So every rule that can rate a request high
// says here which of three classes its matches belong to, with the line of the policy that
// puts it there:
//
//   - denyListed: the effect is known and on the deny list. Certain by default (denied);
//     the rule's check may still mark one match unsure where its evidence runs out.
//   - contextual: the effect is one of the policy's ask row (a production change with a
//     stated reason, one production secret for a debugging reason, a system install, a vendor
//     installer, a fork or extra index, a one-off TLS bypass, a message to an outside party,
//     a cache outside the workspace, discarding work, moving user data). Uncertain by default
//     (asked); a match the evidence puts on the deny list (a raw IP destination, every volume,
//     a reason that only looks) is certain, by the entry's condition or the rule's check.
//   - cannotFollow: code the analysis cannot follow, an unknown binary, an encoding or
//     indirection it cannot resolve. Uncertain (asked at high; no model may allow it).
//
// A rule that can rate high and is missing here fails the package tests, so a new rule must
// choose.

// certaintyClass is what docs/policy.md makes of a high finding's effect.
type certaintyClass int8

const (
	denyListed certaintyClass = iota + 1
	contextual
	cannotFollow
)

// String names the class as `rules list --json` shows it.
func (k certaintyClass) String() string {
	switch k {
	case denyListed:
		return "deny-list"
	case contextual:
		return "contextual"
	case cannotFollow:
		return "cannot-follow"
	}
	return ""
}

// certaintyEntry is one rule's row: its class, the policy line that justifies it, and
// optionally the condition under which a match of an uncertain class is certain after all
// (when says it in a few words for `rules list`; exec and mcp return why, "" when not).
type certaintyEntry struct {
	class  certaintyClass
	policy string
	when   string
	exec   func(c *execCtx, s *Segment) string
	mcp    func(c *mcpCtx) string
}

// The policy lines the table cites, quoted from docs/policy.md.
const (
	polDestroy   = "deny: destruction outside the workspace or of data the user never mentioned; deleting buckets, volumes, backups, namespaces, projects, repositories"
	polExfil     = "deny: sending secrets, credentials, customer data or source code to any host that is not the project's own"
	polCred      = "deny: reading credential stores without need"
	polPriv      = "deny: privilege escalation"
	polRemote    = "deny: running code fetched from the network or decoded from an encoding without review; typosquatted or homoglyph packages and domains"
	polTunnel    = "deny: reverse shells, bind shells, tunnels that expose local services or the machine"
	polPersist   = "deny: persistence (cron, systemd units, shell rc files, git hooks and git config keys that run programs, editor/tool startup files)"
	polControls  = "deny: disabling security controls, TLS verification globally, the agent's own approval or sandbox settings"
	polExhaust   = "deny: resource exhaustion; breaking the OS"
	polVCS       = "deny: force-pushing or pushing directly to a shared default branch; deleting repositories"
	polOpaque    = "rules floor: ask at high when the analysis cannot be sure (code it cannot follow, a binary it does not know)"
	polProd      = "ask: production or staging changes that come with a stated reason"
	polSecret    = "ask: reading one production secret for a stated debugging reason"
	polSystem    = "ask: sudo apt install and other system-level installs"
	polVendor    = "ask: vendor curl | sh installers from the vendor's own domain"
	polFork      = "ask: unofficial forks, extra package indexes"
	polTLSOnce   = "ask: a one-off TLS-verification bypass"
	polMessage   = "ask: messages to external parties (email, Slack outside the team, comments on others' repos)"
	polCache     = "ask: deleting caches or build dirs outside the workspace"
	polDiscard   = "ask: discarding uncommitted work; force-push to a feature branch"
	polMoveData  = "ask: moving or overwriting user data outside the workspace"
	polUserRules = "config: the user's own protected paths and rules"
)

// certaintyTable holds every id that can rate a request high: the built-in rules and the
// findings the front ends make themselves (an unparsable command, an unknown binary with
// risky arguments). Read-only once built.
var certaintyTable = table[map[string]certaintyEntry]{build: func() map[string]certaintyEntry {
	d := func(p string) certaintyEntry { return certaintyEntry{class: denyListed, policy: p} }
	a := func(p string) certaintyEntry { return certaintyEntry{class: contextual, policy: p} }
	o := certaintyEntry{class: cannotFollow, policy: polOpaque}
	t := map[string]certaintyEntry{
		// Findings of the front ends: what the analysis could not follow.
		"shell.cancelled": o, "shell.unparsable": o, "shell.analysis-failed": o, "shell.too-deep": o, "shell.too-complex": o,
		"cmd.unknown-risky": o, "policy.protected-read": a(polUserRules),
		"cat.sensitive-path": o,

		// shell
		"shell.decoded-exec": d(polRemote), "shell.env-code": d(polRemote),
		"shell.opaque-code": o, "shell.written-exec": o, "shell.dynamic-command": o, "shell.symlink-escape": o,

		// files
		"fs.rm.outside": {class: contextual, policy: polCache + "; " + polDestroy,
			when: "it searches home or / for files to delete, or deletes another project, the user's documents, a backup, the system's logs or a shell history",
			exec: certainOutsideDeletionOrLogs},
		"fs.rm.workspace-root": a(polDiscard),
		"fs.write.credential": {class: contextual, policy: polMoveData + "; " + polControls,
			when: "it links a shell history to /dev/null", exec: historyNulled},
		"fs.write.git-hook": a(polPersist),
		"fs.write.autorun":  {class: contextual, policy: polPersist, when: "an editor task runs by itself on opening the folder", exec: folderOpenTaskWrite},
		"fs.write.system": {class: contextual, policy: polSystem + "; " + polExhaust + "; " + polRemote,
			when: "it replaces a system library or a known system program, points a registry's or vendor's domain elsewhere in /etc/hosts, or overwrites the system's logs, a mailbox or a shell history",
			exec: systemWriteCertain},
		"fs.move-outside": a(polMoveData),
		"fs.truncate.outside": {class: contextual, policy: polMoveData + "; " + polControls,
			when: "it empties the system's logs, a container's logs or a shell history", exec: truncatedLogs},
		"mcp.fs-system-write":       a(polSystem),
		"mcp.fs-delete":             a(polDiscard),
		"mcp.fs-startup-file-write": d(polPersist),
		"mcp.fs-git-config-exec":    a(polPersist),
		"mcp.startup-content-write": {class: contextual, policy: polPersist, when: "an editor task runs by itself on opening the folder",
			mcp: folderOpenTaskContent},
		"mcp.hook-phones-home":    d(polPersist),
		"mcp.self-sandbox-widen":  d(polControls),
		"mcp.key-material-search": d(polCred),

		// version control
		"vcs.push.new-destination": a(polFork),
		"vcs.repo-control":         d(polControls),
		"vcs.push.force": {class: contextual, policy: polDiscard + "; " + polVCS,
			when: "it force-pushes every branch, or deletes every remote branch the repository lists", exec: forcePushEverything},
		"vcs.push.default-branch": d(polVCS),
		"vcs.history-destroy":     a(polDiscard),
		"vcs.config-exec": {class: contextual, policy: polPersist,
			when: "the program git is made to run fetches code, hides in a dot directory or runs in the background", exec: gitConfigRunsHidden},
		"vcs.config-insecure":       a(polTLSOnce),
		"vcs.gh-destructive":        a(polVCS),
		"vcs.url-reroute":           a(polExfil),
		"vcs.push-reroute":          a(polExfil),
		"mcp.merge":                 a(polProd),
		"mcp.default-branch-write":  a(polVCS),
		"mcp.force-push":            a(polDiscard),
		"mcp.merge-gate-off":        d(polControls),
		"mcp.branch-protection-off": d(polControls),
		"mcp.repo-exposure":         a(polExfil),

		// network
		"net.pipe-to-shell-vendor": a(polVendor),
		"net.upload":               a(polMessage + "; " + polExfil),
		"net.remote-shell":         a(polProd + "; " + polTunnel),
		"net.expose":               a(polTunnel),
		"net.bulk-delete-request":  a(polProd + "; " + polDestroy),
		"net.lookalike-host":       d(polRemote),
		"net.oast-callback":        d(polExfil), // r18_oast_exec.go
		"net.hub-data-upload":      d(polExfil), // r18_hubupload.go
		"mcp.lookalike-host":       d(polRemote),
		"net.tunnel":               d(polTunnel),
		"data.shared-remote-gc":    d(polDestroy),
		"net.personal-storage":     d(polExfil),
		"cloud.cross-account-copy": d(polExfil),
		"net.run-url":              d(polRemote),
		"mcp.upload-untrusted": {class: contextual, policy: polMessage + "; " + polExfil,
			when: "the destination is a raw public IP address, no project's own host", mcp: uploadToRawIP},
		"mcp.text-url-secret":            a(polExfil),
		"mcp.browser-url-secret":         a(polExfil),
		"mcp.browser-script-hidden-dest": a(polExfil),
		"mcp.browser-secret-typed":       d(polExfil),
		"mcp.public-share":               a(polExfil),
		"mcp.message-data-exfil":         a(polMessage + "; " + polExfil),
		"mcp.message-customer-data":      a(polMessage + "; " + polExfil),
		"mcp.message-data-out":           a(polMessage + "; " + polExfil),
		"mcp.secret-posted":              d(polExfil),
		"mcp.message-data-split":         d(polExfil),
		"mcp.outbound-data":              a(polMessage + "; " + polExfil),
		"mcp.identifiers-posted":         a(polMessage + "; " + polExfil),
		"mcp.url-carries-data":           d(polExfil),
		"mcp.elicit-credentials":         d(polCred),    // mcp_r17_rules.go
		"mcp.public-data-repo":           d(polExfil),   // mcp_r17_rules.go
		"mcp.ci-pr-target-secrets":       d(polRemote),  // mcp_r17_rules.go
		"mcp.upload-data-file":           d(polExfil),   // mcp_r18data_outbound.go
		"mcp.share-business-doc":         a(polExfil),   // mcp_r18data_outbound.go
		"mcp.public-folder-data":         d(polExfil),   // mcp_r18data_outbound.go
		"mcp.automation-sink":            d(polExfil),   // mcp_r18data_outbound.go
		"mcp.runfile-remote-code":        d(polRemote),  // r18files_runwrites.go
		"mcp.runfile-risky":              a(polDestroy), // mcp_r20_runfiles.go: the command's own delete is asked
		"pkg.compromised-version":        d(polRemote),  // r18files_compromised.go
		"mcp.sql-remote-reach":           a(polExfil),
		"mcp.sql-net-call":               a(polExfil),
		"mcp.remote-credential-path":     a(polCred),
		"mcp.secret-bulk-get":            d(polCred),
		"mcp.browser-confirm-typed":      d(polDestroy),
		"mcp.browser-key-page":           d(polCred),
		"mcp.load-flood":                 d(polExhaust),

		// mcp_r18obj_rules.go
		"mcp.business-admin-grant":   d(polPriv),
		"mcp.payee-bank-change":      d("deny: money redirected to a changed bank account (payment-diversion fraud); " + polProd + " (one at a time)"),
		"mcp.bulk-selector-delete":   d(polDestroy),
		"mcp.team-space-delete":      d(polDestroy),
		"mcp.read-credential-fields": d(polCred),
		"mcp.read-exhaustion":        d(polExhaust),
		"mcp.oast-callback":          d(polExfil),
		"mcp.lookalike-download":     d(polRemote),
		"mcp.apex-callout-records":   d(polExfil),

		// mcp_r20_readargs.go
		"mcp.search-delete":           d(polDestroy),
		"mcp.search-sendemail":        d(polExfil + "; " + polMessage + " (unsure unless the address is a personal mailbox)"),
		"mcp.search-script":           o,
		"mcp.security-index-read":     d(polCred),
		"mcp.stored-passwords-read":   d(polCred),
		"mcp.remote-credential-copy":  d(polCred),
		"mcp.platform-variables-read": d(polCred + " (bulk secret dumps)"),
		"mcp.credential-table-read":   d(polCred),
		"mcp.connection-secrets-read": d(polCred + " (bulk); " + polSecret + " (one connection: unsure)"),
		"mcp.script-secret-fields":    d(polCred),

		// credentials
		"cred.password-prompt": d(polCred),
		"cred.metadata":        d(polCred),
		"mcp.metadata-url":     d(polCred),
		"cred.local-service":   a(polProd),
		"mcp.local-service":    a(polProd),
		"cred.read":            d(polCred),
		"cred.hunt-dump":       d(polCred), // r13exec_hunt.go
		"cred.home-archive": {class: contextual, policy: polMoveData + "; " + polExfil, // r19atomic_host.go
			when: "the copy is piped to a program that sends it to another machine", exec: homeArchiveSent},
		"backup.destroy":             d(polDestroy), // r14exec_backup.go
		"vcs.push-secret":            d(polExfil),   // r14exec_gitsecret.go
		"vcs.commit-secret":          a(polExfil + " (committed, not yet pushed)"),
		"cred.workload-env-prod":     d(polCred), // r15exec_ctrenv.go: a whole production environment is a bulk read, not one secret
		"cred.workload-env":          a(polSecret + " (not production-named)"),
		"pkg.runner-lookalike-url":   d(polRemote), // r14exec_runner.go
		"pkg.runner-remote-url":      a(polRemote + " (a host whose owner is unknown)"),
		"net.customer-data-bucket":   d(polExfil), // r14exec_upload.go
		"cred.process-attach":        d(polCred + " (process memory)"),
		"mcp.credential-file-read":   a(polSecret + "; " + polCred),
		"cred.secret-store":          a(polSecret),
		"cred.cli-token":             a(polSecret),                  // r16allow_tokens.go: certain when printed bare
		"cred.workload-prod-secrets": a(polSecret + "; " + polCred), // r16allow_workload.go: certain for whole environments
		"cred.secret-var":            d(polCred),
		"cred.secret-hunt":           a(polCred),
		"cred.env-secrets":           d(polCred),
		"container.secret-read":      d(polCred),
		"cloud.security-off":         d(polControls), // r16sec_rules.go
		"cloud.data-shared-out":      d(polExfil),    // r16sec_rules.go
		"container.secrets": {class: contextual, policy: polProd + "; " + polCred,
			when: "the container's own command prints, copies or sends a file of the mounted credential store", exec: ctrCredentialReadOut},
		"db.sql-secret-read":  d(polCred),
		"mcp.sql-secret-read": d(polCred),
		"mcp.k8s-secret-read": a(polSecret),
		"mcp.secret-value-read": {class: contextual, policy: polSecret + "; deny: bulk secret dumps",
			when: "it reads a whole tree of secrets (recursive)", mcp: recursiveSecretRead},
		"mcp.db-credential-read": {class: contextual, policy: polSecret + "; " + polCred,
			when: "the credential is the database owner's or an administrator's", mcp: dbOwnerCredRead},
		"mcp.secret-in-args":              a(polProd),
		"mcp.password-entry":              a(polProd),
		"mcp.remote-env-dump":             d(polCred),
		"mcp.browser-script-session-read": a(polCred),
		"mcp.reviewer-directive-write":    d(polControls),
		"mcp.memory-approval-bypass":      d(polControls), // mcp_r14_memory.go
		"mcp.iac-destroy-applied":         d(polDestroy),  // mcp_r14_iacdestroy.go
		"mcp.secret-bulk-values":          d(polCred),     // mcp_r15_secrets.go
		"mcp.sql-audit-delete":            d(polControls), // mcp_r15_audit.go
		"mcp.sql-bulk-pii-read":           d(polExfil),    // mcp_r15_piiread.go
		"mcp.security-setting-off":        d(polControls), // r16sec_mcp.go
		"mcp.k8s-security-off":            d(polControls), // r16sec_mcp.go
		"mcp.data-shared-out":             d(polExfil),    // r16sec_mcp.go

		// system and privilege
		"sys.service":         a(polSystem + "; " + polProd),
		"sys.service-persist": d(polPersist),
		"sys.persistence":     d(polPersist),
		"sys.power":           a(polProd),
		"sys.break-os":        d(polExhaust),
		"sys.resource-hog":    {class: contextual, policy: polExhaust, when: "a stress test takes (nearly) all memory or runs without a time limit, or yes writes into a file without end", exec: stressUnbounded},
		"priv.sudo":           a(polSystem),
		"priv.perms-wide": {class: contextual, policy: polSystem + "; " + polPriv,
			when: "it makes a system location writable by every user", exec: worldWritableSystem},
		"container.privileged":    a(polPriv),
		"mcp.privileged-workload": d(polPriv),
		"mcp.sql-privilege":       a(polProd),
		"db.redis-file-write":     a(polPersist),

		// packages
		"pkg.registry-env": a(polFork), // r16allow_regenv.go
		"pkg.untrusted-source": {class: contextual, policy: polFork + "; " + polRemote,
			when: "the code comes from a raw public IP address or a look-alike of a registry, vendor or organisation host, or is fetched from a host or repository that is no vendor's own and run at once",
			exec: untrustedSourceCertain},
		"pkg.typosquat":         d(polRemote),
		"pkg.inline-index":      a(polFork), // pkg_inline.go
		"mcp.package-typosquat": d(polRemote),
		"pkg.system":            a(polSystem),
		"pkg.publish":           a(polProd),
		"pkg.run-package":       a(polFork),
		"pkg.insecure-config": {class: contextual, policy: polTLSOnce + "; " + polControls,
			when: "it turns TLS checks off for every future install of the user (not one project)", exec: globalTLSOff},

		// interpreters and scripts
		"interp.opaque":      o,
		"interp.tool-escape": o,
		"interp.script-prod": {class: contextual, policy: polProd,
			when: "the code deletes every row of a table, or the stated reason only looks at what the command changes", exec: scriptProdCertain},

		// cloud, production and services
		"cloud.change": {class: contextual, policy: polProd + "; " + polDestroy + "; " + polControls,
			when: "what it touches is on the deny list (cloud_denylist.go: audit logs, flow logs or detection switched off; backups, snapshots, vaults, buckets, databases, projects or clusters deleted; deletion protection, MFA or an encryption key removed; a firewall opened to the internet on an admin port; storage made public; an owner role granted), it grants a full-admin role, or the stated reason only looks (checks, verifies, formats) while the command changes production",
			exec: cloudChangeCertain},
		"cloud.control-off": d(polControls),
		"container.volume-delete": {class: contextual, policy: polCache + "; " + polDestroy,
			when: "it deletes every volume the engine lists, or volumes on another machine's engine", exec: everyOrRemoteVolume},
		"db.write-prod":       a(polProd),
		"mcp.k8s-bulk-delete": d(polDestroy),
		"mcp.payment": {class: contextual, policy: polProd,
			when: "the stated reason only looks (checks, verifies) while the call moves money",
			mcp:  func(c *mcpCtx) string { return reasonOnlyLooks(mcpStatedReason(c.req.Message)) }},
		"mcp.production-change": {class: contextual, policy: polProd,
			when: "it grants a full-admin role, switches a security control or a resource's deletion protection off, deletes a backup, snapshot, vault, database or bucket, deletes or disables an encryption key, makes storage public, or the stated reason only looks (checks, verifies) while the call changes production",
			mcp:  productionChangeCertain},
		"mcp.alerts-muted":                d(polControls),
		"mcp.sql-bulk-write":              a(polProd),
		"mcp.sql-schema-change":           a(polProd),
		"mcp.remote-exec":                 a(polProd),
		"mcp.browser-action-url":          a(polProd),
		"mcp.browser-destructive-click":   a(polProd),
		"mcp.browser-consequential-click": a(polProd),
		"mcp.destructive-hint":            a(polProd),
		"mcp.destroy-verb": {class: contextual, policy: polProd + "; " + polDestroy,
			when: "what it deletes is a data store the policy names (a bucket, volume, backup, snapshot, namespace, project, repository, database, table or index) or everything in one (flushall, purge, delete_all_documents, nuke, a wildcard), on anything but this machine",
			mcp:  mcpDestroyCertain},
		"mcp.storage-public": d(polExfil + "; " + polControls),

		// files read through SQL, JavaScript run in a browser page (sql_fileread.go, mcp_browserjs.go)
		"mcp.sql-file-read":                a(polCred + "; " + polMoveData),
		"mcp.browser-script-decoded-exec":  a(polRemote),
		"mcp.browser-script-remote-code":   a(polRemote),
		"mcp.browser-script-decoded-exfil": d(polExfil),
		// deny-list effects by what the arguments select (mcp_denylist_effects.go)
		"mcp.other-project-move":   d(polDestroy),
		"mcp.public-repo-copy":     d(polExfil),
		"mcp.port-forward-exposed": d(polTunnel),
		"mcp.wildcard-selector":    d(polDestroy),
		"mcp.runaway-scale":        d(polExhaust),
		"mcp.sql-bulk-user-delete": d(polDestroy),

		// rules_r10exec.go: deny-list effects through tools the other rules do not know
		"pkg.plugin-url": {class: contextual, policy: polRemote + "; " + polFork,
			when: "the code comes from a raw public IP address, a look-alike of a registry or vendor host, or a host that joins the tool's own name with another word", exec: strangerPluginSource},
		"cred.exfiltrate-host": {class: contextual, policy: polExfil,
			when: "the secret goes as data (piped in, read from a file option, in an operand) through a command that is no client of the project's own infrastructure", exec: exfilHostCertain},
		"secrets.store-off": {class: contextual, policy: polControls + "; " + polDestroy,
			when: "it switches an audit device off or deletes a whole secrets engine or KV mount", exec: vaultSecurityOff},
		"cred.decrypt-dump": {class: contextual, policy: polSecret + "; " + polCred,
			when: "the whole production file is printed into the transcript with no reason stated that names it", exec: prodSecretsPrinted},
		"vm.host-mount": {class: contextual, policy: polPriv,
			when: "the host's root or home directory is mounted writable", exec: writableHostMount},
		// deny-list effects stated by the arguments of any server (mcp_r10_args.go)
		"mcp.open-to-world":          d(polControls),
		"mcp.protection-off":         d(polControls),
		"mcp.whole-store-delete":     d(polDestroy),
		"mcp.os-process-kill":        d(polExhaust),
		"mcp.miner-workload":         d(polExhaust),
		"mcp.sql-export-out":         a(polExfil),
		"mcp.mail-forward-out":       a(polMessage + "; " + polExfil),
		"mcp.sink-other-project":     d(polExfil),
		"mcp.whole-store-shared-out": d(polExfil),
		"mcp.secret-to-search":       d(polExfil),
		// r16 resource classes (r16res_*.go)
		"cloud.runaway-capacity":    d(polExhaust),
		"cloud.dns-delete":          d(polDestroy),
		"cloud.datastore-replace":   d(polDestroy),
		"cloud.datastore-uninstall": d(polDestroy),
		"mcp.dns-delete":            d(polDestroy),
		"mcp.runaway-capacity":      d(polExhaust),
		"mcp.prod-host-removal":     d(polDestroy),
		// r17 exec classes (r17exec_*.go)
		"cred.iac-state-secrets": d(polCred + " (infrastructure state is a credential store; one named output is asked)"),
		"net.open-code-server":   d(polTunnel),
		"cloud.bulk-money-move":  d("deny: bulk production changes with no guard; " + polProd + " (one at a time)"),
		// r18 catalogue classes (r18cat_tools.go)
		"app.signing-nuke":           d(polDestroy + " (every signing certificate and profile of the team)"),
		"prod.store-theme-delete":    d(polDestroy),
		"prod.wp-remote-destroy":     d(polDestroy + "; " + polPriv + "; " + polControls),
		"net.load-flood":             d(polExhaust),
		"pkg.unity-untrusted-import": d(polRemote),
		// r20 exec classes (r20exec_rules.go)
		"container.socket-api":     {class: cannotFollow, policy: polPriv + " (the docker socket); " + polOpaque},
		"net.observability-delete": a(polProd + "; " + polDestroy),
		"vcs.merge-admin-bypass":   d(polControls + " (branch protection)"),
		"net.device-config-push":   a(polProd + "; " + polDestroy),
		"exec.malware-sample":      d(polRemote + " (a malware specimen run outside a sandbox)"),
		"fs.shred-people-data":     d(polDestroy),
		"net.jupyter-open-config":  d(polControls + "; " + polTunnel),
		"exec.exploit-remote":      {class: cannotFollow, policy: polOpaque + " (whether the target is the team's)"},
		// r20 catalogue classes (r20cat_ops.go): certain where production or the listed
		// effect is named, a high ask otherwise (the rule lowers its own certainty).
		"ops.data-destroy":   d(polDestroy + " (dropping, truncating or bulk deleting production data; a data store deleted)"),
		"ops.admin-grant":    d(polPriv + " (an administrator's power over a shared system)"),
		"ops.prod-stop":      d(polDestroy + " (a production service stopped or removed)"),
		"cred.racf-database": d(polCred + " (the RACF database holds every user's password hashes)"),
		"net.attack-outside": d("deny: attacking systems that are not the user's own (brute force, internet scans, SQL-injection dumps)"),
	}
	return t
}}

// certaintyOf is a rule's row, and whether it has one.
func certaintyOf(id string) (certaintyEntry, bool) {
	e, ok := certaintyTable.get()[id]
	return e, ok
}

// withCertainty gives every rule the table lists its certainty, once, when the rules are
// built: certain when its class is denyListed; and wraps the checks of rows with a condition,
// so a match that meets it is certain and says why. A rule missing from the table keeps what
// its definition says (the package tests fail on it).
func withCertainty(rules []*Rule) {
	for _, r := range rules {
		e, ok := certaintyOf(r.ID)
		if !ok {
			continue
		}
		r.Certain = e.class == denyListed
		r.CertaintyClass, r.CertaintyPolicy = e.class.String(), e.policy
		if e.when == "" {
			continue
		}
		if r.CertainWhen != "" {
			r.CertainWhen += "; or when " + e.when
		} else {
			r.CertainWhen = e.when
		}
		msgOf := func(msg, def, why string) string {
			if msg == "" {
				msg = def
			}
			return strings.TrimSuffix(msg, ".") + "; " + why
		}
		def := r.Message
		if inner, cond := r.exec, e.exec; inner != nil && cond != nil {
			r.exec = func(c *execCtx, s *Segment) (string, bool) {
				msg, ok := inner(c, s)
				if !ok {
					return msg, ok
				}
				if why := cond(c, s); why != "" {
					c.certainty = certaintySure
					msg = msgOf(msg, def, why)
				}
				return msg, ok
			}
		}
		if inner, cond := r.mcp, e.mcp; inner != nil && cond != nil {
			r.mcp = func(c *mcpCtx) (string, bool) {
				msg, ok := inner(c)
				if !ok {
					return msg, ok
				}
				if why := cond(c); why != "" {
					c.certainty = certaintySure
					msg = msgOf(msg, def, why)
				}
				return msg, ok
			}
		}
	}
}

// folderOpenTaskWrite reports an editor task, written by a shell command, that runs by itself
// when the folder is opened.
func folderOpenTaskWrite(c *execCtx, s *Segment) string {
	body := s.Stdin + " " + strings.Join(s.Args, " ")
	if s.PipeIn != nil {
		body += " " + s.PipeIn.Stdin + " " + strings.Join(s.PipeIn.Args, " ")
	}
	if !mcpReFolderOpenTask.MatchString(body) {
		return ""
	}
	for _, t := range writeTargets(c, s) {
		if _, ok := mcpEditorStartupFile(orStr(t.abs, t.arg)); ok {
			return "the task runs unattended every time the folder is opened (docs/policy.md: editor startup files)"
		}
	}
	return ""
}

// folderOpenTaskContent is folderOpenTaskWrite for an MCP write.
func folderOpenTaskContent(c *mcpCtx) string {
	for _, a := range c.args {
		if a.str && mcpReFolderOpenTask.MatchString(a.val) {
			return "the task runs unattended every time the folder is opened (docs/policy.md: editor startup files)"
		}
	}
	return ""
}

func scriptProdCertain(c *execCtx, s *Segment) string {
	if w := bulkDeleteCode(strings.Join(s.Args[1:], " ")); w != "" {
		return "it deletes every row with " + w + " (docs/policy.md: bulk deleting production tables)"
	}
	if !changesByItsWords(s) {
		return ""
	}
	return reasonOnlyLooks(c.req.Justification)
}

func cloudChangeCertain(c *execCtx, s *Segment) string {
	if why := cloudDenyListed(s); why != "" {
		return "it runs " + why + " (docs/policy.md deny list)"
	}
	if why := cloudGrantsAdmin(s); why != "" {
		return why
	}
	if !changesByItsWords(s) {
		return ""
	}
	return reasonOnlyLooks(c.req.Justification)
}

func productionChangeCertain(c *mcpCtx) string {
	if why := mcpAdminOrControlOff(c); why != "" {
		return why
	}
	if why := mcpDenyListEffect(c); why != "" {
		return why
	}
	return reasonOnlyLooks(mcpStatedReason(c.req.Message))
}

// uploadToRawIP reports an MCP call that sends data to a raw public IP address: no vendor's
// or project's host has only a number (docs/policy.md: raw IPs).
func uploadToRawIP(c *mcpCtx) string {
	for _, u := range c.urls {
		if u.local || u.trust {
			continue
		}
		h := u.host
		if hh, _, err := net.SplitHostPort(h); err == nil {
			h = hh
		}
		if ip := net.ParseIP(strings.Trim(h, "[]")); ip != nil && publicIP(ip) {
			return "the data goes to the raw IP address " + ip.String() + ", no project's own host (docs/policy.md: raw IPs)"
		}
	}
	return ""
}

func publicIP(ip net.IP) bool {
	return !ip.IsPrivate() && !ip.IsLoopback() && !ip.IsLinkLocalUnicast() && !ip.IsUnspecified()
}

// recursiveSecretRead reports a secret-manager read of a whole tree (recursive: true).
func recursiveSecretRead(c *mcpCtx) string {
	if c.truthy("recursive") || c.truthy("recurse") {
		return "it reads every secret under the path (docs/policy.md: bulk secret dumps)"
	}
	return ""
}

// everyOrRemoteVolume reports a volume deletion whose names come from the engine's own list
// of volumes (docker volume rm $(docker volume ls -q), … | xargs docker volume rm), which
// deletes every volume on the machine, other projects' data included; or one aimed at
// another machine's engine (-H, --host, DOCKER_HOST=ssh://…), which is not the workspace's.
func everyOrRemoteVolume(c *execCtx, s *Segment) string {
	if v, ok := optValue(s.Args[1:], "-H", "--host"); ok && remoteEngine(v) {
		return "it deletes volumes on the engine at " + v + ", another machine (docs/policy.md: deleting volumes)"
	}
	for _, a := range c.req.Command {
		if i := strings.Index(a, "DOCKER_HOST="); i >= 0 {
			if v := strings.Fields(a[i+len("DOCKER_HOST="):]); len(v) > 0 && remoteEngine(v[0]) {
				return "it deletes volumes on the engine at " + strings.Trim(v[0], `"'`) + ", another machine (docs/policy.md: deleting volumes)"
			}
		}
	}
	if why := pruneEveryVolume(s); why != "" {
		return why
	}
	chosen := s.Dynamic || strings.Contains(s.Text, "$(") || strings.Contains(s.Text, "`") || viaXargs(s)
	if !chosen {
		return ""
	}
	for _, o := range c.segs {
		if n := o.Name(); (n == "docker" || n == "podman") && o != s {
			if j := " " + strings.Join(o.Args, " ") + " "; strings.Contains(j, " volume ls ") || strings.Contains(j, " volume list ") {
				return "it deletes every volume the engine lists, other projects' data included (docs/policy.md: deleting volumes)"
			}
		}
	}
	return ""
}

// remoteEngine reports a container engine address on another machine: a URL that is neither
// a local socket nor this machine.
func remoteEngine(v string) bool {
	v = strings.Trim(v, `"'`)
	return strings.Contains(v, "://") && !strings.HasPrefix(v, "unix://") && !strings.HasPrefix(v, "npipe://") && !loopbackURL(v)
}

// dataStoreNouns are what docs/policy.md names as deny-list deletions: stores of data, and the
// containers of many (a namespace, a project, a repository).
var dataStoreNouns = &wordSet{words: "bucket buckets volume volumes backup backups snapshot snapshots namespace namespaces project projects repository repositories repo repos database databases db table tables index indices indexes keyspace collection collections"}

// flushWords empty a whole store at once.
var flushWords = &wordSet{words: "flushall flushdb purge wipe truncate"}

// destroysDataStore reports an MCP deletion whose tool names a data store the policy lists
// (delete_bucket, delete_index, drop_database) or empties a whole store (flushall), or whose
// target is a wildcard (customer-events-*): the whole thing, not one record.
func destroysDataStore(c *mcpCtx) string {
	deletes := false
	for _, w := range c.toolWords {
		deletes = deletes || deleteWords.has(strings.ToLower(w))
	}
	if n := len(c.toolWords); n > 0 && deletes {
		if w := strings.ToLower(c.toolWords[n-1]); dataStoreNouns.has(w) {
			return "it deletes a " + w + " (docs/policy.md: deleting buckets, volumes, backups, namespaces, projects, repositories; dropping tables)"
		}
	}
	for _, w := range c.toolWords {
		if w = strings.ToLower(w); flushWords.has(w) {
			return "it empties the whole store with " + w + " (docs/policy.md: bulk deleting production data)"
		}
	}
	for _, a := range c.args {
		if a.str && a.depth == 1 && strings.HasSuffix(strings.TrimSpace(a.val), "*") && len(strings.TrimSpace(a.val)) > 1 {
			return "it deletes everything matching " + capText(a.val) + " (docs/policy.md: bulk deletion)"
		}
	}
	return ""
}
