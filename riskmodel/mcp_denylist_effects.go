package riskmodel

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Deny-list effects of MCP calls that the verb alone rates as an ordinary production change,
// recognised by what the arguments select (docs/policy.md's deny list):
//   - moving another project (a directory beside the workspace or in a folder of projects)
//     into the temporary directory or a trash: destruction of another project;
//   - a public repository named as a copy of the project (backup, mirror, copy, export,
//     dump) or after the workspace itself: the project's source about to be exposed;
//   - a Kubernetes port-forward bound to every interface (0.0.0.0, ::) in production: a
//     production service exposed to the network, a tunnel;
//   - a deletion, refund or cancellation whose selector is a wildcard ("*", "all", null):
//     every record at once, not a chosen one;
//   - scaling a production workload past mcpAbsurdReplicas with no stated reason: resource
//     exhaustion and a bill nobody asked for;
//   - SQL that deletes users or accounts by a range, not a key, on a hosted database that
//     names no development environment: bulk deletion of production data.
// A public repository alone, a port-forward on loopback, a refund of one charge, a scale to a
// sane count and a DELETE by id stay where the other rules put them.

// mcpAbsurdReplicas is the replica count above which a production scale with no stated
// reason is taken as runaway: far beyond a service's usual fleet (Kubernetes' own
// scalability guidance sizes clusters at 110 pods a node), so a typo or a loop, not a plan.
const mcpAbsurdReplicas = 100

// mcpProjectFolders are home folders that hold projects (~/src/NAME, ~/code/NAME).
var mcpProjectFolders = &wordSet{words: `src code projects project repos repositories dev development work workspace
	workspaces git github gitlab sources developer Developer Projects Code`}

// mcpCopyNameWords name a copy of a repository.
var mcpCopyNameWords = &wordSet{words: `backup backups bak mirror mirrors copy clone export exports dump snapshot archive`}

// mcpWildcardValues select every record.
var mcpWildcardValues = &wordSet{words: `* all % any everything`}

// mcpSelectorKeys name the record a deletion, refund or cancellation acts on.
var mcpSelectorKeys = &wordSet{words: `id ids recordid recordids record name charge charges chargeid paymentintent paymentintentid
	subscription subscriptionid invoice invoiceid customer customerid target selector filter key keys pattern`}

// mcpMoneyBackWords are refund and cancellation verbs.
var mcpMoneyBackWords = &wordSet{words: `refund refunds cancel cancellation void reverse`}

type mcpDenyEffectRegexps struct {
	narrowKey *regexp.Regexp // WHERE id = …, email = '…', IN (…)
	userTable *regexp.Regexp // DELETE FROM / UPDATE of a users or accounts table
	devEnv    *regexp.Regexp
	address   *regexp.Regexp // 12 Oak St, 400 Main Street
	bulk      *regexp.Regexp // 4,102 rows, customer list
}

var mcpDenyEffectRe = table[mcpDenyEffectRegexps]{build: func() mcpDenyEffectRegexps {
	return mcpDenyEffectRegexps{
		narrowKey: regexp.MustCompile(`(?i)\bwhere\b[^;]*?\b(?:[a-z_]*id|uuid|email|username|login)\s*(?:=\s*(?:'|\d|\$\d|:|\?)|in\s*\(\s*(?:'|\d))`),
		userTable: regexp.MustCompile(`(?i)\b(?:delete\s+from|update)\s+(?:only\s+)?(?:"?[a-z_]+"?\.)?"?(?:users?|accounts?|customers?|members?|profiles?|identities|auth_users?)"?\b`),
		address:   regexp.MustCompile(`\b\d{1,5}\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Ln|Lane|Dr|Drive|Way|Ct|Court|Pl|Place)\b`),
		bulk:      regexp.MustCompile(`(?i)\b\d[\d,.]*\s*k?\s+(?:rows|records|customers|users|contacts|accounts|entries|subscribers)\b|\bcustomer\s+(?:list|export|records|emails|data)\b`),
		devEnv:    regexp.MustCompile(`(?i)(?:^|[^a-z])(?:dev|development|staging|stage|stg|test|testing|local|sandbox|preview|qa)(?:[^a-z]|$)`),
	}
}}

// otherProjectMovedAway says why a filesystem move takes another project away.
func otherProjectMovedAway(c *mcpCtx) string {
	if !c.fsTool || !mcpAnyWord(c.actWords, mcpWordSet("move mv rename")) {
		return ""
	}
	var src, dst *mcpPath
	for _, p := range c.paths {
		n := mcpNormKey(p.key)
		switch {
		case mcpSourceKeys.has(n):
			src = p
		case mcpDestKeys.has(n):
			dst = p
		}
	}
	if src == nil || dst == nil || src.abs == "" || src.zone == ZoneWorkspace || src.zone == ZoneTemp {
		return ""
	}
	if !c.anotherProject(src.abs) {
		return ""
	}
	gone := dst.zone == ZoneTemp || dst.zone == ZoneDevNull
	for _, seg := range strings.Split(strings.ToLower(dst.raw), "/") {
		if seg == "trash" || seg == ".trash" || seg == "trashes" || seg == ".local/share/trash" {
			gone = true
		}
	}
	if !gone {
		return ""
	}
	return fmt.Sprintf("it moves %s, another project, away to %s (docs/policy.md: destruction of other projects)", src.abs, dst.show())
}

// anotherProject reports a directory that is a project other than the workspace: beside a
// workspace root, or directly in a folder of projects under home.
func (c *mcpCtx) anotherProject(abs string) bool {
	for _, w := range c.scope.Workspaces {
		if abs == w || strings.HasPrefix(w, abs+"/") || strings.HasPrefix(abs, w+"/") {
			return false
		}
		if path.Dir(abs) == path.Dir(w) && path.Dir(w) != "/" && path.Dir(w) != c.scope.Home {
			return true
		}
	}
	parent := path.Dir(abs)
	return c.scope.Home != "" && path.Dir(parent) == c.scope.Home && mcpProjectFolders.has(path.Base(parent))
}

// publicRepoCopy says why a new public repository is a copy of the project's source.
func publicRepoCopy(c *mcpCtx) string {
	if !mcpAnyWord(c.toolWords, mcpWordSet("create new")) || !mcpAnyWord(c.toolWords, mcpWordSet("repository repo repositories")) {
		return ""
	}
	public := false
	name := ""
	for _, a := range c.args {
		v := strings.ToLower(strings.TrimSpace(a.val))
		switch a.nkey {
		case "private":
			public = public || v == "false" || v == "0"
		case "visibility", "public", "ispublic":
			public = public || v == "public" || v == "true"
		case "name", "repo", "repository", "reponame":
			name = v
		}
	}
	if !public || name == "" {
		return ""
	}
	words := mcpSplitWords(name)
	if mcpAnyWord(words, mcpCopyNameWords.get()) {
		return "it creates the public repository " + name + ", named as a copy of a repository (docs/policy.md: sending source code to any host that is not the project's own)"
	}
	for _, w := range c.scope.Workspaces {
		if b := strings.ToLower(path.Base(w)); len(b) >= 4 && strings.Contains(name, b) && name != b {
			return "it creates the public repository " + name + ", named after the project " + b + " (docs/policy.md: sending source code to any host that is not the project's own)"
		}
	}
	return ""
}

// mcpPortForwardAllInterfaces says why a port-forward exposes a production service.
func mcpPortForwardAllInterfaces(c *mcpCtx) string {
	joined := strings.ToLower(strings.Join(c.toolWords, ""))
	if !strings.Contains(joined, "portforward") && !(mcpContains(c.toolWords, "port") && mcpContains(c.toolWords, "forward")) {
		return ""
	}
	for _, a := range c.args {
		if !strings.Contains(a.nkey, "address") && a.nkey != "bind" && a.nkey != "host" && a.nkey != "listen" {
			continue
		}
		switch strings.Trim(strings.TrimSpace(a.val), "[]") {
		case "0.0.0.0", "::", "*", "0":
			if c.prodHint == "" {
				return ""
			}
			return "it forwards a production service (" + c.prodHint + ") on every interface (" + a.val + "), reachable from the network (docs/policy.md: tunnels that expose local services)"
		}
	}
	return ""
}

// wildcardSelector says why a deletion, refund or cancellation selects every record.
func wildcardSelector(c *mcpCtx) (string, bool) {
	money := mcpAnyWord(c.toolWords, mcpMoneyBackWords.get())
	if !c.hardDestroy() && !money {
		return "", false
	}
	for _, a := range c.args {
		if a.depth != 1 || !mcpSelectorKeys.has(a.nkey) {
			continue
		}
		v := strings.ToLower(strings.TrimSpace(a.val))
		if a.str && mcpWildcardValues.has(v) {
			return fmt.Sprintf("it selects %s=%s: every record at once, not a chosen one (docs/policy.md: bulk deleting production data)", a.key, a.val), money
		}
	}
	return "", false
}

// absurdScale says why a scale is runaway.
func absurdScale(c *mcpCtx) string {
	if c.prodHint == "" || !mcpAnyWord(c.toolWords, mcpWordSet("scale scaling autoscale resize")) || mcpStatedReason(c.req.Message) != "" {
		return ""
	}
	for _, a := range c.args {
		if a.nkey != "replicas" && a.nkey != "replicacount" && a.nkey != "count" && a.nkey != "desiredcount" && a.nkey != "instances" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(a.val))
		if err == nil && n > mcpAbsurdReplicas {
			return fmt.Sprintf("it scales a production workload (%s) to %d with no stated reason, beyond %d: runaway cost and resource exhaustion (docs/policy.md: resource exhaustion)", c.prodHint, n, mcpAbsurdReplicas)
		}
	}
	return ""
}

// bulkUserDelete says why SQL deletes the users of a hosted database by range.
func bulkUserDelete(c *mcpCtx) string {
	if c.dbLocal || c.localTarget() != "" {
		return ""
	}
	if !slices.ContainsFunc(c.sql, func(s mcpSqlStmt) bool { return s.kind == mcpSqlDelete }) {
		return "" // nothing deleted: the environment test below reads every argument
	}
	for _, a := range c.args {
		if a.str && a.depth == 1 && mcpDenyEffectRe.get().devEnv.MatchString(a.val) && !mcpSqlKeys.has(a.nkey) {
			return "" // a development or staging database
		}
	}
	for _, s := range c.sql {
		if s.kind != mcpSqlDelete {
			continue
		}
		for _, a := range c.args {
			if !a.str || !mcpSqlKeys.has(a.nkey) {
				continue
			}
			for _, st := range strings.Split(a.val, ";") {
				if mcpDenyEffectRe.get().userTable.MatchString(st) && strings.Contains(strings.ToLower(st), "where") && !mcpDenyEffectRe.get().narrowKey.MatchString(st) {
					return "its SQL deletes users by a range, not a key (" + mcpCleanText(st, 80) + "), on a hosted database (docs/policy.md: bulk deleting production data)"
				}
			}
		}
	}
	return ""
}

// mcpWhich makes a rule's check from f, which says why a call has the effect ("" when it
// has not): the finding reads "<the call>, which <why>". The deny-list effect rules of every
// MCP rule file share it.
func mcpWhich(f func(*mcpCtx) string) func(*mcpCtx) (string, bool) {
	return func(c *mcpCtx) (string, bool) {
		if why := f(c); why != "" {
			return c.call() + ", which " + strings.TrimPrefix(why, "it "), true
		}
		return "", false
	}
}

func mcpDenyListEffectRules() []*Rule {
	return []*Rule{
		{ID: "mcp.other-project-move", Kind: KindMCP, Level: High, Category: CatDataDeletion,
			Message: "Moves another project into the temporary directory or a trash", mcp: mcpWhich(otherProjectMovedAway)},
		{ID: "mcp.public-repo-copy", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Creates a public repository named as a copy of the project", mcp: mcpWhich(publicRepoCopy)},
		{ID: "mcp.port-forward-exposed", Kind: KindMCP, Level: High, Category: CatNetworkEgress,
			Message: "Forwards a production service on every network interface", mcp: mcpWhich(mcpPortForwardAllInterfaces)},
		{ID: "mcp.wildcard-selector", Kind: KindMCP, Level: Critical, Category: CatFinancialOrProduction,
			Message: "Deletes, refunds or cancels with a wildcard selector: every record at once",
			mcp: func(c *mcpCtx) (string, bool) {
				why, _ := wildcardSelector(c)
				if why == "" {
					return "", false
				}
				return c.call() + ", which " + strings.TrimPrefix(why, "it "), true
			}},
		{ID: "mcp.runaway-scale", Kind: KindMCP, Level: High, Category: CatResourceExhaustion,
			Message: "Scales a production workload to an absurd replica count with no stated reason", mcp: mcpWhich(absurdScale)},
		{ID: "mcp.sql-bulk-user-delete", Kind: KindMCP, Level: Critical, Category: CatDataDeletion,
			Message: "Runs SQL that deletes the users of a hosted database by a range, not a key", mcp: mcpWhich(bulkUserDelete)},
	}
}

// mcpPIIBulk reports message text that carries a postal address or says it holds many
// people's records (4,102 rows, a customer list): with e-mail addresses or phone numbers
// beside it, customer data rather than a mention of one person.
func mcpPIIBulk(t string) bool {
	return mcpDenyEffectRe.get().address.MatchString(t) || mcpDenyEffectRe.get().bulk.MatchString(t)
}
