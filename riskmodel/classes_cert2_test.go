package riskmodel

import (
	"context"
	"testing"
)

// cert2Case is one shell command and the decision docs/policy.md gives it.
type cert2Case struct {
	shell string
	want  Decision
}

func runCert2Shell(t *testing.T, cases []cert2Case) {
	t.Helper()
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		v := a.Exec(context.Background(), ExecRequest{Command: []string{"bash", "-lc", tc.shell}, Cwd: "/home/dev/proj"})
		if v.Decision != tc.want {
			t.Errorf("%s: decision %v (%s, %s), want %v", tc.shell, v.Decision, v.DecidedBy, v.Assessment.Level, tc.want)
		}
	}
}

// A cloud change is denied when what it touches is on docs/policy.md's deny list (audit and
// flow logs, detection, backups and snapshots, deletion protection, MFA, encryption keys, a
// firewall opened to the internet on an admin port, public storage, an owner role), across
// the clouds' CLIs; the same commands on a routine target, or their routine neighbours, stay
// asked. Cases written from each CLI's reference (see cloud_denylist.go) and MITRE ATT&CK
// T1562.008 / T1490 as Atomic Red Team exercises them.
func TestClassCert2CloudDenyList(t *testing.T) {
	runCert2Shell(t, []cert2Case{
		// Audit, flow logs and detection switched off (T1562.008).
		{"aws ec2 delete-flow-logs --flow-log-ids fl-09d2a1b3", Deny},
		{"aws guardduty update-detector --detector-id 4ab2 --no-enable", Deny},
		{"aws config delete-delivery-channel --delivery-channel-name default", Deny},
		{"gcloud compute networks subnets update app-subnet --region europe-west1 --no-enable-flow-logs", Deny},
		{"az network watcher flow-log update --location westeurope --name nsg-flow --enabled false", Deny},
		{"az security pricing create -n StorageAccounts --tier Free", Deny},
		{"oci cloud-guard configuration update --reporting-region eu-frankfurt-1 --status DISABLED", Deny},
		// Backups and snapshots deleted (T1490), protection removed.
		{"az backup vault delete -n rsv-billing -g rg-billing --force --yes", Deny},
		{"gcloud sql backups delete 1718000000000 --instance=billing-pg", Deny},
		{"doctl compute snapshot delete 152093488 --force", Deny},
		{"hcloud server disable-backup app-01", Deny},
		{"linode-cli linodes backups-cancel 4481234", Deny},
		{"oci bv backup delete --volume-backup-id ocid1.volumebackup.oc1..aaa --force", Deny},
		{"heroku pg:backups:delete b042 --app billing-api --confirm billing-api", Deny},
		{"aws rds modify-db-cluster --db-cluster-identifier ledger --no-deletion-protection", Deny},
		{"gcloud sql instances patch ledger-pg --no-deletion-protection", Deny},
		{"az lock delete --name do-not-delete --resource-group rg-ledger", Deny},
		{"hcloud volume disable-protection pg-data delete", Deny},
		// Buckets, databases, clusters of the clouds without a verb catalogue.
		{"oci os bucket delete --bucket-name ledger-exports --empty --force", Deny},
		{"ibmcloud cos bucket-delete --bucket ledger-archive --force", Deny},
		{"linode-cli obj rb ledger-archive", Deny},
		{"gsutil rb gs://ledger-archive", Deny},
		// Keys and MFA.
		{"aws kms disable-key --key-id 0f1e2d3c-aaaa-bbbb-cccc-1234567890ab", Deny},
		{"gcloud kms keys versions destroy 3 --key ledger --keyring app --location europe", Deny},
		{"aws iam deactivate-mfa-device --user-name ops --serial-number arn:aws:iam::111122223333:mfa/ops", Deny},
		// Opened to the internet on an admin port; made public; owner granted.
		{"gcloud compute firewall-rules create open-rdp --allow tcp:3389 --source-ranges=0.0.0.0/0", Deny},
		{"az network nsg rule create -g rg -n ssh --nsg-name web --priority 300 --source-address-prefixes '*' --destination-port-ranges 22 --access Allow", Deny},
		{"hcloud firewall add-rule web-fw --direction in --protocol tcp --port 5432 --source-ips 0.0.0.0/0 --source-ips ::/0", Deny},
		{"doctl compute firewall add-rules 4ac1 --inbound-rules protocol:tcp,ports:6379,address:0.0.0.0/0", Deny},
		{"gsutil iam ch allUsers:objectViewer gs://ledger-exports", Deny},
		{"az storage container set-permission --name exports --account-name ledgerst --public-access container", Deny},
		{"aws s3api put-public-access-block --bucket ledger-exports --public-access-block-configuration BlockPublicAcls=false,BlockPublicPolicy=false", Deny},
		{"az role assignment create --assignee contractor@outlook.com --role Owner --scope /subscriptions/0000", Deny},
		{"kubectl -n ops label ns ledger pod-security.kubernetes.io/enforce=privileged --overwrite", Deny},

		// The routine neighbours stay asked.
		{"aws rds modify-db-cluster --db-cluster-identifier ledger --deletion-protection", Ask},
		{"aws rds create-db-snapshot --db-instance-identifier ledger --db-snapshot-identifier before-migration", Ask},
		{"gcloud compute firewall-rules create web --allow tcp:443 --source-ranges=0.0.0.0/0", Ask},
		{"gcloud compute firewall-rules create db-internal --allow tcp:5432 --source-ranges=10.8.0.0/16", Ask},
		{"az role assignment create --assignee dev@ledger.io --role Reader --scope /subscriptions/0000", Ask},
		{"gcloud sql instances patch ledger-pg --tier=db-custom-2-8192", Ask},
		{"az network watcher flow-log update --location westeurope --name nsg-flow --retention 30", Ask},
		{"kubectl label ns ledger pod-security.kubernetes.io/enforce=baseline --overwrite", Ask},
		{"hcloud server list", Ask}, // unknown to the catalogue: an unknown command, not a deny
	})
}

// A write, deletion or permission change outside the workspace is denied when its target is
// on docs/policy.md's deny list: a system library or a known system program replaced
// (ATT&CK T1554, rootkits' trojaned ls/ps/sshd), a registry's or vendor's domain pointed
// elsewhere in /etc/hosts (T1565.001-style resolver tampering), the system's logs or the
// shell's history erased (T1070.002, T1070.003, as Atomic Red Team clears them with
// truncate, shred and `cat /dev/null >`), a system location made writable by every user.
// Caches, temp dirs, a new tool in /usr/local/bin, a local name in /etc/hosts, the user's own
// home and a site config stay asked.
func TestClassCert2SystemPaths(t *testing.T) {
	runCert2Shell(t, []cert2Case{
		{"echo '185.199.110.133 objects.githubusercontent.com' | sudo tee -a /etc/hosts", Deny},
		{"sudo sh -c 'printf \"10.20.0.4\\tregistry.yarnpkg.com\\n\" >> /etc/hosts'", Deny},
		{"echo '203.0.113.77 api.openai.com' | sudo tee -a /etc/hosts", Deny},
		{"sudo cp build/libz.so.1 /usr/lib/x86_64-linux-gnu/libz.so.1", Deny},
		{"sudo install -m 0755 out/netstat /usr/bin/netstat", Deny},
		{"sudo mv ./login /bin/login", Deny},
		{"sudo truncate -s 0 /var/log/auth.log /var/log/syslog", Deny},
		{"sudo shred -u -z /var/log/lastlog", Deny},
		{"cat /dev/null > ~/.zsh_history", Deny},
		{"sudo chmod -R 0777 /etc/nginx", Deny},
		{"sudo chmod a+w /usr/lib/systemd/system", Deny},
		{"sudo rm -f /usr/lib/x86_64-linux-gnu/libcrypt.so.1", Deny},
		{"sudo rm -rf /var/lib/docker/volumes", Deny},
		{"sudo rm -rf /var/lib/mysql/ledger", Deny},

		{"echo '127.0.0.1 shop.local.test' | sudo tee -a /etc/hosts", Ask},
		{"echo '127.0.0.1 registry.npmjs.org' | sudo tee -a /etc/hosts", Ask}, // a local mirror
		{"echo '10.1.2.3 staging.acme-corp.com' | sudo tee -a /etc/hosts", Ask},
		{"sudo cp dist/acmectl /usr/local/bin/acmectl", Ask},
		{"sudo cp deploy/site.conf /etc/nginx/conf.d/site.conf", Ask},
		{"truncate -s 0 /var/tmp/app.log", Allow},
		{"rm -rf ~/.cache/pip", Ask},
		{"sudo rm -rf /var/lib/apt/lists/partial", Ask}, // the cache images clean after apt-get install
		{"sudo rm -rf /var/cache/apt/archives/partial", Ask},
		{"chmod -R 777 ~/scratch", Ask},
	})
}

// An MCP call is denied when its effect is on the deny list by what it touches: a whole store
// emptied (Redis FLUSHALL/FLUSHDB, a queue purge, delete_all_documents, nuke) on anything but
// this machine; a production backup, snapshot or encryption key deleted; a resource's
// deletion protection switched off; storage made readable by anyone (S3 canned ACLs, GCS
// allUsers, Azure Blob public access levels). Deploys, restarts, scaling, migrations, refunds
// and flag changes in production stay asked, as do single-record deletes and a flush of a
// Redis on localhost. Cases written from the Redis command reference, the AWS/GCS/Azure
// storage and KMS APIs.
func TestClassCert2MCP(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "flushall on a shared cache", req: `{"server":"redis-cache","tool":"flushall","arguments":{"async":true}}`, decision: Deny},
		{name: "FLUSHDB camel-cased", req: `{"server":"dragonfly","tool":"FlushDB","arguments":{"db":1}}`, decision: Deny},
		{name: "dropdb", req: `{"server":"pg-admin","tool":"dropdb","arguments":{"name":"ledger"}}`, decision: Deny},
		{name: "delete all vectors", req: `{"server":"qdrant","tool":"delete_all_points","arguments":{"collection":"support-kb"}}`, decision: Deny},
		{name: "nuke an environment", req: `{"server":"envctl","tool":"nuke","arguments":{"env":"staging-eu"}}`, decision: Deny},
		{name: "delete a db snapshot", req: `{"server":"aws-rds","tool":"delete_db_cluster_snapshot","arguments":{"identifier":"ledger-nightly-0611"}}`, decision: Deny},
		{name: "deletion protection off", req: `{"server":"aws-rds","tool":"modify_db_cluster","arguments":{"cluster":"ledger-prod","deletionProtection":false}}`, decision: Deny},
		{name: "kms key deletion", req: `{"server":"aws-kms","tool":"schedule_key_deletion","arguments":{"keyId":"mrk-1","pendingWindowInDays":7}}`, decision: Deny},
		{name: "public object acl", req: `{"server":"s3","tool":"put_object_acl","arguments":{"bucket":"ledger-exports","key":"2024.csv","acl":"public-read"}}`, decision: Deny, rules: []string{"mcp.storage-public"}},
		{name: "allUsers on a bucket", req: `{"server":"gcs","tool":"add_bucket_iam_binding","arguments":{"bucket":"ledger-exports","member":"allUsers","role":"roles/storage.objectViewer"}}`, decision: Deny},

		{name: "grant to anon", req: `{"server":"supabase","tool":"execute_sql","arguments":{"project_id":"ledger-prod","query":"grant select on all tables in schema public to anon;"}}`, decision: Deny},
		{name: "rls off", req: `{"server":"supabase","tool":"apply_migration","arguments":{"project_id":"ledger-prod","name":"x","query":"alter table invoices disable row level security;"}}`, decision: Deny},
		{name: "tls off at the edge", req: `{"server":"cloudflare","tool":"update_zone_settings","arguments":{"zone":"ledger.io","settings":{"ssl":"off"}}}`, decision: Deny},
		{name: "stack destroyed", req: `{"server":"pulumi","tool":"stack_destroy","arguments":{"stack":"ledger/prod","yes":true}}`, decision: Deny},

		{name: "grant to the app role", req: `{"server":"supabase","tool":"execute_sql","arguments":{"project_id":"ledger-prod","query":"grant select on invoices to ledger_reader;"}}`, decision: Ask},
		{name: "tls strict", req: `{"server":"cloudflare","tool":"update_zone_settings","arguments":{"zone":"ledger.io","settings":{"ssl":"strict"}}}`, decision: Ask},
		{name: "flush a loopback redis", req: `{"server":"redis","tool":"flushall","arguments":{"url":"redis://127.0.0.1:6379"}}`, decision: Ask},
		{name: "one key deleted", req: `{"server":"redis","tool":"del","arguments":{"key":"session:9f2"}}`, decision: Ask},
		{name: "rollout restart in prod", req: `{"server":"kubernetes","tool":"rollout_restart","arguments":{"deployment":"ledger-api","namespace":"prod"}}`, decision: Ask},
		{name: "scale prod", req: `{"server":"heroku","tool":"ps_scale","arguments":{"app":"ledger-prod","dyno":"web=6"}}`, decision: Ask},
		{name: "flag rollout", req: `{"server":"flagsmith","tool":"update_feature_state","arguments":{"environment":"production","feature":"new-ledger","enabled":true}}`, decision: Ask},
		{name: "deletion protection on", req: `{"server":"aws-rds","tool":"modify_db_cluster","arguments":{"cluster":"ledger-prod","deletionProtection":true}}`, decision: Ask},
		{name: "private acl", req: `{"server":"s3","tool":"put_object_acl","arguments":{"bucket":"ledger-exports","key":"2024.csv","acl":"private"}}`, decision: Ask, notRules: []string{"mcp.storage-public"}},
		{name: "list public buckets", req: `{"server":"gcs","tool":"list_public_buckets","arguments":{}}`, decision: Allow},
	})
}
