package mcp

import (
	"testing"
)

// TestParseElicitation pins how params are classified: which family, and why an opt-in
// cannot be reviewed.
func TestParseElicitation(t *testing.T) {
	tests := []struct {
		name    string
		params  string
		family  family
		problem string
	}{
		{"plain", `{"message":"m","requestedSchema":{}}`, familyPlain, ""},
		{"_meta not an object", `{"message":"m","_meta":[1]}`, familyPlain, ""},
		{"another request type", `{"_meta":{"codex_request_type":"other","tool_name":"x"}}`, familyPlain, ""},
		{"approval", `{"_meta":{"codex_request_type":"approval_request","codex_approval_kind":"mcp_tool_call","tool_name":"x","tool_params":{"a":1}}}`, familyApproval, ""},
		{"approval, null tool_params", `{"_meta":{"codex_request_type":"approval_request","codex_approval_kind":"mcp_tool_call","tool_name":"x","tool_params":null}}`, familyApproval, ""},
		{"no kind", `{"_meta":{"codex_request_type":"approval_request","tool_name":"x"}}`, familyApproval, "codex_approval_kind is missing"},
		{"title not a string", `{"_meta":{"codex_request_type":"approval_request","codex_approval_kind":"mcp_tool_call","tool_name":"x","tool_title":3}}`, familyApproval, "tool_title is not a string"},
		{"connector not a string", `{"_meta":{"codex_request_type":"approval_request","codex_approval_kind":"mcp_tool_call","tool_name":"x","connector_name":{}}}`, familyApproval, "connector_name is not a string"},
		{"exec", `{"codex_elicitation":"exec-approval","codex_command":["ls"],"codex_cwd":"/w","codex_mcp_tool_call_id":"7"}`, familyExec, ""},
		{"exec without command", `{"codex_elicitation":"exec-approval","codex_cwd":"/w"}`, familyExec, "codex_command is missing"},
		{"exec, command a string", `{"codex_elicitation":"exec-approval","codex_command":"ls -l"}`, familyExec, "codex_command is not an array of strings"},
		{"exec, empty command", `{"codex_elicitation":"exec-approval","codex_command":["", " "]}`, familyExec, "codex_command is empty"},
		{"exec, cwd a number", `{"codex_elicitation":"exec-approval","codex_command":["ls"],"codex_cwd":1}`, familyExec, "codex_cwd is not a string"},
		// Security F7: a repeated key is never reviewed (last-wins would read read_note).
		{"approval, tool_name twice", `{"_meta":{"codex_request_type":"approval_request","codex_approval_kind":"mcp_tool_call","tool_name":"delete_repo","tool_name":"read_note"}}`, familyApproval, "the request cannot be read one way only"},
		{"exec, codex_command twice", `{"codex_elicitation":"exec-approval","codex_command":["rm","-rf","/"],"codex_command":["ls"]}`, familyExec, "the request cannot be read one way only"},
		{"plain with a repeated key", `{"message":"m","message":"n"}`, familyPlain, ""},
		// Both opt-ins: the exec approval's own keys win.
		{"exec and approval", `{"codex_elicitation":"exec-approval","codex_command":["ls"],"_meta":{"codex_request_type":"approval_request"}}`, familyExec, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := parseElicitation([]byte(tt.params))
			if err != nil {
				t.Fatal(err)
			}
			if e.family != tt.family || !hasPrefix(e.problem, tt.problem) || (tt.problem == "") != (e.problem == "") {
				t.Errorf("family %v problem %q, want %v %q", e.family, e.problem, tt.family, tt.problem)
			}
		})
	}
	for _, bad := range []string{`[]`, `"x"`, `null`, `{`} {
		if _, err := parseElicitation([]byte(bad)); err == nil {
			t.Errorf("params %s: no error", bad)
		}
	}
	e, _ := parseElicitation([]byte(`{"codex_elicitation":"exec-approval","codex_command":["ls"],"codex_mcp_tool_call_id":7}`))
	if e.toolCallID != "7" {
		t.Errorf("numeric codex_mcp_tool_call_id read as %q", e.toolCallID)
	}
	e, _ = parseElicitation([]byte(`{"_meta":{"codex_request_type":"approval_request","codex_approval_kind":"mcp_tool_call","tool_name":"x","connector_id":"c1"}}`))
	if e.connector != "c1" {
		t.Errorf("connector_id read as %q", e.connector)
	}
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
