package riskmodel

// MCP request analysis.
//
// An MCP tool call is judged from what it will do, not from what the server says about it:
//
//   - the action comes from the verbs in the tool name ("delete_repository", "insights-list"),
//     or, for an umbrella tool ("exec", "run", "call_tool", …), from the verb argument
//     ("command": "notebooks-destroy"); an HTTP method, SQL text or a shell command in the
//     arguments overrides the name;
//   - the arguments are flattened and searched for destination URLs, local paths, SQL, shell
//     commands and secrets (FindSecrets, plus secret-ish argument names);
//   - domain rules (SQL, filesystem, payments, infrastructure, messaging, browsers, git, …) turn
//     those facts into findings; generic verb rules cover what no domain claimed; baseline rules
//     classify what is left;
//   - tool annotations are claims: readOnlyHint lowers risk only in the baseline (so anything a
//     risk rule noticed wins over it), destructiveHint raises it; the tool description and the
//     elicitation message are untrusted text that can only raise a risk (a description starting
//     "Deletes …"), never lower one;
//   - policy findings (protected paths) and user rules are applied last.
//
// Shell commands found in the arguments of shell-like tools ("run_command", "call_aws"'s
// cli_command, an argv "command") are handed to the exec analysis and its findings kept.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// mcpActClass is what a call does to the service it talks to.
type mcpActClass uint8

const (
	mcpActUnknown mcpActClass = iota
	mcpActRead
	mcpActWrite
	mcpActDestroy
)

func (a mcpActClass) String() string {
	return [...]string{"unknown", "read", "write", "destroy"}[a]
}

// mcpPathOp is what a call does to one local path.
type mcpPathOp uint8

const (
	mcpOpMention mcpPathOp = iota // named, effect unknown
	mcpOpRead
	mcpOpWrite
	mcpOpDelete
)

// mcpArg is one scalar of the flattened arguments.
type mcpArg struct {
	path  string // "files[0].path"
	key   string // nearest map key as written ("" for top-level array items)
	nkey  string // normalised key: lower-case, without _ - . and spaces
	val   string
	str   bool // a JSON string (not a number or bool)
	depth int  // 1 for a top-level argument
}

// mcpPath is a local path found in the arguments.
type mcpPath struct {
	key  string
	raw  string
	abs  string // "" when unresolvable
	zone Zone
	op   mcpPathOp
}

// mcpURL is a destination URL (an argument that says where the call goes).
type mcpURL struct {
	key   string
	raw   string
	host  string
	local bool // loopback / localhost, and no sensitive service on its port
	trust bool // Policy.TrustedHosts
	// service names a sensitive service on a loopback port (Docker API, Vault, DevTools):
	// such a URL is not local in the harmless sense.
	service string
}

// mcpSecret is a secret found in the arguments.
type mcpSecret struct {
	where string // argument path
	kind  string
	inURL bool // inside a destination URL to a host that is not trusted
}

// mcpCtx holds a request and the facts the MCP rules read. It is built once per request.
type mcpCtx struct {
	// workspace is the request's declared workspace with Windows directories (C:\Users\…)
	// in the catalogue's POSIX form (catalog.FromWindows), as the exec side reads a cwd.
	workspace []string
	req       *MCPRequest
	scope     *Scope
	policy    *Policy
	// certainty lets a rule's check override the rule's Certain for its match (see execCtx).
	certainty certainty

	server, tool string // sanitised for messages
	serverWords  []string
	toolWords    []string
	label        string // "server/tool" or "server/tool:verb", the findings' segment

	umbrella bool
	verb     string   // the verb argument of an umbrella tool (or an action argument)
	actWords []string // the words the action was read from
	act      mcpActClass
	actWord  string // the word that decided act ("" if none)
	actFrom  string // "name", "verb", "method", "sql", "description", "hint"
	method   string // HTTP method argument, upper-case

	args       []mcpArg
	urls       []mcpURL
	paths      []*mcpPath
	sql        []mcpSqlStmt
	sqlArgKeys []string
	secrets    []mcpSecret

	shellish  bool     // a shell-like tool: its command argument is a command line
	code      string   // source code given to a code-runner tool
	shell     []string // argv handed to the exec analysis; nil if none
	shellText string

	ro, destructive, openWorld bool

	fsTool    bool // a filesystem-style tool
	local     bool // the server acts on this machine
	sends     bool // the call sends content to a third party
	sendWhy   string
	httpSend  bool // an HTTP write / upload to a destination URL
	browser   bool
	payment   bool
	infra     bool
	gitLocal  bool
	memory    bool
	prodHint  string // an argument naming production ("namespace=production")
	dbLocal   bool   // the SQL runs on a local database file inside the workspace
	sqlTool   bool
	objWords  []string         // the object words of the action ("notebooks", "pull request")
	descRaise bool             // the action was raised by the tool description
	known     *catalog.MCPTool // the MCP tool catalogue's entry for the tool, if any
	// routine is the routine class of an unfamiliar server's call (mcp_r11_routine.go):
	// the verb rules step back for it.
	routine     mcpRoutineKind
	routineWhat string

	// execShell runs the exec analysis on a shell script the call writes for later (a CI
	// step); nil outside mcpVerdict.
	execShell func(script string) []Finding
	// execShellAt is execShell run from another directory: a run file's commands run from
	// its own project's root (mcp_r20_runfiles.go).
	execShellAt func(script, cwd string) []Finding
}

// ---------------------------------------------------------------------------------------------
// Vocabulary.

type mcpVerbInfo struct {
	class     mcpActClass
	ambiguous bool // also a common noun ("post", "log", "run"): decides only when nothing else does
}

var mcpVerbTable = table[map[string]mcpVerbInfo]{build: func() map[string]mcpVerbInfo {
	m := make(map[string]mcpVerbInfo, 512) // above the words below: no growth at init
	add := func(c mcpActClass, amb bool, words string) {
		for w := range strings.FieldsSeq(words) {
			m[w] = mcpVerbInfo{c, amb}
		}
	}
	add(mcpActRead, false, `get list ls read search describe show view fetch find count inspect retrieve lookup browse
		preview info stat explain summarize tail head cat grep watch poll ping validate lint navigate visit
		screenshot snapshot tree download whoami logs compare estimate calculate analyze analyse scroll hover
		wait history audit print peek exists verify`)
	add(mcpActRead, true, `query status diff log check select`)
	add(mcpActWrite, false, `create new add update edit write send publish deploy execute exec upload move mv rename
		patch put insert enable disable install push apply modify change replace upsert save assign approve
		close reopen invite share fork import trigger start stop restart scale rollback submit reply react
		unlock attach detach cancel archive unarchive restore copy cp duplicate sync upgrade downgrade configure
		grant mkdir touch append fill type click press drag invoke dispatch perform emit notify tweet forward pin
		unpin star unstar follow unfollow subscribe unsubscribe register authorize refresh redeploy promote
		provision resize reboot pause resume suspend migrate seed increment decrement toggle complete
		acknowledge ack mute snooze evaluate rerun retry ban kick block unblock rotate overwrite clone mark clear
		refund charge payout pay capture unpublish deactivate activate transition`)
	add(mcpActWrite, true, `set post comment merge run commit release lock link tag label schedule transfer message
		email checkout pull format call do`)
	add(mcpActDestroy, false, `delete del destroy remove rm rmdir drop purge truncate wipe erase reset revoke force
		kill terminate uninstall unlink prune flush expunge nuke shred empty deprovision teardown decommission`)
	// Destructive-sounding verbs (mcp_services.go) are rated like delete.
	for w := range mcpSoftDestroyVerbs.get() {
		m[w] = mcpVerbInfo{mcpActDestroy, false}
	}
	for w := range mcpHardDestroyVerbs.get() {
		m[w] = mcpVerbInfo{mcpActDestroy, false}
	}
	for _, w := range mcpCompoundDestroyWords() {
		m[w] = mcpVerbInfo{mcpActDestroy, false} // flushall, dropdb (mcp_denylist.go)
	}
	return m
}}

// hardDestroy reports a destroy by an outright deleting verb, not one that archives, cancels or
// disables (those are rated like delete, but do not take a whole container with them).
func (c *mcpCtx) hardDestroy() bool {
	return c.act == mcpActDestroy && !mcpSoftDestroyVerbs.has(c.actWord)
}

// Words that make a tool an umbrella whose real action is in an argument.
var mcpUmbrellaWords = wordSet{words: `exec execute run call invoke command cmd do perform dispatch use cli api tool tools
	action actions proxy gateway`}

// Argument names that carry an umbrella tool's verb.
var mcpVerbKeys = []string{"command", "cmd", "action", "operation", "op", "verb", "subcommand", "method", "tool",
	"toolname", "endpoint"}

// Argument names that are always a shell command line.
var mcpShellKeys = wordSet{words: `clicommand shellcommand bashcommand commandline cmdline shellcmd`}

// Tool and server words that mark a shell-like tool.
var mcpShellWords = wordSet{words: `shell bash terminal zsh sh powershell pwsh console cli commander`}

var mcpCwdKeys = wordSet{words: `cwd workingdirectory workingdir workdir repopath repositorypath projectdir projectpath
	projectroot rootdir workspace workspacepath workspacedir`}

var mcpPathKeys = wordSet{words: `path paths file files filepath filepaths filename filenames directory dir folder dbpath
	databasepath sqlitepath dbfile src dst dest destination source sources target targetpath from to oldpath
	newpath sourcepath destinationpath output outputpath outputfile outputdir input inputpath inputfile
	location attachment attachments savepath savedir localpath`}

// Path keys whose values are written.
var mcpOutputKeys = wordSet{words: `output outputpath outputfile outputdir savepath savedir`}

// Path keys that name the source / the destination of a move or copy.
var mcpSourceKeys = wordSet{words: `source sources src from oldpath sourcepath`}
var mcpDestKeys = wordSet{words: `destination dest dst to newpath destinationpath target targetpath`}

// Keys that hold where a call goes.
var mcpUrlKeys = wordSet{words: `url uri endpoint webhook webhookurl targeturl callbackurl baseurl apiurl href address
	link server host destination dest target to`}

// Keys that hold content sent along.
var mcpBodyKeys = wordSet{words: `body data json payload form content contents file files attachment attachments text
	message html markdown`}

var mcpSqlKeys = wordSet{words: `sql query statement statements stmt sqlquery querystring script migration ddl`}

var mcpSqlServerWords = wordSet{words: `sql postgres postgresql pg mysql mariadb sqlite sqlite3 supabase db database dbhub
	bigquery snowflake clickhouse redshift duckdb neon planetscale mssql sqlserver oracle cockroach cockroachdb
	timescale turso libsql d1 databricks trino presto athena`}

var mcpFsServerWords = wordSet{words: `filesystem fs file files local desktop commander`}
var mcpFsToolWords = wordSet{words: `file files directory directories dir folder folders path paths fs`}

var mcpLocalServerWords = wordSet{words: `filesystem fs file files local desktop commander shell terminal bash git sqlite
	sqlite3 duckdb docker podman memory process computer os`}

var mcpBrowserWords = wordSet{words: `browser playwright puppeteer selenium chromium webdriver devtools`}

var mcpPaymentWords = wordSet{words: `stripe payment payments billing invoice invoices charge charges refund refunds payout
	payouts subscription subscriptions checkout paypal braintree adyen square paddle chargebee recurly
	lemonsqueezy balance transfers price prices coupon coupons`}

var mcpPaymentVerbs = wordSet{words: `refund charge payout pay capture`}

var mcpInfraWords = wordSet{words: `kubernetes k8s kubectl helm aws gcp gcloud azure cloudflare vercel netlify heroku fly
	flyio render railway terraform pulumi argocd argo digitalocean linode hetzner ec2 ecs eks lambda cloudrun
	gke aks nomad openshift ansible launchdarkly statsig unleash flagsmith route53 dns`}

var mcpDeployVerbs = wordSet{words: `deploy redeploy promote rollback provision failover scale`}

var mcpMessagingWords = wordSet{words: `slack discord teams email mail gmail outlook smtp sms twilio telegram whatsapp
	twitter mastodon bluesky matrix mattermost chat intercom zendesk`}

var mcpSendVerbs = wordSet{words: `send post publish reply comment share forward email mail tweet notify message dm
	broadcast react upload submit webhook`}

// Objects that are published to other people when created.
var mcpPublishNouns = wordSet{words: `issue issues comment comments gist gists pull pr mr post posts page pages discussion
	review reviews wiki release tweet message messages email emails ticket tickets note notes status`}

// Objects whose deletion takes everything inside with it.
var mcpContainerNouns = wordSet{words: `repository repositories repo repos project projects database databases db bucket
	buckets namespace namespaces cluster clusters organization organizations org orgs account accounts workspace
	workspaces schema schemas keyspace tenant tenants environment environments stack stacks site sites app apps
	application applications table tables collection collections`}

var mcpDraftNouns = wordSet{words: `insight insights draft drafts scratch sandbox`}

var mcpMemoryWords = wordSet{words: `memory memories knowledge mem0 entities entity observations relations`}

var mcpProdWords = wordSet{words: `prod production prd live`}

var mcpProdKeys = wordSet{words: `env environment target stage namespace cluster project projectid name app service stack
	database bucket deployment context`}

// mcpWordSet is the set of the words in s. Some sixty sets are built at package init, in every
// process that links riskmodel (each hook call included), so it sizes the map once and splits
// without allocating: growing the maps word by word was a tenth of a hook call's start-up.
//
// The words are always a literal of the rules, asked for on every review, so each set is
// built once and shared (read-only: no caller may change it); building them per review was a
// quarter of an MCP review's allocations.
func mcpWordSet(s string) map[string]bool {
	if m, ok := mcpWordSets.Load(s); ok {
		return m.(map[string]bool)
	}
	m, _ := mcpWordSets.LoadOrStore(s, buildWordSet(s))
	return m.(map[string]bool)
}

// mcpWordSets holds the sets mcpWordSet has built, by their literal: bounded by the literals
// in the rules, never written to once stored.
var mcpWordSets sync.Map

func buildWordSet(s string) map[string]bool {
	n := 0
	for range strings.FieldsSeq(s) {
		n++
	}
	m := make(map[string]bool, n)
	for w := range strings.FieldsSeq(s) {
		m[w] = true
	}
	return m
}

// mcpSplitWords splits a tool name or verb on non-alphanumerics and camelCase boundaries,
// lower-cased: "notebooks-destroy" → [notebooks destroy], "getHTTPStatus" → [get http status].
func mcpSplitWords(s string) []string {
	if len(s) > 512 {
		s = s[:512]
	}
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 && len(words) < 64 {
			words = append(words, string(cur))
		}
		cur = cur[:0]
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if unicode.IsUpper(r) && len(cur) > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, unicode.ToLower(r))
	}
	flush()
	return words
}

func mcpAnyWord(words []string, set map[string]bool) bool {
	for _, w := range words {
		if set[w] {
			return true
		}
	}
	return false
}

func mcpFirstWord(words []string, set map[string]bool) string {
	for _, w := range words {
		if set[w] {
			return w
		}
	}
	return ""
}

// mcpClassifyWords finds the action in words: the most severe unambiguous verb, else the first
// ambiguous one ("get_comment" reads, "comment-list" reads, "post_comment" writes).
func mcpClassifyWords(words []string) (mcpActClass, string) {
	best, bestWord := mcpActUnknown, ""
	for _, w := range words {
		if v, ok := mcpVerbTable.get()[w]; ok && !v.ambiguous && v.class > best {
			best, bestWord = v.class, w
		}
	}
	if best != mcpActUnknown {
		return best, bestWord
	}
	for _, w := range words {
		if v, ok := mcpVerbTable.get()[w]; ok && v.ambiguous {
			return v.class, w
		}
	}
	return mcpActUnknown, ""
}

func mcpNormKey(k string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(k) {
		if r == '_' || r == '-' || r == '.' || r == ' ' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ---------------------------------------------------------------------------------------------
// Building the context.

const (
	mcpMaxArgs  = 4096
	mcpMaxDepth = 24
	mcpMaxScan  = 1 << 20
)

func (a *Analyzer) newMCPCtx(req *MCPRequest) *mcpCtx {
	c := &mcpCtx{req: req, policy: &a.policy}
	c.server = mcpCleanText(req.Server, 80)
	c.tool = mcpCleanText(req.Tool, 80)
	for _, w := range req.Workspace {
		c.workspace = append(c.workspace, catalog.FromWindows(w))
	}
	c.serverWords = mcpSplitWords(req.Server)
	c.toolWords = mcpSplitWords(req.Tool)
	if an := req.Annotations; an != nil {
		c.ro = an.ReadOnlyHint != nil && *an.ReadOnlyHint
		c.destructive = an.DestructiveHint != nil && *an.DestructiveHint
		c.openWorld = an.OpenWorldHint != nil && *an.OpenWorldHint
	}
	c.args = mcpFlattenArguments(req.Arguments)

	allWords := append(append([]string{}, c.serverWords...), c.toolWords...)
	c.local = mcpAnyWord(c.serverWords, mcpLocalServerWords.get()) || (len(c.serverWords) > 0 && c.serverWords[0] == "git")
	c.fsTool = mcpAnyWord(c.serverWords, mcpFsServerWords.get()) || mcpAnyWord(c.toolWords, mcpFsToolWords.get())
	c.browser = mcpAnyWord(allWords, mcpBrowserWords.get())
	c.sqlTool = mcpAnyWord(allWords, mcpSqlServerWords.get())
	c.gitLocal = len(c.serverWords) > 0 && c.serverWords[0] == "git" && len(c.serverWords) == 1
	c.memory = mcpAnyWord(c.serverWords, mcpMemoryWords.get())

	c.shellish = mcpAnyWord(c.toolWords, mcpShellWords.get()) || mcpAnyWord(c.serverWords, mcpShellWords.get()) ||
		mcpWordSet("runcommand executecommand execcommand runshell shellexec runterminalcmd startprocess")[mcpNormKey(req.Tool)]
	c.buildScope()
	c.findAction()
	c.applyToolCatalog()
	c.findShell()
	c.findSQL()
	c.findURLs()
	c.findPaths()
	c.findSQLFilePaths()
	c.markSQLAttachWrites()
	c.findSecrets()
	c.findDomains()
	c.settleGit()
	c.settleRoutine()

	c.label = c.server + "/" + c.tool
	if c.server == "" {
		c.label = c.tool
	}
	if c.verb != "" {
		c.label += ":" + mcpCleanText(c.verb, 60)
	}
	return c
}

// mcpFlattenArguments normalises the arguments through JSON (so Go values built in tests and
// decoded JSON look the same) and lists every scalar, descending into JSON held in strings.
func mcpFlattenArguments(in map[string]any) []mcpArg {
	if len(in) == 0 {
		return nil
	}
	var v any = map[string]any(in)
	if b, err := json.Marshal(in); err == nil {
		var m any
		if json.Unmarshal(b, &m) == nil {
			v = m
		}
	}
	var out []mcpArg
	mcpFlattenValue(v, "", "", 0, &out)
	return out
}

func mcpFlattenValue(v any, p, key string, depth int, out *[]mcpArg) {
	if len(*out) >= mcpMaxArgs || depth > mcpMaxDepth {
		return
	}
	add := func(s string, isStr bool) {
		*out = append(*out, mcpArg{path: p, key: key, nkey: mcpNormKey(key), val: s, str: isStr, depth: depth})
	}
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		for _, k := range keys {
			np := k
			if p != "" {
				np = p + "." + k
			}
			mcpFlattenValue(x[k], np, k, depth+1, out)
		}
	case []any:
		for i, e := range x {
			mcpFlattenValue(e, fmt.Sprintf("%s[%d]", p, i), key, depth+1, out)
		}
	case string:
		add(x, true)
		if t := strings.TrimSpace(x); len(t) > 1 && len(t) < mcpMaxScan && (t[0] == '{' || t[0] == '[') {
			var inner any
			if json.Unmarshal([]byte(t), &inner) == nil {
				mcpFlattenValue(inner, p+"(json)", key, depth+1, out)
			}
		}
	case bool:
		add(strconv.FormatBool(x), false)
	case float64:
		add(strconv.FormatFloat(x, 'f', -1, 64), false)
	case nil:
	default:
		add(fmt.Sprint(x), false)
	}
}

// top returns the first top-level string argument whose normalised key is one of keys.
func (c *mcpCtx) top(keys ...string) (mcpArg, bool) {
	for _, k := range keys {
		for _, a := range c.args {
			if a.depth == 1 && a.nkey == k && a.str {
				return a, true
			}
		}
	}
	return mcpArg{}, false
}

// truthy reports a top-level boolean argument set to true.
func (c *mcpCtx) truthy(key string) bool {
	for _, a := range c.args {
		if a.depth == 1 && a.nkey == key && (a.val == "true" || a.val == "1") {
			return true
		}
	}
	return false
}

func (c *mcpCtx) buildScope() {
	pol := *c.policy
	pol.Workspaces = append([]string(nil), c.policy.Workspaces...)
	// A declared workspace (the host's roots, the configured project) is the frame: a cwd-like
	// argument of the call must not move it.
	declared := len(c.workspace) > 0
	cwd := ""
	for _, a := range c.args {
		if declared {
			break
		}
		if a.str && a.depth <= 2 && mcpCwdKeys.has(a.nkey) && (strings.HasPrefix(a.val, "/") || strings.HasPrefix(a.val, "~")) {
			cwd = a.val
			break
		}
	}
	if pol.Home == "" && declared {
		pol.Home = mcpWorkspaceHome(c.workspace)
	}
	if pol.Home == "" {
		for _, a := range c.args {
			if a.str && (strings.HasPrefix(a.val, "/home/") || strings.HasPrefix(a.val, "/Users/") || strings.HasPrefix(a.val, "/root/")) {
				if h := inferHome(mcpFirstLine(a.val)); h != "/home/user" {
					pol.Home = h
					break
				}
			}
		}
		if pol.Home == "" && cwd != "" && !strings.HasPrefix(cwd, "~") {
			pol.Home = inferHome(cwd)
		}
		if pol.Home == "" {
			pol.Home = "/home/user"
		}
	}
	if strings.HasPrefix(cwd, "~") {
		cwd = (&Scope{Home: path.Clean(pol.Home)}).expandHome(cwd)
	}
	if declared {
		ws := mcpWorkspaces(path.Clean(pol.Home), c.workspace)
		if len(ws) > 0 {
			cwd = ws[0]
		}
		pol.Workspaces = append(ws, pol.Workspaces...)
	} else if cwd == "" && len(pol.Workspaces) == 0 {
		// No cwd and no configured workspace: the project of the first absolute path argument
		// stands in for the workspace (see mcpInferProject).
		for _, a := range c.args {
			if a.str && (mcpPathKeys.has(a.nkey) || mcpCwdKeys.has(a.nkey)) && strings.HasPrefix(a.val, "/") {
				if p := mcpInferProject(path.Clean(pol.Home), path.Clean(a.val)); p != "" {
					pol.Workspaces = append(pol.Workspaces, p)
				}
				break
			}
		}
	}
	c.scope = NewScope(&pol, cwd)
}

// mcpPersonalDirs are folders directly under home that hold the user's own files, not projects.
var mcpPersonalDirs = wordSet{words: `Documents Desktop Downloads Library Pictures Music Movies Videos Public Applications
	Dropbox OneDrive Mail Templates snap bin go node_modules`}

// mcpCodeDirs hold one project per subdirectory (~/code/api, ~/src/webapp).
var mcpCodeDirs = wordSet{words: `code src projects dev work repos repositories git workspace workspaces github gitlab
	Developer Code Projects Sites source`}

// mcpInferProject guesses the project a path belongs to when the request names no cwd:
// ~/code/NAME (for a code directory such as code, src, projects, repos) or ~/NAME for another
// directory directly under home — never a dot-directory or a personal folder (Documents,
// Downloads, Library, …) — or a container's project root, /workspaces/NAME (the Dev
// Containers spec's default workspaceFolder, which Codespaces uses) or /workspace/NAME
// (Gitpod's). Another path outside home has no inferred project.
func mcpInferProject(home, abs string) string {
	for _, root := range [...]string{"/workspaces/", "/workspace/"} {
		if rest, ok := strings.CutPrefix(abs, root); ok {
			name, _, deeper := strings.Cut(rest, "/")
			if !deeper || name == "" || strings.HasPrefix(name, ".") {
				return ""
			}
			return root + name
		}
	}
	if !isAncestor(home, abs) {
		return ""
	}
	parts := strings.Split(strings.TrimPrefix(abs, home+"/"), "/")
	if len(parts) < 2 || parts[0] == "" || strings.HasPrefix(parts[0], ".") || mcpPersonalDirs.has(parts[0]) {
		return ""
	}
	if mcpCodeDirs.has(parts[0]) {
		if strings.HasPrefix(parts[1], ".") {
			return ""
		}
		return home + "/" + parts[0] + "/" + parts[1]
	}
	return home + "/" + parts[0]
}

func (c *mcpCtx) findAction() {
	// Umbrella tools carry their verb in an argument.
	umb := false
	for _, w := range c.toolWords {
		if mcpUmbrellaWords.has(w) && w != "tool" && w != "tools" && w != "api" && w != "action" && w != "actions" {
			umb = true
		}
	}
	for _, w := range c.toolWords {
		if !mcpUmbrellaWords.has(w) && !mcpContains(c.serverWords, w) {
			umb = false
		}
	}
	c.umbrella = umb
	keys := mcpVerbKeys
	if mcpAnyWord(c.toolWords, mcpWordSet("tool tools")) {
		keys = append(append([]string{}, mcpVerbKeys...), "name")
	}
	// Every verb-like argument counts: {"command": "insights-list", "action": "delete"} deletes.
	var verbArgs []mcpArg
	for _, k := range keys {
		if k == "method" || c.shellish && (k == "command" || k == "cmd") {
			continue
		}
		for _, a := range c.args {
			v := strings.TrimSpace(a.val)
			if a.depth == 1 && a.str && a.nkey == k && v != "" && len(v) <= 200 && !strings.ContainsAny(v, " \t\n|;&<>$`") {
				verbArgs = append(verbArgs, a)
			}
		}
	}
	if len(verbArgs) == 0 {
		verbArgs = c.nestedVerbArgs() // mcp_r14_umbrella.go
	}
	if m, ok := c.top("method"); ok {
		if u := strings.ToUpper(strings.TrimSpace(m.val)); mcpHttpMethods.has(u) {
			c.method = u
		}
	}

	c.actWords = c.toolWords
	c.act, c.actWord = mcpClassifyWords(c.toolWords)
	c.actFrom = "name"
	// For an umbrella tool the verb arguments replace the name's action (the most severe of
	// them wins); for any other tool they can only raise it ("update_file" with
	// "operation": "delete").
	if c.umbrella && len(verbArgs) > 0 {
		c.act, c.actWord, c.actFrom = mcpActUnknown, "", "verb"
	}
	for i, va := range verbArgs {
		words := mcpSplitWords(va.val)
		act, w := mcpClassifyWords(words)
		if c.umbrella && i == 0 {
			c.verb = strings.TrimSpace(va.val)
			c.actWords = words
		}
		if act > c.act {
			if !c.umbrella || i > 0 {
				c.verb = strings.TrimSpace(va.val)
				c.actWords = words
			}
			c.act, c.actWord, c.actFrom = act, w, "verb"
		}
	}
	if c.method != "" && (c.act == mcpActUnknown || c.umbrella || mcpAnyWord(c.toolWords, mcpWordSet("http request fetch curl"))) {
		switch c.method {
		case "GET", "HEAD", "OPTIONS":
			c.act, c.actWord = mcpActRead, strings.ToLower(c.method)
		case "DELETE":
			c.act, c.actWord = mcpActDestroy, "delete"
		default:
			c.act, c.actWord = mcpActWrite, strings.ToLower(c.method)
		}
		c.actFrom = "method"
	}
	// GraphQL mutations.
	for _, a := range c.args {
		if a.str && (a.nkey == "query" || a.nkey == "graphql" || a.nkey == "document") {
			t := strings.TrimSpace(a.val)
			if strings.HasPrefix(t, "mutation") {
				words := mcpSplitWords(mcpClip(t, 4096))
				act, w := mcpClassifyWords(words[1:])
				if act < mcpActWrite {
					act, w = mcpActWrite, "mutation"
				}
				if act > c.act {
					c.act, c.actWord, c.actFrom = act, w, "graphql"
				}
			}
		}
	}
	// The description is untrusted: it may only raise the action, and only a description that
	// opens with a destructive verb ("Deletes a notebook") of a non-umbrella tool counts.
	if !c.umbrella && c.act < mcpActDestroy {
		if w := mcpLeadingVerb(c.req.ToolDescription); w != "" {
			if v, ok := mcpVerbTable.get()[w]; ok && v.class == mcpActDestroy && !v.ambiguous {
				c.act, c.actWord, c.actFrom, c.descRaise = mcpActDestroy, w, "description", true
			}
		}
	}
	// Object words: what the action is applied to ("pull request" in get_pull_request; the
	// second verb of "create_or_update_file" is dropped).
	skipped := false
	for i, w := range c.actWords {
		if w == c.actWord && !skipped {
			skipped = true
			continue
		}
		if mcpStopWords.has(w) || c.umbrella && (mcpUmbrellaWords.has(w) || mcpContains(c.serverWords, w)) {
			continue
		}
		if _, isVerb := mcpVerbTable.get()[w]; isVerb {
			if i > 0 && (c.actWords[i-1] == "or" || c.actWords[i-1] == "and") ||
				i+1 < len(c.actWords) && (c.actWords[i+1] == "or" || c.actWords[i+1] == "and") {
				continue
			}
		}
		c.objWords = append(c.objWords, w)
	}
}

var mcpStopWords = wordSet{words: `or and a an the of to for by with from in on all bulk batch many multiple take`}

var mcpHttpMethods = wordSet{words: `GET HEAD OPTIONS POST PUT PATCH DELETE`}

// mcpLeadingVerb returns the first word of a description as a verb stem ("Permanently deletes" →
// "delete").
func mcpLeadingVerb(desc string) string {
	words := strings.Fields(strings.ToLower(mcpClip(desc, 200)))
	for i, w := range words {
		if i > 1 {
			break
		}
		w = strings.Trim(w, ".,:;!()\"'`")
		if w == "permanently" || w == "irreversibly" || w == "this" {
			continue
		}
		for _, cand := range []string{w, strings.TrimSuffix(w, "s"), strings.TrimSuffix(w, "es")} {
			if _, ok := mcpVerbTable.get()[cand]; ok {
				return cand
			}
		}
		return ""
	}
	return ""
}

func (c *mcpCtx) findShell() {
	if c.knownAs(catalog.MCPToolNoEffect) {
		return // its arguments are prose for the tool ("list ECS services"), not a command line
	}
	shellish := c.shellish
	var argv []string
	text := ""
	// argv arrays under command/cmd/args.
	for _, k := range []string{"command", "cmd", "argv"} {
		var items []string
		isArray := false
		for _, a := range c.args {
			if a.depth == 2 && a.nkey == k && strings.HasPrefix(a.path, a.key+"[") && a.str {
				items = append(items, a.val)
				isArray = true
			}
		}
		if isArray && len(items) > 0 {
			argv = items
			text = strings.Join(items, " ")
			break
		}
	}
	if argv == nil {
		for _, a := range c.args {
			if a.depth != 1 || !a.str || strings.TrimSpace(a.val) == "" {
				continue
			}
			isCmd := mcpShellKeys.has(a.nkey)
			if c.sqlTool && c.sqlUnderOtherKey(a) {
				continue // SQL for a database tool (findSQL), not a command line
			}
			if (a.nkey == "command" || a.nkey == "cmd" || a.nkey == "script") && c.verb == "" {
				isCmd = shellish || strings.ContainsAny(strings.TrimSpace(a.val), " \t\n|;&<>$`")
				if a.nkey == "script" && !shellish {
					isCmd = false
				}
			}
			if !isCmd && c.jobScript(a) {
				isCmd = true // a batch job's script (mcp_r20_jobs.go)
			}
			if isCmd {
				text = a.val
				argv = c.shellArgv(a.val) // r18win_mcpshell.go
				break
			}
		}
	}
	if argv == nil {
		argv, text = c.runnerArgs()
	}
	if argv == nil {
		argv, text = c.ciParamShell() // mcp_r15_ciparams.go
	}
	if argv == nil && !c.browser {
		argv, text = c.findCode()
	}
	if argv != nil {
		c.shell, c.shellText = argv, text
		// The command line, not the umbrella's name ("run", "call"), says what happens.
		if c.actFrom == "name" || c.actFrom == "verb" {
			c.act, c.actWord = mcpActUnknown, ""
		}
	}
}

// mcpRunnerCLIs are CLIs whose MCP servers take the command's arguments as a string
// ({"args":"delete ns production"} to a kubectl tool): the string is that CLI's command line.
var mcpRunnerCLIs = []string{"kubectl", "helm", "docker", "podman", "git", "gh", "aws", "gcloud", "az", "terraform", "npm", "psql"}

// mcpRunnerKeys are the argument names under which shell-like and CLI-runner tools take
// their command line besides command/cmd (review finding F6: args, script and input went
// unanalysed).
var mcpRunnerKeys = []string{"args", "arguments", "script", "input", "shell", "query", "commandline", "cmdline"}

// runnerArgs finds a command line under one of mcpRunnerKeys for a shell-like tool or a CLI
// runner, and prefixes the CLI's name when the tool runs one CLI (k8s/kubectl {"args":…}).
func (c *mcpCtx) runnerArgs() ([]string, string) {
	words := append(append([]string{}, c.serverWords...), c.toolWords...)
	cli := ""
	for _, w := range words {
		for _, r := range mcpRunnerCLIs {
			if w == r {
				cli = r
			}
		}
		if cli == "" && (w == "k8s" || w == "kubernetes") {
			cli = "kubectl"
		}
	}
	runner := c.shellish || cli != "" && (mcpAnyWord(c.toolWords, mcpUmbrellaWords.get()) || mcpContains(c.toolWords, cli) || len(c.toolWords) == 0)
	if !runner {
		return nil, ""
	}
	for _, k := range mcpRunnerKeys {
		for _, a := range c.args {
			if a.depth != 1 || !a.str || a.nkey != k || strings.TrimSpace(a.val) == "" {
				continue
			}
			if k == "query" && !c.shellish && cli == "" {
				continue
			}
			line := a.val
			if cli != "" && !c.shellish && k != "script" && k != "shell" {
				if f := strings.Fields(line); len(f) > 0 && f[0] != cli {
					line = cli + " " + line
				}
			}
			return []string{"bash", "-c", line}, line
		}
	}
	if cli != "" && !c.shellish {
		if line := c.runnerArgv(cli); line != "" {
			return []string{"bash", "-c", line}, line // {"args": ["auth", "print-access-token"]} (r16allow_mcpargv.go)
		}
	}
	return nil, ""
}

// runnerArgv is the command line of a CLI runner that takes its arguments as a list
// ({"args": ["logging", "sinks", "delete", "audit"]} to gcloud's run_gcloud_command), each
// word quoted, with the CLI's name in front; "" when there is no such list. Google's gcloud
// MCP server's run_gcloud_command takes {"args": ["auth", "print-access-token"]}
// (github.com/googleapis/gcloud-mcp), and kubectl and docker servers do the same.
func (c *mcpCtx) runnerArgv(cli string) string {
	for _, k := range []string{"args", "arguments", "argv", "command", "cmd"} {
		var words []string
		first := ""
		for _, a := range c.args {
			if a.depth == 2 && a.str && a.nkey == k && strings.HasPrefix(a.path, a.key+"[") {
				if len(words) == 0 {
					first = a.val
				}
				words = append(words, shellQuote(a.val))
			}
		}
		if len(words) == 0 {
			continue
		}
		if first != cli {
			words = append([]string{cli}, words...)
		}
		return strings.Join(words, " ")
	}
	return ""
}

// mcpCodeKeys hold source code for a code-runner tool.
var mcpCodeKeys = wordSet{words: `code script source program snippet cell cellsource cellcontent cellcode expression expr`}

// findCode recognises a code runner ("run_python" {"code": …}, "node_eval" {"script": …}) and
// returns the interpreter command line the exec analysis judges: python3 -c CODE or node -e
// CODE. A runner whose language is unknown is flagged by mcp.code-exec instead.
func (c *mcpCtx) findCode() ([]string, string) {
	words := append(append([]string{}, c.serverWords...), c.toolWords...)
	lang := c.codeLanguage()
	runner := lang != "" && (mcpAnyWord(c.toolWords, mcpCodeRunVerbs.get()) || c.umbrella) ||
		mcpAnyWord(words, mcpWordSet("repl interpreter jupyter ipython")) || c.codeRunnerByName() // mcp_r12_code.go
	if !runner {
		return nil, ""
	}
	for _, a := range c.args {
		if a.depth != 1 || !a.str || !mcpCodeKeys.has(a.nkey) || strings.TrimSpace(a.val) == "" || mcpCodeIsFileRef(a.val) {
			continue
		}
		c.code = a.val
		switch lang {
		case "python":
			if sh := notebookShell(a.val); sh != "" && mcpAnyWord(words, mcpIPythonWords.get()) {
				// An IPython cell's !cmd and %%bash lines run in a shell (r17b_notebook.go):
				// judged as the shell would run them, beside the cell's Python.
				return []string{"bash", "-c", sh + "\npython3 -c " + shellQuote(notebookPython(a.val))}, a.val
			}
			return []string{"python3", "-c", a.val}, a.val
		case "node":
			return []string{"node", "-e", a.val}, a.val
		case "shell":
			return []string{"bash", "-c", a.val}, a.val
		}
		return nil, ""
	}
	return nil, ""
}

// mcpPythonHosts name applications whose embedded scripting language is Python, so that a
// server for one ("blender" execute_blender_code {"code": …}) runs Python: Blender (bpy),
// FreeCAD, QGIS (PyQGIS), Maya, Houdini, Nuke, Cinema 4D, KiCad (pcbnew), GIMP
// (Python-Fu), ParaView, 3D Slicer, IDA (IDAPython), Ghidra (ghidra_bridge / Jython) and
// Unreal Editor's Python plug-in. Each vendor's scripting manual says so.
var mcpPythonHosts = &wordSet{words: `blender bpy freecad qgis pyqgis maya houdini nuke cinema4d c4d kicad pcbnew gimp paraview slicer ida idapython ghidra unreal`}

func (c *mcpCtx) codeLanguage() string {
	words := append(append([]string{}, c.serverWords...), c.toolWords...)
	if a, ok := c.top("language", "lang", "runtime", "kernel"); ok {
		words = append(words, mcpSplitWords(a.val)...)
	}
	switch {
	case mcpAnyWord(words, mcpPythonRunnerWords.get()), mcpAnyWord(words, mcpPythonHosts.get()):
		return "python"
	case mcpAnyWord(words, mcpWordSet("node nodejs javascript js deno bun typescript ts")):
		return "node"
	case mcpAnyWord(words, mcpWordSet("bash sh shell zsh")):
		return "shell"
	}
	return ""
}

func (c *mcpCtx) findURLs() {
	for _, a := range c.args {
		if !a.str || !mcpUrlKeys.has(a.nkey) {
			continue
		}
		raw := strings.TrimSpace(a.val)
		if strings.HasPrefix(raw, "file://") {
			continue // handled as a path
		}
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss" && u.Scheme != "ftp") {
			continue
		}
		host := strings.ToLower(u.Hostname())
		mu := mcpURL{key: a.key, raw: raw, host: host, local: isLocalHost(host), trust: c.trustedHost(host)}
		if svc, ok := catalog.Default().LoopbackService(host, u.Port()); ok {
			mu.local, mu.service = false, svc.What
		}
		c.urls = append(c.urls, mu)
	}
}

// trustedHost matches Policy.TrustedHosts with path.Match (a "*" matches within the host,
// dots included), case-insensitively.
func (c *mcpCtx) trustedHost(h string) bool {
	if catalog.International(h) {
		return false // a look-alike of a trusted host is not it
	}
	for _, g := range c.policy.TrustedHosts {
		g = strings.ToLower(strings.TrimSpace(g))
		if g == h {
			return true
		}
		if ok, err := path.Match(g, h); err == nil && ok {
			return true
		}
	}
	return false
}

// mcpLocalRoot reports a path that starts at a well-known local root (/home, /etc, ~/, …), so
// that an identifier such as "/vercel/next.js" is not taken for a file.
func mcpLocalRoot(p string) bool {
	if strings.HasPrefix(p, "~/") || p == "~" {
		return true
	}
	for _, r := range []string{"/home/", "/Users/", "/root", "/etc/", "/tmp/", "/var/", "/private/", "/opt/", "/usr/",
		"/proc/", "/run/", "/mnt/", "/Volumes/", "/srv/", "/Library/", "/dev/", "/boot/", "/sys/"} {
		if strings.HasPrefix(p, r) {
			return true
		}
	}
	return false
}

// mcpRemoteKeys are arguments that say a path lives in a remote repository, bucket or drive
// ("owner"+"repo" on GitHub), not on this machine.
var mcpRemoteKeys = wordSet{words: `owner repo repository repositoryid projectid bucket drive driveid spaceid siteid
	workspaceid org organization`}

func (c *mcpCtx) findPaths() {
	for _, a := range c.args {
		if a.depth == 1 && mcpRemoteKeys.has(a.nkey) && !c.local {
			return // paths are inside a remote repository, bucket or drive
		}
	}
	moveLike := mcpAnyWord(c.actWords, mcpWordSet("move mv rename"))
	copyLike := mcpAnyWord(c.actWords, mcpWordSet("copy cp duplicate"))
	for _, a := range c.args {
		if !a.str || mcpCwdKeys.has(a.nkey) {
			continue
		}
		raw := strings.TrimSpace(a.val)
		if strings.HasPrefix(raw, "file://") {
			if u, err := url.Parse(raw); err == nil {
				raw = u.Path
			}
		}
		if raw == "" || len(raw) > 4096 || strings.ContainsAny(raw, "\n\r\x00") || strings.Contains(raw, "://") {
			continue
		}
		absLike := strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "~/") || raw == "~"
		keyed := mcpPathKeys.has(a.nkey) || strings.HasSuffix(a.nkey, "path") || strings.HasSuffix(a.nkey, "file") ||
			strings.HasSuffix(a.nkey, "dir") || strings.HasSuffix(a.nkey, "directory")
		switch {
		case absLike && keyed, absLike && !strings.ContainsAny(raw, " \t") && (c.local || mcpLocalRoot(raw)):
			// an absolute path under a path key, or one under a well-known local root
		case keyed && (c.fsTool || c.local) && !strings.Contains(raw, "@") && !strings.HasPrefix(raw, "-") &&
			(!(mcpSourceKeys.has(a.nkey) || mcpDestKeys.has(a.nkey)) || strings.Contains(raw, "/") || strings.HasPrefix(raw, ".")):
			// a relative path given to a local tool
		default:
			continue
		}
		if !absLike && !(c.fsTool || c.local) {
			continue
		}
		p := &mcpPath{key: a.key, raw: raw}
		if abs, ok := c.scope.Resolve(raw); ok {
			p.abs = abs
		}
		p.zone = c.scope.Zone(p.abs)
		switch {
		case mcpOutputKeys.has(a.nkey):
			p.op = mcpOpWrite
		case c.sqlTool || len(c.sql) > 0:
			p.op = mcpOpMention // the database file: the SQL rules judge what happens to it
		case c.fsTool && moveLike && mcpSourceKeys.has(a.nkey), c.fsTool && (moveLike || copyLike) && mcpDestKeys.has(a.nkey):
			p.op = mcpOpWrite
		case c.fsTool && copyLike && mcpSourceKeys.has(a.nkey):
			p.op = mcpOpRead
		case c.fsTool || c.local && keyed:
			switch c.act {
			case mcpActRead:
				p.op = mcpOpRead
			case mcpActWrite:
				p.op = mcpOpWrite
			case mcpActDestroy:
				p.op = mcpOpDelete
			}
			if mcpAnyWord(c.actWords, mcpWordSet("upload attach send share")) {
				p.op = mcpOpRead
			}
		case mcpWriteToPath(c, a, keyed, absLike):
			p.op = mcpOpWrite // mcp_writepath.go
		default:
			if c.act == mcpActRead || mcpAnyWord(c.actWords, mcpSendVerbs.get()) || mcpBodyKeys.has(a.nkey) || a.nkey == "attachments" {
				p.op = mcpOpRead
			}
		}
		c.paths = append(c.paths, p)
		if len(c.paths) >= 64 {
			break
		}
	}
}

func (c *mcpCtx) findSecrets() {
	seen := map[string]bool{}
	for _, a := range c.args {
		if !a.str || a.val == "" {
			continue
		}
		v := a.val
		if len(v) > mcpMaxScan {
			v = v[:mcpMaxScan]
		}
		kinds := map[string]bool{}
		for _, m := range FindSecrets(v) {
			kinds[m.Kind] = true
		}
		if strings.Contains(a.nkey, "authorization") || a.nkey == "auth" || a.nkey == "xapikey" {
			for _, m := range FindSecrets("Authorization: " + mcpFirstLine(v)) {
				kinds[m.Kind] = true
			}
		}
		if !strings.Contains(v, "\n") && len(v) <= 512 {
			if k, ok := secCheckKeyed(a.key, v); ok {
				if k == "" {
					k = secKeyedKind(a.key)
				}
				kinds[k] = true
			}
		}
		inURL := false
		for _, u := range c.urls {
			if u.raw == strings.TrimSpace(a.val) && !u.local && !u.trust {
				inURL = true
			}
		}
		for k := range kinds {
			id := a.path + "\x00" + k
			if !seen[id] {
				seen[id] = true
				c.secrets = append(c.secrets, mcpSecret{where: a.path, kind: k, inURL: inURL})
			}
		}
	}
	// Secrets smuggled out encoded in a URL's query (…?d=base64(OPENAI_API_KEY=…)).
	for _, u := range c.urls {
		if u.local || u.trust {
			continue
		}
		pu, err := url.Parse(u.raw)
		if err != nil {
			continue
		}
		// Plain secrets in the query or path, once percent-decoded
		// (?api_paste_code=DATABASE_URL%3Dpostgres%3A%2F%2Fadmin%3A…).
		for _, f := range urlSecretFields(pu) {
			for _, kind := range urlFieldSecrets(f[0], f[1]) {
				id := u.key + "?" + f[0] + "\x00" + kind
				if !seen[id] {
					seen[id] = true
					c.secrets = append(c.secrets, mcpSecret{where: u.key + " (?" + f[0] + ")", kind: kind, inURL: true})
				}
			}
		}
		for k, vs := range pu.Query() {
			for _, v := range vs {
				if len(v) < 16 {
					continue
				}
				dec, ok := decodeB64(v)
				if !ok || !mostlyPrintable(dec) {
					continue
				}
				kinds := []string{}
				for _, m := range FindSecrets(dec) {
					kinds = append(kinds, m.Kind)
				}
				if len(kinds) == 0 && looksLikeCredentialBlob(dec) {
					kinds = append(kinds, "encoded-credentials")
				}
				for _, kind := range kinds {
					m := SecretMatch{Kind: kind}
					id := u.key + "?" + k + "\x00" + m.Kind
					if !seen[id] {
						seen[id] = true
						c.secrets = append(c.secrets, mcpSecret{where: u.key + " (base64 in ?" + k + ")", kind: m.Kind, inURL: true})
					}
				}
			}
		}
	}
	sort.Slice(c.secrets, func(i, j int) bool {
		if c.secrets[i].where != c.secrets[j].where {
			return c.secrets[i].where < c.secrets[j].where
		}
		return c.secrets[i].kind < c.secrets[j].kind
	})
}

func (c *mcpCtx) findDomains() {
	c.payment = c.paymentWords()
	c.infra = mcpAnyWord(c.serverWords, mcpInfraWords.get()) || mcpAnyWord(c.toolWords, mcpWordSet("k8s kubectl helm terraform pulumi"))

	// Sending: messaging verbs and services, publishing objects, HTTP writes and uploads.
	switch {
	case c.act >= mcpActWrite && (mcpAnyWord(c.actWords, mcpSendVerbs.get()) || mcpAnyWord(c.serverWords, mcpMessagingWords.get())):
		c.sends, c.sendWhy = true, "sends it to others through "+mcpOrStr(c.server, "the tool")
	case c.act == mcpActWrite && mcpAnyWord(c.actWords, mcpPublishNouns.get()):
		c.sends, c.sendWhy = true, "publishes it as "+mcpPlural(mcpFirstWord(c.actWords, mcpPublishNouns.get()))
	}
	hasBody := false
	for _, a := range c.args {
		if a.depth == 1 && mcpBodyKeys.has(a.nkey) {
			hasBody = true
		}
	}
	for _, u := range c.urls {
		if u.local {
			continue
		}
		if c.method == "POST" || c.method == "PUT" || c.method == "PATCH" ||
			(c.method == "" && (mcpAnyWord(c.actWords, mcpWordSet("upload post send submit webhook put publish")) || hasBody && c.act != mcpActRead)) {
			c.httpSend = true
			c.sends = true
			if c.sendWhy == "" || c.httpSend {
				c.sendWhy = "sends it to " + u.host
			}
		}
	}
	for i := range c.secrets {
		if c.secrets[i].inURL {
			c.sends = true
			if c.sendWhy == "" {
				c.sendWhy = "puts it in a URL for " + c.urls[0].host
			}
		}
	}
	// Paths are re-judged now that sending is known: a file attached to a send is read.
	if c.sends {
		for _, p := range c.paths {
			if p.op == mcpOpMention {
				p.op = mcpOpRead
			}
		}
	}
	// An argument naming production.
	for _, a := range c.args {
		if a.str && a.depth <= 2 && mcpProdKeys.has(a.nkey) && c.prodNameArg(a) {
			for _, w := range mcpSplitWords(mcpClip(a.val, 200)) {
				if mcpProdWords.has(w) {
					c.prodHint = a.key + "=" + mcpCleanText(a.val, 40)
					break
				}
			}
		}
		if c.prodHint != "" {
			break
		}
	}
	// A local database file inside the workspace.
	for _, p := range c.paths {
		ext := strings.ToLower(path.Ext(p.raw))
		if (ext == ".db" || ext == ".sqlite" || ext == ".sqlite3" || ext == ".duckdb" || ext == ".db3") &&
			(p.zone == ZoneWorkspace || p.zone == ZoneTemp) {
			c.dbLocal = true
		}
	}
	if !c.dbLocal {
		c.dbLocal = c.localFileDB()
	}
}

// ---------------------------------------------------------------------------------------------
// Paths.

// pathEntry returns the catalogue entry of class that a path argument falls in, judged on
// the resolved path, or on the argument as written when it could not be resolved (~user).
// The exec analysis asks the same catalogue, so both answer alike.
func (c *mcpCtx) pathEntry(class catalog.Class, p *mcpPath) (*catalog.PathEntry, bool) {
	q := p.abs
	if q == "" && (strings.HasPrefix(p.raw, "~") || strings.HasPrefix(p.raw, "/")) {
		q = p.raw
	}
	if x := xdgPath(p.raw); q == "" && x != "" {
		q = x // $XDG_STATE_HOME/guardian/…: classified as below the variable's default
	}
	if q == "" {
		return nil, false
	}
	return catalog.Default().Classify(class, q, c.scope.Home)
}

// pathClass describes what the catalogue calls a path in class ("" when it is not in it).
func (c *mcpCtx) pathClass(class catalog.Class, p *mcpPath) string {
	if e, ok := c.pathEntry(class, p); ok {
		return e.What
	}
	return ""
}

var mcpReRemoteCode = lazyNeedRegexp(`(?i)\b(curl|wget|nc|ncat|socat|telnet)\b|/dev/tcp/|\bbash\s+-i\b|base64\s+(-d|--decode)|\beval\b|\bpython[0-9.]*\s+-c\b|\bperl\s+-e\b|\|\s*(ba|z)?sh\b|\bmkfifo\b|ProxyCommand|LocalCommand|sshCommand|hooksPath`,
	true, "curl", "wget", "nc", "socat", "telnet", "/dev/tcp/", "bash", "base64", "eval", "python", "perl", "|", "mkfifo",
	"ProxyCommand", "LocalCommand", "sshCommand", "hooksPath")

// writtenContent joins the content arguments of a write (content, text, newText, …).
func (c *mcpCtx) writtenContent() string {
	var b strings.Builder
	for _, a := range c.args {
		if a.str && (mcpBodyKeys.has(a.nkey) || a.nkey == "newtext" || a.nkey == "newstring" || a.nkey == "replacement" || a.nkey == "edits" || a.nkey == "patch" || a.nkey == "diff") {
			b.WriteString(mcpClip(a.val, 64<<10))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func (p *mcpPath) writes() bool { return p.op == mcpOpWrite || p.op == mcpOpDelete }

func (p *mcpPath) show() string {
	if p.abs != "" {
		return p.abs
	}
	return mcpCleanText(p.raw, 120)
}

// ---------------------------------------------------------------------------------------------
// Text helpers.

func mcpClip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func mcpFirstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// mcpCleanText makes untrusted text safe to put in a sentence: secrets redacted, control
// characters and newlines folded, clipped to n bytes.
func mcpCleanText(s string, n int) string {
	s = mcpClip(s, 4*n)
	s = RedactSecrets(s)
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = mcpClip(s, n) + "…"
	}
	return s
}

func mcpPlural(n string) string {
	switch {
	case n == "":
		return "content"
	case strings.HasSuffix(n, "s"):
		return n
	case n == "pr" || n == "mr":
		return "a " + strings.ToUpper(n)
	case strings.ContainsRune("aeiou", rune(n[0])):
		return "an " + n
	}
	return "a " + n
}

func mcpContains(list []string, x string) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}

// mcpVerb3 conjugates a verb for "which deletes …".
func mcpVerb3(w string) string {
	switch w {
	case "":
		return "changes"
	case "rm", "del":
		return "deletes"
	case "mv":
		return "moves"
	case "cp":
		return "copies"
	case "ls":
		return "lists"
	case "exec":
		return "executes"
	case "mkdir":
		return "creates directories in"
	case "get", "fetch", "read", "retrieve", "lookup", "select":
		return "reads"
	case "post", "put", "patch":
		return "sends"
	}
	if strings.HasSuffix(w, "s") || strings.HasSuffix(w, "sh") || strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "x") ||
		strings.HasSuffix(w, "z") || strings.HasSuffix(w, "o") {
		return w + "es"
	}
	if strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])) {
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}

// call describes the call: "Calls posthog tool exec to run notebooks-destroy".
func (c *mcpCtx) call() string {
	s := "Calls "
	if c.server != "" {
		s += c.server + " tool " + mcpOrStr(c.tool, "(unnamed)")
	} else {
		s += "tool " + mcpOrStr(c.tool, "(unnamed)")
	}
	if c.verb != "" {
		s += " to run " + mcpCleanText(c.verb, 60)
	}
	return s
}

// object names what the action applies to: "notebooks", "pull request", or def.
func (c *mcpCtx) object(def string) string {
	if len(c.objWords) == 0 {
		return def
	}
	return mcpCleanText(strings.Join(c.objWords, " "), 60)
}

// does says "which deletes notebooks".
func (c *mcpCtx) does(def string) string {
	if mcpNounVerbs.has(c.actWord) {
		// "git_status" reads the git status; "browser_snapshot" reads a browser snapshot.
		var ws []string
		for _, w := range c.actWords {
			if !mcpStopWords.has(w) {
				ws = append(ws, w)
			}
		}
		return "which reads " + mcpCleanText(strings.Join(ws, " "), 60)
	}
	return "which " + mcpVerb3(c.actWord) + " " + c.object(def)
}

var mcpNounVerbs = wordSet{words: `status diff log logs snapshot screenshot tree history info stat preview query check`}

// ---------------------------------------------------------------------------------------------
// Rules.

func mcpRules() []*Rule {
	return []*Rule{
		// --- critical -----------------------------------------------------------------------
		{ID: "mcp.secret-exfil", Kind: KindMCP, Level: Critical, Category: CatDataExfiltration,
			Message: "Sends a credential found in the arguments to a third party",
			mcp: func(c *mcpCtx) (string, bool) {
				if len(c.secrets) == 0 || !c.sends {
					return "", false
				}
				return fmt.Sprintf("%s, which carries %s (in %s) and %s: a credential would leave the machine",
					c.call(), c.secrets[0].kind, mcpCleanText(c.secrets[0].where, 60), c.sendWhy), true
			}},
		{ID: "mcp.credential-file-exfil", Kind: KindMCP, Level: Critical, Category: CatDataExfiltration,
			Message: "Sends a credential file to a third party",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.sends {
					return "", false
				}
				for _, p := range c.paths {
					if what := c.pathClass(catalog.Credential, p); what != "" && p.op == mcpOpRead {
						return fmt.Sprintf("%s, which takes %s (%s) and %s", c.call(), what, p.show(), c.sendWhy), true
					}
				}
				return "", false
			}},
		{ID: "mcp.script-exfil", Kind: KindMCP, Level: Critical, Category: CatDataExfiltration,
			Message: "Runs a script that sends cookies, tokens or page secrets to another host",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, a := range c.args {
					if !a.str || !mcpScriptKeys.has(a.nkey) {
						continue
					}
					js := mcpClip(a.val, 64<<10)
					if !mcpReNetCall().MatchString(js) || !mcpReSensitiveJS().MatchString(js) {
						continue
					}
					for _, m := range mcpReAbsURL().FindAllStringSubmatch(js, 16) {
						h := strings.ToLower(m[1])
						if !isLocalHost(h) && !c.trustedHost(h) {
							return fmt.Sprintf("%s, whose script sends %s to %s", c.call(),
								strings.ToLower(mcpReSensitiveJS().FindString(js)), mcpCleanText(h, 60)), true
						}
					}
				}
				return "", false
			}},
		{ID: "mcp.sql-destructive", Kind: KindMCP, Level: Critical, Category: CatDataDeletion,
			Message: "Runs SQL that destroys data (DROP, TRUNCATE, DELETE without WHERE)",
			mcp: func(c *mcpCtx) (string, bool) {
				if s, ok := c.sqlWorst(mcpSqlDestroy); ok {
					return fmt.Sprintf("%s, which runs SQL that %s (%s)", c.call(), s.what, s.text), true
				}
				return "", false
			}},
		{ID: "mcp.bulk-delete", Kind: KindMCP, Level: Critical, Category: CatDataDeletion,
			Message: "Deletes everything a wildcard or an empty filter selects",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act != mcpActDestroy {
					return "", false
				}
				for _, a := range c.args {
					if a.str && (a.val == "*" || a.val == "%" || a.val == ".*") {
						return fmt.Sprintf("%s, %s matching %q in %s — everything", c.call(), c.does("data"), a.val, mcpCleanText(a.key, 40)), true
					}
				}
				if c.req.Arguments != nil {
					for _, k := range []string{"filter", "query", "where", "selector", "match"} {
						for ak, v := range c.req.Arguments {
							if mcpNormKey(ak) != k {
								continue
							}
							if m, ok := v.(map[string]any); ok && len(m) == 0 {
								return fmt.Sprintf("%s, %s with an empty %s — every record", c.call(), c.does("data"), ak), true
							}
						}
					}
				}
				return "", false
			}},
		{ID: "mcp.production-delete", Kind: KindMCP, Level: Critical, Category: CatFinancialOrProduction,
			Message: "Deletes production infrastructure",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.hardDestroy() || c.prodHint == "" || !(c.infra || c.containerTarget() != "") || c.singlePodDelete() {
					return "", false
				}
				return fmt.Sprintf("%s, %s in production (%s)", c.call(), c.does("resources"), c.prodHint), true
			}},
		{ID: "mcp.delete-container", Kind: KindMCP, Level: Critical, Category: CatDataDeletion,
			Message: "Deletes a whole repository, project, database, bucket or namespace",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.hardDestroy() {
					return "", false
				}
				if what := c.containerTarget(); what != "" {
					return fmt.Sprintf("%s, which deletes a whole %s with everything in it", c.call(), what), true
				}
				return "", false
			}},
		{ID: "mcp.fs-persistence-write", Kind: KindMCP, Level: Critical, Category: CatPersistence,
			Message: "Writes a login key, a shell or tool startup file, an autostart entry or a scheduled job",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					if p.op != mcpOpWrite {
						continue
					}
					e, ok := c.pathEntry(catalog.Persistence, p)
					if !ok {
						continue
					}
					if e.ID == "ssh.authorized-keys" {
						return fmt.Sprintf("%s, which writes %s: a new key there grants SSH login", c.call(), p.show()), true
					}
					if m := mcpReRemoteCode.FindString(c.writtenContent()); m != "" {
						return fmt.Sprintf("%s, which adds code that fetches or runs remote commands (%s) to %s", c.call(), mcpCleanText(m, 30), e.What), true
					}
					if e.Severity != "" {
						continue // a git hook: mcp.fs-startup-file-write asks
					}
					return fmt.Sprintf("%s, which changes %s (%s): code there runs later, unattended", c.call(), e.What, p.show()), true
				}
				return "", false
			}},
		{ID: "mcp.fs-privileged-write", Kind: KindMCP, Level: Critical, Category: CatPrivilegeEscalation,
			Message: "Writes sudoers, the account database or the loader/PAM configuration",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					if what := c.pathClass(catalog.Privilege, p); what != "" && p.writes() {
						return fmt.Sprintf("%s, which changes %s", c.call(), what), true
					}
				}
				return "", false
			}},
		{ID: "mcp.fs-agent-config-write", Kind: KindMCP, Level: Critical, Category: CatSecurityWeakening,
			Message: "Changes an agent's own permission or MCP configuration",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					if what := c.pathClass(catalog.AgentConfig, p); what != "" && p.writes() {
						return fmt.Sprintf("%s, which changes %s (%s)", c.call(), what, p.show()), true
					}
				}
				for _, w := range c.writes() {
					if m := mcpReEditorAgentApproval().FindString(w.content); m != "" {
						if _, ok := mcpEditorStartupFile(w.path); ok {
							return fmt.Sprintf("%s, which sets the editor agent's approval setting %s (%s)", c.call(),
								mcpCleanText(m, 50), mcpCleanText(w.path, 80)), true
						}
					}
				}
				return "", false
			}},
		{ID: "mcp.fs-credential-write", Kind: KindMCP, Level: Critical, Category: CatCredentialAccess,
			Message: "Overwrites or deletes a credential store outside the workspace",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					if what := c.pathClass(catalog.Credential, p); what != "" && p.writes() && p.zone != ZoneWorkspace && p.zone != ZoneTemp {
						return fmt.Sprintf("%s, which overwrites or deletes %s (%s)", c.call(), what, p.show()), true
					}
				}
				return "", false
			}},
		{ID: "mcp.fs-vital-delete", Kind: KindMCP, Level: Critical, Category: CatDataDeletion,
			Message: "Deletes the home directory, a workspace root or a system directory",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					if p.op == mcpOpDelete && p.zone == ZoneVital {
						return fmt.Sprintf("%s, which deletes %s, %s", c.call(), c.scope.Pretty(p.abs), p.zone), true
					}
				}
				return "", false
			}},
		{ID: "mcp.force-push-default", Kind: KindMCP, Level: Critical, Category: CatDestructiveVCS,
			Message: "Force-pushes to the default branch, rewriting its history",
			mcp: func(c *mcpCtx) (string, bool) {
				if b := c.defaultBranch(); c.forced() && b != "" {
					return fmt.Sprintf("%s, which force-updates %s and can discard its history", c.call(), b), true
				}
				return "", false
			}},

		// --- high ---------------------------------------------------------------------------
		{ID: "mcp.secret-in-args", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			Message: "Passes a credential in the arguments",
			mcp: func(c *mcpCtx) (string, bool) {
				if len(c.secrets) == 0 || c.sends {
					return "", false
				}
				return fmt.Sprintf("%s with %s in its arguments (%s)", c.call(), c.secrets[0].kind, mcpCleanText(c.secrets[0].where, 60)), true
			}},
		{ID: "mcp.password-entry", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			Message: "Types a real-looking password into a form",
			mcp: func(c *mcpCtx) (string, bool) {
				if where := c.passwordEntry(); where != "" {
					return fmt.Sprintf("%s, which types a real-looking password into %s", c.call(), where), true
				}
				return "", false
			}},
		{ID: "mcp.credential-file-read", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			CertainWhen: "the store lies outside the workspace (a key, cloud credentials, a token or browser store)",
			Message:     "Reads credential material into the agent's context",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.sends {
					return "", false // mcp.credential-file-exfil
				}
				for _, p := range c.paths {
					if what := c.pathClass(catalog.Credential, p); what != "" && (p.op == mcpOpRead || p.op == mcpOpMention) {
						if p.zone != ZoneWorkspace {
							c.certainty = certaintySure // the project's own .env is asked about
						}
						return fmt.Sprintf("%s, which reads %s (%s) into the agent's context", c.call(), what, p.show()), true
					}
				}
				return "", false
			}},
		{ID: "mcp.metadata-url", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			Message: "Queries a cloud metadata service, which hands out instance credentials",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, u := range c.urls {
					if catalog.Default().IsMetadata(u.host) {
						return fmt.Sprintf("%s on %s, a cloud metadata service that hands out instance credentials", c.call(), u.host), true
					}
				}
				return "", false
			}},
		{ID: "mcp.upload-untrusted", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Sends data to a host that is not trusted",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.httpSend {
					return "", false
				}
				for _, u := range c.urls {
					if !u.local && !u.trust {
						return fmt.Sprintf("%s, which sends data to %s, a host that is not trusted", c.call(), mcpCleanText(u.host, 80)), true
					}
				}
				return "", false
			}},
		{ID: "mcp.payment", Kind: KindMCP, Level: High, Category: CatFinancialOrProduction,
			Message: "Moves money or changes billing (refund, charge, payout, subscription)",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act < mcpActWrite || !c.payment {
					return "", false
				}
				return fmt.Sprintf("%s, %s: a billing change that can move real money", c.call(), c.does("billing data")), true
			}},
		{ID: "mcp.production-change", Kind: KindMCP, Level: High, Category: CatFinancialOrProduction,
			Message: "Changes production: a deploy, infrastructure or a live feature flag",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act < mcpActWrite || c.localCluster() != "" || c.localDevService() != "" || c.routine != mcpRoutineNone {
					return "", false
				}
				switch {
				case mcpAnyWord(c.actWords, mcpDeployVerbs.get()):
					return fmt.Sprintf("%s, which %ss %s", c.call(), mcpFirstWord(c.actWords, mcpDeployVerbs.get()), c.object("a service")) + c.prodSuffix(), true
				case c.infra:
					return fmt.Sprintf("%s, %s on %s infrastructure", c.call(), c.does("resources"), c.server) + c.prodSuffix(), true
				case mcpContains(c.objWords, "flag") || mcpContains(c.objWords, "flags"):
					return fmt.Sprintf("%s, %s, which changes what production users get", c.call(), c.does("a feature flag")), true
				case c.prodHint != "" && !c.memory && !c.gitLocal:
					return fmt.Sprintf("%s, %s", c.call(), c.does("resources")) + c.prodSuffix(), true
				}
				return "", false
			}},
		{ID: "mcp.local-cluster", Kind: KindMCP, Level: Medium, Category: CatNone, Contained: true,
			Message: "Changes a local development cluster (kind, minikube, Docker Desktop, …)",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act != mcpActWrite {
					return "", false
				}
				if ctx := c.localCluster(); ctx != "" {
					return fmt.Sprintf("%s, %s on the local cluster %s", c.call(), c.does("resources"), mcpCleanText(ctx, 60)), true
				}
				return "", false
			}},
		{ID: "mcp.merge", Kind: KindMCP, Level: High, Category: CatFinancialOrProduction,
			Message: "Merges a pull request, landing code that may deploy",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act == mcpActWrite && c.actWord == "merge" && !c.gitLocal {
					return fmt.Sprintf("%s, which merges %s: code lands on the target branch and may deploy", c.call(), c.object("a change")), true
				}
				return "", false
			}},
		{ID: "mcp.default-branch-write", Kind: KindMCP, Level: High, Category: CatFinancialOrProduction,
			CertainWhen: "it commits or pushes files, or changes protection, on the default branch",
			Message:     "Commits straight to the default branch, bypassing review",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act < mcpActWrite || c.gitLocal || mcpAnyWord(c.actWords, mcpWordSet("pull pr mr merge")) {
					return "", false
				}
				if b := c.defaultBranch(); b != "" {
					// policy: pushing directly to a shared default branch. A deploy of main is a
					// production change whose reason decides it: asked about.
					// Deleting the default branch is destroying what everyone works on.
					if mcpAnyWord(c.toolWords, mcpWordSet("push file files commit commits contents ref refs protection delete remove")) {
						c.certainty = certaintySure
					}
					return fmt.Sprintf("%s, which writes directly to %s, bypassing review", c.call(), b), true
				}
				return "", false
			}},
		{ID: "mcp.force-push", Kind: KindMCP, Level: High, Category: CatDestructiveVCS,
			Message: "Force-updates a branch, which can discard commits",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.forced() && c.defaultBranch() == "" {
					return fmt.Sprintf("%s with force, which can discard commits on the branch", c.call()), true
				}
				return "", false
			}},
		{ID: "mcp.sql-escalate", Kind: KindMCP, Level: Critical, Category: CatPrivilegeEscalation,
			Message: "Runs SQL that executes code or writes files on the server, makes a superuser or disables row-level security",
			mcp: func(c *mcpCtx) (string, bool) {
				if s, ok := c.sqlWorst(mcpSqlEscalate); ok {
					return fmt.Sprintf("%s, which runs SQL that %s (%s)", c.call(), s.what, s.text), true
				}
				return "", false
			}},
		{ID: "mcp.sql-secret-read", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			CertainWhen: "it reads every row (a WHERE that picks one secret is asked about)",
			Message:     "Runs SQL that reads server files, password hashes or secret columns in bulk",
			mcp: func(c *mcpCtx) (string, bool) {
				if s, ok := c.sqlSecretRead(); ok {
					return fmt.Sprintf("%s, which runs SQL that %s (%s)", c.call(), s.what, s.text), true
				}
				return "", false
			}},
		{ID: "mcp.sql-privilege", Kind: KindMCP, Level: High, Category: CatPrivilegeEscalation,
			Message: "Runs SQL that grants or changes roles and permissions",
			mcp: func(c *mcpCtx) (string, bool) {
				if s, ok := c.sqlWorst(mcpSqlPriv, mcpSqlEscalate); ok {
					return fmt.Sprintf("%s, which runs SQL that %s (%s)", c.call(), s.what, s.text), true
				}
				return "", false
			}},
		{ID: "mcp.sql-bulk-write", Kind: KindMCP, Level: High, Category: CatDataDeletion,
			Message: "Runs SQL that rewrites every row or drops a database object",
			mcp: func(c *mcpCtx) (string, bool) {
				if s, ok := c.sqlWorst(mcpSqlBulk); ok {
					return fmt.Sprintf("%s, which runs SQL that %s (%s)", c.call(), s.what, s.text), true
				}
				return "", false
			}},
		{ID: "mcp.sql-schema-change", Kind: KindMCP, Level: High, Category: CatFinancialOrProduction,
			Message: "Changes the schema of a shared (non-local) database",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.dbLocal {
					return "", false
				}
				if s, ok := c.sqlWorst(mcpSqlDDL); ok {
					return fmt.Sprintf("%s, which runs SQL that %s on a database that is not a local file (%s)", c.call(), s.what, s.text), true
				}
				return "", false
			}},
		{ID: "mcp.remote-env-dump", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			Message: "Dumps the environment of a remote container or host, exposing its secrets",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.remoteExec() && mcpReEnvDump().MatchString(c.shellText) {
					return fmt.Sprintf("%s, which prints the environment of a remote container (`%s`), where its secrets live", c.call(), mcpCleanText(c.shellText, 60)), true
				}
				return "", false
			}},
		{ID: "mcp.remote-exec", Kind: KindMCP, Level: High, Category: CatRemoteCodeExecution,
			Message: "Runs a command inside a remote container or host",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.remoteExec() && !mcpReEnvDump().MatchString(c.shellText) {
					return fmt.Sprintf("%s, which runs `%s` inside a remote container or host", c.call(), mcpCleanText(c.shellText, 60)), true
				}
				return "", false
			}},
		{ID: "mcp.browser-destructive-click", Kind: KindMCP, Level: High, Category: CatDataDeletion,
			Message: "Clicks a destructive control (delete, remove, close account) in a logged-in browser",
			mcp: func(c *mcpCtx) (string, bool) {
				if t := c.browserTarget(); t != "" {
					if act, w := mcpClassifyWords(mcpSplitWords(t)); act == mcpActDestroy && !mcpSoftDestroyVerbs.has(w) {
						return fmt.Sprintf("%s on %q, which %s something in a logged-in session", c.call(), mcpCleanText(t, 60), mcpVerb3(w)), true
					}
				}
				return "", false
			}},
		{ID: "mcp.browser-consequential-click", Kind: KindMCP, Level: High, Category: CatFinancialOrProduction,
			Message: "Clicks a control that pays, merges, deploys or publishes",
			mcp: func(c *mcpCtx) (string, bool) {
				if t := c.browserTarget(); t != "" {
					words := mcpSplitWords(t)
					if w := mcpFirstWord(words, mcpWordSet("pay purchase buy checkout order merge deploy publish transfer donate subscribe")); w != "" {
						if act, _ := mcpClassifyWords(words); act != mcpActDestroy {
							return fmt.Sprintf("%s on %q, which can %s for real", c.call(), mcpCleanText(t, 60), w), true
						}
					}
				}
				return "", false
			}},
		{ID: "mcp.fs-system-write", Kind: KindMCP, Level: High, Category: CatSystemModification,
			Message: "Writes to a system location",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					if p.writes() && p.zone == ZoneSystem && c.specialPath(p) == "" {
						return fmt.Sprintf("%s, which %s %s, %s", c.call(), mcpOpVerb(p.op), p.show(), p.zone), true
					}
				}
				return "", false
			}},
		{ID: "mcp.fs-delete", Kind: KindMCP, Level: High, Category: CatDataDeletion,
			Message: "Deletes files",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					if p.op == mcpOpDelete && p.zone != ZoneVital && p.zone != ZoneTemp && p.zone != ZoneDevNull && p.zone != ZoneSystem {
						return fmt.Sprintf("%s, which deletes %s, %s", c.call(), p.show(), p.zone), true
					}
				}
				return "", false
			}},
		{ID: "mcp.destroy-verb", Kind: KindMCP, Level: High, Category: CatDataDeletion,
			Message: "Deletes data on the service",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act != mcpActDestroy || c.claimed() || c.teamWork() != "" || c.gitKeepsWork() != "" {
					return "", false
				}
				return fmt.Sprintf("%s, %s", c.call(), c.does("data")) + c.fromDescription(), true
			}},
		{ID: "mcp.destructive-hint", Kind: KindMCP, Level: High, Category: CatDataDeletion,
			Message: "Calls a tool its server marks as destructive",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.destructive || c.act == mcpActDestroy {
					return "", false
				}
				return fmt.Sprintf("%s, which its server marks as destructive", c.call()), true
			}},

		// --- medium -------------------------------------------------------------------------
		{ID: "mcp.code-exec", Kind: KindMCP, Level: Medium, Category: CatRemoteCodeExecution,
			Message: "Runs code of a language guardian cannot analyse",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.shell != nil || c.browser || !mcpAnyWord(c.toolWords, mcpWordSet("run execute exec eval evaluate interpret")) {
					return "", false
				}
				for _, a := range c.args {
					if a.depth == 1 && a.str && mcpCodeKeys.has(a.nkey) && strings.TrimSpace(a.val) != "" {
						return fmt.Sprintf("%s, which runs code guardian cannot analyse (%s)", c.call(), mcpCleanText(a.val, 60)), true
					}
				}
				return "", false
			}},
		{ID: "mcp.package-typosquat", Kind: KindMCP, Level: High, Category: CatRemoteCodeExecution,
			CertainWhen: "the name is documented malware, a lookalike or one slip from a popular name",
			Message:     "Installs a package whose name imitates a popular one (typosquat, lookalike or known malware)",
			mcp: func(c *mcpCtx) (string, bool) {
				return c.mcpPackageSquat()
			}},
		{ID: "mcp.load-flood", Kind: KindMCP, Level: High, Category: CatResourceExhaustion,
			Message: "Runs a load test without end (an unbounded flood of requests)",
			mcp: func(c *mcpCtx) (string, bool) {
				return c.mcpLoadFlood()
			}},
		{ID: "mcp.fs-git-config-exec", Kind: KindMCP, Level: High, Category: CatPersistence,
			CertainWhen: "the command it sets fetches or runs remote code, or is an fsmonitor or a shell credential helper",
			Message:     "Writes a git config key that makes git run a program",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					if p.op != mcpOpWrite || !isRepoGitConfig(mcpOrStr(p.abs, p.raw)) {
						continue
					}
					if k, v, sure, ok := gitConfigExecKey(c.writtenContent()); ok {
						if sure {
							c.certainty = certaintySure
						}
						return fmt.Sprintf("%s, which sets %s = %s in %s: git runs it on later commands", c.call(), k, mcpCleanText(v, 60), p.show()), true
					}
				}
				return "", false
			}},
		{ID: "mcp.fs-startup-file-write", Kind: KindMCP, Level: High, Category: CatPersistence,
			Message: "Writes a git hook or deletes a startup file: code there runs later, or stops running",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					e, ok := c.pathEntry(catalog.Persistence, p)
					if !ok || !p.writes() || p.op == mcpOpWrite && (e.Severity == "" || mcpReRemoteCode.MatchString(c.writtenContent())) {
						continue // mcp.fs-persistence-write
					}
					if p.op != mcpOpWrite {
						c.certainty = certaintyUnsure // deleting or moving a startup file stops code rather than planting it
					}
					return fmt.Sprintf("%s, which %s %s (%s): code there runs later, unattended", c.call(), mcpOpVerb(p.op), e.What, p.show()), true
				}
				return "", false
			}},
		{ID: "mcp.fs-security-config-write", Kind: KindMCP, Level: Critical, Category: CatSecurityWeakening,
			Message: "Writes the configuration of a security control (firewall, SELinux/AppArmor, audit, trust store)",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					if what := c.pathClass(catalog.SecurityControl, p); what != "" && p.writes() {
						return fmt.Sprintf("%s, which changes %s (%s)", c.call(), what, p.show()), true
					}
				}
				return "", false
			}},
		{ID: "mcp.local-service", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			Message: "Talks to a local control API (Docker, Vault, Chrome DevTools, Kubernetes) that hands out credentials, root or code execution",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, u := range c.urls {
					if u.service != "" {
						return fmt.Sprintf("%s on %s, %s: not a harmless local server", c.call(), mcpCleanText(u.raw, 120), u.service), true
					}
				}
				return "", false
			}},
		{ID: "mcp.sql-delete", Kind: KindMCP, Level: Medium, Category: CatDataDeletion,
			Message: "Runs SQL that deletes selected rows of a shared database",
			mcp: func(c *mcpCtx) (string, bool) {
				if s, ok := c.sqlWorst(mcpSqlDelete); ok && !c.dbLocal {
					return fmt.Sprintf("%s, which runs SQL that %s (%s)", c.call(), s.what, s.text), true
				}
				return "", false
			}},
		{ID: "mcp.sql-write", Kind: KindMCP, Level: Medium, Category: CatSystemModification,
			Message: "Runs SQL that modifies selected rows of a shared database",
			mcp: func(c *mcpCtx) (string, bool) {
				if s, ok := c.sqlWorst(mcpSqlWrite, mcpSqlUnknown); ok && !c.dbLocal {
					return fmt.Sprintf("%s, which runs SQL that %s (%s)", c.call(), s.what, s.text), true
				}
				return "", false
			}},
		{ID: "mcp.sql-delete-local", Kind: KindMCP, Level: Medium, Category: CatDataDeletion, Contained: true,
			Message: "Runs SQL that deletes rows of a local database file inside the workspace",
			mcp: func(c *mcpCtx) (string, bool) {
				if s, ok := c.sqlWorst(mcpSqlDelete); ok && c.dbLocal {
					return fmt.Sprintf("%s, which runs SQL that %s of a local database file in the workspace (%s)", c.call(), s.what, s.text), true
				}
				return "", false
			}},
		{ID: "mcp.sql-write-local", Kind: KindMCP, Level: Medium, Category: CatSystemModification, Contained: true,
			Message: "Runs SQL that modifies a local database file inside the workspace",
			mcp: func(c *mcpCtx) (string, bool) {
				if s, ok := c.sqlWorst(mcpSqlWrite, mcpSqlDDL, mcpSqlUnknown); ok && c.dbLocal {
					return fmt.Sprintf("%s, which runs SQL that %s on a local database file in the workspace (%s)", c.call(), s.what, s.text), true
				}
				return "", false
			}},
		{ID: "mcp.fs-write-outside", Kind: KindMCP, Level: Medium, Category: CatSystemModification,
			Message: "Writes files outside the workspace",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					if p.op == mcpOpWrite && (p.zone == ZoneHome || p.zone == ZoneUnknown || p.zone == ZoneVital) && c.specialPath(p) == "" {
						return fmt.Sprintf("%s, which writes %s, %s", c.call(), p.show(), p.zone), true
					}
				}
				return "", false
			}},
		{ID: "mcp.browser-upload", Kind: KindMCP, Level: Medium, Category: CatDataExfiltration,
			Message: "Uploads a local file through the browser",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.browser && mcpAnyWord(c.toolWords, mcpWordSet("upload")) && len(c.paths) > 0 {
					return fmt.Sprintf("%s, which uploads %s to the page open in the browser", c.call(), c.paths[0].show()), true
				}
				return "", false
			}},
		{ID: "mcp.browser-script-network", Kind: KindMCP, Level: Medium, Category: CatNetworkEgress,
			Message: "Runs a script in the browser page that makes network requests",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, a := range c.args {
					if a.str && mcpScriptKeys.has(a.nkey) && mcpReNetCall().MatchString(mcpClip(a.val, 64<<10)) {
						return fmt.Sprintf("%s, whose script makes network requests from the logged-in page", c.call()), true
					}
				}
				return "", false
			}},
		{ID: "mcp.git-push", Kind: KindMCP, Level: Medium, Category: CatNetworkEgress,
			Message: "Pushes local commits to a remote",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.gitLocal && mcpContains(c.actWords, "push") {
					return fmt.Sprintf("%s, which pushes commits to a remote, visible to others", c.call()), true
				}
				return "", false
			}},
		{ID: "mcp.git-discard", Kind: KindMCP, Level: Medium, Category: CatDestructiveVCS,
			Message: "Discards uncommitted work in a local repository",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.gitLocal {
					return "", false
				}
				hard := c.truthy("hard")
				for _, a := range c.args {
					if a.str && strings.EqualFold(strings.TrimLeft(a.val, "-"), "hard") {
						hard = true
					}
				}
				if mcpContains(c.actWords, "clean") && c.gitKeepsWork() == "" || mcpContains(c.actWords, "discard") || mcpContains(c.actWords, "reset") && hard ||
					mcpContains(c.actWords, "restore") && !mcpContains(c.actWords, "staged") {
					return fmt.Sprintf("%s, which discards uncommitted changes for good", c.call()), true
				}
				return "", false
			}},
		{ID: "mcp.git-branch-delete", Kind: KindMCP, Level: Medium, Category: CatDestructiveVCS, Contained: true,
			Message: "Deletes a local branch",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.gitLocal && c.act == mcpActDestroy && mcpAnyWord(c.actWords, mcpWordSet("branch branches")) {
					return fmt.Sprintf("%s, which deletes a local branch", c.call()), true
				}
				return "", false
			}},
		{ID: "mcp.message-send", Kind: KindMCP, Level: Medium, Category: CatNetworkEgress,
			Message: "Sends a message, email or comment on the user's behalf",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act != mcpActWrite || c.httpSend || c.browser || c.draft() || c.teamWork() != "" || c.routine != mcpRoutineNone {
					return "", false
				}
				if mcpAnyWord(c.actWords, mcpWordSet("send post reply comment email mail tweet notify message dm broadcast react forward share")) ||
					mcpAnyWord(c.serverWords, mcpMessagingWords.get()) {
					return fmt.Sprintf("%s, %s on the user's behalf, visible to others", c.call(), c.does("a message")), true
				}
				return "", false
			}},
		{ID: "mcp.write-verb", Kind: KindMCP, Level: Medium, Category: CatNetworkEgress,
			Message: "Changes data on a remote service on the user's behalf",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act != mcpActWrite || c.claimed() || c.local || c.teamWork() != "" {
					return "", false
				}
				return fmt.Sprintf("%s, %s on %s", c.call(), c.does("data"), mcpOrStr(c.server, "the service")) + c.fromDescription() + c.openWorldSuffix(), true
			}},
		{ID: "mcp.local-write-verb", Kind: KindMCP, Level: Medium, Category: CatSystemModification,
			Message: "Changes state on this machine through a local tool",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act != mcpActWrite || c.claimed() || !c.local {
					return "", false
				}
				return fmt.Sprintf("%s, %s on this machine", c.call(), c.does("state")), true
			}},
		{ID: "mcp.fs-write", Kind: KindMCP, Level: Medium, Category: CatNone, Contained: true,
			Message: "Writes files inside the workspace or a temporary directory",
			mcp: func(c *mcpCtx) (string, bool) {
				for _, p := range c.paths {
					if p.op == mcpOpWrite && (p.zone == ZoneWorkspace || p.zone == ZoneTemp || p.zone == ZoneDevNull) && c.specialPath(p) == "" ||
						p.op == mcpOpDelete && (p.zone == ZoneTemp || p.zone == ZoneDevNull) {
						return fmt.Sprintf("%s, which %s %s, %s", c.call(), mcpOpVerb(p.op), p.show(), p.zone), true
					}
				}
				return "", false
			}},

		// --- low ----------------------------------------------------------------------------
		{ID: "mcp.team-work", Kind: KindMCP, Level: Low, Category: CatNone,
			Message: "Files or updates the project's own work items, or posts to a team channel",
			mcp: func(c *mcpCtx) (string, bool) {
				if why := c.teamWork(); why != "" {
					return fmt.Sprintf("%s, which %s", c.call(), why), true
				}
				return "", false
			}},
		{ID: "mcp.shell-command", Kind: KindMCP, Level: Low, Category: CatNone,
			Message: "Runs a shell command; the command itself is judged by the exec analysis",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.shell == nil || c.code != "" {
					return "", false
				}
				return fmt.Sprintf("%s, which runs the shell command `%s`", c.call(), mcpCleanText(c.shellText, 120)), true
			}},
		{ID: "mcp.code-run", Kind: KindMCP, Level: Low, Category: CatNone,
			Message: "Runs Python or JavaScript code; the code itself is judged by the exec analysis",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.code == "" || c.shell == nil {
					return "", false
				}
				return fmt.Sprintf("%s, which runs the code `%s`", c.call(), mcpCleanText(c.code, 100)), true
			}},
		{ID: "mcp.git-local", Kind: KindMCP, Level: Low, Category: CatNone,
			Message: "Changes a local git repository (commit, branch, stage)",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.gitLocal || c.act != mcpActWrite || mcpContains(c.actWords, "push") || c.forced() {
					return "", false
				}
				return fmt.Sprintf("%s, %s in the local repository", c.call(), c.does("changes")), true
			}},
		{ID: "mcp.agent-memory", Kind: KindMCP, Level: Low, Category: CatNone,
			Message: "Updates the agent's own memory store",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.memory && c.act >= mcpActWrite {
					return fmt.Sprintf("%s, %s in the agent's own memory store", c.call(), c.does("entries")), true
				}
				return "", false
			}},
		{ID: "mcp.draft-create", Kind: KindMCP, Level: Low, Category: CatNone,
			Message: "Creates a private draft that nobody is notified about",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.draft() {
					return fmt.Sprintf("%s, which creates %s: additive and private", c.call(), c.object("a draft")), true
				}
				return "", false
			}},
		{ID: "mcp.browser-interaction", Kind: KindMCP, Level: Low, Category: CatNone,
			Message: "Interacts with the page open in the browser",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.browser || c.act < mcpActWrite || len(c.paths) > 0 {
					return "", false
				}
				return fmt.Sprintf("%s, which interacts with the page open in the browser", c.call()), true
			}},
		{ID: "mcp.url-fetch", Kind: KindMCP, Level: Low, Category: CatNetworkEgress,
			Message: "Fetches a URL",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act != mcpActRead || c.httpSend {
					return "", false
				}
				for _, u := range c.urls {
					if !u.local && u.service == "" && !catalog.Default().IsMetadata(u.host) {
						return fmt.Sprintf("%s, which fetches %s", c.call(), mcpCleanText(u.raw, 120)), true
					}
				}
				return "", false
			}},
		{ID: "mcp.local-url", Kind: KindMCP, Level: Low, Category: CatNone,
			Message: "Talks to a server on this machine",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act > mcpActRead && !c.browser && !c.httpSend && c.method == "" {
					return "", false
				}
				for _, u := range c.urls {
					if u.local && len(c.secrets) == 0 {
						return fmt.Sprintf("%s on %s, a server on this machine", c.call(), mcpCleanText(u.raw, 120)), true
					}
				}
				return "", false
			}},

		// --- baseline -----------------------------------------------------------------------
		{ID: "mcp.read", Kind: KindMCP, Level: Low, Category: CatReadOnly, Baseline: true,
			Message: "Reads data",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.act != mcpActRead {
					return "", false
				}
				return c.describeRead(), true
			}},
		{ID: "mcp.read-only-hint", Kind: KindMCP, Level: Low, Category: CatReadOnly, Baseline: true,
			Message: "Calls a tool its server declares read-only, and nothing in the call contradicts that",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.ro || c.destructive || c.act > mcpActRead || len(c.secrets) > 0 {
					return "", false
				}
				return fmt.Sprintf("%s, which its server declares read-only", c.call()), true
			}},
		{ID: "mcp.unknown-action", Kind: KindMCP, Level: Medium, Category: CatNone, Baseline: true,
			Message: "Calls a tool whose effect cannot be told from its name or arguments",
			mcp: func(c *mcpCtx) (string, bool) {
				return fmt.Sprintf("%s, whose effect cannot be told from its name or arguments", c.call()), true
			}},
	}
}

var (
	mcpScriptKeys    = wordSet{words: `function script code expression js javascript source body`}
	mcpReNetCall     = lazyRegexp(`\bfetch\s*\(|XMLHttpRequest|sendBeacon|new\s+WebSocket|new\s+EventSource|\$\.(?:ajax|post|get)\b|axios\b|new\s+Image\(\)\s*\.src|\.src\s*=|location(?:\.href)?\s*=|window\.open\s*\(`)
	mcpReSensitiveJS = lazyRegexp(`(?i)document\.cookie|localStorage|sessionStorage|indexedDB|chrome\.(?:storage|cookies)|browser\.(?:storage|cookies)|cookieStore|\btoken\b|password|secret|authorization|credential`)
	mcpReAbsURL      = lazyRegexp(`(?i)(?:https?|wss?)://([a-z0-9.\-\[\]:]+)`)
	mcpReEnvDump     = lazyRegexp(`(?:^|[\s;|&(])(?:env|printenv|set|export\s+-p|declare\s+-x)\s*(?:$|[;|&)])|/proc/[^\s]*/environ|\benv\s*$`)
)

// ---------------------------------------------------------------------------------------------
// Rule helpers.

// claimed reports that a domain rule judges the action, so the generic verb rules stay out.
func (c *mcpCtx) claimed() bool {
	switch {
	case c.shell != nil, len(c.sql) > 0, c.browser, c.memory, c.gitLocal, c.draft(), c.payment, c.routine != mcpRoutineNone:
		return true
	case c.httpSend && c.untrustedDest() != "":
		return true
	case c.infra || mcpAnyWord(c.actWords, mcpDeployVerbs.get()), c.allLocalDest() && len(c.secrets) == 0:
		return true
	case c.hardDestroy() && c.containerTarget() != "":
		return true
	}
	for _, p := range c.paths {
		if p.writes() {
			return true
		}
	}
	return false
}

// untrustedDest returns the first destination host that is neither local nor trusted.
func (c *mcpCtx) untrustedDest() string {
	for _, u := range c.urls {
		if !u.local && !u.trust {
			return u.host
		}
	}
	return ""
}

// allLocalDest reports destination URLs that all point at this machine.
func (c *mcpCtx) allLocalDest() bool {
	for _, u := range c.urls {
		if !u.local {
			return false
		}
	}
	return len(c.urls) > 0
}

// containerTarget names the container a destroy applies to ("repository", "Namespace"), if any.
func (c *mcpCtx) containerTarget() string {
	// The head noun decides: "delete_repository" deletes a repository, "delete_table_row" a row.
	if n := len(c.objWords); n > 0 && mcpContainerNouns.has(c.objWords[n-1]) {
		return c.objWords[n-1]
	}
	for _, k := range []string{"kind", "type", "resourcetype", "resource"} {
		if a, ok := c.top(k); ok {
			if w := mcpFirstWord(mcpSplitWords(a.val), mcpContainerNouns.get()); w != "" {
				return mcpCleanText(a.val, 30)
			}
		}
	}
	return ""
}

func (c *mcpCtx) prodSuffix() string {
	if c.prodHint != "" {
		return " in production (" + c.prodHint + ")"
	}
	return ""
}

func (c *mcpCtx) fromDescription() string {
	if c.descRaise {
		return " (per its description)"
	}
	return ""
}

func (c *mcpCtx) openWorldSuffix() string {
	if c.openWorld {
		return " (an open-world tool: it reaches outside services)"
	}
	return ""
}

// defaultBranch returns the default-like branch a write targets ("main"), or "".
func (c *mcpCtx) defaultBranch() string {
	for _, k := range []string{"branch", "ref", "branchname", "targetbranch"} {
		if a, ok := c.top(k); ok {
			b := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(a.val), "refs/"), "heads/")
			switch b {
			case "main", "master", "production", "prod", "trunk", "release":
				return b
			}
		}
	}
	return ""
}

func (c *mcpCtx) forced() bool {
	return (c.truthy("force") || mcpContains(c.actWords, "force")) &&
		mcpAnyWord(append(append([]string{}, c.actWords...), c.objWords...), mcpWordSet("push ref refs branch update"))
}

// localCluster returns the context a Kubernetes tool call names when it is a local
// development cluster (the exec analysis's localKubeContexts: kind-, minikube, docker-desktop,
// k3d-, …) and nothing in the call points at production; "" otherwise.
func (c *mcpCtx) localCluster() string {
	if !c.infra || c.prodHint != "" || len(c.secrets) > 0 {
		return ""
	}
	a, ok := c.top("context", "kubecontext", "cluster", "contextname")
	if !ok {
		return ""
	}
	for _, l := range localKubeContexts {
		if strings.HasPrefix(a.val, l) && !prodLike(a.val) {
			return a.val
		}
	}
	return ""
}

// draft reports a purely additive, private object: a draft, an insight, a scratch object —
// created (create_draft) or drafted (draft_email).
func (c *mcpCtx) draft() bool {
	return c.act == mcpActWrite && (mcpAnyWord(c.actWords, mcpWordSet("create add new save")) &&
		mcpAnyWord(c.objWords, mcpDraftNouns.get()) || len(c.toolWords) > 0 && c.toolWords[0] == "draft") &&
		!mcpAnyWord(c.actWords, mcpWordSet("send publish share post"))
}

// The project's own bookkeeping (docs/policy.md's allow row: "opening a PR or issue on the
// project's repo"; messages to the team are not external parties): work items on code
// hosts, issue and error trackers and team wikis, and posts to a team chat channel.
var (
	mcpTrackerServers = wordSet{words: `github gitlab bitbucket gitea forgejo linear jira atlassian sentry notion confluence
		asana clickup shortcut youtrack trello`}
	mcpTeamChatServers = wordSet{words: `slack mattermost`}
	// Work items an agent files or moves along as part of the work.
	mcpWorkItemNouns = wordSet{words: `issue issues pull pr prs mr request branch branches page pages ticket tickets task
		tasks story stories epic epics label labels milestone`}
	mcpWorkItemVerbs = wordSet{words: `create add new open update edit transition assign label move set`}
	// Objects that are not work items: settings and access (branch protection, members, keys,
	// webhooks, visibility), anything a comment or review says to people, whole containers.
	mcpNotWorkItemNouns = wordSet{words: `setting settings protection rule rules ruleset permission permissions member
		members collaborator collaborators team teams user users invite invitation access key keys secret secrets variable
		variables webhook webhooks hook hooks visibility repository repositories repo repos project projects
		workspace org organization release releases deployment deployments workflow workflows gist gists comment
		comments note notes review reviews reply message messages discussion`}
	// Channels shared with other companies (Slack Connect's "ext-" naming convention) or with
	// customers, partners, vendors or guests: messages there reach external parties.
	// "cust" is the usual abbreviation (C05CUST-GLOBEX, #cust-acme); "custom…" is not.
	mcpReExternalChannel = lazyRegexp(`(?i)(?:^|[^a-z])ext|partner|customer|(?:^|[^a-z])custs?(?:[^a-z]|$)|client|vendor|guest|shared`)
	mcpReBodyURLHost     = lazyRegexp(`(?i)\b(?:https?|wss?)://([a-z0-9.\-]+)`)
)

// teamWork says what a call does when it is the project's own bookkeeping, else "": filing or
// moving along an issue, a pull request, a branch or a wiki page on a code host or tracker
// (files pushed only to a named non-default branch, pull requests only from the same
// repository), or a post to a team channel. Never with a secret, a link to a host outside the
// service, a closing or archiving state, a forced write, or a channel shared with outsiders.
func (c *mcpCtx) teamWork() string {
	// A read-only hint on a tool that writes is a server misdescribing itself: not routine.
	tracker, chat := mcpAnyWord(c.serverWords, mcpTrackerServers.get()), mcpAnyWord(c.serverWords, mcpTeamChatServers.get())
	fileDelete := c.act == mcpActDestroy && c.actWord == "delete" && mcpAnyWord(c.toolWords, mcpWordSet("file files"))
	if !tracker && !chat || c.act != mcpActWrite && !fileDelete || c.local || c.httpSend || c.browser || c.ro || len(c.secrets) > 0 || c.forced() || c.prodHint != "" {
		return ""
	}
	for _, a := range c.args {
		if !a.str {
			continue
		}
		v := strings.ToLower(strings.TrimSpace(a.val))
		if a.depth <= 2 && (v == "closed" || v == "archived" || v == "deleted" || a.nkey == "archived" && v == "true") {
			return ""
		}
		for _, m := range mcpReBodyURLHost().FindAllStringSubmatch(a.val, 8) {
			if !mcpHostOfService(strings.ToLower(m[1]), c.serverWords) {
				return ""
			}
		}
	}
	switch {
	case tracker:
		// Another party's tracker or repository: a message to outside maintainers.
		if c.externalSite() != "" || c.forge() && c.repoOwnership() < 0 {
			return ""
		}
		if why := c.teamComment(); why != "" {
			return why
		}
		if c.knownAs(catalog.MCPToolWorkItem) {
			return c.known.What + " on " + mcpOrStr(c.server, "the tracker")
		}
		if mcpAnyWord(c.objWords, mcpNotWorkItemNouns.get()) || mcpAnyWord(c.toolWords, mcpNotWorkItemNouns.get()) {
			return ""
		}
		if mcpAnyWord(c.toolWords, mcpWordSet("file files contents")) && mcpAnyWord(c.toolWords, mcpWordSet("push create update delete")) {
			// Commits through the host's API: a feature branch only (the default branch is
			// mcp.default-branch-write's).
			a, ok := c.top("branch")
			if !ok || c.defaultBranch() != "" || isProtectedBranch(a.val) || strings.TrimSpace(a.val) == "" {
				return ""
			}
			if fileDelete {
				return "commits the removal of a file to the feature branch " + mcpCleanText(a.val, 60)
			}
			return "commits files to the feature branch " + mcpCleanText(a.val, 60)
		}
		if fileDelete {
			return ""
		}
		if !mcpWorkItemVerbs.has(c.actWord) || !mcpAnyWord(c.objWords, mcpWorkItemNouns.get()) && !mcpAnyWord(c.toolWords, mcpWorkItemNouns.get()) {
			return ""
		}
		if h, ok := c.top("head"); ok && strings.Contains(h.val, ":") {
			return "" // a pull request from a fork: someone else's repository
		}
		if mcpAnyWord(c.objWords, mcpWordSet("page pages")) && c.actWord != "create" && c.actWord != "add" && c.actWord != "new" {
			return ""
		}
		return mcpVerb3(c.actWord) + " " + c.object("a work item") + " on " + mcpOrStr(c.server, "the tracker")
	case chat:
		if fileDelete || !mcpAnyWord(c.actWords, mcpWordSet("post send reply message")) && !mcpAnyWord(c.actWords, mcpReactionWords.get()) {
			return ""
		}
		ch, ok := c.top("channel", "channelid", "channelname")
		if !ok || strings.TrimSpace(ch.val) == "" || mcpReExternalChannel().MatchString(ch.val) {
			return ""
		}
		for _, k := range []string{"user", "userid", "users", "email", "to", "recipient", "recipients"} {
			if _, dm := c.top(k); dm {
				return ""
			}
		}
		if mcpAnyWord(c.actWords, mcpReactionWords.get()) {
			return "reacts to a message in the team channel " + mcpCleanText(ch.val, 60)
		}
		return "posts to the team channel " + mcpCleanText(ch.val, 60)
	}
	return ""
}

// mcpHostOfService reports a host that belongs to the service the call goes to (github.com
// and its subdomains for a github server) or to one of the code hosts and trackers (a link
// to the pull request in a chat post), or loopback.
func mcpHostOfService(host string, serverWords []string) bool {
	if isLocalHost(host) {
		return true
	}
	of := func(w string) bool {
		return len(w) >= 4 && (strings.HasPrefix(host, w+".") || strings.Contains(host, "."+w+"."))
	}
	for _, w := range serverWords {
		if of(w) {
			return true
		}
	}
	for w := range mcpTrackerServers.get() {
		if of(w) {
			return true
		}
	}
	return false
}

func (c *mcpCtx) remoteExec() bool {
	return c.shell != nil && mcpAnyWord(append(append([]string{}, c.toolWords...), c.serverWords...),
		mcpWordSet("pod pods container containers ssh remote node nodes instance instances vm host exec")) &&
		(c.infra || mcpAnyWord(c.toolWords, mcpWordSet("pod pods container containers ssh remote instance instances vm")))
}

// browserTarget is the element a browser click / press acts on.
func (c *mcpCtx) browserTarget() string {
	if !c.browser || !mcpAnyWord(c.toolWords, mcpWordSet("click press tap select submit dblclick")) {
		return ""
	}
	for _, k := range []string{"element", "selector", "text", "label", "name", "target"} {
		if a, ok := c.top(k); ok {
			return a.val
		}
	}
	return ""
}

// passwordEntry finds a value typed into a password field ("element": "Password field",
// "text": …) that is not an obvious test fixture.
func (c *mcpCtx) passwordEntry() string {
	var check func(m map[string]any) string
	check = func(m map[string]any) string {
		label := ""
		for _, k := range []string{"element", "name", "label", "field", "selector", "placeholder", "type"} {
			for mk, v := range m {
				if s, ok := v.(string); ok && mcpNormKey(mk) == k && mcpReqPasswordLabel().MatchString(s) {
					label = s
				}
			}
		}
		if label != "" {
			for mk, v := range m {
				s, ok := v.(string)
				if !ok || !mcpWordSet("text value input content")[mcpNormKey(mk)] {
					continue
				}
				if len(s) >= 4 && !secIsPlaceholder(s) && !mcpReTestValue().MatchString(s) {
					return mcpCleanText(label, 40)
				}
			}
		}
		for _, v := range m {
			switch x := v.(type) {
			case map[string]any:
				if r := check(x); r != "" {
					return r
				}
			case []any:
				for _, e := range x {
					if em, ok := e.(map[string]any); ok {
						if r := check(em); r != "" {
							return r
						}
					}
				}
			}
		}
		return ""
	}
	if c.req.Arguments == nil {
		return ""
	}
	return check(c.req.Arguments)
}

var (
	mcpReqPasswordLabel = lazyRegexp(`(?i)pass(word|wd|phrase|code)?\b|\bpin\b|secret|api[ _-]?key|token`)
	mcpReTestValue      = lazyRegexp(`(?i)test|example|dummy|fake|sample|demo|fixture|changeme|placeholder|^password\d*$|^(secret|admin|pass)\d*$`)
)

// specialPath reports a path some more specific rule judges (credentials, startup files, …).
func (c *mcpCtx) specialPath(p *mcpPath) string {
	if w := c.pathClass(catalog.Credential, p); w != "" && p.zone != ZoneWorkspace && p.zone != ZoneTemp {
		return w
	}
	for _, cl := range []catalog.Class{catalog.Persistence, catalog.Privilege, catalog.AgentConfig, catalog.SecurityControl} {
		if w := c.pathClass(cl, p); w != "" {
			return w
		}
	}
	return ""
}

func mcpOpVerb(op mcpPathOp) string {
	switch op {
	case mcpOpRead:
		return "reads"
	case mcpOpWrite:
		return "writes"
	case mcpOpDelete:
		return "deletes"
	}
	return "uses"
}

// describeRead is the summary of a low-risk read.
func (c *mcpCtx) describeRead() string {
	switch {
	case len(c.sql) > 0:
		return fmt.Sprintf("%s, which runs a read-only query (%s)", c.call(), c.sql[0].text)
	case len(c.paths) > 0:
		return fmt.Sprintf("%s, which reads %s", c.call(), c.paths[0].show())
	case c.known != nil:
		return fmt.Sprintf("%s, which %s", c.call(), c.known.What)
	}
	return fmt.Sprintf("%s, %s", c.call(), c.does("data"))
}

// ---------------------------------------------------------------------------------------------
// The verdict.

func (a *Analyzer) mcpVerdict(ctx context.Context, req MCPRequest) Verdict {
	c := a.newMCPCtx(&req)
	c.execShell = func(script string) []Finding {
		return a.Exec(ctx, ExecRequest{Command: []string{"bash", "-c", script}, Cwd: c.scope.Cwd}).Assessment.Findings
	}
	c.execShellAt = func(script, cwd string) []Finding {
		return a.Exec(ctx, ExecRequest{Command: []string{"bash", "-c", script}, Cwd: cwd}).Assessment.Findings
	}
	var findings []Finding
	add := func(r *Rule, msg string) {
		findings = append(findings, Finding{RuleID: r.ID, Segment: c.label, Level: r.Level, Category: r.Category,
			Message: mcpOrStr(msg, r.Message), Contained: r.Contained, Certain: c.certainty.of(r.Certain)})
		c.certainty = certaintyDefault
	}
	// Shell commands are judged by the exec analysis; its findings come first so that, at equal
	// decision and level, the command's own assessment is the one reported.
	var execTop *Finding
	if c.shell != nil {
		ev := a.Exec(ctx, ExecRequest{Command: c.shell, Cwd: c.scope.Cwd, Justification: mcpStatedReason(c.req.Message)})
		for _, f := range ev.Assessment.Findings {
			f.Segment, f.Message = RedactSecrets(f.Segment), RedactSecrets(f.Message)
			findings = append(findings, f)
		}
		if len(ev.Assessment.Findings) > 0 {
			execTop = &Finding{Message: RedactSecrets(ev.Assessment.Summary), Level: ev.Assessment.Level, Decision: ev.Decision}
		}
	}
	findings = append(findings, a.mcpInjections(ctx, c)...)
	var baselines []*Rule
	for _, r := range a.rules() {
		if r.Kind != KindMCP || r.mcp == nil {
			continue
		}
		if r.Baseline {
			baselines = append(baselines, r)
			continue
		}
		c.certainty = certaintyDefault
		if msg, ok := r.mcp(c); ok {
			add(r, msg)
		}
	}

	hasRisk := len(findings) > 0
	if !hasRisk {
		for _, r := range baselines {
			c.certainty = certaintyDefault
			if msg, ok := r.mcp(c); ok {
				add(r, msg)
				break
			}
		}
	}

	// A read-only claim that the call contradicts is noted.
	contradiction := ""
	if c.ro {
		switch {
		case c.act >= mcpActWrite:
			contradiction = fmt.Sprintf("the call %ss (%s)", c.act, mcpOrStr(c.actWord, c.actFrom))
		case c.destructive:
			contradiction = "the tool is also marked destructive"
		case len(c.secrets) > 0:
			contradiction = "its arguments carry a credential"
		}
	}

	allowedBy := ""
	if len(c.scope.Protected) > 0 || len(a.policy.Rules) > 0 {
		subjects := []string{strings.ToLower(c.req.Server + "/" + c.req.Tool)}
		if c.verb != "" {
			subjects = append(subjects, strings.ToLower(c.req.Server+"/"+c.req.Tool+":"+c.verb))
		}
		findings, allowedBy = a.applyPolicy(&policyUnit{kind: KindMCP, label: c.label, scope: c.scope, subjects: subjects, mcp: c}, findings)
	}

	// For a low-risk call the summary is the most specific low finding's description.
	describe := ""
	for _, f := range findings {
		if f.Level == Low && strings.HasPrefix(f.RuleID, "mcp.") {
			describe = f.Message
			break
		}
	}
	v := a.finish(KindMCP, findings, describe)
	if execTop != nil && len(v.Assessment.Findings) > 0 {
		top := v.Assessment.Findings[0]
		for _, f := range v.Assessment.Findings {
			if f.Decision > top.Decision || f.Decision == top.Decision && f.Level > top.Level {
				top = f
			}
		}
		if !strings.HasPrefix(top.RuleID, "mcp.") && !a.isUserRule(top.RuleID) {
			v.Assessment.Summary = sentence(fmt.Sprintf("%s to run `%s`: %s", c.call(), mcpCleanText(c.shellText, 80),
				strings.TrimSuffix(execTop.Message, ".")))
		} else {
			v.Assessment.Summary = sentence(top.Message) // without finish's "(and N other commands)"
		}
	}
	if contradiction != "" && v.Assessment.Level >= Medium {
		v.Assessment.Rationale += " The server's readOnlyHint was not trusted: " + contradiction + "."
	}
	if allowedBy != "" && v.Decision == Allow {
		v.DecidedBy = "rule:" + allowedBy
	}
	return v
}

// mcpFreeTextKeys hold prose or code meant as data (an issue body, a SQL query): shell
// metacharacters there are normal and not an injection.
var mcpFreeTextKeys = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"body": true, "text": true, "content": true, "message": true, "description": true, "title": true,
		"comment": true, "markdown": true, "notes": true, "note": true, "summary": true, "query": true, "sql": true, "code": true,
		"script": true, "prompt": true, "html": true, "css": true, "reason": true, "subject": true, "patch": true, "diff": true,
		"newstring": true, "oldstring": true, "newtext": true, "oldtext": true, "source": true, "template": true, "value": false}
}}

// mcpInjections looks for shell injection in argument values: a server that interpolates
// "health; curl … | sh" into a command line runs the tail. Values outside free-text fields
// that contain shell control operators are analysed as shell, and their high-risk findings
// count, worded as what happens if the server passes the value to a shell.
func (a *Analyzer) mcpInjections(ctx context.Context, c *mcpCtx) []Finding {
	var out []Finding
	for _, arg := range c.args {
		if !arg.str || mcpFreeTextKeys.get()[arg.nkey] || len(arg.val) > mcpMaxScan || !strings.ContainsAny(arg.val, ";|&`$") {
			continue
		}
		if !(strings.Contains(arg.val, ";") || strings.Contains(arg.val, "|") || strings.Contains(arg.val, "&&") || strings.Contains(arg.val, "$(") || strings.Contains(arg.val, "`")) {
			continue
		}
		if c.shell != nil && strings.Contains(strings.Join(c.shell, " "), arg.val) {
			continue // already judged as the tool's command
		}
		seen := map[string]bool{}
		for _, f := range a.injectedFindings(ctx, c, arg.val) {
			if f.Level < High || strings.HasPrefix(f.RuleID, "shell.unparsable") || strings.HasPrefix(f.RuleID, "shell.too-") || seen[f.RuleID] {
				continue
			}
			seen[f.RuleID] = true
			f.RuleID = "mcp.injection:" + f.RuleID
			f.Segment = RedactSecrets(f.Segment)
			f.Message = fmt.Sprintf("Argument %s looks like a shell injection; if the server passes it to a shell: %s", arg.path, RedactSecrets(f.Message))
			f.Decision = 0
			out = append(out, f)
		}
	}
	return out
}

// mostlyPrintable reports decoded bytes that read as text.
func mostlyPrintable(s string) bool {
	if s == "" {
		return false
	}
	bad := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f {
			bad++
		}
	}
	return bad*10 < len(s)
}

// looksLikeCredentialBlob reports decoded text whose field names are those of credentials
// ({"session":…,"aws":…}, "token=…"): even truncated or fake-looking values in such a blob,
// sent to an untrusted host, are an exfiltration attempt.
func looksLikeCredentialBlob(s string) bool {
	l := strings.ToLower(s)
	n := 0
	for _, k := range []string{"session", "token", "secret", "password", "passwd", "cookie", "aws", "akia", "apikey", "api_key", "private", "credential", "auth", "ssh-", "ghp_", "gh_"} {
		if strings.Contains(l, k) {
			n++
		}
	}
	return n >= 2
}
