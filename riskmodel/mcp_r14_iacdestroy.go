package riskmodel

import (
	"fmt"
	"strings"
)

// Infrastructure-as-code runs that destroy and apply at once. A Terraform Cloud/HCP run with
// "is-destroy": true and "auto-apply": true tears down every resource of its workspace with no
// plan review (developer.hashicorp.com "Runs API": is-destroy, auto-apply); Pulumi Deployments
// with "operation": "destroy" (pulumi.com/docs "Deployments REST API"), a Spacelift run or
// task of type DESTROY, and an env0 destroy with "requiresApproval": false do the same. On a
// workspace, stack or environment named for production this is cloud.destroy's effect:
// denied. A plan-only destroy (speculative, plan_only, auto-apply false) stays as the other
// rules judge it, as does a destroy on a non-production workspace.

// mcpR14IaCTargetKeys name the workspace, stack or environment a run acts on.
var mcpR14IaCTargetKeys = wordSet{words: `workspace workspacename workspaceid stack stackname stackid stackref environment
	environmentname environmentid env project projectname organization`}

// iacDestroyApplied reports a destroy run applied without review on a production target.
func (c *mcpCtx) iacDestroyApplied() string {
	var destroy, apply, planOnly bool
	target := ""
	for _, a := range c.args {
		if a.depth > 2 {
			continue
		}
		v := strings.ToLower(strings.TrimSpace(a.val))
		switch a.nkey {
		case "isdestroy", "destroy", "plandestroy":
			destroy = destroy || v == "true"
		case "operation", "runtype", "type", "deploymenttype", "kind":
			destroy = destroy || v == "destroy"
			apply = apply || a.nkey == "operation" && v == "destroy" // a Pulumi deployment runs what it names
		case "autoapply", "autoapprove", "autoconfirm", "skippreview", "yes":
			apply = apply || v == "true"
		case "requiresapproval", "manualapproval":
			apply = apply || v == "false"
		case "planonly", "speculative", "dryrun", "preview":
			planOnly = planOnly || v == "true"
		}
		if a.str && target == "" && mcpR14IaCTargetKeys.has(a.nkey) {
			for _, w := range mcpSplitWords(mcpClip(a.val, 200)) {
				if mcpProdWords.has(w) {
					target = a.key + "=" + mcpCleanText(a.val, 40)
					break
				}
			}
		}
	}
	if !destroy || !apply || planOnly {
		return ""
	}
	if target == "" {
		target = c.prodHint
	}
	if target == "" {
		return ""
	}
	return fmt.Sprintf("%s, which starts a destroy run applied without plan review on a production target (%s): every resource it manages is torn down",
		c.call(), target)
}
