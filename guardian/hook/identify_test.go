package hook

import (
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestIdentify covers what the recorded payloads do not: every combination of agent_id,
// agent_type and (for Codex) the transcript that proves the main agent.
func TestIdentify(t *testing.T) {
	const sess = "01a1fe29-93bc-72b1-a7df-84c31bbacb8f"
	payload := func(extra string) []byte {
		return []byte(`{"session_id":"` + sess + `","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}` + extra + `}`)
	}
	mainTranscript := `,"transcript_path":"/home/dev/.codex/sessions/2026/11/21/rollout-2026-11-21T12-51-40-` + sess + `.jsonl"`
	subTranscript := `,"transcript_path":"/home/dev/.codex/sessions/2026/11/21/rollout-2026-11-21T12-51-40-01a1fe29-9486-7950-a5de-d49b67a850d6.jsonl"`
	tests := []struct {
		name    string
		proto   Protocol
		in      []byte
		agent   string
		role    guardian.AgentRole
		agentID string
	}{
		{"claude main", Claude{}, payload(""), "", guardian.AgentRoleMain, ""},
		{"claude main under --agent", Claude{}, payload(`,"agent_type":"reviewer"`), "reviewer", guardian.AgentRoleMain, ""},
		{"claude sub-agent", Claude{}, payload(`,"agent_id":"a1","agent_type":"Explore"`), "Explore", guardian.AgentRoleSubagent, "a1"},
		{"claude sub-agent without a type", Claude{}, payload(`,"agent_id":"a1"`), "", guardian.AgentRoleSubagent, "a1"},
		{"codex main: the session's own transcript", Codex{}, payload(mainTranscript), "", guardian.AgentRoleMain, ""},
		{"codex without agent_id or transcript: unknown", Codex{}, payload(""), "", guardian.AgentRoleUnknown, ""},
		{"codex without agent_id, another thread's transcript: unknown", Codex{}, payload(subTranscript), "", guardian.AgentRoleUnknown, ""},
		{"codex sub-agent", Codex{}, payload(subTranscript + `,"agent_id":"01a1fe29-9486","agent_type":"explorer"`), "explorer", guardian.AgentRoleSubagent, "01a1fe29-9486"},
		{"codex agent_type alone proves nothing", Codex{}, payload(`,"agent_type":"worker"`), "worker", guardian.AgentRoleUnknown, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.proto.Parse(tc.in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.Caller.Agent != tc.agent || c.Caller.AgentRole != tc.role || c.Caller.AgentID != tc.agentID {
				t.Errorf("caller = agent %q role %q id %q, want %q %q %q", c.Caller.Agent, c.Caller.AgentRole, c.Caller.AgentID, tc.agent, tc.role, tc.agentID)
			}
		})
	}
	c, err := Predicate{}.Parse(nil, func(k string) string { return map[string]string{EnvCodexCommand: "ls"}[k] })
	if err != nil || c.Caller.AgentRole != guardian.AgentRoleUnknown {
		t.Errorf("predicate caller role = %q (err %v), want unknown: the protocol says nothing about agents", c.Caller.AgentRole, err)
	}
}

// TestAnswerHeldAllow: an allow the agent policy held back reaches Claude Code as ask, with the
// reason and status; on a file edit, where guardian never approves, it stays "no opinion".
func TestAnswerHeldAllow(t *testing.T) {
	pol := guardian.AgentPolicy{AutoApprove: guardian.AutoApproveSubagentOnly}
	held := pol.Apply(result(riskmodel.Allow), guardian.Caller{Host: "claude", AgentRole: guardian.AgentRoleMain})
	r := Claude{}.Answer(Call{Event: EventPreToolUse}, held)
	for _, want := range []string{`"permissionDecision":"ask"`, "Agent policy", `subagent-only`, "(status: agent_policy)"} {
		if !strings.Contains(string(r.Stdout), want) {
			t.Errorf("reply %s lacks %q", r.Stdout, want)
		}
	}
	if r := (Claude{}).Answer(Call{Event: EventPreToolUse, NeverAllow: true}, held); len(r.Stdout) != 0 || r.Exit != 0 {
		t.Errorf("held allow on a file edit = %q exit %d, want no opinion", r.Stdout, r.Exit)
	}
	if r := (Codex{}).Answer(Call{Event: EventPermissionRequest}, held); len(r.Stdout) != 0 {
		t.Errorf("codex: held allow = %q, want no verdict (the human or Codex's reviewer decides)", r.Stdout)
	}
}
