package server

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"time"
)

// RouteStats answers the day's counts.
const RouteStats = "/v1/stats"

// maxTopAsking is how many of the most-asking deciders GET /v1/stats lists.
const maxTopAsking = 10

// seedRecords is how many of the newest audit records are read at start to count what was
// decided earlier in the day.
const seedRecords = 10000

// StatsBody is the reply of GET /v1/stats: what was decided today (the server's local day).
type StatsBody struct {
	// Day is the local date counted, YYYY-MM-DD.
	Day string `json:"day"`
	// Reviews is the number of decisions; Allow, Ask and Deny split it.
	Reviews int `json:"reviews"`
	Allow   int `json:"allow"`
	Ask     int `json:"ask"`
	Deny    int `json:"deny"`
	// TopAsking are the deciders (a rule, the model, a fallback) behind the most asks.
	TopAsking []Count `json:"top_asking"`
}

// Count is one decider and how often it asked.
type Count struct {
	DecidedBy string `json:"decided_by"`
	Count     int    `json:"count"`
}

// dayCounts counts decisions of one local day; the first decision of a new day starts over.
type dayCounts struct {
	now func() time.Time

	mu     sync.Mutex
	day    string
	seeded bool
	total  map[string]int // by decision
	asking map[string]int // asks by decided_by
}

func newDayCounts(now func() time.Time) *dayCounts {
	return &dayCounts{now: now, total: map[string]int{}, asking: map[string]int{}}
}

// recordFields are the parts of an audit record the counts need.
type recordFields struct {
	Time      time.Time `json:"time"`
	Decision  string    `json:"decision"`
	DecidedBy string    `json:"decided_by"`
}

// add counts one audit record.
func (d *dayCounts) add(rec json.RawMessage) {
	var f recordFields
	if json.Unmarshal(rec, &f) != nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.roll(d.now())
	d.count(f)
}

// roll starts a new day's counts when the day changed.
func (d *dayCounts) roll(now time.Time) {
	if day := now.Format(time.DateOnly); day != d.day {
		d.day = day
		clear(d.total)
		clear(d.asking)
	}
}

func (d *dayCounts) count(f recordFields) {
	d.total[f.Decision]++
	if f.Decision == "ask" {
		d.asking[sanitize(f.DecidedBy, 200)]++
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
	now := d.now()
	d.roll(now)
	for _, rec := range recs {
		var f recordFields
		if json.Unmarshal(rec, &f) != nil || f.Time.In(now.Location()).Format(time.DateOnly) != d.day {
			continue
		}
		d.count(f)
	}
	return nil
}

func (d *dayCounts) body() StatsBody {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.roll(d.now())
	b := StatsBody{Day: d.day, Allow: d.total["allow"], Ask: d.total["ask"], Deny: d.total["deny"], TopAsking: []Count{}}
	for _, n := range d.total {
		b.Reviews += n
	}
	for by, n := range d.asking {
		b.TopAsking = append(b.TopAsking, Count{DecidedBy: by, Count: n})
	}
	slices.SortFunc(b.TopAsking, func(x, y Count) int {
		return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.DecidedBy, y.DecidedBy))
	})
	if len(b.TopAsking) > maxTopAsking {
		b.TopAsking = b.TopAsking[:maxTopAsking]
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
