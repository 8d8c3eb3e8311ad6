package server

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/guardianhq/guardian/guardian/audit"
)

// RouteStats answers the day's counts.
const RouteStats = "/v1/stats"

// maxTopAsking is how many of the most-asking deciders GET /v1/stats lists.
const maxTopAsking = 10

// seedRecords is how many of the newest audit records are read at start to count what was
// decided earlier in the day.
const seedRecords = 10000

// StatsBody is the reply of GET /v1/stats: what was decided today (the server's local day),
// and what people answered to the asks, counted as audit.Summarize counts them (`guardian
// audit overrides`), so the console and the report agree.
type StatsBody struct {
	// Day is the local date counted, YYYY-MM-DD.
	Day string `json:"day"`
	// Reviews is the number of reviews; Allow, Ask and Deny split it. An answer to an ask (a
	// person's, a grant's, none in time) is not a review: it is counted in Approved, Refused
	// or Unanswered.
	Reviews int `json:"reviews"`
	Allow   int `json:"allow"`
	Ask     int `json:"ask"`
	Deny    int `json:"deny"`
	// Approved, Refused and Unanswered count the answers to today's asks.
	Approved   int `json:"approved"`
	Refused    int `json:"refused"`
	Unanswered int `json:"unanswered"`
	// OverrideRate is Approved / Ask: the share of asks a person (or a grant) let through.
	// Absent when nothing asked.
	OverrideRate *float64 `json:"override_rate,omitempty"`
	// TopAsking are the deciders (a rule, the model, a fallback) behind the most asks, with
	// what people answered them.
	TopAsking []Count `json:"top_asking"`
}

// Count is one decider, how often it asked, and how often people approved, refused or did
// not answer those asks.
type Count struct {
	DecidedBy  string `json:"decided_by"`
	Count      int    `json:"count"`
	Approved   int    `json:"approved"`
	Refused    int    `json:"refused"`
	Unanswered int    `json:"unanswered"`
}

// dayCounts counts decisions of one local day; the first decision of a new day starts over.
type dayCounts struct {
	now func() time.Time

	mu     sync.Mutex
	day    string
	seeded bool
	sum    audit.Summary
}

func newDayCounts(now func() time.Time) *dayCounts {
	return &dayCounts{now: now}
}

// add counts one audit record.
func (d *dayCounts) add(rec json.RawMessage) {
	var r audit.Record
	if json.Unmarshal(rec, &r) != nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.roll(d.now())
	d.sum.Add(r)
}

// roll starts a new day's counts when the day changed.
func (d *dayCounts) roll(now time.Time) {
	if day := now.Format(time.DateOnly); day != d.day {
		d.day = day
		y, m, dd := now.Date()
		// Since is the day's start; a record is counted whatever its own time says once it
		// arrives live (clocks of in-process hooks may differ by a little).
		d.sum = audit.Summary{Since: time.Date(y, m, dd, 0, 0, 0, 0, now.Location())}
	}
}

// seed counts today's records among the newest audit records, once, before the server
// answers anything: decisions made earlier in the day, by an earlier server or in-process
// hooks, count too.
func (d *dayCounts) seed(ctx context.Context, src DecisionSource) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.seeded || src == nil {
		return nil
	}
	d.seeded = true
	recs, err := src.Recent(ctx, seedRecords)
	if err != nil {
		return err
	}
	d.roll(d.now())
	for _, rec := range recs {
		var r audit.Record
		if json.Unmarshal(rec, &r) != nil {
			continue
		}
		d.sum.Add(r) // Add leaves out what is older than the day's start
	}
	return nil
}

func (d *dayCounts) body() StatsBody {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.roll(d.now())
	s := d.sum
	b := StatsBody{Day: d.day, Reviews: s.Reviews, Allow: s.Allows, Ask: s.Asks, Deny: s.Denies,
		Approved: s.Approved, Refused: s.Refused, Unanswered: s.Unanswered, TopAsking: []Count{}}
	if s.Asks > 0 {
		r := float64(s.Approved) / float64(s.Asks)
		b.OverrideRate = &r
	}
	rules := slices.Clone(s.Rules)
	slices.SortStableFunc(rules, func(x, y audit.RuleAsks) int {
		return cmp.Or(cmp.Compare(y.Asked, x.Asked), cmp.Compare(x.Rule, y.Rule))
	})
	for _, r := range rules {
		if r.Asked == 0 || len(b.TopAsking) == maxTopAsking {
			break
		}
		b.TopAsking = append(b.TopAsking, Count{DecidedBy: sanitize(r.Rule, 200), Count: r.Asked,
			Approved: r.Approved, Refused: r.Refused, Unanswered: r.Unanswered})
	}
	return b
}

// stats answers GET /v1/stats.
func (s *Server) stats(ex *exchange) {
	if s.hub == nil {
		ex.fail(http.StatusNotFound, CodeNotFound, "counts are not enabled on this server")
		return
	}
	ex.json(http.StatusOK, s.counts.body())
}
