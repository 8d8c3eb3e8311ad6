package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/hook"
	"github.com/guardianhq/guardian/riskmodel"
)

// notCheckable starts the note added to an approval request guardian cannot review.
const notCheckable = "guardian: could not review this approval request: "

// elicit answers an elicitation/create from upstream u (params verbatim) with the raw result
// for the upstream. It never fails: whatever goes wrong ends in an answer that does not
// approve anything ({"action":"cancel"}, or Codex's "abort").
func (p *Proxy) elicit(ctx context.Context, u *upstream, params []byte) (json.RawMessage, error) {
	e, err := parseElicitation(params)
	if err != nil {
		p.log.Warn("unreadable elicitation from upstream", "upstream", u.name, "err", err)
		return cancelResult(), nil
	}
	to, how := u.route(ctx, e)
	ctx, span := p.tel.startElicitation(ctx, u.name, e.family, how)
	defer span.End()
	res, outcome := p.answer(ctx, u, e, to)
	p.tel.endElicitation(ctx, span, u.name, e.family, outcome)
	if to == nil && outcome == outcomeNoHost {
		p.log.Warn("elicitation not shown to any host: no downstream call it can be tied to", "upstream", u.name, "routing", how)
	}
	return res, nil
}

// The outcomes of an elicitation, for metrics and spans.
const (
	outcomeAllow       = "allow"        // guardian allowed: accepted (approved) without the host
	outcomeDeny        = "deny"         // guardian denied: declined (denied) without the host
	outcomeHostAccept  = "host_accept"  // the host accepted
	outcomeHostDecline = "host_decline" // the host declined
	outcomeHostCancel  = "host_cancel"  // the host cancelled, failed or did not answer in time
	outcomeNoHost      = "no_host"      // no host could be asked: answered cancel (abort)
)

// answer decides one elicitation: review it when it opted in, then answer it or ask the host.
func (p *Proxy) answer(ctx context.Context, u *upstream, e *elicitation, to asker) (json.RawMessage, string) {
	switch {
	case e.family == familyPlain:
		return p.askHost(ctx, to, e, "", nil)
	case e.problem != "":
		return p.askHost(ctx, to, e, notCheckable+e.problem, nil)
	}
	var host hostInfo
	caller := guardian.Caller{Host: CallerHost}
	if to != nil {
		host = to.hostInfo()
		caller = host.caller()
	}
	req := guardian.ExecRequest(e.exec)
	if e.family == familyApproval {
		m := e.mcp
		m.Server = u.name
		if e.connector != "" {
			m.Server = e.connector
		}
		// Not a workspace the upstream's elicitation names: the host's roots (when it can be
		// tied to a call) and the configured project.
		m.Workspace = p.workspaceFor(u, host)
		req = guardian.MCPRequest(m)
	}
	res, err := p.decider.Decide(ctx, req, caller)
	if err != nil {
		p.log.Warn("elicitation review failed; asking the host", "upstream", u.name, "err", err)
		return p.askHost(ctx, to, e, notCheckable+"the review failed: "+clip(err.Error(), 300), nil)
	}
	switch res.Decision {
	case riskmodel.Allow:
		return allowResult(e.family, res), outcomeAllow
	case riskmodel.Deny:
		return denyResult(e.family, res), outcomeDeny
	}
	return p.askHost(ctx, to, e, hook.Reason(res), map[string]any{metaAssessment: assessmentMeta(res)})
}

// askHost forwards e to the host behind to, with note appended to its message and extra added
// to its _meta, and turns the answer into the upstream's result. Without a host to ask (the
// elicitation cannot be tied to one, or it cannot take elicitations) the result is cancel
// (Codex: abort).
func (p *Proxy) askHost(ctx context.Context, to asker, e *elicitation, note string, extra map[string]any) (json.RawMessage, string) {
	if to == nil || !to.hostInfo().canElicit {
		return hostAnswer(e.family, hostReply{}), outcomeNoHost
	}
	q, err := e.forward(note, extra)
	if err != nil {
		p.log.Warn("elicitation not forwarded to the host", "err", err)
		return hostAnswer(e.family, hostReply{}), outcomeNoHost
	}
	r := to.ask(ctx, q)
	outcome := outcomeHostCancel
	if r.res != nil {
		switch r.res.Action {
		case mcpgo.ElicitationResponseActionAccept:
			outcome = outcomeHostAccept
		case mcpgo.ElicitationResponseActionDecline:
			outcome = outcomeHostDecline
		}
	}
	return hostAnswer(e.family, r), outcome
}

// allowResult is guardian's approval, in the shape the upstream expects.
func allowResult(f family, res guardian.Result) json.RawMessage {
	if f == familyExec {
		return execDecision("approved")
	}
	return mustJSON(map[string]any{
		"action":  "accept",
		"content": map[string]any{},
		"_meta":   resultMeta(res, ""),
	})
}

// denyResult is guardian's refusal, in the shape the upstream expects; an MCP decline carries
// the reason in _meta.message, as Codex's own reviewer does.
func denyResult(f family, res guardian.Result) json.RawMessage {
	if f == familyExec {
		return execDecision("denied")
	}
	return mustJSON(map[string]any{
		"action": "decline",
		"_meta":  resultMeta(res, hook.Reason(res)),
	})
}

// resultMeta is the _meta of guardian's own answer to an approval request.
func resultMeta(res guardian.Result, message string) map[string]any {
	m := map[string]any{
		metaReviewer:   reviewerName,
		metaDecision:   res.Decision.String(),
		metaDecidedBy:  res.DecidedBy,
		metaAssessment: assessmentMeta(res),
	}
	if message != "" {
		m["message"] = message
	}
	return m
}

// assessmentMeta is guardian's assessment as it is put in _meta: summary, risk level, category
// and rationale (the findings stay in the audit log).
func assessmentMeta(res guardian.Result) map[string]string {
	a := res.Assessment
	return map[string]string{
		"summary":    a.Summary,
		"risk_level": a.Level.String(),
		"category":   string(a.Category),
		"rationale":  a.Rationale,
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return cancelResult()
	}
	return b
}

// ---- the tool-call gate ----------------------------------------------------------------------

// gate reviews a tools/call before it is forwarded (Upstream.Gate). It returns nil to forward
// the call, or the result that refuses it. ask puts the call to the host as an elicitation;
// anything but accept refuses it, and so does a host that cannot be asked.
func (p *Proxy) gate(ctx context.Context, c *call, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	ctx, span := p.tel.startGate(ctx, c)
	defer span.End()
	t, _ := c.up.tool(c.tool)
	m := riskmodel.MCPRequest{
		Server:          c.up.name,
		Tool:            c.tool,
		Title:           t.Title,
		Arguments:       req.GetArguments(),
		ToolDescription: t.Description,
		Annotations:     annotations(t.Annotations),
		Workspace:       p.workspaceFor(c.up, c.host),
	}
	if m.Title == "" {
		m.Title = t.Annotations.Title
	}
	res, err := p.decider.Decide(ctx, guardian.MCPRequest(m), c.host.caller())
	if err != nil {
		p.log.Warn("tool-call review failed; refusing the call", "upstream", c.up.name, "tool", c.tool, "err", err)
		p.tel.endGate(span, "error")
		return gateRefusal(c, guardian.Result{}, "guardian could not review the call ("+clip(err.Error(), 200)+")")
	}
	switch res.Decision {
	case riskmodel.Allow:
		p.tel.endGate(span, outcomeAllow)
		return nil
	case riskmodel.Deny:
		p.tel.endGate(span, outcomeDeny)
		return gateRefusal(c, res, "")
	}
	if !c.host.canElicit {
		p.tel.endGate(span, outcomeNoHost)
		return gateRefusal(c, res, "the call needs a human's approval, and this MCP client cannot be asked (it declared no elicitation capability)")
	}
	params := mcpgo.ElicitationParams{
		Message:         fmt.Sprintf("Allow the MCP server %s to run its tool %s?\n\n%s", c.up.name, c.tool, hook.Reason(res)),
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`),
		Meta: &mcpgo.Meta{AdditionalFields: map[string]any{
			metaAssessment:     assessmentMeta(res),
			"guardian/server":  c.up.name,
			"guardian/tool":    c.tool,
			"guardian/request": "tool_call",
		}},
	}
	asked := time.Now()
	r := c.ask(ctx, question{params: params}).res
	if f := p.opts.hostAnswer; f != nil && r != nil {
		f(ctx, guardian.MCPRequest(m), c.host.caller(), res, r.Action == mcpgo.ElicitationResponseActionAccept, time.Since(asked))
	}
	if r != nil && r.Action == mcpgo.ElicitationResponseActionAccept {
		p.tel.endGate(span, outcomeHostAccept)
		return nil
	}
	why := "the user was asked and did not approve the call"
	if r == nil {
		p.tel.endGate(span, outcomeHostCancel)
		why = "the user was asked and cancelled, or did not answer"
	} else {
		p.tel.endGate(span, outcomeHostDecline)
	}
	return gateRefusal(c, res, why)
}

// gateRefusal is the tool result of a call the gate refused: an error result whose text starts
// "guardian denied", says why (guardian's assessment, and who refused) and what to do instead.
func gateRefusal(c *call, res guardian.Result, who string) *mcpgo.CallToolResult {
	var b strings.Builder
	fmt.Fprintf(&b, "guardian denied the call to %s on the MCP server %s", c.tool, c.up.name)
	if res.Decision != 0 {
		b.WriteString(": ")
		b.WriteString(strings.TrimRight(strings.TrimPrefix(hook.Reason(res), "guardian: "), ". "))
	}
	if who != "" {
		b.WriteString(" (" + who + ")")
	}
	b.WriteString(". The call was not run. Do not retry it or reach the same result another way; " +
		"if it is needed, tell the user what it would do and why, so that they can run it themselves or approve it, " +
		"or continue with a safer alternative (read-only, narrower, reversible).")
	out := mcpgo.NewToolResultError(b.String())
	meta := map[string]any{metaDecision: riskmodel.Deny.String()}
	if res.Decision != 0 {
		meta[metaAssessment] = assessmentMeta(res)
		meta[metaDecidedBy] = res.DecidedBy
	}
	out.Meta = &mcpgo.Meta{AdditionalFields: meta}
	return out
}

// annotations converts an MCP tool's hints for the reviewer; nil when it gives none.
func annotations(a mcpgo.ToolAnnotation) *riskmodel.ToolAnnotations {
	if a.ReadOnlyHint == nil && a.DestructiveHint == nil && a.IdempotentHint == nil && a.OpenWorldHint == nil {
		return nil
	}
	return &riskmodel.ToolAnnotations{ReadOnlyHint: a.ReadOnlyHint, DestructiveHint: a.DestructiveHint, IdempotentHint: a.IdempotentHint, OpenWorldHint: a.OpenWorldHint}
}
