package riskmodel

import "testing"

// A security control switched off through a vendor's HTTP API (httpAPISecurityOff): the same
// settings the MCP servers' tools change, sent with curl or wget as a JSON body, whatever the
// vendor; with neighbours that switch a setting on, read it, or change a setting that is no
// control.
func TestClassHTTPAPISecurityOff(t *testing.T) {
	runExecCases(t, []execCase{
		{`curl -s -X PATCH https://api.cloudflare.com/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/settings/always_use_https -H "Authorization: Bearer $CF_API_TOKEN" --json '{"value":"off"}'`, Deny, "cloud.security-off", ""},
		{`curl -X PATCH "https://api.cloudflare.com/client/v4/zones/$ZONE/settings/min_tls_version" -H "Authorization: Bearer $CLOUDFLARE_API_TOKEN" -d '{"value":"1.0"}'`, Deny, "cloud.security-off", ""},
		{`curl -X PUT https://sentry.io/api/0/projects/acme/web/ -H "Authorization: Bearer $SENTRY_TOKEN" -H 'Content-Type: application/json' -d '{"dataScrubber": false, "scrubIPAddresses": false}'`, Deny, "cloud.security-off", ""},
		{`curl -s -X PATCH https://api.example-idp.com/v1/policies/mfa -d '{"mfa_required": false}'`, Deny, "cloud.security-off", ""},
		{`wget --method=PUT --body-data='{"waf": "off"}' https://api.edge-vendor.net/v2/sites/shop/security`, Deny, "cloud.security-off", ""},
		// Neighbours.
		{`curl -s -X PATCH https://api.cloudflare.com/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/settings/ssl -H "Authorization: Bearer $CF_API_TOKEN" -d '{"value":"strict"}'`, Ask, "", "cloud.security-off"},
		{`curl -s https://api.cloudflare.com/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/settings/ssl -H "Authorization: Bearer $CF_API_TOKEN"`, Allow, "", "cloud.security-off"},
		{`curl -s -X PATCH https://api.cloudflare.com/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/settings/rocket_loader -H "Authorization: Bearer $CF_API_TOKEN" -d '{"value":"off"}'`, Ask, "", "cloud.security-off"},
		{`curl -s -X POST http://localhost:8080/api/settings -d '{"tls": "off"}'`, Allow, "", "cloud.security-off"},
	})
}
