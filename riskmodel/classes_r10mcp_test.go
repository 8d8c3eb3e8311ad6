package riskmodel

import "testing"

// Access opened to every address or principal, through any server: denied; a narrower range,
// a revoke, a default route, a Deny statement and a public web port are not.
func TestClassR10OpenToWorld(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "security group ssh from anywhere", req: `{"server":"ec2","tool":"add_ingress_rule","arguments":{"group":"sg-77","protocol":"tcp","port":22,"cidr":"0.0.0.0/0"}}`,
			decision: Deny, category: CatSecurityWeakening, rules: []string{"mcp.open-to-world"}},
		{name: "ipv6 everywhere on a database allow list", req: `{"server":"planetscale","tool":"update_ip_restrictions","arguments":{"database":"orders","allowed":["::/0"]}}`,
			decision: Deny, rules: []string{"mcp.open-to-world"}},
		{name: "firewall source ranges everywhere", req: `{"server":"compute","tool":"insert_firewall","arguments":{"name":"redis-open","sourceRanges":["0.0.0.0/0"],"allowed":[{"IPProtocol":"tcp","ports":["6379"]}]}}`,
			decision: Deny, rules: []string{"mcp.open-to-world"}},
		{name: "full ipv4 range as start and end", req: `{"server":"azure","tool":"sql_firewall_rule_create","arguments":{"name":"all","startIp":"0.0.0.0","endIp":"255.255.255.255"}}`,
			decision: Deny, rules: []string{"mcp.open-to-world"}},
		{name: "bucket policy allowing every principal", req: `{"server":"r2","tool":"set_bucket_policy","arguments":{"bucket":"invoices","policy":{"Statement":[{"Effect":"Allow","Principal":"*","Action":["s3:GetObject"]}]}}}`,
			decision: Deny, rules: []string{"mcp.open-to-world"}},
		{name: "iam binding to allAuthenticatedUsers", req: `{"server":"gcs","tool":"add_bucket_iam_member","arguments":{"bucket":"reports","member":"allAuthenticatedUsers","role":"roles/storage.objectViewer"}}`,
			decision: Deny, rules: []string{"mcp.open-to-world"}},
		{name: "office address only", req: `{"server":"ec2","tool":"add_ingress_rule","arguments":{"group":"sg-77","protocol":"tcp","port":22,"cidr":"198.51.100.4/32"}}`,
			decision: Ask, notRules: []string{"mcp.open-to-world"}},
		{name: "revoking the open rule closes it", req: `{"server":"ec2","tool":"revoke_ingress_rule","arguments":{"group":"sg-77","port":22,"cidr":"0.0.0.0/0"}}`,
			decision: Ask, notRules: []string{"mcp.open-to-world"}},
		{name: "a default route is not an opening", req: `{"server":"vpc","tool":"create_route","arguments":{"routeTable":"rtb-9","destinationCidr":"0.0.0.0/0","natGateway":"nat-1"}}`,
			decision: Ask, notRules: []string{"mcp.open-to-world"}},
		{name: "egress to anywhere is the default", req: `{"server":"ec2","tool":"authorize_egress","arguments":{"group":"sg-77","cidr":"0.0.0.0/0"}}`,
			decision: Ask, notRules: []string{"mcp.open-to-world"}},
		{name: "deny statement with a principal star", req: `{"server":"s3","tool":"put_bucket_policy","arguments":{"bucket":"logs","policy":{"Statement":[{"Effect":"Deny","Principal":"*","Action":"s3:*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}}}`,
			decision: Ask, notRules: []string{"mcp.open-to-world"}},
		{name: "principal star narrowed to the organisation", req: `{"server":"s3","tool":"put_bucket_policy","arguments":{"bucket":"logs","policy":{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Condition":{"StringEquals":{"aws:PrincipalOrgID":"o-abc"}}}]}}}`,
			decision: Ask, notRules: []string{"mcp.open-to-world"}},
		{name: "https to everyone is a public web server, asked", req: `{"server":"ec2","tool":"add_ingress_rule","arguments":{"group":"sg-web","protocol":"tcp","port":443,"cidr":"0.0.0.0/0"}}`,
			decision: Ask, level: High, rules: []string{"mcp.open-to-world"}},
		{name: "network acl entry denying everywhere", req: `{"server":"aws-ec2","tool":"create_network_acl_entry","arguments":{"NetworkAclId":"acl-1","RuleNumber":90,"RuleAction":"deny","Egress":false,"CidrBlock":"0.0.0.0/0"}}`,
			decision: Ask, notRules: []string{"mcp.open-to-world"}},
		{name: "nsg rule allowing rdp from any source", req: `{"server":"azure-network","tool":"create_security_rule","arguments":{"name":"rdp","access":"Allow","direction":"Inbound","sourceAddressPrefix":"*","destinationPortRange":"3389"}}`,
			decision: Deny, rules: []string{"mcp.open-to-world"}},
		{name: "cors origins star is no firewall", req: `{"server":"s3","tool":"put_bucket_cors","arguments":{"Bucket":"assets","CORSConfiguration":{"CORSRules":[{"AllowedOrigins":["*"],"AllowedMethods":["GET"]}]}}}`,
			decision: Ask, notRules: []string{"mcp.open-to-world"}},
		{name: "tailnet acl star is the tailnet", req: `{"server":"tailscale","tool":"update_acl","arguments":{"acls":[{"action":"accept","src":["*"],"dst":["*:*"]}]}}`,
			decision: Ask, notRules: []string{"mcp.open-to-world"}},
		{name: "reading rules that mention everywhere", req: `{"server":"compute","tool":"list_firewalls","arguments":{"filter":"sourceRanges:0.0.0.0/0"}}`,
			decision: Allow, notRules: []string{"mcp.open-to-world"}},
	})
}

// Paging, audit logging, a WAF, scanning, backups switched off: denied; a monitor paused is
// high and asked; a staging monitor, one incident snoozed, a rename: not this rule.
func TestClassR10ProtectionOff(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "opsgenie integration disabled", req: `{"server":"opsgenie","tool":"update_integration","arguments":{"id":"int-1","enabled":false}}`,
			decision: Deny, category: CatSecurityWeakening, rules: []string{"mcp.protection-off"}},
		{name: "escalation policy paused by verb", req: `{"server":"oncall","tool":"pause_escalation_policy","arguments":{"id":"EP1"}}`,
			decision: Deny, rules: []string{"mcp.protection-off"}},
		{name: "audit log sink disabled", req: `{"server":"gcp","tool":"update_audit_config","arguments":{"service":"allServices","enabled":false}}`,
			decision: Deny, rules: []string{"mcp.protection-off"}},
		{name: "waf rule to log only", req: `{"server":"aws-waf","tool":"update_rule_action","arguments":{"rule":"SQLi","action":"count"}}`,
			decision: Deny, rules: []string{"mcp.protection-off"}},
		{name: "secret scanning off", req: `{"server":"github","tool":"update_security_settings","arguments":{"repo":"acme/api","secret_scanning":{"status":"disabled"}}}`,
			decision: Deny, rules: []string{"mcp.protection-off"}},
		{name: "guardduty detector deleted", req: `{"server":"aws","tool":"delete_detector","arguments":{"DetectorId":"12ab"}}`,
			decision: Deny, rules: []string{"mcp.protection-off"}},
		{name: "backup retention zero on a managed db", req: `{"server":"digitalocean","tool":"update_database_cluster","arguments":{"id":"db-1","backupRetentionDays":0}}`,
			decision: Deny, rules: []string{"mcp.protection-off"}},
		{name: "security monitor disabled by name", req: `{"server":"newrelic","tool":"update_alert_condition","arguments":{"name":"Unauthorized login spike","enabled":false}}`,
			decision: Deny, rules: []string{"mcp.protection-off"}},
		{name: "one latency alert paused is asked", req: `{"server":"grafana","tool":"update_alert_rule","arguments":{"uid":"p99","isPaused":true}}`,
			decision: Ask, level: High, rules: []string{"mcp.protection-off"}},
		{name: "staging alert paused", req: `{"server":"grafana","tool":"update_alert_rule","arguments":{"uid":"p99-staging","isPaused":true}}`,
			decision: Ask, notRules: []string{"mcp.protection-off"}},
		{name: "monitor muted until a time", req: `{"server":"datadog","tool":"mute_monitor","arguments":{"monitor_id":42,"end":1767225600}}`,
			decision: Ask, notRules: []string{"mcp.protection-off"}},
		{name: "incident snoozed", req: `{"server":"pagerduty","tool":"snooze_incident","arguments":{"id":"Q2","duration":1800}}`,
			decision: Ask, notRules: []string{"mcp.protection-off"}},
		{name: "paging service renamed", req: `{"server":"pagerduty","tool":"update_service","arguments":{"id":"P1","name":"checkout-v2"}}`,
			decision: Ask, notRules: []string{"mcp.protection-off"}},
		{name: "alert rule created", req: `{"server":"grafana","tool":"create_alert_rule","arguments":{"title":"disk full","enabled":true}}`,
			decision: Ask, notRules: []string{"mcp.protection-off"}},
		{name: "config recorder stopped", req: `{"server":"aws-config","tool":"stop_configuration_recorder","arguments":{"ConfigurationRecorderName":"default"}}`,
			decision: Deny, rules: []string{"mcp.protection-off"}},
		{name: "a running scan stopped", req: `{"server":"zap","tool":"stop_scan","arguments":{"scanId":"3"}}`,
			decision: Ask, notRules: []string{"mcp.protection-off"}},
		{name: "a scan result deleted is asked", req: `{"server":"snyk","tool":"delete_scan","arguments":{"id":"3"}}`,
			decision: Ask},
		{name: "the code scanning workflow disabled", req: `{"server":"github","tool":"disable_workflow","arguments":{"owner":"acme","repo":"api","workflow_id":"codeql-analysis.yml"}}`,
			decision: Deny, rules: []string{"mcp.protection-off"}},
		{name: "a docs workflow disabled", req: `{"server":"github","tool":"disable_workflow","arguments":{"owner":"acme","repo":"api","workflow_id":"nightly-docs.yml"}}`,
			decision: Ask, notRules: []string{"mcp.protection-off"}},
		{name: "an alert rule created paused", req: `{"server":"grafana","tool":"create_alert_rule","arguments":{"title":"disk","isPaused":true}}`,
			decision: Ask, notRules: []string{"mcp.protection-off"}},
		{name: "secret scanning switched on", req: `{"server":"github","tool":"update_repository","arguments":{"owner":"acme","repo":"api","security_and_analysis":{"secret_scanning":{"status":"enabled"}}}}`,
			decision: Ask, notRules: []string{"mcp.protection-off"}},
		{name: "branch protection read", req: `{"server":"github","tool":"get_branch_protection","arguments":{"owner":"acme","repo":"api","branch":"main"}}`,
			decision: Allow, notRules: []string{"mcp.protection-off"}},
	})
}

// SQL judged under any key of a database tool; an ATTACHed file the SQL writes into is written.
func TestClassR10SQLAnyKey(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "psql runner drops a table under command", req: `{"server":"heroku","tool":"pg_psql","arguments":{"app":"store","command":"DROP TABLE invoices;"}}`,
			decision: Deny, category: CatDataDeletion},
		{name: "truncate under input", req: `{"server":"railway","tool":"run_sql","arguments":{"service":"pg","input":"TRUNCATE sessions, carts"}}`,
			decision: Deny},
		{name: "delete without where under q", req: `{"server":"supabase","tool":"postgres_exec","arguments":{"q":"DELETE FROM subscriptions"}}`,
			decision: Deny},
		{name: "select under command is a read", req: `{"server":"heroku","tool":"pg_psql","arguments":{"app":"store","command":"SELECT count(*) FROM invoices"}}`,
			decision: Allow},
		{name: "lower-case prose in a non-database tool is no SQL", req: `{"server":"linear","tool":"create_issue","arguments":{"team":"WEB","title":"drop table support in exporter","description":"delete from the list once done"}}`,
			decision: Allow, notRules: []string{"mcp.sql-destructive"}},
		{name: "attach of a shell rc file then a write into it", req: `{"server":"sqlite","tool":"write_query","arguments":{"query":"ATTACH DATABASE '/home/mo/.zshrc' AS z; CREATE TABLE z.t(v); INSERT INTO z.t VALUES ('x');"}}`,
			decision: Deny, category: CatPersistence},
		{name: "attach of a workspace db and a write into it", req: `{"server":"sqlite","tool":"write_query","arguments":{"query":"ATTACH DATABASE '/home/mo/code/app/var/cache.db' AS c; CREATE TABLE c.t(v);"},"workspace":["/home/mo/code/app"]}`,
			decision: Allow},
	})
}

// A manifest or container call judged by the images it runs.
func TestClassR10MinerWorkload(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "daemonset of a miner in a manifest", req: `{"server":"kubernetes","tool":"apply","arguments":{"content":"kind: DaemonSet\nspec:\n  template:\n    spec:\n      containers:\n      - image: \"docker.io/xmrig/xmrig:6\"\n"}}`,
			decision: Deny, category: CatResourceExhaustion, rules: []string{"mcp.miner-workload"}},
		{name: "compose file with a coin miner", req: `{"server":"docker","tool":"compose_up","arguments":{"compose_yaml":"services:\n  w:\n    image: someone/monero-miner:latest\n"}}`,
			decision: Deny, rules: []string{"mcp.miner-workload"}},
		{name: "podman container from a miner image", req: `{"server":"podman","tool":"container_run","arguments":{"image":"ghcr.io/x/ethminer"}}`,
			decision: Deny, rules: []string{"mcp.miner-workload"}},
		{name: "an ordinary deployment", req: `{"server":"kubernetes","tool":"apply","arguments":{"content":"kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - image: ghcr.io/acme/api:1.2\n"}}`,
			decision: Ask, notRules: []string{"mcp.miner-workload"}},
		{name: "listing images is not running one", req: `{"server":"docker","tool":"list_images","arguments":{"filter":"xmrig"}}`,
			decision: Allow, notRules: []string{"mcp.miner-workload"}},
	})
}

// Whole stores deleted: denied; one secret, a scratch topic: not this rule.
func TestClassR10WholeStoreDelete(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "secrets engine disabled", req: `{"server":"openbao","tool":"disable_secrets_engine","arguments":{"path":"apps"}}`,
			decision: Deny, category: CatDataDeletion, rules: []string{"mcp.whole-store-delete"}},
		{name: "kinesis stream deleted", req: `{"server":"aws","tool":"delete_stream","arguments":{"StreamName":"clicks"}}`,
			decision: Deny, rules: []string{"mcp.whole-store-delete"}},
		{name: "cassandra keyspace dropped by a tool", req: `{"server":"astra","tool":"delete_keyspace","arguments":{"keyspace":"orders"}}`,
			decision: Deny, rules: []string{"mcp.whole-store-delete"}},
		{name: "rabbitmq vhost removed", req: `{"server":"rabbitmq","tool":"delete_vhost","arguments":{"name":"billing"}}`,
			decision: Deny, rules: []string{"mcp.whole-store-delete"}},
		{name: "a test topic", req: `{"server":"kafka","tool":"delete_topic","arguments":{"topic":"it-test-events"}}`,
			decision: Ask, notRules: []string{"mcp.whole-store-delete"}},
		{name: "one secret", req: `{"server":"vault","tool":"delete_secret","arguments":{"path":"kv/app/legacy"}}`,
			decision: Ask, notRules: []string{"mcp.whole-store-delete"}},
		{name: "killing init", req: `{"server":"system","tool":"kill_process","arguments":{"pid":"1"}}`,
			decision: Deny, rules: []string{"mcp.os-process-kill"}},
		{name: "killing the dev server", req: `{"server":"system","tool":"kill_process","arguments":{"pid":"43817"}}`,
			decision: Ask, notRules: []string{"mcp.os-process-kill"}},
	})
}

// Data sent out by a setting: SQL exports, mail forwarding, sinks into another project, a
// whole drive shared with a personal mailbox.
func TestClassR10DataOut(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "export of a users table", req: `{"server":"warehouse","tool":"query","arguments":{"sql":"EXPORT DATA OPTIONS(uri='gs://bi-drops/u-*.csv', format='CSV') AS SELECT * FROM app.users"}}`,
			decision: Deny, category: CatDataExfiltration, rules: []string{"mcp.sql-export-out"}},
		{name: "unload with inline keys", req: `{"server":"redshift","tool":"run","arguments":{"sql":"UNLOAD ('SELECT id, total FROM sales') TO 's3://dropzone-7/s_' ACCESS_KEY_ID 'AKIA' SECRET_ACCESS_KEY 'x'"}}`,
			decision: Deny, rules: []string{"mcp.sql-export-out"}},
		{name: "duckdb copy to a shared bucket", req: `{"server":"duckdb","tool":"query","arguments":{"query":"COPY (SELECT * FROM events) TO 's3://shared-scratch/e.parquet'"}}`,
			decision: Deny, rules: []string{"mcp.sql-export-out"}},
		{name: "aggregate export to a named team bucket is asked", req: `{"server":"bigquery","tool":"execute_query","arguments":{"query":"EXPORT DATA OPTIONS(uri='gs://acme-bi-reports/daily-*.csv', format='CSV') AS SELECT day, count(*) n FROM events GROUP BY day"}}`,
			decision: Ask, level: High, rules: []string{"mcp.sql-export-out"}},
		{name: "catch-all forward to webmail", req: `{"server":"gmail","tool":"create_filter","arguments":{"criteria":{"query":""},"action":{"forward":"mbox.keeper@gmx.com"}}}`,
			decision: Deny, rules: []string{"mcp.mail-forward-out"}},
		{name: "every message forwarded by a rule with no condition", req: `{"server":"ms365","tool":"create_mail_rule","arguments":{"displayName":"cc","actions":{"forwardTo":[{"emailAddress":{"address":"x@vendor.example"}}]}}}`,
			decision: Deny, rules: []string{"mcp.mail-forward-out"}},
		{name: "invoices forwarded to a company address are asked", req: `{"server":"gmail","tool":"create_filter","arguments":{"criteria":{"from":"billing@supplier.example"},"action":{"forward":"ap@acme.example"}}}`,
			decision: Ask, rules: []string{"mcp.mail-forward-out"}},
		{name: "one message forwarded is a message, asked", req: `{"server":"gmail","tool":"forward_message","arguments":{"messageId":"18c","forwardTo":"me@gmail.com"}}`,
			decision: Ask, notRules: []string{"mcp.mail-forward-out"}},
		{name: "a label filter forwards nothing", req: `{"server":"gmail","tool":"create_filter","arguments":{"criteria":{"from":"ci@acme.example"},"action":{"addLabelIds":["CI"]}}}`,
			decision: Ask, notRules: []string{"mcp.mail-forward-out"}},
		{name: "pubsub sink in another project", req: `{"server":"logging","tool":"create_log_sink","arguments":{"project":"acme-prod","name":"s","destination":"pubsub.googleapis.com/projects/data-broker-77/topics/in"}}`,
			decision: Deny, rules: []string{"mcp.sink-other-project"}},
		{name: "sink in the same project", req: `{"server":"logging","tool":"create_log_sink","arguments":{"project":"acme-prod","name":"s","destination":"pubsub.googleapis.com/projects/acme-prod/topics/in"}}`,
			decision: Ask, notRules: []string{"mcp.sink-other-project"}},
		{name: "a live key pasted into a web search", req: `{"server":"kagi","tool":"search","arguments":{"q":"stripe error for sk_live_51Qz8RtY7uIo9PaSdFgHjKlZx"}}`,
			decision: Deny, category: CatDataExfiltration, rules: []string{"mcp.secret-to-search"}},
		{name: "an error message searched", req: `{"server":"kagi","tool":"search","arguments":{"q":"stripe error No such customer"}}`,
			decision: Allow, notRules: []string{"mcp.secret-to-search"}},
		{name: "workspace shared with a personal mailbox", req: `{"server":"notion","tool":"invite_workspace_member","arguments":{"email":"someone.else@icloud.com","role":"member"}}`,
			decision: Deny, rules: []string{"mcp.whole-store-shared-out"}},
	})
}

// The ask row: an error ignored, a write into an outside party's space, an unofficial fork.
func TestClassR10AskRow(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "rollbar item muted", req: `{"server":"rollbar","tool":"update_item","arguments":{"item_id":9,"status":"muted"}}`,
			decision: Ask, rules: []string{"mcp.error-ignored"}},
		{name: "sentry issue resolved stays allowed", req: `{"server":"sentry","tool":"update_issue","arguments":{"organizationSlug":"acme","issueId":"X-1","status":"resolved"}}`,
			decision: Allow, notRules: []string{"mcp.error-ignored"}},
		{name: "issue in a contractor's project", req: `{"server":"jira","tool":"create_issue","arguments":{"project_key":"CONTRACTOR-OPS","summary":"Access for Q4"}}`,
			decision: Ask, rules: []string{"mcp.outside-party-space"}},
		{name: "fork of an upstream into the company org", req: `{"server":"github","tool":"fork_repository","arguments":{"owner":"tokio-rs","repo":"tracing","organization":"acme"}}`,
			decision: Ask, level: High, rules: []string{"mcp.repo-exposure"}},
		{name: "fork into an org named after the repository", req: `{"server":"github","tool":"fork_repository","arguments":{"owner":"acme","repo":"payroll-engine","organization":"payroll-engine-x"}}`,
			decision: Deny, rules: []string{"mcp.repo-exposure"}},
	})
}
