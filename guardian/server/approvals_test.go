package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// signalStore reports every approval put into it, so a test knows a review is being held.
type signalStore struct {
	approval.Store
	put chan approval.Pending
}

func (s *signalStore) Put(ctx context.Context, p approval.Pending) error {
	err := s.Store.Put(ctx, p)
	if err == nil {
		s.put <- p
	}
	return err
}

func (s *signalStore) next(t *testing.T) approval.Pending {
	t.Helper()
	select {
	case p := <-s.put:
		return p
	case <-time.After(10 * time.Second):
		t.Fatal("no review was held")
	}
	return approval.Pending{}
}

// approvalServer is a server whose reviews all ask, with an approval gate over the journal
// at statePath and a real audit log at logPath.
type approvalServer struct {
	store  *signalStore
	fs     *approval.FileStore
	log    *audit.Log
	client *server.Client // the hook's side: holds asks in the queue
	admin  *server.Client // the person's side: guardian pending/approve/deny
}

func startApprovalServer(t *testing.T, statePath, logPath string) *approvalServer {
	t.Helper()
	fs, err := approval.OpenFileStore(statePath)
	if err != nil {
		t.Fatal(err)
	}
	log, err := audit.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	store := &signalStore{Store: fs, put: make(chan approval.Pending, 8)}
	srv := server.New(guardian.Audited(&fixed{res: askResult()}, log, time.Now), server.WithApprovals(approval.NewGate(store, log)))
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); log.Close(); fs.Close() })
	client, err := server.NewClient(ts.URL, server.WithApprovalMode(server.ApprovalQueue))
	if err != nil {
		t.Fatal(err)
	}
	admin, err := server.NewClient(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &approvalServer{store: store, fs: fs, log: log, client: client, admin: admin}
}

// hookCall is a review as a hook sends it, in the background.
func (s *approvalServer) hookCall(ctx context.Context, session string) <-chan guardian.Result {
	out := make(chan guardian.Result, 1)
	go func() {
		req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"bash", "-c", "npm publish"}, Cwd: "/home/dev/proj"})
		res, err := s.client.Decide(ctx, req, guardian.Caller{Host: "claude", Session: session, Turn: "toolu_1"})
		if err != nil {
			res = guardian.Result{Status: guardian.Status("error: " + err.Error())}
		}
		out <- res
	}()
	return out
}

func TestHeldReviewAnswered(t *testing.T) {
	tests := []struct {
		name     string
		answer   func(ctx context.Context, c *server.Client, id string) error
		decision riskmodel.Decision
		by       string
	}{
		{"approve", func(ctx context.Context, c *server.Client, id string) error {
			_, _, err := c.Approve(ctx, id[:4], server.AnswerRequest{By: "alice"})
			return err
		}, riskmodel.Allow, "human:alice"},
		{"deny", func(ctx context.Context, c *server.Client, id string) error {
			_, err := c.Deny(ctx, id, server.AnswerRequest{By: "bob", Reason: "not on a Friday"})
			return err
		}, riskmodel.Deny, "human:bob"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := startApprovalServer(t, filepath.Join(dir, "approvals.jsonl"), filepath.Join(dir, "audit.jsonl"))
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			out := s.hookCall(ctx, "s1")
			held := s.store.next(t)
			list, err := s.admin.Pending(ctx, false)
			if err != nil || len(list) != 1 || list[0].ID != held.ID || list[0].Shape != "npm publish" {
				t.Fatalf("pending: %+v, %v", list, err)
			}
			if err := tt.answer(ctx, s.admin, held.ID); err != nil {
				t.Fatal(err)
			}
			res := <-out
			if res.Decision != tt.decision || res.DecidedBy != tt.by || res.Status != guardian.StatusHuman {
				t.Fatalf("the hook got %s/%s/%s, want %s by %s", res.Decision, res.Status, res.DecidedBy, tt.decision, tt.by)
			}
			recs, err := audit.Tail(ctx, s.log.Path(), 10)
			if err != nil || len(recs) != 2 {
				t.Fatalf("audit: %d records, %v; want the ask and the answer", len(recs), err)
			}
			var ans audit.Record
			if err := json.Unmarshal(recs[1], &ans); err != nil {
				t.Fatal(err)
			}
			if ans.DecidedBy != tt.by || ans.Pending != held.ID || ans.AskedBy != "rule:test" || ans.WaitMS <= 0 {
				t.Errorf("answer record: decided_by %q pending %q asked_by %q wait_ms %v", ans.DecidedBy, ans.Pending, ans.AskedBy, ans.WaitMS)
			}
			if list, _ := s.admin.Pending(ctx, false); len(list) != 0 {
				t.Errorf("still pending after the answer: %+v", list)
			}
		})
	}
}

func TestHeldReviewTimesOut(t *testing.T) {
	dir := t.TempDir()
	s := startApprovalServer(t, filepath.Join(dir, "approvals.jsonl"), filepath.Join(dir, "audit.jsonl"))
	ctx, cancel := context.WithTimeout(context.Background(), server.HoldMargin+approval.MinWait+100*time.Millisecond)
	defer cancel()
	res := <-s.hookCall(ctx, "s1")
	if res.Decision != riskmodel.Ask || res.Status != guardian.StatusUnanswered {
		t.Fatalf("got %s/%s, want ask/unanswered", res.Decision, res.Status)
	}
}

// TestRestartKeepsAnswersAndGrants: a session grant and a late answer survive a restart of
// the server; a request held when the server went away is not left without an answer.
func TestRestartKeepsAnswersAndGrants(t *testing.T) {
	dir := t.TempDir()
	state, logPath := filepath.Join(dir, "approvals.jsonl"), filepath.Join(dir, "audit.jsonl")
	s := startApprovalServer(t, state, logPath)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out := s.hookCall(ctx, "s1")
	held := s.store.next(t)
	_, gr, err := s.admin.Approve(ctx, held.ID, server.AnswerRequest{By: "alice", Scope: "session"})
	if err != nil || gr == nil {
		t.Fatalf("approve: %v, grant %v", err, gr)
	}
	<-out
	s.fs.Close()

	s2 := startApprovalServer(t, state, logPath)
	grants, err := s2.admin.Grants(ctx)
	if err != nil || len(grants) != 1 || grants[0].ID != gr.ID {
		t.Fatalf("grants after restart: %+v, %v", grants, err)
	}
	res := <-s2.hookCall(ctx, "s1")
	if res.Decision != riskmodel.Allow || res.DecidedBy != "grant:"+gr.ID {
		t.Fatalf("after restart the same session got %s by %s, want allow by grant:%s", res.Decision, res.DecidedBy, gr.ID)
	}
	all, _ := s2.admin.Pending(ctx, true)
	if len(all) != 1 || all[0].Answer == nil || all[0].Answer.By != "alice" {
		t.Fatalf("answers after restart: %+v", all)
	}
	if _, err := s2.admin.RevokeGrant(ctx, gr.ID[:3]); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithTimeout(ctx, server.HoldMargin+approval.MinWait+100*time.Millisecond)
	defer cancel2()
	if res := <-s2.hookCall(ctx2, "s1"); res.Decision != riskmodel.Ask {
		t.Fatalf("a revoked grant still applies: %s by %s", res.Decision, res.DecidedBy)
	}
}

func TestApprovalRoutes(t *testing.T) {
	srv := server.New(&fixed{res: askResult()}, server.WithApprovals(approval.NewGate(approval.NewMemoryStore(), nopRecorder{})))
	plain := server.New(&fixed{res: askResult()})
	tests := []struct {
		name         string
		h            http.Handler
		method, path string
		body         string
		header       http.Header
		code         int
		errCode      string
	}{
		{"list", srv, "GET", "/v1/pending", "", nil, 200, ""},
		{"list all", srv, "GET", "/v1/pending?all=1", "", nil, 200, ""},
		{"bad all", srv, "GET", "/v1/pending?all=x", "", nil, 400, server.CodeBadRequest},
		{"unknown id", srv, "GET", "/v1/pending/abcd", "", nil, 404, server.CodeNotFound},
		{"not hex", srv, "GET", "/v1/pending/zz", "", nil, 404, server.CodeNotFound},
		{"unknown verb", srv, "POST", "/v1/pending/abcd/maybe", "", nil, 404, server.CodeNotFound},
		{"approve unknown", srv, "POST", "/v1/pending/abcd/approve", `{"by":"alice"}`, nil, 404, server.CodeNotFound},
		{"approve empty body", srv, "POST", "/v1/pending/abcd/approve", ``, nil, 400, server.CodeBadRequest},
		{"approve unknown key", srv, "POST", "/v1/pending/abcd/approve", `{"by":"alice","scop":"always"}`, nil, 400, server.CodeBadRequest},
		{"approve bad scope", srv, "POST", "/v1/pending/abcd/approve", `{"by":"alice","scope":"forever"}`, nil, 400, server.CodeBadRequest},
		{"approve by GET", srv, "GET", "/v1/pending/abcd/approve", "", nil, 405, server.CodeMethodNotAllowed},
		{"grants", srv, "GET", "/v1/grants", "", nil, 200, ""},
		{"revoke unknown", srv, "DELETE", "/v1/grants/abcd", "", nil, 404, server.CodeNotFound},
		{"bad approval header", srv, "POST", "/v1/review", execBody, http.Header{"Guardian-Approval": {"later"}}, 400, server.CodeBadRequest},
		{"bad wait header", srv, "POST", "/v1/review", execBody, http.Header{"Guardian-Wait": {"soon"}}, 400, server.CodeBadRequest},
		{"not enabled", plain, "GET", "/v1/pending", "", nil, 404, server.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, tt.h, tt.method, tt.path, tt.body, tt.header)
			if w.Code != tt.code {
				t.Fatalf("%s %s: %d %s, want %d", tt.method, tt.path, w.Code, w.Body, tt.code)
			}
			if tt.errCode != "" {
				if got := errorOf(t, w.Body.Bytes()); got.Code != tt.errCode {
					t.Errorf("code %q, want %q", got.Code, tt.errCode)
				}
			} else if !strings.HasPrefix(w.Body.String(), "{") {
				t.Errorf("body %q", w.Body)
			}
		})
	}
}

// TestApproveErrors: the client sees the stable codes.
func TestApproveErrors(t *testing.T) {
	store := approval.NewMemoryStore()
	for _, id := range []string{"ab12cd34", "ab99ef00"} {
		if err := store.Put(context.Background(), approval.Pending{ID: id, Created: time.Now(), Caller: guardian.Caller{Host: "claude"},
			Assessment: riskmodel.Assessment{Level: riskmodel.High, Category: riskmodel.CatNone}}); err != nil {
			t.Fatal(err)
		}
	}
	ts := httptest.NewServer(server.New(&fixed{res: askResult()}, server.WithApprovals(approval.NewGate(store, nopRecorder{}))))
	defer ts.Close()
	c, _ := server.NewClient(ts.URL)
	ctx := context.Background()
	var se *server.StatusError
	if _, _, err := c.Approve(ctx, "ab", server.AnswerRequest{By: "alice"}); !errors.As(err, &se) || se.Code != server.CodeAmbiguous {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if _, _, err := c.Approve(ctx, "ab1", server.AnswerRequest{By: "alice", Scope: "always"}); !errors.As(err, &se) || se.Code != server.CodeScopeRefused {
		t.Errorf("grant for a high request: %v", err)
	}
	if _, _, err := c.Approve(ctx, "ab1", server.AnswerRequest{By: "alice"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Deny(ctx, "ab1", server.AnswerRequest{By: "bob"}); !errors.As(err, &se) || se.Code != server.CodeAnswered {
		t.Errorf("second answer: %v", err)
	}
}

// nopRecorder records nothing.
type nopRecorder struct{}

func (nopRecorder) Append(_ context.Context, r audit.Record) (audit.Record, error) { return r, nil }

// TestHeldReviewServerGone: a hook held by a server that dies gets an error — which its
// adapter turns into the host's fail-safe — never a decision; one held by a server that shuts
// down gets its ask back at once.
func TestHeldReviewServerGone(t *testing.T) {
	t.Run("crash", func(t *testing.T) {
		store := &signalStore{Store: approval.NewMemoryStore(), put: make(chan approval.Pending, 1)}
		ts := httptest.NewServer(server.New(&fixed{res: askResult()}, server.WithApprovals(approval.NewGate(store, nopRecorder{}))))
		defer ts.Close()
		c, _ := server.NewClient(ts.URL, server.WithApprovalMode(server.ApprovalQueue))
		errc := make(chan error, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := c.Decide(ctx, guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}}), guardian.Caller{Host: "claude"})
			errc <- err
		}()
		store.next(t)
		ts.CloseClientConnections() // the connection breaks as when the process dies
		if err := <-errc; err == nil {
			t.Fatal("a held review whose server died returned a decision")
		}
	})
	t.Run("shutdown", func(t *testing.T) {
		store := &signalStore{Store: approval.NewMemoryStore(), put: make(chan approval.Pending, 1)}
		srv := server.New(&fixed{res: askResult()}, server.WithApprovals(approval.NewGate(store, nopRecorder{})))
		ln, err := server.Listen(context.Background(), "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- srv.Serve(ctx, ln) }()
		c, _ := server.NewClient("http://"+ln.Addr().String(), server.WithApprovalMode(server.ApprovalQueue))
		out := make(chan guardian.Result, 1)
		go func() {
			hctx, hcancel := context.WithTimeout(context.Background(), time.Minute)
			defer hcancel()
			res, _ := c.Decide(hctx, guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}}), guardian.Caller{Host: "claude"})
			out <- res
		}()
		store.next(t)
		cancel()
		if res := <-out; res.Decision != riskmodel.Ask || res.Status != guardian.StatusUnanswered || !strings.Contains(res.Assessment.Rationale, "shut down") {
			t.Fatalf("held review at shutdown: %s/%s %q", res.Decision, res.Status, res.Assessment.Rationale)
		}
		if err := <-served; err != nil {
			t.Fatal(err)
		}
	})
}

// TestApproverToken: with an approver token, answering and revoking need it — the review
// token a hook holds is not enough — while reviews and listing do not.
func TestApproverToken(t *testing.T) {
	const review, approver = "review-token-0123456789", "approver-token-0123456789"
	srv := server.New(&fixed{res: askResult()}, server.WithToken(review),
		server.WithApprovals(approval.NewGate(approval.NewMemoryStore(), nopRecorder{})), server.WithApproverToken(approver))
	auth := http.Header{"Authorization": {"Bearer " + review}}
	both := http.Header{"Authorization": {"Bearer " + review}, server.HeaderApproverToken: {approver}}
	wrong := http.Header{"Authorization": {"Bearer " + review}, server.HeaderApproverToken: {review}}
	tests := []struct {
		name         string
		method, path string
		header       http.Header
		code         int
	}{
		{"list with the review token", "GET", "/v1/pending", auth, 200},
		{"review with the review token", "POST", "/v1/review", auth, 200},
		{"approve without the approver token", "POST", "/v1/pending/abcd/approve", auth, 403},
		{"approve with the review token as approver token", "POST", "/v1/pending/abcd/approve", wrong, 403},
		{"deny without", "POST", "/v1/pending/abcd/deny", auth, 403},
		{"revoke without", "DELETE", "/v1/grants/abcd", auth, 403},
		{"approve with it", "POST", "/v1/pending/abcd/approve", both, 404},
		{"revoke with it", "DELETE", "/v1/grants/abcd", both, 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"by":"alice"}`
			if tt.path == "/v1/review" {
				body = execBody
			}
			w := do(t, srv, tt.method, tt.path, body, tt.header)
			if w.Code != tt.code {
				t.Fatalf("%d %s, want %d", w.Code, w.Body, tt.code)
			}
			if tt.code == 403 && errorOf(t, w.Body.Bytes()).Code != server.CodeApproverRequired {
				t.Errorf("code: %s", w.Body)
			}
		})
	}
}
