package guardian

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guardianhq/guardian/riskmodel"
)

func TestLoadConfigAgents(t *testing.T) {
	tests := []struct {
		name string
		toml string
		want AgentPolicy
	}{
		{"no table: every agent", "", AgentPolicy{}},
		{"empty table", "[agents]\n", AgentPolicy{}},
		{"subagent-only", "[agents]\nauto_approve = \"subagent-only\"\n", AgentPolicy{AutoApprove: AutoApproveSubagentOnly}},
		{"off", "[agents]\nauto_approve = \"off\"\n", AgentPolicy{AutoApprove: AutoApproveOff}},
		{"trusted list", "[agents]\nauto_approve = \"everywhere\"\ntrusted = [\"Explore\", \"test-runner\", \"main\"]\n",
			AgentPolicy{AutoApprove: AutoApproveEverywhere, Trusted: []string{"Explore", "test-runner", "main"}}},
		{"dotted keys", "agents.trusted = [\"explorer\"]\n", AgentPolicy{Trusted: []string{"explorer"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "config.toml")
			writeFile(t, file, tc.toml)
			c, err := LoadConfig(file)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, c.Agents); d != "" {
				t.Errorf("agents (-want +got):\n%s", d)
			}
		})
	}
}

// TestLoadConfigAgentsErrors pins each [agents] error: where, which key, and how to fix it.
func TestLoadConfigAgentsErrors(t *testing.T) {
	tests := []struct {
		name string
		toml string
		want []string // whole problems, "{file}" for the path; every problem of the file
	}{
		{"unknown mode", "[agents]\nauto_approve = \"never\"\n", []string{
			`{file}:2:16: key "agents.auto_approve": unknown auto_approve "never"; use "everywhere" (guardian may approve for every agent), "subagent-only" (only for sub-agents: the main agent's requests go to you) or "off" (guardian approves nothing, you do)`}},
		{"mode spelt with _", "[agents]\nauto_approve = \"subagent_only\"\n", []string{
			`{file}:2:16: key "agents.auto_approve": unknown auto_approve "subagent_only"; use "everywhere" (guardian may approve for every agent), "subagent-only" (only for sub-agents: the main agent's requests go to you) or "off" (guardian approves nothing, you do); did you mean "subagent-only"?`}},
		{"mode not a string", "[agents]\nauto_approve = false\n", []string{
			`{file}:2:16: key "agents.auto_approve": wrong type: found a TOML boolean, want a string: "everywhere", "subagent-only" or "off"`}},
		{"trusted not a list", "[agents]\ntrusted = \"Explore\"\n", []string{
			`{file}:2:11: key "agents.trusted": wrong type: found a TOML string, want a list of agent names such as ["Explore", "test-runner", "main"]`}},
		{"trusted element not a string", "[agents]\ntrusted = [\"Explore\", 7]\n", []string{
			`{file}:2:23: key "agents.trusted": wrong type: found a TOML integer in the list, want a list of agent names such as ["Explore", "test-runner", "main"]`}},
		{"unknown key", "[agents]\ntrust = [\"Explore\"]\n", []string{
			`{file}:2:1: unknown key "agents.trust" (known keys for [agents]: auto_approve, trusted); did you mean "trusted"?`}},
		{"empty list", "[agents]\ntrusted = []\n", []string{
			`{file}:2:1: key "agents.trusted": trusted = [] would name no agent; remove trusted to let guardian approve for every agent auto_approve allows, or set auto_approve = "off" to approve for none`}},
		{"empty name", "[agents]\ntrusted = [\"Explore\", \" \"]\n", []string{
			`{file}:2:23: key "agents.trusted": empty agent name; write the name the host reports for the agent (its agent_type, e.g. "Explore" or "test-runner"), or "main" for the main agent`}},
		{"padded name", "[agents]\ntrusted = [\"Explore \"]\n", []string{
			`{file}:2:12: key "agents.trusted": agent name "Explore " has leading or trailing spaces; names are compared exactly, so remove them`}},
		{"control character", "[agents]\ntrusted = [\"Ex\\u001bplore\"]\n", []string{
			`{file}:2:12: key "agents.trusted": agent name "Ex\x1bplore" holds control characters or invalid UTF-8`}},
		{"long name", "[agents]\ntrusted = [\"" + strings.Repeat("x", MaxAgentNameBytes+1) + "\"]\n", []string{
			`{file}:2:12: key "agents.trusted": agent name is 257 bytes, the limit is 256`}},
		{"duplicate", "[agents]\ntrusted = [\"Explore\", \"main\", \"Explore\"]\n", []string{
			`{file}:2:31: key "agents.trusted": "Explore" is listed twice (first as item 1); list each agent once`}},
		{"list under off", "[agents]\nauto_approve = \"off\"\ntrusted = [\"Explore\"]\n", []string{
			`{file}:3:1: key "agents.trusted": trusted has no effect under auto_approve = "off", which approves no agent's requests automatically; remove trusted, or set auto_approve = "everywhere" or "subagent-only"`}},
		{"main under subagent-only", "[agents]\nauto_approve = \"subagent-only\"\ntrusted = [\"Explore\", \"main\"]\n", []string{
			`{file}:3:23: key "agents.trusted": "main" has no effect under auto_approve = "subagent-only", which never approves the main agent's requests automatically; remove it, or set auto_approve = "everywhere"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "config.toml")
			writeFile(t, file, tc.toml)
			_, err := LoadConfig(file)
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v (%T), want a *ConfigError", err, err)
			}
			got := make([]string, len(ce.Problems))
			for i, p := range ce.Problems {
				got[i] = p.String()
			}
			want := make([]string, len(tc.want))
			for i, w := range tc.want {
				want[i] = strings.ReplaceAll(w, "{file}", file)
			}
			if len(got) != len(want) {
				t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for i := range want {
				if !strings.HasPrefix(got[i], want[i]) {
					t.Errorf("problem %d:\n got %s\nwant %s", i, got[i], want[i])
				}
			}
		})
	}
}

// TestWithProjectAgents: an untrusted project may only tighten [agents]; a trusted one may set
// it freely.
func TestWithProjectAgents(t *testing.T) {
	const listUser = "[agents]\ntrusted = [\"Explore\", \"test-runner\"]\n"
	const subUser = "[agents]\nauto_approve = \"subagent-only\"\n"
	const trustedUser = "trusted_projects = [\"~/src/*\"]\n[agents]\nauto_approve = \"off\"\n"
	tests := []struct {
		name, user, project string
		want                AgentPolicy
		wantErr             []string
	}{
		{name: "no [agents] in the project: the user's", user: listUser, project: "fallback = \"headless\"\n",
			want: AgentPolicy{Trusted: []string{"Explore", "test-runner"}}},
		{name: "stricter mode", user: subUser, project: "[agents]\nauto_approve = \"off\"\n",
			want: AgentPolicy{AutoApprove: AutoApproveOff}},
		{name: "the same mode", user: subUser, project: "[agents]\nauto_approve = \"subagent-only\"\n",
			want: AgentPolicy{AutoApprove: AutoApproveSubagentOnly}},
		{name: "narrower list", user: listUser, project: "[agents]\ntrusted = [\"Explore\"]\n",
			want: AgentPolicy{Trusted: []string{"Explore"}}},
		{name: "a list where the user has none", user: subUser, project: "[agents]\ntrusted = [\"explorer\"]\n",
			want: AgentPolicy{AutoApprove: AutoApproveSubagentOnly, Trusted: []string{"explorer"}}},
		{name: "looser mode", user: subUser, project: "[agents]\nauto_approve = \"everywhere\"\n",
			wantErr: []string{`{repo}/.guardian.toml:2:1: key "agents.auto_approve": auto_approve = "everywhere" is less strict than "subagent-only" in the user config and would let guardian approve more agents' requests automatically, but this project is not trusted, so its .guardian.toml may only add restrictions; add this project to trusted_projects in {userConfig} to allow it`}},
		{name: "looser than the default", user: "", project: "[agents]\nauto_approve = \"everywhere\"\n",
			want: AgentPolicy{AutoApprove: AutoApproveEverywhere}},
		{name: "a name the user's list lacks", user: listUser, project: "[agents]\ntrusted = [\"Explore\", \"general-purpose\", \"main\"]\n",
			wantErr: []string{
				`{repo}/.guardian.toml:2:23: key "agents.trusted": "general-purpose" is not in trusted = ["Explore", "test-runner"] of the user config, so naming it would let guardian approve its requests automatically, but this project is not trusted`,
				`{repo}/.guardian.toml:2:42: key "agents.trusted": "main" is not in trusted`,
			}},
		{name: "trusted project loosens", user: trustedUser, project: "[agents]\nauto_approve = \"everywhere\"\ntrusted = [\"fork\"]\n",
			want: AgentPolicy{AutoApprove: AutoApproveEverywhere, Trusted: []string{"fork"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newProjectEnv(t, tc.user)
			writeFile(t, filepath.Join(e.repo, ProjectConfigFile), tc.project)
			user := e.load(t)
			got, err := user.WithProject(e.repo)
			if tc.wantErr != nil {
				if err == nil {
					t.Fatalf("WithProject succeeded with %+v, want an error", got.Agents)
				}
				r := strings.NewReplacer("{repo}", e.repo, "{userConfig}", e.userConfig)
				for _, w := range tc.wantErr {
					if w = r.Replace(w); !strings.Contains(err.Error(), w) {
						t.Errorf("error does not contain %q; got:\n%s", w, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got.Agents); d != "" {
				t.Errorf("merged agents (-want +got):\n%s", d)
			}
			if len(got.Agents.Trusted) > 0 && len(user.Agents.Trusted) > 0 {
				got.Agents.Trusted[0] = "changed"
				if user.Agents.Trusted[0] == "changed" {
					t.Error("the merged config shares its trusted list with the user config")
				}
			}
		})
	}
}

// TestPipelineOptionsAgents: the config's [agents] reaches the pipeline's Decide.
func TestPipelineOptionsAgents(t *testing.T) {
	c := DefaultConfig()
	c.Agents = AgentPolicy{AutoApprove: AutoApproveSubagentOnly}
	p := newPipeline(t, c.PipelineOptions()...)
	res, err := p.Decide(context.Background(), execReq("ls"), Caller{Host: "claude", AgentRole: AgentRoleMain})
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != riskmodel.Ask || res.Status != StatusAgentPolicy {
		t.Errorf("main agent under subagent-only: %s (%s), want ask (agent_policy)", res.Decision, res.Status)
	}
}
