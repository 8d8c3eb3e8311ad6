package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/mcp/fixture"
)

// rawHost speaks JSON-RPC to a stdio downstream line by line, to see exactly what a host
// receives (mcp-go's typed client would drop unknown top-level params).
type rawHost struct {
	t   *testing.T
	out *bufio.Reader
	in  io.Writer
}

func (h *rawHost) send(msg string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, msg+"\n"); err != nil {
		h.t.Fatal(err)
	}
}

// next reads the next message that is not a notification.
func (h *rawHost) next() map[string]json.RawMessage {
	h.t.Helper()
	for {
		line, err := h.out.ReadBytes('\n')
		if err != nil {
			h.t.Fatalf("read: %v", err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			h.t.Fatalf("%v: %s", err, line)
		}
		if _, ok := m["id"]; ok {
			return m
		}
	}
}

// TestExecApprovalRawStdioHost: a stdio host (before 2026-07-28) is shown Codex's exec
// approval with every codex_* param at the top level, as Codex sent it, and its own
// {"decision": …} reaches Codex unchanged; an ElicitResult is mapped.
func TestExecApprovalRawStdioHost(t *testing.T) {
	p, _ := newProxy(t, codexUpstream("codex"))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- p.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	t.Cleanup(func() { inW.Close(); <-done })
	h := &rawHost{t: t, out: bufio.NewReader(outR), in: inW}
	h.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"codex-mcp-client","title":"Codex","version":"0.169.0"}}}`)
	h.next()
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	for i, tc := range []struct{ answer, want string }{
		{`{"decision":"approved_for_session"}`, `{"decision":"approved_for_session"}`},
		{`{"action":"accept","content":{}}`, `{"decision":"approved"}`},
		{`{"action":"decline"}`, `{"decision":"denied"}`},
		{`{"action":"cancel"}`, `{"decision":"abort"}`},
	} {
		id := `"call-` + string(rune('a'+i)) + `"`
		h.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + fixture.CodexTool + `","arguments":{"command":["git","push","upstream","feature"],"cwd":"/tmp/work"}}}`)
		req := h.next()
		if string(req["method"]) != `"elicitation/create"` {
			t.Fatalf("host got %v, want elicitation/create", req)
		}
		var params map[string]json.RawMessage
		if err := json.Unmarshal(req["params"], &params); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"threadId", "codex_elicitation", "codex_command", "codex_cwd", "codex_call_id", "codex_event_id", "codex_mcp_tool_call_id", "codex_parsed_cmd"} {
			if _, ok := params[k]; !ok {
				t.Errorf("params lack top-level %s: %s", k, req["params"])
			}
		}
		if string(params["codex_mcp_tool_call_id"]) == "" || !strings.Contains(string(params["message"]), `\n\nguardian: `) {
			t.Errorf("params: %s", req["params"])
		}
		var meta map[string]json.RawMessage
		_ = json.Unmarshal(params["_meta"], &meta)
		if _, ok := meta[rawRefKey]; ok {
			t.Errorf("the host saw %s", rawRefKey)
		}
		if _, ok := meta["guardian/assessment"]; !ok {
			t.Errorf("_meta lacks guardian/assessment: %s", params["_meta"])
		}
		h.send(`{"jsonrpc":"2.0","id":` + string(req["id"]) + `,"result":` + tc.answer + `}`)
		res := h.next()
		if string(res["id"]) != id {
			t.Fatalf("got %v, want the tools/call result", res)
		}
		var r struct {
			Content []struct{ Text string } `json:"content"`
		}
		if err := json.Unmarshal(res["result"], &r); err != nil || len(r.Content) != 1 {
			t.Fatalf("result %s: %v", res["result"], err)
		}
		if r.Content[0].Text != tc.want {
			t.Errorf("host answered %s: Codex read %s, want %s", tc.answer, r.Content[0].Text, tc.want)
		}
	}
}
