package guardian

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/guardianhq/guardian/prompts"
	"github.com/guardianhq/guardian/riskmodel"
)

// ProjectConfigFile is the name of a project's own policy file. WithProject looks for it from
// the agent's working directory up to the repository root, so a repository can carry the
// restrictions that suit it (protected data, commands that must always be asked about).
const ProjectConfigFile = ".guardian.toml"

// Config is the loaded policy configuration: the user config, optionally merged with one
// project file. It is a plain value: WithProject returns a new Config and never changes its
// receiver, so one user Config can be shared by concurrent requests from different projects.
type Config struct {
	// Policy is what the rule reviewer enforces (workspaces, protected paths, user rules,
	// mappings). "~" in its paths stays as written; riskmodel expands it per request, because
	// the agent's home may differ from the home of the user running guardian.
	Policy riskmodel.Policy
	// Fallback says what a failed model review turns into: ask the human, or deny when no
	// human is watching (headless).
	Fallback FallbackMode
	// TrustedProjects are directory globs ("~/src/*", "/work/**") whose project files may
	// loosen the policy. Only the user config can set them: a repository must not be able to
	// vouch for itself.
	TrustedProjects []string
	// Model is the OpenAI-compatible endpoint of the second-stage (model) review, from the
	// [model] table; nil when the file has none. The CLI layers the environment over it with
	// ModelFromEnv and converts the result to the model client's config; with neither a
	// [model] table nor GUARDIAN_MODEL* variables guardian runs on rules only.
	Model *ModelConfig
	// Review tunes the second-stage review ([review]): deadline, allow ceiling, what an
	// unsupported model deny becomes, the decision cache and the circuit breakers.
	// PipelineOptions turns it into pipeline options.
	Review ReviewConfig
	// Prompt is the operator's policy text for the model ([prompt]) and how it combines with
	// the built-in prompt policy.
	Prompt PromptConfig
	// Audit is where and how decisions are recorded ([audit]); only the user config sets it.
	Audit AuditConfig
	// Agents is which of a host's agents guardian may approve automatically ([agents]);
	// PipelineOptions passes it to the pipeline's Decide.
	Agents AgentPolicy
	// MCP lists the upstream servers of guardian mcp-proxy ([[mcp.upstream]]); only the user
	// config sets it.
	MCP MCPConfig
	// Store is where guardian serve keeps the state its replicas share ([store]); only the
	// user config sets it.
	Store StoreConfig
	// Notify lists the webhooks guardian serve posts events to ([[notify.webhook]]); only the
	// user config sets it.
	Notify NotifyConfig
	// Sources lists the files this Config was read from, user config first, so that "which
	// file said that?" has an answer in logs and in `guardian` diagnostics.
	Sources []string
}

// DefaultConfig is the configuration used when there is no config file: the zero
// riskmodel.Policy (the cwd is the workspace, home is inferred, default mappings, no user
// rules) and fallback ask, which keeps a human in the loop whenever the reviewer fails.
func DefaultConfig() Config {
	return Config{Fallback: FallbackAsk, Review: DefaultReviewConfig(), Audit: DefaultAuditConfig()}
}

// DefaultConfigPath is where the user config is looked for when no --config is given:
// $GUARDIAN_CONFIG if set, else $XDG_CONFIG_HOME/guardian/config.toml (XDG_CONFIG_HOME must be
// absolute, as the XDG spec requires), else ~/.config/guardian/config.toml — the same path on
// Linux and macOS, so that dotfiles can be shared. It returns "" when no home directory is
// known. The environment is read through getenv (os.Getenv in production), so that a caller
// — a test above all — decides which user's config is meant.
func DefaultConfigPath(getenv func(string) string) string {
	if p := getenv("GUARDIAN_CONFIG"); p != "" {
		return p
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "guardian", "config.toml")
	}
	home := getenv("HOME")
	if home == "" || !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, ".config", "guardian", "config.toml")
}

// LoadUserConfig loads the user config. An explicit path (from --config) must exist, and so
// must a file named by $GUARDIAN_CONFIG, because a typo there would otherwise silently drop
// the user's restrictions. The implicit default path may be missing: then the result is
// DefaultConfig(). getenv reads the environment, as for DefaultConfigPath.
func LoadUserConfig(explicit string, getenv func(string) string) (Config, error) {
	if explicit != "" {
		return LoadConfig(explicit)
	}
	if p := getenv("GUARDIAN_CONFIG"); p != "" {
		return LoadConfig(p)
	}
	p := DefaultConfigPath(getenv)
	if p == "" {
		return DefaultConfig(), nil
	}
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		return DefaultConfig(), nil
	}
	return LoadConfig(p)
}

// LoadConfig reads one user config file. Decoding is strict: an unknown key, a wrong type or a
// bad value is an error, never ignored, because a misspelt restriction that is silently
// dropped is worse than no config at all. The error is a *ConfigError naming the file, line,
// column and key of every problem found and how to fix it; a missing file is an error wrapping
// fs.ErrNotExist.
func LoadConfig(file string) (Config, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return Config{}, fmt.Errorf("cannot read guardian config: %w", err)
	}
	return ParseConfig(file, data)
}

// ParseConfig reads a user config from data, with the checks of LoadConfig; name (a path or
// a URL) is where problems are reported. A config a team serves over HTTPS is read with it.
func ParseConfig(name string, data []byte) (Config, error) {
	file := name
	pf, err := parseConfigFile(file, data, roleUser)
	if err != nil {
		return Config{}, err
	}
	c := DefaultConfig()
	c.Sources = []string{file}
	c.Policy = pf.policy
	if pf.fallback != "" {
		c.Fallback = pf.fallback
	}
	c.TrustedProjects = pf.trustedProjects
	c.Model = pf.model
	pf.review.apply(&c.Review)
	c.Prompt = pf.prompt
	pf.audit.apply(&c.Audit)
	pf.agents.apply(&c.Agents)
	c.MCP = pf.mcp
	c.Store = pf.store
	c.Notify = pf.notify
	return c, nil
}

// WithProject merges the project file that governs dir: the first ProjectConfigFile found
// walking up from dir, stopping at the first directory that contains .git (the repository
// root) or at "/". Without one it returns c unchanged.
//
// A project file is written by whoever controls the repository, which may be the agent
// itself, so unless the user's trusted_projects covers the project file's directory it may
// only add restrictions: ask/deny rules, protected_paths, stricter mappings and fallback =
// "headless". Anything that loosens the policy is a *ConfigError naming the file, line and key
// and saying which user config to add the project to. A trusted project file may set anything
// but trusted_projects; its lists are appended and its scalars and mapping entries override.
//
// On error the returned Config is the zero value: falling back to c would silently drop the
// project's restrictions, so a caller must treat the error as a failed review (ask or deny),
// never as "no project file".
func (c Config) WithProject(dir string) (Config, error) {
	file, err := findProjectFile(dir)
	if err != nil {
		return Config{}, err
	}
	if file == "" {
		return c, nil
	}
	for _, s := range c.Sources {
		if sameFile(s, file) {
			return c, nil
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return Config{}, fmt.Errorf("cannot read project config: %w", err)
	}
	pf, err := parseConfigFile(file, data, roleProject)
	if err != nil {
		return Config{}, err
	}
	return c.merge(pf, c.trusts(filepath.Dir(file)))
}

// ConfigProblem is one thing wrong in a config file, located as precisely as the file allows.
type ConfigProblem struct {
	File string
	// Line and Column are 1-based; 0 means unknown.
	Line, Column int
	// Key is the dotted key ("rule.decision", "mapping.exec.high"), empty for syntax errors
	// outside any key.
	Key string
	// Message says what is wrong and how to fix it; it already names the key.
	Message string
	// at is the index path of the key ("rule[1].decision"), when the check knew it.
	at string
}

// String formats the problem the way compilers do (file:line:col: message), so editors and
// terminals can jump to it.
func (p ConfigProblem) String() string {
	switch {
	case p.Line > 0 && p.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Message)
	case p.Line > 0:
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Message)
}

// ConfigError is every problem found in one config file, in file order. Reporting them all at
// once (every unknown key, every loosening in a project file) saves the user a fix-and-retry
// loop per mistake.
type ConfigError struct {
	Problems []ConfigProblem
}

// Error lists the problems one per line.
func (e *ConfigError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// ---- the file schema -------------------------------------------------------------------------

type fileConfig struct {
	Fallback        *cfgFallback    `toml:"fallback"`
	Home            *cfgHome        `toml:"home"`
	Workspaces      []cfgWorkspace  `toml:"workspaces"`
	ProtectedPaths  []cfgPathGlob   `toml:"protected_paths"`
	TrustedHosts    []cfgHostGlob   `toml:"trusted_hosts"`
	TrustedProjects []cfgPathGlob   `toml:"trusted_projects"`
	Rules           []fileRule      `toml:"rule"`
	Mapping         fileMappingSect `toml:"mapping"`
	Model           *fileModel      `toml:"model"`
	Review          *fileReview     `toml:"review"`
	Prompt          *filePrompt     `toml:"prompt"`
	Audit           *fileAudit      `toml:"audit"`
	Agents          *fileAgents     `toml:"agents"`
	MCP             *fileMCP        `toml:"mcp"`
	Store           *fileStore      `toml:"store"`
	Notify          *fileNotify     `toml:"notify"`
}

type fileRule struct {
	ID       *string      `toml:"id"`
	Kind     *cfgKind     `toml:"kind"`
	Decision *cfgDecision `toml:"decision"`
	Prefix   []string     `toml:"prefix"`
	Glob     *cfgRuleGlob `toml:"glob"`
	Regex    *cfgRegex    `toml:"regex"`
	Reason   string       `toml:"reason"`
	// Conditions on what the command does (docs/config.md#conditions-on-effects).
	Commands    []string      `toml:"commands"`
	CwdUnder    []cfgPathGlob `toml:"cwd_under"`
	PathsWithin []cfgPlace    `toml:"paths_within"`
}

type fileMappingSect struct {
	Exec *fileMapping `toml:"exec"`
	MCP  *fileMapping `toml:"mcp"`
}

type fileMapping struct {
	Low             *cfgDecision `toml:"low"`
	MediumContained *cfgDecision `toml:"medium_contained"`
	Medium          *cfgDecision `toml:"medium"`
	High            *cfgDecision `toml:"high"`
	HighCertain     *cfgDecision `toml:"high_certain"`
	Critical        *cfgDecision `toml:"critical"`
}

// The value types below are structs, not named strings: go-toml assigns a TOML string straight
// into a string-kinded field without calling UnmarshalText. As structs, their UnmarshalText
// runs, and go-toml wraps its error in a *toml.DecodeError carrying the value's line, column
// and key — every per-value check gets an exact position for free.

type cfgFallback struct{ v FallbackMode }

func (f *cfgFallback) UnmarshalText(b []byte) error {
	switch m := FallbackMode(b); m {
	case FallbackAsk, FallbackHeadless:
		f.v = m
		return nil
	}
	return fmt.Errorf(`unknown fallback %q; use "ask" (reviewer failures go to the human) or "headless" (reviewer failures are denied)`, b)
}

type cfgKind struct{ v riskmodel.Kind }

func (k *cfgKind) UnmarshalText(b []byte) error {
	v, err := riskmodel.ParseKind(string(b))
	if err != nil {
		return fmt.Errorf(`unknown rule kind %q; use "exec" (shell commands, the default) or "mcp" (MCP tool calls)`, b)
	}
	k.v = v
	return nil
}

type cfgDecision struct{ v riskmodel.Decision }

func (d *cfgDecision) UnmarshalText(b []byte) error {
	v, err := riskmodel.ParseDecision(string(b))
	if err != nil {
		return fmt.Errorf(`unknown decision %q; use "allow", "ask" or "deny"`, b)
	}
	d.v = v
	return nil
}

type cfgRegex struct{ re *regexp.Regexp }

func (r *cfgRegex) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		return errors.New("empty regex matches every command; write a pattern such as '^kubectl .*--context[= ]prod'")
	}
	re, err := regexp.Compile(string(b))
	if err != nil {
		return fmt.Errorf("invalid regex: %v; write Go RE2 syntax (https://golang.org/s/re2syntax) in a 'single-quoted' TOML string so backslashes stay literal", err)
	}
	r.re = re
	return nil
}

type cfgRuleGlob struct{ v string }

func (g *cfgRuleGlob) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		return errors.New(`empty glob; write a pattern such as "git push origin feature/*" (exec) or "github/list_*" (mcp)`)
	}
	if err := checkGlob(string(b)); err != nil {
		return err
	}
	g.v = string(b)
	return nil
}

type cfgHome struct{ v string }

func (h *cfgHome) UnmarshalText(b []byte) error {
	s := string(b)
	if !path.IsAbs(s) {
		return fmt.Errorf("home %q is not an absolute path; write it in full, e.g. \"/home/dev\" (it is what ~ means, so it cannot use ~)", s)
	}
	h.v = s
	return nil
}

type cfgWorkspace struct{ v string }

func (w *cfgWorkspace) UnmarshalText(b []byte) error {
	s := string(b)
	if err := checkDirPath("workspace", s); err != nil {
		return err
	}
	if c := path.Clean(s); c == "/" || c == "~" {
		return fmt.Errorf("workspace %q would let the agent change everything below it freely; name a project directory such as \"~/src/app\"", s)
	}
	w.v = s
	return nil
}

type cfgPathGlob struct{ v string }

func (g *cfgPathGlob) UnmarshalText(b []byte) error {
	s := string(b)
	if err := checkDirPath("path", s); err != nil {
		return err
	}
	for _, el := range strings.Split(s, "/") {
		if err := checkGlob(el); err != nil {
			return err
		}
	}
	g.v = s
	return nil
}

// cfgPlace is one entry of a rule's paths_within: "workspace" or a path glob.
type cfgPlace struct{ v string }

func (p *cfgPlace) UnmarshalText(b []byte) error {
	s := string(b)
	switch {
	case s == riskmodel.PlaceWorkspace:
	case s == "/" || s == "~" || s == "~/":
		return fmt.Errorf(`place %q would cover every path; name the directories you mean, e.g. "workspace" or "~/notes"`, s)
	default:
		if err := checkDirPath("place", s); err != nil {
			return fmt.Errorf(`%w, or write "workspace" for the request's workspace`, err)
		}
		for _, el := range strings.Split(s, "/") {
			if err := checkGlob(el); err != nil {
				return err
			}
		}
	}
	p.v = s
	return nil
}

type cfgHostGlob struct{ v string }

func (h *cfgHostGlob) UnmarshalText(b []byte) error {
	s := string(b)
	switch {
	case s == "":
		return errors.New(`empty host; write a host name such as "github.com" or "*.corp.example"`)
	case strings.Contains(s, "://") || strings.Contains(s, "/"):
		return fmt.Errorf(`%q is not a host name; write the host only, e.g. "github.com" rather than "https://github.com/org"`, s)
	}
	if err := checkGlob(s); err != nil {
		return err
	}
	h.v = s
	return nil
}

// checkDirPath accepts absolute and ~/-relative paths: a relative path would silently mean a
// different place for every cwd.
func checkDirPath(what, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty %s; write an absolute or ~/-relative path such as \"~/src/app\"", what)
	case path.IsAbs(s), s == "~", strings.HasPrefix(s, "~/"):
		return nil
	case strings.HasPrefix(s, "~"):
		return fmt.Errorf("%s %q names another user's home; write it as an absolute path", what, s)
	}
	return fmt.Errorf("%s %q is relative; write it as an absolute or ~/-relative path, e.g. %q", what, s, "~/"+strings.TrimPrefix(s, "./"))
}

// checkGlob validates pattern syntax: path.Match reports a malformed pattern even for a probe
// that cannot match.
func checkGlob(g string) error {
	if _, err := path.Match(g, ""); err != nil {
		return fmt.Errorf("bad glob pattern %q: %v; check [ ] brackets and trailing backslashes (* matches any characters, ? one, [abc] a set)", g, err)
	}
	return nil
}

// ---- the schema, for unknown-key and type errors -------------------------------------------------

type schemaKey struct{ key, want string }

var levelKeys = [nLevelKeys]string{"low", "medium_contained", "medium", "high", "high_certain", "critical"}

// nLevelKeys counts a mapping's keys; the indexes below name the ones overlayMapping derives.
const (
	nLevelKeys  = 6
	keyHigh     = 3
	keyHighCert = 4
	keyCritical = 5
)

var configSchema = func() []schemaKey {
	const dec = `a string: "allow", "ask" or "deny"`
	s := []schemaKey{
		{"fallback", `a string: "ask" or "headless"`},
		{"home", `a string holding an absolute path, e.g. "/home/dev"`},
		{"workspaces", `a list of strings such as ["~/src/app", "/work"]`},
		{"protected_paths", `a list of path globs such as ["~/notes/**", "/srv/data"]`},
		{"trusted_hosts", `a list of host globs such as ["github.com", "*.corp.example"]`},
		{"trusted_projects", `a list of directory globs such as ["~/src/*"]`},
		{"rule", "[[rule]] tables"},
		{"mapping", "a table: [mapping.exec] or [mapping.mcp]"},
		{"rule.id", `a string such as "allow-make"`},
		{"rule.kind", `a string: "exec" or "mcp"`},
		{"rule.decision", dec},
		{"rule.prefix", `a list of strings such as ["git", "push"]`},
		{"rule.glob", `a string such as "git push origin feature/*"`},
		{"rule.regex", `a string such as '^kubectl .*--context[= ]prod'`},
		{"rule.reason", "a string"},
		{"rule.commands", `a list of command names such as ["git", "jq"]`},
		{"rule.cwd_under", `a list of directory globs such as ["~/src"]`},
		{"rule.paths_within", `a list of places such as ["workspace", "~/notes"]`},
		{"mapping.exec", "a table of levels: low, medium_contained, medium, high, high_certain, critical"},
		{"mapping.mcp", "a table of levels: low, medium_contained, medium, high, high_certain, critical"},
		{"model", "a table: [model]"},
		{"review", "a table: [review]"},
		{"prompt", "a table: [prompt]"},
	}
	for _, k := range []string{"exec", "mcp"} {
		for _, l := range levelKeys {
			s = append(s, schemaKey{"mapping." + k + "." + l, dec})
		}
	}
	s = append(s, modelSchema...)
	s = append(s, auditSchema...)
	s = append(s, agentsSchema...)
	s = append(s, mcpSchema...)
	s = append(s, notifySchema...)
	return append(s, storeSchema...)
}()

func schemaWant(key string) (string, bool) {
	for _, s := range configSchema {
		if s.key == key {
			return s.want, true
		}
	}
	return "", false
}

func isSchemaTable(key string) bool {
	switch key {
	case "", "rule", "mapping", "mapping.exec", "mapping.mcp", "model", "review", "prompt",
		"review.denials_breaker", "review.model_breaker", "audit", "agents", "mcp", "mcp.upstream",
		"store", "audit.otlp", "audit.otlp.headers", "notify", "notify.webhook":
		return true
	}
	return false
}

func schemaChildren(table string) []string {
	var out []string
	for _, s := range configSchema {
		parent, name := "", s.key
		if i := strings.LastIndexByte(s.key, '.'); i >= 0 {
			parent, name = s.key[:i], s.key[i+1:]
		}
		if parent == table {
			out = append(out, name)
		}
	}
	return out
}

func tableTitle(table string) string {
	switch table {
	case "":
		return "the top level"
	case "rule":
		return "[[rule]]"
	case "mcp.upstream":
		return "[[mcp.upstream]]"
	case "notify.webhook":
		return "[[notify.webhook]]"
	}
	return "[" + table + "]"
}

// ---- parsing one file ----------------------------------------------------------------------

type fileRole int

const (
	roleUser fileRole = iota
	roleProject
)

// parsedFile is one decoded and validated file, before any merging.
type parsedFile struct {
	path  string
	fc    fileConfig
	ix    *docIndex
	probs []ConfigProblem

	policy          riskmodel.Policy // Mapping holds only the kinds the file sets
	fallback        FallbackMode
	trustedProjects []string
	model           *ModelConfig   // [model], nil when absent
	review          reviewSettings // the [review] keys the file sets
	prompt          PromptConfig
	audit           AuditConfig // the [audit] keys the file sets
	agents          agentSettings
	mcp             MCPConfig // the [[mcp.upstream]] tables
	store           StoreConfig
	notify          NotifyConfig
	// mappings records, per kind the file sets, which levels it sets explicitly.
	mappings map[riskmodel.Kind][nLevelKeys]*cfgDecision
}

// parseConfigFile decodes and validates one file and reports every problem in it at once,
// in file order, so that one `guardian config check` shows all there is to fix.
//
// go-toml stops at the first bad value, so a value that fails is recorded, blanked out (its
// bytes turned to spaces, which keeps every position) and the file decoded again; what the
// later checks would say about a key that was blanked (a rule "missing" the decision that
// was misspelt) is not reported, because its real problem already is. A syntax error ends
// the file: what comes before it is still checked for bad values and unknown keys, but
// nothing is said about what may be missing, since it may lie after the error.
func parseConfigFile(file string, data []byte, role fileRole) (*parsedFile, error) {
	pf := &parsedFile{path: file, ix: indexDocument(data)}
	var doc any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			if line, _ := de.Position(); line > 1 && line <= len(pf.ix.lineStarts) {
				before := &parsedFile{path: file, ix: indexDocument(data[:pf.ix.lineStarts[line-1]])}
				before.collect(data[:pf.ix.lineStarts[line-1]])
				pf.probs = append(pf.probs, before.probs...)
			}
		}
		pf.decodeProblems(err)
		return nil, pf.err()
	}
	if removed, ok := pf.collect(data); ok {
		n := len(pf.probs)
		pf.validate(role)
		pf.probs = append(pf.probs[:n], slices.DeleteFunc(pf.probs[n:], func(p ConfigProblem) bool {
			return coveredBy(p, removed)
		})...)
	}
	if err := pf.err(); err != nil {
		return nil, err
	}
	return pf, nil
}

// collect decodes data into pf.fc, recording every wrongly typed key, bad value and unknown
// key. It returns the index paths of the key-values it blanked out to get past bad values,
// and whether the decoded config is complete enough to validate.
func (pf *parsedFile) collect(data []byte) (removed []string, ok bool) {
	work := bytes.Clone(data)
	n := len(pf.probs)
	pf.checkTypes()
	for _, p := range pf.probs[n:] {
		i := slices.IndexFunc(pf.ix.spans, func(s docSpan) bool {
			return s.path == p.at || strings.HasPrefix(p.at, s.path+"[") || strings.HasPrefix(p.at, s.path+".")
		})
		if i < 0 {
			return removed, false
		}
		s, _ := pf.ix.outerSpanAtOffset(pf.ix.spans[i].start)
		pf.blankSpan(work, s, &removed) // false: blanked for an earlier element already
	}
	for range len(pf.ix.spans) + 1 {
		pf.fc = fileConfig{}
		err := toml.NewDecoder(bytes.NewReader(work)).DisallowUnknownFields().Decode(&pf.fc)
		var strict *toml.StrictMissingError
		var de *toml.DecodeError
		switch {
		case err == nil:
			return removed, true
		case errors.As(err, &strict):
			pf.decodeProblems(err) // every unknown key; the rest was decoded
			for i := range strict.Errors {
				line, col := strict.Errors[i].Position()
				if k := pf.ix.keyAt(line, col); k != "" {
					removed = append(removed, k)
				}
			}
			return removed, true
		case errors.As(err, &de):
			pf.decodeProblems(err)
			line, col := de.Position()
			s, found := pf.ix.outerSpanAt(line, col)
			if !found || !pf.blankSpan(work, s, &removed) {
				return removed, false
			}
		default:
			pf.decodeProblems(err)
			return removed, false
		}
	}
	return removed, false
}

// blankSpan turns the key-value s of work into spaces (newlines kept) and records its path.
// It reports false if s was blanked before: decoding would fail at the same place again.
func (pf *parsedFile) blankSpan(work []byte, s docSpan, removed *[]string) bool {
	if slices.Contains(*removed, s.path) {
		return false
	}
	for i := s.start; i < s.end && i < len(work); i++ {
		if work[i] != '\n' && work[i] != '\r' {
			work[i] = ' '
		}
	}
	*removed = append(*removed, s.path)
	return true
}

// coveredBy reports whether p is about a key that was blanked out or unknown, or about a key
// or table around it or beside it in the same table: its real problem has been reported
// already ("policy is set but mode is not" after mode's bad value), and the rest of that
// table is checked again once it is fixed.
func coveredBy(p ConfigProblem, removed []string) bool {
	at := p.at
	if at == "" {
		at = p.Key
	}
	for _, r := range removed {
		if p.at == "" {
			r = displayKey(r)
		}
		if i := strings.LastIndexAny(r, ".["); i > 0 {
			r = r[:i] // the table the key is in
		}
		if at == r || strings.HasPrefix(r, at+".") || strings.HasPrefix(r, at+"[") ||
			strings.HasPrefix(at, r+".") || strings.HasPrefix(at, r+"[") {
			return true
		}
	}
	return false
}

func (pf *parsedFile) err() error {
	if len(pf.probs) == 0 {
		return nil
	}
	slices.SortStableFunc(pf.probs, func(a, b ConfigProblem) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	return &ConfigError{Problems: pf.probs}
}

// add records a problem at the key with index path p ("rule[1].decision").
func (pf *parsedFile) add(p, msg string) { pf.addAt(p, pf.ix.find(p), msg) }

func (pf *parsedFile) addAt(p string, pos docPos, msg string) {
	k := displayKey(p)
	pf.probs = append(pf.probs, ConfigProblem{File: pf.path, Line: pos.line, Column: pos.col, Key: k,
		Message: fmt.Sprintf("key %q: %s", k, msg), at: p})
}

// checkTypes reports every string-valued key (or list-of-strings element) written with another
// TOML type. go-toml hands a non-string value to a field's UnmarshalText as text and returns its
// error without a position, so `regex = 1` would otherwise be a regex "1" and `fallback = 1` an
// error without a line; checking kinds up front keeps type errors strict and located.
func (pf *parsedFile) checkTypes() {
	for path, kind := range pf.ix.kinds {
		want, ok := schemaWant(displayKey(path))
		if !ok {
			continue
		}
		elem := strings.HasSuffix(path, "]")
		bad := false
		switch {
		case strings.HasPrefix(want, "a string"):
			bad = !elem && kind != unstable.String
		case strings.HasPrefix(want, "a list of"):
			bad = (!elem && kind != unstable.Array) || (elem && kind != unstable.String)
		case strings.HasPrefix(want, "a boolean"):
			bad = kind != unstable.Bool
		case strings.HasPrefix(want, "an integer"):
			bad = kind != unstable.Integer
		case strings.HasPrefix(want, "a size"):
			bad = kind != unstable.String && kind != unstable.Integer
		}
		if bad {
			what := "a TOML " + tomlKindName(kind)
			if elem {
				what += " in the list"
			}
			pf.addAt(path, pf.ix.valuePos(path), fmt.Sprintf("wrong type: found %s, want %s", what, want))
		}
	}
}

func tomlKindName(k unstable.Kind) string {
	switch k {
	case unstable.Bool:
		return "boolean"
	case unstable.InlineTable:
		return "inline table"
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		return "date/time"
	}
	return strings.ToLower(k.String())
}

var mismatchRE = lazyRegexp(`^cannot decode TOML (\w+) into `)

// decodeProblems turns go-toml's errors into problems: every unknown key of a
// StrictMissingError, or the one DecodeError (syntax, type or value).
func (pf *parsedFile) decodeProblems(err error) {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		for i := range strict.Errors {
			pf.unknownKey(&strict.Errors[i])
		}
		return
	}
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		pf.probs = append(pf.probs, ConfigProblem{File: pf.path, Message: err.Error()})
		return
	}
	line, col := de.Position()
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	key := pf.ix.keyAt(line, col)
	if key == "" {
		key = strings.Join(de.Key(), ".")
	}
	if key == "" {
		key = pf.ix.keyOnLine(line)
	}
	key = displayKey(key)
	p := ConfigProblem{File: pf.path, Line: line, Column: col, Key: key}
	switch {
	case mismatchRE().MatchString(msg):
		got := mismatchRE().FindStringSubmatch(msg)[1]
		if want, ok := schemaWant(key); ok {
			msg = fmt.Sprintf("wrong type: found a TOML %s, want %s", got, want)
		}
	case len(de.Key()) == 0 && strings.Contains(msg, "escape"):
		// The parser reports syntax errors without a key; value errors always have one.
		msg = "syntax error: " + msg + "; backslashes start escapes in \"double-quoted\" strings, so write regexes and paths in 'single quotes'"
	case len(de.Key()) == 0:
		msg = "syntax error: " + msg + `; check the TOML syntax here: strings need quotes (key = "value"), lists look like ["a", "b"], tables like [mapping.exec] and [[rule]]`
	case strings.Contains(msg, "already") && strings.HasPrefix(key, "rule"):
		msg += "; start each rule with [[rule]] (double brackets), and set each key once per rule"
	case strings.Contains(msg, "already"):
		msg += "; each key and table may be defined only once: remove or merge the duplicate"
	}
	if key != "" {
		msg = fmt.Sprintf("key %q: %s", key, msg)
	}
	p.Message = msg
	pf.probs = append(pf.probs, p)
}

func (pf *parsedFile) unknownKey(e *toml.DecodeError) {
	line, col := e.Position()
	parts := e.Key()
	full := strings.Join(parts, ".")
	// Inside an inline table go-toml names only the innermost key; the index knows the path.
	if k := displayKey(pf.ix.keyAt(line, col)); k != full && strings.HasSuffix(k, "."+full) {
		full, parts = k, strings.Split(k, ".")
	}
	table := ""
	for i := len(parts) - 1; i > 0; i-- {
		if t := strings.Join(parts[:i], "."); isSchemaTable(t) {
			table = t
			break
		}
	}
	what := "key"
	if strings.Contains(e.Error(), "table") {
		what = "table"
	}
	known := schemaChildren(table)
	msg := fmt.Sprintf("unknown %s %q (known keys for %s: %s)", what, full, tableTitle(table), strings.Join(known, ", "))
	if len(parts) > 0 {
		if s := closest(parts[len(parts)-1], known); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
	}
	pf.probs = append(pf.probs, ConfigProblem{File: pf.path, Line: line, Column: col, Key: full, Message: msg})
}

// closest suggests the known key within edit distance 2 of a misspelt one.
func closest(word string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(word, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// validate checks what single values cannot: required keys, combinations and (for a user
// config) mappings. It fills pf's policy fields.
func (pf *parsedFile) validate(role fileRole) {
	fc := &pf.fc
	if fc.Fallback != nil {
		pf.fallback = fc.Fallback.v
	}
	if fc.Home != nil {
		pf.policy.Home = fc.Home.v
	}
	for _, w := range fc.Workspaces {
		pf.policy.Workspaces = append(pf.policy.Workspaces, w.v)
	}
	for _, g := range fc.ProtectedPaths {
		pf.policy.ProtectedPaths = append(pf.policy.ProtectedPaths, g.v)
	}
	for _, h := range fc.TrustedHosts {
		pf.policy.TrustedHosts = append(pf.policy.TrustedHosts, h.v)
	}
	for _, g := range fc.TrustedProjects {
		pf.trustedProjects = append(pf.trustedProjects, g.v)
	}
	if pos, ok := pf.ix.plainTables["rule"]; ok {
		pf.probs = append(pf.probs, ConfigProblem{File: pf.path, Line: pos.line, Column: pos.col, Key: "rule",
			Message: `key "rule": [rule] defines a single table; write [[rule]] (double brackets) before each rule`})
	} else {
		pf.validateRules()
	}
	pf.validateMappings(role)
	pf.validateModel()
	pf.validateReview()
	pf.validatePrompt()
	pf.validateAudit()
	pf.validateAgents()
	pf.validateMCP()
	pf.validateStore()
	pf.validateNotify()
}

func (pf *parsedFile) validateRules() {
	ids := map[string]string{} // id → index path of its first use
	base := filepath.Base(pf.path)
	for i, r := range pf.fc.Rules {
		rp := fmt.Sprintf("rule[%d]", i)
		ur := riskmodel.UserRule{Kind: riskmodel.KindExec, Reason: r.Reason}
		if r.Kind != nil {
			ur.Kind = r.Kind.v
		}
		if r.Decision != nil {
			ur.Decision = r.Decision.v
		} else {
			pf.add(rp+".decision", `missing required key decision; add decision = "allow", "ask" or "deny" to this [[rule]]`)
		}
		ur.ID = fmt.Sprintf("user:%s:%d", base, pf.ix.find(rp).line)
		if r.ID != nil {
			id := strings.TrimPrefix(*r.ID, "user:")
			switch {
			case strings.TrimSpace(id) == "":
				pf.add(rp+".id", "empty rule id; name the rule (id = \"allow-make\") or remove id to get one from the file and line")
			case ids[id] != "":
				pf.add(rp+".id", fmt.Sprintf("duplicate rule id %q (first used on line %d); give each rule its own id", id, pf.ix.find(ids[id]).line))
			default:
				ids[id] = rp + ".id"
				ur.ID = "user:" + id
			}
		}
		var set []string
		for _, m := range []string{"prefix", "glob", "regex"} {
			if pf.ix.has(rp + "." + m) {
				set = append(set, m)
			}
		}
		for _, p := range r.PathsWithin {
			ur.PathsWithin = append(ur.PathsWithin, p.v)
		}
		if pf.ix.has(rp+".paths_within") && len(r.PathsWithin) == 0 {
			pf.add(rp+".paths_within", `empty paths_within would match nothing; list places such as ["workspace", "~/notes"], or remove the key`)
		}
		if ur.Kind == riskmodel.KindMCP {
			for _, m := range append(set, pf.effectKeys(rp)...) {
				if m != "glob" {
					pf.add(rp+"."+m, fmt.Sprintf(`%s applies to exec rules only; an mcp rule matches "server/tool" with glob, e.g. glob = "github/list_*", and may narrow it with paths_within`, m))
				}
			}
			switch {
			case r.Glob == nil:
				pf.add(rp+".glob", `an mcp rule needs glob = "server/tool" (e.g. "github/list_*"); add it to this [[rule]]`)
			case strings.Count(r.Glob.v, "/") != 1 || strings.HasPrefix(r.Glob.v, "/") || strings.HasSuffix(r.Glob.v, "/"):
				pf.add(rp+".glob", fmt.Sprintf(`mcp glob %q must have the form "server/tool", e.g. "github/list_*" or "posthog/*"`, r.Glob.v))
			default:
				ur.Glob = r.Glob.v
			}
			pf.policy.Rules = append(pf.policy.Rules, ur)
			continue
		}
		switch {
		case len(set) == 0 && !pf.ix.has(rp+".commands"):
			pf.add(rp, `an exec rule needs commands, or one of prefix, glob or regex, to say which commands it covers; add one, e.g. commands = ["make"] or prefix = ["make"]`)
		case len(set) > 1:
			first := pf.ix.find(rp + "." + set[0])
			for _, m := range set[1:] {
				pf.add(rp+"."+m, fmt.Sprintf("a rule takes at most one of prefix, glob or regex, but this one also sets %s on line %d; keep one, or split it into two [[rule]]s", set[0], first.line))
			}
		}
		if pf.ix.has(rp + ".commands") {
			if len(r.Commands) == 0 {
				pf.add(rp+".commands", `empty commands would match nothing; list command names, e.g. commands = ["git"], or remove the key`)
			}
			for j, w := range r.Commands {
				if w == "" || strings.ContainsAny(w, "/ \t") {
					pf.add(fmt.Sprintf("%s.commands[%d]", rp, j), fmt.Sprintf(`command %q is not a bare command name; write the name as it is run, without a directory or arguments, e.g. "git" (use prefix for arguments)`, w))
				}
			}
			ur.Commands = r.Commands
		}
		if pf.ix.has(rp+".cwd_under") && len(r.CwdUnder) == 0 {
			pf.add(rp+".cwd_under", `empty cwd_under would match nothing; list directories such as ["~/src"], or remove the key`)
		}
		for _, d := range r.CwdUnder {
			ur.CwdUnder = append(ur.CwdUnder, d.v)
		}
		if pf.ix.has(rp + ".prefix") {
			if len(r.Prefix) == 0 {
				pf.add(rp+".prefix", `empty prefix would match every command; list the leading words, e.g. prefix = ["git", "push"]`)
			}
			for j, w := range r.Prefix {
				if strings.TrimSpace(w) == "" {
					pf.add(fmt.Sprintf("%s.prefix[%d]", rp, j), fmt.Sprintf(`prefix word %d is empty; every word must be non-empty, e.g. prefix = ["git", "push"]`, j+1))
				}
			}
			ur.Prefix = r.Prefix
		}
		if r.Glob != nil {
			ur.Glob = r.Glob.v
		}
		if r.Regex != nil {
			ur.Regex = r.Regex.re
		}
		pf.policy.Rules = append(pf.policy.Rules, ur)
	}
}

// effectKeys lists the exec-only effect conditions a [[rule]] sets.
func (pf *parsedFile) effectKeys(rp string) []string {
	var out []string
	for _, k := range []string{"commands", "cwd_under"} {
		if pf.ix.has(rp + "." + k) {
			out = append(out, k)
		}
	}
	return out
}

func (fm *fileMapping) slots() [nLevelKeys]*cfgDecision {
	return [nLevelKeys]*cfgDecision{fm.Low, fm.MediumContained, fm.Medium, fm.High, fm.HighCertain, fm.Critical}
}

func mappingValues(m riskmodel.Mapping) [nLevelKeys]riskmodel.Decision {
	hc := m.HighCertain
	if hc == 0 {
		hc = m.High
	}
	return [nLevelKeys]riskmodel.Decision{m.Low, m.MediumContained, m.Medium, m.High, hc, m.Critical}
}

func mappingOf(v [nLevelKeys]riskmodel.Decision) riskmodel.Mapping {
	return riskmodel.Mapping{Low: v[0], MediumContained: v[1], Medium: v[2], High: v[3], HighCertain: v[4], Critical: v[5]}
}

func (pf *parsedFile) validateMappings(role fileRole) {
	for _, km := range []struct {
		kind riskmodel.Kind
		fm   *fileMapping
	}{{riskmodel.KindExec, pf.fc.Mapping.Exec}, {riskmodel.KindMCP, pf.fc.Mapping.MCP}} {
		if km.fm == nil {
			continue
		}
		if pf.mappings == nil {
			pf.mappings = map[riskmodel.Kind][nLevelKeys]*cfgDecision{}
		}
		slots := km.fm.slots()
		pf.mappings[km.kind] = slots
		if role == roleProject {
			continue // checked against the user's mapping when merged
		}
		m, ok := pf.overlayMapping(km.kind, riskmodel.DefaultMapping(), slots, true)
		if !ok {
			continue
		}
		if pf.policy.Mapping == nil {
			pf.policy.Mapping = map[riskmodel.Kind]riskmodel.Mapping{}
		}
		pf.policy.Mapping[km.kind] = m
	}
}

// overlayMapping sets the explicit levels over base and validates the result, blaming the
// explicit level that breaks it. high_certain, when the file does not set it, stays between
// high and critical; in the user config (userFile) it follows an explicit high, so a config
// written before certainty existed ("high = ask") keeps asking about every high finding. A
// project file's high can only raise it (projects may not loosen).
func (pf *parsedFile) overlayMapping(kind riskmodel.Kind, base riskmodel.Mapping, slots [nLevelKeys]*cfgDecision, userFile bool) (riskmodel.Mapping, bool) {
	vals := mappingValues(base)
	var explicit [nLevelKeys]bool
	for i, s := range slots {
		if s != nil {
			vals[i], explicit[i] = s.v, true
		}
	}
	if !explicit[keyHighCert] {
		if userFile && explicit[keyHigh] {
			vals[keyHighCert] = vals[keyHigh]
		}
		vals[keyHighCert] = max(vals[keyHighCert], vals[keyHigh])
		vals[keyHighCert] = min(vals[keyHighCert], max(vals[keyCritical], vals[keyHigh]))
	}
	m := mappingOf(vals)
	prefix := "mapping." + string(kind) + "."
	const fix = "make each level at least as strict as the one below it (low, medium_contained, medium, high, high_certain, critical; allow < ask < deny)"
	if explicit[keyCritical] && vals[keyCritical] == riskmodel.Allow {
		pf.add(prefix+"critical", `critical = "allow" is not permitted: critical requests (rm -rf ~, credential exfiltration) must be denied or asked about; use "deny" or "ask"`)
		return m, false
	}
	err := m.Validate()
	if err == nil {
		return m, true
	}
	blame := -1
	for i := 1; i < nLevelKeys && blame < 0; i++ {
		if vals[i] >= vals[i-1] {
			continue
		}
		blame = i
		for j := i; j >= 0 && !explicit[j]; j-- {
			blame = j - 1
		}
	}
	if blame < 0 {
		pf.add(strings.TrimSuffix(prefix, "."), fmt.Sprintf("%v; %s", err, fix))
	} else {
		pf.add(prefix+levelKeys[blame], fmt.Sprintf("%v; %s", err, fix))
	}
	return m, false
}

// ---- model, review and prompt ----------------------------------------------------------------

// Environment variables read by ModelFromEnv. They mirror the model client's (guardian cannot
// import it: the client imports guardian) and are the documented way to point guardian at a
// model without a config file, or to override the file's [model] table in CI and containers.
const (
	EnvModelBaseURL = "GUARDIAN_MODEL_BASE_URL"
	EnvModel        = "GUARDIAN_MODEL"
	EnvAPIKey       = "GUARDIAN_API_KEY"
	EnvOpenAIAPIKey = "OPENAI_API_KEY"
	EnvModelTimeout = "GUARDIAN_MODEL_TIMEOUT"
)

// Limits on [review] and [model] values. They keep a typo ("60m" for "60s") from turning into a
// review that outlives the host's hook timeout, or a cache that replays decisions for weeks.
const (
	MaxReviewDeadline  = 60 * time.Second
	MaxModelTimeout    = 60 * time.Second
	MaxCacheTTL        = 24 * time.Hour
	MaxCacheSize       = 1 << 20
	MaxBreakerCooldown = time.Hour
	MaxModelTokens     = 32768
	// DefaultCacheSize is the cache's capacity when cache_ttl turns it on without cache_size.
	DefaultCacheSize = 4096
)

// ModelConfig is the [model] table: one OpenAI-compatible chat-completions endpoint (OpenAI,
// Azure OpenAI, Ollama, vLLM, llama.cpp, …). Its fields mirror the model client's Config, which
// the CLI builds from it. The API key itself is never read from a file: APIKeyEnv names the
// environment variable that holds it, and ModelFromEnv fills APIKey from there.
type ModelConfig struct {
	// BaseURL is the API root including /v1 (http://127.0.0.1:11434/v1 for Ollama), or with
	// Azure the resource URL. Empty means OpenAI.
	BaseURL string
	// Model is the model name (the deployment name with Azure). Required in a [model] table.
	Model string
	// APIKeyEnv names the environment variable holding the API key. Empty means
	// GUARDIAN_API_KEY, then OPENAI_API_KEY.
	APIKeyEnv string
	// APIKey is the key itself. LoadConfig never sets it; ModelFromEnv reads it from the
	// environment.
	APIKey string
	// Azure selects Azure OpenAI's URL layout and api-key authentication.
	Azure bool
	// AzureAPIVersion is Azure's api-version (the client's default when empty).
	AzureAPIVersion string
	// Timeout caps one attempt (0: only the review deadline applies).
	Timeout time.Duration
	// MaxTokens caps the completion (0: the client's default).
	MaxTokens int
	// Seed is sent with every request, for servers that answer reproducibly with one.
	Seed int
}

// ReviewConfig is the [review] table: how the second-stage review is bounded and how its
// answers are mapped. DefaultReviewConfig gives the defaults; PipelineOptions turns it into
// pipeline options.
type ReviewConfig struct {
	// Deadline bounds the whole second-stage review, retries included (DefaultDeadline). It
	// must stay below the host's hook timeout so the host never kills guardian first.
	Deadline time.Duration
	// AllowCeiling is the highest risk level (by the rules and by the model) at which a model
	// allow stands; above it the allow becomes ask. Low, Medium (default) or High, never
	// Critical.
	AllowCeiling riskmodel.Level
	// UnsupportedDeny is what a model deny at low/medium risk without a rule finding at high
	// becomes: Deny (default) or Ask.
	UnsupportedDeny riskmodel.Decision
	// CacheTTL is how long cached decisions are replayed; 0 (the default) disables the cache.
	CacheTTL time.Duration
	// CacheSize is the most decisions the cache holds (DefaultCacheSize).
	CacheSize int
	// DenialsBreaker enables the denials circuit breaker when non-nil (off by default).
	DenialsBreaker *DenialsBreakerConfig
	// ModelBreaker configures the model health breaker (zero fields take its defaults;
	// Failures < 0 disables it).
	ModelBreaker ModelBreakerConfig
}

// DefaultReviewConfig is the [review] configuration when the file has none: the pipeline's
// defaults, with the cache off.
func DefaultReviewConfig() ReviewConfig {
	return ReviewConfig{Deadline: DefaultDeadline, AllowCeiling: riskmodel.Medium, UnsupportedDeny: riskmodel.Deny, CacheSize: DefaultCacheSize}
}

// PromptConfig is the [prompt] table: the operator's policy text for the model and how it
// combines with the built-in policy of the prompt templates. The zero value means the built-in
// policy alone; Policy set requires Mode append or replace.
type PromptConfig struct {
	// Policy is the operator's policy text, inserted verbatim into the system prompt.
	Policy string
	// Mode is prompts.ModeAppend or prompts.ModeReplace when Policy is set, else ModeNone.
	Mode prompts.PolicyMode
}

// PromptPolicy returns the prompt configuration in the form the prompts package renders.
func (p PromptConfig) PromptPolicy() prompts.Policy {
	return prompts.Policy{Text: p.Policy, Mode: p.Mode}
}

// ModelFromEnv returns the model endpoint to use: the file's [model] table with the
// environment layered over it. GUARDIAN_MODEL_BASE_URL, GUARDIAN_MODEL and
// GUARDIAN_MODEL_TIMEOUT override the file's base_url, model and timeout where set (non-empty).
// The API key is read from the variable named by api_key_env — which must then be set — or,
// without api_key_env, from GUARDIAN_API_KEY, then OPENAI_API_KEY. An API key alone does not
// turn the model on (OPENAI_API_KEY is often set for other tools).
//
// ok is false, with a nil error, when neither the file nor the environment names a model or a
// base URL: guardian then runs on rules only. A bad environment value is an error naming the
// variable; getenv is os.Getenv in production and a map lookup in tests.
func (c Config) ModelFromEnv(getenv func(string) string) (ModelConfig, bool, error) {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	var m ModelConfig
	src := "the config file"
	if c.Model != nil {
		m = *c.Model
		if len(c.Sources) > 0 {
			src = c.Sources[0]
		}
	}
	if v := get(EnvModelBaseURL); v != "" {
		if err := checkBaseURL(v); err != nil {
			return ModelConfig{}, false, fmt.Errorf("%s=%q: %v", EnvModelBaseURL, v, err)
		}
		m.BaseURL = v
	}
	if v := get(EnvModel); v != "" {
		m.Model = v
	}
	if v := get(EnvModelTimeout); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 || d > MaxModelTimeout {
			return ModelConfig{}, false, fmt.Errorf("%s=%q: want a Go duration above 0 and at most %s, such as 3s or 1500ms", EnvModelTimeout, v, fmtDuration(MaxModelTimeout))
		}
		m.Timeout = d
	}
	if m.Model == "" && m.BaseURL == "" {
		return ModelConfig{}, false, nil
	}
	if m.Model == "" {
		return ModelConfig{}, false, fmt.Errorf("%s is set but no model is named: set %s or model in the [model] table of %s", EnvModelBaseURL, EnvModel, src)
	}
	if m.APIKeyEnv != "" {
		m.APIKey = get(m.APIKeyEnv)
		if m.APIKey == "" {
			return ModelConfig{}, false, fmt.Errorf("api_key_env in %s names %s, which is not set: export %s=<your key>, or remove api_key_env for a server that needs no key", src, m.APIKeyEnv, m.APIKeyEnv)
		}
	} else if m.APIKey = get(EnvAPIKey); m.APIKey == "" {
		m.APIKey = get(EnvOpenAIAPIKey)
	}
	if m.BaseURL == "" && !m.Azure && m.APIKey == "" {
		return ModelConfig{}, false, fmt.Errorf("model %q has no base URL, so OpenAI would be used, but neither %s nor %s holds an API key: export one, or set base_url (or %s) for a local server", m.Model, EnvAPIKey, EnvOpenAIAPIKey, EnvModelBaseURL)
	}
	if m.Azure && m.BaseURL == "" {
		return ModelConfig{}, false, fmt.Errorf("azure = true needs the resource URL: set base_url in %s or %s", src, EnvModelBaseURL)
	}
	return m, true, nil
}

// PipelineOptions returns the pipeline options the config asks for: fallback, review deadline,
// allow ceiling, unsupported-deny decision, the model breaker, the denials breaker (when
// configured) and the decision cache (when cache_ttl > 0). The cache is keyed by
// PolicyVersion, so changing the policy or the prompt never replays an old decision. The
// reviewer itself (WithReviewer) is the caller's: it needs the model client.
func (c Config) PipelineOptions() []Option {
	r := c.Review
	def := DefaultReviewConfig()
	if r.Deadline <= 0 {
		r.Deadline = def.Deadline
	}
	if r.AllowCeiling == 0 {
		r.AllowCeiling = def.AllowCeiling
	}
	if r.UnsupportedDeny == 0 {
		r.UnsupportedDeny = def.UnsupportedDeny
	}
	if r.CacheSize <= 0 {
		r.CacheSize = def.CacheSize
	}
	fb := c.Fallback
	if fb == "" {
		fb = FallbackAsk
	}
	opts := []Option{
		WithFallback(fb),
		WithDeadline(r.Deadline),
		WithAllowCeiling(r.AllowCeiling),
		WithUnsupportedDeny(r.UnsupportedDeny),
		WithModelBreaker(r.ModelBreaker),
		WithAgentPolicy(c.Agents),
	}
	if r.DenialsBreaker != nil {
		opts = append(opts, WithDenialsBreaker(*r.DenialsBreaker))
	}
	if r.CacheTTL > 0 {
		opts = append(opts, WithCache(r.CacheTTL, r.CacheSize, c.PolicyVersion()))
	}
	return opts
}

// PolicyVersion identifies everything that shapes a cacheable decision: the rule policy
// (workspaces, home, protected paths, trusted hosts, rules, mappings), the allow ceiling and
// unsupported-deny setting, the operator's prompt policy (mode and text), the embedded prompt
// templates (id and hash) and the file's model endpoint. It is the first 16 hex characters of
// a SHA-256 and is the cache version PipelineOptions passes to WithCache, so editing any of
// these invalidates every cached decision.
func (c Config) PolicyVersion() string {
	type rule struct {
		ID, Kind, Decision, Glob, Regex, Reason string
		Prefix, Commands, CwdUnder, PathsWithin []string
	}
	v := struct {
		Workspaces, ProtectedPaths, TrustedHosts []string
		Home                                     string
		Rules                                    []rule
		Mapping                                  map[string]string
		Ceiling, UnsupportedDeny                 string
		PromptMode, PromptPolicy                 string
		Templates                                []string
		ModelBaseURL, Model                      string
	}{
		Workspaces: c.Policy.Workspaces, ProtectedPaths: c.Policy.ProtectedPaths, TrustedHosts: c.Policy.TrustedHosts,
		Home: c.Policy.Home, Mapping: map[string]string{},
		Ceiling: c.Review.AllowCeiling.String(), UnsupportedDeny: c.Review.UnsupportedDeny.String(),
		PromptMode: string(c.Prompt.Mode), PromptPolicy: c.Prompt.Policy,
	}
	for _, r := range c.Policy.Rules {
		re := ""
		if r.Regex != nil {
			re = r.Regex.String()
		}
		v.Rules = append(v.Rules, rule{r.ID, string(r.Kind), r.Decision.String(), r.Glob, re, r.Reason, r.Prefix,
			r.Commands, r.CwdUnder, r.PathsWithin})
	}
	for k, m := range c.Policy.Mapping {
		v.Mapping[string(k)] = fmt.Sprint(mappingValues(m))
	}
	for _, t := range prompts.Templates() {
		v.Templates = append(v.Templates, t.String())
	}
	if c.Model != nil {
		v.ModelBaseURL, v.Model = c.Model.BaseURL, c.Model.Model
	}
	b, err := json.Marshal(v) // map keys are sorted: the encoding is canonical
	if err != nil {
		b = []byte(fmt.Sprintf("%+v", v))
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

var modelSchema = []schemaKey{
	{"model.base_url", `a string holding an http(s) URL, e.g. "http://127.0.0.1:11434/v1"`},
	{"model.model", `a string naming the model, e.g. "qwen2.5-coder:7b"`},
	{"model.api_key_env", `a string naming an environment variable, e.g. "GUARDIAN_API_KEY"`},
	{"model.azure", "a boolean: true or false"},
	{"model.azure_api_version", `a string such as "2024-10-21"`},
	{"model.timeout", `a string holding a Go duration, e.g. "3s"`},
	{"model.max_tokens", "an integer such as 512"},
	{"model.seed", "an integer such as 7"},
	{"review.deadline", `a string holding a Go duration, e.g. "4s"`},
	{"review.allow_ceiling", `a string: "low", "medium" or "high"`},
	{"review.unsupported_model_deny", `a string: "deny" or "ask"`},
	{"review.cache_ttl", `a string holding a Go duration, e.g. "10m" ("0s" disables the cache)`},
	{"review.cache_size", "an integer such as 4096"},
	{"review.denials_breaker", "a table: [review.denials_breaker]"},
	{"review.model_breaker", "a table: [review.model_breaker]"},
	{"review.denials_breaker.consecutive", "an integer such as 5 (0 switches this trigger off)"},
	{"review.denials_breaker.window", "an integer such as 20"},
	{"review.denials_breaker.in_window", "an integer such as 8 (0 switches this trigger off)"},
	{"review.model_breaker.failures", "an integer such as 3 (negative disables the breaker)"},
	{"review.model_breaker.cooldown", `a string holding a Go duration, e.g. "60s"`},
	{"prompt.policy", "a string: your policy text for the model"},
	{"prompt.mode", `a string: "append" or "replace"`},
}

type fileModel struct {
	BaseURL   *cfgURL     `toml:"base_url"`
	Model     *string     `toml:"model"`
	APIKeyEnv *cfgEnvName `toml:"api_key_env"`
	// APIKey is decoded only to be refused with a pointed message; it is not in the schema, so
	// it is never listed as a known key.
	APIKey          any          `toml:"api_key"`
	Azure           *bool        `toml:"azure"`
	AzureAPIVersion *string      `toml:"azure_api_version"`
	Timeout         *cfgDuration `toml:"timeout"`
	MaxTokens       *int         `toml:"max_tokens"`
	Seed            *int         `toml:"seed"`
}

type fileReview struct {
	Deadline             *cfgDuration        `toml:"deadline"`
	AllowCeiling         *cfgCeiling         `toml:"allow_ceiling"`
	UnsupportedModelDeny *cfgUnsupported     `toml:"unsupported_model_deny"`
	CacheTTL             *cfgDuration        `toml:"cache_ttl"`
	CacheSize            *int                `toml:"cache_size"`
	DenialsBreaker       *fileDenialsBreaker `toml:"denials_breaker"`
	ModelBreaker         *fileModelBreaker   `toml:"model_breaker"`
}

type fileDenialsBreaker struct {
	Consecutive *int `toml:"consecutive"`
	Window      *int `toml:"window"`
	InWindow    *int `toml:"in_window"`
}

type fileModelBreaker struct {
	Failures *int         `toml:"failures"`
	Cooldown *cfgDuration `toml:"cooldown"`
}

type filePrompt struct {
	Policy *string        `toml:"policy"`
	Mode   *cfgPolicyMode `toml:"mode"`
}

type cfgDuration struct {
	v   time.Duration
	raw string
}

func (d *cfgDuration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf(`invalid duration %q; write a Go duration string such as "3s", "1500ms" or "10m" (units: ms, s, m, h)`, b)
	}
	d.v, d.raw = v, string(b)
	return nil
}

type cfgURL struct{ v string }

func (u *cfgURL) UnmarshalText(b []byte) error {
	if err := checkBaseURL(string(b)); err != nil {
		return err
	}
	u.v = string(b)
	return nil
}

func checkBaseURL(s string) error {
	return checkHTTPURL(s, "base URL", "the API root", "http://127.0.0.1:11434/v1", "put the key in the environment variable named by api_key_env")
}

// checkHTTPURL accepts absolute http(s) URLs with a host and without credentials. The
// messages name the URL as what, say to write whatToWrite like example, and end a refusal of
// credentials with credsFix.
func checkHTTPURL(s, what, whatToWrite, example, credsFix string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Errorf("invalid %s %q: %v; write %s, e.g. %q", what, s, err, whatToWrite, example)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%s %q must start with http:// or https://, e.g. %q", what, s, example)
	case u.Host == "":
		return fmt.Errorf("%s %q has no host; write it in full, e.g. %q", what, s, example)
	case u.User != nil:
		return fmt.Errorf("%s %q carries credentials; remove them and %s", what, u.Redacted(), credsFix)
	}
	return nil
}

var envNameRE = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_]*$`)

type cfgEnvName struct{ v string }

func (e *cfgEnvName) UnmarshalText(b []byte) error {
	s := string(b)
	if !envNameRE().MatchString(s) || strings.HasPrefix(s, "sk") && len(s) > 30 {
		return fmt.Errorf(`api_key_env must be the NAME of the environment variable holding the key (letters, digits, _), such as "GUARDIAN_API_KEY", not the key itself; if you pasted a key here, remove it and rotate it`)
	}
	e.v = s
	return nil
}

type cfgCeiling struct{ v riskmodel.Level }

func (c *cfgCeiling) UnmarshalText(b []byte) error {
	l, err := riskmodel.ParseLevel(string(b))
	switch {
	case err != nil:
		return fmt.Errorf(`unknown allow ceiling %q; use "low", "medium" or "high"`, b)
	case l == riskmodel.Critical:
		return errors.New(`allow_ceiling = "critical" would let the model allow critical requests (rm -rf ~, credential exfiltration); use "high" at most`)
	}
	c.v = l
	return nil
}

type cfgUnsupported struct{ v riskmodel.Decision }

func (u *cfgUnsupported) UnmarshalText(b []byte) error {
	switch string(b) {
	case "deny":
		u.v = riskmodel.Deny
	case "ask":
		u.v = riskmodel.Ask
	default:
		return fmt.Errorf(`unknown unsupported_model_deny %q; use "deny" (trust the model's deny) or "ask" (let the human overrule it)`, b)
	}
	return nil
}

type cfgPolicyMode struct{ v prompts.PolicyMode }

func (m *cfgPolicyMode) UnmarshalText(b []byte) error {
	switch v := prompts.PolicyMode(b); v {
	case prompts.ModeAppend, prompts.ModeReplace:
		m.v = v
		return nil
	}
	return fmt.Errorf(`unknown prompt mode %q; use "append" (add your policy to the built-in one) or "replace" (use yours instead), or remove [prompt] to keep the built-in policy alone`, b)
}

// reviewSettings is what a file's [review] table sets, after validation; nil fields are unset.
type reviewSettings struct {
	deadline, cacheTTL *time.Duration
	ceiling            *riskmodel.Level
	unsupported        *riskmodel.Decision
	cacheSize          *int
	denials            *DenialsBreakerConfig
	model              *ModelBreakerConfig
}

// apply sets the fields of r that the file sets.
func (s reviewSettings) apply(r *ReviewConfig) {
	if s.deadline != nil {
		r.Deadline = *s.deadline
	}
	if s.ceiling != nil {
		r.AllowCeiling = *s.ceiling
	}
	if s.unsupported != nil {
		r.UnsupportedDeny = *s.unsupported
	}
	if s.cacheTTL != nil {
		r.CacheTTL = *s.cacheTTL
	}
	if s.cacheSize != nil {
		r.CacheSize = *s.cacheSize
	}
	if s.denials != nil {
		d := *s.denials
		r.DenialsBreaker = &d
	}
	if s.model != nil {
		r.ModelBreaker = *s.model
	}
}

// fmtDuration writes whole hours or seconds the way a user would ("24h", "60s").
func fmtDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}

// checkDuration reports a duration outside (0, max] (or [0, max] when zero is allowed).
func (pf *parsedFile) checkDuration(p string, d *cfgDuration, zeroOK bool, max time.Duration, hint string) bool {
	if d.v < 0 || d.v == 0 && !zeroOK || d.v > max {
		low := "more than 0"
		if zeroOK {
			low = "0 or more"
		}
		pf.addAt(p, pf.ix.valuePos(p), fmt.Sprintf("%q is out of range: it must be %s and at most %s; %s", d.raw, low, fmtDuration(max), hint))
		return false
	}
	return true
}

func (pf *parsedFile) validateModel() {
	fm := pf.fc.Model
	if fm == nil {
		return
	}
	m := &ModelConfig{}
	ok := true
	if pf.ix.has("model.api_key") {
		pf.addAt("model.api_key", pf.ix.find("model.api_key"), `the API key must not be written in a config file (files get shared and committed); put it in an environment variable and name that variable instead: api_key_env = "GUARDIAN_API_KEY" (the default). If this key was real, rotate it`)
		ok = false
	}
	if fm.BaseURL != nil {
		m.BaseURL = fm.BaseURL.v
	}
	switch {
	case fm.Model == nil:
		pf.add("model.model", `[model] needs model = "<name>" (the deployment name with Azure), e.g. model = "qwen2.5-coder:7b"; remove [model] to run on rules only`)
		ok = false
	case strings.TrimSpace(*fm.Model) == "":
		pf.addAt("model.model", pf.ix.valuePos("model.model"), `empty model name; name the model, e.g. model = "qwen2.5-coder:7b"`)
		ok = false
	default:
		m.Model = *fm.Model
	}
	if fm.APIKeyEnv != nil {
		m.APIKeyEnv = fm.APIKeyEnv.v
	}
	if fm.Azure != nil {
		m.Azure = *fm.Azure
	}
	if m.Azure && m.BaseURL == "" {
		pf.add("model.azure", `azure = true needs base_url = "https://NAME.openai.azure.com" (the resource URL)`)
		ok = false
	}
	if fm.AzureAPIVersion != nil {
		switch {
		case !m.Azure:
			pf.add("model.azure_api_version", "azure_api_version applies only to Azure OpenAI; set azure = true or remove it")
			ok = false
		case strings.TrimSpace(*fm.AzureAPIVersion) == "":
			pf.addAt("model.azure_api_version", pf.ix.valuePos("model.azure_api_version"), `empty azure_api_version; write one such as "2024-10-21", or remove it for the default`)
			ok = false
		default:
			m.AzureAPIVersion = *fm.AzureAPIVersion
		}
	}
	if fm.Timeout != nil {
		if pf.checkDuration("model.timeout", fm.Timeout, false, MaxModelTimeout, `it caps one attempt, e.g. "3s"; [review] deadline bounds the whole review`) {
			m.Timeout = fm.Timeout.v
		} else {
			ok = false
		}
	}
	if fm.MaxTokens != nil {
		if n := *fm.MaxTokens; n < 1 || n > MaxModelTokens {
			pf.addAt("model.max_tokens", pf.ix.valuePos("model.max_tokens"), fmt.Sprintf("max_tokens = %d is out of range: it must be 1 to %d; a verdict needs a few hundred tokens, e.g. 512", n, MaxModelTokens))
			ok = false
		} else {
			m.MaxTokens = n
		}
	}
	if fm.Seed != nil {
		m.Seed = *fm.Seed
	}
	if ok {
		pf.model = m
	}
}

func (pf *parsedFile) validateReview() {
	fr := pf.fc.Review
	if fr == nil {
		return
	}
	s := &pf.review
	if fr.Deadline != nil && pf.checkDuration("review.deadline", fr.Deadline, false, MaxReviewDeadline,
		`keep it below the host's hook timeout so the host never kills guardian first, e.g. "4s" for a 5 s hook`) {
		s.deadline = &fr.Deadline.v
	}
	if fr.AllowCeiling != nil {
		s.ceiling = &fr.AllowCeiling.v
	}
	if fr.UnsupportedModelDeny != nil {
		s.unsupported = &fr.UnsupportedModelDeny.v
	}
	if fr.CacheTTL != nil && pf.checkDuration("review.cache_ttl", fr.CacheTTL, true, MaxCacheTTL, `"0s" disables the cache; "10m" is typical`) {
		s.cacheTTL = &fr.CacheTTL.v
	}
	if fr.CacheSize != nil {
		if n := *fr.CacheSize; n < 1 || n > MaxCacheSize {
			pf.addAt("review.cache_size", pf.ix.valuePos("review.cache_size"), fmt.Sprintf(`cache_size = %d is out of range: it must be 1 to %d (to disable the cache, set cache_ttl = "0s")`, n, MaxCacheSize))
		} else {
			s.cacheSize = &n
		}
	}
	if db := fr.DenialsBreaker; db != nil {
		pf.validateDenials(db)
	}
	if mb := fr.ModelBreaker; mb != nil {
		c := ModelBreakerConfig{}
		ok := true
		if mb.Failures != nil {
			switch n := *mb.Failures; {
			case n == 0:
				pf.addAt("review.model_breaker.failures", pf.ix.valuePos("review.model_breaker.failures"), "failures = 0 is ambiguous; use a positive count (e.g. 3) to open the breaker after that many consecutive model failures, or -1 to disable the breaker")
				ok = false
			case n < 0:
				c.Failures = -1
			default:
				c.Failures = n
			}
		}
		if mb.Cooldown != nil {
			if pf.checkDuration("review.model_breaker.cooldown", mb.Cooldown, false, MaxBreakerCooldown, `it is how long the model is skipped after the breaker opens, e.g. "60s"`) {
				c.Cooldown = mb.Cooldown.v
			} else {
				ok = false
			}
		}
		if ok {
			s.model = &c
		}
	}
}

func (pf *parsedFile) validateDenials(db *fileDenialsBreaker) {
	const p = "review.denials_breaker."
	vals := map[string]*int{"consecutive": db.Consecutive, "window": db.Window, "in_window": db.InWindow}
	eff := map[string]int{"consecutive": DefaultDenialsConsecutive, "window": DefaultDenialsWindow, "in_window": DefaultDenialsInWindow}
	ok := true
	for _, k := range []string{"consecutive", "window", "in_window"} {
		v := vals[k]
		if v == nil {
			continue
		}
		switch {
		case *v < 0:
			pf.addAt(p+k, pf.ix.valuePos(p+k), fmt.Sprintf("%s = %d is negative; use a positive count, or 0 to switch this trigger off", k, *v))
			ok = false
		case *v == 0 && k == "window":
			pf.addAt(p+k, pf.ix.valuePos(p+k), "window = 0 remembers no decisions; use a positive count (e.g. 20), or in_window = 0 to switch the window trigger off")
			ok = false
		default:
			eff[k] = *v
		}
	}
	if !ok {
		return
	}
	if eff["consecutive"] == 0 && eff["in_window"] == 0 {
		pf.add(p[:len(p)-1], "consecutive = 0 and in_window = 0 switch both triggers off; remove [review.denials_breaker] to turn the breaker off")
		return
	}
	if eff["in_window"] > eff["window"] {
		key := p + "in_window"
		if db.InWindow == nil {
			key = p + "window"
		}
		pf.addAt(key, pf.ix.valuePos(key), fmt.Sprintf("in_window = %d can never be reached in a window of %d decisions; make in_window at most window", eff["in_window"], eff["window"]))
		return
	}
	c := DenialsBreakerConfig{}
	for k, dst := range map[string]*int{"consecutive": &c.Consecutive, "window": &c.Window, "in_window": &c.InWindow} {
		if v := vals[k]; v != nil {
			*dst = *v
			if *v == 0 {
				*dst = -1 // the breaker's "off"; its 0 means "default"
			}
		}
	}
	pf.review.denials = &c
}

func (pf *parsedFile) validatePrompt() {
	fp := pf.fc.Prompt
	if fp == nil {
		return
	}
	switch {
	case fp.Policy != nil && fp.Mode == nil:
		pf.add("prompt.policy", `policy is set but mode is not; say how it combines with the built-in policy: mode = "append" (add to it) or mode = "replace" (use yours instead)`)
	case fp.Policy == nil && fp.Mode != nil:
		pf.add("prompt.mode", `mode is set but there is no policy text; add policy = "…", or remove [prompt]`)
	case fp.Policy == nil:
	case strings.TrimSpace(*fp.Policy) == "":
		pf.addAt("prompt.policy", pf.ix.valuePos("prompt.policy"), `empty policy text; write your policy, or remove [prompt] to keep the built-in policy alone`)
	case len(*fp.Policy) > prompts.MaxPolicyBytes:
		pf.addAt("prompt.policy", pf.ix.valuePos("prompt.policy"), fmt.Sprintf("policy text is %d bytes, the limit is %d: it is sent with every review; shorten it", len(*fp.Policy), prompts.MaxPolicyBytes))
	default:
		pf.prompt = PromptConfig{Policy: *fp.Policy, Mode: fp.Mode.v}
	}
}

// ---- project files ---------------------------------------------------------------------------

// findProjectFile walks up from dir to the repository root (the first directory holding .git)
// or "/", returning the first ProjectConfigFile found, or "".
func findProjectFile(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("project directory %s: %w", dir, err)
	}
	for {
		f := filepath.Join(d, ProjectConfigFile)
		st, err := os.Stat(f)
		switch {
		case err == nil && st.Mode().IsRegular():
			return f, nil
		case err == nil:
			return "", fmt.Errorf("project config %s is not a regular file", f)
		case !errors.Is(err, fs.ErrNotExist):
			// Failing closed: an unreadable project file may hold restrictions.
			return "", fmt.Errorf("cannot check for a project config: %w", err)
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return "", nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", nil
		}
		d = parent
	}
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// trusts reports whether the user's trusted_projects covers dir. "~" is expanded against the
// configured home, else the real one: trust is about this machine's directories, not the
// agent's view of them. dir is matched as written and with symlinks resolved.
func (c Config) trusts(dir string) bool {
	home := c.trustHome()
	cands := []string{filepath.ToSlash(filepath.Clean(dir))}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		cands = append(cands, filepath.ToSlash(r))
	}
	for _, g := range c.TrustedProjects {
		pat := g
		if g == "~" || strings.HasPrefix(g, "~/") {
			if home == "" {
				continue
			}
			pat = path.Join(filepath.ToSlash(home), strings.TrimPrefix(g[1:], "/"))
		}
		for _, d := range cands {
			if riskmodel.MatchPathGlob(pat, d, false) {
				return true
			}
		}
	}
	return false
}

// trustHome is what "~" means in trusted_projects: the configured home, else the real one.
func (c Config) trustHome() string {
	if c.Policy.Home != "" {
		return c.Policy.Home
	}
	home, _ := os.UserHomeDir()
	return home
}

// tildePath writes dir as ~/… when it is below the trust home, as a user would in
// trusted_projects.
func (c Config) tildePath(dir string) string {
	home := c.trustHome()
	if rel, err := filepath.Rel(home, dir); home != "" && err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return "~/" + filepath.ToSlash(rel)
	}
	return filepath.ToSlash(dir)
}

// userConfigPath is the user config named in "add this project to trusted_projects in …".
func (c Config) userConfigPath() string {
	if len(c.Sources) > 0 && filepath.Base(c.Sources[0]) != ProjectConfigFile {
		return c.Sources[0]
	}
	return "~/.config/guardian/config.toml"
}

// merge applies a parsed project file to c.
func (c Config) merge(pf *parsedFile, trusted bool) (Config, error) {
	out := Config{
		Policy: riskmodel.Policy{
			Workspaces:     slices.Clone(c.Policy.Workspaces),
			Home:           c.Policy.Home,
			ProtectedPaths: slices.Clone(c.Policy.ProtectedPaths),
			TrustedHosts:   slices.Clone(c.Policy.TrustedHosts),
			Rules:          slices.Clone(c.Policy.Rules),
		},
		Fallback:        c.Fallback,
		TrustedProjects: slices.Clone(c.TrustedProjects),
		Review:          c.Review,
		Prompt:          c.Prompt,
		Audit:           c.Audit,
		MCP:             c.MCP.clone(),
		Store:           c.Store,
		Notify:          c.Notify.clone(),
		Sources:         append(slices.Clone(c.Sources), pf.path),
	}
	if c.Model != nil {
		m := *c.Model
		out.Model = &m
	}
	if c.Review.DenialsBreaker != nil {
		d := *c.Review.DenialsBreaker
		out.Review.DenialsBreaker = &d
	}
	if c.Policy.Mapping != nil {
		out.Policy.Mapping = make(map[riskmodel.Kind]riskmodel.Mapping, len(c.Policy.Mapping))
		for k, m := range c.Policy.Mapping {
			out.Policy.Mapping[k] = m
		}
	}
	fix := fmt.Sprintf("add this project to trusted_projects in %s to allow it (e.g. trusted_projects = [%q])",
		c.userConfigPath(), c.tildePath(filepath.Dir(pf.path)))
	loosen := func(p, what string) {
		pf.add(p, fmt.Sprintf("%s, but this project is not trusted, so its %s may only add restrictions; %s", what, ProjectConfigFile, fix))
	}
	if pf.ix.has("trusted_projects") {
		pf.add("trusted_projects", fmt.Sprintf("only the user config may list trusted projects, so that a repository cannot vouch for itself; list them in %s", c.userConfigPath()))
	}
	c.refuseProjectAudit(pf)
	c.refuseProjectMCP(pf)
	c.refuseProjectStore(pf)
	c.refuseProjectNotify(pf)
	p := pf.policy
	if pf.fc.Home != nil && p.Home != c.Policy.Home {
		if trusted {
			out.Policy.Home = p.Home
		} else {
			loosen("home", "home changes what ~ means in every path")
		}
	}
	if len(p.Workspaces) > 0 {
		if trusted {
			out.Policy.Workspaces = append(out.Policy.Workspaces, p.Workspaces...)
		} else {
			loosen("workspaces", "workspaces widen where the agent may change files freely")
		}
	}
	if len(p.TrustedHosts) > 0 {
		if trusted {
			out.Policy.TrustedHosts = append(out.Policy.TrustedHosts, p.TrustedHosts...)
		} else {
			loosen("trusted_hosts", "trusted_hosts make downloads from more hosts low risk")
		}
	}
	out.Policy.ProtectedPaths = append(out.Policy.ProtectedPaths, p.ProtectedPaths...)
	if pf.fallback != "" {
		if !trusted && pf.fallback == FallbackAsk && c.Fallback == FallbackHeadless {
			loosen("fallback", `fallback = "ask" would let reviewer failures wait for a human where the user config denies them (headless)`)
		} else {
			out.Fallback = pf.fallback
		}
	}
	ids := map[string]bool{}
	for _, r := range c.Policy.Rules {
		ids[r.ID] = true
	}
	for i, r := range p.Rules {
		if !trusted && r.Decision == riskmodel.Allow {
			loosen(fmt.Sprintf("rule[%d].decision", i), `decision = "allow" would let matching requests through unreviewed`)
		}
		if ids[r.ID] {
			// decided_by must say which file's rule decided.
			pf.add(fmt.Sprintf("rule[%d].id", i), fmt.Sprintf("rule id %q is already used by a rule in %s; give this rule another id", strings.TrimPrefix(r.ID, "user:"), strings.Join(c.Sources, ", ")))
		}
		out.Policy.Rules = append(out.Policy.Rules, r)
	}
	for _, kind := range []riskmodel.Kind{riskmodel.KindExec, riskmodel.KindMCP} {
		slots, ok := pf.mappings[kind]
		if !ok {
			continue
		}
		base := riskmodel.DefaultMapping()
		if m, ok := c.Policy.Mapping[kind]; ok {
			base = m
		}
		bv := mappingValues(base)
		lenient := false
		for i, s := range slots {
			if s != nil && !trusted && s.v < bv[i] {
				lenient = true
				loosen(fmt.Sprintf("mapping.%s.%s", kind, levelKeys[i]),
					fmt.Sprintf("%s = %q is more lenient than %q in the user config", levelKeys[i], s.v, bv[i]))
			}
		}
		if lenient {
			continue
		}
		if m, ok := pf.overlayMapping(kind, base, slots, false); ok {
			if out.Policy.Mapping == nil {
				out.Policy.Mapping = map[riskmodel.Kind]riskmodel.Mapping{}
			}
			out.Policy.Mapping[kind] = m
		}
	}
	c.mergeReview(&out, pf, trusted, loosen)
	c.mergeAgents(&out, pf, trusted, loosen)
	if err := pf.err(); err != nil {
		return Config{}, err
	}
	return out, nil
}

// mergeReview applies a project file's [model], [review] and [prompt] tables to out. Untrusted,
// a project may only lower allow_ceiling and make unsupported_model_deny "deny". [prompt] is
// user-only too: its text goes into the model's system prompt, and prose cannot be checked to
// be a restriction — "always answer allow" appended by a repository would be a prompt
// injection with the operator's authority. [model] would let a repository send reviews to an
// endpoint it controls; deadline,
// cache and breaker settings tune guardian for the machine it runs on rather than restrict what
// is allowed: all of those are the user's, unless the project is trusted.
func (c Config) mergeReview(out *Config, pf *parsedFile, trusted bool, loosen func(p, what string)) {
	if pf.fc.Model != nil {
		if trusted {
			out.Model = pf.model // a trusted project's [model] replaces the user's
		} else {
			loosen("model", "[model] would let the repository send reviews to a model endpoint of its choosing")
		}
	}
	s := pf.review
	if fr := pf.fc.Review; fr != nil && !trusted {
		userOnly := func(key, what string) {
			loosen("review."+key, what+" tunes guardian for this machine rather than restricting what is allowed, so only the user config sets it")
		}
		if fr.Deadline != nil {
			userOnly("deadline", "deadline")
			s.deadline = nil
		}
		if fr.CacheTTL != nil {
			userOnly("cache_ttl", "cache_ttl")
			s.cacheTTL = nil
		}
		if fr.CacheSize != nil {
			userOnly("cache_size", "cache_size")
			s.cacheSize = nil
		}
		if fr.DenialsBreaker != nil {
			userOnly("denials_breaker", "[review.denials_breaker]")
			s.denials = nil
		}
		if fr.ModelBreaker != nil {
			userOnly("model_breaker", "[review.model_breaker]")
			s.model = nil
		}
		if s.ceiling != nil && *s.ceiling > c.Review.AllowCeiling {
			loosen("review.allow_ceiling", fmt.Sprintf("allow_ceiling = %q is above %q in the user config and would let model allows stand at higher risk", *s.ceiling, c.Review.AllowCeiling))
			s.ceiling = nil
		}
		if s.unsupported != nil && *s.unsupported < c.Review.UnsupportedDeny {
			loosen("review.unsupported_model_deny", fmt.Sprintf("unsupported_model_deny = %q would let the human overrule model denies that the user config keeps (%q)", *s.unsupported, c.Review.UnsupportedDeny))
			s.unsupported = nil
		}
	}
	s.apply(&out.Review)
	p := pf.prompt
	switch {
	case p.Mode != prompts.ModeNone && !trusted:
		loosen("prompt.mode", "[prompt] text goes into the model's system prompt, where a repository's words would carry the operator's authority (and prose cannot be checked to only restrict)")
	case p.Mode == prompts.ModeReplace:
		out.Prompt = p
	case p.Mode == prompts.ModeAppend && out.Prompt.Mode == prompts.ModeNone:
		out.Prompt = p
	case p.Mode == prompts.ModeAppend:
		// The project's text goes after the user's, whatever the user's mode.
		out.Prompt.Policy = strings.TrimRight(out.Prompt.Policy, "\n") + "\n\n" + p.Policy
		if len(out.Prompt.Policy) > prompts.MaxPolicyBytes {
			pf.add("prompt.policy", fmt.Sprintf("the user's and this project's policy text together are %d bytes, the limit is %d; shorten it", len(out.Prompt.Policy), prompts.MaxPolicyBytes))
		}
	}
}

// ---- locating keys ---------------------------------------------------------------------------

type docPos struct{ line, col int }

type docSpan struct {
	path       string
	start, end int
}

// docIndex maps index paths ("fallback", "rule[1].decision", "workspaces[2]",
// "mapping.exec.low") to where they are written. It is built with go-toml's own parser
// (package unstable), so it agrees with the decoder on quoting, inline tables and multi-line
// strings, and is what lets checks made after decoding name a line.
type docIndex struct {
	keys        map[string]docPos // key-values and array elements
	kinds       map[string]unstable.Kind
	values      map[string]docPos // where each value starts, when the parser records it
	headers     map[string]docPos // [table] and [[array]] headers, inline-table elements
	plainTables map[string]docPos // tables written [x], to catch [rule] for [[rule]]
	tables      []docSpan         // [table] and [[array]] headers in file order (start = line)
	spans       []docSpan         // every key-value, to name the key at an error position
	lineStarts  []int
	data        []byte
}

func indexDocument(data []byte) *docIndex {
	ix := &docIndex{keys: map[string]docPos{}, kinds: map[string]unstable.Kind{}, values: map[string]docPos{}, headers: map[string]docPos{}, plainTables: map[string]docPos{}, lineStarts: []int{0}, data: data}
	for i, b := range data {
		if b == '\n' {
			ix.lineStarts = append(ix.lineStarts, i+1)
		}
	}
	var p unstable.Parser
	p.Reset(data)
	table := ""
	arrays := map[string]int{}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			name, pos := ix.keyName(&p, e)
			if e.Kind == unstable.ArrayTable {
				n := arrays[name]
				arrays[name]++
				name = fmt.Sprintf("%s[%d]", name, n)
			} else {
				ix.plainTables[name] = pos
			}
			table = name
			ix.headers[name] = pos
			ix.tables = append(ix.tables, docSpan{path: name, start: pos.line})
		case unstable.KeyValue:
			ix.keyValue(&p, e, table)
		}
	}
	return ix
}

func joinPath(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

func (ix *docIndex) pos(p *unstable.Parser, r unstable.Range) docPos {
	s := p.Shape(r).Start
	return docPos{s.Line, s.Column}
}

// nodePos is where a value node starts. The parser records no range for arrays, so an array
// is located by its first element.
func (ix *docIndex) nodePos(p *unstable.Parser, n *unstable.Node) (docPos, bool) {
	off, ok := ix.nodeOffset(n)
	if !ok {
		return docPos{}, false
	}
	line := sort.Search(len(ix.lineStarts), func(i int) bool { return ix.lineStarts[i] > off })
	return docPos{line, off - ix.lineStarts[line-1] + 1}, true
}

func (ix *docIndex) nodeOffset(n *unstable.Node) (int, bool) {
	if n.Raw.Length > 0 {
		return int(n.Raw.Offset), true
	}
	if n.Kind != unstable.Array || !n.Child().Valid() {
		return 0, false
	}
	off, ok := ix.nodeOffset(n.Child())
	if !ok {
		return 0, false
	}
	// Back up from the first element over blanks to the opening bracket.
	i := off - 1
	for i >= 0 && strings.IndexByte(" \t\r\n", ix.data[i]) >= 0 {
		i--
	}
	if i >= 0 && ix.data[i] == '[' {
		return i, true
	}
	return off, true
}

// keyName returns the dotted key of a table header or key-value and where it starts.
func (ix *docIndex) keyName(p *unstable.Parser, n *unstable.Node) (string, docPos) {
	var parts []string
	var pos docPos
	it := n.Key()
	for it.Next() {
		k := it.Node()
		if len(parts) == 0 {
			pos = ix.pos(p, k.Raw)
		}
		parts = append(parts, string(k.Data))
	}
	return strings.Join(parts, "."), pos
}

func (ix *docIndex) keyValue(p *unstable.Parser, kv *unstable.Node, prefix string) {
	name, pos := ix.keyName(p, kv)
	full := joinPath(prefix, name)
	ix.keys[full] = pos
	ix.kinds[full] = kv.Value().Kind
	if pos, ok := ix.nodePos(p, kv.Value()); ok {
		ix.values[full] = pos
	}
	ix.spans = append(ix.spans, docSpan{full, int(kv.Raw.Offset), int(kv.Raw.Offset + kv.Raw.Length)})
	ix.value(p, kv.Value(), full)
}

func (ix *docIndex) value(p *unstable.Parser, v *unstable.Node, full string) {
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				ix.keyValue(p, c, full)
			}
		}
	case unstable.Array:
		it := v.Children()
		for i := 0; it.Next(); i++ {
			c := it.Node()
			ep := fmt.Sprintf("%s[%d]", full, i)
			if pos, ok := ix.nodePos(p, c); ok {
				ix.keys[ep] = pos
				ix.values[ep] = pos
			}
			ix.kinds[ep] = c.Kind
			ix.value(p, c, ep)
		}
	}
}

// valuePos is where the value of p starts, else where its key does.
func (ix *docIndex) valuePos(p string) docPos {
	if pos, ok := ix.values[p]; ok {
		return pos
	}
	return ix.find(p)
}

func (ix *docIndex) has(p string) bool {
	_, ok := ix.keys[p]
	return ok
}

// find locates an index path, falling back to its closest written ancestor (a missing key is
// reported at its table's header).
func (ix *docIndex) find(p string) docPos {
	for p != "" {
		if pos, ok := ix.keys[p]; ok {
			return pos
		}
		if pos, ok := ix.headers[p]; ok {
			return pos
		}
		// A table written only through dotted keys (mapping.exec.low = …): its first key.
		var first docPos
		for k, pos := range ix.keys {
			if strings.HasPrefix(k, p+".") && (first.line == 0 || pos.line < first.line || pos.line == first.line && pos.col < first.col) {
				first = pos
			}
		}
		if first.line > 0 {
			return first
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return docPos{}
}

// outerSpanAt is the top-level key-value whose text covers line:col: the smallest unit that
// can be blanked out of a file and leave it valid TOML.
func (ix *docIndex) outerSpanAt(line, col int) (docSpan, bool) {
	if line < 1 || line > len(ix.lineStarts) {
		return docSpan{}, false
	}
	return ix.outerSpanAtOffset(ix.lineStarts[line-1] + col - 1)
}

// outerSpanAtOffset is the top-level key-value whose text covers the byte offset off.
func (ix *docIndex) outerSpanAtOffset(off int) (docSpan, bool) {
	var best docSpan
	found := false
	for _, s := range ix.spans {
		if off >= s.start && off < s.end && (!found || s.end-s.start > best.end-best.start) {
			best, found = s, true
		}
	}
	return best, found
}

// keyAt names the innermost key-value whose text covers line:col.
func (ix *docIndex) keyAt(line, col int) string {
	if line < 1 || line > len(ix.lineStarts) {
		return ""
	}
	off := ix.lineStarts[line-1] + col - 1
	best, bestLen := "", -1
	for _, s := range ix.spans {
		if off >= s.start && off < s.end && (bestLen < 0 || s.end-s.start <= bestLen) {
			best, bestLen = s.path, s.end-s.start
		}
	}
	return best
}

var bareKeyRE = lazyRegexp(`^\s*([A-Za-z0-9_-]+(?:\s*\.\s*[A-Za-z0-9_-]+)*)\s*=`)

// keyOnLine names the key a line assigns, for syntax errors the parser reports without one:
// the bare key at the start of the line, inside the last table header above it.
func (ix *docIndex) keyOnLine(line int) string {
	if line < 1 || line > len(ix.lineStarts) {
		return ""
	}
	text := ix.data[ix.lineStarts[line-1]:]
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	m := bareKeyRE().FindSubmatch(text)
	if m == nil {
		return ""
	}
	key := strings.Join(strings.Fields(strings.ReplaceAll(string(m[1]), ".", " ")), ".")
	table := ""
	for _, t := range ix.tables {
		if t.start < line {
			table = t.path
		}
	}
	return joinPath(table, key)
}

var indexRE = lazyRegexp(`\[\d+\]`)

// displayKey turns an index path into the key as the user writes it: "rule[2].decision" →
// "rule.decision".
func displayKey(p string) string { return indexRE().ReplaceAllString(p, "") }
