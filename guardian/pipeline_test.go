package guardian

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/guardianhq/guardian/riskmodel"
)

// stubReviewer answers with a fixed review or error; it blocks until ctx ends when block is set.
type stubReviewer struct {
	rev   Review
	err   error
	block bool
	calls int
}

func (s *stubReviewer) Review(ctx context.Context, _ Request, _ riskmodel.Verdict) (Review, error) {
	s.calls++
	if s.block {
		<-ctx.Done()
		return Review{}, ctx.Err()
	}
	return s.rev, s.err
}

func newPipeline(t *testing.T, opts ...Option) *Pipeline {
	t.Helper()
	a, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	return New(a, opts...)
}

func execReq(cmd string) Request {
	return ExecRequest(riskmodel.ExecRequest{Command: []string{"bash", "-c", cmd}, Cwd: "/home/dev/project"})
}

func TestPipelineFailSafe(t *testing.T) {
	allowLow := Review{Decision: riskmodel.Allow, DecidedBy: "model:test", Assessment: riskmodel.Assessment{Level: riskmodel.Low, Category: riskmodel.CatNone, Summary: "fine"}}
	tests := []struct {
		name       string
		cmd        string
		rev        *stubReviewer
		opts       []Option
		want       riskmodel.Decision
		wantStatus Status
	}{
		{"rules deny stands, model not asked", "rm -rf ~/", &stubReviewer{rev: allowLow}, nil, riskmodel.Deny, StatusRule},
		{"rules allow stands, model not asked", "ls", &stubReviewer{rev: allowLow}, nil, riskmodel.Allow, StatusRule},
		{"model allow within ceiling", "frobnicate", &stubReviewer{rev: allowLow}, nil, riskmodel.Allow, StatusOK},
		{"model allow above ceiling becomes ask", "git push -f origin feat", &stubReviewer{rev: allowLow}, nil, riskmodel.Ask, StatusOK},
		{"model allow with invalid level becomes ask", "frobnicate", &stubReviewer{rev: Review{Decision: riskmodel.Allow}}, nil, riskmodel.Ask, StatusOK},
		{"model deny", "frobnicate", &stubReviewer{rev: Review{Decision: riskmodel.Deny, Assessment: riskmodel.Assessment{Level: riskmodel.High}}}, nil, riskmodel.Deny, StatusOK},
		{"error → ask", "frobnicate", &stubReviewer{err: errors.New("connection refused")}, nil, riskmodel.Ask, StatusUnavailable},
		{"bad output → ask", "frobnicate", &stubReviewer{err: &ReviewError{Status: StatusBadOutput, Err: errors.New("not json")}}, nil, riskmodel.Ask, StatusBadOutput},
		{"timeout → ask", "frobnicate", &stubReviewer{block: true}, []Option{WithDeadline(time.Millisecond)}, riskmodel.Ask, StatusTimeout},
		{"headless error → deny", "frobnicate", &stubReviewer{err: errors.New("boom")}, []Option{WithFallback(FallbackHeadless)}, riskmodel.Deny, StatusUnavailable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPipeline(t, append([]Option{WithReviewer(tc.rev)}, tc.opts...)...)
			res, err := p.Review(context.Background(), execReq(tc.cmd))
			if err != nil {
				t.Fatal(err)
			}
			if res.Decision != tc.want || res.Status != tc.wantStatus {
				t.Errorf("got %s/%s by %s, want %s/%s", res.Decision, res.Status, res.DecidedBy, tc.want, tc.wantStatus)
			}
			if res.Status == StatusTimeout || res.Status == StatusUnavailable || res.Status == StatusBadOutput {
				if res.DecidedBy != "fallback" || len(res.Assessment.Findings) == 0 {
					t.Errorf("fallback must carry the rule assessment: %+v", res)
				}
			}
		})
	}
}

func TestPipelineRejectsOversized(t *testing.T) {
	p := newPipeline(t)
	big := strings.Repeat("a", MaxRequestBytes)
	_, err := p.Review(context.Background(), execReq("echo "+big))
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "256 KiB") {
		t.Fatalf("err = %v, want ErrTooLarge naming 256 KiB", err)
	}
}

func TestReadRequest(t *testing.T) {
	tests := []struct {
		in, wantErr string
	}{
		{`{"kind":"exec","request":{"command":["ls"],"cwd":"/home/dev/p"}}`, ""},
		{`{"kind":"mcp","request":{"server":"gh","tool":"list_issues","arguments":{"repo":"x"}}}`, ""},
		{`{"kind":"exec","request":{"command":["ls"],"cwdd":"/x"}}`, `unknown field "cwdd"`},
		{`{"kind":"exec","request":{"command":[]}}`, "non-empty argv"},
		{`{"kind":"shell","request":{}}`, "unknown request kind"},
		{"{\"kind\":\"exec\",\n\"request\":{\"command\":[\"ls\"]}", "line 2"},
		{`{"kind":"exec"}`, `missing "request"`},
		{`{"kind":"exec","request":{"command":["ls"]}} {}`, "column 46"},
		{`{"kind":x}`, "column 9"},
	}
	for _, tc := range tests {
		_, err := ReadRequest(strings.NewReader(tc.in))
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("ReadRequest(%q) err = %v, want %q", tc.in, err, tc.wantErr)
		}
	}
	_, err := ReadRequest(strings.NewReader(`{"kind":"exec","request":{"command":["` + strings.Repeat("x", MaxRequestBytes+8192) + `"]}}`))
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized input: %v", err)
	}
}
