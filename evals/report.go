package evals

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/guardianhq/guardian/riskmodel"
)

// SchemaVersion is the version of the report's JSON form. It changes only when a field is
// removed, renamed or changes meaning, so reports of one version can always be compared;
// docs/eval.md documents the schema.
const SchemaVersion = 1

// Report is the result of one eval run: what ran, the overall metrics, the same metrics per
// labelled category, kind, risk level and source, and every case with its reviews. It is the
// report.json of --out and the input of `guardian eval compare`. Struct order fixes the order of
// the JSON keys and encoding/json sorts the breakdown maps, so two runs over the same data give
// byte-identical files except for timings.
type Report struct {
	SchemaVersion int     `json:"schema_version"`
	Run           RunInfo `json:"run"`
	Metrics       Metrics `json:"metrics"`
	// ByCategory breaks the metrics down by the labelled category.
	ByCategory map[string]Metrics `json:"by_category"`
	// ByKind breaks them down by request kind (exec, mcp).
	ByKind map[string]Metrics `json:"by_kind"`
	// ByLevel breaks them down by the labelled risk level.
	ByLevel map[string]Metrics `json:"by_level"`
	// BySource breaks them down by the case's source ("(none)" when it has none).
	BySource map[string]Metrics `json:"by_source"`
	// Cases lists every case in dataset order.
	Cases []CaseReport `json:"cases"`
}

// RunInfo says what was run, so that a report explains itself and two reports can be checked
// for comparability.
type RunInfo struct {
	// Datasets are the files graded, in command-line order.
	Datasets []DatasetInfo `json:"datasets"`
	// Reviewer is "rules" (the rule reviewer alone) or "full" (the configured pipeline).
	Reviewer string `json:"reviewer"`
	// Model is the model reviewer's name, "" when no model took part.
	Model string `json:"model"`
	// ModelAnswers says where the model's answers came from: "live", "recorded" (live, and
	// written to a recording), "replayed" (from a recording), or "" with no model.
	ModelAnswers string `json:"model_answers"`
	// Concurrency and Repeat are the run's --concurrency and --repeat.
	Concurrency int `json:"concurrency"`
	Repeat      int `json:"repeat"`
	// Prices are the token prices of the cost estimate, null when none were given.
	Prices *Prices `json:"prices"`
	// StartedAt is when the run started (RFC 3339, UTC).
	StartedAt string `json:"started_at"`
	// WallSeconds is how long the whole run took.
	WallSeconds float64 `json:"wall_seconds"`
	// GuardianVersion is the build that ran it (`guardian version`).
	GuardianVersion string `json:"guardian_version"`
	// Config is the user config the run reviewed with, so a report says which policy produced
	// it; null when none was read (the built-in defaults). Project files of the cases'
	// directories apply on top of it, as in `guardian review`.
	Config *ConfigInfo `json:"config"`
}

// ConfigInfo identifies a config file by path and content hash: two reports with the same
// digest reviewed under the same user policy.
type ConfigInfo struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// DatasetInfo identifies one dataset file by path, size and content hash, so a comparison can
// tell whether two runs graded the same cases.
type DatasetInfo struct {
	Path   string `json:"path"`
	Cases  int    `json:"cases"`
	SHA256 string `json:"sha256"`
}

// CaseReport is one case in the report: its label and every review of it. Texts that come
// from the request (Request, and the summary and rationale that may quote it) are untrusted:
// they are redacted, cut to one line of bounded length and stripped of control characters
// here, and every renderer escapes them again for its own format.
type CaseReport struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Source  string `json:"source"`
	Request string `json:"request"`
	Expect  Expect `json:"expect"`
	// Decision is the first review's decision ("none" for an error): what compare matches.
	Decision string `json:"decision"`
	// Correct says the first review's decision equals the label.
	Correct bool `json:"correct"`
	// Flipped says the repeats did not all reach the same decision.
	Flipped bool           `json:"flipped"`
	Reviews []ReviewReport `json:"reviews"`
}

// ReviewReport is one review of a case.
type ReviewReport struct {
	Decision     string  `json:"decision"`
	RiskLevel    string  `json:"risk_level"`
	Category     string  `json:"category"`
	Status       string  `json:"status"`
	DecidedBy    string  `json:"decided_by"`
	LatencyMS    float64 `json:"latency_ms"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	Summary      string  `json:"summary"`
	Rationale    string  `json:"rationale"`
	Error        string  `json:"error"`
}

// noSource is the BySource key of cases without a source.
const noSource = "(none)"

// Text limits of the report: a request line and a rationale are for recognising a case, not
// for reproducing it (the dataset has the full text).
const (
	maxRequestRunes   = 300
	maxRationaleRunes = 1000
)

// NewReport grades runs and builds the report; info.Prices also prices the breakdowns.
func NewReport(info RunInfo, runs []CaseRun) Report {
	r := Report{
		SchemaVersion: SchemaVersion,
		Run:           info,
		Metrics:       Compute(runs, info.Prices),
		ByCategory:    breakdown(runs, info.Prices, func(c Case) string { return string(c.Expect.Category) }),
		ByKind:        breakdown(runs, info.Prices, func(c Case) string { return string(c.Kind) }),
		ByLevel:       breakdown(runs, info.Prices, func(c Case) string { return c.Expect.Level.String() }),
		BySource: breakdown(runs, info.Prices, func(c Case) string {
			if c.Source == "" {
				return noSource
			}
			return c.Source
		}),
		Cases: make([]CaseReport, 0, len(runs)),
	}
	for _, run := range runs {
		r.Cases = append(r.Cases, caseReport(run))
	}
	return r
}

// breakdown computes the metrics of each group of runs that key puts together.
func breakdown(runs []CaseRun, prices *Prices, key func(Case) string) map[string]Metrics {
	groups := map[string][]CaseRun{}
	for _, r := range runs {
		k := key(r.Case)
		groups[k] = append(groups[k], r)
	}
	out := make(map[string]Metrics, len(groups))
	for k, g := range groups {
		out[k] = Compute(g, prices)
	}
	return out
}

func caseReport(run CaseRun) CaseReport {
	c := run.Case
	cr := CaseReport{ID: c.ID, Kind: string(c.Kind), Source: c.Source, Request: describeRequest(c), Expect: c.Expect,
		Decision: "none", Reviews: make([]ReviewReport, 0, len(run.Outcomes))}
	if len(run.Outcomes) > 0 {
		d := decisionOf(run.Outcomes[0])
		cr.Decision = decisionName(d)
		cr.Correct = d == c.Expect.Decision
		cr.Flipped = flipped(run.Outcomes)
	}
	for _, o := range run.Outcomes {
		as := o.Result.Assessment
		rr := ReviewReport{
			Decision:  decisionName(decisionOf(o)),
			Status:    string(o.Status),
			DecidedBy: clean(o.Result.DecidedBy, maxRequestRunes),
			LatencyMS: *round(float64(o.Latency)/float64(time.Millisecond), 1e3),
			Summary:   clean(as.Summary, maxRationaleRunes),
			Rationale: clean(as.Rationale, maxRationaleRunes),
			Error:     clean(o.Err, maxRationaleRunes),
		}
		if o.Status != StatusError {
			rr.RiskLevel = levelName(as.Level)
			rr.Category = string(as.Category)
		}
		if u := o.Result.Usage; u != nil {
			rr.InputTokens, rr.OutputTokens = u.InputTokens, u.OutputTokens
		}
		cr.Reviews = append(cr.Reviews, rr)
	}
	return cr
}

// decisionName is the wire name of d, "none" for no decision.
func decisionName(d riskmodel.Decision) string {
	if d >= riskmodel.Allow && d <= riskmodel.Deny {
		return d.String()
	}
	return "none"
}

// levelName is the wire name of l, "" for no level.
func levelName(l riskmodel.Level) string {
	if l >= riskmodel.Low && l <= riskmodel.Critical {
		return l.String()
	}
	return ""
}

// describeRequest renders a case's request as one recognisable line: the argv (words with
// spaces or quotes quoted) or server/tool and the arguments as JSON.
func describeRequest(c Case) string {
	var s string
	switch {
	case c.Request.Exec != nil:
		words := make([]string, len(c.Request.Exec.Command))
		for i, w := range c.Request.Exec.Command {
			if w == "" || strings.ContainsAny(w, " \t\n'\"\\$`") {
				w = strconv.Quote(w)
			}
			words[i] = w
		}
		s = strings.Join(words, " ")
	case c.Request.MCP != nil:
		m := c.Request.MCP
		s = m.Server + "/" + m.Tool
		if len(m.Arguments) > 0 {
			if b, err := json.Marshal(m.Arguments); err == nil {
				s += " " + string(b)
			}
		}
	}
	return clean(s, maxRequestRunes)
}

// clean makes untrusted text safe to show: secrets redacted, newlines and tabs turned into
// spaces, other control characters and bidirectional overrides (which can make text read
// differently from what it is) replaced by U+FFFD, invalid UTF-8 repaired, and the result cut
// to max runes with an ellipsis.
func clean(s string, max int) string {
	if s == "" {
		return ""
	}
	s = riskmodel.RedactSecrets(strings.ToValidUTF8(s, "\uFFFD"))
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == max {
			b.WriteRune('…')
			break
		}
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			r = ' '
		case unicode.IsControl(r) || isBidiControl(r):
			r = utf8.RuneError
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}

// WriteJSON writes the report as indented JSON. HTML escaping is off: reports are read by
// people and by compare, and \u003c in every shell redirect would only get in the way (the
// HTML renderer escapes for itself).
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write report JSON: %w", err)
	}
	return nil
}

// ReadReportFile reads a report.json written by WriteJSON.
func ReadReportFile(path string) (Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Report{}, fmt.Errorf("read report: %w", err)
	}
	r, err := ReadReport(b)
	if err != nil {
		return Report{}, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// ReadReport decodes a report strictly: it must be this schema version, with no unknown keys,
// because a comparison of reports that mean different things would mislead.
func ReadReport(b []byte) (Report, error) {
	var v struct {
		SchemaVersion *int `json:"schema_version"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return Report{}, fmt.Errorf("not an eval report (want the report.json of guardian eval --out): %w", err)
	}
	switch {
	case v.SchemaVersion == nil:
		return Report{}, errors.New("not an eval report: no schema_version (want the report.json of guardian eval --out)")
	case *v.SchemaVersion != SchemaVersion:
		return Report{}, fmt.Errorf("report schema_version %d is not supported (this guardian reads version %d): re-run the eval with this guardian", *v.SchemaVersion, SchemaVersion)
	}
	var r Report
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Report{}, fmt.Errorf("malformed eval report: %w", err)
	}
	return r, nil
}

// WrongCase is a case with the first of its reviews whose decision differs from the label.
type WrongCase struct {
	Case CaseReport
	// Repeat is the 1-based repeat of Review.
	Repeat int
	Review ReviewReport
}

// Wrong returns, in report order, the cases any of whose reviews decided differently from the
// label, each with the first such review: the list the reports show.
func (r Report) Wrong() []WrongCase {
	var out []WrongCase
	for _, c := range r.Cases {
		want := c.Expect.Decision.String()
		for i, rv := range c.Reviews {
			if rv.Decision != want {
				out = append(out, WrongCase{Case: c, Repeat: i + 1, Review: rv})
				break
			}
		}
	}
	return out
}
