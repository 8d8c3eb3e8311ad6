package guardian

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"

	"github.com/guardianhq/guardian/riskmodel"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/config/errors/*.golden from the current error messages")

// cmpRegexp compares compiled regexps by their source, which is all a config can set.
var cmpRegexp = cmp.Comparer(func(a, b *regexp.Regexp) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.String() == b.String()
})

func TestLoadConfigFull(t *testing.T) {
	const file = "testdata/config/valid_full.toml"
	got, err := LoadConfig(file)
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	want := Config{
		Policy: riskmodel.Policy{
			Workspaces:     []string{"~/src/app", "/work"},
			Home:           "/home/dev",
			ProtectedPaths: []string{"~/notes/**", "/srv/data"},
			TrustedHosts:   []string{"github.com", "*.corp.example"},
			Rules: []riskmodel.UserRule{
				{ID: "user:allow-make", Kind: riskmodel.KindExec, Decision: riskmodel.Allow, Prefix: []string{"make"}, Reason: "builds are routine here"},
				{ID: "user:valid_full.toml:15", Kind: riskmodel.KindExec, Decision: riskmodel.Ask, Glob: "git push origin feature/*"},
				{ID: "user:deny-prod-kubectl", Kind: riskmodel.KindExec, Decision: riskmodel.Deny,
					Regex: regexp.MustCompile(`^kubectl .*--context[= ]prod`), Reason: "production cluster: use the deploy pipeline"},
				{ID: "user:valid_full.toml:26", Kind: riskmodel.KindMCP, Decision: riskmodel.Allow, Glob: "github/list_*"},
			},
			Mapping: map[riskmodel.Kind]riskmodel.Mapping{
				// Partially given: low and medium_contained come from DefaultMapping.
				riskmodel.KindExec: {Low: riskmodel.Allow, MediumContained: riskmodel.Allow, Medium: riskmodel.Ask, High: riskmodel.Deny, Critical: riskmodel.Deny},
				riskmodel.KindMCP:  {Low: riskmodel.Allow, MediumContained: riskmodel.Ask, Medium: riskmodel.Ask, High: riskmodel.Ask, Critical: riskmodel.Deny},
			},
		},
		Fallback:        FallbackHeadless,
		TrustedProjects: []string{"~/src/*"},
		Sources:         []string{file},
	}
	if d := cmp.Diff(want, got, cmpRegexp); d != "" {
		t.Errorf("LoadConfig(%s) mismatch (-want +got):\n%s", file, d)
	}
	for k, m := range got.Policy.Mapping {
		if err := m.Validate(); err != nil {
			t.Errorf("mapping %s: %v", k, err)
		}
	}
}

func TestLoadConfigEmptyIsDefault(t *testing.T) {
	const file = "testdata/config/valid_empty.toml"
	got, err := LoadConfig(file)
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	want.Sources = []string{file}
	if d := cmp.Diff(want, got, cmpRegexp); d != "" {
		t.Errorf("empty config (-want +got):\n%s", d)
	}
}

// TestLoadConfigErrors loads every broken fixture. Each case asserts the file:line:col and key
// it must name; the whole message is compared with the .golden file next to the fixture
// (go test ./guardian -run TestLoadConfigErrors -update rewrites them).
func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		want []string // substrings: location, key, and the gist of the fix
	}{
		{"syntax", []string{"syntax.toml:3:12:", "syntax error", "strings need quotes"}},
		{"syntax_escape", []string{"syntax_escape.toml:3:", "single quotes"}},
		{"unknown_keys", []string{
			`unknown_keys.toml:2:1: unknown key "workspace" (known keys for the top level: fallback, home, workspaces,`,
			`did you mean "workspaces"?`,
			`unknown_keys.toml:10:1: unknown key "rule.commmand" (known keys for [[rule]]: id, kind, decision, prefix, glob, regex, reason)`,
			`unknown_keys.toml:13:1: unknown key "mapping.exec.lo" (known keys for [mapping.exec]: low, medium_contained, medium, high, critical); did you mean "low"?`,
			`unknown_keys.toml:15:2: unknown table "llm"`,
		}},
		{"unknown_inline", []string{`unknown_inline.toml:1:37: unknown key "mapping.exec.hihg" (known keys for [mapping.exec]: low, medium_contained, medium, high, critical); did you mean "high"?`}},
		{"type_list", []string{`type_list.toml:2:14: key "workspaces": wrong type: found a TOML string, want a list of strings`}},
		{"type_string", []string{`type_string.toml:1:12: key "fallback": wrong type: found a TOML array`}},
		{"type_prefix_elem", []string{`type_prefix_elem.toml:3:18: key "rule.prefix": wrong type: found a TOML integer in the list`}},
		{"type_scalars", []string{
			`type_scalars.toml:2:12: key "fallback": wrong type: found a TOML boolean`,
			`type_scalars.toml:3:8: key "home": wrong type: found a TOML date/time`,
			`type_scalars.toml:7:9: key "rule.regex": wrong type: found a TOML integer`,
			`type_scalars.toml:8:10: key "rule.reason": wrong type: found a TOML array`,
			`type_scalars.toml:11:7: key "mapping.exec.low": wrong type: found a TOML float`,
		}},
		{"bad_decision", []string{`bad_decision.toml:4:12: key "rule.decision": unknown decision "maybe"; use "allow", "ask" or "deny"`}},
		{"bad_kind", []string{`bad_kind.toml:2:8: key "rule.kind": unknown rule kind "shell"`}},
		{"bad_fallback", []string{`bad_fallback.toml:2:12: key "fallback": unknown fallback "never"`}},
		{"bad_regex", []string{`bad_regex.toml:3:9: key "rule.regex": invalid regex: error parsing regexp: missing closing )`}},
		{"relative_workspace", []string{`relative_workspace.toml:3:3: key "workspaces": workspace "src/other" is relative`, `"~/src/other"`}},
		{"empty_prefix", []string{`empty_prefix.toml:3:1: key "rule.prefix": empty prefix would match every command`}},
		{"empty_prefix_word", []string{`empty_prefix_word.toml:3:18: key "rule.prefix": prefix word 2 is empty`}},
		{"two_matchers", []string{`two_matchers.toml:4:1: key "rule.glob": a rule takes exactly one of prefix, glob or regex, but this one also sets prefix on line 3`}},
		{"no_matcher", []string{`no_matcher.toml:5:3: key "rule": an exec rule needs exactly one of prefix, glob or regex`}},
		{"mcp_prefix", []string{
			`mcp_prefix.toml:5:1: key "rule.prefix": prefix applies to exec rules only`,
			`mcp_prefix.toml:6:1: key "rule.regex": regex applies to exec rules only`,
		}},
		{"mcp_glob_form", []string{`mcp_glob_form.toml:4:1: key "rule.glob": mcp glob "delete_repository" must have the form "server/tool"`}},
		{"mcp_no_glob", []string{`mcp_no_glob.toml:1:3: key "rule.glob": an mcp rule needs glob = "server/tool"`}},
		{"mapping_order", []string{`mapping_order.toml:3:1: key "mapping.exec.high": mapping high = allow is more lenient than medium = ask`}},
		{"mapping_critical_allow", []string{`mapping_critical_allow.toml:3:1: key "mapping.mcp.critical": critical = "allow" is not permitted`}},
		{"mapping_low_deny", []string{`mapping_low_deny.toml:3:1: key "mapping.exec.low": mapping medium_contained = allow is more lenient than low = deny`}},
		{"bad_glob", []string{`bad_glob.toml:3:8: key "rule.glob": bad glob pattern "git push origin [feature/*"`}},
		{"bad_protected_glob", []string{`bad_protected_glob.toml:1:34: key "protected_paths": bad glob pattern "[data"`}},
		{"missing_decision", []string{`missing_decision.toml:1:3: key "rule.decision": missing required key decision`}},
		{"single_bracket_rule", []string{`single_bracket_rule.toml:1:2: key "rule": [rule] defines a single table; write [[rule]]`}},
		{"duplicate_key", []string{`duplicate_key.toml:3:1: key "fallback": key fallback is already defined`}},
		{"bad_home", []string{`bad_home.toml:1:8: key "home": home "~/me" is not an absolute path`}},
		{"bad_host", []string{`bad_host.toml:1:32: key "trusted_hosts": "https://gitlab.com/org" is not a host name`}},
		{"duplicate_id", []string{`duplicate_id.toml:7:1: key "rule.id": duplicate rule id "make" (first used on line 2)`}},
		{"inline_rule", []string{`inline_rule.toml:3:16: key "rule.decision": unknown decision "maybe"`}},
		{"several", []string{
			`several.toml:2:3: key "rule": an exec rule needs exactly one of prefix, glob or regex`,
			`several.toml:8:1: key "rule.regex": a rule takes exactly one of prefix, glob or regex, but this one also sets prefix on line 7`,
			`several.toml:12:1: key "rule.prefix": empty prefix`,
			`several.toml:15:1: key "mapping.exec.critical": critical = "allow" is not permitted`,
		}},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.name+".toml"] = true
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join("testdata", "config", "errors", tt.name+".toml")
			_, err := LoadConfig(file)
			if err == nil {
				t.Fatalf("LoadConfig(%s) = nil error, want one", file)
			}
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error is %T, want *ConfigError: %v", err, err)
			}
			for _, p := range ce.Problems {
				if p.File != file || p.Line == 0 || p.Message == "" {
					t.Errorf("problem lacks a location: %+v", p)
				}
			}
			msg := err.Error()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error does not contain %q; got:\n%s", w, msg)
				}
			}
			golden := strings.TrimSuffix(file, ".toml") + ".golden"
			if *updateGolden {
				if err := os.WriteFile(golden, []byte(msg+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if d := cmp.Diff(string(want), msg+"\n"); d != "" {
				t.Errorf("error differs from %s (-want +got):\n%s", golden, d)
			}
		})
	}
	// Every fixture has a case, so none silently stops being checked.
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "config", "errors", "*.toml"))
	for _, f := range fixtures {
		if !seen[filepath.Base(f)] {
			t.Errorf("fixture %s has no test case", f)
		}
	}
}

// TestUnmarshalTextErrorsArePositioned pins the go-toml behaviour the value types rely on: an
// error from a field's UnmarshalText comes back as a *toml.DecodeError with the value's
// position and key. (A string-kinded field would bypass UnmarshalText, hence struct types.)
func TestUnmarshalTextErrorsArePositioned(t *testing.T) {
	var v struct {
		Rule []struct {
			Regex *cfgRegex `toml:"regex"`
		} `toml:"rule"`
	}
	doc := "[[rule]]\n\nregex = '(['\n"
	err := toml.NewDecoder(strings.NewReader(doc)).DisallowUnknownFields().Decode(&v)
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("got %T %v, want *toml.DecodeError", err, err)
	}
	if line, col := de.Position(); line != 3 || col != 9 {
		t.Errorf("position = %d:%d, want 3:9", line, col)
	}
	if got := strings.Join(de.Key(), "."); got != "rule.regex" {
		t.Errorf("key = %q, want rule.regex", got)
	}
}

func TestLoadConfigMissingFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "nope.toml")
	_, err := LoadConfig(file)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), file) {
		t.Fatalf("LoadConfig(missing) = %v, want a not-exist error naming %s", err, file)
	}
}

func TestDefaultConfigPath(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		name, guardian, xdg, want string
	}{
		{"env wins", "/etc/guardian.toml", "/xdg", "/etc/guardian.toml"},
		{"xdg", "", "/xdg", "/xdg/guardian/config.toml"},
		{"relative xdg ignored", "", "xdg", filepath.Join(home, ".config", "guardian", "config.toml")},
		{"home", "", "", filepath.Join(home, ".config", "guardian", "config.toml")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("GUARDIAN_CONFIG", tt.guardian)
			t.Setenv("XDG_CONFIG_HOME", tt.xdg)
			if got := DefaultConfigPath(); got != tt.want {
				t.Errorf("DefaultConfigPath() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLoadUserConfig(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("GUARDIAN_CONFIG", "")
	t.Setenv("XDG_CONFIG_HOME", xdg)

	// No default file: defaults.
	got, err := LoadUserConfig("")
	if err != nil {
		t.Fatalf("missing default file: %v", err)
	}
	if d := cmp.Diff(DefaultConfig(), got, cmpRegexp); d != "" {
		t.Errorf("missing default file (-want +got):\n%s", d)
	}

	// An explicit path must exist.
	missing := filepath.Join(xdg, "missing.toml")
	if _, err := LoadUserConfig(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("explicit missing file: got %v, want fs.ErrNotExist", err)
	}
	// So must one named by $GUARDIAN_CONFIG.
	t.Setenv("GUARDIAN_CONFIG", missing)
	if _, err := LoadUserConfig(""); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("$GUARDIAN_CONFIG missing file: got %v, want fs.ErrNotExist", err)
	}
	t.Setenv("GUARDIAN_CONFIG", "")

	// The default file is read when present, and errors in it are reported.
	def := filepath.Join(xdg, "guardian", "config.toml")
	writeFile(t, def, "fallback = \"headless\"\n")
	got, err = LoadUserConfig("")
	if err != nil || got.Fallback != FallbackHeadless || len(got.Sources) != 1 || got.Sources[0] != def {
		t.Errorf("default file: got %+v, %v", got, err)
	}
	writeFile(t, def, "fallback = \"sometimes\"\n")
	if _, err := LoadUserConfig(""); err == nil || !strings.Contains(err.Error(), def+":1:12:") {
		t.Errorf("bad default file: got %v, want an error at %s:1:12", err, def)
	}

	// An explicit path wins over the default.
	explicit := filepath.Join(xdg, "explicit.toml")
	writeFile(t, explicit, "workspaces = [\"/work\"]\n")
	got, err = LoadUserConfig(explicit)
	if err != nil || len(got.Policy.Workspaces) != 1 || got.Fallback != FallbackAsk {
		t.Errorf("explicit file: got %+v, %v", got, err)
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// projectEnv is a fake machine: a home with a user config and a repository ~/src/app.
type projectEnv struct {
	home, userConfig, repo string
}

func newProjectEnv(t *testing.T, userConfig string) projectEnv {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GUARDIAN_CONFIG", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	e := projectEnv{home: home, userConfig: filepath.Join(home, ".config", "guardian", "config.toml"), repo: filepath.Join(home, "src", "app")}
	writeFile(t, e.userConfig, userConfig)
	if err := os.MkdirAll(filepath.Join(e.repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e projectEnv) load(t *testing.T) Config {
	t.Helper()
	c, err := LoadUserConfig("")
	if err != nil {
		t.Fatalf("user config: %v", err)
	}
	return c
}

func TestWithProject(t *testing.T) {
	const untrustedUser = "fallback = \"ask\"\nworkspaces = [\"~/src/app\"]\n"
	const trustedUser = "trusted_projects = [\"~/src/*\"]\n"
	tests := []struct {
		name    string
		user    string
		project string // written to <repo>/.guardian.toml; "" for none
		// check inspects the merged config; wantErr lists substrings of the error instead.
		check   func(t *testing.T, e projectEnv, c Config)
		wantErr []string
	}{
		{
			name: "no project file", user: untrustedUser,
			check: func(t *testing.T, e projectEnv, c Config) {
				if d := cmp.Diff(e.load(t), c, cmpRegexp); d != "" {
					t.Errorf("config changed (-want +got):\n%s", d)
				}
			},
		},
		{
			name: "untrusted adds restrictions", user: untrustedUser,
			project: `fallback = "headless"
protected_paths = ["~/src/app/secrets/**"]

[[rule]]
decision = "deny"
prefix = ["terraform", "apply"]
reason = "infra changes go through CI"

[[rule]]
kind = "mcp"
decision = "ask"
glob = "github/merge_*"

[mapping.exec]
medium_contained = "ask"
`,
			check: func(t *testing.T, e projectEnv, c Config) {
				pf := filepath.Join(e.repo, ProjectConfigFile)
				want := Config{
					Policy: riskmodel.Policy{
						Workspaces:     []string{"~/src/app"},
						ProtectedPaths: []string{"~/src/app/secrets/**"},
						Rules: []riskmodel.UserRule{
							{ID: "user:.guardian.toml:4", Kind: riskmodel.KindExec, Decision: riskmodel.Deny, Prefix: []string{"terraform", "apply"}, Reason: "infra changes go through CI"},
							{ID: "user:.guardian.toml:9", Kind: riskmodel.KindMCP, Decision: riskmodel.Ask, Glob: "github/merge_*"},
						},
						Mapping: map[riskmodel.Kind]riskmodel.Mapping{
							riskmodel.KindExec: {Low: riskmodel.Allow, MediumContained: riskmodel.Ask, Medium: riskmodel.Ask, High: riskmodel.Ask, Critical: riskmodel.Deny},
						},
					},
					Fallback: FallbackHeadless,
					Sources:  []string{e.userConfig, pf},
				}
				if d := cmp.Diff(want, c, cmpRegexp); d != "" {
					t.Errorf("merged config (-want +got):\n%s", d)
				}
			},
		},
		{
			name: "untrusted adds allow rule", user: untrustedUser,
			project: "[[rule]]\nid = \"yolo\"\ndecision = \"allow\"\nprefix = [\"rm\"]\n",
			wantErr: []string{
				`.guardian.toml:3:1: key "rule.decision": decision = "allow" would let matching requests through unreviewed, but this project is not trusted`,
				`add this project to trusted_projects in {userConfig} to allow it (e.g. trusted_projects = ["~/src/app"])`,
			},
		},
		{
			name: "workspace / is refused even before trust", user: trustedUser,
			project: "workspaces = [\"/\"]\n",
			wantErr: []string{`{repo}/.guardian.toml:1:15: key "workspaces": workspace "/" would let the agent change everything`},
		},
		{
			name: "untrusted loosening: every key is reported", user: "fallback = \"headless\"\n",
			project: `home = "/tmp/fakehome"
workspaces = ["/tmp/other"]
trusted_hosts = ["evil.example"]
fallback = "ask"

[mapping.exec]
high = "allow"
`,
			wantErr: []string{
				`{repo}/.guardian.toml:1:1: key "home": home changes what ~ means in every path, but this project is not trusted`,
				`{repo}/.guardian.toml:2:1: key "workspaces": workspaces widen`,
				`{repo}/.guardian.toml:3:1: key "trusted_hosts": trusted_hosts make downloads`,
				`{repo}/.guardian.toml:4:1: key "fallback": fallback = "ask" would let reviewer failures wait`,
				`{repo}/.guardian.toml:7:1: key "mapping.exec.high": high = "allow" is more lenient than "ask" in the user config`,
				`add this project to trusted_projects in {userConfig}`,
			},
		},
		{
			name: "untrusted mapping stricter but inconsistent", user: untrustedUser,
			project: "[mapping.exec]\nlow = \"deny\"\n",
			wantErr: []string{`.guardian.toml:2:1: key "mapping.exec.low": mapping medium_contained = allow is more lenient than low = deny`},
		},
		{
			name: "trusted adds allow rule and workspaces", user: trustedUser,
			project: "workspaces = [\"/data/scratch\"]\nfallback = \"headless\"\n\n[[rule]]\ndecision = \"allow\"\nprefix = [\"make\"]\n\n[mapping.exec]\nmedium = \"allow\"\n",
			check: func(t *testing.T, e projectEnv, c Config) {
				want := riskmodel.Policy{
					Workspaces: []string{"/data/scratch"},
					Rules: []riskmodel.UserRule{
						{ID: "user:.guardian.toml:4", Kind: riskmodel.KindExec, Decision: riskmodel.Allow, Prefix: []string{"make"}},
					},
					Mapping: map[riskmodel.Kind]riskmodel.Mapping{
						riskmodel.KindExec: {Low: riskmodel.Allow, MediumContained: riskmodel.Allow, Medium: riskmodel.Allow, High: riskmodel.Ask, Critical: riskmodel.Deny},
					},
				}
				if d := cmp.Diff(want, c.Policy, cmpRegexp); d != "" {
					t.Errorf("merged policy (-want +got):\n%s", d)
				}
				if c.Fallback != FallbackHeadless || len(c.Sources) != 2 || c.TrustedProjects[0] != "~/src/*" {
					t.Errorf("merged config: %+v", c)
				}
			},
		},
		{
			name: "trusted by ** glob", user: "trusted_projects = [\"~/**/app\"]\n",
			project: "[[rule]]\ndecision = \"allow\"\nprefix = [\"make\"]\n",
			check: func(t *testing.T, e projectEnv, c Config) {
				if len(c.Policy.Rules) != 1 || c.Policy.Rules[0].Decision != riskmodel.Allow {
					t.Errorf("rules = %+v", c.Policy.Rules)
				}
			},
		},
		{
			name: "trusted project may relax fallback", user: "fallback = \"headless\"\ntrusted_projects = [\"~/src/app\"]\n",
			project: "fallback = \"ask\"\n",
			check: func(t *testing.T, e projectEnv, c Config) {
				if c.Fallback != FallbackAsk {
					t.Errorf("fallback = %q, want ask", c.Fallback)
				}
			},
		},
		{
			// "~" in trusted_projects means the configured home, not the real one.
			name: "trust expands ~ against the configured home", user: "home = \"/nonexistent/dev\"\ntrusted_projects = [\"~/src/*\"]\n",
			project: "[[rule]]\ndecision = \"allow\"\nprefix = [\"make\"]\n",
			wantErr: []string{`key "rule.decision"`, "not trusted", `trusted_projects = ["{repo}"]`},
		},
		{
			name: "trust does not cover the parent", user: "trusted_projects = [\"~/src/app/*\"]\n",
			project: "[[rule]]\ndecision = \"allow\"\nprefix = [\"make\"]\n",
			wantErr: []string{`key "rule.decision"`, "not trusted"},
		},
		{
			name: "trusted project may not set trusted_projects", user: trustedUser,
			project: "trusted_projects = [\"/\"]\n",
			wantErr: []string{`{repo}/.guardian.toml:1:1: key "trusted_projects": only the user config may list trusted projects, so that a repository cannot vouch for itself; list them in {userConfig}`},
		},
		{
			name: "rule id clash with the user config", user: "[[rule]]\nid = \"no-rm\"\ndecision = \"deny\"\nprefix = [\"rm\"]\n",
			project: "[[rule]]\nid = \"no-rm\"\ndecision = \"deny\"\nprefix = [\"rm\", \"-rf\"]\n",
			wantErr: []string{`{repo}/.guardian.toml:2:1: key "rule.id": rule id "no-rm" is already used by a rule in {userConfig}`},
		},
		{
			name: "project file errors name the project file", user: untrustedUser,
			project: "[[rule]]\ndecision = \"deny\"\ncommand = [\"rm\"]\n",
			wantErr: []string{`{repo}/.guardian.toml:3:1: unknown key "rule.command"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newProjectEnv(t, tt.user)
			if tt.project != "" {
				writeFile(t, filepath.Join(e.repo, ProjectConfigFile), tt.project)
			}
			user := e.load(t)
			before := fmt.Sprintf("%#v", user)
			got, err := user.WithProject(filepath.Join(e.repo, "cmd", "tool"))
			if after := fmt.Sprintf("%#v", user); after != before {
				t.Errorf("WithProject changed its receiver:\n%s\n%s", before, after)
			}
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("WithProject succeeded, want an error; config %+v", got)
				}
				var ce *ConfigError
				if !errors.As(err, &ce) {
					t.Errorf("error is %T, want *ConfigError", err)
				}
				r := strings.NewReplacer("{repo}", e.repo, "{userConfig}", e.userConfig)
				for _, w := range tt.wantErr {
					if w = r.Replace(w); !strings.Contains(err.Error(), w) {
						t.Errorf("error does not contain %q; got:\n%s", w, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("WithProject: %v", err)
			}
			tt.check(t, e, got)
		})
	}
}

func TestWithProjectWalk(t *testing.T) {
	e := newProjectEnv(t, "")
	deep := filepath.Join(e.repo, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	user := e.load(t)
	rule := "[[rule]]\ndecision = \"deny\"\nprefix = [\"rm\"]\n"

	// A project file above the repository root is not the repository's: the walk stops at .git.
	writeFile(t, filepath.Join(e.home, "src", ProjectConfigFile), rule)
	got, err := user.WithProject(deep)
	if err != nil || len(got.Sources) != 1 || len(got.Policy.Rules) != 0 {
		t.Fatalf("walk past .git: got %+v, %v", got, err)
	}

	// At the repository root it is found from any depth.
	root := filepath.Join(e.repo, ProjectConfigFile)
	writeFile(t, root, rule)
	got, err = user.WithProject(deep)
	if err != nil || len(got.Policy.Rules) != 1 || got.Sources[len(got.Sources)-1] != root {
		t.Fatalf("walk to root: got %+v, %v", got, err)
	}

	// The nearest one wins.
	nearer := filepath.Join(e.repo, "a", ProjectConfigFile)
	writeFile(t, nearer, "[[rule]]\ndecision = \"ask\"\nglob = \"git push *\"\n")
	got, err = user.WithProject(deep)
	if err != nil || len(got.Policy.Rules) != 1 || got.Policy.Rules[0].Decision != riskmodel.Ask || got.Sources[len(got.Sources)-1] != nearer {
		t.Fatalf("nearest file: got %+v, %v", got, err)
	}

	// Without .git the walk goes on up (here to the home's src directory).
	plain := filepath.Join(e.home, "src", "notes", "x")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err = user.WithProject(plain)
	if err != nil || got.Sources[len(got.Sources)-1] != filepath.Join(e.home, "src", ProjectConfigFile) {
		t.Fatalf("walk without .git: got %+v, %v", got, err)
	}
}

func TestMatchDirGlob(t *testing.T) {
	tests := []struct {
		pattern, dir string
		want         bool
	}{
		{"/home/u/src/*", "/home/u/src/app", true},
		{"/home/u/src/*", "/home/u/src/app/sub", false},
		{"/home/u/src/*", "/home/u/src", false},
		{"/home/u/src/**", "/home/u/src/app/sub", true},
		{"/home/u/src/**", "/home/u/src", true},
		{"/home/u/**/app", "/home/u/a/b/app", true},
		{"/work", "/work/", true},
		{"/work/[", "/work/[", false},
	}
	for _, tt := range tests {
		if got := riskmodel.MatchPathGlob(tt.pattern, tt.dir, false); got != tt.want {
			t.Errorf("MatchPathGlob(%q, %q) = %v, want %v", tt.pattern, tt.dir, got, tt.want)
		}
	}
}

// TestExampleConfig keeps guardian.example.toml, the file users copy, loadable.
func TestExampleConfig(t *testing.T) {
	c, err := LoadConfig(filepath.Join("..", "guardian.example.toml"))
	if err != nil {
		t.Fatalf("guardian.example.toml: %v", err)
	}
	if len(c.Policy.Rules) == 0 || len(c.Policy.ProtectedPaths) == 0 || len(c.Policy.Mapping) == 0 {
		t.Errorf("example config is missing sections: %+v", c)
	}
	for _, r := range c.Policy.Rules {
		if r.ID == "" || r.Decision == 0 || r.Kind == "" {
			t.Errorf("incomplete rule %+v", r)
		}
	}
}

// TestDocsErrorExample keeps the error message quoted in docs/config.md in step with the code.
func TestDocsErrorExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join("testdata", "config", "errors", "unknown_keys.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, golden) {
		t.Errorf("docs/config.md does not quote testdata/config/errors/unknown_keys.golden verbatim:\n%s", golden)
	}
}

func ExampleLoadConfig() {
	c, err := LoadConfig("testdata/config/valid_full.toml")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("fallback:", c.Fallback)
	for _, r := range c.Policy.Rules {
		fmt.Println(r.Decision, r.Kind, r.ID)
	}

	_, err = LoadConfig("testdata/config/errors/bad_decision.toml")
	fmt.Println(err)
	// Output:
	// fallback: headless
	// allow exec user:allow-make
	// ask exec user:valid_full.toml:15
	// deny exec user:deny-prod-kubectl
	// allow mcp user:valid_full.toml:26
	// testdata/config/errors/bad_decision.toml:4:12: key "rule.decision": unknown decision "maybe"; use "allow", "ask" or "deny"
}
