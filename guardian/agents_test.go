package guardian

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/guardianhq/guardian/riskmodel"
)

// agentCallers are the callers the policy table judges: every role, with and without a name.
var agentCallers = []struct {
	name string
	c    Caller
}{
	{"main", Caller{Host: "claude", AgentRole: AgentRoleMain}},
	{"main as test-runner", Caller{Host: "claude", AgentRole: AgentRoleMain, Agent: "test-runner"}},
	{"sub Explore", Caller{Host: "claude", AgentRole: AgentRoleSubagent, Agent: "Explore", AgentID: "a1"}},
	{"sub general-purpose", Caller{Host: "claude", AgentRole: AgentRoleSubagent, Agent: "general-purpose", AgentID: "a2"}},
	{"sub unnamed", Caller{Host: "claude", AgentRole: AgentRoleSubagent, AgentID: "a3"}},
	{`sub named "main"`, Caller{Host: "claude", AgentRole: AgentRoleSubagent, Agent: "main", AgentID: "a4"}},
	{"unknown", Caller{Host: "predicate"}},
	{"unknown named Explore", Caller{Host: "http", Agent: "Explore"}},
}

// TestAgentPolicyGrants is the semantics table of docs/config.md: for every mode and trusted
// list, which callers' allows stand. Y = granted, N = handed to the human; one letter per
// caller of agentCallers, in order.
func TestAgentPolicyGrants(t *testing.T) {
	tests := []struct {
		name   string
		policy AgentPolicy
		want   string // main, main as test-runner, sub Explore, sub general-purpose, sub unnamed, sub "main", unknown, unknown Explore
		why    string // in every refusal
	}{
		{"zero value: everywhere", AgentPolicy{}, "YYYYYYYY", ""},
		{"everywhere", AgentPolicy{AutoApprove: AutoApproveEverywhere}, "YYYYYYYY", ""},
		{"subagent-only", AgentPolicy{AutoApprove: AutoApproveSubagentOnly}, "NNYYYYNN", `auto_approve = "subagent-only"`},
		{"off", AgentPolicy{AutoApprove: AutoApproveOff}, "NNNNNNNN", `auto_approve = "off"`},
		{"everywhere, trusted Explore", AgentPolicy{Trusted: []string{"Explore"}}, "NNYNNNNY", `[agents] trusted = ["Explore"]`},
		{"everywhere, trusted main and Explore", AgentPolicy{Trusted: []string{MainAgent, "Explore"}}, "YYYNNNNY", `trusted = ["main", "Explore"]`},
		{"everywhere, trusted test-runner", AgentPolicy{Trusted: []string{"test-runner"}}, "NYNNNNNN", `trusted = ["test-runner"]`},
		{"subagent-only, trusted Explore", AgentPolicy{AutoApprove: AutoApproveSubagentOnly, Trusted: []string{"Explore"}}, "NNYNNNNN", ""},
		{"subagent-only, trusted main (no effect)", AgentPolicy{AutoApprove: AutoApproveSubagentOnly, Trusted: []string{MainAgent}}, "NNNNNNNN", ""},
		{"off, trusted Explore", AgentPolicy{AutoApprove: AutoApproveOff, Trusted: []string{"Explore"}}, "NNNNNNNN", `"off"`},
		{"not a mode (Go callers only): off", AgentPolicy{AutoApprove: "Everywhere"}, "NNNNNNNN", `auto_approve = "Everywhere" is not a mode guardian knows`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.want) != len(agentCallers) {
				t.Fatalf("want %q has %d letters for %d callers", tc.want, len(tc.want), len(agentCallers))
			}
			for i, ac := range agentCallers {
				ok, why := tc.policy.Grants(ac.c)
				if want := tc.want[i] == 'Y'; ok != want {
					t.Errorf("%s: granted = %v, want %v (%s)", ac.name, ok, want, why)
				}
				if ok != (why == "") {
					t.Errorf("%s: granted = %v with reason %q: a refusal needs a reason, a grant none", ac.name, ok, why)
				}
				if !ok && !strings.Contains(why, tc.why) {
					t.Errorf("%s: reason %q does not name the setting %q", ac.name, why, tc.why)
				}
			}
		})
	}
}

// TestAgentPolicyReasons: the human reads why the request came to them — which agent, and
// why that agent was not trusted.
func TestAgentPolicyReasons(t *testing.T) {
	sub := AgentPolicy{AutoApprove: AutoApproveSubagentOnly}
	list := AgentPolicy{Trusted: []string{"Explore"}}
	tests := []struct {
		policy AgentPolicy
		c      Caller
		want   string
	}{
		{sub, Caller{AgentRole: AgentRoleMain}, `the request comes from the main agent, and [agents] auto_approve = "subagent-only" approves only sub-agents' requests automatically`},
		{sub, Caller{}, "the host did not say which agent asked, so it counts as the main agent"},
		{list, Caller{AgentRole: AgentRoleSubagent, Agent: "general-purpose"}, `sub-agent "general-purpose" is not named in [agents] trusted = ["Explore"]`},
		{list, Caller{AgentRole: AgentRoleSubagent}, "a sub-agent without a name is not named"},
		{list, Caller{AgentRole: AgentRoleMain, Agent: "test-runner"}, `the main agent (running as "test-runner") is not named`},
		{list, Caller{}, "an agent the host did not identify is not named"},
		{list, Caller{Agent: "x"}, `agent "x" (the host did not say whether it is the main agent or a sub-agent)`},
		// Names are the host's text: quoted, control characters escaped, capped.
		{list, Caller{AgentRole: AgentRoleSubagent, Agent: "evil\n\x1b[2Jname"}, `sub-agent "evil\n\x1b[2Jname"`},
		{list, Caller{AgentRole: AgentRoleSubagent, Agent: strings.Repeat("é", 100)}, `sub-agent "` + strings.Repeat("é", 40) + `"…`},
	}
	for _, tc := range tests {
		_, why := tc.policy.Grants(tc.c)
		if !strings.Contains(why, tc.want) {
			t.Errorf("%+v: reason %q, want it to contain %q", tc.c, why, tc.want)
		}
		if strings.ContainsAny(why, "\n\x1b") {
			t.Errorf("reason %q holds a raw control character", why)
		}
	}
}

// TestAgentPolicyApply: only an allow is ever changed, and only into ask; the human sees the
// review's assessment and what it would have decided.
func TestAgentPolicyApply(t *testing.T) {
	usage := &Usage{InputTokens: 10, OutputTokens: 2}
	allow := Result{Decision: riskmodel.Allow, Status: StatusOK, DecidedBy: "model:m@exec-v3", Usage: usage,
		Assessment: riskmodel.Assessment{Summary: "Lists files.", Level: riskmodel.Low, Category: riskmodel.CatReadOnly, Rationale: "Read only.",
			Findings: []riskmodel.Finding{{RuleID: "r"}}}}
	off := AgentPolicy{AutoApprove: AutoApproveOff}
	sub := Caller{AgentRole: AgentRoleSubagent, Agent: "Explore"}

	got := off.Apply(allow, sub)
	want := allow
	want.Decision, want.Status, want.DecidedBy = riskmodel.Ask, StatusAgentPolicy, DecidedByAgentPolicy
	want.Assessment.Rationale = `Agent policy: [agents] auto_approve = "off": no agent's requests are approved automatically; handing the request to the human. The review would allow (decided by model:m@exec-v3, status ok). Read only.`
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("held allow (-want +got):\n%s", d)
	}
	if allow.Decision != riskmodel.Allow || allow.Assessment.Rationale != "Read only." {
		t.Error("Apply changed its argument")
	}

	for _, d := range []riskmodel.Decision{riskmodel.Deny, riskmodel.Ask, 0} {
		res := Result{Decision: d, Status: StatusRule, DecidedBy: "rule:x"}
		if got := off.Apply(res, sub); !cmp.Equal(got, res) {
			t.Errorf("%v changed to %+v: the policy must only ever hold an allow", d, got)
		}
	}
	if got := (AgentPolicy{}).Apply(allow, Caller{}); !cmp.Equal(got, allow) {
		t.Errorf("granted allow changed: %+v", got)
	}
}

// TestDecideAppliesAgentPolicy: Decide applies the policy for its caller, after the cache (a
// cached allow is held too) and before the metrics; Review, which has no caller, never does.
func TestDecideAppliesAgentPolicy(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	p := newPipeline(t, WithCache(time.Hour, 8, "v"), WithMeterProvider(mp),
		WithAgentPolicy(AgentPolicy{AutoApprove: AutoApproveSubagentOnly, Trusted: []string{"Explore"}}))
	ctx := context.Background()
	req := execReq("ls") // a rule allow at low risk: cached
	explore := Caller{Host: "claude", AgentRole: AgentRoleSubagent, Agent: "Explore"}
	main := Caller{Host: "claude", AgentRole: AgentRoleMain}

	steps := []struct {
		name   string
		decide func() (Result, error)
		want   riskmodel.Decision
		status Status
	}{
		{"trusted sub-agent: the rule's allow", func() (Result, error) { return p.Decide(ctx, req, explore) }, riskmodel.Allow, StatusRule},
		{"main agent: the cached allow is held", func() (Result, error) { return p.Decide(ctx, req, main) }, riskmodel.Ask, StatusAgentPolicy},
		{"trusted sub-agent again: cached allow", func() (Result, error) { return p.Decide(ctx, req, explore) }, riskmodel.Allow, StatusCached},
		{"Review, no caller: no policy", func() (Result, error) { return p.Review(ctx, req) }, riskmodel.Allow, StatusCached},
		{"deny stands for the trusted agent", func() (Result, error) { return p.Decide(ctx, execReq("rm -rf ~/"), explore) }, riskmodel.Deny, StatusRule},
	}
	for _, s := range steps {
		res, err := s.decide()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if res.Decision != s.want || res.Status != s.status {
			t.Errorf("%s: %s (%s), want %s (%s)", s.name, res.Decision, res.Status, s.want, s.status)
		}
	}
	if n := p.cache.len(); n != 2 {
		t.Errorf("cache holds %d entries, want 2: a held allow must not replace the cached one", n)
	}
	sum, ok := collect(t, reader)[MetricDecisions].(metricdata.Sum[int64])
	if !ok {
		t.Fatalf("%s missing", MetricDecisions)
	}
	var held int64
	for _, dp := range sum.DataPoints {
		if v, _ := dp.Attributes.Value("status"); v.AsString() == string(StatusAgentPolicy) {
			held += dp.Value
		}
	}
	if held != 1 {
		t.Errorf("metrics count %d held decisions, want 1: they must count what was answered", held)
	}
	if _, err := p.Decide(ctx, Request{Kind: riskmodel.KindExec}, main); err == nil {
		t.Error("Decide of an invalid request: no error")
	}
}

func TestParseAgentRole(t *testing.T) {
	for in, want := range map[string]AgentRole{"": AgentRoleUnknown, "main": AgentRoleMain, "subagent": AgentRoleSubagent} {
		if got, err := ParseAgentRole(in); err != nil || got != want {
			t.Errorf("ParseAgentRole(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"Main", "sub-agent", "unknown", " main"} {
		if _, err := ParseAgentRole(in); err == nil || !strings.Contains(err.Error(), `"subagent"`) {
			t.Errorf("ParseAgentRole(%q): err = %v, want one listing the roles", in, err)
		}
	}
	if AgentRoleUnknown.String() != "unknown" || AgentRoleSubagent.String() != "subagent" {
		t.Error("AgentRole.String")
	}
}

// BenchmarkAgentPolicy measures what the agent policy adds to a decision: Review alone, and
// Decide for a caller the policy grants and one it holds (rules only, cached, so the policy's
// share is visible).
func BenchmarkAgentPolicy(b *testing.B) {
	a, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		b.Fatal(err)
	}
	p := New(a, WithCache(time.Hour, 64, "bench"),
		WithAgentPolicy(AgentPolicy{AutoApprove: AutoApproveSubagentOnly, Trusted: []string{"Explore", "test-runner", "explorer"}}))
	ctx := context.Background()
	req := execReq("ls -la")
	for _, bc := range []struct {
		name   string
		decide func() (Result, error)
	}{
		{"review", func() (Result, error) { return p.Review(ctx, req) }},
		{"decide-granted", func() (Result, error) {
			return p.Decide(ctx, req, Caller{Host: "claude", AgentRole: AgentRoleSubagent, Agent: "explorer"})
		}},
		{"decide-held", func() (Result, error) {
			return p.Decide(ctx, req, Caller{Host: "claude", AgentRole: AgentRoleSubagent, Agent: "general-purpose"})
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.decide(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
