package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// toolCall is the one tool call a fake model makes in a run: the host's tool name and its
// input, as the model would write them.
type toolCall struct {
	Name  string
	Input map[string]any
	// Namespace is the Responses API namespace of the tool (Codex puts each MCP server's
	// tools in one, mcp__SERVER), "" for a top-level tool.
	Namespace string
}

// toolResult is what the host sent back to the model for the scripted call: the result's
// text, and whether the host flagged it as an error (a refusal, a failed command).
type toolResult struct {
	Text    string
	IsError bool
}

// anthropicFake is a scripted Anthropic Messages API for Claude Code (ANTHROPIC_BASE_URL): the
// first conversation turn answers with the one scripted tool call, streamed as SSE the way
// the real API does; once the host sends that call's tool_result back, the turn ends with
// text. Side requests (title generation, token counting, anything without tools) get a
// minimal answer. Every request is recorded, so a test can read the tool result the host
// reported to the model.
type anthropicFake struct {
	recorder
	srv  *httptest.Server
	call toolCall
}

// fakeToolUseID is the id of the scripted tool call.
const fakeToolUseID = "toolu_e2e00000000000000000001"

// newAnthropicFake starts the fake on 127.0.0.1 and closes it when the test ends.
func newAnthropicFake(t *testing.T, call toolCall) *anthropicFake {
	t.Helper()
	f := &anthropicFake{call: call}
	f.srv = serveFake(t, f.serve)
	return f
}

// URL is the base URL for ANTHROPIC_BASE_URL.
func (f *anthropicFake) URL() string { return f.srv.URL }

// messagesRequest is the part of a Messages API request the fake reads.
type messagesRequest struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// contentBlock is one block of a message's content array.
type contentBlock struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

func (f *anthropicFake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req messagesRequest
	_ = json.Unmarshal(body, &req)
	f.request(fmt.Sprintf("%s %s (%d tools: %s)", r.Method, r.URL.Path, len(req.Tools), abbrev(req.toolNames(), 300)))
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 100})
		return
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages"):
	default:
		writeJSON(w, map[string]any{"data": []any{}, "has_more": false})
		return
	}
	if res, ok := findToolResult(req); ok {
		f.result(res)
		f.reply(w, req.Stream, "end_turn", textBlock("The tool result came back; the turn is over."))
		return
	}
	if !req.offers(f.call.Name) {
		f.reply(w, req.Stream, "end_turn", textBlock("ok"))
		return
	}
	f.reply(w, req.Stream, "tool_use", map[string]any{"type": "tool_use", "id": fakeToolUseID, "name": f.call.Name, "input": f.call.Input})
}

// offers reports whether the request gives the model the tool named name: only the main
// conversation does.
func (req messagesRequest) offers(name string) bool {
	for _, t := range req.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// toolNames lists the request's tools, for failure messages.
func (req messagesRequest) toolNames() string {
	names := make([]string, len(req.Tools))
	for i, t := range req.Tools {
		names[i] = t.Name
	}
	return strings.Join(names, " ")
}

// findToolResult finds the result of the scripted call in the conversation.
func findToolResult(req messagesRequest) (toolResult, bool) {
	for _, m := range req.Messages {
		var blocks []contentBlock
		if m.Role != "user" || json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" && b.ToolUseID == fakeToolUseID {
				return toolResult{Text: blockText(b.Content), IsError: b.IsError}, true
			}
		}
	}
	return toolResult{}, false
}

// blockText is a tool_result's content as text: a string, or the text of its text blocks.
func blockText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func textBlock(text string) map[string]any { return map[string]any{"type": "text", "text": text} }

// reply answers with one content block, as one JSON message or as the SSE event sequence of
// a streamed message (message_start, content_block_start/delta/stop, message_delta,
// message_stop).
func (f *anthropicFake) reply(w http.ResponseWriter, stream bool, stop string, block map[string]any) {
	msg := map[string]any{
		"id": "msg_e2e", "type": "message", "role": "assistant", "model": "claude-e2e-fake",
		"content": []any{block}, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 20},
	}
	if !stream {
		writeJSON(w, msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"], start["stop_reason"] = []any{}, nil
	start["usage"] = map[string]any{"input_tokens": 100, "output_tokens": 1}
	events := []sseEvent{{"message_start", map[string]any{"type": "message_start", "message": start}}}
	switch block["type"] {
	case "tool_use":
		input, _ := json.Marshal(block["input"])
		events = append(events,
			sseEvent{"content_block_start", map[string]any{"type": "content_block_start", "index": 0,
				"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}}},
			sseEvent{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}}})
	default:
		events = append(events,
			sseEvent{"content_block_start", map[string]any{"type": "content_block_start", "index": 0,
				"content_block": map[string]any{"type": "text", "text": ""}}},
			sseEvent{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "text_delta", "text": block["text"]}}})
	}
	events = append(events,
		sseEvent{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		sseEvent{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": 20}}},
		sseEvent{"message_stop", map[string]any{"type": "message_stop"}})
	for _, e := range events {
		writeSSE(w, e.name, e.data)
	}
}

// sseEvent is one server-sent event: its name and its JSON data.
type sseEvent struct {
	name string
	data any
}

// writeSSE writes one server-sent event and flushes it.
func writeSSE(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// writeJSON answers with a JSON body.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
