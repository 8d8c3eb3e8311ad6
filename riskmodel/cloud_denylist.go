package riskmodel

import (
	"strings"
)

// Cloud changes whose effect is on docs/policy.md's deny list by what they touch, whatever
// the reason given: switching off audit logging, flow logs or threat detection; deleting
// backups, snapshots, vaults, buckets, databases, projects or clusters; removing the
// protection that stops a resource from being deleted; disabling or destroying an encryption
// key or an MFA device; opening a firewall to the whole internet on an administration port;
// making storage public; granting the owner of a subscription to someone. cloud.change rates
// every change high and asks (docs/policy.md: production changes with a stated reason); the
// certainty table (certainty.go) makes a change certain when it is one of these.
//
// The table is data: one row per CLI command path (the words after the CLI's name, before
// its first option), with an optional condition on its options. Sources, per CLI: the AWS CLI
// reference (docs.aws.amazon.com/cli/latest/reference/SERVICE/OP.html), the gcloud and gsutil
// references (cloud.google.com/sdk/gcloud/reference, cloud.google.com/storage/docs/gsutil),
// the az reference (learn.microsoft.com/cli/azure), doctl (docs.digitalocean.com/reference/
// doctl), the OCI CLI (docs.oracle.com/iaas/tools/oci-cli/latest), the IBM Cloud CLI
// (cloud.ibm.com/docs/cli), hcloud (github.com/hetznercloud/cli docs), linode-cli
// (techdocs.akamai.com/cloud-computing/docs/cli-commands), flyctl (fly.io/docs/flyctl) and
// the heroku CLI (devcenter.heroku.com/articles/heroku-cli-commands); MITRE ATT&CK T1562.008
// (Disable or Modify Cloud Logs) and T1490 (Inhibit System Recovery), as Atomic Red Team's
// tests for them exercise (cloudtrail delete-trail, stop-logging, delete-flow-logs, deleting
// snapshots and backups).

// cloudDenyRow is one deny-listed command path of one CLI.
type cloudDenyRow struct {
	cli  string                  // the CLI's name as invoked (aws, gcloud, az, …)
	path string                  // the command words ("ec2 delete-flow-logs"); a prefix of the call's words
	cond func(s *Segment) string // nil: always; else what about the options makes it deny-listed, "" when not
	why  string                  // what it does, after "which"
}

// cloudAliases are the other names a cloud CLI is invoked by.
var cloudAliases = table[map[string]string]{build: func() map[string]string {
	return map[string]string{"fly": "flyctl", "ic": "ibmcloud", "linode": "linode-cli", "awslocal": ""}
}}

// cloudDenyRows is the table. Keep each CLI's rows together; a row's path is matched as a
// prefix of the call's command words, so "sql backups delete" matches
// "gcloud sql backups delete 1700 --instance x".
var cloudDenyRows = table[map[string][]cloudDenyRow]{build: func() map[string][]cloudDenyRow {
	rows := []cloudDenyRow{
		// AWS: audit, flow logs and detection (T1562.008).
		{"aws", "ec2 delete-flow-logs", nil, "deletes VPC flow logs, the network audit trail"},
		{"aws", "cloudtrail update-trail", flagIs("--no-enable-log-file-validation", "--no-is-multi-region-trail"), "weakens the CloudTrail audit trail"},
		{"aws", "cloudtrail put-event-selectors", argHas("ReadWriteType=None", `"ReadWriteType":"None"`), "stops CloudTrail recording management events"},
		{"aws", "guardduty update-detector", flagIs("--no-enable"), "switches the GuardDuty detector off"},
		{"aws", "config delete-delivery-channel", nil, "deletes AWS Config's delivery channel, so its record stops being kept"},
		{"aws", "detective delete-graph", nil, "deletes the Detective behaviour graph"},
		{"aws", "wafv2 delete-web-acl", nil, "deletes a WAF web ACL, the firewall in front of the service"},
		{"aws", "network-firewall delete-firewall", nil, "deletes a network firewall"},
		{"aws", "iam deactivate-mfa-device", nil, "deactivates a user's MFA device"},
		{"aws", "iam delete-virtual-mfa-device", nil, "deletes a user's MFA device"},
		{"aws", "kms disable-key", nil, "disables an encryption key, so nothing it protects can be read"},
		{"aws", "kms delete-imported-key-material", nil, "deletes an encryption key's material, so nothing it protects can be read"},
		// AWS: protection against deletion, backups, repositories, public storage.
		{"aws", "rds modify-db-instance", flagIs("--no-deletion-protection"), "turns the database's deletion protection off"},
		{"aws", "rds modify-db-cluster", flagIs("--no-deletion-protection"), "turns the database cluster's deletion protection off"},
		{"aws", "rds delete-db-instance-automated-backup", nil, "deletes a database's automated backups"},
		{"aws", "dynamodb update-table", flagIs("--no-deletion-protection-enabled"), "turns the table's deletion protection off"},
		{"aws", "ec2 modify-instance-attribute", flagIs("--no-disable-api-termination"), "turns the instance's termination protection off"},
		{"aws", "cloudformation update-termination-protection", flagIs("--no-enable-termination-protection"), "turns the stack's termination protection off"},
		{"aws", "elbv2 modify-load-balancer-attributes", argHas("deletion_protection.enabled,Value=false", `"deletion_protection.enabled","Value":"false"`), "turns the load balancer's deletion protection off"},
		{"aws", "backup delete-backup-plan", nil, "deletes a backup plan, so no further backups are taken"},
		{"aws", "codecommit delete-repository", nil, "deletes a repository"},
		{"aws", "s3api put-public-access-block", argHas("=false", `":false`, `": false`), "lifts the bucket's block on public access"},
		{"aws", "s3control put-public-access-block", argHas("=false", `":false`, `": false`), "lifts the account's block on public access"},

		// Google Cloud.
		{"gcloud", "compute networks subnets update", flagIs("--no-enable-flow-logs"), "switches the subnet's VPC flow logs off"},
		{"gcloud", "compute firewall-rules create", worldOnAdminPort, "opens a firewall to the whole internet"},
		{"gcloud", "compute firewall-rules update", worldOnAdminPort, "opens a firewall to the whole internet"},
		{"gcloud", "sql backups delete", nil, "deletes a database backup"},
		{"gcloud", "sql instances patch", flagIs("--no-deletion-protection", "--no-backup"), "removes the database's deletion protection or backups"},
		{"gcloud", "compute instances update", flagIs("--no-deletion-protection"), "turns the instance's deletion protection off"},
		{"gcloud", "spanner backups delete", nil, "deletes a database backup"},
		{"gcloud", "bigtable backups delete", nil, "deletes a database backup"},
		{"gcloud", "filestore backups delete", nil, "deletes a file-share backup"},
		{"gcloud", "backup-dr backup-vaults delete", nil, "deletes a backup vault and the backups in it"},
		{"gcloud", "container backup-restore backups delete", nil, "deletes a cluster backup"},
		{"gcloud", "kms keys versions destroy", nil, "destroys an encryption key version, so nothing it protects can be read"},
		{"gcloud", "kms keys versions disable", nil, "disables an encryption key version, so nothing it protects can be read"},
		{"gcloud", "source repos delete", nil, "deletes a repository"},
		{"gcloud", "artifacts repositories delete", nil, "deletes an artifact repository and every package in it"},
		{"gcloud", "storage buckets add-iam-policy-binding", publicMember, "makes a bucket readable by anyone"},
		{"gcloud", "storage buckets update", argHas("publicread", "allusers"), "makes a bucket readable by anyone"},
		{"gcloud", "scc manage services update", argHas("enablement-state=disabled", "enablement-state disabled"), "disables a Security Command Center detection service"},
		{"gsutil", "rb", nil, "deletes a bucket"},
		{"gsutil", "iam ch", publicMember, "makes a bucket readable by anyone"},
		{"gsutil", "acl ch", publicMember, "makes a bucket's objects readable by anyone"},
		{"gsutil", "defacl ch", publicMember, "makes every new object readable by anyone"},
		{"gsutil", "acl set", argHas("public-read", "public-read-write"), "makes a bucket's objects readable by anyone"},

		// Azure.
		{"az", "backup vault delete", nil, "deletes a backup vault and the backups in it"},
		{"az", "backup protection disable", argHas("--delete-backup-data true", "--delete-backup-data=true"), "deletes an item's backups"},
		{"az", "backup recoverypoint delete", nil, "deletes a backup"},
		{"az", "dataprotection backup-vault delete", nil, "deletes a backup vault and the backups in it"},
		{"az", "sql db ltr-backup delete", nil, "deletes a database's long-term backup"},
		{"az", "keyvault key delete", nil, "deletes an encryption key, so nothing it protects can be read"},
		{"az", "keyvault key purge", nil, "purges an encryption key for good"},
		{"az", "keyvault purge", nil, "purges a key vault and every secret in it for good"},
		{"az", "security pricing create", argHas("--tier free", "--tier=free"), "switches Defender for Cloud off for a resource type"},
		{"az", "network nsg rule create", worldOnAdminPort, "opens a network security group to the whole internet"},
		{"az", "network nsg rule update", worldOnAdminPort, "opens a network security group to the whole internet"},
		{"az", "network firewall delete", nil, "deletes a firewall"},
		{"az", "network watcher flow-log delete", nil, "deletes network flow logs"},
		{"az", "network watcher flow-log update", argHas("--enabled false", "--enabled=false"), "switches network flow logs off"},
		{"az", "monitor log-analytics workspace delete", nil, "deletes the Log Analytics workspace and the logs in it"},
		{"az", "sql server firewall-rule create", azWorldIPRange, "opens the database server to the whole internet"},
		{"az", "storage account update", argHas("--allow-blob-public-access true", "--allow-blob-public-access=true"), "lets the storage account's blobs be made public"},
		{"az", "storage container set-permission", argHas("--public-access blob", "--public-access container", "--public-access=blob", "--public-access=container"), "makes a storage container readable by anyone"},
		{"az", "storage container create", argHas("--public-access blob", "--public-access container", "--public-access=blob", "--public-access=container"), "creates a storage container readable by anyone"},
		{"az", "role assignment create", azOwnerRole, "grants a role that controls the whole scope"},
		{"az", "lock delete", nil, "removes a lock that protects resources from deletion"},
		{"az", "repos delete", nil, "deletes a repository"},

		// DigitalOcean.
		{"doctl", "compute snapshot delete", nil, "deletes a snapshot"},
		{"doctl", "projects delete", nil, "deletes a project"},
		{"doctl", "compute firewall delete", nil, "deletes a firewall"},
		{"doctl", "compute firewall create", worldOnAdminPort, "opens a firewall to the whole internet"},
		{"doctl", "compute firewall add-rules", worldOnAdminPort, "opens a firewall to the whole internet"},
		{"doctl", "databases db delete", nil, "deletes a database"},

		// Oracle Cloud.
		{"oci", "os bucket delete", nil, "deletes a bucket"},
		{"oci", "os bucket create", argHas("objectread"), "creates a bucket readable by anyone"},
		{"oci", "os bucket update", argHas("objectread"), "makes a bucket readable by anyone"},
		{"oci", "db autonomous-database delete", nil, "deletes a database"},
		{"oci", "db database delete", nil, "deletes a database"},
		{"oci", "db system terminate", nil, "deletes a database system and its databases"},
		{"oci", "db backup delete", nil, "deletes a database backup"},
		{"oci", "mysql db-system delete", nil, "deletes a database"},
		{"oci", "mysql backup delete", nil, "deletes a database backup"},
		{"oci", "psql db-system delete", nil, "deletes a database"},
		{"oci", "bv volume delete", nil, "deletes a volume"},
		{"oci", "bv backup delete", nil, "deletes a volume backup"},
		{"oci", "bv boot-volume-backup delete", nil, "deletes a boot volume backup"},
		{"oci", "ce cluster delete", nil, "deletes a cluster"},
		{"oci", "iam compartment delete", nil, "deletes a compartment and what it holds"},
		{"oci", "cloud-guard configuration update", argHas("disabled"), "switches Cloud Guard off"},
		{"oci", "kms management key schedule-deletion", nil, "schedules an encryption key's deletion"},
		{"oci", "kms management key disable", nil, "disables an encryption key"},
		{"oci", "kms management vault schedule-deletion", nil, "schedules a key vault's deletion"},
		{"oci", "logging log delete", nil, "deletes a log"},
		{"oci", "logging log-group delete", nil, "deletes a log group and its logs"},
		{"oci", "network security-list update", worldOnAdminPort, "opens a security list to the whole internet"},

		// IBM Cloud.
		{"ibmcloud", "resource service-instance-delete", nil, "deletes a service instance (a database or storage) and its data"},
		{"ibmcloud", "resource group-delete", nil, "deletes a resource group"},
		{"ibmcloud", "cos bucket-delete", nil, "deletes a bucket"},
		{"ibmcloud", "ks cluster rm", nil, "deletes a cluster"},
		{"ibmcloud", "oc cluster rm", nil, "deletes a cluster"},
		{"ibmcloud", "is volume-delete", nil, "deletes a volume"},
		{"ibmcloud", "is snapshot-delete", nil, "deletes a snapshot"},
		{"ibmcloud", "is security-group-rule-add", worldOnAdminPort, "opens a security group to the whole internet"},

		// Hetzner Cloud: disabling backups deletes every backup of the server.
		{"hcloud", "volume delete", nil, "deletes a volume"},
		{"hcloud", "image delete", nil, "deletes a snapshot or backup image"},
		{"hcloud", "server disable-backup", nil, "disables the server's backups, which deletes every backup it has"},
		{"hcloud", "server disable-protection", nil, "removes the server's protection from deletion"},
		{"hcloud", "volume disable-protection", nil, "removes the volume's protection from deletion"},
		{"hcloud", "image disable-protection", nil, "removes the snapshot's protection from deletion"},
		{"hcloud", "firewall delete", nil, "deletes a firewall"},
		{"hcloud", "firewall add-rule", worldOnAdminPort, "opens a firewall to the whole internet"},

		// Linode (Akamai): cancelling backups deletes every backup of the Linode.
		{"linode-cli", "volumes delete", nil, "deletes a volume"},
		{"linode-cli", "obj rb", nil, "deletes a bucket"},
		{"linode-cli", "obj setacl", argHas("--acl-public"), "makes an object readable by anyone"},
		{"linode-cli", "lke cluster-delete", nil, "deletes a cluster"},
		{"linode-cli", "linodes backups-cancel", nil, "cancels the backup service, which deletes every backup"},
		{"linode-cli", "databases mysql-delete", nil, "deletes a database"},
		{"linode-cli", "databases postgresql-delete", nil, "deletes a database"},
		{"linode-cli", "firewalls delete", nil, "deletes a firewall"},

		// Kubernetes: Pod Security Admission set to privileged lets any pod take the node
		// (kubernetes.io/docs/concepts/security/pod-security-admission).
		{"kubectl", "label", argHas("pod-security.kubernetes.io/enforce=privileged"), "lets every pod in the namespace run privileged"},
		{"oc", "label", argHas("pod-security.kubernetes.io/enforce=privileged"), "lets every pod in the namespace run privileged"},

		// Fly.io and Heroku.
		{"flyctl", "postgres destroy", nil, "deletes a database"},
		{"flyctl", "mpg destroy", nil, "deletes a database"},
		{"flyctl", "redis destroy", nil, "deletes a data store"},
		{"flyctl", "storage destroy", nil, "deletes a bucket"},
		{"flyctl", "tigris destroy", nil, "deletes a bucket"},
		{"heroku", "pg:backups:delete", nil, "deletes a database backup"},
	}
	return cloudRowsByCLI(rows)
}}

// cloudRowsByCLI groups deny-list rows by their CLI, the key cloudRowMatch looks them up by.
func cloudRowsByCLI(rows []cloudDenyRow) map[string][]cloudDenyRow {
	t := map[string][]cloudDenyRow{}
	for _, r := range rows {
		t[r.cli] = append(t[r.cli], r)
	}
	return t
}

// cloudCLIOps is what a cloud CLI call does: what cloudCLIOpsByName knows of its CLI, or, for
// a call it does not judge (a CLI or a command it has no verbs for: oci, hcloud, linode-cli,
// ibmcloud, gcloud kms keys versions destroy), a change when the deny list names it, so the
// certainty table can deny it rather than leave it an unknown command.
func cloudCLIOps(c *execCtx, s *Segment, hints []string) []cloudOp {
	if ops := cloudCLIOpsByName(c, s, hints); len(ops) > 0 {
		return ops
	}
	if why := cloudDenyListed(s); why != "" {
		return one(cloudChange, "Changes cloud resources: "+why)
	}
	return nil
}

// cloudGlobalValueOpts are the global options that may come before a cloud CLI's command
// words and take a value.
var cloudGlobalValueOpts = &wordSet{words: "--region --profile --output --endpoint-url --project --account --configuration --context --config-file --subscription -o -a --app -n --namespace --kubeconfig --cluster --user"}

// cloudCommandWords are a cloud CLI call's command words: the words after its name before its
// first option, global options before them skipped, gcloud's release tracks dropped.
func cloudCommandWords(s *Segment) []string {
	var words []string
	args := s.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if len(words) > 0 {
				break
			}
			if cloudGlobalValueOpts.has(a) && !strings.Contains(a, "=") {
				i++
			}
			continue
		}
		if s.Name() == "gcloud" && len(words) == 0 && (a == "alpha" || a == "beta") {
			continue
		}
		words = append(words, a)
	}
	return words
}

// cloudDenyListed says what a cloud CLI call certainly does that docs/policy.md denies, by
// the table, or "".
func cloudDenyListed(s *Segment) string {
	name, r, extra, ok := cloudRowMatch(cloudDenyRows.get(), s)
	if !ok {
		return ""
	}
	if extra != "" {
		extra = " (" + extra + ")"
	}
	return name + " " + r.path + " " + r.why + extra
}

// cloudRowMatch finds the first of rows whose command path begins the call's command words
// and whose condition holds: the CLI's name (an alias resolved), the row, and what the
// condition said. An alias to "" (awslocal, LocalStack's wrapper) is no cloud CLI.
func cloudRowMatch(rows map[string][]cloudDenyRow, s *Segment) (name string, row cloudDenyRow, extra string, ok bool) {
	name = s.Name()
	if n, found := cloudAliases.get()[name]; found {
		if n == "" {
			return "", cloudDenyRow{}, "", false
		}
		name = n
	}
	rs := rows[name]
	if len(rs) == 0 {
		return "", cloudDenyRow{}, "", false // before cloudCommandWords: a segment may have no words
	}
	path := strings.Join(cloudCommandWords(s), " ") + " "
	for _, r := range rs {
		if !strings.HasPrefix(path, r.path+" ") {
			continue
		}
		extra := ""
		if r.cond != nil {
			if extra = r.cond(s); extra == "" {
				continue
			}
		}
		return name, r, extra, true
	}
	return "", cloudDenyRow{}, "", false
}

// flagIs is a condition met when the call has one of the flags.
func flagIs(flags ...string) func(s *Segment) string {
	return func(s *Segment) string {
		for _, a := range s.Args[1:] {
			for _, f := range flags {
				if a == f || strings.HasPrefix(a, f+"=") {
					return a
				}
			}
		}
		return ""
	}
}

// argHas is a condition met when the call's arguments, joined and lower-cased, contain one of
// the strings.
func argHas(subs ...string) func(s *Segment) string {
	return func(s *Segment) string {
		j := strings.ToLower(strings.Join(s.Args[1:], " "))
		for _, sub := range subs {
			if strings.Contains(j, strings.ToLower(sub)) {
				return sub
			}
		}
		return ""
	}
}

// publicMember is met when the call grants to everyone: allUsers, allAuthenticatedUsers, or
// gsutil's AllUsers grantee.
func publicMember(s *Segment) string {
	j := strings.ToLower(strings.Join(s.Args[1:], " "))
	for _, m := range []string{"allusers", "allauthenticatedusers"} {
		if strings.Contains(j, m) {
			return m
		}
	}
	return ""
}

// adminPorts are the ports of remote administration and data stores: open to the whole
// internet they are how machines are taken over (SSH, RDP, telnet, VNC, WinRM, the Docker and
// Kubernetes APIs, databases, caches, search engines).
var adminPorts = &wordSet{words: "22 23 2375 2376 3389 5985 5986 5900 6443 10250 3306 5432 1433 1521 6379 27017 9200 9300 11211 5984 9042 2379 8500"}

// worldOnAdminPort is met when the call opens a rule to every address (0.0.0.0/0, ::/0, "*",
// Internet, Any) on an administration port or on every port.
func worldOnAdminPort(s *Segment) string {
	j := strings.ToLower(strings.Join(s.Args[1:], " "))
	world := strings.Contains(j, "0.0.0.0/0") || strings.Contains(j, "::/0")
	if !world {
		if v, ok := optValue(s.Args[1:], "--source-address-prefixes", "--source-address-prefix"); ok {
			v = strings.ToLower(strings.Trim(v, `"'`))
			world = v == "*" || v == "internet" || v == "any" || v == "0.0.0.0"
		}
	}
	if !world {
		return ""
	}
	for _, tok := range strings.FieldsFunc(j, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r == '*' || r >= 'a' && r <= 'z')
	}) {
		if adminPorts.has(tok) {
			return "port " + tok + " from anywhere"
		}
	}
	for _, all := range []string{"ports:all", "--protocol all", "--protocol=all", "--allow all", "--allow=all", "ports:0", "--destination-port-ranges *", "--destination-port-ranges '*'", "0-65535", "1-65535", "--port any"} {
		if strings.Contains(j, all) {
			return "every port from anywhere"
		}
	}
	return ""
}

// azWorldIPRange is met by an Azure SQL firewall rule from 0.0.0.0 to 255.255.255.255.
func azWorldIPRange(s *Segment) string {
	start, _ := optValue(s.Args[1:], "--start-ip-address")
	end, _ := optValue(s.Args[1:], "--end-ip-address")
	if start == "0.0.0.0" && end == "255.255.255.255" {
		return "every address"
	}
	return ""
}

// azOwnerRole is met by an Azure role assignment of a role that controls access itself.
func azOwnerRole(s *Segment) string {
	r, _ := optValue(s.Args[1:], "--role")
	switch strings.ToLower(strings.Trim(r, `"'`)) {
	case "owner", "user access administrator", "role based access control administrator",
		"8e3af657-a8ff-443c-a75c-2fe8c4bcb635", "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9":
		return r
	}
	return ""
}
