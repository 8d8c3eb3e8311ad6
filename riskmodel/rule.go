package riskmodel

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"sync"
)

// ExampleCwd is the cwd every rule example runs with; its home is /home/dev.
const ExampleCwd = "/home/dev/project"

// Rule is one built-in rule. Every rule has its own examples, kept as data in examples/*.toml
// (examples.go): commands (or, for MCP rules, JSON MCP requests) that must produce a finding
// with its id, and ones that must not. `guardian rules test` and the package tests run them
// all, so a rule cannot silently stop matching what it was written for.
type Rule struct {
	ID       string
	Kind     Kind
	Level    Level
	Category Category
	// Message describes what a matching segment does; a check may return a more specific
	// sentence that replaces it in the finding.
	Message string
	// Contained marks medium rules whose effect stays inside the workspace and is reversible.
	Contained bool
	// Certain marks high rules whose match establishes an effect on docs/policy.md's deny list
	// (a private key read, a reverse tunnel, audit logging switched off): the default mapping
	// denies them. A high rule that is not certain flags something that may be dangerous but
	// that the analysis cannot confirm (code it cannot follow, an unknown binary, a production
	// change whose reason decides it); those are asked about. A check may override the rule's
	// certainty for one match (execCtx.certainty, mcpCtx.certainty); CertainWhen then says in
	// a few words which matches are certain, for `rules list`.
	Certain     bool
	CertainWhen string
	// CertaintyClass and CertaintyPolicy are the rule's row of the certainty table
	// (certainty.go): deny-list, contextual or cannot-follow, and the line of docs/policy.md
	// that puts it there. Set when the rules are built; "" for rules that never rate high.
	CertaintyClass, CertaintyPolicy string
	// Baseline rules classify what a command is ("a read-only tool", "a build tool"). They
	// are consulted only for a segment no risk rule matched, and the first that matches wins.
	Baseline bool
	// PolicyOnly rules can match only under a policy setting (protected paths, say); their
	// examples live in the package tests because TestRules uses the default policy.
	PolicyOnly bool
	// Match and NoMatch are the rule's examples; Rules fills them from examples/*.toml, and
	// ExamplesFile says which file holds them.
	Match        []string
	NoMatch      []string
	ExamplesFile string

	exec func(c *execCtx, s *Segment) (string, bool)
	mcp  func(c *mcpCtx) (string, bool)
}

// Certainty describes a rule's certainty for `rules list`: "certain", "uncertain", or for a
// rule whose checks decide per match, "certain when …".
func (r Rule) Certainty() string {
	switch {
	case r.Level == Critical:
		return "certain"
	case r.CertainWhen != "":
		return "certain when " + r.CertainWhen
	case r.Certain:
		return "certain"
	}
	return "uncertain"
}

// DefaultDecision is what the default mapping answers for a typical match of the rule: its
// certain matches when the rule is certain or decides per match.
func (r Rule) DefaultDecision() Decision {
	return DefaultMapping().Decide(r.Level, r.Contained, r.Certain || r.CertainWhen != "")
}

// Rules lists the built-in rules in evaluation order, each with its examples.
func (a *Analyzer) Rules() []Rule {
	exs, _ := examples()
	out := make([]Rule, len(a.rules()))
	for i, r := range a.rules() {
		out[i] = *r
		if e, ok := exs[r.ID]; ok {
			out[i].Match, out[i].NoMatch, out[i].ExamplesFile = e.Match, e.NoMatch, e.File
		}
	}
	return out
}

// RuleExampleFailure is a rule example that did not behave as its rule says.
type RuleExampleFailure struct {
	RuleID  string
	Example string
	// WantMatch is true for a must-match example that did not match, false for a
	// must-not-match example that did.
	WantMatch bool
	// Got lists the rule ids the example produced.
	Got []string
}

// String prints the failure as `rules test` shows it.
func (f RuleExampleFailure) String() string {
	want := "must match"
	if !f.WantMatch {
		want = "must not match"
	}
	return fmt.Sprintf("%s: example %q %s, got rules %v", f.RuleID, f.Example, want, f.Got)
}

// RuleExampleReport is what one rule's examples did.
type RuleExampleReport struct {
	RuleID string
	// File is the examples file holding the rule's examples ("" if none).
	File           string
	Match, NoMatch int
	Failures       []RuleExampleFailure
}

// TestRules runs every built-in rule's examples through a default-policy analyzer, so user
// rules cannot mask a broken built-in. It returns the failures and the number of examples run.
func TestRules(ctx context.Context) ([]RuleExampleFailure, int) {
	var fails []RuleExampleFailure
	n := 0
	for _, r := range TestRulesReport(ctx) {
		fails = append(fails, r.Failures...)
		n += r.Match + r.NoMatch
	}
	return fails, n
}

// TestRulesReport runs every built-in rule's examples and reports per rule, in evaluation
// order. Examples that name no built-in rule, and an examples file that does not load, are
// reported as failures of their own (rule id "examples").
func TestRulesReport(ctx context.Context) []RuleExampleReport {
	a, err := New(Policy{})
	if err != nil {
		return []RuleExampleReport{{RuleID: "policy", Failures: []RuleExampleFailure{{RuleID: "policy", Example: err.Error(), WantMatch: true}}}}
	}
	exs, err := examples()
	var out []RuleExampleReport
	if err != nil {
		out = append(out, RuleExampleReport{RuleID: "examples", Failures: []RuleExampleFailure{{RuleID: "examples", Example: err.Error(), WantMatch: true}}})
	}
	known := map[string]bool{}
	for _, r := range a.rules() {
		known[r.ID] = true
		e := exs[r.ID]
		rep := RuleExampleReport{RuleID: r.ID, File: e.File, Match: len(e.Match), NoMatch: len(e.NoMatch)}
		check := func(ex string, want bool) {
			ids, err := a.exampleRuleIDs(ctx, r.Kind, ex)
			if err != nil {
				rep.Failures = append(rep.Failures, RuleExampleFailure{RuleID: r.ID, Example: ex, WantMatch: want, Got: []string{"error: " + err.Error()}})
				return
			}
			if slices.Contains(ids, r.ID) != want {
				rep.Failures = append(rep.Failures, RuleExampleFailure{RuleID: r.ID, Example: ex, WantMatch: want, Got: ids})
			}
		}
		if len(e.Match) == 0 && !r.PolicyOnly {
			rep.Failures = append(rep.Failures, RuleExampleFailure{RuleID: r.ID, Example: "(no must-match example)", WantMatch: true})
		}
		if len(e.NoMatch) == 0 && !r.PolicyOnly {
			rep.Failures = append(rep.Failures, RuleExampleFailure{RuleID: r.ID, Example: "(no must-not-match example)", WantMatch: false})
		}
		for _, ex := range e.Match {
			check(ex, true)
		}
		for _, ex := range e.NoMatch {
			check(ex, false)
		}
		out = append(out, rep)
	}
	var orphans []string
	for id := range exs {
		if !known[id] {
			orphans = append(orphans, id)
		}
	}
	sort.Strings(orphans)
	for _, id := range orphans {
		out = append(out, RuleExampleReport{RuleID: id, File: exs[id].File, Failures: []RuleExampleFailure{{RuleID: id,
			Example: "(examples in " + exs[id].File + " for a rule that does not exist; rename or remove them)", WantMatch: true}}})
	}
	return out
}

func (a *Analyzer) exampleRuleIDs(ctx context.Context, k Kind, ex string) ([]string, error) {
	var v Verdict
	if k == KindMCP {
		var req MCPRequest
		if err := json.Unmarshal([]byte(ex), &req); err != nil {
			return nil, fmt.Errorf("example is not an MCP request: %w", err)
		}
		v = a.MCP(ctx, req)
	} else {
		v = a.Exec(ctx, ExecRequest{Command: []string{"bash", "-c", ex}, Cwd: ExampleCwd})
	}
	ids := make([]string, 0, len(v.Assessment.Findings))
	for _, f := range v.Assessment.Findings {
		ids = append(ids, f.RuleID)
	}
	return ids, nil
}

// ruleFamily is one family of built-in rules. mcp marks a family of MCP rules only: an
// analyzer builds those on its first MCP review (or listing), so that a process that reviews
// one shell command (a hook) does not build the ~95 MCP rules, a third of the rule set.
type ruleFamily struct {
	build func() []*Rule
	mcp   bool
}

// ruleFamilies are the rule families in evaluation order. A new family goes here; mark it mcp
// only when it holds nothing but MCP rules (TestMCPFamiliesHoldOnlyMCPRules checks).
func ruleFamilies() []ruleFamily {
	return []ruleFamily{
		{build: shellRules}, {build: fsRules}, {build: vcsRules}, {build: netRules}, {build: hostRules},
		{build: credRules}, {build: sysRules}, {build: privRules}, {build: pkgRules}, {build: pkgInlineRules}, {build: interpRules},
		{build: cloudRules}, {build: cloudControlRules}, {build: baselineRules}, {build: catalogRules},
		{build: mcpServiceRules, mcp: true}, {build: mcpEffectRules, mcp: true}, {build: mcpRoutineRules, mcp: true},
		{build: mcpRules, mcp: true}, {build: selfApprovalRules}, {build: osBreakRules}, {build: tunnelRules}, {build: dataMoveRules},
		{build: routineRules}, {build: agentCLIRules}, {build: gitCleanHomeRules}, {build: gitRerouteRules}, {build: launchdRules}, {build: gitPushURLRules},
		{build: mcpControlRules, mcp: true}, {build: redisFileRules}, {build: debugAttachRules}, {build: fetchRunRules},
		{build: mcpStorageRules, mcp: true}, {build: sqlFileReadRules, mcp: true}, {build: mcpBrowserJSRules, mcp: true}, {build: mcpB9URLRules, mcp: true},
		{build: mcpDenyListEffectRules, mcp: true}, {build: sqlNetSendRules}, {build: mcpDBCredentialRules, mcp: true},
		{build: r10ExecRules},
		{build: mcpR10ArgRules, mcp: true}, {build: mcpR10ExportRules, mcp: true}, {build: mcpR10AskRules, mcp: true},
		{build: catalogPathRules},
		{build: r13ExecRules},
		{build: mcpR11RoutineRules, mcp: true},
		{build: r12VCSRules}, {build: r12FSRules}, {build: r12SysRules},
		{build: mcpR12Rules, mcp: true},
		{build: mcpR13Rules, mcp: true},
		{build: r14BackupRules}, {build: r14GitSecretRules}, {build: r14RunnerRules}, {build: r14UploadRules}, {build: r15ContainerEnvRules},
		{build: r16TokenRules}, {build: r16WorkloadRules}, {build: r16ScriptRules}, {build: r16PathRules}, {build: r16RegistryEnvRules},
		{build: r16SecRules},
		{build: mcpR16SecRules, mcp: true},
		{build: r16ResRules},
		{build: r17ExecRules},
		{build: r18WinRules},
		{build: r18CatRules},
		{build: mcpR14Rules, mcp: true},
		{build: mcpR15Rules, mcp: true},
		{build: mcpR16ResRules, mcp: true},
		{build: mcpR16Rules, mcp: true},
		{build: mcpR17Rules, mcp: true},
		{build: mcpR18ObjRules, mcp: true},
		{build: mcpR18DataRules, mcp: true},
		{build: r18FilesRules, mcp: true},
		{build: r18CompromisedRules},
		{build: r18OASTExecRules},
		{build: r18HubUploadRules},
		{build: r19GTFORules},
		{build: mcpR19IdentifierRules, mcp: true},
		{build: mcpR20Rules, mcp: true},
		{build: r19AtomicHostRules}, {build: r19HomeArchiveRules}, {build: r19HistoryRules},
		{build: r20ExecRules}, {build: r20CodeRules}, {build: r20DataRules},
		{build: mcpR20JobRules, mcp: true}, {build: mcpR20RunFileRules, mcp: true},
		{build: r20LabRules}, {build: r20OpsRules}, {build: r20ReadRules},
	}
}

// builtinSet is the built-in rules of one analyzer: every family but the MCP-only ones built
// at once, the rest on the first call of all.
type builtinSet struct {
	fams  []ruleFamily
	built [][]*Rule // each family's rules; nil for an MCP-only family not built yet
	all   func() []*Rule
}

func newBuiltinSet() *builtinSet {
	b := &builtinSet{fams: ruleFamilies()}
	b.built = make([][]*Rule, len(b.fams))
	for i, f := range b.fams {
		if !f.mcp {
			b.built[i] = f.build()
		}
	}
	checkRules(slices.Concat(b.built...))
	b.all = sync.OnceValue(func() []*Rule {
		var late [][]*Rule
		for i, f := range b.fams {
			if f.mcp {
				b.built[i] = f.build()
				late = append(late, b.built[i])
			}
		}
		checkRules(slices.Concat(late...))
		all := slices.Concat(b.built...)
		seen := make(map[string]bool, len(all))
		for _, r := range all {
			if seen[r.ID] {
				panic("riskmodel: duplicate rule id " + r.ID)
			}
			seen[r.ID] = true
		}
		return all
	})
	return b
}

// early returns the rules built at once: every family but the MCP-only ones, in evaluation
// order.
func (b *builtinSet) early() []*Rule {
	var out []*Rule
	for i, f := range b.fams {
		if !f.mcp {
			out = append(out, b.built[i]...)
		}
	}
	return out
}

// checkRules completes and checks a batch of freshly built rules: their certainty (class,
// policy, conditions) attached, an empty kind made exec, and unique ids, valid levels and
// categories and a check function for the rule's kind (ids are checked again across
// batches by builtinSet.all).
func checkRules(all []*Rule) {
	withCertainty(all)
	seen := make(map[string]bool, len(all))
	for _, r := range all {
		if r.Kind == "" {
			r.Kind = KindExec
		}
		switch {
		case seen[r.ID]:
			panic("riskmodel: duplicate rule id " + r.ID)
		case r.Level < Low || r.Level > Critical:
			panic("riskmodel: rule " + r.ID + " has no level")
		case r.Kind == KindExec && r.exec == nil, r.Kind == KindMCP && r.mcp == nil:
			panic("riskmodel: rule " + r.ID + " has no check for its kind")
		}
		if _, err := ParseCategory(string(r.Category)); err != nil {
			panic("riskmodel: rule " + r.ID + ": " + err.Error())
		}
		seen[r.ID] = true
	}
}
