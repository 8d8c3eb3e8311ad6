package guardian

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

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
	// Sources lists the files this Config was read from, user config first, so that "which
	// file said that?" has an answer in logs and in `guardian` diagnostics.
	Sources []string
}

// DefaultConfig is the configuration used when there is no config file: the zero
// riskmodel.Policy (the cwd is the workspace, home is inferred, default mappings, no user
// rules) and fallback ask, which keeps a human in the loop whenever the reviewer fails.
func DefaultConfig() Config {
	return Config{Fallback: FallbackAsk}
}

// DefaultConfigPath is where the user config is looked for when no --config is given:
// $GUARDIAN_CONFIG if set, else $XDG_CONFIG_HOME/guardian/config.toml (XDG_CONFIG_HOME must be
// absolute, as the XDG spec requires), else ~/.config/guardian/config.toml — the same path on
// Linux and macOS, so that dotfiles can be shared. It returns "" when no home directory is
// known.
func DefaultConfigPath() string {
	if p := os.Getenv("GUARDIAN_CONFIG"); p != "" {
		return p
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "guardian", "config.toml")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "guardian", "config.toml")
}

// LoadUserConfig loads the user config. An explicit path (from --config) must exist, and so
// must a file named by $GUARDIAN_CONFIG, because a typo there would otherwise silently drop
// the user's restrictions. The implicit default path may be missing: then the result is
// DefaultConfig().
func LoadUserConfig(explicit string) (Config, error) {
	if explicit != "" {
		return LoadConfig(explicit)
	}
	if os.Getenv("GUARDIAN_CONFIG") != "" {
		return LoadConfig(os.Getenv("GUARDIAN_CONFIG"))
	}
	p := DefaultConfigPath()
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
}

type fileRule struct {
	ID       *string      `toml:"id"`
	Kind     *cfgKind     `toml:"kind"`
	Decision *cfgDecision `toml:"decision"`
	Prefix   []string     `toml:"prefix"`
	Glob     *cfgRuleGlob `toml:"glob"`
	Regex    *cfgRegex    `toml:"regex"`
	Reason   string       `toml:"reason"`
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

var levelKeys = [5]string{"low", "medium_contained", "medium", "high", "critical"}

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
		{"mapping.exec", "a table of levels: low, medium_contained, medium, high, critical"},
		{"mapping.mcp", "a table of levels: low, medium_contained, medium, high, critical"},
	}
	for _, k := range []string{"exec", "mcp"} {
		for _, l := range levelKeys {
			s = append(s, schemaKey{"mapping." + k + "." + l, dec})
		}
	}
	return s
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
	return key == "" || key == "rule" || key == "mapping" || key == "mapping.exec" || key == "mapping.mcp"
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
	// mappings records, per kind the file sets, which levels it sets explicitly.
	mappings map[riskmodel.Kind][5]*cfgDecision
}

func parseConfigFile(file string, data []byte, role fileRole) (*parsedFile, error) {
	pf := &parsedFile{path: file, ix: indexDocument(data)}
	if pf.checkTypes(); len(pf.probs) > 0 {
		return nil, pf.err()
	}
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&pf.fc); err != nil {
		pf.decodeProblems(err)
		return nil, pf.err()
	}
	pf.validate(role)
	if err := pf.err(); err != nil {
		return nil, err
	}
	return pf, nil
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
		Message: fmt.Sprintf("key %q: %s", k, msg)})
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

var mismatchRE = regexp.MustCompile(`^cannot decode TOML (\w+) into `)

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
	case mismatchRE.MatchString(msg):
		got := mismatchRE.FindStringSubmatch(msg)[1]
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
		if ur.Kind == riskmodel.KindMCP {
			for _, m := range set {
				if m != "glob" {
					pf.add(rp+"."+m, fmt.Sprintf(`%s applies to exec rules only; an mcp rule matches "server/tool" with glob, e.g. glob = "github/list_*"`, m))
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
		switch len(set) {
		case 0:
			pf.add(rp, `an exec rule needs exactly one of prefix, glob or regex; add one, e.g. prefix = ["make"]`)
		case 1:
		default:
			first := pf.ix.find(rp + "." + set[0])
			for _, m := range set[1:] {
				pf.add(rp+"."+m, fmt.Sprintf("a rule takes exactly one of prefix, glob or regex, but this one also sets %s on line %d; keep one, or split it into two [[rule]]s", set[0], first.line))
			}
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

func (fm *fileMapping) slots() [5]*cfgDecision {
	return [5]*cfgDecision{fm.Low, fm.MediumContained, fm.Medium, fm.High, fm.Critical}
}

func mappingValues(m riskmodel.Mapping) [5]riskmodel.Decision {
	return [5]riskmodel.Decision{m.Low, m.MediumContained, m.Medium, m.High, m.Critical}
}

func mappingOf(v [5]riskmodel.Decision) riskmodel.Mapping {
	return riskmodel.Mapping{Low: v[0], MediumContained: v[1], Medium: v[2], High: v[3], Critical: v[4]}
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
			pf.mappings = map[riskmodel.Kind][5]*cfgDecision{}
		}
		slots := km.fm.slots()
		pf.mappings[km.kind] = slots
		if role == roleProject {
			continue // checked against the user's mapping when merged
		}
		m, ok := pf.overlayMapping(km.kind, riskmodel.DefaultMapping(), slots)
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
// explicit level that breaks it.
func (pf *parsedFile) overlayMapping(kind riskmodel.Kind, base riskmodel.Mapping, slots [5]*cfgDecision) (riskmodel.Mapping, bool) {
	vals := mappingValues(base)
	var explicit [5]bool
	for i, s := range slots {
		if s != nil {
			vals[i], explicit[i] = s.v, true
		}
	}
	m := mappingOf(vals)
	prefix := "mapping." + string(kind) + "."
	const fix = "make each level at least as strict as the one below it (low, medium_contained, medium, high, critical; allow < ask < deny)"
	if explicit[4] && vals[4] == riskmodel.Allow {
		pf.add(prefix+"critical", `critical = "allow" is not permitted: critical requests (rm -rf ~, credential exfiltration) must be denied or asked about; use "deny" or "ask"`)
		return m, false
	}
	err := m.Validate()
	if err == nil {
		return m, true
	}
	blame := -1
	for i := 1; i < 5 && blame < 0; i++ {
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
	if p := DefaultConfigPath(); p != "" {
		return p
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
		Sources:         append(slices.Clone(c.Sources), pf.path),
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
		if m, ok := pf.overlayMapping(kind, base, slots); ok {
			if out.Policy.Mapping == nil {
				out.Policy.Mapping = map[riskmodel.Kind]riskmodel.Mapping{}
			}
			out.Policy.Mapping[kind] = m
		}
	}
	if err := pf.err(); err != nil {
		return Config{}, err
	}
	return out, nil
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

var bareKeyRE = regexp.MustCompile(`^\s*([A-Za-z0-9_-]+(?:\s*\.\s*[A-Za-z0-9_-]+)*)\s*=`)

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
	m := bareKeyRE.FindSubmatch(text)
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

var indexRE = regexp.MustCompile(`\[\d+\]`)

// displayKey turns an index path into the key as the user writes it: "rule[2].decision" →
// "rule.decision".
func displayKey(p string) string { return indexRE.ReplaceAllString(p, "") }
