package audit

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

func TestSummarize(t *testing.T) {
	day := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	at := func(h int) time.Time { return day.Add(time.Duration(h) * time.Hour) }
	recs := []Record{
		{Time: at(-1), Decision: riskmodel.Ask, Status: guardian.StatusRule, DecidedBy: "rule:old"}, // before the day: not counted
		{Time: at(1), Decision: riskmodel.Allow, Status: guardian.StatusRule, DecidedBy: "rules"},
		{Time: at(1), Decision: riskmodel.Deny, Status: guardian.StatusRule, DecidedBy: "rule:vcs.push"},
		{Time: at(2), Decision: riskmodel.Ask, Status: guardian.StatusRule, DecidedBy: "rule:prune"},
		{Time: at(2), Decision: riskmodel.Allow, Status: guardian.StatusHuman, DecidedBy: "human:alice", AskedBy: "rule:prune"},
		{Time: at(3), Decision: riskmodel.Ask, Status: guardian.StatusRule, DecidedBy: "rule:prune"},
		{Time: at(3), Decision: riskmodel.Allow, Status: guardian.StatusGrant, DecidedBy: "grant:ab12", AskedBy: "rule:prune"},
		{Time: at(4), Decision: riskmodel.Ask, Status: guardian.StatusRule, DecidedBy: "rule:publish"},
		{Time: at(4), Decision: riskmodel.Ask, Status: guardian.StatusUnanswered, DecidedBy: "fallback", AskedBy: "rule:publish"},
		{Time: at(4), Decision: riskmodel.Deny, Status: guardian.StatusHost, DecidedBy: "host:claude", AskedBy: "rule:publish"},
		{Time: at(5), Decision: riskmodel.Ask, Status: guardian.StatusRule, DecidedBy: "rule:prune"},
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		r.Kind, r.Request = riskmodel.KindExec, []byte(`{"command":["x"]}`)
		r.Assessment = riskmodel.Assessment{Level: riskmodel.Low, Category: riskmodel.CatNone}
		if _, err := l.Append(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not a record\n")
	f.Close()

	got, err := Summarize(context.Background(), []string{path, path + ".missing"}, day)
	if err != nil {
		t.Fatal(err)
	}
	want := Summary{Since: day, Reviews: 6, Allows: 1, Asks: 4, Denies: 1, Approved: 2, Refused: 1, Unanswered: 1,
		Rules: []RuleAsks{
			{Rule: "rule:prune", Asked: 3, Approved: 2},
			{Rule: "rule:publish", Asked: 1, Refused: 1, Unanswered: 1},
		}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("summary (-want +got):\n%s", d)
	}
	if r := got.Rules[0].OverrideRate(); r < 0.66 || r > 0.67 {
		t.Errorf("override rate %v, want 2/3", r)
	}
}
