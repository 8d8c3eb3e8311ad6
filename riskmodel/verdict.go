package riskmodel

import (
	"fmt"
	"strings"
)

// finish turns the findings of one request into a verdict: each finding without an explicit
// decision (user rules set one) is mapped by the kind's mapping; the request's decision is the
// most restrictive, its level the highest, and its category and summary come from the finding
// that decided. A request with no findings at all is asked about: silence is not consent.
func (a *Analyzer) finish(kind Kind, findings []Finding, describe string) Verdict {
	m := a.policy.mappingFor(kind)
	// A long script repeats the same segment texts and messages: each is redacted once.
	// A short one repeats them too (a segment's findings quote its text): up to 16 distinct
	// strings are remembered in a list, which costs less than a map.
	var redacted map[string]string
	var few [16][2]string
	nFew := 0
	redact := func(s string) string {
		if len(findings) < 8 {
			for _, p := range few[:nFew] {
				if p[0] == s {
					return p[1]
				}
			}
			r := RedactSecrets(s)
			if nFew < len(few) {
				few[nFew] = [2]string{s, r}
				nFew++
			}
			return r
		}
		if r, ok := redacted[s]; ok {
			return r
		}
		if redacted == nil {
			redacted = map[string]string{}
		}
		r := RedactSecrets(s)
		redacted[s] = r
		return r
	}
	for i := range findings {
		if findings[i].Decision == 0 {
			findings[i].Decision = m.Decide(findings[i].Level, findings[i].Contained, findings[i].Certain)
		}
		// Findings quote the request; a token in a command must not travel on in the
		// assessment (to a log, an audit record, a prompt, a terminal).
		findings[i].Segment = redact(findings[i].Segment)
		findings[i].Message = redact(findings[i].Message)
	}
	describe = redact(describe) // most often a finding's message, already redacted above
	if len(findings) == 0 {
		findings = append(findings, Finding{RuleID: "empty", Level: Medium, Category: CatNone,
			Message: "Nothing in the request could be analysed", Decision: Ask})
	}
	top := 0
	level := Low
	for i, f := range findings {
		if f.Level > level {
			level = f.Level
		}
		t := findings[top]
		if f.Decision > t.Decision || (f.Decision == t.Decision && f.Level > t.Level) {
			top = i
		}
	}
	t := findings[top]
	cat := t.Category
	if t.Level < level {
		// The decision came from a user rule on a lesser finding; report the worst risk's
		// category alongside the worst level so the assessment stays truthful.
		for _, f := range findings {
			if f.Level == level {
				cat = f.Category
				break
			}
		}
	}
	summary := t.Message
	if t.Level == Low && describe != "" {
		summary = describe
	}
	if n := countOthers(findings, t.Segment); n > 0 && t.Segment != "" {
		summary = fmt.Sprintf("%s (and %d other risky command%s)", strings.TrimSuffix(summary, "."), n, plural(n))
	}
	decidedBy := "rule:" + t.RuleID
	return Verdict{
		Decision:  t.Decision,
		DecidedBy: decidedBy,
		Assessment: Assessment{
			Summary:   sentence(summary),
			Level:     level,
			Category:  cat,
			Rationale: rationale(t, findings),
			Findings:  findings,
		},
	}
}

// countOthers counts the other segments with a finding of medium risk or more: the benign
// companions of the deciding command (cd, the curl feeding a sh) are not worth a mention.
func countOthers(fs []Finding, seg string) int {
	seen := map[string]bool{seg: true}
	n := 0
	for _, f := range fs {
		if f.Level >= Medium && !seen[f.Segment] {
			seen[f.Segment] = true
			n++
		}
	}
	return n
}

func rationale(top Finding, fs []Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (%s, %s) → %s.", top.RuleID, sentence(top.Message), top.Level, top.Category, top.Decision)
	others := 0
	for _, f := range fs {
		if f.Decision == top.Decision && f.Level >= Medium && f.RuleID != top.RuleID {
			if others == 0 {
				b.WriteString(" Also:")
			}
			if others < 3 {
				fmt.Fprintf(&b, " %s (%s);", f.RuleID, f.Level)
			}
			others++
		}
	}
	if others > 3 {
		fmt.Fprintf(&b, " and %d more.", others-3)
	}
	return strings.TrimSuffix(b.String(), ";")
}

func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
