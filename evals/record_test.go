package evals

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/model/client"
	"github.com/guardianhq/guardian/riskmodel"
)

// fakeModel is an OpenAI-compatible chat-completions endpoint: it answers every request with
// a low-risk allow verdict after delay (0: at once), and counts the requests.
type fakeModel struct {
	srv   *httptest.Server
	calls atomic.Int64
}

func newFakeModel(tb testing.TB, delay time.Duration) *fakeModel {
	tb.Helper()
	f := &fakeModel{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.calls.Add(1)
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if delay > 0 {
			select { // the model's thinking time, cut short if the client gives up
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "model": "fake",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant",
				"content": `{"summary":"Runs a project tool.","risk_level":"low","category":"none","user_authorization":"high","outcome":"allow","rationale":"A project tool inside the workspace.","safer_alternative":""}`}}},
			"usage": map[string]any{"prompt_tokens": 700, "completion_tokens": 40, "total_tokens": 740},
		})
	}))
	tb.Cleanup(f.srv.Close)
	return f
}

// modelPipeline is a pipeline whose model talks to baseURL through doer.
func modelPipeline(tb testing.TB, baseURL string, doer HTTPDoer) *guardian.Pipeline {
	tb.Helper()
	an, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		tb.Fatal(err)
	}
	rev, err := client.New(client.Config{BaseURL: baseURL + "/v1", Model: "fake-model"}, client.WithHTTPClient(doer),
		client.WithBackoff(time.Millisecond, 2*time.Millisecond))
	if err != nil {
		tb.Fatal(err)
	}
	p := guardian.New(an, guardian.WithReviewer(rev), guardian.WithDeadline(30*time.Second), guardian.WithModelBreaker(guardian.ModelBreakerConfig{Failures: -1}))
	tb.Cleanup(func() { _ = p.Close() })
	return p
}

// unknownCases are exec cases the rules leave at ask, so the model is consulted.
func unknownCases(names ...string) []Case {
	var cs []Case
	for _, n := range names {
		c := mkCase(n, "", label{allow, low, none})
		c.Request.Exec.Command = []string{"frobnicate", n}
		cs = append(cs, c)
	}
	return cs
}

func runAll(t *testing.T, p Reviewer, cases []Case) []CaseRun {
	t.Helper()
	r, err := NewRunner(p, WithConcurrency(4), WithRepeat(2))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := r.Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestRecordThenReplay records a run against a fake model, then replays it with the model
// gone: same answers, no request sent, and a prompt that was never recorded is a replay miss.
func TestRecordThenReplay(t *testing.T) {
	fake := newFakeModel(t, 0)
	rec := NewRecording()
	live := runAll(t, modelPipeline(t, fake.srv.URL, rec.Recorder(http.DefaultClient)), unknownCases("a", "b", "c"))
	// 3 cases × 2 repeats, each reviewed by the model once.
	if n := fake.calls.Load(); n != 6 {
		t.Fatalf("the model got %d requests, want 6", n)
	}
	if rec.Len() != 3 {
		t.Fatalf("recorded %d answers, want 3 (one per prompt: repeats share it)", rec.Len())
	}
	path := filepath.Join(t.TempDir(), "answers.jsonl")
	if err := rec.WriteFile(path); err != nil {
		t.Fatal(err)
	}

	fake.srv.Close() // from here on, any request to the model would fail
	loaded, err := LoadRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	if m := loaded.Models(); len(m) != 1 || m[0] != "fake-model" {
		t.Errorf("recorded models %v, want [fake-model]", m)
	}
	replayed := runAll(t, modelPipeline(t, fake.srv.URL, loaded.Replayer()), unknownCases("a", "b", "c", "never-recorded"))
	for i := range 3 {
		for k, o := range replayed[i].Outcomes {
			lo := live[i].Outcomes[k]
			if o.Status != guardian.StatusOK || o.Result.Decision != lo.Result.Decision || o.Result.Assessment.Summary != lo.Result.Assessment.Summary {
				t.Errorf("%s repeat %d: replayed %s/%s %q, live %s/%s %q", replayed[i].Case.ID, k, o.Status, o.Result.Decision,
					o.Result.Assessment.Summary, lo.Status, lo.Result.Decision, lo.Result.Assessment.Summary)
			}
			if o.Result.Usage == nil || o.Result.Usage.InputTokens != 700 {
				t.Errorf("%s: replayed usage %+v, want the recorded 700 input tokens", replayed[i].Case.ID, o.Result.Usage)
			}
		}
	}
	for _, o := range replayed[3].Outcomes {
		if o.Status != StatusReplayMiss || o.Result.Decision != riskmodel.Ask || !strings.Contains(o.Err, "no recorded model answer for prompt sha256:") {
			t.Errorf("never-recorded case: %+v, want replay_miss falling back to ask", o)
		}
	}
	if loaded.Misses() != 2 {
		t.Errorf("misses %d, want 2 (one per repeat of the unrecorded case)", loaded.Misses())
	}
	m := Compute(replayed, nil)
	if m.Statuses.ReplayMiss != 2 || m.Statuses.OK != 6 {
		t.Errorf("statuses %+v, want ok 6 and replay_miss 2", m.Statuses)
	}
}

func TestRecordingKeepsSuccess(t *testing.T) {
	r := NewRecording()
	key := "sha256:" + strings.Repeat("0", 64)
	r.put(RecordedResponse{Key: key, Status: 200, Case: "first", Body: json.RawMessage(`{"ok":1}`)})
	r.put(RecordedResponse{Key: key, Status: 503, Case: "second", Body: json.RawMessage(`{"error":{}}`)})
	if e, _ := r.get(key); e.Status != 200 {
		t.Errorf("a 503 replaced the recorded 200: %+v", e)
	}
	r.put(RecordedResponse{Key: key, Status: 201, Case: "third", Body: json.RawMessage(`{"ok":2}`)})
	if e, _ := r.get(key); e.Status != 201 || e.Case != "first" {
		t.Errorf("a later success should replace the answer and keep the first case: %+v", e)
	}
}

// body is a chat-completion request body with a fenced user message.
func body(model, system, request, nonce string) []byte {
	user := fmt.Sprintf("Fence nonce of this review: %[1]s\n<<<UNTRUSTED-REQUEST-%[1]s>>>\n%[2]s\n<<<END-UNTRUSTED-REQUEST-%[1]s>>>\n<<<RULE-HINTS-%[1]s>>>\n[]\n<<<END-RULE-HINTS-%[1]s>>>", nonce, request)
	b, _ := json.Marshal(map[string]any{"model": model, "temperature": 0.000001, "seed": 1,
		"messages": []map[string]string{{"role": "system", "content": system}, {"role": "user", "content": user}}})
	return b
}

func TestPromptKey(t *testing.T) {
	const n1, n2 = "00112233445566778899aabbccddeeff", "ffeeddccbbaa99887766554433221100"
	key := func(b []byte) string {
		k, _, err := PromptKey(b)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base := key(body("m", "policy", `{"command":["ls"]}`, n1))
	if !keyPattern.MatchString(base) {
		t.Fatalf("key %q", base)
	}
	if k := key(body("m", "policy", `{"command":["ls"]}`, n2)); k != base {
		t.Error("the fence nonce changed the key: no prompt would ever be replayed")
	}
	for name, b := range map[string][]byte{
		"request": body("m", "policy", `{"command":["rm"]}`, n1),
		"model":   body("m2", "policy", `{"command":["ls"]}`, n1),
		"policy":  body("m", "other policy", `{"command":["ls"]}`, n1),
	} {
		if key(b) == base {
			t.Errorf("a different %s gave the same key", name)
		}
	}
	for _, bad := range []string{"not json", `{"model":"m"}`, `{"messages":[{"role":"user","content":"x"}]}`} {
		if _, _, err := PromptKey([]byte(bad)); err == nil {
			t.Errorf("PromptKey(%s) succeeded", bad)
		}
	}
}

func TestReadRecordingErrors(t *testing.T) {
	good := `{"key":"sha256:` + strings.Repeat("a", 64) + `","model":"m","status":200,"body":{}}`
	tests := []struct{ name, in, want string }{
		{"malformed", "{", "rec.jsonl:1: malformed recorded response"},
		{"unknown key", `{"key":"x","surprise":1}`, `rec.jsonl:1: malformed recorded response: json: unknown field "surprise"`},
		{"bad key", `{"key":"md5:1","status":200}`, `rec.jsonl:1: key "md5:1" is not sha256`},
		{"bad status", strings.Replace(good, "200", "42", 1), "rec.jsonl:1: status 42"},
		{"duplicate", good + "\n\n" + good, "rec.jsonl:3: duplicate key"},
		{"two bodies", strings.Replace(good, `"body":{}`, `"body":{},"body_base64":"eA=="`, 1), "both body and body_base64"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadRecording(strings.NewReader(tc.in), "rec.jsonl")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := LoadRecording(filepath.Join(t.TempDir(), "missing.jsonl")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestRecordingNonJSONBody: a body that is not JSON survives a round trip byte for byte.
func TestRecordingNonJSONBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("upstream \xff down"))
	}))
	defer srv.Close()
	rec := NewRecording()
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(string(body("m", "p", "x", "00112233445566778899aabbccddeeff"))))
	resp, err := rec.Recorder(http.DefaultClient).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := rec.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	req, _ = http.NewRequest(http.MethodPost, "http://replay.invalid/v1/chat/completions", strings.NewReader(string(body("m", "p", "x", "ffeeddccbbaa99887766554433221100"))))
	resp, err = loaded.Replayer().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadGateway || string(again) != string(got) || string(got) != "upstream \xff down" || resp.Header.Get("Content-Type") != "text/plain" {
		t.Errorf("replayed %d %q (%s), recorded %q", resp.StatusCode, again, resp.Header.Get("Content-Type"), got)
	}
}
