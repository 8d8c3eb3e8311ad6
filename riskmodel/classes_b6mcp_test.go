package riskmodel

import "testing"

// Routine MCP work and its external neighbours (docs/policy.md): each class below has the
// routine side that must not be asked and the side the policy asks about or denies.

// A payment word that is also a git verb (checkout) or free text in an argument (a branch
// name, a project title) is not a payment or a production change; the action and the
// environment arguments decide.
func TestClassMCPWordFalseMatch(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "git checkout of a branch named after the cart", req: `{"server":"git","tool":"git_checkout","arguments":{"repo_path":"/home/lee/code/shop","branch_name":"feature/checkout-redesign"},"workspace":["/home/lee/code/shop"]}`,
			decision: Allow, level: Low, notRules: []string{"mcp.payment"}},
		{name: "git-mcp-server checkout", req: `{"server":"git-mcp","tool":"git_checkout","arguments":{"path":"/home/lee/code/shop","target":"billing/invoices-v2"},"workspace":["/home/lee/code/shop"]}`,
			decision: Allow, notRules: []string{"mcp.payment"}},
		{name: "a checkout session on a payment service stays a payment", req: `{"server":"lemonsqueezy","tool":"create_checkout","arguments":{"store_id":"1","variant_id":"2"}}`,
			decision: Ask, level: High, rules: []string{"mcp.payment"}},
		{name: "stripe refund stays a payment", req: `{"server":"stripe","tool":"create_refund","arguments":{"charge":"ch_1"}}`,
			decision: Ask, rules: []string{"mcp.payment"}},
		{name: "a tracker project titled with production", req: `{"server":"linear","tool":"create_issue","arguments":{"teamId":"ENG","title":"Retry webhooks","project":"Production hardening"}}`,
			decision: Allow, notRules: []string{"mcp.production-change"}},
		{name: "a wiki page named live", req: `{"server":"notion","tool":"create_page","arguments":{"parent":"p1","name":"Live demo checklist"}}`,
			decision: Allow, notRules: []string{"mcp.production-change"}},
		{name: "a namespace named production stays production", req: `{"server":"kubernetes","tool":"scale_deployment","arguments":{"name":"api","namespace":"production","replicas":4}}`,
			decision: Ask, level: High, rules: []string{"mcp.production-change"}},
		{name: "a deployment environment on a code host stays production", req: `{"server":"github","tool":"create_deployment","arguments":{"owner":"acme","repo":"api","environment":"production","ref":"v2"}}`,
			decision: Ask, level: High, rules: []string{"mcp.production-change"}},
	})
}

// A local file database (SQLite, DuckDB) whose server names no file outside the workspace
// and no other host is the project's development data: writes and new tables are routine.
func TestClassMCPLocalFileDatabase(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "sqlite insert", req: `{"server":"sqlite","tool":"write_query","arguments":{"query":"UPDATE runs SET status='done' WHERE id=4"},"workspace":["/home/kim/src/bench"]}`,
			decision: Allow, rules: []string{"mcp.sql-write-local"}, notRules: []string{"mcp.sql-write"}},
		{name: "sqlite create table", req: `{"server":"sqlite","tool":"create_table","arguments":{"query":"CREATE TABLE metrics (k TEXT, v REAL)"}}`,
			decision: Allow, notRules: []string{"mcp.sql-schema-change"}},
		{name: "duckdb create table in the workspace file", req: `{"server":"duckdb","tool":"query","arguments":{"database":"/home/kim/src/bench/data.duckdb","query":"CREATE TABLE t AS SELECT 1"},"workspace":["/home/kim/src/bench"]}`,
			decision: Allow, notRules: []string{"mcp.sql-schema-change"}},
		{name: "sqlite file of another application", req: `{"server":"sqlite","tool":"write_query","arguments":{"db_path":"/home/kim/Library/Messages/chat.db","query":"UPDATE message SET text='' WHERE rowid=3"},"workspace":["/home/kim/src/bench"]}`,
			decision: Ask, rules: []string{"mcp.sql-write"}},
		{name: "postgres schema change stays asked", req: `{"server":"postgres","tool":"query","arguments":{"sql":"ALTER TABLE users ADD COLUMN plan text"}}`,
			decision: Ask, level: High, rules: []string{"mcp.sql-schema-change"}},
		{name: "sqlite server given a remote host", req: `{"server":"sqlite","tool":"write_query","arguments":{"host":"db.internal.example","query":"INSERT INTO t VALUES (1)"}}`,
			decision: Ask, rules: []string{"mcp.sql-write"}},
	})
}

// Comments, reactions and work items on the project's own repository or team tracker are
// team work; the same on another party's repository, a vendor's tracker or a customer team's
// issue is a message to an external party.
func TestClassMCPTeamWorkAndOutsiders(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "comment on the workspace's own repository", req: `{"server":"github","tool":"add_issue_comment","arguments":{"owner":"northwind","repo":"ledger-svc","issue_number":7,"body":"Reproduced on main."},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Allow, level: Low, rules: []string{"mcp.team-work"}},
		{name: "gitlab note on own project path", req: `{"server":"gitlab","tool":"create_note","arguments":{"project_id":"northwind/platform/ledger-svc","noteable_type":"issue","noteable_iid":3,"body":"Fixed."},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Allow, rules: []string{"mcp.team-work"}},
		{name: "comment with no workspace to tell whose repository", req: `{"server":"github","tool":"add_issue_comment","arguments":{"owner":"northwind","repo":"ledger-svc","issue_number":7,"body":"x"}}`,
			decision: Ask, rules: []string{"mcp.message-send"}},
		{name: "comment on an upstream project", req: `{"server":"github","tool":"add_issue_comment","arguments":{"owner":"golang","repo":"go","issue_number":60001,"body":"Same here on 1.22."},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Ask, notRules: []string{"mcp.team-work"}},
		{name: "issue on an upstream project", req: `{"server":"github","tool":"create_issue","arguments":{"owner":"sqlc-dev","repo":"sqlc","title":"panic on enum","body":"steps"},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Ask, notRules: []string{"mcp.team-work"}},
		{name: "issue on own repository", req: `{"server":"github","tool":"create_issue","arguments":{"owner":"northwind","repo":"ledger-svc","title":"flaky test","body":"seen twice"},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Allow, rules: []string{"mcp.team-work"}},
		{name: "linear comment", req: `{"server":"linear","tool":"create_comment","arguments":{"issueId":"ENG-51","body":"Fix is in review."}}`,
			decision: Allow, rules: []string{"mcp.team-work"}},
		{name: "linear comment on a customer team's issue", req: `{"server":"linear","tool":"create_comment","arguments":{"issueId":"CUST-12","body":"Hi, deployed the fix, please retry."}}`,
			decision: Ask, notRules: []string{"mcp.team-work"}},
		{name: "jira issue in a vendor's site", req: `{"server":"atlassian","tool":"createJiraIssue","arguments":{"cloudId":"initech-vendor.atlassian.net","projectKey":"OPS","issueTypeName":"Task","summary":"webhook retries"}}`,
			decision: Ask, notRules: []string{"mcp.team-work"}},
		{name: "jira issue in the team's site", req: `{"server":"atlassian","tool":"createJiraIssue","arguments":{"cloudId":"northwind.atlassian.net","projectKey":"PAY","issueTypeName":"Task","summary":"webhook retries"}}`,
			decision: Allow, rules: []string{"mcp.team-work"}},
		{name: "slack reaction in a team channel", req: `{"server":"slack","tool":"slack_add_reaction","arguments":{"channel_id":"C01PLATFORM","timestamp":"1700000000.000100","reaction":"eyes"}}`,
			decision: Allow, rules: []string{"mcp.team-work"}},
		{name: "slack reaction in a shared customer channel", req: `{"server":"slack","tool":"slack_add_reaction","arguments":{"channel_id":"#ext-globex","timestamp":"1700000000.000100","reaction":"eyes"}}`,
			decision: Ask, notRules: []string{"mcp.team-work"}},
		{name: "a review of a pull request stays asked", req: `{"server":"github","tool":"create_pull_request_review","arguments":{"owner":"northwind","repo":"ledger-svc","pull_number":4,"event":"APPROVE"},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Ask, notRules: []string{"mcp.team-work"}},
		{name: "copilot review of own pull request", req: `{"server":"github","tool":"request_copilot_review","arguments":{"owner":"northwind","repo":"ledger-svc","pullNumber":9},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Allow, rules: []string{"mcp.team-work"}},
		{name: "file removal on a feature branch of own repository", req: `{"server":"github","tool":"delete_file","arguments":{"owner":"northwind","repo":"ledger-svc","path":"docs/old.md","message":"rm","branch":"chore/docs"},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Allow, rules: []string{"mcp.team-work"}, notRules: []string{"mcp.destroy-verb"}},
		{name: "file removal on the default branch", req: `{"server":"github","tool":"delete_file","arguments":{"owner":"northwind","repo":"ledger-svc","path":"docs/old.md","message":"rm","branch":"main"},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Deny, notRules: []string{"mcp.team-work"}},
		{name: "file removal on another party's repository", req: `{"server":"github","tool":"delete_file","arguments":{"owner":"golang","repo":"go","path":"README.md","message":"rm","branch":"fix/x"},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Ask, notRules: []string{"mcp.team-work"}},
	})
}

// Tools whose names say nothing are catalogued (riskmodel/catalog/mcptools.toml): a
// reasoning scratchpad or a command suggester changes nothing, a type generator reads.
func TestClassMCPToolCatalogue(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "sequential thinking", req: `{"server":"thinking","tool":"sequentialthinking","arguments":{"thought":"Bisect the failing commit first.","thoughtNumber":2,"totalThoughts":5,"nextThoughtNeeded":true}}`,
			decision: Allow, level: Low, rules: []string{"mcp.no-effect"}},
		{name: "suggested aws commands are not run", req: `{"server":"aws-api","tool":"suggest_aws_commands","arguments":{"query":"delete the s3 bucket logs-prod"}}`,
			decision: Allow, level: Low, notRules: []string{"cloud.change", "cloud.delete"}},
		{name: "call_aws still runs its command", req: `{"server":"aws-api","tool":"call_aws","arguments":{"cli_command":"aws s3 rb s3://logs-prod --force"}}`,
			decision: Deny, notRules: []string{"mcp.no-effect"}},
		{name: "supabase types", req: `{"server":"supabase","tool":"generate_typescript_types","arguments":{"project_id":"abcd"}}`,
			decision: Allow, level: Low, category: CatReadOnly},
		{name: "a thought carrying a key is still a secret", req: `{"server":"thinking","tool":"sequentialthinking","arguments":{"thought":"use AKIAIOSFODNN7EXAMPLQ and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY","thoughtNumber":1,"totalThoughts":1,"nextThoughtNeeded":false}}`,
			decision: Ask, rules: []string{"mcp.secret-in-args"}},
		{name: "same tool name on an unrelated server is not catalogued", req: `{"server":"ops","tool":"generate_typescript_types","arguments":{"project_id":"abcd"}}`,
			decision: Ask, notRules: []string{"mcp.read"}},
	})
}

// A local git tool that only unstages (a reset that is not --hard) or cleans untracked files
// of a repository in the workspace loses no tracked work.
func TestClassMCPGitKeepsWork(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "unstage all", req: `{"server":"git","tool":"git_reset","arguments":{"repo_path":"/home/ola/code/ledger-svc"},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Allow, level: Low, rules: []string{"mcp.git-keeps-work"}},
		{name: "mixed reset through git-mcp-server", req: `{"server":"git-tools","tool":"git_reset","arguments":{"path":"/home/ola/code/ledger-svc","mode":"mixed"},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Allow, rules: []string{"mcp.git-keeps-work"}},
		{name: "hard reset is asked", req: `{"server":"git","tool":"git_reset","arguments":{"repo_path":"/home/ola/code/ledger-svc","mode":"hard"},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Ask, notRules: []string{"mcp.git-keeps-work"}},
		{name: "clean in the workspace", req: `{"server":"git","tool":"git_clean","arguments":{"repo_path":"/home/ola/code/ledger-svc","force":true,"directories":true},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Allow, rules: []string{"mcp.git-keeps-work"}, notRules: []string{"mcp.git-discard"}},
		{name: "clean of another project", req: `{"server":"git","tool":"git_clean","arguments":{"repo_path":"/home/ola/code/other-app","force":true},"workspace":["/home/ola/code/ledger-svc"]}`,
			decision: Ask, notRules: []string{"mcp.git-keeps-work"}},
	})
}

// A compose stack a container tool starts stays on this machine when every published port is
// bound to loopback and nothing reaches the host: that is a development service.
func TestClassMCPLocalDevService(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	stack := func(extra string) string {
		return `{"server":"docker","tool":"deploy-compose","arguments":{"project_name":"ledger","compose_yaml":"services:\n  cache:\n    image: redis:7\n` + extra + `"}}`
	}
	runMCPCases(t, a, []mcpCase{
		{name: "loopback port, block list", req: stack(`    ports:\n      - \"127.0.0.1:6379:6379\"\n`),
			decision: Allow, rules: []string{"mcp.local-dev-service"}, notRules: []string{"mcp.production-change"}},
		{name: "no published port, named volume", req: stack(`    volumes:\n      - cache-data:/data\n`),
			decision: Allow, rules: []string{"mcp.local-dev-service"}},
		{name: "port on every interface", req: stack(`    ports: ['6379:6379']\n`),
			decision: Ask, notRules: []string{"mcp.local-dev-service"}},
		{name: "host directory mounted", req: stack(`    volumes:\n      - /home/ola:/data\n`),
			decision: Ask, notRules: []string{"mcp.local-dev-service"}},
		{name: "docker socket mounted", req: stack(`    volumes:\n      - /var/run/docker.sock:/var/run/docker.sock\n`),
			decision: Ask, notRules: []string{"mcp.local-dev-service"}},
		{name: "privileged", req: stack(`    privileged: true\n`),
			decision: Deny, notRules: []string{"mcp.local-dev-service"}},
		{name: "host network", req: stack(`    network_mode: host\n`),
			decision: Ask, notRules: []string{"mcp.local-dev-service"}},
		{name: "named production", req: `{"server":"docker","tool":"deploy-compose","arguments":{"project_name":"ledger","environment":"production","compose_yaml":"services:\n  cache:\n    image: redis:7\n"}}`,
			decision: Ask, notRules: []string{"mcp.local-dev-service"}},
	})
}

// Reading a secret's value into the transcript is asked (one named secret) or denied (bulk);
// listing secret names is inspection.
func TestClassMCPSecretValueRead(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "vault one prod secret", req: `{"server":"vault","tool":"read_secret","arguments":{"path":"secret/data/prod/twilio"}}`,
			decision: Ask, level: High, category: CatCredentialAccess, rules: []string{"mcp.secret-value-read"}},
		{name: "secrets manager value", req: `{"server":"aws-secrets","tool":"get_secret_value","arguments":{"secret_id":"prod/db"}}`,
			decision: Ask, rules: []string{"mcp.secret-value-read"}},
		{name: "vault read with a wildcard", req: `{"server":"vault","tool":"read_secret","arguments":{"path":"secret/data/prod/*"}}`,
			decision: Deny, rules: []string{"mcp.secret-value-read"}},
		{name: "list secret names", req: `{"server":"vault","tool":"list_secrets","arguments":{"path":"secret/metadata/prod/"}}`,
			decision: Allow, notRules: []string{"mcp.secret-value-read"}},
		{name: "code scanning secret alerts", req: `{"server":"github","tool":"list_secret_scanning_alerts","arguments":{"owner":"a","repo":"b"}}`,
			decision: Allow, notRules: []string{"mcp.secret-value-read"}},
	})
}

// Text typed into a site's message or support form and submitted is a message to the people
// behind the site; a search or coupon box is not.
func TestClassMCPBrowserMessageSubmit(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "vendor support form", req: `{"server":"playwright","tool":"browser_type","arguments":{"element":"How can we help? (support request)","ref":"e4","text":"Our webhooks stopped arriving since Monday","submit":true}}`,
			decision: Ask, category: CatNetworkEgress, rules: []string{"mcp.browser-message-submit"}},
		{name: "typed but not submitted", req: `{"server":"playwright","tool":"browser_type","arguments":{"element":"Message box","ref":"e4","text":"Our webhooks stopped arriving since Monday","submit":false}}`,
			decision: Allow, notRules: []string{"mcp.browser-message-submit"}},
		{name: "search box submitted", req: `{"server":"playwright","tool":"browser_type","arguments":{"element":"Search docs","ref":"e2","text":"rate limit headers","submit":true}}`,
			decision: Allow, notRules: []string{"mcp.browser-message-submit"}},
		{name: "comment form of the local app under test", req: `{"server":"playwright","tool":"browser_type","arguments":{"element":"Comment field on http://localhost:3000/posts/1","ref":"e9","text":"this is a test comment","submit":true}}`,
			decision: Allow, notRules: []string{"mcp.browser-message-submit"}},
	})
}

func newB6MCPAnalyzer(t *testing.T, p Policy) *Analyzer {
	t.Helper()
	a, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
