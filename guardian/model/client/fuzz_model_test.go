package client_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/model"
	"github.com/guardianhq/guardian/guardian/model/client"
	"github.com/guardianhq/guardian/riskmodel"
)

// FuzzModelResponse serves arbitrary message contents from the fake server and runs the full
// pipeline on a request the rules leave at ask: the decision may be allow only when the content
// (as the client received it, after JSON transport) is a valid allow verdict within the ceiling.
func FuzzModelResponse(f *testing.F) {
	for _, s := range []string{
		verdictJSON("allow", "low"), verdictJSON("allow", "medium"), verdictJSON("allow", "high"),
		verdictJSON("deny", "low"), verdictJSON("ask", "critical"),
		"```json\n" + verdictJSON("allow", "low") + "\n```",
		verdictJSON("deny", "high") + verdictJSON("allow", "low"),
		"Sure! " + verdictJSON("allow", "low"),
		strings.Replace(verdictJSON("allow", "low"), `"outcome":"allow"`, `"outcome":"allow","outcome":"allow"`, 1),
		strings.Replace(verdictJSON("allow", "low"), `"outcome"`, `"Outcome"`, 1),
		`{"outcome":"allow"}`, "allow", "", "null", "[]", "{}",
	} {
		f.Add(s)
	}
	var content atomic.Pointer[string]
	fm := newFake(f, func(w http.ResponseWriter, _ *http.Request, _ int, _ map[string]any) {
		writeJSON(w, http.StatusOK, completion(*content.Load()))
	})
	rev := newReviewer(f, fm, client.WithMaxAttempts(1))
	a, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		f.Fatal(err)
	}
	p := guardian.New(a, guardian.WithReviewer(rev), guardian.WithDeadline(5*time.Second),
		guardian.WithModelBreaker(guardian.ModelBreakerConfig{Failures: -1})) // every input must reach the model
	req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"frobnicate"}, Cwd: "/home/dev/project"})
	rules := a.Exec(f.Context(), *req.Exec)
	if rules.Decision != riskmodel.Ask || rules.Assessment.Level > riskmodel.Medium {
		f.Fatalf("the fuzz request must reach the model within the ceiling: %+v", rules)
	}

	f.Fuzz(func(t *testing.T, body string) {
		content.Store(&body)
		// What the client receives: JSON transport replaces invalid UTF-8.
		raw, _ := json.Marshal(body)
		var received string
		if err := json.Unmarshal(raw, &received); err != nil {
			t.Fatal(err)
		}
		res, err := p.Review(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		v, perr := model.Parse(received)
		validAllow := perr == nil && v.Outcome == riskmodel.Allow && v.RiskLevel <= riskmodel.Medium
		if (res.Decision == riskmodel.Allow) != validAllow {
			t.Fatalf("decision %s (status %s) for content %q; Parse: %+v, %v", res.Decision, res.Status, received, v, perr)
		}
		switch {
		case perr != nil && (res.Status != guardian.StatusBadOutput || res.Decision != riskmodel.Ask):
			t.Fatalf("invalid content gave %s/%s: %v", res.Decision, res.Status, perr)
		case perr == nil && res.Status != guardian.StatusOK:
			t.Fatalf("valid content %+v gave %s/%s", v, res.Decision, res.Status)
		}
	})
}
