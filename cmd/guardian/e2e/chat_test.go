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

// chatFake is a scripted OpenAI Chat Completions API (POST …/chat/completions), the dialect of
// Qwen Code's OpenAI provider: the first request that offers the scripted tool is answered with
// one tool call; the request carrying that call's role "tool" message back is answered with
// closing text and recorded; anything else gets a short text answer. It streams (SSE chunks,
// then [DONE]) when the request asks for it, and answers with one JSON object otherwise.
type chatFake struct {
	recorder
	srv  *httptest.Server
	call toolCall
}

// newChatFake starts the fake on 127.0.0.1 and closes it when the test ends.
func newChatFake(t *testing.T, call toolCall) *chatFake {
	t.Helper()
	f := &chatFake{call: call}
	f.srv = serveFake(t, f.serve)
	return f
}

// URL is the API root (with /v1) for OPENAI_BASE_URL.
func (f *chatFake) URL() string { return f.srv.URL + "/v1" }

// chatRequest is the part of a Chat Completions request the fake reads.
type chatRequest struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func (f *chatFake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req chatRequest
	_ = json.Unmarshal(body, &req)
	f.request(fmt.Sprintf("%s %s (%d tools, %d messages)", r.Method, r.URL.Path, len(req.Tools), len(req.Messages)))
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "fake-model", "object": "model"}}})
		return
	}
	for _, m := range req.Messages {
		if m.Role == "tool" && m.ToolCallID == fakeCallID {
			f.result(toolResult{Text: chatText(m.Content)})
			f.answer(w, req.Stream, map[string]any{"role": "assistant", "content": "The tool result came back; the turn is over."}, "stop")
			return
		}
	}
	offered := false
	for _, tl := range req.Tools {
		offered = offered || tl.Function.Name == f.call.Name
	}
	if !offered {
		f.answer(w, req.Stream, map[string]any{"role": "assistant", "content": "ok"}, "stop")
		return
	}
	args, _ := json.Marshal(f.call.Input)
	f.answer(w, req.Stream, map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
		"index": 0, "id": fakeCallID, "type": "function", "function": map[string]any{"name": f.call.Name, "arguments": string(args)},
	}}}, "tool_calls")
}

// answer writes msg as a completion: one chunk carrying the whole message as its delta, then
// a chunk with the finish reason and usage, then [DONE]; or one JSON object.
func (f *chatFake) answer(w http.ResponseWriter, stream bool, msg map[string]any, finish string) {
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
	if !stream {
		writeJSON(w, map[string]any{"id": "chatcmpl-e2e", "object": "chat.completion", "created": 1, "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(choice map[string]any, extra map[string]any) map[string]any {
		c := map[string]any{"id": "chatcmpl-e2e", "object": "chat.completion.chunk", "created": 1, "model": "fake-model", "choices": []any{choice}}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	writeSSE(w, "", chunk(map[string]any{"index": 0, "delta": msg, "finish_reason": nil}, nil))
	writeSSE(w, "", chunk(map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}, map[string]any{"usage": usage}))
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// chatText is a message's content as text: a string, or the text of its parts.
func chatText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
