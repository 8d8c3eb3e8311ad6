package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// Summary counts what guardian decided and what people answered to its asks over a period:
// the day's numbers of the console and `guardian audit overrides`. An answer is a record
// with asked_by set (a person through guardian serve, a grant, the host's own prompt, or no
// answer in time); every other record is a review.
type Summary struct {
	Since time.Time `json:"since"`
	// Reviews counts decisions, and Allows, Asks, Denies them by decision.
	Reviews int `json:"reviews"`
	Allows  int `json:"allows"`
	Asks    int `json:"asks"`
	Denies  int `json:"denies"`
	// Approved, Refused and Unanswered count the answers to asks.
	Approved   int `json:"approved"`
	Refused    int `json:"refused"`
	Unanswered int `json:"unanswered"`
	// Rules are the asking rules (what decided ask), most asks first.
	Rules []RuleAsks `json:"rules"`
}

// RuleAsks is how often one rule (or model, fallback, …) asked and what people answered.
type RuleAsks struct {
	Rule       string `json:"rule"`
	Asked      int    `json:"asked"`
	Approved   int    `json:"approved"`
	Refused    int    `json:"refused"`
	Unanswered int    `json:"unanswered"`
}

// OverrideRate is the share of the rule's asks that people approved (0 with no asks).
func (r RuleAsks) OverrideRate() float64 {
	if r.Asked == 0 {
		return 0
	}
	return float64(r.Approved) / float64(r.Asked)
}

// Add counts one record, when it is from since on.
func (s *Summary) Add(r Record) {
	if r.Time.Before(s.Since) {
		return
	}
	rule := func(name string) *RuleAsks {
		i := slices.IndexFunc(s.Rules, func(x RuleAsks) bool { return x.Rule == name })
		if i < 0 {
			s.Rules = append(s.Rules, RuleAsks{Rule: name})
			i = len(s.Rules) - 1
		}
		return &s.Rules[i]
	}
	if r.AskedBy == "" {
		s.Reviews++
		switch r.Decision {
		case riskmodel.Allow:
			s.Allows++
		case riskmodel.Ask:
			s.Asks++
			rule(r.DecidedBy).Asked++
		case riskmodel.Deny:
			s.Denies++
		}
		return
	}
	ra := rule(r.AskedBy)
	switch {
	case r.Status == guardian.StatusUnanswered:
		s.Unanswered++
		ra.Unanswered++
	case r.Decision == riskmodel.Allow:
		s.Approved++
		ra.Approved++
	case r.Decision == riskmodel.Deny:
		s.Refused++
		ra.Refused++
	}
}

// sortRules orders the rules by asks, most first, then by name.
func (s *Summary) sortRules() {
	slices.SortStableFunc(s.Rules, func(a, b RuleAsks) int {
		if a.Asked != b.Asked {
			return b.Asked - a.Asked
		}
		if a.Rule < b.Rule {
			return -1
		}
		if a.Rule > b.Rule {
			return 1
		}
		return 0
	})
}

// Summarize counts the records of files (in chain order, as Files lists them) from since on.
// Lines that are not records are skipped: `guardian audit verify` is where they are reported.
func Summarize(ctx context.Context, files []string, since time.Time) (Summary, error) {
	s := Summary{Since: since, Rules: []RuleAsks{}}
	for _, name := range files {
		if err := summarizeFile(ctx, name, &s); err != nil {
			return Summary{}, err
		}
	}
	s.sortRules()
	return s, nil
}

func summarizeFile(ctx context.Context, name string, s *Summary) error {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), MaxRecordBytes)
	for n := 0; sc.Scan(); n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		line := sc.Bytes()
		// Only the fields counted are decoded; a record's time comes early in the line, so an
		// old record is skipped cheaply.
		var r struct {
			Time      time.Time          `json:"time"`
			Decision  riskmodel.Decision `json:"decision"`
			Status    guardian.Status    `json:"status"`
			DecidedBy string             `json:"decided_by"`
			AskedBy   string             `json:"asked_by"`
		}
		if !bytes.HasPrefix(line, []byte(`{"id":`)) || json.Unmarshal(line, &r) != nil {
			continue
		}
		s.Add(Record{Time: r.Time, Decision: r.Decision, Status: r.Status, DecidedBy: r.DecidedBy, AskedBy: r.AskedBy})
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("audit: read %s: %w", name, err)
	}
	return nil
}
