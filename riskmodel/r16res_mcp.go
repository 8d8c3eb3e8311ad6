package riskmodel

import (
	"fmt"
	"strconv"
	"strings"
)

// The r16 resource classes through MCP tools with structured arguments: DNS records and
// zones deleted (Cloudflare's dns_records delete, Route 53 change batches with a DELETE
// action, DigitalOcean/Azure/GCP DNS servers), capacity asked for far beyond development
// (a scale, resize or launch tool with a replica, node or instance count over the
// r16res_capacity.go thresholds), and production projects, apps, sites, services and custom
// domains paused, deleted or removed on hosting platforms (Supabase pause_project, Vercel
// remove a domain, Render/Railway/Heroku/Netlify/Fly delete). Gcloud-style runner tools that
// take their command line as an argv array ({"args": ["dns", "record-sets", "delete", …]})
// are handed to the exec analysis like the string form (runnerArgv, mcp.go).

// mcpDNSWords mark a DNS tool; mcpRemoveVerbs the verbs that take something away.
var (
	mcpDNSWords    = wordSet{words: `dns recordset recordsets rrset rrsets zone zones hostedzone hostedzones route53 domainrecord domainrecords nameserver`}
	mcpRemoveVerbs = wordSet{words: `delete remove destroy purge drop rm del erase unset detach teardown`}
	mcpPauseVerbs  = wordSet{words: `pause suspend stop disable shutdown scaledown archive`}
	mcpHostObjects = wordSet{words: `project projects app apps application applications site sites service services deployment deployments
		domain domains environment environments instance instances database databases branch worker workers function functions space spaces`}
	mcpHostServers = wordSet{words: `supabase vercel netlify heroku render railway fly flyio cloudflare digitalocean neon planetscale
		firebase amplify appwrite convex turso koyeb northflank coolify dokku deno`}
	// mcpPlatformDomains are hosting platforms' own subdomains: a preview URL, not the live site.
	mcpPlatformDomains = []string{".vercel.app", ".netlify.app", ".pages.dev", ".workers.dev", ".fly.dev", ".onrender.com",
		".up.railway.app", ".herokuapp.com", ".supabase.co", ".web.app", ".firebaseapp.com", ".amplifyapp.com", ".deno.dev"}
)

// mcpDevTargeted reports a string argument naming a development, test or preview target.
func (c *mcpCtx) devTargeted() bool {
	for _, a := range c.args {
		if a.str && r16DevTarget.get().MatchString(a.val) {
			return true
		}
	}
	return false
}

// mcpDNSDelete says why the call deletes production DNS, "" when it does not.
func mcpDNSDelete(c *mcpCtx) string {
	words := append(append([]string{}, c.serverWords...), c.toolWords...)
	// "record" alone is any database row; with a domain or a DNS provider it is a DNS record.
	domainRecord := mcpAnyWord(words, mcpWordSet("record records")) && mcpAnyWord(words, mcpWordSet("domain domains cloudflare"))
	if !domainRecord && !mcpAnyWord(words, mcpDNSWords.get()) && !mcpAnyWord(c.objWords, mcpDNSWords.get()) {
		return ""
	}
	del := mcpAnyWord(c.toolWords, mcpRemoveVerbs.get()) || mcpRemoveVerbs.has(strings.ToLower(c.verb))
	if !del {
		for _, a := range c.args {
			if a.str && (a.nkey == "action" || a.nkey == "changeaction" || a.nkey == "operation") && strings.EqualFold(strings.TrimSpace(a.val), "delete") {
				del = true
			}
		}
	}
	if !del || c.devTargeted() {
		return ""
	}
	return "it deletes DNS records or a zone not named for development or test: the names stop resolving for every client"
}

// mcpCapacityKeys are argument names that carry a count, by kind.
var (
	mcpReplicaKeys = wordSet{words: `replicas replicacount desiredcount taskcount maxreplicas minreplicas scale`}
	mcpMachineKeys = wordSet{words: `count instancecount instances nodecount numnodes nodes maxnodes minnodes maxsize minsize
		desiredcapacity desiredsize size targetsize newcapacity capacity maxcount mincount maxinstances mininstances machinecount`}
	mcpCapacityVerbs = wordSet{words: `scale scaling autoscale autoscaler resize create launch run start provision bulk update set`}
	mcpMachineNouns  = wordSet{words: `instance instances vm vms node nodes nodepool nodepools pool pools droplet droplets server servers
		machine machines cluster clusters group groups asg mig vmss fleet gpu gpus`}
)

// mcpRunawayCapacity says why the call asks for runaway capacity, "" when it does not.
func mcpRunawayCapacity(c *mcpCtx) string {
	if !mcpAnyWord(c.toolWords, mcpCapacityVerbs.get()) || c.devTargeted() && c.prodHint == "" {
		return ""
	}
	scaleTool := mcpAnyWord(c.toolWords, mcpWordSet("scale scaling autoscale resize"))
	machineTool := mcpAnyWord(c.toolWords, mcpMachineNouns.get()) || mcpAnyWord(c.objWords, mcpMachineNouns.get())
	gpu := ""
	for _, a := range c.args {
		if a.str && capGPU.get().MatchString(a.val) {
			gpu = a.val
		}
	}
	for _, a := range c.args {
		n, err := strconv.Atoi(strings.TrimSpace(a.val))
		if err != nil {
			continue
		}
		switch {
		case mcpReplicaKeys.has(a.nkey) && (scaleTool || machineTool) && n >= capReplicaMax:
			return fmt.Sprintf("it sets %s=%d, at or above %d: resource exhaustion and a runaway bill", a.key, n, capReplicaMax)
		case mcpMachineKeys.has(a.nkey) && machineTool && gpu != "" && n >= capGPUMax:
			return fmt.Sprintf("it asks for %s=%d accelerator machines (%s), at or above %d: a runaway bill", a.key, n, mcpCleanText(gpu, 40), capGPUMax)
		case mcpMachineKeys.has(a.nkey) && machineTool && n >= capCeilingMax:
			return fmt.Sprintf("it asks for %s=%d machines, at or above %d: a runaway bill", a.key, n, capCeilingMax)
		}
	}
	return ""
}

// mcpProdHostRemoval says why the call pauses, deletes or removes a production project,
// app, site, service, deployment or custom domain on a hosting platform, "" when it does not.
func mcpProdHostRemoval(c *mcpCtx) string {
	words := append(append([]string{}, c.serverWords...), c.toolWords...)
	if !mcpAnyWord(words, mcpHostServers.get()) && !c.infra {
		return ""
	}
	verb := ""
	for _, w := range append(append([]string{}, c.toolWords...), strings.ToLower(c.verb)) {
		if mcpRemoveVerbs.has(w) || mcpPauseVerbs.has(w) {
			verb = w
		}
	}
	if verb == "" || !mcpAnyWord(c.toolWords, mcpHostObjects.get()) && !mcpAnyWord(c.objWords, mcpHostObjects.get()) {
		return ""
	}
	if c.devTargeted() {
		return ""
	}
	target := c.prodHint
	for _, a := range c.args {
		if target == "" && a.str && prodLike(a.val) {
			target = a.key + "=" + mcpCleanText(a.val, 40)
		}
	}
	if target == "" && mcpAnyWord(c.toolWords, mcpWordSet("domain domains")) && mcpRemoveVerbs.has(verb) {
		for _, a := range c.args {
			if a.str && (a.nkey == "domain" || a.nkey == "name" || a.nkey == "hostname") && strings.Contains(a.val, ".") && !hasSuffixAny(strings.ToLower(a.val), mcpPlatformDomains) {
				target = "the custom domain " + mcpCleanText(a.val, 60)
			}
		}
	}
	if target == "" {
		return ""
	}
	return fmt.Sprintf("it %ss a production target (%s) on a hosting platform: the live service goes down", verb, target)
}

func mcpR16ResRules() []*Rule {
	return []*Rule{
		{ID: "mcp.dns-delete", Kind: KindMCP, Level: High, Category: CatFinancialOrProduction,
			Message: "Deletes DNS records or a zone that is not named for development or test", mcp: mcpWhich(mcpDNSDelete)},
		{ID: "mcp.runaway-capacity", Kind: KindMCP, Level: High, Category: CatResourceExhaustion,
			Message: "Asks for far more replicas, machines, accelerators or nodes than any development task needs", mcp: mcpWhich(mcpRunawayCapacity)},
		{ID: "mcp.prod-host-removal", Kind: KindMCP, Level: High, Category: CatFinancialOrProduction,
			Message: "Pauses, deletes or removes a production project, app, site, service or custom domain on a hosting platform", mcp: mcpWhich(mcpProdHostRemoval)},
	}
}
