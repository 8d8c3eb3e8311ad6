package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeModel is an OpenAI-compatible endpoint that answers every chat completion with content,
// or with status when status is not 200, and counts the requests it got.
func fakeModel(t *testing.T, status int, content string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if status != http.StatusOK {
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"error":{"message":"invalid api key","type":"invalid_request_error"}}`))
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "model": "fake",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}},
			"usage": map[string]any{"prompt_tokens": 700, "completion_tokens": 40, "total_tokens": 740},
		})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

const lowAllow = `{"summary":"Runs the project's frobnicate tool.","risk_level":"low","category":"none","user_authorization":"high","outcome":"allow","rationale":"A project tool inside the workspace.","safer_alternative":""}`

func modelDeps(baseURL string) (deps, *bytes.Buffer, *bytes.Buffer) {
	d, out, errb := testDeps("")
	env := map[string]string{"HOME": "/home/dev", "GUARDIAN_MODEL_BASE_URL": baseURL, "GUARDIAN_MODEL": "fake-model"}
	if baseURL == "" {
		env = map[string]string{"HOME": "/home/dev"}
	}
	d.getenv = func(k string) string { return env[k] }
	return d, out, errb
}

// TestReviewWithModel runs whole CLI reviews with a model configured through the environment:
// the model decides what the rules leave open, never what they decide, and its failures ask.
func TestReviewWithModel(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		args      []string
		wantCode  int
		wantOut   []string
		wantCalls int32
	}{
		{"model allows what rules leave open", 200, []string{"review", "exec", "--json", "--", "frobnicate", "--all"}, 0,
			[]string{`"decision":"allow"`, `"status":"ok"`, `"decided_by":"model:fake-model@exec-v2#`, `"usage":{"input_tokens":700,"output_tokens":40}`}, 1},
		{"rules deny without asking the model", 200, []string{"review", "exec", "--json", "--", "rm", "-rf", "/home/dev"}, 20,
			[]string{`"decision":"deny"`, `"status":"rule"`}, 0},
		{"rules allow without asking the model", 200, []string{"review", "exec", "--", "ls"}, 0, []string{"ALLOW"}, 0},
		{"a failing model asks", 401, []string{"review", "exec", "--json", "--", "frobnicate"}, 10,
			[]string{`"decision":"ask"`, `"status":"unavailable"`, `"decided_by":"fallback"`}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, calls := fakeModel(t, tc.status, lowAllow)
			d, out, errb := modelDeps(srv.URL + "/v1")
			code := run(context.Background(), tc.args, d)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; stdout %s stderr %s", code, tc.wantCode, out, errb)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			if got := calls.Load(); got != tc.wantCalls {
				t.Errorf("model requests = %d, want %d", got, tc.wantCalls)
			}
		})
	}
}

func TestModelCheck(t *testing.T) {
	srv, _ := fakeModel(t, 200, lowAllow)
	d, out, errb := modelDeps(srv.URL + "/v1")
	if code := run(context.Background(), []string{"model", "check", "--json"}, d); code != 0 {
		t.Fatalf("exit %d; stderr %s", code, errb)
	}
	var got checkJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !got.OK || !got.StructuredOutput || got.Outcome != "allow" || got.Model != "fake-model" || got.InputTokens != 700 {
		t.Errorf("check = %+v", got)
	}

	failing, _ := fakeModel(t, 401, "")
	d, _, errb = modelDeps(failing.URL + "/v1")
	if code := run(context.Background(), []string{"model", "check"}, d); code != exitInternal || !strings.Contains(errb.String(), "model check failed") {
		t.Errorf("failing model: exit %d, stderr %s", code, errb)
	}

	d, _, errb = modelDeps("")
	if code := run(context.Background(), []string{"model", "check"}, d); code != exitInvalid || !strings.Contains(errb.String(), "no model is configured") {
		t.Errorf("no model: exit %d, stderr %s", code, errb)
	}
}
