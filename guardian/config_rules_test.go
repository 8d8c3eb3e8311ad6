package guardian

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guardianhq/guardian/riskmodel"
)

// The effect conditions travel from TOML to the analyzer unchanged, and mean there what
// docs/config.md says.
func TestLoadConfigEffectRules(t *testing.T) {
	c, err := LoadConfig("testdata/config/effect_rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	got := c.Policy.Rules
	if len(got) != 4 {
		t.Fatalf("got %d rules, want 4", len(got))
	}
	if d := cmp.Diff([]string{"git"}, got[0].Commands); d != "" {
		t.Errorf("commands: %s", d)
	}
	if d := cmp.Diff([]string{"~/src"}, got[0].CwdUnder); d != "" {
		t.Errorf("cwd_under: %s", d)
	}
	if d := cmp.Diff([]string{"workspace", "~/notes", "/srv/datasets/**"}, got[1].PathsWithin); d != "" {
		t.Errorf("paths_within: %s", d)
	}
	if got[3].Kind != riskmodel.KindMCP || got[3].Glob != "filesystem/*" || len(got[3].PathsWithin) != 1 {
		t.Errorf("mcp rule: %+v", got[3])
	}
	a, err := riskmodel.New(c.Policy)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		cmd, cwd string
		want     riskmodel.Decision
	}{
		{"git push --force origin feature/x", "/home/dev/src/app", riskmodel.Allow},
		{"git push --force origin feature/x", "/home/dev/elsewhere", riskmodel.Ask},
		{"mytool export a.json | jq . | sort", "/home/dev/project", riskmodel.Allow},
		{"mytool export /etc/passwd | jq .", "/home/dev/project", riskmodel.Ask},
		{"kubectl get pods", "/srv/prod/api", riskmodel.Deny},
	} {
		v := a.Exec(ctx, riskmodel.ExecRequest{Command: []string{"bash", "-c", tc.cmd}, Cwd: tc.cwd})
		if v.Decision != tc.want {
			t.Errorf("%s in %s: %s (%s), want %s", tc.cmd, tc.cwd, v.Decision, v.DecidedBy, tc.want)
		}
	}
	if c.PolicyVersion() == (Config{}).PolicyVersion() {
		t.Error("the effect conditions do not reach the policy version")
	}
	c2 := c
	c2.Policy.Rules = append([]riskmodel.UserRule(nil), c.Policy.Rules...)
	c2.Policy.Rules[1].PathsWithin = []string{"workspace"}
	if c.PolicyVersion() == c2.PolicyVersion() {
		t.Error("changing paths_within must change the policy version")
	}
}
