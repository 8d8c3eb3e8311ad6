package riskmodel

import (
	"fmt"
	"regexp"
	"strings"
)

// Deny-list effects that an MCP call's ARGUMENTS state, whatever server or tool name carries
// them: the verb table rates an unfamiliar server's call as an ordinary write or delete
// (mcp.write-verb, mcp.destroy-verb), but the arguments say what the effect is.
//
//   - opening an access list, firewall, security group, bucket policy or database network
//     access to every address or principal (0.0.0.0/0, ::/0, the 0.0.0.0–255.255.255.255
//     range, Principal "*" in an Allow statement with no condition, allUsers,
//     allAuthenticatedUsers, a public-read canned ACL): docs/policy.md "disabling security
//     controls: firewall", and the same vocabulary cloud_denylist.go reads from CLI flags;
//   - switching paging, audit logging, a WAF or firewall rule, security scanning, threat
//     detection, backups or deletion protection off (enabled:false, status "disabled",
//     isLogging:false, paused or muted, a backup retention of 0), or deleting one of them:
//     "disabling security controls … cloud audit logging". A monitor or alert rule switched
//     off is high but asked unless it is named as a security detector: one monitor is a
//     production change a human may want (a flapping alert), a whole paging service is not;
//   - a whole store deleted (a secrets engine or KV mount, a message topic or stream, a
//     wiki space, a keyspace, a virtual host): "deleting buckets, volumes, backups,
//     namespaces, projects" and "dropping … production tables", the same effect one level up;
//   - killing PID 1 or the init system: "breaking the OS (kill -9 1)".
//
// Sources: AWS EC2 AuthorizeSecurityGroupIngress (IpRanges CidrIp), GCP Compute firewalls
// (sourceRanges), Azure SQL firewall rules (0.0.0.0–255.255.255.255), MongoDB Atlas project
// IP access lists, Supabase network restrictions (dbAllowedCidrs), S3 bucket policies
// (Principal, Effect, Condition), Cloud Storage IAM members allUsers/allAuthenticatedUsers;
// PagerDuty REST API services (status active/warning/critical/maintenance/disabled),
// Opsgenie integrations (enabled), Grafana alerting provisioning (isPaused), Datadog monitors
// (options.silenced), New Relic alert policies, CloudTrail StopLogging/UpdateTrail,
// GitHub code-scanning default setup (state not-configured), secret scanning and Dependabot
// security settings, AWS WAF/Cloudflare WAF rule modes, RDS BackupRetentionPeriod;
// Vault sys/mounts (DELETE unmounts and destroys the engine's data), Kafka DeleteTopics,
// Confluence delete space, Cassandra DROP KEYSPACE, RabbitMQ vhost deletion.

// ---------------------------------------------------------------------------------------------
// Opening to everyone.

// r10WorldCIDRs are address ranges that mean every address.
var r10WorldCIDRs = &wordSet{words: `0.0.0.0/0 ::/0 0::0/0`}

// r10WorldPrincipals are principals that mean everyone (GCP IAM members, AWS grantees).
var r10WorldPrincipals = &wordSet{words: `allusers allauthenticatedusers authenticatedusers everyone anyone
	http://acs.amazonaws.com/groups/global/allusers http://acs.amazonaws.com/groups/global/authenticatedusers`}

// r10AddressKeyWords mark a key that holds a source address or range, by its words
// (cidrBlocks, sourceRanges, dbAllowedCidrs, ipAddress); r10AddressKeys are such keys
// written as one word.
var (
	r10AddressKeyWords = &wordSet{words: `cidr cidrs ip ips ipv4 ipv6 source sources range ranges address addresses whitelist allowlist
	network networks`}
	r10AddressKeys = &wordSet{words: `cidrip cidrblock cidrblocks sourceip sourceips ipaddress ipaddresses iprange ipranges sourcerange
	sourceranges sourceaddressprefix sourceaddressprefixes allowedips allowedcidrs ipallowlist ipwhitelist`}
)

// r10AddressKey reports a key that holds a source address or range.
func r10AddressKey(key string) bool {
	return r10AddressKeys.has(mcpNormKey(key)) || mcpAnyWord(mcpSplitWords(key), r10AddressKeyWords.get())
}

// r10NotInboundWords mark a key or tool about outbound traffic, routing, or an exclusion:
// 0.0.0.0/0 there is the default route or a block, not an opening.
var r10NotInboundWords = &wordSet{words: `destination destinations egress outbound route routes routing exclude excluded excludes except
	deny denied blocked blocklist blacklist nexthop gateway`}

// r10ClosingWords are tool words that remove or restrict access.
var r10ClosingWords = &wordSet{words: `revoke remove delete deny block restrict close disable detach unassign`}

// openToWorld says why a write opens access to every address or principal, "" when it does not.
func openToWorld(c *mcpCtx) string {
	if c.act < mcpActWrite || c.act == mcpActDestroy || mcpAnyWord(c.toolWords, r10ClosingWords.get()) ||
		mcpAnyWord(c.toolWords, r10NotInboundWords.get()) {
		return ""
	}
	startAll, endAll := "", false
	for _, a := range c.args {
		if !a.str && a.val != "*" {
			continue
		}
		v := strings.ToLower(strings.TrimSpace(a.val))
		if !r10WorldCIDRs.has(v) && v != "0.0.0.0" && v != "255.255.255.255" && v != "*" && !r10WorldPrincipals.has(v) {
			continue // the common case: no value that means everyone
		}
		p := strings.ToLower(a.path)
		if mcpAnyWord(mcpSplitWords(a.path), r10NotInboundWords.get()) || c.deniedBySibling(a.path) {
			continue
		}
		switch {
		case r10WorldCIDRs.has(v):
			return fmt.Sprintf("it allows %s=%s: every address on the internet (docs/policy.md: disabling security controls: firewall)", a.key, a.val)
		case v == "0.0.0.0" && (strings.Contains(a.nkey, "start") || strings.Contains(a.nkey, "from") || strings.Contains(a.nkey, "first")):
			startAll = a.key
		case v == "255.255.255.255" && (strings.Contains(a.nkey, "end") || strings.HasPrefix(a.nkey, "to") || strings.Contains(a.nkey, "last")):
			endAll = true
		case v == "*" && strings.Contains(p, "principal") && c.allowStatementWithoutCondition(a.path):
			return fmt.Sprintf("it grants Principal \"*\" (%s) with no condition: anyone on the internet (docs/policy.md: disabling security controls; sending data to hosts that are not the project's own)", a.path)
		case r10WorldPrincipals.has(v) && (strings.Contains(p, "member") || strings.Contains(p, "principal") || strings.Contains(p, "grantee") ||
			strings.Contains(p, "entity") || strings.Contains(p, "identity") || strings.Contains(p, "uri") || strings.Contains(p, "binding")):
			return fmt.Sprintf("it grants access to %s: anyone on the internet (docs/policy.md: disabling security controls; sending data to hosts that are not the project's own)", a.val)
		case v == "*" && r10AddressKey(a.key) && !strings.Contains(a.nkey, "port"):
			return fmt.Sprintf("it allows %s=*: every address (docs/policy.md: disabling security controls: firewall)", a.key)
		}
	}
	if startAll != "" && endAll {
		return "it allows the range 0.0.0.0–255.255.255.255: every address on the internet (docs/policy.md: disabling security controls: firewall)"
	}
	return ""
}

// onlyWebPorts names the ports of a rule when every one it opens is a web port (80, 443,
// 8080, 8443): a public web server's rule, not an administration or data port
// (cloud_denylist.go's adminPorts); "" when no port is named or one is not a web port.
func (c *mcpCtx) onlyWebPorts() string {
	var ports []string
	for _, a := range c.args {
		if !strings.Contains(a.nkey, "port") {
			continue
		}
		for _, f := range strings.FieldsFunc(a.val, func(r rune) bool { return r == ',' || r == ' ' || r == '[' || r == ']' || r == '"' }) {
			ports = append(ports, f)
		}
	}
	if len(ports) == 0 {
		return ""
	}
	for _, p := range ports {
		switch p {
		case "80", "443", "8080", "8443":
		default:
			return ""
		}
	}
	return "port " + strings.Join(ports, ", ")
}

// r10DenyActions are rule actions that drop traffic: a rule with one blocks every address
// rather than letting it in (network ACL, NSG and WAF rules).
var r10DenyActions = &wordSet{words: `deny drop reject block blocked`}

// deniedBySibling reports that the object holding the argument at p is a rule whose action,
// access or effect denies (a network ACL entry denying 0.0.0.0/0).
func (c *mcpCtx) deniedBySibling(p string) bool {
	denies := func(a mcpArg) bool {
		switch a.nkey {
		case "action", "ruleaction", "access", "effect", "type", "mode", "policy":
			return r10DenyActions.has(strings.ToLower(strings.TrimSpace(a.val)))
		}
		return false
	}
	parent := p
	for {
		i := strings.LastIndexAny(parent, ".[")
		if i <= 0 {
			break
		}
		parent = parent[:i]
		for _, a := range c.args {
			if strings.HasPrefix(a.path, parent+".") && !strings.ContainsAny(a.path[len(parent)+1:], ".[") && denies(a) {
				return true
			}
		}
	}
	for _, a := range c.args {
		if a.depth == 1 && denies(a) {
			return true
		}
	}
	return false
}

// allowStatementWithoutCondition reports that the policy statement holding the argument at
// path is an Allow with no Condition: a Deny of "*" (deny insecure transport) and a "*"
// narrowed to an organisation or VPC by a condition are not openings.
func (c *mcpCtx) allowStatementWithoutCondition(p string) bool {
	i := strings.Index(strings.ToLower(p), "principal")
	if i < 0 {
		return false
	}
	stmt := p[:i]
	effect := ""
	for _, a := range c.args {
		if !strings.HasPrefix(a.path, stmt) {
			continue
		}
		rest := strings.ToLower(a.path[len(stmt):])
		switch {
		case rest == "effect":
			effect = strings.ToLower(strings.TrimSpace(a.val))
		case strings.HasPrefix(rest, "condition"):
			return false
		}
	}
	return effect == "allow"
}

// ---------------------------------------------------------------------------------------------
// Switching protection off.

// r10Protections are what the policy calls security controls, by the words a tool, a
// server or an argument names them with, and what each is called in a message.
var r10Protections = []struct {
	words *wordSet
	what  string
	sure  bool // on the deny list whatever is switched off; false: a monitor, asked at high
	// deleteSure: deleting one is on the deny list too (an audit trail, a detector, a backup);
	// false where a deletion may as well close as open (a firewall rule) or removes a result
	// rather than the control (a scan).
	deleteSure bool
}{
	{&wordSet{words: `pagerduty opsgenie oncall escalation escalations incidentio firehydrant splunkoncall victorops squadcast`}, "paging (who is woken for an incident)", true, true},
	{&wordSet{words: `audit audits auditlog auditlogs trail trails cloudtrail activitylog logging flowlog flowlogs recorder`}, "audit logging", true, true},
	{&wordSet{words: `guardduty securityhub defender detector detectors detection detections macie inspector sentinel falco crowdstrike`}, "threat detection", true, true},
	{&wordSet{words: `waf firewall firewalls`}, "a firewall or WAF rule", true, false},
	{&wordSet{words: `scanning scan scanner codeql dependabot secretscanning codescanning pushprotection vulnerability vulnerabilities advancedsecurity`}, "security scanning", true, false},
	{&wordSet{words: `backup backups pitr retention`}, "backups", true, true},
	{&wordSet{words: `protection protections ruleset rulesets deletionprotection terminationprotection`}, "a protection (branch, deletion or termination protection)", true, true},
	{&wordSet{words: `monitor monitors alert alerts alerting alarm alarms alertrule alertrules alertpolicy uptime synthetic synthetics healthcheck heartbeat heartbeats notification notifications splunk sumologic savedsearch savedsearches`}, "monitoring and alerting", false, false},
}

// r10OffVerbs switch something off by their name.
var r10OffVerbs = &wordSet{words: `disable deactivate pause mute silence suspend unsubscribe turnoff`}

// r10OnKeys hold whether a thing is on; r10OffKeys whether it is off; r10StateKeys its state.
var (
	r10OnKeys    = &wordSet{words: `enabled enable isenabled active isactive islogging logging on status_enabled alerting notify notifications`}
	r10OffKeys   = &wordSet{words: `disabled isdisabled paused ispaused muted ismuted silenced issilenced suspended`}
	r10StateKeys = &wordSet{words: `status state mode action enforcement enforcementmode`}
	r10OffStates = &wordSet{words: `disabled disable off inactive paused pause muted mute silenced suspended notconfigured not-configured not_configured none log count detectiononly detection_only monitor-only`}
)

// r10IdentityKeys name the object a call acts on.
var r10IdentityKeys = &wordSet{words: `id name uid workflow workflowid workflowname rule ruleid rulename monitor monitorid policy policyid
	service serviceid integration integrationid check checkid job jobid`}

// r10RetentionKeys hold how long backups are kept; 0 keeps none.
var r10RetentionKeys = &wordSet{words: `backupretentionperiod backupretentiondays backupretention retentiondays retentionperiod pitrretentiondays`}

// r10ProtectionOf names what a call's tool, server and argument paths say it controls, and
// whether switching it off is on the deny list for certain: the tool's and server's words
// first, then those of the arguments' paths ({"secret_scanning": {"status": "disabled"}}).
func r10ProtectionOf(c *mcpCtx) (what string, sure, deleteSure, ok bool) {
	if what, sure, deleteSure, ok = r10ProtectionIn(c.toolWords); ok {
		return what, sure, deleteSure, ok
	}
	if what, sure, deleteSure, ok = r10ProtectionIn(c.serverWords); ok {
		return what, sure, deleteSure, ok
	}
	for _, a := range c.args {
		if a.depth > 1 && (r10OnKeys.has(a.nkey) || r10OffKeys.has(a.nkey) || r10StateKeys.has(a.nkey)) {
			if what, sure, _, ok = r10ProtectionIn(mcpSplitWords(a.path)); ok {
				return what, sure, false, ok
			}
		}
	}
	// The thing switched off named by its id or name ({"workflow_id": "codeql.yml"} to a
	// disable_workflow tool).
	for _, a := range c.args {
		if a.depth == 1 && a.str && len(a.val) <= 80 && r10IdentityKeys.has(a.nkey) {
			if what, sure, _, ok = r10ProtectionIn(mcpSplitWords(a.val)); ok {
				return what, sure, false, ok
			}
		}
	}
	return "", false, false, false
}

// r10ProtectionIn names the protection words name.
func r10ProtectionIn(words []string) (what string, sure, deleteSure, ok bool) {
	for _, p := range r10Protections {
		if mcpAnyWord(words, p.words.get()) {
			return p.what, p.sure, p.deleteSure, true
		}
	}
	return "", false, false, false
}

// protectionOff says why a call switches a protection off or deletes one, and whether that
// is certain.
func protectionOff(c *mcpCtx) (string, bool) {
	if c.act < mcpActWrite || c.shell != nil || len(c.sql) > 0 {
		return "", false
	}
	if mcpAnyWord(c.toolWords, mcpWordSet("incident incidents occurrence occurrences")) {
		return "", false // acting on one incident (acknowledge, snooze, resolve) is on-call work
	}
	what, sure, deleteSure, ok := r10ProtectionOf(c)
	if !ok {
		// A backup retention of 0 switches backups off whatever the call is named
		// (RDS ModifyDBInstance, a managed database's settings).
		for _, a := range c.args {
			if r10RetentionKeys.has(a.nkey) && strings.TrimSpace(a.val) == "0" {
				return fmt.Sprintf("it sets %s to 0, switching backups off (docs/policy.md: disabling security controls; deleting backups)", a.key), true
			}
		}
		return "", false
	}
	how := ""
	switch {
	case c.act == mcpActDestroy && c.hardDestroy():
		how, sure = "deletes "+what, deleteSure
	case mcpAnyWord(c.toolWords, r10OffVerbs.get()):
		how = "switches " + what + " off (" + mcpFirstWord(c.toolWords, r10OffVerbs.get()) + ")"
	case mcpContains(c.toolWords, "stop") && mcpAnyWord(c.toolWords, mcpWordSet("logging trail recorder auditing")):
		how = "stops " + what // CloudTrail StopLogging, Config StopConfigurationRecorder
	case mcpAnyWord(c.toolWords, mcpWordSet("create new add insert")):
		// a new rule or monitor created disabled switches nothing off
	default:
		for _, a := range c.args {
			v := strings.ToLower(strings.TrimSpace(a.val))
			switch {
			case r10OnKeys.has(a.nkey) && mcpFalsy(v):
				how = fmt.Sprintf("sets %s to %s, switching %s off", a.key, a.val, what)
			case r10OffKeys.has(a.nkey) && (v == "true" || v == "1" || v == "yes"):
				how = fmt.Sprintf("sets %s to %s, switching %s off", a.key, a.val, what)
			case r10StateKeys.has(a.nkey) && r10OffStates.has(v):
				how = fmt.Sprintf("sets %s to %q, switching %s off", a.key, a.val, what)
			case r10RetentionKeys.has(a.nkey) && v == "0":
				how = fmt.Sprintf("sets %s to 0, switching backups off", a.key)
			case strings.Contains(strings.ToLower(a.path), "silenced"):
				how = "silences " + what
			}
			if how != "" {
				break
			}
		}
	}
	if how == "" {
		return "", false
	}
	// A development or staging target, or a mute that ends (a maintenance window), is asked as
	// the production change it is, not denied.
	for _, a := range c.args {
		if a.str && len(a.val) < 200 && r10ArgRe.get().r10NonProdRe.MatchString(a.val) && !mcpFreeTextKeys.get()[a.nkey] {
			return "", false
		}
		if !sure && (a.nkey == "end" || a.nkey == "endtime" || a.nkey == "until" || a.nkey == "duration" || a.nkey == "expires" || a.nkey == "expiresat") {
			return "", false
		}
	}
	if !sure {
		for _, a := range c.args {
			if a.str && r10ArgRe.get().r10SecurityMonitorRe.MatchString(a.val) && !strings.Contains(a.nkey, "id") {
				sure = true
				what += ", a security detector (" + mcpCleanText(a.val, 40) + ")"
				break
			}
		}
	}
	return "it " + how + " (docs/policy.md: disabling security controls)", sure
}

// ---------------------------------------------------------------------------------------------
// Whole stores deleted.

// r10WholeStoreNouns are stores whose deletion takes every record in them: a secrets engine
// or its mount, a topic or stream and its messages, a wiki space, a keyspace, a virtual host.
var r10WholeStoreNouns = &wordSet{words: `mount mounts engine engines secretsengine topic topics stream streams space spaces
	keyspace keyspaces vhost vhosts tablespace tablespaces hub hubs eventhub eventhubs`}

// wholeStoreDelete says why a deletion takes a whole store.
func wholeStoreDelete(c *mcpCtx) string {
	if c.act != mcpActDestroy || c.shell != nil || c.localTarget() != "" && c.prodHint == "" {
		return ""
	}
	unmount := mcpAnyWord(c.toolWords, mcpWordSet("unmount disable")) && mcpAnyWord(c.toolWords, mcpWordSet("mount engine secretsengine secrets"))
	if !c.hardDestroy() && !unmount {
		return ""
	}
	noun := ""
	for _, w := range c.toolWords {
		if r10WholeStoreNouns.has(w) {
			noun = w
		}
	}
	if noun == "" {
		return ""
	}
	for _, a := range c.args {
		if a.str && len(a.val) < 200 && r10ArgRe.get().r10NonProdRe.MatchString(a.val) {
			return ""
		}
	}
	return "it deletes a whole " + strings.TrimSuffix(noun, "s") + " and everything in it (docs/policy.md: deleting buckets, volumes, backups, namespaces, projects; dropping production tables)"
}

// r10SystemProcesses are processes whose death breaks the machine.
var r10SystemProcesses = &wordSet{words: `init systemd launchd kernel_task windowserver loginwindow wininit csrss lsass smss services.exe dbus-daemon`}

// osProcessKill says why a kill stops the init system or another process the OS needs.
func osProcessKill(c *mcpCtx) string {
	if !mcpAnyWord(c.toolWords, mcpWordSet("kill terminate stop signal")) || !c.callWord(mcpWordSet("process processes proc pid commander desktop os system")) {
		return ""
	}
	for _, a := range c.args {
		v := strings.ToLower(strings.TrimSpace(a.val))
		switch {
		case (a.nkey == "pid" || a.nkey == "processid" || a.nkey == "pids") && v == "1":
			return "it kills PID 1, the init system: the machine goes down (docs/policy.md: breaking the OS)"
		case (a.nkey == "name" || a.nkey == "process" || a.nkey == "processname" || a.nkey == "image") && r10SystemProcesses.has(v):
			return "it kills " + a.val + ", a process the OS needs (docs/policy.md: breaking the OS)"
		}
	}
	return ""
}

// ---------------------------------------------------------------------------------------------
// Miner images in manifests and container calls.

// minerWorkload says why a container or Kubernetes write starts a miner.
func minerWorkload(c *mcpCtx) string {
	if c.act < mcpActWrite && c.act != mcpActUnknown || c.act == mcpActDestroy {
		return ""
	}
	for _, a := range c.args {
		if !a.str {
			continue
		}
		if a.nkey == "image" || a.nkey == "imagename" || a.nkey == "imageref" || a.nkey == "from" {
			if isMinerImage(strings.TrimSpace(a.val)) {
				return "it starts the image " + mcpCleanText(a.val, 60) + ", named after a cryptocurrency miner (docs/policy.md: resource exhaustion: miners)"
			}
			continue
		}
		if len(a.val) < 12 || !strings.Contains(a.val, "image") {
			continue
		}
		for _, m := range r10ArgRe.get().r10ImageRe.FindAllStringSubmatch(mcpClip(a.val, 256<<10), 32) {
			if isMinerImage(m[1]) {
				return "its manifest runs the image " + mcpCleanText(m[1], 60) + ", named after a cryptocurrency miner (docs/policy.md: resource exhaustion: miners)"
			}
		}
	}
	return ""
}

// ---------------------------------------------------------------------------------------------
// Rules.

// markSQLAttachWrites turns the read of a file ATTACHed by SQL into a write when the same SQL
// creates, inserts into, updates or replaces a table of that alias: SQLite writes its pages
// into the file, whatever the file was (a shell rc file included).
func (c *mcpCtx) markSQLAttachWrites() {
	if len(c.sql) == 0 {
		return
	}
	for _, a := range c.args {
		if !a.str || !strings.Contains(strings.ToLower(a.val), "attach") {
			continue
		}
		for _, m := range r10ArgRe.get().r10SQLAttachRe.FindAllStringSubmatch(mcpClip(a.val, 256<<10), 8) {
			alias := regexp.QuoteMeta(m[2])
			w := regexp.MustCompile(`(?i)\b(?:create\s+(?:temp\s+|temporary\s+)?(?:table|index|view|trigger)(?:\s+if\s+not\s+exists)?|insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update|delete\s+from|drop\s+table)\s+"?` + alias + `"?\.`)
			if !w.MatchString(a.val) {
				continue
			}
			for _, p := range c.paths {
				if p.raw == m[1] && p.op == mcpOpRead {
					p.op = mcpOpWrite
				}
			}
		}
	}
}

// callWord reports that the tool's or the server's name holds a word of set.
func (c *mcpCtx) callWord(set map[string]bool) bool {
	return mcpAnyWord(c.toolWords, set) || mcpAnyWord(c.serverWords, set)
}

func mcpR10ArgRules() []*Rule {
	return []*Rule{
		{ID: "mcp.open-to-world", Kind: KindMCP, Level: High, Category: CatSecurityWeakening,
			Message: "Opens an access list, firewall, security group, bucket policy or database to every address or principal",
			mcp: func(c *mcpCtx) (string, bool) {
				why := openToWorld(c)
				if why == "" {
					return "", false
				}
				if web := c.onlyWebPorts(); web != "" {
					c.certainty = certaintyUnsure // a public web server's rule: a production change to ask about
					why += " on " + web
				}
				return c.call() + ", which " + strings.TrimPrefix(why, "it "), true
			}},
		{ID: "mcp.protection-off", Kind: KindMCP, Level: High, Category: CatSecurityWeakening,
			Message: "Switches off or deletes paging, audit logging, a firewall or WAF rule, security scanning, backups, a protection or a monitor",
			mcp: func(c *mcpCtx) (string, bool) {
				why, sure := protectionOff(c)
				if why == "" {
					return "", false
				}
				if !sure {
					c.certainty = certaintyUnsure // one monitor or alert: a production change a human may want
				}
				return c.call() + ", which " + strings.TrimPrefix(why, "it "), true
			}},
		{ID: "mcp.whole-store-delete", Kind: KindMCP, Level: Critical, Category: CatDataDeletion,
			Message: "Deletes a whole store (a secrets engine, a topic or stream, a wiki space, a keyspace)",
			mcp:     mcpWhich(wholeStoreDelete)},
		{ID: "mcp.os-process-kill", Kind: KindMCP, Level: Critical, Category: CatSystemModification,
			Message: "Kills PID 1 or another process the operating system needs",
			mcp:     mcpWhich(osProcessKill)},
		{ID: "mcp.miner-workload", Kind: KindMCP, Level: Critical, Category: CatResourceExhaustion,
			Message: "Starts a container or Kubernetes workload from an image named after a cryptocurrency miner",
			mcp:     mcpWhich(minerWorkload)},
	}
}

// sqlUnderOtherKey reports SQL handed to a database tool under a key the SQL key list does
// not name ({"command": "DROP TABLE orders"} to a psql runner, {"input": …}, {"q": …}), or
// SQL-shaped text (upper-case keyword and SQL's grammar) under any key of any tool: the
// statement is judged whatever the argument is called. Prose fields (a body, a title, a
// comment) are data, not statements.
func (c *mcpCtx) sqlUnderOtherKey(a mcpArg) bool {
	if !a.str || a.depth != 1 || mcpSqlKeys.has(a.nkey) || mcpFreeTextKeys.get()[a.nkey] || mcpUrlKeys.has(a.nkey) {
		return false
	}
	t := strings.TrimSpace(a.val)
	if len(t) < 8 || len(t) > 256<<10 || !strings.ContainsAny(t, " \t\n") {
		return false
	}
	first, _, _ := strings.Cut(strings.TrimLeft(t, "( \t\r\n"), " ")
	if !mcpSqlStart.has(strings.ToUpper(strings.TrimRight(first, ";"))) {
		return false
	}
	_, ok := mcpParseSQL(mcpClip(t, 256<<10), !c.sqlTool)
	return ok
}

// r10ArgReexps are the file's expressions, compiled on first use (a table, not package init).
type r10ArgReexps struct {
	// r10SecurityMonitorRe is a monitor or alert named as a security detector.
	r10SecurityMonitorRe *regexp.Regexp
	// r10NonProdRe names a development environment.
	r10NonProdRe *regexp.Regexp
	// r10ImageRe finds image references in a manifest or compose file held in a string.
	r10ImageRe *regexp.Regexp
	// r10SQLAttachRe finds ATTACH of a file under an alias.
	r10SQLAttachRe *regexp.Regexp
}

var r10ArgRe = table[r10ArgReexps]{build: func() r10ArgReexps {
	return r10ArgReexps{
		r10SecurityMonitorRe: regexp.MustCompile(`(?i)(?:^|[^a-z])(?:security|intrusion|detection|threat|siem|audit|brute|unauthori[sz]ed|login|auth|fraud|malware|anomal)`),
		r10NonProdRe:         regexp.MustCompile(`(?i)(?:^|[^a-z])(?:dev|development|staging|stage|stg|test|testing|local|sandbox|preview|qa|demo|tmp|temp|scratch)(?:[^a-z]|$)`),
		r10ImageRe:           regexp.MustCompile(`(?m)(?:^|[\s{,"])image["']?\s*[:=]\s*["']?([A-Za-z0-9][A-Za-z0-9._/:@-]*)`),
		r10SQLAttachRe:       regexp.MustCompile(`(?i)\battach\s+(?:database\s+)?'([^']+)'\s+as\s+"?([A-Za-z_][A-Za-z0-9_]*)`),
	}
}}
