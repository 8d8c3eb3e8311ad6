package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/evals"
	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/model/client"
	"github.com/guardianhq/guardian/guardian/oneshot"
	"github.com/guardianhq/guardian/riskmodel"
)

// maxEvalConcurrency bounds --concurrency: beyond it a model endpoint only queues requests.
const maxEvalConcurrency = 1024

// replayBaseURL is the model endpoint named when --replay runs without a configured model.
// The replayer answers every request, so nothing is ever sent there (.invalid cannot resolve).
const replayBaseURL = "http://replay.invalid/v1"

// evalFlags are the flags of `guardian eval`.
type evalFlags struct {
	datasets    []string
	reviewer    string
	concurrency int
	repeat      int
	out         string
	formats     []string
	failOn      string
	priceIn     float64
	priceOut    float64
	record      string
	replay      string
}

func (a *app) evalCmd() *cobra.Command {
	var f evalFlags
	c := &cobra.Command{
		Use:   "eval --dataset FILE [--dataset FILE…] [flags]",
		Short: "Grade a reviewer on labelled cases: false allows, false denies, ask rate, latency, cost",
		Long: `Grade a reviewer on labelled cases (JSONL, the case format of docs/formats.md; see docs/eval.md).

--reviewer rules grades the rule reviewer alone; --reviewer full (the default) grades the
configured pipeline: the user config, the project file of each case's cwd, and the model
when one is configured (without one, full is the rules alone, and eval says so).

The report has the confusion matrix (labelled × got decision), false_allow, false_allow_any,
false_deny, ask_rate_on_allow, accuracy, risk-level and category accuracy, all of it per
labelled category, kind, risk level and source, the status counts, latency percentiles,
tokens and an estimated cost, and with --repeat the flip rate. docs/eval.md defines every
metric and its denominator.

Output: --format table|json|md|html (repeatable or comma-separated; default table) goes to
stdout. With --out DIR, report.json and report.<format> for each chosen format are written
to DIR instead, and stdout gets the table.

--fail-on 'false_allow>0,ask_rate_on_allow>0.15' fails the run when any condition holds;
metric names are those of the report's "metrics" object, dotted for nested values
(statuses.timeout, latency_ms.p95). A metric that is null (empty denominator) is not checked.

--record FILE stores every model answer keyed by a digest of its prompt; --replay FILE
answers from such a file and never contacts a model. A prompt with no recorded answer is a
replay_miss (counted in statuses) and the pipeline falls back as for an unavailable model.

Exit codes: 0 the run completed (whatever the metrics), 4 a --fail-on condition holds,
2 usage error, 3 invalid dataset, config or recording, 1 internal error.`,
		Example: `  guardian eval --reviewer rules --dataset evals/testdata/dev.jsonl
  guardian eval --dataset evals/testdata/dev.jsonl --fail-on 'false_allow>0'
  guardian eval --dataset dev.jsonl --dataset holdout.jsonl --out /tmp/eval --format html,md
  guardian eval --dataset dev.jsonl --concurrency 32 --repeat 3 --price-per-1k-input 0.00015 --price-per-1k-output 0.0006
  guardian eval --dataset dev.jsonl --record answers.jsonl   # then, offline:
  guardian eval --dataset dev.jsonl --replay answers.jsonl
  guardian eval compare before/report.json after/report.json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runEval(cmd, f) },
	}
	fl := c.Flags()
	fl.StringArrayVar(&f.datasets, "dataset", nil, "labelled cases in JSONL `FILE` (repeatable)")
	fl.StringVar(&f.reviewer, "reviewer", "full", "what to grade: rules (the rule reviewer) or full (the configured pipeline)")
	fl.IntVar(&f.concurrency, "concurrency", 8, "reviews in flight at once (`N`)")
	fl.IntVar(&f.repeat, "repeat", 1, "review every case `K` times (K ≥ 2 measures the flip rate)")
	fl.StringVar(&f.out, "out", "", "write report.json and the chosen formats to `DIR` (created if missing)")
	fl.StringSliceVar(&f.formats, "format", []string{"table"}, "report `FORMAT`s: table, json, md, html")
	fl.StringVar(&f.failOn, "fail-on", "", "exit 4 when any condition holds: `EXPR` like 'false_allow>0,ask_rate_on_allow>0.15'")
	fl.Float64Var(&f.priceIn, "price-per-1k-input", 0, "price of 1,000 input tokens, for the cost estimate (`X`)")
	fl.Float64Var(&f.priceOut, "price-per-1k-output", 0, "price of 1,000 output tokens, for the cost estimate (`Y`)")
	fl.StringVar(&f.record, "record", "", "store every model answer in `FILE` (JSONL, merged into an existing file)")
	fl.StringVar(&f.replay, "replay", "", "answer model calls from `FILE` (written by --record); never contact a model")
	c.AddCommand(a.evalCompareCmd())
	return c
}

// evalPlan is a validated eval command line.
type evalPlan struct {
	evalFlags
	formats []evals.Format
	failOn  evals.FailOn
	prices  *evals.Prices
}

// plan checks the flags before anything runs, so a typo costs no reviews.
func (f evalFlags) plan(changed func(string) bool) (evalPlan, error) {
	p := evalPlan{evalFlags: f}
	switch {
	case len(f.datasets) == 0:
		return p, usageErrorf("eval: no dataset: give --dataset FILE (e.g. --dataset evals/testdata/dev.jsonl)")
	case f.reviewer != "rules" && f.reviewer != "full":
		return p, usageErrorf("eval: --reviewer %q: want rules or full", f.reviewer)
	case f.concurrency < 1 || f.concurrency > maxEvalConcurrency:
		return p, usageErrorf("eval: --concurrency %d: want 1 to %d", f.concurrency, maxEvalConcurrency)
	case f.repeat < 1:
		return p, usageErrorf("eval: --repeat %d: want at least 1", f.repeat)
	case f.record != "" && f.replay != "":
		return p, usageErrorf("eval: --record and --replay exclude each other: record once, then replay")
	case (f.record != "" || f.replay != "") && f.reviewer == "rules":
		return p, usageErrorf("eval: --record and --replay are for model answers; --reviewer rules calls no model (use --reviewer full)")
	}
	for _, s := range f.formats {
		ft, err := evals.ParseFormat(strings.TrimSpace(s))
		if err != nil {
			return p, usageErrorf("eval: --format: %v", err)
		}
		if !slices.Contains(p.formats, ft) {
			p.formats = append(p.formats, ft)
		}
	}
	fo, err := evals.ParseFailOn(f.failOn)
	if err != nil {
		return p, usageErrorf("eval: %v", err)
	}
	p.failOn = fo
	if changed("price-per-1k-input") || changed("price-per-1k-output") {
		for name, v := range map[string]float64{"--price-per-1k-input": f.priceIn, "--price-per-1k-output": f.priceOut} {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return p, usageErrorf("eval: %s %v: want a price of 0 or more", name, v)
			}
		}
		p.prices = &evals.Prices{InputPer1K: f.priceIn, OutputPer1K: f.priceOut}
	}
	return p, nil
}

func (a *app) runEval(cmd *cobra.Command, f evalFlags) error {
	p, err := f.plan(func(name string) bool { return cmd.Flags().Changed(name) })
	if err != nil {
		return err
	}
	cases, infos, err := loadDatasets(p.datasets)
	if err != nil {
		return err
	}
	var rec *evals.Recording
	switch {
	case p.replay != "":
		if rec, err = evals.LoadRecording(p.replay); err != nil {
			return invalidError(fmt.Errorf("eval: --replay: %w", err))
		}
	case p.record != "":
		rec = evals.NewRecording()
		if _, serr := os.Stat(p.record); serr == nil {
			if rec, err = evals.LoadRecording(p.record); err != nil {
				return invalidError(fmt.Errorf("eval: --record: the existing file is merged into and must be a recording: %w", err))
			}
		}
	}
	pipes, err := a.evalPipelines(cmd, p, rec, cases, false)
	if err != nil {
		return err
	}
	defer pipes.close()
	// The same pipelines with a model that allows everything: what the rules floor keeps out
	// under a prompt-injected model (false_allow_hostile). Rules only, so it costs no tokens.
	hostile, err := a.evalPipelines(cmd, p, nil, cases, true)
	if err != nil {
		return err
	}
	defer hostile.close()
	if p.reviewer == "full" && len(pipes.models) == 0 {
		fmt.Fprintln(a.stderr, "eval: no model is configured, so --reviewer full grades the rules alone (configure one: docs/config.md)")
	}

	tty := a.isTerminal != nil && a.isTerminal(a.stderr)
	runner, err := evals.NewRunner(pipes, evals.WithConcurrency(p.concurrency), evals.WithRepeat(p.repeat), evals.WithHostile(hostile),
		evals.WithProgress(evals.Progress(a.stderr, tty)))
	if err != nil {
		return usageErrorf("eval: %v", err)
	}
	start := time.Now()
	runs, runErr := runner.Run(cmd.Context(), cases)
	wall := time.Since(start)
	if p.record != "" {
		if err := rec.WriteFile(p.record); err != nil {
			return errors.Join(runErr, fmt.Errorf("eval: --record: %w", err))
		}
		fmt.Fprintf(a.stderr, "eval: recorded %d model answers in %s\n", rec.Len(), p.record)
	}
	if runErr != nil {
		return runErr
	}

	info := evals.RunInfo{
		Datasets: infos, Reviewer: p.reviewer, Model: strings.Join(pipes.models, ","), Concurrency: p.concurrency,
		Repeat: p.repeat, Prices: p.prices, StartedAt: start.UTC().Format(time.RFC3339),
		WallSeconds: math.Round(wall.Seconds()*1000) / 1000, GuardianVersion: versionString(),
	}
	if len(pipes.models) > 0 {
		info.ModelAnswers = "live"
		switch {
		case p.replay != "":
			info.ModelAnswers = "replayed"
		case p.record != "":
			info.ModelAnswers = "recorded"
		}
	}
	if info.Config, err = a.evalConfigInfo(cmd); err != nil {
		return err
	}
	report := evals.NewReport(info, runs)
	if n := report.Metrics.Statuses.ReplayMiss; n > 0 {
		fmt.Fprintf(a.stderr, "eval: %d reviews had no recorded model answer (status replay_miss; they fell back like an unavailable model): re-record with --record\n", n)
	}
	if err := a.writeEvalOutputs(cmd.OutOrStdout(), report, p); err != nil {
		return err
	}
	return checkFailOn(a.stderr, p.failOn, report.Metrics)
}

// checkFailOn turns the conditions that hold into the fail-on exit, naming each with its value.
func checkFailOn(stderr io.Writer, fo evals.FailOn, m evals.Metrics) error {
	failed, skipped := fo.Check(m)
	for _, c := range skipped {
		fmt.Fprintf(stderr, "eval: --fail-on %s not checked: %s is null (its denominator is empty, see docs/eval.md)\n", c, c.Metric)
	}
	if len(failed) == 0 {
		return nil
	}
	msgs := make([]string, len(failed))
	for i, f := range failed {
		msgs[i] = f.String()
	}
	return &exitError{code: exitFailOn, err: fmt.Errorf("eval: --fail-on: %s", strings.Join(msgs, "; "))}
}

// writeEvalOutputs writes the chosen formats to stdout, or with --out to files (report.json
// always) and the table to stdout.
func (a *app) writeEvalOutputs(stdout io.Writer, r evals.Report, p evalPlan) error {
	if p.out == "" {
		for _, f := range p.formats {
			if err := r.Render(stdout, f); err != nil {
				return err
			}
		}
		return nil
	}
	if err := os.MkdirAll(p.out, 0o755); err != nil {
		return fmt.Errorf("eval: --out: %w", err)
	}
	formats := []evals.Format{evals.FormatJSON}
	for _, f := range p.formats {
		if f != evals.FormatJSON {
			formats = append(formats, f)
		}
	}
	var written []string
	for _, f := range formats {
		var buf bytes.Buffer
		if err := r.Render(&buf, f); err != nil {
			return err
		}
		path := filepath.Join(p.out, "report."+f.Ext())
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("eval: --out: %w", err)
		}
		written = append(written, path)
	}
	fmt.Fprintf(a.stderr, "eval: wrote %s\n", strings.Join(written, ", "))
	return r.WriteTable(stdout)
}

// loadDatasets reads every dataset strictly; case ids must be unique across all of them, since
// compare matches cases by id.
func loadDatasets(paths []string) ([]evals.Case, []evals.DatasetInfo, error) {
	var all []evals.Case
	var infos []evals.DatasetInfo
	owner := map[string]string{}
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil, invalidError(fmt.Errorf("eval: dataset %s does not exist", path))
			}
			return nil, nil, invalidError(fmt.Errorf("eval: read dataset: %w", err))
		}
		cases, err := evals.Read(bytes.NewReader(b), path)
		if err != nil {
			return nil, nil, invalidError(fmt.Errorf("eval: %w", err))
		}
		if len(cases) == 0 {
			return nil, nil, invalidError(fmt.Errorf("eval: dataset %s has no cases", path))
		}
		for _, c := range cases {
			if first, dup := owner[c.ID]; dup {
				return nil, nil, invalidError(fmt.Errorf("eval: case id %q is in both %s and %s: ids must be unique across datasets (rename one)", c.ID, first, path))
			}
			owner[c.ID] = path
		}
		sum := sha256.Sum256(b)
		infos = append(infos, evals.DatasetInfo{Path: path, Cases: len(cases), SHA256: hex.EncodeToString(sum[:])})
		all = append(all, cases...)
	}
	return all, infos, nil
}

// evalReviewer is the reviewer eval grades: the pipeline of each case's project directory,
// built once per directory before the run (so a bad project file fails the run up front
// rather than some of its cases), exactly as `guardian review` would build it for that case —
// except that the decision cache and the denials breaker are off. Both carry state from one
// request to the next: the cache would answer repeats from memory, and the breaker would make
// a case's decision depend on the cases graded before it.
type evalReviewer struct {
	wd      string
	envHome string
	byDir   map[evalDir]*guardian.Pipeline
	models  []string // distinct model names in use, sorted
}

// evalDir keys a pipeline: the project directory and whether the case comes from another
// user's machine (its paths lie in a home that is not the grader's).
type evalDir struct {
	dir     string
	foreign bool
}

// Review implements evals.Reviewer.
func (e *evalReviewer) Review(ctx context.Context, req guardian.Request) (guardian.Result, error) {
	p, ok := e.byDir[e.dirOf(req)]
	if !ok {
		return guardian.Result{}, fmt.Errorf("eval: no pipeline for %v (internal error)", e.dirOf(req))
	}
	return p.Review(ctx, req)
}

// dirOf is the project directory of a request, as `guardian review` picks it. An MCP call
// has no cwd, so `guardian review` takes the home from $HOME; a case recorded on another
// user's machine (its workspace or first absolute path under another /home/NAME or
// /Users/NAME) is graded as that machine's proxy would see it, with the home inferred from
// the call — as an exec case whose cwd lies in another home already is (oneshot.AgentHome).
func (e *evalReviewer) dirOf(req guardian.Request) evalDir {
	if req.Kind == riskmodel.KindExec && req.Exec != nil && filepath.IsAbs(req.Exec.Cwd) {
		return evalDir{dir: req.Exec.Cwd}
	}
	if req.Kind == riskmodel.KindMCP && req.MCP != nil {
		if p := mcpFirstAbsPath(req.MCP); p != "" && oneshot.AgentHome(e.envHome, p) == "" {
			return evalDir{dir: e.wd, foreign: true}
		}
	}
	return evalDir{dir: e.wd}
}

// mcpFirstAbsPath returns the call's first declared workspace, else the first string
// argument (in key order, nested values included) that is an absolute path.
func mcpFirstAbsPath(m *riskmodel.MCPRequest) string {
	for _, w := range m.Workspace {
		if filepath.IsAbs(w) {
			return w
		}
	}
	var walk func(v any) string
	walk = func(v any) string {
		switch x := v.(type) {
		case string:
			if strings.HasPrefix(x, "/") && !strings.ContainsAny(x, "\n ") {
				return x
			}
		case []any:
			for _, y := range x {
				if p := walk(y); p != "" {
					return p
				}
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if p := walk(x[k]); p != "" {
					return p
				}
			}
		}
		return ""
	}
	return walk(m.Arguments)
}

func (e *evalReviewer) close() {
	for _, p := range e.byDir {
		_ = p.Close()
	}
}

// evalPipelines builds one pipeline per project directory of the cases; with hostile, each
// with evals.HostileModel in the model's place.
func (a *app) evalPipelines(cmd *cobra.Command, p evalPlan, rec *evals.Recording, cases []evals.Case, hostile bool) (*evalReviewer, error) {
	wd, _ := a.getwd() // only needed for cases without an absolute cwd; "" then means no project file
	e := &evalReviewer{wd: wd, envHome: a.getenv("HOME"), byDir: map[evalDir]*guardian.Pipeline{}}
	var httpDoer evals.HTTPDoer
	switch {
	case p.replay != "":
		httpDoer = rec.Replayer()
	case p.record != "":
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = maxEvalConcurrency
		httpDoer = rec.Recorder(&http.Client{Transport: t})
	}
	for _, c := range cases {
		dir := e.dirOf(c.Request)
		if _, done := e.byDir[dir]; done {
			continue
		}
		pipe, model, err := a.evalPipeline(cmd, p, dir, rec, httpDoer, hostile)
		if err != nil {
			return nil, err
		}
		e.byDir[dir] = pipe
		if model != "" && !slices.Contains(e.models, model) {
			e.models = append(e.models, model)
		}
	}
	slices.Sort(e.models)
	return e, nil
}

// evalPipeline builds the pipeline for dir and returns the model it uses ("" for none).
func (a *app) evalPipeline(cmd *cobra.Command, p evalPlan, dir evalDir, rec *evals.Recording, httpDoer evals.HTTPDoer, hostile bool) (*guardian.Pipeline, string, error) {
	cfg, err := a.loadConfig(cmd, dir.dir)
	if err != nil {
		return nil, "", err
	}
	policy := cfg.Policy
	if policy.Home == "" && !dir.foreign {
		policy.Home = oneshot.AgentHome(a.getenv("HOME"), dir.dir)
	}
	an, err := riskmodel.New(policy)
	if err != nil {
		return nil, "", invalidError(fmt.Errorf("config: %w", err))
	}
	cfg.Review.CacheTTL = 0
	cfg.Review.DenialsBreaker = nil
	if p.replay != "" {
		// A missing answer is not a sick model: the breaker would turn the cases after a few
		// misses into breaker_open and hide how many answers the recording lacks.
		cfg.Review.ModelBreaker = guardian.ModelBreakerConfig{Failures: -1}
	}
	opts := cfg.PipelineOptions()
	if a.tracerProvider != nil {
		opts = append(opts, guardian.WithTracerProvider(a.tracerProvider))
	}
	if a.meterProvider != nil {
		opts = append(opts, guardian.WithMeterProvider(a.meterProvider))
	}
	model := ""
	if hostile {
		return guardian.New(an, append(opts, guardian.WithReviewer(evals.HostileModel{}))...), "", nil
	}
	if p.reviewer == "full" {
		rev, err := a.evalModelReviewer(cfg, p, rec, httpDoer)
		if err != nil {
			return nil, "", invalidError(err)
		}
		if rev != nil {
			opts = append(opts, guardian.WithReviewer(rev))
			model = rev.Config().Model
		}
	}
	return guardian.New(an, opts...), model, nil
}

// evalModelReviewer builds the model reviewer of cfg like `guardian review` does, with the
// recording or replaying HTTP client when asked. Under --replay without a configured model it
// replays the recording's one model against a base URL that is never contacted.
func (a *app) evalModelReviewer(cfg guardian.Config, p evalPlan, rec *evals.Recording, httpDoer evals.HTTPDoer) (*client.Reviewer, error) {
	mc, ok, err := cfg.ModelFromEnv(a.getenv)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if !ok && p.replay != "" {
		models := rec.Models()
		if len(models) != 1 {
			return nil, fmt.Errorf("eval: --replay without a configured model needs a recording of exactly one model; %s holds %d (%s): set GUARDIAN_MODEL to the one to replay",
				p.replay, len(models), strings.Join(models, ", "))
		}
		mc, ok = guardian.ModelConfig{BaseURL: replayBaseURL, Model: models[0]}, true
	}
	if !ok {
		return nil, nil
	}
	var extra []client.Option
	if httpDoer != nil {
		extra = append(extra, client.WithHTTPClient(httpDoer))
	}
	return a.newModelClient(cfg, mc, extra...)
}

func (a *app) evalCompareCmd() *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "compare A.json B.json [--format table|json|md]",
		Short: "Compare two eval reports: metric deltas and the cases whose decision changed",
		Long: `Compare two report.json files written by guardian eval --out: every metric in both runs with
its delta (B − A), and the cases present in both whose decision differs, marked fixed (B got
the label, A did not), broke (A got it, B does not) or changed (neither got it).`,
		Example: `  guardian eval compare runs/before/report.json runs/after/report.json
  guardian eval compare --format md a.json b.json > diff.md`,
		Args: usageArgs(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := evals.ParseFormat(format)
			if err != nil || f == evals.FormatHTML {
				return usageErrorf("eval compare: --format %q: want table, json or md", format)
			}
			ra, err := evals.ReadReportFile(args[0])
			if err != nil {
				return invalidError(fmt.Errorf("eval compare: %w", err))
			}
			rb, err := evals.ReadReportFile(args[1])
			if err != nil {
				return invalidError(fmt.Errorf("eval compare: %w", err))
			}
			return evals.Compare(ra, rb, args[0], args[1]).Render(cmd.OutOrStdout(), f)
		},
	}
	c.Flags().StringVar(&format, "format", "table", "output `FORMAT`: table, json or md")
	return c
}

// isTerminal reports whether w is a terminal (a character device): eval draws its progress
// bar only there. It is the production value of deps.isTerminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&fs.ModeCharDevice != 0
}

// evalConfigInfo identifies the user config the run reviewed with (path and sha256 of its
// bytes), nil when none was read, for the report's provenance.
func (a *app) evalConfigInfo(cmd *cobra.Command) (*evals.ConfigInfo, error) {
	cfg, err := a.loadConfig(cmd, "")
	if err != nil || len(cfg.Sources) == 0 {
		return nil, err
	}
	data, err := os.ReadFile(cfg.Sources[0])
	if err != nil {
		return nil, fmt.Errorf("eval: hash the config for the report: %w", err)
	}
	sum := sha256.Sum256(data)
	return &evals.ConfigInfo{Path: cfg.Sources[0], SHA256: hex.EncodeToString(sum[:])}, nil
}
