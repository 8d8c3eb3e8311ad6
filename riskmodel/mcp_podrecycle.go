package riskmodel

import "strings"

// singlePodDelete reports an MCP call that deletes one named pod (kubectl_delete with
// resourceType pod and a name, no selector, no --all). Its controller starts a replacement:
// the effect is a restart of one replica, a production change whose stated reason decides it
// (docs/policy.md: ask), not production infrastructure destroyed.
func (c *mcpCtx) singlePodDelete() bool {
	kind, _ := c.top("resourcetype", "kind", "resource", "type")
	switch strings.ToLower(strings.TrimSpace(kind.val)) {
	case "pod", "pods", "po":
	default:
		return false
	}
	name, _ := c.top("name", "resourcename", "podname")
	n := strings.TrimSpace(name.val)
	if n == "" || strings.ContainsAny(n, "*, ") {
		return false
	}
	if sel, ok := c.top("labelselector", "selector", "l", "fieldselector"); ok && strings.TrimSpace(sel.val) != "" {
		return false
	}
	return !c.truthy("all") && !c.truthy("allnamespaces")
}
