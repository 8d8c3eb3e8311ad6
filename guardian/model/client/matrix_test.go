package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/model/client"
	"github.com/guardianhq/guardian/guardian/model/providertest"
	"github.com/guardianhq/guardian/riskmodel"
)

// denyVerdict is the model's answer for a dangerous request.
const denyVerdict = `{"summary":"Deletes the home directory.","risk_level":"critical","category":"data_deletion","user_authorization":"unknown","rationale":"rm -rf ~ destroys the user's files.","safer_alternative":"","outcome":"deny"}`

// TestProviderMatrix runs every provider — the recorded ones and the three — through
// the real client: a deny and an allow come through with status ok, and a malformed answer, a
// refusal and a timeout fail safe. No path yields allow where the answer was not a well-formed
// allow; reasoning (which carries a forged allow) is never the verdict; the second review
// starts from what the first learned.
func TestProviderMatrix(t *testing.T) {
	recorded, err := providertest.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(recorded, providertest.Reproductions()...) {
		t.Run(p.Name, func(t *testing.T) {
			for _, sc := range []struct {
				name   string
				answer string
				block  bool
				want   guardian.Status
				dec    riskmodel.Decision
			}{
				{"deny", denyVerdict, false, guardian.StatusOK, riskmodel.Deny},
				{"allow", verdictJSON("allow", "low"), false, guardian.StatusOK, riskmodel.Allow},
				{"malformed", `{"summary":"x","outcome":"allow"`, false, guardian.StatusBadOutput, 0},
				{"refusal", "I'm sorry, but I can't help with reviewing that command.", false, guardian.StatusBadOutput, 0},
				{"timeout", "", true, guardian.StatusTimeout, 0},
			} {
				t.Run(sc.name, func(t *testing.T) {
					s := providertest.NewServer(p, func() string { return sc.answer })
					t.Cleanup(s.Close)
					s.Block = sc.block
					rev, err := client.New(client.Config{BaseURL: s.BaseURL(), Model: p.Model, APIKey: "sk-test", Azure: p.Azure, Seed: 42},
						client.WithBackoff(time.Millisecond, 4*time.Millisecond))
					if err != nil {
						t.Fatal(err)
					}
					deadline := 3 * time.Second
					if sc.block {
						deadline = 150 * time.Millisecond
					}
					ctx, cancel := context.WithTimeout(context.Background(), deadline)
					defer cancel()
					det, err := rev.ReviewDetailed(ctx, execRequest("git", "status"), askRules)
					if sc.want != guardian.StatusOK {
						if status(err) != sc.want || det.Review.Decision == riskmodel.Allow {
							t.Fatalf("status %q (%v), decision %s; want %q and no allow", status(err), err, det.Review.Decision, sc.want)
						}
						return
					}
					if err != nil || det.Review.Decision != sc.dec {
						t.Fatalf("got %s, %v (changes %v); want %s", det.Review.Decision, err, det.Changes, sc.dec)
					}
					if p.Response.Reasoning != "none" && p.Response.Reasoning != "hidden" && det.Reasoning != providertest.Thought {
						t.Errorf("reasoning not kept for the audit record: %q", det.Reasoning)
					}
					if p.Response.Reasoning == "hidden" && p.Response.UsageDetails && det.Usage.ReasoningTokens == 0 {
						t.Errorf("hidden reasoning tokens not reported: %+v", det.Usage)
					}
					// Learned once: the next review is one request.
					before := len(s.Requests())
					if _, err := rev.ReviewDetailed(context.Background(), execRequest("git", "log"), askRules); err != nil {
						t.Fatalf("second review: %v", err)
					}
					if n := len(s.Requests()) - before; n != 1 {
						t.Errorf("second review took %d requests, want 1 (profile %+v)", n, rev.Profile())
					}
					if p.Response.UsageDetails && p.Response.CachedTokens > 0 {
						det2, err := rev.ReviewDetailed(context.Background(), execRequest("git", "diff"), askRules)
						if err != nil || det2.Usage.CachedTokens != p.Response.CachedTokens {
							t.Errorf("cached tokens = %d (%v), want %d: the system prompt must be byte-stable", det2.Usage.CachedTokens, err, p.Response.CachedTokens)
						}
					}
				})
			}
		})
	}
}
