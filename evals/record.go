package evals

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// HTTPDoer is the seam between the model client and the network: the method set of
// openai.HTTPDoer, which the model client accepts through client.WithHTTPClient. Recording and
// replaying wrap it, so the model client cannot tell a recorded answer from a live one.
type HTTPDoer interface {
	Do(req *http.Request) (*http.Response, error)
}

// RecordedResponse is one model answer in a recording, stored under the digest of the prompt
// that produced it.
type RecordedResponse struct {
	// Key is PromptKey of the request: "sha256:" and 64 hex digits.
	Key string `json:"key"`
	// Model is the model the request named, for people reading the file.
	Model string `json:"model"`
	// Case is the id of the first case whose review sent this prompt, for people reading
	// the file; replay does not use it.
	Case string `json:"case,omitempty"`
	// Status, ContentType and RetryAfter are the HTTP response's; the model client reads the
	// status and Retry-After.
	Status      int    `json:"status"`
	ContentType string `json:"content_type,omitempty"`
	RetryAfter  string `json:"retry_after,omitempty"`
	// Body is the response body when it is JSON (always, from a real endpoint); BodyBase64
	// holds any other body byte for byte.
	Body       json.RawMessage `json:"body,omitempty"`
	BodyBase64 string          `json:"body_base64,omitempty"`
}

func (e RecordedResponse) body() ([]byte, error) {
	if e.BodyBase64 != "" {
		return base64.StdEncoding.DecodeString(e.BodyBase64)
	}
	return e.Body, nil
}

// Recording holds model answers keyed by prompt, so an eval of the model path can be re-run
// offline, in CI, with the same answers. It is safe for concurrent use.
//
// One answer is kept per prompt. A later answer replaces an earlier one, except that a failure
// (non-2xx) never replaces a success: retries of a flaky endpoint leave the answer that
// worked. Replaying therefore gives every repeat of a prompt the same answer.
type Recording struct {
	mu      sync.Mutex
	entries map[string]RecordedResponse
	misses  atomic.Int64
}

// NewRecording returns an empty recording.
func NewRecording() *Recording { return &Recording{entries: map[string]RecordedResponse{}} }

// maxRecordedBody bounds one recorded body, as the model client bounds what it reads
// (client.MaxResponseBytes): a bigger answer is passed through but not recorded.
const maxRecordedBody = 1 << 20

// LoadRecording reads a recording file written by WriteFile.
func LoadRecording(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open recording: %w", err)
	}
	defer f.Close()
	return ReadRecording(f, path)
}

// ReadRecording reads JSONL recorded responses from r. A malformed line, an unknown key, a bad
// key or a duplicate key is an error naming name:line.
func ReadRecording(r io.Reader, name string) (*Recording, error) {
	rec := NewRecording()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 2*maxRecordedBody+64<<10)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var e RecordedResponse
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s:%d: malformed recorded response: %w", name, line, err)
		}
		switch {
		case !keyPattern.MatchString(e.Key):
			return nil, fmt.Errorf("%s:%d: key %q is not sha256: and 64 hex digits", name, line, e.Key)
		case e.Status < 100 || e.Status > 599:
			return nil, fmt.Errorf("%s:%d: status %d is not an HTTP status", name, line, e.Status)
		case len(e.Body) > 0 && e.BodyBase64 != "":
			return nil, fmt.Errorf("%s:%d: both body and body_base64 are set; keep one", name, line)
		}
		if _, err := e.body(); err != nil {
			return nil, fmt.Errorf("%s:%d: body_base64: %w", name, line, err)
		}
		if _, dup := rec.entries[e.Key]; dup {
			return nil, fmt.Errorf("%s:%d: duplicate key %s", name, line, e.Key)
		}
		rec.entries[e.Key] = e
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return rec, nil
}

var keyPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// Len is the number of recorded answers.
func (r *Recording) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.entries)
}

// Models lists the distinct models of the recorded answers, sorted.
func (r *Recording) Models() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ms []string
	for _, e := range r.entries {
		if !slices.Contains(ms, e.Model) {
			ms = append(ms, e.Model)
		}
	}
	slices.Sort(ms)
	return ms
}

// Misses is the number of requests the replayer found no answer for.
func (r *Recording) Misses() int { return int(r.misses.Load()) }

// WriteFile writes the recording as JSONL sorted by key (so re-recording the same answers gives
// the same file) to path, atomically: a temporary file in the same directory is renamed over
// path only once it is complete, so a crash never leaves a half-written recording.
func (r *Recording) WriteFile(path string) error {
	r.mu.Lock()
	keys := make([]string, 0, len(r.entries))
	for k := range r.entries {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, k := range keys {
		if err := enc.Encode(r.entries[k]); err != nil {
			r.mu.Unlock()
			return fmt.Errorf("write recording: %w", err)
		}
	}
	r.mu.Unlock()
	return writeFileAtomic(path, buf.Bytes())
}

// writeFileAtomic writes data to a temporary file beside path and renames it over path.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// put stores e unless it is a failure that would replace a success.
func (r *Recording) put(e RecordedResponse) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.entries[e.Key]; ok {
		if success(old.Status) && !success(e.Status) {
			return
		}
		if old.Case != "" {
			e.Case = old.Case
		}
	}
	r.entries[e.Key] = e
}

func (r *Recording) get(key string) (RecordedResponse, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.entries[key]
	return e, ok
}

func success(status int) bool { return status >= 200 && status < 300 }

// Recorder returns an HTTPDoer that sends every request through next and records each
// chat-completion answer under PromptKey of its request. Requests that are not chat
// completions pass through unrecorded.
func (r *Recording) Recorder(next HTTPDoer) HTTPDoer { return recorder{rec: r, next: next} }

// Replayer returns an HTTPDoer that answers from the recording and never touches the network.
// A request with no recorded answer gets a 404 in the OpenAI error format — which the model
// client does not retry and reports as unavailable, so the pipeline falls back — and is marked
// on its review, which the Runner then reports as StatusReplayMiss.
func (r *Recording) Replayer() HTTPDoer { return replayer{rec: r} }

type recorder struct {
	rec  *Recording
	next HTTPDoer
}

// Do implements HTTPDoer.
func (d recorder) Do(req *http.Request) (*http.Response, error) {
	body, req, err := takeBody(req)
	if err != nil {
		return nil, err
	}
	key, model, kerr := PromptKey(body)
	resp, err := d.next.Do(req)
	if err != nil || kerr != nil {
		return resp, err
	}
	got, err := io.ReadAll(io.LimitReader(resp.Body, maxRecordedBody+1))
	if err != nil {
		resp.Body.Close()
		return nil, fmt.Errorf("record model answer: read body: %w", err)
	}
	if len(got) > maxRecordedBody {
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(got), resp.Body), resp.Body}
		return resp, nil
	}
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(got))
	e := RecordedResponse{Key: key, Model: model, Status: resp.StatusCode,
		ContentType: resp.Header.Get("Content-Type"), RetryAfter: resp.Header.Get("Retry-After")}
	if tr := traceFrom(req.Context()); tr != nil {
		e.Case = tr.caseID
	}
	if json.Valid(got) {
		e.Body = bytes.Clone(got)
	} else {
		e.BodyBase64 = base64.StdEncoding.EncodeToString(got)
	}
	d.rec.put(e)
	return resp, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

type replayer struct{ rec *Recording }

// Do implements HTTPDoer.
func (d replayer) Do(req *http.Request) (*http.Response, error) {
	body, req, err := takeBody(req)
	if err != nil {
		return nil, err
	}
	key, _, kerr := PromptKey(body)
	if kerr == nil {
		if e, ok := d.rec.get(key); ok {
			b, err := e.body()
			if err != nil {
				return nil, fmt.Errorf("replay %s: %w", key, err)
			}
			h := http.Header{}
			if e.ContentType != "" {
				h.Set("Content-Type", e.ContentType)
			}
			if e.RetryAfter != "" {
				h.Set("Retry-After", e.RetryAfter)
			}
			return response(req, e.Status, h, b), nil
		}
	} else {
		key = "(not a chat completion: " + kerr.Error() + ")"
	}
	d.rec.misses.Add(1)
	if tr := traceFrom(req.Context()); tr != nil {
		tr.markMiss(key)
	}
	msg, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": "guardian eval --replay: no recorded answer for prompt " + key + "; record it with --record",
		"type":    "replay_miss", "param": nil, "code": "replay_miss",
	}})
	return response(req, http.StatusNotFound, http.Header{"Content-Type": {"application/json"}}, msg), nil
}

func response(req *http.Request, status int, h http.Header, body []byte) *http.Response {
	return &http.Response{
		Status:        strconv.Itoa(status) + " " + http.StatusText(status),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}

// takeBody reads req's body and returns it with a copy of req whose body can be read again.
func takeBody(req *http.Request) ([]byte, *http.Request, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, req, nil
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("read model request body: %w", err)
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(b))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	out.ContentLength = int64(len(b))
	return b, out, nil
}

// fenceNonce finds the random nonce of the prompt's fence markers (see package prompts): the
// request and the rule hints sit between <<<UNTRUSTED-REQUEST-NONCE>>> and
// <<<END-UNTRUSTED-REQUEST-NONCE>>>, and so on. The request itself can never spell "<<<" (the
// renderer escapes it), so the first marker found is a real one.
var fenceNonce = regexp.MustCompile(`<<<(?:END-)?(?:UNTRUSTED-REQUEST|RULE-HINTS)-([A-Za-z0-9]{16,64})>>>`)

// noncePlaceholder replaces the nonce before hashing.
const noncePlaceholder = "NONCE"

// PromptKey is the digest a recording stores an answer under: SHA-256 over the model name and
// the messages' roles and contents of a chat-completion request body, with the fence nonce
// replaced by a placeholder. The nonce is drawn at random for every review, so without that no
// prompt would ever be seen twice; everything else that shapes the answer — the system prompt
// with the policy and the response format's instructions, the fenced request, the rule hints,
// the model — is in the key, so a changed prompt template or policy is a miss, never a stale
// answer. It also returns the model name.
func PromptKey(body []byte) (key, model string, err error) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return "", "", fmt.Errorf("request body is not a chat completion: %w", err)
	}
	if req.Model == "" || len(req.Messages) == 0 {
		return "", "", errors.New("request body is not a chat completion: no model or no messages")
	}
	nonce := ""
	for _, m := range req.Messages {
		if sm := fenceNonce.FindStringSubmatch(m.Content); sm != nil {
			nonce = sm[1]
			break
		}
	}
	type message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	canon := struct {
		Model    string    `json:"model"`
		Messages []message `json:"messages"`
	}{Model: req.Model}
	for _, m := range req.Messages {
		c := m.Content
		if nonce != "" {
			c = strings.ReplaceAll(c, nonce, noncePlaceholder)
		}
		canon.Messages = append(canon.Messages, message{Role: m.Role, Content: c})
	}
	b, err := json.Marshal(canon)
	if err != nil {
		return "", "", fmt.Errorf("prompt key: %w", err)
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), req.Model, nil
}
