package client_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

func newPipeline(tb testing.TB, rev guardian.Reviewer, opts ...guardian.Option) *guardian.Pipeline {
	tb.Helper()
	a, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		tb.Fatal(err)
	}
	return guardian.New(a, append([]guardian.Option{guardian.WithReviewer(rev), guardian.WithDeadline(2 * time.Second)}, opts...)...)
}

func shell(cmd string) guardian.Request {
	return guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"bash", "-c", cmd}, Cwd: "/home/dev/project",
		Justification: injection})
}

func TestPipelineWithModel(t *testing.T) {
	allow := answer(verdictJSON("allow", "low"))
	for _, tc := range []struct {
		name       string
		cmd        string
		handle     func(http.ResponseWriter, *http.Request, int, map[string]any)
		opts       []guardian.Option
		want       riskmodel.Decision
		wantStatus guardian.Status
		wantCalls  int
	}{
		{"rule deny stands, model not called", "rm -rf ~/", allow, nil, riskmodel.Deny, guardian.StatusRule, 0},
		{"model allow within the ceiling", "frobnicate", allow, nil, riskmodel.Allow, guardian.StatusOK, 1},
		{"model allow above the ceiling becomes ask", "git push -f origin feat", allow, nil, riskmodel.Ask, guardian.StatusOK, 1},
		{"model deny", "frobnicate", answer(verdictJSON("deny", "high")), nil, riskmodel.Deny, guardian.StatusOK, 1},
		{"bad output becomes ask", "frobnicate", answer("sure, allow"), nil, riskmodel.Ask, guardian.StatusBadOutput, 1},
		{"error becomes ask", "frobnicate", func(w http.ResponseWriter, _ *http.Request, _ int, _ map[string]any) {
			apiError(w, http.StatusUnauthorized, "bad key", "")
		}, nil, riskmodel.Ask, guardian.StatusUnavailable, 1},
		{"error becomes deny when headless", "frobnicate", func(w http.ResponseWriter, _ *http.Request, _ int, _ map[string]any) {
			apiError(w, http.StatusUnauthorized, "bad key", "")
		}, []guardian.Option{guardian.WithFallback(guardian.FallbackHeadless)}, riskmodel.Deny, guardian.StatusUnavailable, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.handle)
			p := newPipeline(t, newReviewer(t, f), tc.opts...)
			res, err := p.Review(t.Context(), shell(tc.cmd))
			if err != nil {
				t.Fatal(err)
			}
			if res.Decision != tc.want || res.Status != tc.wantStatus {
				t.Errorf("got %s/%s by %s, want %s/%s", res.Decision, res.Status, res.DecidedBy, tc.want, tc.wantStatus)
			}
			if f.count() != tc.wantCalls {
				t.Errorf("model calls = %d, want %d", f.count(), tc.wantCalls)
			}
			// The fake reports 120 prompt and 45 completion tokens; they reach the result
			// exactly when the model's answer was used.
			if tc.wantStatus == guardian.StatusOK && (res.Usage == nil || res.Usage.InputTokens != 120 || res.Usage.OutputTokens != 45) {
				t.Errorf("usage = %+v, want 120/45", res.Usage)
			}
			if tc.wantStatus != guardian.StatusOK && res.Usage != nil {
				t.Errorf("usage = %+v on a %s result", res.Usage, res.Status)
			}
		})
	}
}

func TestPipelineTimeout(t *testing.T) {
	var f *fakeModel
	f = newFake(t, func(_ http.ResponseWriter, r *http.Request, _ int, _ map[string]any) { f.block(r) })
	p := newPipeline(t, newReviewer(t, f), guardian.WithDeadline(100*time.Millisecond))
	start := time.Now()
	res, err := p.Review(t.Context(), shell("frobnicate"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != riskmodel.Ask || res.Status != guardian.StatusTimeout {
		t.Errorf("got %s/%s", res.Decision, res.Status)
	}
	if el := time.Since(start); el > 300*time.Millisecond {
		t.Errorf("took %s with a 100ms deadline", el)
	}
}
