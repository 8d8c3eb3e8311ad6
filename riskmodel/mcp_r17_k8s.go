package riskmodel

import "strings"

// kubeSummaryList reports a Flux159/mcp-server-kubernetes kubectl_get that lists a kind with
// the server's default output. Its source (src/tools/kubectl-get.ts) defaults output to json
// and, for a list (no name) in json, returns only each item's name, namespace, kind, status
// and creation time — never a Secret's data — and masks Secret data besides unless the
// server runs with MASK_SECRETS=false. An explicit output (yaml, json, jsonpath) or a name
// asks for the objects themselves and stays a Secret read.
func (c *mcpCtx) kubeSummaryList() bool {
	if mcpNormKey(c.req.Tool) != "kubectlget" {
		return false
	}
	rt, ok := c.top("resourcetype")
	if !ok || strings.Contains(rt.val, "/") {
		return false // another server's get with the same name, or "secret/NAME": one object
	}
	if _, ok := c.top("output", "o", "format"); ok {
		return false
	}
	name, _ := c.top("name", "secretname", "resourcename")
	return strings.TrimSpace(name.val) == ""
}
