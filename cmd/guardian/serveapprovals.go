package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/notify"
	"github.com/guardianhq/guardian/guardian/redisstore"
	"github.com/guardianhq/guardian/guardian/server"
)

// approvalFlags are guardian serve's flags for the approval queue (docs/serve.md#approvals).
type approvalFlags struct {
	mode       string // auto, queue, off
	wait       time.Duration
	maxPending int
	file       string
	tokenFile  string // --approver-token-file
}

func (f *approvalFlags) register(fl *pflag.FlagSet) {
	f.mode, f.wait, f.maxPending = "auto", approval.DefaultWait, approval.DefaultMaxPending
	fl.StringVar(&f.mode, "approvals", f.mode, "hold asks for a person: auto (when the client asks, Guardian-Approval: queue), queue (every ask) or off (a `MODE`)")
	fl.DurationVar(&f.wait, "approval-wait", f.wait, "hold a request for a person at most `D` (a client's Guardian-Wait can only shorten it)")
	fl.IntVar(&f.maxPending, "max-pending", f.maxPending, "hold at most `N` approvals at once; beyond, an ask goes to the host at once")
	fl.StringVar(&f.tokenFile, "approver-token-file", "", "require the approver token in `FILE` (else $GUARDIAN_APPROVER_TOKEN) to answer approvals and revoke grants")
	fl.StringVar(&f.file, "approvals-file", "", "journal answers and grants in `FILE` (default $XDG_STATE_HOME/guardian/approvals.jsonl)")
}

func (f *approvalFlags) check() error {
	switch f.mode {
	case "auto", "queue", "off":
	default:
		return usageErrorf("serve: --approvals %q: want auto, queue or off", f.mode)
	}
	if f.wait < approval.MinWait || f.wait > approval.MaxWait {
		return usageErrorf("serve: --approval-wait %s: want %s to %s, below the hook timeout of the hosts that wait (Claude Code: 60 s unless its settings say otherwise)", f.wait, approval.MinWait, approval.MaxWait)
	}
	if f.maxPending < 1 || f.maxPending > 1<<20 {
		return usageErrorf("serve: --max-pending %d: want 1 to %d", f.maxPending, 1<<20)
	}
	return nil
}

// approvalGate opens the approval store and builds the gate serve settles asks with; nil
// with --approvals off. The store is the shared one in Redis when serve has one (--store
// redis://…), so every replica holds, answers and grants from one queue; else the local
// journal. The returned function closes the store.
func (a *app) approvalGate(f approvalFlags, shared *redisstore.Store, rec approval.Recorder, logger *slog.Logger, changes func(approval.Change)) (*approval.Gate, string, func(), error) {
	if f.mode == "off" {
		return nil, "", func() {}, nil
	}
	approver := strings.TrimSpace(a.getenv(envApproverToken))
	if f.tokenFile != "" {
		b, err := os.ReadFile(f.tokenFile)
		if err != nil {
			return nil, "", nil, invalidError(fmt.Errorf("serve: read the approver token: %w", err))
		}
		approver = strings.TrimSpace(string(b))
	}
	if approver != "" && len(approver) < minTokenLen {
		return nil, "", nil, invalidError(fmt.Errorf("serve: the approver token is %d characters, fewer than %d: use a random one, e.g. openssl rand -hex 32", len(approver), minTokenLen))
	}
	if approver == "" {
		logger.Warn("approvals can be answered by any process that reaches this serve, an agent's included: give the person's terminal an approver token (--approver-token-file, GUARDIAN_APPROVER_TOKEN) that agents do not get")
	}
	opts := []approval.GateOption{approval.WithWait(f.wait), approval.WithQueueAll(f.mode == "queue"), approval.WithMaxPending(f.maxPending),
		approval.WithChanges(changes)}
	if shared != nil {
		if f.file != "" {
			return nil, "", nil, usageErrorf("serve: --approvals-file with a shared store (%s): approvals are kept in Redis; drop one of them", shared.Client().Options().Addr)
		}
		st := shared.Approvals()
		return approval.NewGate(st, rec, opts...), approver, func() { st.Close() }, nil
	}
	path := f.file
	if path == "" {
		if path = approval.DefaultPath(a.getenv); path == "" {
			return nil, "", nil, usageErrorf("serve: no state directory for the approvals journal (neither XDG_STATE_HOME nor HOME is set): give --approvals-file FILE or --approvals off")
		}
	}
	store, err := approval.OpenFileStore(path)
	if err != nil {
		return nil, "", nil, invalidError(fmt.Errorf("serve: %w", err))
	}
	return approval.NewGate(store, rec, opts...), approver, func() { store.Close() }, nil
}

// Append records an answer of the approval gate (a person's, a grant's, none in time) in the
// audit log and shows it on the console's live stream like every decision.
func (a *liveAuditor) Append(ctx context.Context, rec audit.Record) (audit.Record, error) {
	out, err := a.log.Append(ctx, rec)
	if err != nil {
		return out, err
	}
	if b, err := json.Marshal(out); err == nil {
		a.hub.PublishDecision(b)
		if a.onRecord != nil {
			a.onRecord(out, b)
		}
	}
	return out, nil
}

// EventApproval is the kind of the events GET /v1/events carries for the approval queue: its
// data is an approval.Change (held, settled, grant_added, grant_revoked).
const EventApproval = "approval"

// approvalChanges publishes the queue's changes on the event stream and notifies the
// pending-request webhooks of each request held.
func approvalChanges(ctx context.Context, hub *server.Hub, n *notify.Notifier) func(approval.Change) {
	return func(c approval.Change) {
		b, err := json.Marshal(c)
		if err != nil {
			return
		}
		hub.Publish(server.Event{Kind: EventApproval, Data: b})
		if c.Kind == approval.ChangeHeld && c.Approval != nil {
			p := c.Approval
			pb, _ := json.Marshal(p)
			n.Notify(ctx, notify.Event{Kind: notify.KindPending, Time: p.Created, ID: p.ID, Host: p.Caller.Host, Session: p.Caller.Session,
				DecidedBy: p.AskedBy, Summary: "waiting for a person: " + p.Shape + " (guardian approve " + p.ID + ")", Details: pb})
		}
	}
}
