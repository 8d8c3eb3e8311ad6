package riskmodel

// Routine MCP work and the requests to external parties that look like it (docs/policy.md:
// "opening a PR or issue on the project's repo" and messages to the team are allow; "messages
// to external parties (email, Slack outside the team, comments on others' repos)" and
// "reading one production secret" are ask). The facts here are read from what the call acts
// on — the repository it names against the workspace, the ports a compose file publishes,
// the kind of object a read returns — never from free text such as a branch name or a title.

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// mcpVCSPaymentHomonyms are payment words that are verbs of version control: git_checkout
// switches branches, it does not pay.
var mcpVCSPaymentHomonyms = wordSet{words: `checkout`}

// vcsServer reports a local git server or a code host, where mcpVCSPaymentHomonyms are git's.
func (c *mcpCtx) vcsServer() bool {
	return mcpContains(c.serverWords, "git") || c.forge()
}

// paymentWords reports the payment vocabulary in the server's name and the action (the
// arguments, free text, never count), without git's homonyms on a git server.
func (c *mcpCtx) paymentWords() bool {
	if mcpAnyWord(c.actWords, mcpPaymentVerbs.get()) {
		return true
	}
	vcs := c.vcsServer()
	for _, ws := range [][]string{c.serverWords, c.actWords} {
		for _, w := range ws {
			if mcpPaymentWords.has(w) && !(vcs && mcpVCSPaymentHomonyms.has(w)) {
				return true
			}
		}
	}
	return false
}

// prodNameArg reports an argument under a production key (mcpProdKeys) that can name an
// environment or a deployed resource: an identifier ("prod-eu", "api-production") on a
// service that has environments. A phrase ("Production hardening Q3") is a title, and the
// "project" or "name" of an issue, a page or a chat post is the work item's, not a system's.
func (c *mcpCtx) prodNameArg(a mcpArg) bool {
	if strings.ContainsAny(strings.TrimSpace(a.val), " \t\n") {
		return false
	}
	if !mcpWorkItemFieldKeys.has(a.nkey) {
		return true // env, environment, namespace, cluster, …: an environment wherever it is named
	}
	return c.infra || !mcpAnyWord(c.serverWords, mcpTrackerServers.get()) && !mcpAnyWord(c.serverWords, mcpTeamChatServers.get())
}

// applyToolCatalog settles the action of a tool the MCP tool catalogue knows, when its name
// said nothing more severe by itself: verb arguments, an HTTP method or GraphQL keep theirs.
func (c *mcpCtx) applyToolCatalog() {
	e, ok := catalog.DefaultMCPTools().Lookup(c.serverWords, c.req.Tool)
	if !ok || c.umbrella || c.actFrom != "name" || c.act == mcpActDestroy {
		return
	}
	c.known = e
	switch e.Class {
	case catalog.MCPToolNoEffect, catalog.MCPToolReadOnly:
		c.act, c.actWord, c.actFrom = mcpActRead, "", "catalog"
	case catalog.MCPToolWorkItem:
		c.act, c.actWord, c.actFrom = mcpActWrite, "", "catalog"
	}
}

// knownAs reports a call to a catalogued tool of class.
func (c *mcpCtx) knownAs(class catalog.MCPToolClass) bool {
	return c.known != nil && c.known.Class == class
}

// ---------------------------------------------------------------------------------------------
// The project's own repository.

// namedRepo returns the name of the repository a code-host call acts on: the repo argument
// (owner/repo or repo), or the last part of a GitLab project path; "" when it names none.
func (c *mcpCtx) namedRepo() string {
	if a, ok := c.top("repo", "repository", "reponame", "repositoryname"); ok && strings.TrimSpace(a.val) != "" {
		return path.Base(strings.Trim(strings.TrimSpace(a.val), "/"))
	}
	if a, ok := c.top("projectid", "project", "projectpath", "fullname", "path"); ok && strings.Contains(a.val, "/") && !strings.HasPrefix(a.val, "/") {
		return path.Base(strings.Trim(strings.TrimSpace(a.val), "/"))
	}
	return ""
}

// repoOwnership says whose repository a code-host call acts on: +1 the project's own (its
// name is the name of a workspace directory), -1 another one (the workspace is known and is
// none of it), 0 when the call names no repository or no workspace is known.
func (c *mcpCtx) repoOwnership() int {
	repo := mcpNormName(c.namedRepo())
	if repo == "" {
		return 0
	}
	ws := append(append([]string{}, c.workspace...), c.policy.Workspaces...)
	known := false
	for _, w := range ws {
		w = path.Clean(strings.TrimSpace(w))
		if !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~/") || w == "/" {
			continue
		}
		known = true
		if mcpNormName(path.Base(w)) == repo {
			return 1
		}
	}
	if known {
		return -1
	}
	return 0
}

// mcpNormName compares repository and directory names: lower-case letters and digits only.
func mcpNormName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mcpSiteKeys name the tracker site, organisation, space or team a call goes to; an issue
// key names its team ("CUST-88" is the customer team's).
var mcpSiteKeys = wordSet{words: `cloudid site siteurl sitename domain instance baseurl org organization orgslug workspace
	workspaceslug team teamkey teamid space spacekey owner namespace issueid issuekey issueidorkey issueidentifier
	ticketid ticketkey`}

// mcpReServiceDeskKey matches the issue key of a service-desk project ("SUP-1", "HELP-20",
// "CS-4"): its comments reach the customer who raised the request.
var mcpReServiceDeskKey = lazyRegexp(`(?i)^(sup|support|help|helpdesk|hd|sd|desk|servicedesk|cs|cust|customer)s?-[0-9]+$`)

// externalSite returns a site, organisation or space argument whose name marks it as
// another party's (a vendor's, partner's or customer's tracker), or an issue of a service
// desk, "" otherwise.
func (c *mcpCtx) externalSite() string {
	for _, a := range c.args {
		if !a.str || a.depth > 2 || !mcpSiteKeys.has(a.nkey) {
			continue
		}
		if mcpReExternalChannel().MatchString(a.val) || strings.HasPrefix(a.nkey, "issue") && mcpReServiceDeskKey().MatchString(strings.TrimSpace(a.val)) {
			return a.key + "=" + mcpCleanText(a.val, 60)
		}
	}
	return ""
}

// mcpCommentNouns are the objects of a comment on a work item.
var mcpCommentNouns = wordSet{words: `comment comments note notes reply`}

// mcpReactionWords mark a reaction to a chat message.
var mcpReactionWords = wordSet{words: `react reaction reactions emoji`}

// teamComment says what a call does when it comments on a work item of the project's own
// tracker: on a code host only on the project's own repository (comments elsewhere are
// messages to outside maintainers), on another tracker when its site is not another party's.
func (c *mcpCtx) teamComment() string {
	if !mcpAnyWord(c.objWords, mcpCommentNouns.get()) && !mcpAnyWord(c.toolWords, mcpCommentNouns.get()) ||
		!mcpCommentVerbs.has(c.actWord) && !(c.actWord == "" && c.actFrom == "name") {
		return ""
	}
	for _, w := range append(append([]string{}, c.objWords...), c.toolWords...) {
		if mcpNotWorkItemNouns.has(w) && !mcpCommentNouns.has(w) {
			return "" // a review, a discussion, a release note: not a comment on a work item
		}
	}
	if c.forge() && c.repoOwnership() <= 0 {
		return ""
	}
	return "comments on a work item of " + mcpOrStr(c.server, "the tracker")
}

// ---------------------------------------------------------------------------------------------
// Local git.

// gitTool reports a local git server ("git", "git-tools", "git-mcp-server"), not a code host.
func (c *mcpCtx) gitTool() bool {
	return len(c.serverWords) > 0 && c.serverWords[0] == "git" && !c.forge() && c.shell == nil
}

// gitRepoInWorkspace reports that the repository a git tool works on is in the workspace.
func (c *mcpCtx) gitRepoInWorkspace() bool {
	a, ok := c.top("repopath", "repositorypath", "path", "cwd", "directory", "dir", "workingdirectory")
	if !ok {
		return len(c.workspace) > 0 // the server works on the host's root
	}
	abs, ok := c.scope.Resolve(a.val)
	return ok && c.scope.Zone(abs) == ZoneWorkspace
}

// gitKeepsWork describes a git call that changes the index or removes untracked files
// without losing committed or tracked work: a reset that is not --hard (mcp-server-git's
// git_reset unstages), a clean of a repository in the workspace (docs/policy.md: "git clean
// -fdx in the repo" is allow). "" otherwise.
func (c *mcpCtx) gitKeepsWork() string {
	if !c.gitTool() || c.forced() {
		return ""
	}
	switch {
	case mcpContains(c.actWords, "reset"):
		if c.truthy("hard") || c.truthy("merge") || c.truthy("keep") {
			return ""
		}
		for _, a := range c.args {
			if a.str && mcpGitResetLoseModes.has(strings.ToLower(strings.TrimLeft(strings.TrimSpace(a.val), "-"))) {
				return ""
			}
		}
		return "resets the index, keeping the working tree's changes"
	case mcpContains(c.actWords, "clean") && c.gitRepoInWorkspace():
		return "removes the untracked files of the repository in the workspace, which a build recreates"
	}
	return ""
}

// settleGit marks the repository a git tool works on as named, not deleted, when the call
// keeps tracked work (the destroy verb "reset" made every path argument a deletion).
func (c *mcpCtx) settleGit() {
	if c.gitKeepsWork() == "" {
		return
	}
	for _, p := range c.paths {
		if p.op == mcpOpDelete && mcpCwdKeys.has(mcpNormKey(p.key)) || p.op == mcpOpDelete && mcpNormKey(p.key) == "path" {
			p.op = mcpOpMention
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Local databases.

// mcpFileDBServerWords mark a server whose database is a local file.
var mcpFileDBServerWords = wordSet{words: `sqlite sqlite3 duckdb`}

// localFileDB reports a call to a server of a local file database (SQLite, DuckDB) that
// names no database file outside the workspace and no other host: the file the server was
// started on is the project's development data (docs/policy.md: workspace writes).
func (c *mcpCtx) localFileDB() bool {
	if !mcpAnyWord(c.serverWords, mcpFileDBServerWords.get()) || len(c.urls) > 0 {
		return false
	}
	for _, p := range c.paths {
		if p.zone != ZoneWorkspace && p.zone != ZoneTemp {
			return false
		}
	}
	for _, a := range c.args {
		if a.str && a.depth == 1 && mcpDBRemoteKeys.has(a.nkey) && strings.TrimSpace(a.val) != "" {
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------------------------------------
// Local development services.

var (
	mcpContainerEngineWords = wordSet{words: `docker podman compose nerdctl`}
	// mcpComposeHostEscape finds compose settings that reach the host: they are judged by
	// mcp.privileged-workload or are asked about, never routine.
	mcpComposeHostEscape = lazyRegexp(`(?im)^\s*-?\s*(?:privileged|network_mode|pid|ipc|cap_add|devices|security_opt|userns_mode|cgroup_parent)\s*:|docker\.sock|\bhost_ip\b|\bpublished\s*:`)
	mcpComposeServices   = lazyRegexp(`(?m)^\s*services\s*:`)
	mcpComposePortsKey   = lazyRegexp(`(?m)^([ \t]*)ports[ \t]*:[ \t]*(.*)$`)
	mcpComposeVolumesKey = lazyRegexp(`(?m)^([ \t]*)volumes[ \t]*:[ \t]*(.*)$`)
)

// composeText returns the compose file a call hands to a container engine, "" when none.
func (c *mcpCtx) composeText() string {
	for _, a := range c.args {
		if a.str && a.depth == 1 && len(a.val) < 256<<10 && mcpComposeServices().MatchString(a.val) {
			return a.val
		}
	}
	return ""
}

// mcpComposeItems lists the entries of a compose list key: the inline [a, b] form or the
// "- a" lines indented below the key.
func mcpComposeItems(text string, key func() *regexp.Regexp) [][]string {
	var out [][]string
	lines := strings.Split(text, "\n")
	for _, m := range key().FindAllStringSubmatchIndex(text, 64) {
		indent := m[3] - m[2]
		rest := strings.TrimSpace(text[m[4]:m[5]])
		var items []string
		if rest != "" {
			items = strings.Split(strings.Trim(rest, "[]"), ",")
		} else {
			// The block list below the key.
			line := strings.Count(text[:m[0]], "\n")
			for _, l := range lines[line+1:] {
				t := strings.TrimSpace(l)
				if t == "" {
					continue
				}
				if len(l)-len(strings.TrimLeft(l, " \t")) <= indent && !strings.HasPrefix(t, "-") || !strings.HasPrefix(t, "-") {
					break
				}
				items = append(items, strings.TrimSpace(strings.TrimPrefix(t, "-")))
			}
		}
		for i := range items {
			items[i] = strings.Trim(strings.TrimSpace(items[i]), `"'`)
		}
		out = append(out, items)
	}
	return out
}

// localDevService describes a compose stack a container-engine tool starts when it stays on
// this machine: every port it publishes is bound to loopback, it mounts no host path outside
// the project and asks for no host privileges, and nothing in the call names production or a
// remote engine. "" otherwise.
func (c *mcpCtx) localDevService() string {
	if !mcpAnyWord(append(append([]string{}, c.serverWords...), c.toolWords...), mcpContainerEngineWords.get()) ||
		c.infra || c.prodHint != "" || len(c.secrets) > 0 || len(c.urls) > 0 || c.act < mcpActWrite {
		return ""
	}
	text := c.composeText()
	if text == "" || mcpComposeHostEscape().MatchString(text) {
		return ""
	}
	for _, a := range c.args {
		if a.str && a.depth == 1 && mcpEngineRemoteKeys.has(a.nkey) {
			return "" // another engine than this machine's
		}
	}
	for _, items := range mcpComposeItems(text, mcpComposePortsKey) {
		for _, it := range items {
			if it == "" {
				continue
			}
			if !mcpLoopbackPort(it) {
				return ""
			}
		}
	}
	for _, items := range mcpComposeItems(text, mcpComposeVolumesKey) {
		for _, it := range items {
			src, _, bind := strings.Cut(it, ":")
			if bind && (strings.HasPrefix(src, "/") || strings.HasPrefix(src, "~") || strings.HasPrefix(src, "$") || strings.HasPrefix(src, "..")) {
				return "" // a host directory outside the project
			}
		}
	}
	return "a compose stack whose published ports are bound to this machine's loopback only"
}

// mcpLoopbackPort reports a compose port mapping bound to loopback ("127.0.0.1:5432:5432",
// "[::1]:8080:80"); a mapping without an address publishes on every interface.
func mcpLoopbackPort(spec string) bool {
	spec = strings.TrimSpace(spec)
	var host string
	switch {
	case strings.HasPrefix(spec, "["):
		i := strings.Index(spec, "]")
		if i < 0 {
			return false
		}
		host = spec[1:i]
	default:
		parts := strings.Split(spec, ":")
		if len(parts) != 3 {
			return false
		}
		host = parts[0]
	}
	return host == "127.0.0.1" || host == "::1" || host == "localhost" || strings.HasPrefix(host, "127.")
}

// ---------------------------------------------------------------------------------------------
// Secrets and messages.

var (
	mcpSecretManagerWords = wordSet{words: `vault secretsmanager secretmanager onepassword 1password op doppler infisical
		bitwarden bw keeper lastpass akeyless keyvault`}
	mcpSecretNouns     = wordSet{words: `secret secrets password passwords credential credentials`}
	mcpSecretHeadNouns = wordSet{words: `secret secrets password passwords credential credentials value values field item
		data version kv`}
	// Reads that return metadata about secrets, not their values.
	mcpSecretMetaWords = wordSet{words: `list ls search names metadata describe policy policies scanning alert alerts
		rotation audit`}
)

// secretValueRead reports a read of secret values from a secret manager or a secrets API
// (read_secret, get_secret_value), and whether it is bulk (no single path or name).
func (c *mcpCtx) secretValueRead() (hit, bulk bool) {
	if c.act != mcpActRead || c.kube() || c.shell != nil || len(c.sql) > 0 || mcpAnyWord(c.actWords, mcpSecretMetaWords.get()) {
		return false, false
	}
	n := len(c.objWords)
	secretObj := mcpAnyWord(c.objWords, mcpSecretNouns.get()) && n > 0 && mcpSecretHeadNouns.has(c.objWords[n-1])
	manager := mcpAnyWord(c.serverWords, mcpSecretManagerWords.get()) && n > 0 && mcpSecretHeadNouns.has(c.objWords[n-1])
	if !secretObj && !manager {
		return false, false
	}
	named := false
	for _, a := range c.args {
		if a.str && a.depth == 1 && mcpSecretNameKeys.has(a.nkey) {
			v := strings.TrimSpace(a.val)
			if v == "" || v == "*" || strings.HasSuffix(v, "/") || strings.Contains(v, "*") {
				return true, true
			}
			named = true
		}
	}
	return true, !named
}

// mcpMessageField matches the label of a form field people read: a message, a comment, a
// support request.
var mcpMessageField = lazyRegexp(`(?i)\b(message|messages|comment|comments|reply|feedback|contact|support|description|body|post|review|question|ticket|chat|inquiry|enquiry|complaint)\b`)

// browserMessageSubmit describes text typed into a page's message field and submitted: a
// message to whoever runs the site. "" when the page is this machine's or no message is sent.
func (c *mcpCtx) browserMessageSubmit() string {
	if !c.browserish() || !mcpAnyWord(c.toolWords, mcpTypeWords.get()) || !c.truthy("submit") {
		return ""
	}
	label, _ := c.top("element", "selector", "label", "name", "field")
	text, _ := c.top("text", "value", "content")
	if !mcpMessageField().MatchString(label.val) || len(strings.Fields(text.val)) < 3 {
		return ""
	}
	for _, m := range mcpReBodyURLHost().FindAllStringSubmatch(label.val, 4) {
		if isLocalHost(strings.ToLower(m[1])) {
			return ""
		}
	}
	return mcpCleanText(label.val, 80)
}

// ---------------------------------------------------------------------------------------------
// Argument vocabularies.

// mcpWorkItemFieldKeys are production keys that on a tracker or chat name the work item.
var mcpWorkItemFieldKeys = wordSet{words: `name project projectid`}

// mcpCommentVerbs add a comment.
var mcpCommentVerbs = wordSet{words: `create add new post reply comment`}

// mcpGitResetLoseModes are git reset modes that overwrite the working tree.
var mcpGitResetLoseModes = wordSet{words: `hard merge keep`}

// mcpDBRemoteKeys name a database server elsewhere.
var mcpDBRemoteKeys = wordSet{words: `connectionstring dsn host hostname server uri url`}

// mcpEngineRemoteKeys name another container engine than this machine's.
var mcpEngineRemoteKeys = wordSet{words: `host dockerhost context endpoint`}

// mcpSecretNameKeys name the one secret a read returns.
var mcpSecretNameKeys = wordSet{words: `path name secretname secretid id key item itemid field ref`}

// mcpTypeWords are browser tools that type into a page.
var mcpTypeWords = wordSet{words: `type fill`}

// ---------------------------------------------------------------------------------------------
// Rules.

func mcpRoutineRules() []*Rule {
	return []*Rule{
		{ID: "mcp.secret-value-read", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			CertainWhen: "the read is bulk: no single path or name, or a wildcard",
			Message:     "Reads secret values from a secret manager into the agent's context",
			mcp: func(c *mcpCtx) (string, bool) {
				hit, bulk := c.secretValueRead()
				if !hit {
					return "", false
				}
				if bulk {
					c.certainty = certaintySure // policy: bulk secret dumps
					return fmt.Sprintf("%s, which reads secret values in bulk into the agent's context", c.call()), true
				}
				return fmt.Sprintf("%s, which reads a secret's value into the agent's context%s", c.call(), c.prodSuffix()), true
			}},
		{ID: "mcp.browser-message-submit", Kind: KindMCP, Level: Medium, Category: CatNetworkEgress,
			Message: "Types a message into a web page's form and submits it, to whoever runs the site",
			mcp: func(c *mcpCtx) (string, bool) {
				if field := c.browserMessageSubmit(); field != "" {
					return fmt.Sprintf("%s, which submits a message typed into %s: it reaches the people behind the site", c.call(), field), true
				}
				return "", false
			}},
		{ID: "mcp.local-dev-service", Kind: KindMCP, Level: Medium, Category: CatNone, Contained: true,
			Message: "Starts containers of a development stack reachable from this machine only",
			mcp: func(c *mcpCtx) (string, bool) {
				if what := c.localDevService(); what != "" {
					return fmt.Sprintf("%s, which starts %s", c.call(), what), true
				}
				return "", false
			}},
		{ID: "mcp.git-keeps-work", Kind: KindMCP, Level: Low, Category: CatNone,
			Message: "Unstages changes or cleans untracked files of a repository in the workspace (no tracked work is lost)",
			mcp: func(c *mcpCtx) (string, bool) {
				if why := c.gitKeepsWork(); why != "" {
					return fmt.Sprintf("%s, which %s", c.call(), why), true
				}
				return "", false
			}},
		{ID: "mcp.no-effect", Kind: KindMCP, Level: Low, Category: CatNone,
			Message: "Calls a tool that changes nothing (the MCP tool catalogue)",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.knownAs(catalog.MCPToolNoEffect) && c.shell == nil {
					return fmt.Sprintf("%s, which %s", c.call(), c.known.What), true
				}
				return "", false
			}},
	}
}
