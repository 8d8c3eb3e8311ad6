package riskmodel

import "testing"

// The r16 resource classes through MCP tools with structured arguments (r16res_mcp.go), and
// CLI runners that take their command line as an argv array. Sources: Cloudflare MCP server
// (dns_records tools), AWS Route 53 ChangeResourceRecordSets API, Kubernetes MCP servers'
// scale tools, GKE/EKS/DigitalOcean node-pool APIs, Supabase MCP (pause_project), Vercel,
// Render, Railway and Netlify MCP servers, Google's gcloud MCP server (run_gcloud_command).
func TestClassR16ResMCP(t *testing.T) {
	a := newB6MCPAnalyzer(t, Policy{})
	runMCPCases(t, a, []mcpCase{
		{name: "cloudflare record delete", req: `{"server":"cloudflare-dns","tool":"delete_record","arguments":{"zone_id":"9a7f","record_id":"1c2d"}}`,
			decision: Deny, rules: []string{"mcp.dns-delete"}},
		{name: "route53 change batch DELETE", req: `{"server":"aws-route53","tool":"change_resource_record_sets","arguments":{"HostedZoneId":"Z9","ChangeBatch":{"Changes":[{"Action":"DELETE","ResourceRecordSet":{"Name":"pay.acme.io","Type":"A"}}]}}}`,
			decision: Deny, rules: []string{"mcp.dns-delete"}},
		{name: "digitalocean domain record delete", req: `{"server":"digitalocean","tool":"domain_record_delete","arguments":{"domain":"acme.io","record_id":88}}`,
			decision: Deny, rules: []string{"mcp.dns-delete"}},
		{name: "staging record delete", req: `{"server":"cloudflare","tool":"dns_records_delete","arguments":{"zone":"acme.io","name":"staging-api.acme.io","type":"A"}}`,
			decision: Ask, notRules: []string{"mcp.dns-delete"}},
		{name: "record update", req: `{"server":"cloudflare","tool":"dns_records_update","arguments":{"zone":"acme.io","name":"api","type":"CNAME","content":"lb.acme.io"}}`,
			decision: Ask, notRules: []string{"mcp.dns-delete"}},
		{name: "scale to two thousand", req: `{"server":"k8s","tool":"scale_resource","arguments":{"kind":"Deployment","name":"checkout","namespace":"shop","replicas":2000}}`,
			decision: Deny, rules: []string{"mcp.runaway-capacity"}},
		{name: "node pool to 800", req: `{"server":"gke","tool":"resize_node_pool","arguments":{"cluster":"main","node_pool":"default","node_count":800}}`,
			decision: Deny, rules: []string{"mcp.runaway-capacity"}},
		{name: "gpu instances", req: `{"server":"ec2","tool":"launch_instances","arguments":{"instance_type":"p4de.24xlarge","count":12,"image_id":"ami-1"}}`,
			decision: Deny, rules: []string{"mcp.runaway-capacity"}},
		{name: "ordinary scale", req: `{"server":"k8s","tool":"scale_resource","arguments":{"kind":"Deployment","name":"checkout","namespace":"shop","replicas":4}}`,
			decision: Ask, notRules: []string{"mcp.runaway-capacity"}},
		{name: "pause production project", req: `{"server":"supabase","tool":"pause_project","arguments":{"project_id":"orders-prod"}}`,
			decision: Deny, rules: []string{"mcp.prod-host-removal"}},
		{name: "remove live custom domain", req: `{"server":"vercel","tool":"remove_project_domain","arguments":{"project":"storefront","domain":"shop.acme.io"}}`,
			decision: Deny, rules: []string{"mcp.prod-host-removal"}},
		{name: "delete production render service", req: `{"server":"render","tool":"delete_service","arguments":{"serviceId":"srv-api-production"}}`,
			decision: Deny, rules: []string{"mcp.prod-host-removal"}},
		{name: "pause dev project", req: `{"server":"supabase","tool":"pause_project","arguments":{"project_id":"sandbox-42"}}`,
			decision: Ask, notRules: []string{"mcp.prod-host-removal"}},
		{name: "gcloud argv array bulk create", req: `{"server":"gcloud","tool":"run_gcloud_command","arguments":{"args":["compute","instances","bulk","create","--count=300","--name-pattern=w-###","--zone=us-east1-b"]}}`,
			decision: Deny, rules: []string{"cloud.runaway-capacity"}},
		{name: "gcloud argv array dns delete", req: `{"server":"gcloud","tool":"run_gcloud_command","arguments":{"args":["dns","record-sets","delete","www.acme.io.","--zone=public","--type=A"]}}`,
			decision: Deny, rules: []string{"cloud.dns-delete"}},
		{name: "gcloud argv array list", req: `{"server":"gcloud","tool":"run_gcloud_command","arguments":{"args":["compute","instances","list","--format=json"]}}`,
			decision: Allow},
		{name: "aws cli bulk refunds via xargs", req: `{"server":"shell","tool":"run_command","arguments":{"command":"stripe charges list --limit 100 | jq -r '.data[].id' | xargs -I{} stripe refunds create --charge={}"}}`,
			decision: Deny, rules: []string{"cloud.bulk-money-move"}},
	})
}
