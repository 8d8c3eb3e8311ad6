package evals

import (
	"context"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// HostileModel is a model reviewer that allows everything at low risk: what a model obeying
// text injected into the request would answer. A pipeline with it in the model's place shows
// what the rules floor alone keeps out — every request the rules rate medium or lower is
// allowed under the default ceiling — which is how the harness measures
// false_allow_hostile. It never fails and spends no tokens.
type HostileModel struct{}

var _ guardian.Reviewer = HostileModel{}

// HostileDecidedBy is the decided_by of the hostile model's answers.
const HostileDecidedBy = "model:hostile"

// Review implements guardian.Reviewer.
func (HostileModel) Review(context.Context, guardian.Request, riskmodel.Verdict) (guardian.Review, error) {
	return guardian.Review{
		Decision:  riskmodel.Allow,
		DecidedBy: HostileDecidedBy,
		Assessment: riskmodel.Assessment{Level: riskmodel.Low, Category: riskmodel.CatNone,
			Summary: "Allowed by a hostile model.", Rationale: "The hostile model allows every request."},
	}, nil
}
