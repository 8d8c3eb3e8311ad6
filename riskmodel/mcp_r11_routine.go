package riskmodel

// Routine calls of MCP servers the rules do not know by name.
//
// An unfamiliar server's tool whose name carries a write verb ("execute_query",
// "create_branch", "run_project", "port_forward") is asked about by mcp.write-verb: the verb
// alone cannot say whether the call changes anything that matters. docs/policy.md's allow row
// names several such calls as routine, and each is recognised here from the vocabulary of the
// tool's name (data below, with the servers whose tool lists it was read from) and from what
// its arguments say, never from one server's name alone:
//
//   - a read query of a metrics, log or trace backend ("read-only inspection of local, staging
//     or cloud resources that reveals no secret values"): PromQL and its relatives change
//     nothing, and the query text is checked for the few constructs of these languages that do
//     write (Flux to(), Splunk | collect, KQL control commands, InfluxQL INTO/DROP, SQL DML);
//   - a branch of a serverless database created on a database-branching service: an isolated
//     copy-on-write copy for development that the parent never sees (a branch of main is the
//     normal case), removed with one call; a billed branch (the server asks to confirm a cost)
//     or a branch named as production is not routine;
//   - a game engine, 3D tool, IDE, simulator or notebook kernel on this machine running,
//     stopping, building, rendering or driving the project in the workspace: the same as
//     `godot --path .` or `npm test` in a shell; any path outside the workspace, code handed
//     over in the arguments or a remote target takes it out of this class;
//   - a development server started or stopped on loopback ("loopback-only servers");
//   - a port-forward that listens on loopback only ("loopback-only servers and health
//     checks"): it changes nothing on the cluster; a forward bound to 0.0.0.0 exposes the
//     service to the network (policy: tunnels that expose services), and a forward into a
//     namespace named as production is left to the human.
//
// Only the medium verb rules (mcp.write-verb, mcp.local-write-verb, mcp.message-send) and the
// infrastructure rule (mcp.production-change) step back for these calls; every deny-side rule
// still reads the same call, and secrets, code, shell commands or SQL in the arguments take a
// call out of these classes.

import (
	"fmt"
	"regexp"
	"strings"
)

// mcpRoutineKind is which routine class a call belongs to.
type mcpRoutineKind uint8

const (
	mcpRoutineNone mcpRoutineKind = iota
	mcpRoutineReadQuery
	mcpRoutineDevAction
)

var (
	// mcpR11QueryServers are metric, log and trace backends whose query languages read.
	// Sources: the tool lists of pab1it0/prometheus-mcp-server (execute_query,
	// execute_range_query), rhobs/obs-mcp's tool list (execute_instant_query,
	// execute_range_query), grafana/mcp-grafana (query_prometheus, query_loki_logs),
	// brenoepics/prometheus-mcp, the Datadog, New Relic, Honeycomb, Axiom, Elasticsearch,
	// OpenSearch, Splunk, InfluxDB, Azure Data Explorer (Kusto) and VictoriaMetrics MCP servers.
	mcpR11QueryServers = wordSet{words: `prometheus prom thanos mimir cortex victoriametrics victorialogs loki tempo grafana
		datadog newrelic honeycomb signoz elastic elasticsearch opensearch kibana splunk influxdb influx kusto adx axiom
		sumologic coralogix chronosphere jaeger zipkin pyroscope logfire promql logql traceql nrql kql spl metricsql`}
	// mcpR11RunVerbs are the verbs that run a query ("execute_query", "run-query").
	mcpR11RunVerbs = wordSet{words: `execute exec run perform evaluate eval`}
	// mcpR11QueryNouns name what a query tool runs.
	mcpR11QueryNouns = wordSet{words: `query queries search expression promql logql traceql nrql kql spl metricsql apl
		instant range`}
	// mcpR11QueryKeys are the arguments that hold the query text.
	mcpR11QueryKeys = wordSet{words: `query expr expression promql logql traceql q nrql kql spl apl statement search
		querystring`}
	// mcpR11QueryWriteWords are statement words that write in the query languages above (and
	// SQL, should SQL text reach here unparsed); they are looked for outside quoted strings.
	mcpR11QueryWriteWords = wordSet{words: `insert update delete drop create alter truncate merge upsert replace grant
		revoke attach detach copy export import load call set remove into kill reindex rename shutdown outputlookup
		outputcsv collect sendemail sendalert script runshellscript tscollect mcollect meventcollect`}
	// mcpR11QueryWrite matches write constructs that are not plain words: Flux's to(),
	// http.post() and sql.to(), KQL control commands (".drop table"), Elasticsearch's
	// by-query writes, and statement separators.
	mcpR11QueryWrite = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:^|[^\w.])(?:to|http\.post|sql\.to|experimental\.to)\s*\(|(?m:^\s*\.[a-z])|_delete_by_query|_update_by_query|_reindex|_bulk|;`)
	}}
	// mcpR11Quoted matches quoted strings of the query languages above: a label value
	// {method="DELETE"} is data, not a statement.
	mcpR11Quoted = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`")
	}}

	// mcpR11BranchDBServers are database services whose branches are isolated copies for
	// development. Sources: neondatabase/mcp-server-neon (create_branch, describe_branch,
	// delete_branch), planetscale/mcp (create_branch), supabase-community/supabase-mcp
	// (create_branch, list_branches), xata, TiDB Cloud Serverless branching, DoltHub.
	mcpR11BranchDBServers = wordSet{words: `neon neondb planetscale supabase xata tidb dolt dolthub`}
	mcpR11CreateVerbs     = wordSet{words: `create new add fork`}
	// mcpR11BranchNameKeys name the new branch; mcpR11BranchParentKeys its parent.
	mcpR11BranchNameKeys   = wordSet{words: `name branch branchname newbranch newbranchname`}
	mcpR11BranchParentKeys = wordSet{words: `parent parentid parentbranch parentbranchid from frombranch source sourcebranch
		base basebranch ref`}
	// mcpR11CostKeys are arguments by which a server asks to confirm a billed action
	// (supabase-mcp's confirm_cost_id).
	mcpR11CostKeys = wordSet{words: `confirmcostid confirmcost costid costconfirmation`}

	// mcpR11LocalEngineServers run the project on this machine: game engines, 3D tools, IDEs,
	// device simulators and notebook kernels. Sources: Coding-Solo/godot-mcp (launch_editor,
	// run_project, stop_project, get_debug_output), CoplayDev/unity-mcp (manage_editor play /
	// stop, run_tests), ahujasid/blender-mcp, chongdashu/unreal-mcp, cameroncooke/XcodeBuildMCP
	// (build_sim, launch_app_sim, test_sim), joshuayoes/ios-simulator-mcp (launch_app,
	// install_app, ui_tap, ui_type, screenshot), mobile-next/mobile-mcp, datalayer/jupyter-mcp-server
	// (execute_cell).
	mcpR11LocalEngineServers = wordSet{words: `godot unity unreal ue ue5 blender xcode xcodebuild simulator simctl emulator
		avd mobile jupyter notebook ipykernel`}
	// mcpR11EngineVerbs are what such a server does with the project.
	mcpR11EngineVerbs = wordSet{words: `run play launch start stop restart build test render open boot shutdown pause
		resume reload debug execute exec install tap swipe type press click input record`}
	// mcpR11EngineNouns are what it does it to.
	mcpR11EngineNouns = wordSet{words: `project scene game editor app application simulator sim emulator device playmode
		play tests test build cell cells notebook ui screen kernel level`}
	// mcpR11NotebookWords mark a notebook kernel: it runs code, so the notebook must be named
	// and be the project's.
	mcpR11NotebookWords = wordSet{words: `jupyter notebook ipykernel cell cells`}

	// mcpR11DevServerNouns name a development server ("start_dev_server", "stop-preview").
	mcpR11DevServerNouns = wordSet{words: `devserver preview storybook`}
	mcpR11ServerVerbs    = wordSet{words: `start stop restart run launch serve`}
	// mcpR11BindKeys say where a listener binds.
	mcpR11BindKeys = wordSet{words: `host hostname bind bindaddress address addresses listen listenaddress localaddress
		localhost ip interface`}
)

// routineClass returns the routine class of the call and what it does, or mcpRoutineNone.
// It is settled once per request (settleRoutine) so that the verb rules can step back.
func (c *mcpCtx) routineClass() (mcpRoutineKind, string) {
	if c.act != mcpActWrite && c.act != mcpActUnknown || c.umbrella || c.shell != nil || c.code != "" || len(c.secrets) > 0 ||
		c.payment || c.browser || c.httpSend || c.untrustedDest() != "" || c.destructive {
		return mcpRoutineNone, ""
	}
	for _, p := range c.paths {
		if p.zone != ZoneWorkspace && p.zone != ZoneTemp && p.zone != ZoneDevNull || c.specialPath(p) != "" {
			return mcpRoutineNone, "" // a path outside the project, or a startup or hook file
		}
	}
	if c.projectDir() == "-" {
		return mcpRoutineNone, ""
	}
	if c.act == mcpActUnknown {
		// A verb the table does not hold ("launch_app", "ui_tap"): only a local engine's.
		if what := c.localEngineRun(); what != "" {
			return mcpRoutineDevAction, what
		}
		return mcpRoutineNone, ""
	}
	if what := c.readQuery(); what != "" {
		return mcpRoutineReadQuery, what
	}
	for _, f := range []func() string{c.devDBBranch, c.loopbackPortForward, c.localEngineRun, c.loopbackDevServer} {
		if what := f(); what != "" {
			return mcpRoutineDevAction, what
		}
	}
	return mcpRoutineNone, ""
}

// settleRoutine records the call's routine class (see routineClass).
func (c *mcpCtx) settleRoutine() {
	c.routine, c.routineWhat = c.routineClass()
}

// projectDir returns the project directory a cwd-like argument names ("projectPath",
// "workdir") when it lies in the declared workspace, "-" when it lies anywhere else or no
// workspace is declared, "" when the call names none.
func (c *mcpCtx) projectDir() string {
	dir := ""
	declared := len(c.workspace) > 0 || len(c.policy.Workspaces) > 0
	for _, a := range c.args {
		if !a.str || a.depth > 2 || !mcpCwdKeys.has(a.nkey) || !strings.HasPrefix(a.val, "/") && !strings.HasPrefix(a.val, "~") {
			continue
		}
		abs, ok := c.scope.Resolve(a.val)
		if !declared || !ok || c.scope.Zone(abs) != ZoneWorkspace {
			// Without a declared workspace the argument would define it: a directory the call
			// names is not thereby the user's project.
			return "-"
		}
		if dir == "" {
			dir = abs
		}
	}
	return dir
}

// allWords is the server's words and the action's.
func (c *mcpCtx) allWords() []string {
	return append(append([]string{}, c.serverWords...), c.actWords...)
}

// readQuery describes a read query run on a metrics, log or trace backend, or "".
func (c *mcpCtx) readQuery() string {
	if len(c.sql) > 0 || len(c.sqlArgKeys) > 0 || c.prodHint != "" && c.infra ||
		!mcpAnyWord(c.allWords(), mcpR11QueryServers.get()) ||
		!mcpAnyWord(c.actWords, mcpR11RunVerbs.get()) || !mcpAnyWord(c.actWords, mcpR11QueryNouns.get()) {
		return ""
	}
	// The run verb must be the only write in the name ("execute_query", not
	// "execute_query_and_create_alert").
	for _, w := range c.actWords {
		if v, ok := mcpVerbTable.get()[w]; ok && v.class >= mcpActWrite && !mcpR11RunVerbs.has(w) && !v.ambiguous {
			return ""
		}
	}
	query := ""
	for _, a := range c.args {
		if !a.str || a.depth != 1 || !mcpR11QueryKeys.has(a.nkey) {
			continue
		}
		if query != "" || !mcpReadOnlyQueryText(a.val) {
			return ""
		}
		query = a.val
	}
	if query == "" {
		return ""
	}
	return fmt.Sprintf("runs the read query `%s` on %s", mcpCleanText(query, 100), mcpOrStr(c.server, "the backend"))
}

// mcpReadOnlyQueryText reports a query of a metrics, log or trace language that writes
// nothing: no write construct outside its quoted strings.
func mcpReadOnlyQueryText(q string) bool {
	q = strings.TrimSpace(q)
	if q == "" || len(q) > 8<<10 {
		return false
	}
	bare := mcpR11Quoted.get().ReplaceAllString(q, `""`)
	if mcpR11QueryWrite.get().MatchString(bare) {
		return false
	}
	for _, w := range mcpSplitWordsPlain(bare) {
		if mcpR11QueryWriteWords.has(w) {
			return false
		}
	}
	return true
}

// mcpSplitWordsPlain splits text into lower-case words on anything but letters, digits and
// underscores: "label_replace(...)" stays one word, so a function is not taken for a statement.
func mcpSplitWordsPlain(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_')
	})
}

// devDBBranch describes a development branch created on a database-branching service, or "".
func (c *mcpCtx) devDBBranch() string {
	if !mcpAnyWord(c.serverWords, mcpR11BranchDBServers.get()) || !mcpAnyWord(c.actWords, mcpR11CreateVerbs.get()) ||
		!mcpAnyWord(c.actWords, mcpWordSet("branch")) || len(c.sql) > 0 {
		return ""
	}
	for _, w := range c.actWords {
		if v, ok := mcpVerbTable.get()[w]; ok && v.class >= mcpActWrite && !mcpR11CreateVerbs.has(w) {
			return "" // "create_branch_and_merge", "reset_branch", "promote_branch"
		}
	}
	name := ""
	for _, a := range c.args {
		switch {
		case mcpR11CostKeys.has(a.nkey):
			return "" // a billed branch: the server itself asks for a confirmation
		case !a.str || a.depth != 1:
		case mcpR11BranchNameKeys.has(a.nkey):
			if prodLike(a.val) {
				return "" // a branch named as production
			}
			name = a.val
		}
	}
	if c.prodHint != "" {
		// A production name under a parent key is the normal case (a branch of main or of
		// production is a copy); anywhere else it is left to the human.
		key, _, _ := strings.Cut(c.prodHint, "=")
		if !mcpR11BranchParentKeys.has(mcpNormKey(key)) {
			return ""
		}
	}
	return fmt.Sprintf("creates the development database branch %q, an isolated copy the parent never sees", mcpCleanText(name, 60))
}

// loopbackPortForward describes a port-forward that listens on loopback only, or "".
func (c *mcpCtx) loopbackPortForward() string {
	joined := strings.Join(c.actWords, "")
	if !strings.Contains(joined, "portforward") && !strings.Contains(joined, "forwardport") || c.prodHint != "" {
		return ""
	}
	if !c.loopbackBinds() {
		return ""
	}
	return "forwards a port of the cluster to this machine's loopback interface only"
}

// loopbackBinds reports that every bind-address argument of the call names loopback (none
// is the tools' default: kubectl port-forward and dev servers listen on localhost).
func (c *mcpCtx) loopbackBinds() bool {
	for _, a := range c.args {
		if !mcpR11BindKeys.has(a.nkey) || a.depth > 2 {
			continue
		}
		for _, v := range strings.Split(a.val, ",") {
			if v = strings.Trim(strings.TrimSpace(v), "[]"); v != "" && v != "localhost" && v != "::1" && !strings.HasPrefix(v, "127.") {
				return false
			}
		}
	}
	return true
}

// localEngineRun describes a game engine, 3D tool, IDE, simulator or notebook kernel running
// or driving the project on this machine, or "".
func (c *mcpCtx) localEngineRun() string {
	if !mcpAnyWord(c.serverWords, mcpR11LocalEngineServers.get()) || c.prodHint != "" || c.infra || len(c.sql) > 0 ||
		!mcpAnyWord(c.actWords, mcpR11EngineVerbs.get()) || !mcpAnyWord(c.actWords, mcpR11EngineNouns.get()) {
		return ""
	}
	for _, a := range c.args {
		if a.str && (mcpScriptKeys.has(a.nkey) || a.nkey == "command" || a.nkey == "cmd" || a.nkey == "args" || a.nkey == "argv") {
			return "" // code or a command line handed to the engine: judged elsewhere or asked
		}
	}
	if !c.loopbackBinds() {
		return ""
	}
	project := c.projectDir()
	for _, p := range c.paths {
		if project != "" {
			break
		}
		if p.zone == ZoneWorkspace {
			project = p.show()
			break
		}
	}
	if mcpAnyWord(c.allWords(), mcpR11NotebookWords.get()) && project == "" {
		return "" // a kernel runs code: only the project's own notebook is routine
	}
	verb := mcpFirstWord(c.actWords, mcpR11EngineVerbs.get())
	if project != "" {
		return fmt.Sprintf("works on the project %s in %s on this machine (%s)", project, mcpOrStr(c.server, "a local tool"), verb)
	}
	return fmt.Sprintf("works on the project open in %s on this machine (%s)", mcpOrStr(c.server, "a local tool"), verb)
}

// loopbackDevServer describes a development server started or stopped on loopback, or "".
func (c *mcpCtx) loopbackDevServer() string {
	joined := strings.Join(c.actWords, "")
	dev := strings.Contains(joined, "devserver") || mcpAnyWord(c.actWords, mcpR11DevServerNouns.get())
	if !dev || !mcpAnyWord(c.actWords, mcpR11ServerVerbs.get()) || c.prodHint != "" || c.infra || !c.loopbackBinds() {
		return ""
	}
	for _, a := range c.args {
		if a.str && (mcpScriptKeys.has(a.nkey) || a.nkey == "command" || a.nkey == "cmd") {
			return ""
		}
	}
	return "starts or stops the project's development server on this machine's loopback"
}

// mcpR11RoutineRules are the rules of the routine classes above.
func mcpR11RoutineRules() []*Rule {
	return []*Rule{
		{ID: "mcp.read-query", Kind: KindMCP, Level: Low, Category: CatReadOnly,
			Message: "Runs a read query on a metrics, log or trace backend",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.routine != mcpRoutineReadQuery {
					return "", false
				}
				return fmt.Sprintf("%s, which %s", c.call(), c.routineWhat), true
			}},
		{ID: "mcp.dev-routine", Kind: KindMCP, Level: Low, Category: CatNone,
			Message: "Runs the project locally, forwards a port to loopback or branches a development database",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.routine != mcpRoutineDevAction {
					return "", false
				}
				return fmt.Sprintf("%s, which %s", c.call(), c.routineWhat), true
			}},
	}
}
