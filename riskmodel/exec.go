package riskmodel

import (
	"context"
	"fmt"
)

// execCtx is what exec rules see besides the segment: the request, its scope and every
// segment of it (so a rule can look at what ran before, e.g. a download then its execution).
type execCtx struct {
	scope *Scope
	req   *ExecRequest
	segs  []*Segment
	pol   *Policy

	// Per-request memos: a family of rules shares one analysis of each segment.
	pkgMemo   map[*Segment][]pkgOp
	cloudMemo map[*Segment][]cloudOp
	dbMemo    map[*Segment][]cloudOp
	// The last entry each memo answered or stored, in front of its map: the family's rules
	// ask about the segment being judged dozens of times in a row, and a pointer compare is
	// cheaper than a map lookup. It always equals the map's entry for that segment.
	pkgLast   memoLast[[]pkgOp]
	cloudLast memoLast[[]cloudOp]
	dbLast    memoLast[[]cloudOp]

	// reqAssigns are the request's NAME=value words (requestAssignWords), once computed.
	reqAssigns     []string
	reqAssignsDone bool

	// allowedBy is the first user allow rule that changed a decision in this request.
	allowedBy string

	// certainty lets a rule's check override the rule's Certain for the match it reports; it
	// is reset before every check.
	certainty certainty
}

// memoLast is the entry a per-segment memo last answered.
type memoLast[T any] struct {
	seg *Segment
	v   T
}

// certainty is a check's word on how sure its match is: the rule's default, or overridden.
type certainty int8

const (
	certaintyDefault certainty = iota
	certaintySure
	certaintyUnsure
)

// of resolves the rule's default against a check's override.
func (k certainty) of(ruleCertain bool) bool {
	switch k {
	case certaintySure:
		return true
	case certaintyUnsure:
		return false
	}
	return ruleCertain
}

func (a *Analyzer) execVerdict(ctx context.Context, req ExecRequest) Verdict {
	scope := NewScope(&a.policy, req.Cwd)
	segs, tail, issues := extractProgram(scope, req.Command, a.noFlow)
	c := &execCtx{scope: scope, req: &req, segs: segs, pol: &a.policy,
		cloudMemo: map[*Segment][]cloudOp{}, dbMemo: map[*Segment][]cloudOp{}}
	var findings []Finding
	for _, is := range issues {
		findings = append(findings, issueFinding(is))
	}
	describe := ""
	for _, s := range segs {
		if ctx.Err() != nil {
			findings = append(findings, Finding{RuleID: "shell.cancelled", Segment: s.Text, Level: High, Category: CatNone,
				Message: "The analysis was cancelled before every command was judged"})
			break
		}
		c.scope = segScope(s, scope)
		fs := a.judgeSegment(c, s)
		if describe == "" && len(fs) > 0 && fs[0].Level == Low {
			describe = fs[0].Message
		}
		findings = append(findings, fs...)
	}
	// Past the segment limit only critical findings are kept: the request is already asked
	// about as too complex, and padding must not hide a command that is denied on its own.
	for _, s := range tail {
		if ctx.Err() != nil {
			break
		}
		c.scope = segScope(s, scope)
		for _, f := range a.judgeSegment(c, s) {
			if f.Level == Critical {
				findings = append(findings, f)
			}
		}
	}
	c.scope = scope
	if len(segs) > 1 && describe != "" {
		describe = ""
		for _, f := range findings {
			if f.Level == Low {
				describe = f.Message
				break
			}
		}
	}
	v := a.finish(KindExec, findings, describe)
	if c.allowedBy != "" && v.Decision == Allow {
		v.DecidedBy = "rule:" + c.allowedBy
	}
	return v
}

func issueFinding(is issue) Finding {
	switch is.kind {
	case "unparsable":
		return Finding{RuleID: "shell.unparsable", Segment: is.text, Level: High, Category: CatNone,
			Message: "The command is not valid shell, so what it would run cannot be known"}
	case "analysis-failed":
		return Finding{RuleID: "shell.analysis-failed", Segment: is.text, Level: High, Category: CatNone,
			Message: "The command could not be fully analysed (" + is.text + "); asking instead"}
	case "too-deep":
		return Finding{RuleID: "shell.too-deep", Segment: is.text, Level: High, Category: CatNone,
			Message: fmt.Sprintf("The command nests shells more than %d deep, which hides what it runs", maxDepth)}
	default:
		return Finding{RuleID: "shell.too-complex", Segment: is.text, Level: High, Category: CatResourceExhaustion,
			Message: "The command is too large to analyse completely (" + is.text + ")"}
	}
}

// judgeSegment applies the user rules and the built-in rules to one segment.
func (a *Analyzer) judgeSegment(c *execCtx, s *Segment) []Finding {
	fs, matched := runRules(a.execRules, c, s, false, nil)
	if matched && s.Privileged {
		if f, ok := a.sudoReadOnly(c, s, fs); ok { // sudoread.go: sudo iptables -L, sudo ss -tlnp
			fs = []Finding{f}
		}
	}
	if !matched {
		fs, matched = runRules(a.baseRules, c, s, true, fs)
	}
	if !matched {
		fs = append(fs, a.unknownOrInner(c, s, 0)...)
	}
	if len(c.scope.Protected) == 0 && len(a.policy.Rules) == 0 {
		return fs // nothing to apply: the common case costs nothing
	}
	fs, allowedBy := a.applyPolicy(&policyUnit{kind: KindExec, label: s.Text, scope: c.scope, seg: s, ctx: c}, fs)
	if allowedBy != "" && c.allowedBy == "" {
		c.allowedBy = allowedBy
	}
	return fs
}

// unknownOrInner judges a segment no rule knew: a project runner's (bundle exec X, uv run
// X) by the command it runs, every rule again on that, anything else as unknown.
func (a *Analyzer) unknownOrInner(c *execCtx, s *Segment, depth int) []Finding {
	inner, ok := runnerInner(s)
	if !ok || depth >= 4 {
		return unknownFindings(c, s)
	}
	fs, matched := runRules(a.execRules, c, inner, false, nil)
	if !matched {
		fs, matched = runRules(a.baseRules, c, inner, true, fs)
	}
	if !matched {
		return a.unknownOrInner(c, inner, depth+1)
	}
	return fs
}

// runRules runs rules' checks on s in order, appending their findings to fs; firstOnly stops
// at the first match (baseline rules). A panic inside a check becomes a high finding for that
// rule (so the request is asked about) instead of crashing the reviewer or silently skipping
// the rule, and the rules after it still run.
func runRules(rules []*Rule, c *execCtx, s *Segment, firstOnly bool, fs []Finding) ([]Finding, bool) {
	matched := false
	for i := 0; i < len(rules); {
		var stop bool
		i, stop = runRulesFrom(rules, i, c, s, firstOnly, &fs, &matched)
		if stop {
			break
		}
	}
	return fs, matched
}

// runRulesFrom is runRules from rule i on, up to the first panic: one deferred recover per
// segment rather than one per rule. It returns where to go on and whether to stop.
func runRulesFrom(rules []*Rule, i int, c *execCtx, s *Segment, firstOnly bool, fs *[]Finding, matched *bool) (next int, stop bool) {
	defer func() {
		if p := recover(); p != nil {
			r := rules[next]
			*fs = append(*fs, Finding{RuleID: r.ID, Segment: s.Text, Level: High, Category: CatNone,
				Message: fmt.Sprintf("Rule %s failed on this command (%v); asking instead", r.ID, p)})
			*matched = true
			next, stop = next+1, firstOnly
		}
	}()
	for next = i; next < len(rules); next++ {
		r := rules[next]
		c.certainty = certaintyDefault
		if msg, ok := r.exec(c, s); ok {
			*fs = append(*fs, r.finding(c, s, msg))
			*matched = true
			if firstOnly {
				return next + 1, true
			}
		}
	}
	return next, false
}

func (r *Rule) finding(c *execCtx, s *Segment, msg string) Finding {
	if msg == "" {
		msg = r.Message
	}
	return Finding{RuleID: r.ID, Segment: s.Text, Level: r.Level, Category: r.Category, Message: msg, Contained: r.Contained,
		Certain: c.certainty.of(r.Certain)}
}

func unknownFinding(s *Segment) Finding {
	name := s.Name()
	if name == "" {
		name = "(empty)"
	}
	return Finding{RuleID: "cmd.unknown", Segment: s.Text, Level: Medium, Category: CatNone,
		Message: fmt.Sprintf("Runs %s, a command guardian does not know", quoteName(name))}
}

func quoteName(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return "`" + s + "`"
}

// segScope is the frame a segment runs in: where cd and ln -s before it left the request.
func segScope(s *Segment, def *Scope) *Scope {
	if s.scope != nil {
		return s.scope
	}
	return def
}
