package audit

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"time"

	"github.com/guardianhq/guardian/riskmodel"
)

// Filter selects records for TailMatching and FollowMatching (guardian audit tail --decision,
// --host, --session, --rule, --since). Every condition given must hold; the zero Filter
// selects every line, readable or not.
type Filter struct {
	// Decisions selects records with one of these decisions.
	Decisions []riskmodel.Decision
	// Host and Session select records whose caller has exactly this host or session.
	Host, Session string
	// Rule selects records decided by, or with a finding of, a rule whose id matches this
	// glob (path.Match): "shell.rm-root", "user:*". It is matched against decided_by with and
	// without its "rule:" and against every finding's rule_id.
	Rule string
	// Since selects records whose review started at or after this time.
	Since time.Time
}

// IsZero reports whether f selects everything.
func (f Filter) IsZero() bool {
	return len(f.Decisions) == 0 && f.Host == "" && f.Session == "" && f.Rule == "" && f.Since.IsZero()
}

// Match reports whether the record raw is selected. A line that is not a readable record is
// selected only by the zero Filter.
func (f Filter) Match(raw json.RawMessage) bool {
	if f.IsZero() {
		return true
	}
	var r Record
	if json.Unmarshal(raw, &r) != nil {
		return false
	}
	switch {
	case len(f.Decisions) > 0 && !slices.Contains(f.Decisions, r.Decision),
		f.Host != "" && r.Caller.Host != f.Host,
		f.Session != "" && r.Caller.Session != f.Session,
		!f.Since.IsZero() && r.Time.Before(f.Since):
		return false
	}
	return f.Rule == "" || f.matchesRule(r)
}

func (f Filter) matchesRule(r Record) bool {
	match := func(id string) bool {
		ok, _ := path.Match(f.Rule, id)
		return ok
	}
	if by := r.DecidedBy; by != "" && (match(by) || len(by) > 5 && by[:5] == "rule:" && match(by[5:])) {
		return true
	}
	for _, fd := range r.Assessment.Findings {
		if match(fd.RuleID) {
			return true
		}
	}
	return false
}

// TailMatching is Tail keeping only the records f selects: the last n of those. With a
// filter that selects few records it reads as much of the log as it takes to find n.
func TailMatching(ctx context.Context, path string, n int, f Filter) ([]json.RawMessage, error) {
	files, err := Files(path)
	if err != nil {
		return nil, err
	}
	return tailFiles(ctx, files, n, f.Match)
}

// FollowMatching is Follow keeping only the records f selects.
func FollowMatching(ctx context.Context, path string, n int, interval time.Duration, f Filter, fn func(json.RawMessage) error) error {
	return follow(ctx, path, n, interval, f.Match, fn)
}
