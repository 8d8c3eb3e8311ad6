package audit

import (
	"fmt"
	"unicode/utf8"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/prompts"
	"github.com/guardianhq/guardian/riskmodel"
)

// redactedPayload returns the request object of req with every secret replaced. It redacts
// exactly as the model prompt does (prompts.RedactArgv, prompts.RedactArguments, both built on
// riskmodel.RedactSecrets), so the audit log never shows more of a request than the model was
// shown: exec command words (one by one and across words), cwd, justification and sandbox
// reason; MCP server, tool, title, message, tool description and every key and string value of
// the arguments, however deeply nested.
func redactedPayload(req guardian.Request) (any, error) {
	switch req.Kind {
	case riskmodel.KindExec:
		if req.Exec == nil {
			return nil, fmt.Errorf("audit: exec request without its payload")
		}
		e := *req.Exec
		e.Command = prompts.RedactArgv(e.Command)
		e.Cwd = riskmodel.RedactSecrets(e.Cwd)
		e.Justification = riskmodel.RedactSecrets(e.Justification)
		e.SandboxReason = riskmodel.RedactSecrets(e.SandboxReason)
		return e, nil
	case riskmodel.KindMCP:
		if req.MCP == nil {
			return nil, fmt.Errorf("audit: mcp request without its payload")
		}
		m := *req.MCP
		m.Server = riskmodel.RedactSecrets(m.Server)
		m.Tool = riskmodel.RedactSecrets(m.Tool)
		m.Title = riskmodel.RedactSecrets(m.Title)
		m.Message = riskmodel.RedactSecrets(m.Message)
		m.ToolDescription = riskmodel.RedactSecrets(m.ToolDescription)
		red, err := prompts.RedactArguments(m.Arguments)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		// The arguments' wire form (plain JSON values), so the record shows what was sent.
		args, _ := red.(map[string]any)
		m.Arguments = args
		return m, nil
	}
	return nil, fmt.Errorf("audit: unknown request kind %q (want exec or mcp)", req.Kind)
}

// redactAssessment redacts the assessment's free text again. The reviewers already redact
// what they quote, but the audit log is where a leak would last longest, so it does not rely
// on every reviewer (present and future) getting that right.
func redactAssessment(a riskmodel.Assessment) riskmodel.Assessment {
	a.Summary = riskmodel.RedactSecrets(a.Summary)
	a.Rationale = riskmodel.RedactSecrets(a.Rationale)
	if a.Findings != nil {
		fs := make([]riskmodel.Finding, len(a.Findings))
		for i, f := range a.Findings {
			f.Segment = riskmodel.RedactSecrets(f.Segment)
			f.Message = riskmodel.RedactSecrets(f.Message)
			fs[i] = f
		}
		a.Findings = fs
	}
	return a
}

// MaxReasoningBytes caps the model reasoning kept in a record.
const MaxReasoningBytes = 4 << 10

// redactReasoning redacts and caps the model's reasoning for the record. The reviewer already
// did both; the log does not rely on it, as with the assessment.
func redactReasoning(s string) string {
	s = riskmodel.RedactSecrets(s)
	if len(s) <= MaxReasoningBytes {
		return s
	}
	cut := MaxReasoningBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + " …[cut]"
}
