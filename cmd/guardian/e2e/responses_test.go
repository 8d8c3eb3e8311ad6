package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// responsesFake is a scripted OpenAI Responses API for Codex (a [model_providers.X] with
// wire_api = "responses" and base_url pointing here): the first turn answers with the one
// scripted function call, streamed as SSE (response.created, response.output_item.done,
// response.completed); once Codex sends that call's function_call_output back, the turn ends
// with a text message. Requests of Codex's own auto-reviewer (it reviews an escalation when
// no hook gave a verdict) are answered with a denial and counted, so a test can tell "no
// verdict" from a hook's deny. Every tool result is recorded.
type responsesFake struct {
	recorder
	srv         *httptest.Server
	call        toolCall
	autoReviews atomic.Int64
}

// fakeCallID is the call_id of the scripted function call.
const fakeCallID = "call_e2e_1"

// autoReviewDenial is the rationale of the fake's answer to Codex's auto-reviewer: it shows
// in the rejection Codex reports to the model when no hook gave a verdict.
const autoReviewDenial = "scripted auto-review denies"

// newResponsesFake starts the fake on 127.0.0.1 and closes it when the test ends.
func newResponsesFake(t *testing.T, call toolCall) *responsesFake {
	t.Helper()
	f := &responsesFake{call: call}
	f.srv = serveFake(t, f.serve)
	return f
}

// URL is the provider's base_url (with /v1).
func (f *responsesFake) URL() string { return f.srv.URL + "/v1" }

// AutoReviews is how many times Codex's own reviewer was asked: it is asked only when no
// hook gave a verdict.
func (f *responsesFake) AutoReviews() int { return int(f.autoReviews.Load()) }

// responsesRequest is the part of a Responses API request the fake reads.
type responsesRequest struct {
	Instructions string            `json:"instructions"`
	Input        []json.RawMessage `json:"input"`
	Tools        []struct {
		Name  string `json:"name"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"` // a namespace's tools
	} `json:"tools"`
	Text struct {
		Format struct {
			Type   string `json:"type"`
			Schema struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schema"`
		} `json:"format"`
	} `json:"text"`
}

// isAutoReview reports whether the request comes from Codex's own approval reviewer, which
// asks for structured output with an "outcome" (allow or deny).
func (req responsesRequest) isAutoReview() bool {
	_, ok := req.Text.Format.Schema.Properties["outcome"]
	return req.Text.Format.Type == "json_schema" && ok
}

// inputItem is one item of a request's input.
type inputItem struct {
	Type   string          `json:"type"`
	CallID string          `json:"call_id"`
	Output json.RawMessage `json:"output"`
}

func (f *responsesFake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req responsesRequest
	_ = json.Unmarshal(body, &req)
	kind := fmt.Sprintf("%d tools", len(req.Tools))
	if req.isAutoReview() {
		kind = "Codex's auto-review"
	}
	f.request(fmt.Sprintf("%s %s (%s)", r.Method, r.URL.Path, kind))
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		writeJSON(w, map[string]any{"object": "list", "data": []any{}})
		return
	}
	if req.isAutoReview() {
		f.autoReviews.Add(1)
		verdict, _ := json.Marshal(map[string]any{"outcome": "deny", "risk_level": "high", "user_authorization": "unknown",
			"rationale": autoReviewDenial})
		f.stream(w, map[string]any{"type": "message", "role": "assistant", "id": "msg_e2e_review",
			"content": []any{map[string]any{"type": "output_text", "text": string(verdict)}}})
		return
	}
	if out, ok := req.output(); ok {
		f.result(out)
		f.stream(w, map[string]any{"type": "message", "role": "assistant", "id": "msg_e2e_1",
			"content": []any{map[string]any{"type": "output_text", "text": "The tool result came back; the turn is over."}}})
		return
	}
	if !req.offers(f.call) {
		f.stream(w, map[string]any{"type": "message", "role": "assistant", "id": "msg_e2e_0",
			"content": []any{map[string]any{"type": "output_text", "text": "ok"}}})
		return
	}
	args, _ := json.Marshal(f.call.Input)
	item := map[string]any{"type": "function_call", "id": "fc_e2e_1", "call_id": fakeCallID, "name": f.call.Name, "arguments": string(args)}
	if f.call.Namespace != "" {
		item["namespace"] = f.call.Namespace
	}
	f.stream(w, item)
}

// offers reports whether the request gives the model the call's tool (in its namespace).
func (req responsesRequest) offers(c toolCall) bool {
	for _, t := range req.Tools {
		if c.Namespace == "" && t.Name == c.Name {
			return true
		}
		if c.Namespace != "" && t.Name == c.Namespace {
			for _, nt := range t.Tools {
				if nt.Name == c.Name {
					return true
				}
			}
		}
	}
	return false
}

// output finds the function_call_output of the scripted call in the request's input.
func (req responsesRequest) output() (toolResult, bool) {
	for _, raw := range req.Input {
		var it inputItem
		if json.Unmarshal(raw, &it) != nil || it.Type != "function_call_output" || it.CallID != fakeCallID {
			continue
		}
		var s string
		if json.Unmarshal(it.Output, &s) != nil {
			s = blockText(it.Output)
		}
		return toolResult{Text: s}, true
	}
	return toolResult{}, false
}

// stream answers with one output item as the SSE sequence Codex reads.
func (f *responsesFake) stream(w http.ResponseWriter, item map[string]any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	resp := map[string]any{"id": "resp_e2e", "object": "response", "status": "in_progress", "model": "fake-model", "output": []any{}}
	writeSSE(w, "response.created", map[string]any{"type": "response.created", "response": resp})
	writeSSE(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	done := map[string]any{"id": "resp_e2e", "object": "response", "status": "completed", "model": "fake-model", "output": []any{item},
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 20, "total_tokens": 120,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}}
	writeSSE(w, "response.completed", map[string]any{"type": "response.completed", "response": done})
}

// abbrev cuts s to n bytes for a failure message.
func abbrev(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
