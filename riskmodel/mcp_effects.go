package riskmodel

// Effects of MCP calls that no verb reveals: a "set config value" that widens the server's own
// sandbox, a file write whose content makes a program run (an editor settings file that
// preloads a library, a CI workflow that ships the repository's secrets), a file search that
// hunts for key material across the home directory, and a chat message that carries a list of
// customers to a shared or external channel. Each is judged by what the arguments do
// (docs/policy.md), not by one server's tool name.

import (
	"fmt"

	"github.com/guardianhq/guardian/riskmodel/catalog"
	"path"
	"strings"
)

// ---------------------------------------------------------------------------------------------
// 1. A server's own safety configuration.

// mcpConfigToolWords mark a tool that changes its server's settings.
var mcpConfigToolWords = wordSet{words: `config configuration configs setting settings preference preferences option options`}

// mcpConfigSetWords are the verbs of a settings change.
var mcpConfigSetWords = wordSet{words: `set update write change edit put modify patch save apply configure`}

// mcpConfigNameKeys hold the name of the setting a generic set_config call changes;
// mcpConfigValueKeys its new value.
var mcpConfigNameKeys = wordSet{words: `key name setting option configkey settingname field property path`}
var mcpConfigValueKeys = wordSet{words: `value values newvalue settingvalue data`}

// mcpSandboxControl classifies a setting name as a sandbox or permission control: "allow" for
// lists of what may be reached or run (allowedDirectories, allowlist, trustedFolders), "block"
// for lists of what may not (blockedCommands, deniedPaths), "switch" for a sandbox, approval or
// permission mode. "" for any other setting.
func mcpSandboxControl(name string) string {
	n := mcpNormKey(name)
	switch {
	case n == "":
		return ""
	case strings.HasPrefix(n, "allowed") || strings.HasPrefix(n, "allowlist") || strings.HasPrefix(n, "whitelist") ||
		strings.HasPrefix(n, "trusted") || strings.HasPrefix(n, "permitted") || strings.HasSuffix(n, "allowlist") ||
		strings.HasSuffix(n, "whitelist") || n == "allow" || strings.HasPrefix(n, "allowall") || n == "trust" || n == "trustall":
		return "allow"
	case strings.HasPrefix(n, "blocked") || strings.HasPrefix(n, "denied") || strings.HasPrefix(n, "deny") ||
		strings.HasPrefix(n, "blocklist") || strings.HasPrefix(n, "blacklist") || strings.HasPrefix(n, "forbidden") ||
		strings.HasPrefix(n, "disallowed") || strings.HasPrefix(n, "restricted") || strings.HasSuffix(n, "blocklist") ||
		strings.HasSuffix(n, "blacklist") || strings.HasSuffix(n, "denylist"):
		return "block"
	case strings.Contains(n, "sandbox") || strings.Contains(n, "approval") || strings.Contains(n, "permission") ||
		strings.HasPrefix(n, "requireconfirm") || strings.HasPrefix(n, "confirm") || n == "safemode" || n == "readonly":
		return "switch"
	}
	return ""
}

// mcpWideningValue says how a new value widens a sandbox control ("" if it does not): an
// allow list that now holds "/", the home directory or a wildcard; a block list emptied; a
// sandbox, approval or confirmation switched off.
func (c *mcpCtx) mcpWideningValue(control string, v any) string {
	switch control {
	case "allow":
		for _, s := range mcpStrings(v) {
			t := strings.TrimRight(strings.TrimSpace(s), "/")
			switch {
			case t == "" && strings.TrimSpace(s) == "/":
				return `"/", the whole filesystem`
			case t == "~" || t == "$HOME" || c.scope.Home != "" && t == strings.TrimRight(c.scope.Home, "/"):
				return fmt.Sprintf("%q, the whole home directory", s)
			case t == "*" || t == "**" || t == "/*" || t == "/**" || t == ".*" || strings.EqualFold(t, "all"):
				return fmt.Sprintf("%q, everything", s)
			}
		}
		if b, ok := v.(bool); ok && b {
			return "true"
		}
	case "block":
		switch x := v.(type) {
		case nil:
			return "nothing"
		case []any:
			if len(x) == 0 {
				return "an empty list: nothing is blocked any more"
			}
		case string:
			if t := strings.TrimSpace(x); t == "" || t == "[]" {
				return "an empty list: nothing is blocked any more"
			}
		case bool:
			if !x {
				return "false"
			}
		}
	case "switch":
		var s string
		switch x := v.(type) {
		case bool:
			s = fmt.Sprint(x)
		case string:
			s = strings.ToLower(strings.TrimSpace(x))
		default:
			return ""
		}
		if mcpWordSet(`false off none never disabled disable no 0 danger-full-access dangerfullaccess bypasspermissions bypass yolo unrestricted full-access`)[s] {
			return fmt.Sprintf("%q", s)
		}
	}
	return ""
}

// mcpStrings lists the strings of a JSON value (a string or an array of strings).
func mcpStrings(v any) []string {
	switch x := v.(type) {
	case string:
		// "[\"/\"]" or "/,/home": a list given as text.
		t := strings.Trim(strings.TrimSpace(x), "[]")
		var out []string
		for _, p := range strings.Split(t, ",") {
			out = append(out, strings.Trim(strings.TrimSpace(p), `"'`))
		}
		return out
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// selfSandboxWiden finds a settings call that widens the server's own sandbox.
func (c *mcpCtx) selfSandboxWiden() string {
	if c.req.Arguments == nil || !mcpAnyWord(c.toolWords, mcpConfigToolWords.get()) {
		return ""
	}
	if !mcpAnyWord(c.toolWords, mcpConfigSetWords.get()) && c.act < mcpActWrite {
		return ""
	}
	// set_config_value {key, value}: the setting is named by an argument.
	var name string
	var value any
	hasValue := false
	for k, v := range c.req.Arguments {
		nk := mcpNormKey(k)
		if s, ok := v.(string); ok && mcpConfigNameKeys.has(nk) && name == "" {
			name = s
		}
		if mcpConfigValueKeys.has(nk) {
			value, hasValue = v, true
		}
	}
	if name != "" && hasValue {
		if ctl := mcpSandboxControl(name); ctl != "" {
			if w := c.mcpWideningValue(ctl, value); w != "" {
				return fmt.Sprintf("%s, which sets its own %s to %s", c.call(), mcpCleanText(name, 40), w)
			}
		}
	}
	// update_settings {allowedDirectories: ["/"]}: the settings are the arguments.
	for k, v := range c.req.Arguments {
		if ctl := mcpSandboxControl(k); ctl != "" {
			if w := c.mcpWideningValue(ctl, v); w != "" {
				return fmt.Sprintf("%s, which sets its own %s to %s", c.call(), mcpCleanText(k, 40), w)
			}
		}
	}
	return ""
}

// ---------------------------------------------------------------------------------------------
// 2. Written content that makes a program run.

// mcpWrite is a file a call writes, with its new content (or a replacement text of an edit).
type mcpWrite struct {
	path    string
	content string
}

var mcpWritePathKeys = wordSet{words: `path filepath filename file targetfile`}
var mcpWriteContentKeys = wordSet{words: `content contents newtext newstring newstr text body filecontent data`}

// writes lists the (path, content) pairs of a write call: write_file {path, content},
// edit_file {path, edits:[{newText}]}, push_files {files:[{path, content}]}, and the GitLab
// shapes (file_path, content). A content whose map has no path of its own belongs to the
// nearest enclosing one.
func (c *mcpCtx) writes() []mcpWrite {
	if c.req.Arguments == nil || c.act < mcpActWrite && !mcpAnyWord(c.toolWords, mcpWordSet(`write edit push create update put save upload commit`)) {
		return nil
	}
	var out []mcpWrite
	var walk func(m map[string]any, p string, depth int)
	walk = func(m map[string]any, p string, depth int) {
		if depth > 4 || len(out) >= 32 {
			return
		}
		for k, v := range m {
			if s, ok := v.(string); ok && mcpWritePathKeys.has(mcpNormKey(k)) {
				p = s
			}
		}
		for k, v := range m {
			switch x := v.(type) {
			case string:
				if mcpWriteContentKeys.has(mcpNormKey(k)) && p != "" {
					out = append(out, mcpWrite{path: p, content: mcpClip(x, 64<<10)})
				}
			case map[string]any:
				walk(x, p, depth+1)
			case []any:
				for _, e := range x {
					if em, ok := e.(map[string]any); ok {
						walk(em, p, depth+1)
					}
				}
			}
		}
	}
	walk(c.req.Arguments, "", 0)
	return out
}

// mcpReLoaderEnv finds environment variables that load code into every process started with
// them: a shared library, a Node/Python/Perl/Ruby preload, a shell's startup file.
var mcpReLoaderEnv = lazyNeedRegexp(`\b(DYLD_INSERT_LIBRARIES|LD_PRELOAD|LD_AUDIT|BASH_ENV|PYTHONSTARTUP|PERL5OPT|PROMPT_COMMAND)\b|\bNODE_OPTIONS\b["']?\s*[:=]\s*["']?[^"'\n]*(--require|-r\s|--import|--loader|--experimental-loader)|\bRUBYOPT\b["']?\s*[:=]\s*["']?[^"'\n]*-r`,
	false, "DYLD_INSERT_LIBRARIES", "LD_PRELOAD", "LD_AUDIT", "BASH_ENV", "PYTHONSTARTUP", "PERL5OPT", "PROMPT_COMMAND", "NODE_OPTIONS", "RUBYOPT")

// mcpReEditorAgentApproval finds an editor setting that lets its coding agent act unasked:
// VS Code's chat.tools.*autoApprove family (global, terminal, edits, URLs) and the older
// chat.tools.autoApprove, Copilot's agent auto-approval, Cline's/Roo's auto-approve options.
// Only these keys make an editor settings file an agent's approval configuration; the rest of
// .vscode/ (tasks, launch, extensions, formatting) is ordinary project configuration.
var mcpReEditorAgentApproval = lazyLitRegexp(`(?i)["']?(chat\.tools(\.[a-z]+)*\.autoApprove|chat\.agent\.autoApprove|github\.copilot\.chat\.agent\.autoApprove|chat\.mcp\.autostart|cline\.autoApprov[a-z]*|roo-cline\.[a-zA-Z]*autoApprov[a-z]*|roo-cline\.alwaysAllow[a-zA-Z]*)["']?\s*:`)

// mcpReFolderOpenTask finds a VS Code task that runs as soon as the folder is opened.
var mcpReFolderOpenTask = lazyNeedRegexp(`(?i)["']?runOn["']?\s*:\s*["']folderOpen["']`, true, "runOn")

// mcpEditorStartupFile says whether a path is an editor's or a tool's project startup file:
// .vscode/*.json, a .code-workspace, .devcontainer, .idea, .envrc.
func mcpEditorStartupFile(p string) (string, bool) {
	p = strings.ReplaceAll(p, `\`, "/")
	base := path.Base(p)
	dir := path.Base(path.Dir(p))
	switch {
	case dir == ".vscode" && base == "tasks.json":
		return "the editor's task file", true
	case dir == ".vscode" || strings.HasSuffix(base, ".code-workspace"):
		return "the editor's settings", true
	case dir == ".devcontainer" || dir == ".idea" || strings.Contains(p, "/.idea/"):
		return "the editor's project configuration", true
	case base == ".envrc":
		return "a direnv file, loaded on entering the directory", true
	}
	return "", false
}

// startupContentWrite finds a write of an editor startup file whose content runs a program.
// sure is set when the content establishes the effect (a preloaded library, remote code).
func (c *mcpCtx) startupContentWrite() (msg string, sure bool) {
	for _, w := range c.writes() {
		what, ok := mcpEditorStartupFile(w.path)
		if !ok {
			continue
		}
		if m := mcpReLoaderEnv.FindString(w.content); m != "" {
			return fmt.Sprintf("%s, which writes %s (%s) with %s: every program started from it loads code it names", c.call(),
				what, mcpCleanText(w.path, 80), mcpCleanText(m, 40)), true
		}
		if mcpReFolderOpenTask.MatchString(w.content) {
			if m := mcpReRemoteCode.FindString(w.content); m != "" {
				return fmt.Sprintf("%s, which writes %s (%s) with a task that runs on opening the folder and fetches or runs remote code (%s)",
					c.call(), what, mcpCleanText(w.path, 80), mcpCleanText(m, 30)), true
			}
			return fmt.Sprintf("%s, which writes %s (%s) with a task that runs by itself whenever the folder is opened", c.call(),
				what, mcpCleanText(w.path, 80)), false
		}
	}
	return "", false
}

// mcpCIFile says whether a path is a CI pipeline definition that runs on push.
func mcpCIFile(p string) bool {
	p = strings.TrimPrefix(strings.ReplaceAll(p, `\`, "/"), "/")
	base := path.Base(p)
	switch {
	case strings.Contains("/"+p, "/.github/workflows/") && (strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml")):
		return true
	case base == ".gitlab-ci.yml" || base == "bitbucket-pipelines.yml" || base == ".drone.yml" ||
		strings.HasSuffix(p, ".circleci/config.yml"):
		return true
	}
	return false
}

var (
	mcpReGHSecretRef  = lazyRegexp(`\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)
	mcpReGHAllSecrets = lazyRegexp(`\$\{\{\s*(?i:toJSON)\(\s*secrets\s*\)\s*\}\}`)
	mcpReGHToken      = lazyRegexp(`\$\{\{\s*(github\.token|env\.[A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)
	mcpReGHExpr       = lazyRegexp(`\$\{\{[^}]*\}\}`)
	mcpReYAMLRun      = lazyRegexp(`^(\s*)(?:-\s+)?(?:run|script|before_script|after_script|command)\s*:\s*(.*)$`)
)

// mcpCIShell turns a workflow's expressions into shell: a named secret becomes a variable of
// that name (one the exec analysis treats as a secret), all secrets at once the environment,
// any other expression a plain word.
func mcpCIShell(s string) string {
	s = mcpReGHAllSecrets().ReplaceAllString(s, "$(env)")
	s = mcpReGHSecretRef().ReplaceAllStringFunc(s, func(m string) string {
		name := mcpReGHSecretRef().FindStringSubmatch(m)[1]
		if !isSecretVar(name) {
			name += "_SECRET"
		}
		return "${" + name + "}"
	})
	s = mcpReGHToken().ReplaceAllStringFunc(s, func(m string) string {
		if strings.Contains(m, "github.token") {
			return "${GITHUB_TOKEN}"
		}
		return "${" + strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(strings.Trim(m, "${}")), "env."), "}")) + "}"
	})
	return mcpReGHExpr().ReplaceAllString(s, "x")
}

// mcpCIRunBodies lists the shell bodies of a pipeline file's steps: `run:` (GitHub), `script:`
// (GitLab, Bitbucket), `command:` (CircleCI), inline or as a block or list below the key.
func mcpCIRunBodies(text string) []string {
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines) && len(out) < 64; i++ {
		m := mcpReYAMLRun().FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent, val := len(m[1]), strings.TrimSpace(m[2])
		if val != "" && val != "|" && val != ">" && !strings.HasPrefix(val, "|") && !strings.HasPrefix(val, ">") {
			out = append(out, mcpYAMLUnquote(val))
			continue
		}
		var body []string
		for j := i + 1; j < len(lines); j++ {
			l := lines[j]
			t := strings.TrimSpace(l)
			if t == "" {
				continue
			}
			if len(l)-len(strings.TrimLeft(l, " \t")) <= indent && !strings.HasPrefix(t, "- ") {
				break
			}
			if len(l)-len(strings.TrimLeft(l, " \t")) < indent {
				break
			}
			body = append(body, strings.TrimPrefix(t, "- "))
			i = j
		}
		if len(body) > 0 {
			out = append(out, strings.Join(body, "\n"))
		}
	}
	return out
}

// ciSecretExfil finds a pipeline file written with a step that sends the repository's secrets
// to an outside host, as the exec analysis judges the step's shell body.
func (c *mcpCtx) ciSecretExfil() string {
	if c.execShell == nil {
		return ""
	}
	for _, w := range c.writes() {
		if !mcpCIFile(w.path) {
			continue
		}
		// A CI job's secrets are its environment (GitLab, CircleCI) or ${{ secrets.X }}
		// (GitHub): every step body is judged, and only a sure exfiltration counts.
		for _, body := range mcpCIRunBodies(w.content) {
			for _, f := range c.execShell(mcpCIShell(body)) {
				if f.Category == CatDataExfiltration && f.Level >= Critical {
					return fmt.Sprintf("%s, which writes the pipeline %s whose step `%s` runs on push: %s", c.call(),
						mcpCleanText(w.path, 60), mcpCleanText(body, 60), strings.TrimSuffix(mcpCleanText(f.Message, 120), "."))
				}
			}
		}
	}
	return ""
}

// hookPhonesHome finds a git hook (or another file run later, unattended) written with a body
// that the exec analysis finds contacting the network or running fetched code: it runs on every
// checkout or commit and phones home. Dependency installs (pkg.*) in a post-merge hook are the
// routine exception.
func (c *mcpCtx) hookPhonesHome() string {
	if c.execShell == nil {
		return ""
	}
	for _, p := range c.paths {
		if p.op != mcpOpWrite {
			continue
		}
		e, ok := c.pathEntry(catalog.Persistence, p)
		if !ok {
			continue
		}
		body := c.writtenContent()
		if strings.TrimSpace(body) == "" {
			continue
		}
		for _, f := range c.execShell(body) {
			if strings.HasPrefix(f.RuleID, "pkg.") {
				continue
			}
			switch f.Category {
			case CatNetworkEgress, CatDataExfiltration, CatRemoteCodeExecution:
				return fmt.Sprintf("%s, which writes %s (%s) with code that runs unattended and contacts the network: %s", c.call(),
					e.What, p.show(), strings.TrimSuffix(mcpCleanText(f.Message, 100), "."))
			}
		}
	}
	return ""
}

// ---------------------------------------------------------------------------------------------
// 3. A search for key material outside the workspace.

var mcpSearchToolWords = wordSet{words: `search find glob locate grep list walk scan`}
var mcpPatternKeys = wordSet{words: `pattern patterns query glob globs name namepattern filepattern include includes regex filename search`}

// mcpKeyMaterialExts are file extensions of private keys, certificates and credential stores.
var mcpKeyMaterialExts = wordSet{words: `pem key p12 pfx jks keystore ppk kdbx asc gpg der p8 ovpn`}

// mcpKeyMaterialNames are file names of keys and credential stores.
var mcpKeyMaterialNames = wordSet{words: `.env credentials credentials.json .netrc .pgpass .git-credentials .npmrc .pypirc
	secrets secrets.json secrets.yaml secrets.yml .htpasswd shadow wallet.dat .dockercfg config.json`}

// mcpKeyPattern says which key material a search pattern names ("" if none).
func mcpKeyPattern(p string) string {
	for _, tok := range strings.FieldsFunc(p, func(r rune) bool { return strings.ContainsRune(",|{}() \t\n;", r) }) {
		t := strings.ToLower(strings.Trim(tok, `"'^$\`))
		t = strings.ReplaceAll(t, `\.`, ".")
		t = strings.ReplaceAll(t, ".*", "*")
		base := path.Base(t)
		b := strings.Trim(base, "*")
		switch {
		case strings.HasPrefix(b, "id_rsa") || strings.HasPrefix(b, "id_dsa") || strings.HasPrefix(b, "id_ecdsa") || strings.HasPrefix(b, "id_ed25519"):
			return "SSH private keys (" + tok + ")"
		case mcpKeyMaterialNames.has(b) && b != "config.json" || b == ".env" || strings.HasPrefix(b, ".env.") && b != ".env.example" && b != ".env.sample":
			return "credential files (" + tok + ")"
		}
		if strings.Contains(p, ".{") && mcpKeyMaterialExts.has(b) { // *.{pem,key}
			return "key files (" + p + ")"
		}
		if i := strings.LastIndexByte(b, '.'); i >= 0 && strings.HasPrefix(base, "*") && mcpKeyMaterialExts.has(b[i+1:]) {
			return "key files (" + tok + ")"
		}
	}
	return ""
}

// keyMaterialSearch finds a file search for keys or credential files across the home
// directory, the whole filesystem or another place outside the workspace.
func (c *mcpCtx) keyMaterialSearch() string {
	if !mcpAnyWord(c.toolWords, mcpSearchToolWords.get()) || c.act >= mcpActWrite {
		return ""
	}
	what := ""
	for _, a := range c.args {
		if a.str && a.depth <= 2 && mcpPatternKeys.has(a.nkey) {
			if w := mcpKeyPattern(mcpClip(a.val, 1024)); w != "" {
				what = w
				break
			}
		}
	}
	if what == "" {
		return ""
	}
	for _, p := range c.paths {
		if p.zone == ZoneWorkspace || p.zone == ZoneTemp || p.zone == ZoneDevNull {
			continue
		}
		where := c.scope.Pretty(p.abs)
		if p.abs == "" {
			where = p.raw
		}
		return fmt.Sprintf("%s, which searches %s (%s) for %s: a hunt for credentials", c.call(), mcpCleanText(where, 60), p.zone, what)
	}
	return ""
}

// ---------------------------------------------------------------------------------------------
// 4. Customer data posted to a channel that is not the team's own.

var mcpChannelKeys = wordSet{words: `channel channelid channelname channels conversation conversationid chatid room roomid
	thread to recipient recipients email emails webhook`}

// mcpExternalChannelWords mark a shared or external channel.
var mcpExternalChannelWords = wordSet{words: `ext external partner partners shared vendor vendors customer customers client
	clients guest guests public connect contractor contractors agency`}

var (
	mcpRePhone    = lazyRegexp(`(?:\+\d{1,3}[ .-]?)?\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b`)
	mcpRePIIExtra = lazyRegexp(`(?i)\b(card|cc|visa|mastercard|amex|iban|ssn|dob|date of birth|passport|account)\b[^\n]{0,12}\d{4}|[$€£]\s?\d[\d,]*(\.\d\d)?|\b\d{3}-\d{2}-\d{4}\b`)
)

// messagePII finds a message carrying several people's personal data to a destination that
// is not clearly the team's own; sure when the destination is explicitly external.
func (c *mcpCtx) messagePII() (string, bool) {
	if !c.sends || c.httpSend || c.browser || !mcpAnyWord(c.serverWords, mcpMessagingWords.get()) && !mcpAnyWord(c.toolWords, mcpMessagingWords.get()) {
		return "", false
	}
	people, extra := 0, false
	for _, a := range c.args {
		if !a.str || !mcpBodyKeys.has(a.nkey) && !mcpFreeTextKeys.get()[a.nkey] {
			continue
		}
		t := mcpClip(a.val, 64<<10)
		people += len(mcpEmailRe().FindAllString(t, 16)) + len(mcpRePhone().FindAllString(t, 16))
		extra = extra || mcpRePIIExtra().MatchString(t) || mcpPIIBulk(t)
	}
	if people < 3 && !(people >= 2 && extra) {
		return "", false
	}
	dest, external := "", false
	for _, a := range c.args {
		if !a.str || !mcpChannelKeys.has(a.nkey) || a.depth > 2 {
			continue
		}
		dest = a.val
		if mcpAnyWord(mcpSplitWords(a.val), mcpExternalChannelWords.get()) || mcpReExternalChannel().MatchString(a.val) {
			external = true
		}
		for _, m := range mcpEmailRe().FindAllStringSubmatch(mcpClip(a.val, 4096), 16) {
			if mcpWebmailDomains.has(strings.ToLower(m[1])) {
				external = true
			}
		}
	}
	if dest == "" {
		return "", false
	}
	if !external && (strings.HasPrefix(strings.TrimSpace(dest), "#") || c.teamWork() != "") {
		return "", false // a channel of the team's own workspace
	}
	where := "a channel that is not clearly the team's own"
	if external {
		where = "an external or shared destination"
	}
	return fmt.Sprintf("%s, which posts personal data of several customers (e-mail addresses, phone numbers, payment details) to %s (%s)",
		c.call(), where, mcpCleanText(dest, 40)), external
}

// ---------------------------------------------------------------------------------------------

func mcpEffectRules() []*Rule {
	return []*Rule{
		{ID: "mcp.self-sandbox-widen", Kind: KindMCP, Level: High, Category: CatSecurityWeakening,
			Message: "Changes its own server's sandbox or permission settings to allow more",
			mcp: func(c *mcpCtx) (string, bool) {
				if m := c.selfSandboxWiden(); m != "" {
					return m + ": the agent widens its own sandbox", true
				}
				return "", false
			}},
		{ID: "mcp.ci-secret-exfil", Kind: KindMCP, Level: Critical, Category: CatDataExfiltration,
			Message: "Writes a CI pipeline whose steps send the repository's secrets to another host",
			mcp: func(c *mcpCtx) (string, bool) {
				if m := c.ciSecretExfil(); m != "" {
					return m, true
				}
				return "", false
			}},
		{ID: "mcp.startup-content-write", Kind: KindMCP, Level: High, Category: CatPersistence,
			CertainWhen: "the content preloads a library or runs remote code",
			Message:     "Writes an editor startup file whose content runs a program by itself",
			mcp: func(c *mcpCtx) (string, bool) {
				m, sure := c.startupContentWrite()
				if m == "" {
					return "", false
				}
				if sure {
					c.certainty = certaintySure
				}
				return m, true
			}},
		{ID: "mcp.hook-phones-home", Kind: KindMCP, Level: High, Category: CatPersistence,
			Message: "Writes a git hook or startup file whose code contacts the network whenever it runs",
			mcp: func(c *mcpCtx) (string, bool) {
				if m := c.hookPhonesHome(); m != "" {
					return m, true
				}
				return "", false
			}},
		{ID: "mcp.key-material-search", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			Message: "Searches outside the workspace for private keys or credential files",
			mcp: func(c *mcpCtx) (string, bool) {
				if m := c.keyMaterialSearch(); m != "" {
					return m, true
				}
				return "", false
			}},
		{ID: "mcp.message-customer-data", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the channel or recipient is explicitly external",
			Message:     "Posts customers' personal data to a channel or recipient that is not the team's own",
			mcp: func(c *mcpCtx) (string, bool) {
				m, sure := c.messagePII()
				if m == "" {
					return "", false
				}
				if sure {
					c.certainty = certaintySure
				}
				return m, true
			}},
	}
}
