package main

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/riskmodel"
)

// tailFilterFlags are the record filters of `guardian audit tail`.
type tailFilterFlags struct {
	decisions           []string
	host, session, rule string
	since               string
}

func (f *tailFilterFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringSliceVar(&f.decisions, "decision", nil, "only records with this `DECISION`: allow, ask or deny (repeatable, or comma-separated)")
	fl.StringVar(&f.host, "host", "", "only records asked by this `HOST` (claude, codex, mcp-proxy, …)")
	fl.StringVar(&f.session, "session", "", "only records of this caller `SESSION`")
	fl.StringVar(&f.rule, "rule", "", "only records decided by, or with a finding of, a rule matching `GLOB` (fs.rm.home, user:*)")
	fl.StringVar(&f.since, "since", "", "only reviews started at or after `T`: a duration back from now (90m, 12h, 7d), an RFC 3339 time, or a date")
}

// filter checks the flags and turns them into an audit.Filter; now anchors --since durations.
func (f *tailFilterFlags) filter(now time.Time) (audit.Filter, error) {
	var out audit.Filter
	for _, d := range f.decisions {
		dec, err := riskmodel.ParseDecision(strings.TrimSpace(d))
		if err != nil {
			return out, usageErrorf("audit tail: --decision %q: want allow, ask or deny", d)
		}
		out.Decisions = append(out.Decisions, dec)
	}
	out.Host, out.Session, out.Rule = f.host, f.session, f.rule
	if f.rule != "" {
		if _, err := path.Match(f.rule, ""); err != nil {
			return out, usageErrorf("audit tail: --rule %q: %v", f.rule, err)
		}
	}
	if f.since != "" {
		t, err := parseSince(f.since, now)
		if err != nil {
			return out, usageErrorf("audit tail: --since %q: %v", f.since, err)
		}
		out.Since = t
	}
	return out, nil
}

// parseSince reads --since: a duration back from now (Go's units, plus d for days), an RFC
// 3339 time, or a date (midnight, local time).
func parseSince(s string, now time.Time) (time.Time, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.ParseFloat(days, 64); err == nil && n >= 0 {
			return now.Add(-time.Duration(n * float64(24*time.Hour))), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, fmt.Errorf("a duration back from now cannot be negative")
		}
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, now.Location()); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("want a duration (90m, 12h, 7d), an RFC 3339 time (2026-11-15T10:00:00Z) or a date (2026-11-15)")
}
