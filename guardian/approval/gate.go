package approval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/riskmodel"
)

// Defaults of a Gate.
const (
	// DefaultWait is the longest a request is held for a person: well under the hook timeouts
	// of Claude Code (60 s by default) and Codex (600 s), so the hook answers before its host
	// gives up on it. A hook sends its own, shorter bound (Hold.Wait) from its deadline.
	DefaultWait = 50 * time.Second
	// MaxWait is the most a Gate may be configured to hold a request.
	MaxWait = 10 * time.Minute
	// MinWait is the shortest wait worth holding a request for: below it a person cannot
	// answer, and the ask goes to the host at once.
	MinWait = time.Second
	// DefaultMaxPending bounds the approvals open at once; beyond it an ask goes to the host
	// at once instead of waiting, so a flood of asks cannot hold unbounded state.
	DefaultMaxPending = 4096
)

// Recorder appends audit records; *audit.Log is one. The Gate records every answer, every
// use of a grant and every request nobody answered in time, before the hook learns of it.
type Recorder interface {
	Append(ctx context.Context, rec audit.Record) (audit.Record, error)
}

// Hold is what the client of one review asks of the Gate: Queue holds the request for a
// person when the review asks (the host cannot prompt), for at most Wait (0: the Gate's).
type Hold struct {
	Queue bool
	// Host says the client's host prompts a person itself: the ask goes there at once, even
	// when the Gate holds every ask (WithQueueAll).
	Host bool
	Wait time.Duration
}

// Gate turns guardian's asks into answers from people: a grant that covers the request, a
// late answer to the same request, or — when the request is held — the answer a person gives
// while the hook waits. It is safe for concurrent use.
type Gate struct {
	store      Store
	rec        Recorder
	now        func() time.Time
	wait       time.Duration
	queueAll   bool
	maxPending int
	// answering serialises Approve and Deny: the answer is recorded in the audit log before
	// the store wakes the waiter, and two people answering at once must not both be recorded.
	answering sync.Mutex
	// stopped ends every hold (Stop): a server shutting down answers its held requests.
	stopped context.Context
	stop    context.CancelFunc
	changes func(Change)
}

// Change is something that happened in the queue, for live views and notifications: a
// request held (ChangeHeld), answered, expired or delivered (ChangeSettled, the approval as
// it now stands), a grant added or revoked.
type Change struct {
	Kind     string   `json:"kind"`
	Approval *Pending `json:"approval,omitempty"`
	Grant    *Grant   `json:"grant,omitempty"`
}

// The kinds of Change.
const (
	ChangeHeld         = "held"
	ChangeSettled      = "settled"
	ChangeGrantAdded   = "grant_added"
	ChangeGrantRevoked = "grant_revoked"
)

// WithChanges sets a function told of every Change, synchronously: it must not block (the
// hub of guardian serve's event stream and its notifier queue and return).
func WithChanges(f func(Change)) GateOption { return func(g *Gate) { g.changes = f } }

func (g *Gate) changed(c Change) {
	if g.changes != nil {
		g.changes(c)
	}
}

// GateOption configures a Gate.
type GateOption func(*Gate)

// WithWait sets the longest a request is held (DefaultWait), at most MaxWait.
func WithWait(d time.Duration) GateOption {
	return func(g *Gate) {
		if d > 0 {
			g.wait = min(d, MaxWait)
		}
	}
}

// WithQueueAll holds every ask for a person, whatever the client asked for (guardian serve
// --approvals queue): for a machine where nobody watches the hosts' prompts.
func WithQueueAll(on bool) GateOption { return func(g *Gate) { g.queueAll = on } }

// WithMaxPending bounds the open approvals (DefaultMaxPending).
func WithMaxPending(n int) GateOption {
	return func(g *Gate) {
		if n > 0 {
			g.maxPending = n
		}
	}
}

// WithGateClock sets the clock (time.Now), for tests.
func WithGateClock(now func() time.Time) GateOption { return func(g *Gate) { g.now = now } }

// NewGate returns a Gate over store that records in rec.
func NewGate(store Store, rec Recorder, opts ...GateOption) *Gate {
	g := &Gate{store: store, rec: rec, now: time.Now, wait: DefaultWait, maxPending: DefaultMaxPending}
	for _, o := range opts {
		o(g)
	}
	g.stopped, g.stop = context.WithCancel(context.Background())
	return g
}

// Stop ends every hold now and makes later asks go to the host at once: each held request
// gets its ask back (status unanswered). A server calls it when it shuts down, so its drain
// does not wait out the holds. Answers and grants stay in the store.
func (g *Gate) Stop() { g.stop() }

// Store is the gate's store.
func (g *Gate) Store() Store { return g.store }

// Wait is the longest the gate holds a request.
func (g *Gate) Wait() time.Duration { return g.wait }

// grantable reports whether a grant may turn res into allow: the review finished (a failed
// model review or an open breaker left the risk unknown) and rated the request below high.
func grantable(res guardian.Result) bool {
	switch res.Status {
	case guardian.StatusRule, guardian.StatusOK, guardian.StatusCached, guardian.StatusAgentPolicy:
		return res.Assessment.Level < riskmodel.High
	}
	return false
}

// Resolve takes the result the review gave req and, when it is ask, looks for a person's
// answer: a grant that covers it (allow), a late answer to the same request in the same
// session, or, when h.Queue (or WithQueueAll), the answer given while the request is held. An
// answer is audited before it is returned; a request held until its wait ran out gets its
// ask back (status unanswered), also audited. A monitor-mode caller is never held: its host
// gets no verdict anyway. A store that fails (a shared store that is unreachable) gives no
// answer: the ask stands, held or not. Any error means no answer could be recorded: the caller
// answers its fail-safe, never allow.
func (g *Gate) Resolve(ctx context.Context, req guardian.Request, c guardian.Caller, res guardian.Result, h Hold) (guardian.Result, error) {
	if res.Decision != riskmodel.Ask || c.Monitor {
		return res, nil
	}
	start := g.now()
	_, key := Shape(req)
	if grantable(res) {
		// A grant that cannot be looked up does not apply.
		gr, ok, err := g.store.MatchGrant(ctx, GrantQuery{Key: key, Project: Project(req), Host: c.Host, Session: c.Session, Now: start})
		if err != nil {
			return res, nil
		}
		if ok {
			out := grantResult(gr, res)
			return out, g.record(ctx, req, c, out, res.DecidedBy, "", 0, g.now().Sub(start))
		}
	}
	if p, ok, err := g.store.Claim(ctx, key, c.Host, c.Session, start); err != nil {
		return res, nil
	} else if ok {
		out := answeredResult(p, g.now())
		return out, g.record(ctx, req, c, out, p.AskedBy, p.ID, 0, g.now().Sub(start))
	}
	if h.Host || (!h.Queue && !g.queueAll) || g.stopped.Err() != nil {
		return res, nil
	}
	wait := g.wait
	if h.Wait > 0 {
		wait = min(wait, h.Wait)
	}
	if wait < MinWait {
		return res, nil
	}
	if n, err := g.store.OpenCount(ctx); err != nil || n >= g.maxPending {
		return res, nil
	}
	return g.hold(ctx, req, c, res, key, start, wait)
}

// hold puts the request into the store and waits for its answer.
func (g *Gate) hold(ctx context.Context, req guardian.Request, c guardian.Caller, res guardian.Result, key string, start time.Time, wait time.Duration) (guardian.Result, error) {
	rec, err := audit.NewRecord(guardian.AuditEntry{Time: start, Request: req, Caller: c, Result: res})
	if err != nil {
		return guardian.Result{}, err
	}
	line, _ := Shape(req)
	p := Pending{
		ID: newID(idLen), State: StateOpen, Created: start, Expires: start.Add(wait),
		Kind: req.Kind, Request: rec.Request, Shape: line, Key: key, Project: Project(req),
		Caller: c, AskedBy: res.DecidedBy, Assessment: rec.Assessment,
	}
	if err := g.store.Put(ctx, p); err != nil {
		return res, nil // the store cannot hold it: the ask goes to the host now
	}
	g.changed(Change{Kind: ChangeHeld, Approval: &p})
	wctx, cancel := context.WithTimeout(ctx, wait)
	unhook := context.AfterFunc(g.stopped, cancel)
	got, err := g.store.Wait(wctx, p.ID)
	unhook()
	cancel()
	// The hook may be gone (ctx ended): settle the approval and record the outcome anyway.
	bg, done := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer done()
	var storeErr error
	if err != nil {
		if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			storeErr = err
		}
		if got, err = g.store.Expire(bg, p.ID); err != nil {
			// The store failed (a shared store went away): nobody's answer can be read, so
			// the ask stands.
			got, storeErr = p, err
			got.State = StateExpired
		}
	}
	if got.State == StateAnswered {
		if got, err = g.store.Deliver(bg, p.ID); err != nil {
			return guardian.Result{}, fmt.Errorf("deliver approval %s: %w", p.ID, err)
		}
		g.changed(Change{Kind: ChangeSettled, Approval: &got})
		// Approve or Deny recorded the answer before it woke this waiter.
		return answeredResult(got, g.now()), nil
	}
	g.changed(Change{Kind: ChangeSettled, Approval: &got})
	out := res
	out.Status, out.DecidedBy = guardian.StatusUnanswered, "fallback"
	why := fmt.Sprintf("nobody answered approval %s within %s", p.ID, wait.Round(time.Millisecond))
	switch {
	case storeErr != nil:
		why = fmt.Sprintf("the approval store failed while approval %s waited (%v)", p.ID, storeErr)
	case ctx.Err() != nil:
		why = fmt.Sprintf("the client stopped waiting for approval %s", p.ID)
	case g.stopped.Err() != nil:
		why = fmt.Sprintf("guardian serve shut down while approval %s waited", p.ID)
	}
	out.Assessment.Rationale = joinRationale(why+"; the ask stands", res.Assessment.Rationale)
	took := g.now().Sub(start)
	return out, g.record(bg, req, c, out, res.DecidedBy, p.ID, took, took)
}

// record appends the audit record of an answer to an ask.
func (g *Gate) record(ctx context.Context, req guardian.Request, c guardian.Caller, res guardian.Result, askedBy, pending string, wait, latency time.Duration) error {
	rec, err := audit.NewRecord(guardian.AuditEntry{Time: g.now(), Request: req, Caller: c, Result: res, Latency: latency})
	if err != nil {
		return err
	}
	rec.AskedBy, rec.Pending, rec.WaitMS = askedBy, pending, ms(wait)
	if _, err := g.rec.Append(ctx, rec); err != nil {
		return fmt.Errorf("audit the %s answer: %w", res.Status, err)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// grantResult is the allow a grant gives.
func grantResult(gr Grant, asked guardian.Result) guardian.Result {
	out := asked
	out.Decision, out.Status, out.DecidedBy = riskmodel.Allow, guardian.StatusGrant, "grant:"+gr.ID
	out.Usage, out.Reasoning = nil, ""
	out.Assessment.Rationale = joinRationale(fmt.Sprintf("allowed by grant %s (%s scope, by %s on %s)",
		gr.ID, gr.Scope, gr.By, gr.Created.UTC().Format("2006-01-02")), asked.Assessment.Rationale)
	return out
}

// answeredResult is the result a person's answer gives.
func answeredResult(p Pending, now time.Time) guardian.Result {
	a := p.Answer
	verb := "approved"
	if a.Decision != riskmodel.Allow {
		verb = "denied"
	}
	why := fmt.Sprintf("%s by %s after %s", verb, a.By, a.Time.Sub(p.Created).Round(100*time.Millisecond))
	if a.Scope != ScopeOnce && a.Scope != "" {
		why += fmt.Sprintf(" (%s scope, grant %s)", a.Scope, a.Grant)
	}
	if a.Reason != "" {
		why += ": " + a.Reason
	}
	as := p.Assessment
	as.Rationale = joinRationale(why, as.Rationale)
	return guardian.Result{Decision: a.Decision, Status: guardian.StatusHuman, DecidedBy: "human:" + a.By, Assessment: as}
}

func joinRationale(first, rest string) string {
	if rest == "" {
		return first + "."
	}
	return first + ". " + rest
}

// Approve answers an approval with allow. A scope other than once also stores a grant, which
// is refused (ErrScope) for a request rated high or critical, for a session scope without a
// session and for a project scope without a project. The answer is recorded in the audit log
// (decided_by human:NAME, with the time the request waited) before the waiting hook wakes.
func (g *Gate) Approve(ctx context.Context, id string, a Answer) (Pending, *Grant, error) {
	a.Decision = riskmodel.Allow
	if a.Scope == "" {
		a.Scope = ScopeOnce
	}
	return g.answer(ctx, id, a)
}

// Deny answers an approval with deny; the reason is shown to the agent.
func (g *Gate) Deny(ctx context.Context, id string, a Answer) (Pending, error) {
	a.Decision = riskmodel.Deny
	if a.Scope != "" && a.Scope != ScopeOnce {
		return Pending{}, fmt.Errorf("a deny is once: guardian's rules decide what is always denied (guardian block PATTERN): %w", ErrScope)
	}
	a.Scope = ScopeOnce
	p, _, err := g.answer(ctx, id, a)
	return p, err
}

func (g *Gate) answer(ctx context.Context, id string, a Answer) (Pending, *Grant, error) {
	a.By = cleanName(a.By)
	if a.By == "" {
		return Pending{}, nil, errors.New("who answers is not known: give a name (guardian approve --as NAME)")
	}
	a.Reason = riskmodel.RedactSecrets(cleanText(a.Reason, 500))
	g.answering.Lock()
	defer g.answering.Unlock()
	p, err := g.store.Get(ctx, id)
	if err != nil {
		return Pending{}, nil, err
	}
	if p.State != StateOpen && p.State != StateExpired {
		return p, nil, fmt.Errorf("approval %s was already answered by %s: %w", p.ID, p.Answer.By, ErrSettled)
	}
	a.Time = g.now()
	var gr *Grant
	if a.Scope != ScopeOnce {
		if gr, err = newGrant(p, a); err != nil {
			return p, nil, err
		}
		a.Grant = gr.ID
	}
	answered := p
	answered.Answer = &a
	res := answeredResult(answered, a.Time)
	wait := a.Time.Sub(p.Created)
	rec := audit.Record{
		Time: a.Time, Kind: p.Kind, Request: p.Request, Decision: res.Decision, Status: res.Status,
		DecidedBy: res.DecidedBy, Assessment: res.Assessment, LatencyMS: ms(wait),
		AskedBy: p.AskedBy, Pending: p.ID, WaitMS: ms(wait), Caller: p.Caller,
	}
	if _, err := g.rec.Append(ctx, rec); err != nil {
		return p, nil, fmt.Errorf("audit the answer to %s (nothing was answered): %w", p.ID, err)
	}
	out, err := g.store.Answer(ctx, p.ID, a, gr)
	if err != nil {
		return out, nil, err
	}
	g.changed(Change{Kind: ChangeSettled, Approval: &out})
	if gr != nil {
		g.changed(Change{Kind: ChangeGrantAdded, Grant: gr})
	}
	return out, gr, nil
}

// newGrant builds the grant an approval with a wide scope leaves behind.
func newGrant(p Pending, a Answer) (*Grant, error) {
	if p.Assessment.Level >= riskmodel.High {
		return nil, fmt.Errorf("approval %s is rated %s: approve it once (--scope once); a standing grant is never given for a high or critical request: %w", p.ID, p.Assessment.Level, ErrScope)
	}
	gr := &Grant{
		ID: newID(idLen), Scope: a.Scope, Kind: p.Kind, Shape: p.Shape, Key: p.Key,
		By: a.By, Created: a.Time, From: p.ID, Reason: a.Reason,
	}
	switch a.Scope {
	case ScopeSession:
		if p.Caller.Session == "" {
			return nil, fmt.Errorf("approval %s has no session id (its host sent none): use --scope project or once: %w", p.ID, ErrScope)
		}
		gr.Host, gr.Session = p.Caller.Host, p.Caller.Session
	case ScopeProject:
		if p.Project == "" {
			return nil, fmt.Errorf("approval %s has no project (no cwd or workspace): use --scope session or once: %w", p.ID, ErrScope)
		}
		gr.Project = p.Project
	case ScopeAlways:
	default:
		return nil, fmt.Errorf("unknown scope %q: use once, session, project or always: %w", a.Scope, ErrScope)
	}
	ttl := a.TTL
	if ttl <= 0 {
		ttl = DefaultGrantTTL(a.Scope)
	}
	gr.Expires = a.Time.Add(ttl)
	return gr, nil
}

// cleanName makes a person's name safe for decided_by: printable, no spaces or colons, at
// most 64 bytes.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == ':':
			return '_'
		case r < 0x21 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029':
			return -1
		}
		return r
	}, strings.ToValidUTF8(strings.TrimSpace(s), ""))
	return cut(s, 64)
}

// cleanText drops control characters from free text and caps it.
func cleanText(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	return cut(strings.TrimSpace(s), max)
}

func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && s[max]&0xc0 == 0x80 {
		max--
	}
	return s[:max]
}

// Revoke removes a grant.
func (g *Gate) Revoke(ctx context.Context, id string) (Grant, error) {
	gr, err := g.store.RevokeGrant(ctx, id)
	if err == nil {
		g.changed(Change{Kind: ChangeGrantRevoked, Grant: &gr})
	}
	return gr, err
}
