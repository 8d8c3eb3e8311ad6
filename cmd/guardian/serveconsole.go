package main

import (
	"context"
	"encoding/json"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/server"
)

// liveAuditor is guardian serve's Auditor: it appends each decision to the audit log and then
// shows the record, exactly as stored (redacted, with its id and hash), to the console's
// viewers and hands it to onRecord (notifications). Neither can delay or fail the review: the
// hub never waits for a viewer, and onRecord must not block.
type liveAuditor struct {
	log      *audit.Log
	hub      *server.Hub
	onRecord func(audit.Record)
}

func (a *liveAuditor) Audit(ctx context.Context, e guardian.AuditEntry) error {
	rec, err := audit.NewRecord(e)
	if err != nil {
		return err
	}
	out, err := a.log.Append(ctx, rec)
	if err != nil {
		return err
	}
	if b, err := json.Marshal(out); err == nil {
		a.hub.PublishDecision(b)
	}
	if a.onRecord != nil {
		a.onRecord(out)
	}
	return nil
}

// BreakerStates lists the breakers of every pipeline kept: the user config's, and one per
// project file seen recently.
func (pp *projectPipelines) BreakerStates() []server.ScopedBreakers {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	out := make([]server.ScopedBreakers, 0, pp.lru.Len())
	for el := pp.lru.Front(); el != nil; el = el.Next() {
		e := el.Value.(*pipelineEntry)
		scope := e.key.project
		if scope == "" {
			scope = "user config"
		}
		out = append(out, server.ScopedBreakers{Scope: scope, State: e.p.BreakerState()})
	}
	return out
}

// ResetBreakers closes the named breaker ("denials", "model", or "" for both) of every
// pipeline kept.
func (pp *projectPipelines) ResetBreakers(which string) {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	for el := pp.lru.Front(); el != nil; el = el.Next() {
		p := el.Value.(*pipelineEntry).p
		if which == "" || which == "denials" {
			p.ResetDenials()
		}
		if which == "" || which == "model" {
			p.ResetModel()
		}
	}
}
