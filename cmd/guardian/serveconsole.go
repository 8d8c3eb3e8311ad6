package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/notify"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// liveAuditor is guardian serve's Auditor: it appends each decision to the audit log and then
// shows the record, exactly as stored (redacted, with its id and hash), to the console's
// viewers and hands it to onRecord (notifications). Neither can delay or fail the review: the
// hub never waits for a viewer, and onRecord must not block.
type liveAuditor struct {
	log      *audit.Log
	hub      *server.Hub
	onRecord func(rec audit.Record, raw []byte)
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
	b, err := json.Marshal(out)
	if err != nil {
		return nil // recorded; only the live view misses it
	}
	a.hub.PublishDecision(b)
	if a.onRecord != nil {
		a.onRecord(out, b)
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
		// In the shared store too (serve --store): a failure there is counted in
		// guardian.store.errors and the local breakers are closed all the same.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = el.Value.(*pipelineEntry).p.ResetShared(ctx, which)
		cancel()
	}
}

// notifier starts the webhooks of the user config's [[notify.webhook]] tables; nil when there
// are none. A url_env that is not set is a config error: a webhook the user asked for must
// not be silently missing.
func (a *app) notifier(cfg guardian.Config, log *slog.Logger) (*notify.Notifier, error) {
	if len(cfg.Notify.Webhooks) == 0 {
		return nil, nil
	}
	hooks := make([]notify.Webhook, 0, len(cfg.Notify.Webhooks))
	for _, w := range cfg.Notify.Webhooks {
		u, err := w.WebhookURL(a.getenv)
		if err != nil {
			return nil, invalidError(fmt.Errorf("config: %w", err))
		}
		h := notify.Webhook{URL: u, Format: notify.Format(w.Format)}
		for _, k := range w.Kinds {
			h.Kinds = append(h.Kinds, notify.Kind(k))
		}
		hooks = append(hooks, h)
	}
	return notify.New(hooks, notify.WithLogger(log)), nil
}

// denyEvent is the notification of an audited deny: the record, as stored (redacted), with
// a one-line summary.
func denyEvent(rec audit.Record, raw []byte) notify.Event {
	return notify.Event{Kind: notify.KindDeny, Time: rec.Time, ID: rec.ID, Host: rec.Caller.Host, Session: rec.Caller.Session,
		DecidedBy: rec.DecidedBy, Summary: "denied " + requestLine(rec) + ": " + rec.Assessment.Summary, Details: raw}
}

// requestLine is what a record asked for in one short line: the command, or server/tool.
func requestLine(rec audit.Record) string {
	var q struct {
		Command      []string
		Server, Tool string
	}
	_ = json.Unmarshal(rec.Request, &q)
	s := strings.Join(q.Command, " ")
	if rec.Kind == riskmodel.KindMCP {
		s = q.Server + "/" + q.Tool
	}
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return "`" + s + "`"
}

// breakerEvents are the notifications of breakers that just opened.
func breakerEvents(body server.BreakersBody, opened []server.BreakerOpened) []notify.Event {
	raw, _ := json.Marshal(body)
	out := make([]notify.Event, 0, len(opened))
	for _, o := range opened {
		what := map[string]string{"denials": "every request now goes to the human", "model": "the model is skipped, its fallback applies"}[o.Breaker]
		out = append(out, notify.Event{Kind: notify.KindBreakerOpen, Time: time.Now(),
			Summary: fmt.Sprintf("%s breaker open for %s: %s; reset it in the console once you have looked", o.Breaker, o.Scope, what), Details: raw})
	}
	return out
}

// auditRecord names audit.Record where serve's audit log variable hides the package.
type auditRecord = audit.Record
