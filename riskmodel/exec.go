package riskmodel

import (
	"context"
	"errors"
	"fmt"
	"strings"
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

	// certainty lets a rule's check override the rule's Certain for the match it reports; it
	// is reset before every check.
	certainty certainty
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

// validate checks a user rule for the mistakes the config loader cannot see.
func (r UserRule) validate() error {
	if r.Decision < Allow || r.Decision > Deny {
		return errors.New("decision must be allow, ask or deny")
	}
	set := 0
	if len(r.Prefix) > 0 {
		set++
	}
	if r.Glob != "" {
		set++
	}
	if r.Regex != nil {
		set++
	}
	switch {
	case r.Kind == KindMCP && (r.Glob == "" || set != 1):
		return errors.New("an mcp rule needs exactly a glob over server/tool")
	case r.Kind != KindMCP && set != 1:
		return errors.New("an exec rule needs exactly one of prefix, glob, regex")
	}
	return nil
}

// matchesArgs reports whether an exec user rule matches a segment's argv.
func (r UserRule) matchesArgs(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch {
	case len(r.Prefix) > 0:
		if len(args) < len(r.Prefix) {
			return false
		}
		for i, p := range r.Prefix {
			a := args[i]
			if i == 0 {
				a = baseName(a)
				p = baseName(p)
			}
			if a != p {
				return false
			}
		}
		return true
	case r.Glob != "":
		return WildcardMatch(r.Glob, strings.Join(args, " "))
	case r.Regex != nil:
		return r.Regex.MatchString(strings.Join(args, " "))
	}
	return false
}

func baseName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
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
	return a.finish(KindExec, findings, describe)
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
	var fs []Finding
	matched := false
	for _, r := range a.rules {
		if r.Kind != KindExec || r.Baseline {
			continue
		}
		if msg, ok, f := runRule(r, c, s); f != nil {
			fs = append(fs, *f)
			matched = true
		} else if ok {
			fs = append(fs, r.finding(c, s, msg))
			matched = true
		}
	}
	if !matched {
		for _, r := range a.rules {
			if r.Kind != KindExec || !r.Baseline {
				continue
			}
			if msg, ok, f := runRule(r, c, s); f != nil {
				fs = append(fs, *f)
				matched = true
				break
			} else if ok {
				fs = append(fs, r.finding(c, s, msg))
				matched = true
				break
			}
		}
	}
	if !matched {
		fs = append(fs, unknownFindings(c, s)...)
	}
	return a.applyUserRules(s, fs)
}

// runRule runs one rule's check; a panic inside it becomes a high finding (so the request is
// asked about) instead of crashing the reviewer or silently skipping the rule.
func runRule(r *Rule, c *execCtx, s *Segment) (msg string, ok bool, failed *Finding) {
	defer func() {
		if p := recover(); p != nil {
			failed = &Finding{RuleID: r.ID, Segment: s.Text, Level: High, Category: CatNone,
				Message: fmt.Sprintf("Rule %s failed on this command (%v); asking instead", r.ID, p)}
		}
	}()
	c.certainty = certaintyDefault
	msg, ok = r.exec(c, s)
	return msg, ok, nil
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

// applyUserRules lets the user's rules speak for a segment: deny and ask add a finding with
// that decision; allow lowers the segment's other findings to allow, except critical ones —
// a user allow for "rm" must not wave through "rm -rf ~". Precedence: deny > ask > allow.
func (a *Analyzer) applyUserRules(s *Segment, fs []Finding) []Finding {
	var allow *UserRule
	for i := range a.policy.Rules {
		r := &a.policy.Rules[i]
		if r.Kind == KindMCP || !r.matchesArgs(s.Args) {
			continue
		}
		switch r.Decision {
		case Deny, Ask:
			lvl := High
			msg := "Matches your " + r.Decision.String() + " rule " + r.ID
			if r.Reason != "" {
				msg += ": " + r.Reason
			}
			fs = append(fs, Finding{RuleID: r.ID, Segment: s.Text, Level: lvl, Category: topCategory(fs), Message: msg, Decision: r.Decision})
		case Allow:
			if allow == nil {
				allow = r
			}
		}
	}
	if allow != nil {
		for i := range fs {
			if fs[i].Decision == 0 && fs[i].Level < Critical {
				fs[i].Decision = Allow
				fs[i].Message += " (allowed by your rule " + allow.ID + ")"
			}
		}
	}
	return fs
}

func topCategory(fs []Finding) Category {
	c, l := CatNone, Level(0)
	for _, f := range fs {
		if f.Level > l {
			c, l = f.Category, f.Level
		}
	}
	return c
}

// segScope is the frame a segment runs in: where cd and ln -s before it left the request.
func segScope(s *Segment, def *Scope) *Scope {
	if s.scope != nil {
		return s.scope
	}
	return def
}
