package riskmodel

import (
	"strings"
)

// Security controls switched off and data exposed by a cloud CLI, as data: one row per
// command path with the condition on its options that makes it so. The deny list of
// cloud_denylist.go makes cloud.change certain for destruction and many protections; these
// two rules carry the class the policy names (security_weakening, data_exfiltration) for
// what that table leaves asked: encryption, MFA, TLS, WAF, audit and cluster logging, backups
// and retention switched off, and snapshots, images and IAM bindings shared with everyone or
// with a person's free mailbox. Sources, per row: the AWS CLI reference
// (docs.aws.amazon.com/cli/latest/reference/SERVICE/OP.html), the gcloud reference
// (cloud.google.com/sdk/gcloud/reference), the az reference (learn.microsoft.com/cli/azure),
// and the CIS benchmarks' controls for each (CIS AWS Foundations 2.x/3.x, CIS GCP 1.x/6.x,
// CIS Azure 3.x/4.x), which list the setting each row turns back off.

// r16SecOffRows are the security settings switched off, by CLI.
var r16SecOffRows = table[map[string][]cloudDenyRow]{build: func() map[string][]cloudDenyRow {
	rows := []cloudDenyRow{
		// AWS: encryption and keys.
		{"aws", "kms disable-key-rotation", nil, "switches off the encryption key's automatic rotation"},
		{"aws", "ec2 disable-ebs-encryption-by-default", nil, "switches off encryption of new EBS volumes"},
		{"aws", "s3api delete-bucket-encryption", nil, "removes the bucket's default encryption"},
		{"aws", "redshift modify-cluster", flagIs("--no-encrypted", "--publicly-accessible"), "turns the warehouse's encryption off or opens it to the internet"},
		{"aws", "opensearch update-domain-config", argHas("enforcehttps=false", `"enforcehttps":false`, "nodetonodeencryptionoptions={enabled=false}", "enabled=false"), "switches the search domain's HTTPS or encryption off"},
		{"aws", "es update-elasticsearch-domain-config", argHas("enforcehttps=false", `"enforcehttps":false`, "enabled=false"), "switches the search domain's HTTPS or encryption off"},
		{"aws", "ec2 modify-instance-metadata-options", optIs("--http-tokens", "optional"), "turns IMDSv1 back on, the metadata endpoint SSRF steals credentials from"},
		// AWS: MFA and passwords.
		{"aws", "cognito-idp set-user-pool-mfa-config", optIs("--mfa-configuration", "off"), "switches MFA off for the user pool"},
		{"aws", "iam delete-account-password-policy", nil, "removes the account's password policy"},
		// AWS: WAF and DDoS protection.
		{"aws", "wafv2 disassociate-web-acl", nil, "takes the WAF off the service"},
		{"aws", "waf-regional disassociate-web-acl", nil, "takes the WAF off the service"},
		{"aws", "shield delete-protection", nil, "removes the resource's DDoS protection"},
		{"aws", "shield delete-protection-group", nil, "removes DDoS protection from a group of resources"},
		{"aws", "shield disable-application-layer-automatic-response", nil, "switches off Shield's automatic mitigation"},
		// AWS: audit logging, detection and compliance.
		{"aws", "cloudtrail delete-event-data-store", nil, "deletes a CloudTrail Lake event store and the audit events in it"},
		{"aws", "securityhub batch-disable-standards", nil, "switches Security Hub's compliance standards off"},
		{"aws", "securityhub disassociate-from-administrator-account", nil, "detaches the account from Security Hub's administrator"},
		{"aws", "macie2 update-macie-session", optIs("--status", "paused"), "pauses Macie"},
		{"aws", "config delete-config-rule", nil, "deletes an AWS Config compliance rule"},
		{"aws", "config delete-conformance-pack", nil, "deletes an AWS Config conformance pack"},
		{"aws", "elbv2 modify-load-balancer-attributes", argHas("access_logs.s3.enabled,value=false", `"access_logs.s3.enabled","value":"false"`), "switches the load balancer's access logs off"},
		{"aws", "s3api put-bucket-logging", optIs("--bucket-logging-status", "{}"), "switches the bucket's access logging off"},
		{"aws", "rds modify-db-instance", argHas("disablelogtypes"), "stops exporting the database's logs"},
		{"aws", "rds modify-db-cluster", argHas("disablelogtypes"), "stops exporting the database's logs"},
		{"aws", "eks update-cluster-config", eksAuditOff, "switches the cluster's control-plane audit logging off"},
		// AWS: backups and recovery.
		{"aws", "rds modify-db-instance", optIs("--backup-retention-period", "0"), "switches the database's automated backups off (retention 0)"},
		{"aws", "rds modify-db-cluster", optIs("--backup-retention-period", "0"), "switches the cluster's automated backups off (retention 0)"},
		{"aws", "rds modify-db-instance", flagIs("--publicly-accessible"), "makes the database reachable from the internet"},
		{"aws", "rds modify-db-cluster", flagIs("--publicly-accessible"), "makes the database reachable from the internet"},
		{"aws", "dynamodb update-continuous-backups", argHas("pointintimerecoveryenabled=false", `"pointintimerecoveryenabled":false`), "switches the table's point-in-time recovery off"},
		{"aws", "s3api put-bucket-versioning", argHas("status=suspended", `"status":"suspended"`, "mfadelete=disabled", `"mfadelete":"disabled"`), "suspends the bucket's versioning or MFA delete, its protection against overwrites and deletion"},
		{"aws", "backup delete-backup-selection", nil, "removes resources from a backup plan, so they are no longer backed up"},
		{"aws", "elasticache modify-replication-group", optIs("--snapshot-retention-limit", "0"), "switches the cache's backups off (retention 0)"},

		// Google Cloud.
		{"gcloud", "logging settings update", flagIs("--disable-default-sink"), "switches off the default log sink, so audit logs stop being routed"},
		{"gcloud", "container clusters update", gkeSecurityOff, "switches a cluster security or logging control off"},
		{"gcloud", "sql instances patch", cloudSQLWeakened, "weakens the database's TLS, backups or network exposure"},
		{"gcloud", "services disable", gcpSecurityService, "switches a security service's API off"},
		{"gcloud", "compute security-policies delete", nil, "deletes a Cloud Armor policy, the WAF in front of the service"},
		{"gcloud", "compute backend-services update", gcpArmorRemoved, "takes the Cloud Armor policy off the service"},
		{"gcloud", "compute ssl-policies update", gcpWeakTLS, "allows an outdated TLS version"},
		{"gcloud", "compute ssl-policies create", gcpWeakTLS, "allows an outdated TLS version"},
		{"gcloud", "storage buckets update", flagIs("--clear-retention-period", "--clear-soft-delete", "--no-versioning"), "removes the bucket's retention, soft delete or versioning"},
		{"gcloud", "kms keys update", flagIs("--remove-rotation-schedule"), "switches off the encryption key's rotation"},
		{"gcloud", "resource-manager org-policies disable-enforce", nil, "switches off an organisation policy's guardrail"},
		{"gcloud", "resource-manager org-policies delete", nil, "removes an organisation policy's guardrail"},
		{"gcloud", "org-policies delete", nil, "removes an organisation policy's guardrail"},
		{"gcloud", "iap web disable", nil, "switches Identity-Aware Proxy off, leaving the app without its login"},
		{"gcloud", "scc muteconfigs create", argHas("filter"), "mutes Security Command Center findings"},

		// Azure.
		{"az", "storage account update", azStorageWeakened, "weakens the storage account's HTTPS, TLS or network rules"},
		{"az", "webapp update", argHas("--https-only false", "--https-only=false"), "lets the web app serve plain HTTP"},
		{"az", "functionapp update", argHas("httpsonly=false"), "lets the function app serve plain HTTP"},
		{"az", "webapp config set", azAppConfigWeakened, "allows an outdated TLS version or plain FTP"},
		{"az", "network application-gateway waf-config set", argHas("--enabled false", "--enabled=false", "--firewall-mode detection", "--firewall-mode=detection"), "switches the gateway's WAF off or to detection only"},
		{"az", "network application-gateway waf-policy policy-setting update", argHas("--state disabled", "--state=disabled", "--mode detection", "--mode=detection"), "switches the WAF policy off or to detection only"},
		{"az", "network front-door waf-policy update", argHas("--disabled", "--mode detection", "--mode=detection"), "switches the Front Door WAF off or to detection only"},
		{"az", "sql db tde set", argHas("--status disabled", "--status=disabled"), "switches the database's transparent encryption off"},
		{"az", "sql server update", argHas("--minimal-tls-version 1.0", "--minimal-tls-version 1.1", "--minimal-tls-version=1.0", "--minimal-tls-version=1.1"), "allows an outdated TLS version"},
		{"az", "sql server threat-policy update", argHas("--state disabled", "--state=disabled"), "switches the server's threat detection off"},
		{"az", "sql server advanced-threat-protection-setting update", argHas("--state disabled", "--state=disabled"), "switches the server's threat protection off"},
		{"az", "sql db audit-policy update", argHas("--state disabled", "--state=disabled"), "switches the database's auditing off"},
		{"az", "monitor activity-log alert update", argHas("--enabled false", "--enabled=false"), "switches an activity-log alert off"},
		{"az", "monitor activity-log alert delete", nil, "deletes an activity-log alert"},
		{"az", "keyvault update", argHas("--enable-soft-delete false", "--enable-soft-delete=false", "--enable-purge-protection false", "--default-action allow", "--default-action=allow"), "removes the key vault's soft delete or opens its network rules"},
		{"az", "security setting update", argHas("--enabled false", "--enabled=false"), "switches a Defender setting off"},
		{"az", "security contact delete", nil, "removes who Defender alerts"},
		{"az", "aks disable-addons", argHas("azure-policy", "azure-defender"), "removes the cluster's policy or Defender add-on"},
		{"az", "aks update", flagIs("--disable-defender", "--disable-azure-rbac", "--enable-local-accounts", "--disable-workload-identity"), "switches a cluster security control off"},
		{"az", "network ddos-protection delete", nil, "deletes a DDoS protection plan"},
		{"az", "network vnet update", argHas("--ddos-protection false", "--ddos-protection=false"), "switches the network's DDoS protection off"},
		{"az", "backup protection disable", nil, "stops the item's backups"},
		{"az", "postgres flexible-server parameter set", dbParamOff, "switches the server's TLS requirement or audit logging off"},
		{"az", "mysql flexible-server parameter set", dbParamOff, "switches the server's TLS requirement or audit logging off"},
		// Velero: its schedules and backup locations are the cluster's backups.
		{"velero", "schedule delete", nil, "deletes a backup schedule, so no further backups are taken"},
		{"velero", "backup-location delete", nil, "deletes where the cluster's backups are kept"},
		{"velero", "uninstall", nil, "uninstalls the cluster's backup tool"},
		{"az", "postgres server update", argHas("--ssl-enforcement disabled", "--ssl-enforcement=disabled"), "switches the server's TLS requirement off"},
		{"az", "mysql server update", argHas("--ssl-enforcement disabled", "--ssl-enforcement=disabled"), "switches the server's TLS requirement off"},
	}
	return cloudRowsByCLI(rows)
}}

// r16ExposeRows are the calls that share stored data with everyone or with another owner:
// a snapshot or image made restorable by any account, a resource policy with Principal "*",
// an IAM binding to allUsers or to a person's free mailbox, a disk's download link.
var r16ExposeRows = table[map[string][]cloudDenyRow]{build: func() map[string][]cloudDenyRow {
	rows := []cloudDenyRow{
		{"aws", "rds modify-db-snapshot-attribute", optAny("--values-to-add"), "shares a database snapshot with another account or everyone"},
		{"aws", "rds modify-db-cluster-snapshot-attribute", optAny("--values-to-add"), "shares a database snapshot with another account or everyone"},
		{"aws", "ec2 modify-snapshot-attribute", awsPermissionAdded, "shares a disk snapshot with another account or everyone"},
		{"aws", "ec2 modify-image-attribute", awsPermissionAdded, "shares a machine image with another account or everyone"},
		{"aws", "ec2 modify-fpga-image-attribute", awsPermissionAdded, "shares an FPGA image with another account or everyone"},
		{"aws", "redshift authorize-snapshot-access", optAny("--account-with-restore-access"), "shares a warehouse snapshot with another account"},
		{"aws", "lambda add-permission", optIs("--principal", "*"), "lets anyone invoke the function"},
		{"aws", "ecr set-repository-policy", publicPolicyArg, "lets anyone pull or push the repository's images"},
		{"aws", "kms put-key-policy", publicPolicyArg, "lets anyone use the encryption key"},
		{"aws", "secretsmanager put-resource-policy", publicPolicyArg, "lets anyone read the secret"},
		{"aws", "backup put-backup-vault-access-policy", publicPolicyArg, "lets anyone reach the backup vault"},
		{"aws", "glacier set-vault-access-policy", publicPolicyArg, "lets anyone reach the archive vault"},
		{"aws", "sqs set-queue-attributes", publicPolicyArg, "lets anyone read or write the queue"},
		{"aws", "sns set-topic-attributes", publicPolicyArg, "lets anyone publish to or subscribe to the topic"},
		{"aws", "s3control put-access-point-policy", publicPolicyArg, "lets anyone reach the bucket's data"},
		{"az", "snapshot grant-access", nil, "makes a download link for the whole disk snapshot"},
		{"az", "disk grant-access", nil, "makes a download link for the whole disk"},
		{"az", "role assignment create", outsideAssignee, "grants a role to a person's free mailbox, outside the organisation"},
		{"gsutil", "iam ch", outsideMemberArg, "grants a person's free mailbox access to the bucket"},
		{"gsutil", "acl ch", outsideMemberArg, "grants a person's free mailbox access to the objects"},
	}
	return cloudRowsByCLI(rows)
}}

// r16RowMatch says what a call does by one of the rows (cloudRowMatch), "" when no row's
// path and condition hold.
func r16RowMatch(rows map[string][]cloudDenyRow, s *Segment) string {
	name, r, extra, ok := cloudRowMatch(rows, s)
	if !ok {
		return ""
	}
	if extra != "" {
		extra = " (" + capText(extra) + ")"
	}
	return "Runs " + name + " " + r.path + ", which " + r.why + extra
}

// optIs is met when the option's value, unquoted and lower-cased, is one of values.
func optIs(flag string, values ...string) func(s *Segment) string {
	return func(s *Segment) string {
		v, ok := optValue(s.Args[1:], flag)
		if !ok {
			return ""
		}
		v = strings.ToLower(strings.Trim(strings.TrimSpace(v), `"'`))
		for _, w := range values {
			if v == w {
				return flag + " " + v
			}
		}
		return ""
	}
}

// optAny is met when the option is given a value at all.
func optAny(flag string) func(s *Segment) string {
	return func(s *Segment) string {
		if v, ok := optValue(s.Args[1:], flag); ok && strings.TrimSpace(v) != "" {
			return flag + " " + v
		}
		return ""
	}
}

// awsPermissionAdded is met when an EC2 attribute call adds a launch or create-volume
// permission: --operation-type add with users or groups, or an Add= list.
func awsPermissionAdded(s *Segment) string {
	j := strings.ToLower(strings.Join(s.Args[1:], " "))
	if strings.Contains(j, "add=") || strings.Contains(j, `"add":`) {
		return "permission added"
	}
	if v, _ := optValue(s.Args[1:], "--operation-type"); strings.EqualFold(v, "add") {
		if g, ok := optValue(s.Args[1:], "--group-names"); ok {
			return "group " + g
		}
		if u, ok := optValue(s.Args[1:], "--user-ids"); ok {
			return "account " + u
		}
		if o, ok := optValue(s.Args[1:], "--organization-arns", "--organizational-unit-arns"); ok {
			return o
		}
	}
	return ""
}

// publicPolicyArg is met by a resource policy in the arguments that allows Principal "*".
func publicPolicyArg(s *Segment) string {
	if publicPrincipal(strings.Join(s.Args[1:], " ")) {
		return `Principal "*"`
	}
	return ""
}

// freeMailMember returns the free-mail address a member or grantee text names, "".
func freeMailMember(text string) string {
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return r == ' ' || r == ',' || r == '=' || r == '"' || r == '\'' || r == ';'
	}) {
		f = strings.TrimPrefix(strings.TrimPrefix(f, "user:"), "group:")
		at := strings.LastIndexByte(f, '@')
		if at <= 0 {
			continue
		}
		dom := f[at+1:]
		if i := strings.IndexByte(dom, ':'); i >= 0 { // gsutil's user@gmail.com:objectViewer
			dom = dom[:i]
		}
		if personalMailDomains.get()[dom] {
			return f[:at+1] + dom
		}
	}
	return ""
}

func outsideMemberArg(s *Segment) string { return freeMailMember(strings.Join(s.Args[1:], " ")) }

func outsideAssignee(s *Segment) string {
	v, _ := optValue(s.Args[1:], "--assignee", "--assignee-object-id")
	return freeMailMember(v)
}

// eksAuditOff is met by an EKS logging change that names the audit log and disables it.
func eksAuditOff(s *Segment) string {
	v, _ := optValue(s.Args[1:], "--logging")
	c := strings.ToLower(strings.NewReplacer(" ", "", "\n", "").Replace(v))
	if strings.Contains(c, `"enabled":false`) || strings.Contains(c, "enabled=false") {
		return "logging " + v
	}
	return ""
}

// gkeSecurityOff is met by a GKE update that switches a security or logging control off.
func gkeSecurityOff(s *Segment) string {
	for _, a := range s.Args[1:] {
		l := strings.ToLower(a)
		switch {
		case l == "--no-enable-network-policy", l == "--no-enable-shielded-nodes", l == "--no-enable-master-authorized-networks",
			l == "--enable-legacy-authorization", l == "--no-enable-cloud-logging", l == "--no-enable-stackdriver-kubernetes",
			l == "--disable-workload-identity", l == "--no-enable-secure-boot":
			return a
		case l == "--logging=none", l == "--monitoring=none", l == "--binauthz-evaluation-mode=disabled",
			l == "--security-posture=disabled", l == "--workload-vulnerability-scanning=disabled":
			return a
		}
	}
	for _, f := range []string{"--logging", "--monitoring", "--binauthz-evaluation-mode", "--security-posture", "--workload-vulnerability-scanning"} {
		if v, ok := optValue(s.Args[1:], f); ok && (strings.EqualFold(v, "none") || strings.EqualFold(v, "disabled")) {
			return f + " " + v
		}
	}
	return ""
}

// cloudSQLWeakened is met by a Cloud SQL patch that lets clients skip TLS, drops
// point-in-time recovery, or opens the instance to every address.
func cloudSQLWeakened(s *Segment) string {
	for _, a := range s.Args[1:] {
		if l := strings.ToLower(a); l == "--no-require-ssl" || l == "--no-enable-point-in-time-recovery" || l == "--no-enable-bin-log" {
			return a
		}
	}
	if v, ok := optValue(s.Args[1:], "--ssl-mode"); ok && strings.Contains(strings.ToLower(v), "unencrypted") {
		return "--ssl-mode " + v
	}
	if v, ok := optValue(s.Args[1:], "--authorized-networks"); ok && (strings.Contains(v, "0.0.0.0/0") || strings.Contains(v, "::/0")) {
		return "--authorized-networks " + v
	}
	return ""
}

// gcpSecurityServiceNames are the Google Cloud APIs whose service is a security control.
var gcpSecurityServiceNames = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"securitycenter": true, "logging": true, "binaryauthorization": true, "containerscanning": true,
		"ondemandscanning": true, "websecurityscanner": true, "dlp": true, "iap": true, "accesscontextmanager": true,
		"cloudasset": true, "containersecurity": true, "securityposture": true, "recaptchaenterprise": true}
}}

func gcpSecurityService(s *Segment) string {
	for _, a := range cloudCommandWords(s)[2:] {
		if gcpSecurityServiceNames.get()[strings.TrimSuffix(strings.ToLower(a), ".googleapis.com")] {
			return a
		}
	}
	return ""
}

func gcpArmorRemoved(s *Segment) string {
	for _, a := range s.Args[1:] {
		if a == "--no-security-policy" || a == "--security-policy=" || a == `--security-policy=""` {
			return a
		}
	}
	if v, ok := optValue(s.Args[1:], "--security-policy"); ok && strings.Trim(v, `"'`) == "" {
		return "--security-policy ''"
	}
	return ""
}

func gcpWeakTLS(s *Segment) string {
	if v, _ := optValue(s.Args[1:], "--min-tls-version"); v == "1.0" || v == "1.1" {
		return "--min-tls-version " + v
	}
	return ""
}

func azStorageWeakened(s *Segment) string {
	j := strings.ToLower(strings.Join(s.Args[1:], " "))
	for _, w := range []string{"--https-only false", "--https-only=false", "--min-tls-version tls1_0", "--min-tls-version tls1_1",
		"--min-tls-version=tls1_0", "--min-tls-version=tls1_1", "--default-action allow", "--default-action=allow",
		"--require-infrastructure-encryption false", "--enable-local-user true"} {
		if strings.Contains(j, w) {
			return w
		}
	}
	return ""
}

func azAppConfigWeakened(s *Segment) string {
	j := strings.ToLower(strings.Join(s.Args[1:], " "))
	for _, w := range []string{"--min-tls-version 1.0", "--min-tls-version 1.1", "--min-tls-version=1.0", "--min-tls-version=1.1",
		"--ftps-state allallowed", "--ftps-state=allallowed"} {
		if strings.Contains(j, w) {
			return w
		}
	}
	return ""
}

// dbParamOff is met by a server parameter that requires TLS or audits, set off.
func dbParamOff(s *Segment) string {
	n, _ := optValue(s.Args[1:], "--name", "-n")
	v, _ := optValue(s.Args[1:], "--value", "-v")
	switch strings.ToLower(n) {
	case "require_secure_transport", "ssl", "audit_log_enabled", "pgaudit.log", "log_connections", "log_disconnections":
		if lv := strings.ToLower(strings.Trim(v, `"'`)); lv == "off" || lv == "0" || lv == "false" || lv == "none" {
			return n + "=" + v
		}
	}
	return ""
}
