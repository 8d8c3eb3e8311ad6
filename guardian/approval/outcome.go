package approval

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/riskmodel"
)

// HostAnswerBy is the decided_by of what a person answered at the host's own prompt: the
// host knows no name, only that someone said yes or no there.
func HostAnswerBy(host string) string { return "host:" + host }

// RecordHostAnswer records what the person answered when the host put guardian's ask to
// them — the MCP proxy's elicitation, accepted or not — so that reports can count per rule how
// often its asks are approved. asked is guardian's ask; wait how long the person took.
func RecordHostAnswer(ctx context.Context, rec Recorder, req guardian.Request, c guardian.Caller, asked guardian.Result, allowed bool, wait time.Duration) error {
	out := asked
	out.Decision, out.Status, out.DecidedBy = riskmodel.Deny, guardian.StatusHost, HostAnswerBy(c.Host)
	verb := "refused"
	if allowed {
		out.Decision, verb = riskmodel.Allow, "approved"
	}
	out.Usage, out.Reasoning = nil, ""
	out.Assessment.Rationale = joinRationale("the person at "+c.Host+"'s prompt "+verb+" it", asked.Assessment.Rationale)
	r, err := audit.NewRecord(guardian.AuditEntry{Time: time.Now(), Request: req, Caller: c, Result: out, Latency: wait})
	if err != nil {
		return err
	}
	r.AskedBy, r.WaitMS = asked.DecidedBy, ms(wait)
	if _, err := rec.Append(ctx, r); err != nil {
		return fmt.Errorf("audit the host's answer: %w", err)
	}
	return nil
}

// outcomeLookback is how many of the newest audit records RecordHostOutcome searches for the
// ask a host reports on: the report comes right after the call, so the ask is near the end.
const outcomeLookback = 500

// RecordHostOutcome records a host's report of how a tool call ended — it ran (Claude Code's
// PostToolUse, PostToolUseFailure) or was refused (PermissionDenied) — against guardian's ask
// for the same call, found among the newest records by host, session and turn (the
// tool-use id). It records nothing and returns false when guardian did not ask about that
// call (it allowed or denied it) or an answer is already recorded (a person answered it
// through guardian serve). recent reads the newest records (audit.Log.Recent).
func RecordHostOutcome(ctx context.Context, recent func(context.Context, int) ([]json.RawMessage, error), rec Recorder, c guardian.Caller, allowed bool) (bool, error) {
	if c.Session == "" || c.Turn == "" {
		return false, nil // nothing to tie the report to
	}
	raws, err := recent(ctx, outcomeLookback)
	if err != nil {
		return false, fmt.Errorf("read the audit log: %w", err)
	}
	for i := len(raws) - 1; i >= 0; i-- {
		var r audit.Record
		if err := json.Unmarshal(raws[i], &r); err != nil {
			continue
		}
		if r.Caller.Host != c.Host || r.Caller.Session != c.Session || r.Caller.Turn != c.Turn {
			continue
		}
		if r.Decision != riskmodel.Ask {
			return false, nil // guardian decided, or a person already answered
		}
		askedBy := r.DecidedBy
		if r.AskedBy != "" { // the hold's "unanswered": the ask was the rule's
			askedBy = r.AskedBy
		}
		out := audit.Record{
			Time: time.Now(), Kind: r.Kind, Request: r.Request, Decision: riskmodel.Deny, Status: guardian.StatusHost,
			DecidedBy: HostAnswerBy(c.Host), Assessment: r.Assessment, AskedBy: askedBy, Pending: r.Pending, Caller: r.Caller,
		}
		verb := "refused"
		if allowed {
			out.Decision, verb = riskmodel.Allow, "approved"
		}
		out.Assessment.Rationale = joinRationale("the host reports the call was "+verb+" at its own prompt", r.Assessment.Rationale)
		out.LatencyMS = ms(time.Since(r.Time))
		if _, err := rec.Append(ctx, out); err != nil {
			return false, fmt.Errorf("audit the host's answer: %w", err)
		}
		return true, nil
	}
	return false, nil
}
