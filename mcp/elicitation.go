package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/guardianhq/guardian/guardian/strictjson"
	"github.com/guardianhq/guardian/riskmodel"
)

// family says which reply shape an upstream elicitation expects and how it is reviewed.
type family int

const (
	// familyPlain is an elicitation that did not opt in to review: forwarded untouched.
	familyPlain family = iota
	// familyApproval opted in with Codex's approval _meta: reviewed as an MCP tool call, and
	// answered with an MCP ElicitResult.
	familyApproval
	// familyExec is Codex's exec-approval elicitation: reviewed as a shell command, and
	// answered with Codex's {"decision": …}.
	familyExec
)

func (f family) String() string {
	switch f {
	case familyApproval:
		return "approval"
	case familyExec:
		return "exec"
	}
	return "plain"
}

// The Codex keys this file reads. The approval opt-in lives in params._meta; the exec-approval
// keys sit at the top level of params, beside message and requestedSchema.
const (
	metaRequestType    = "codex_request_type"
	metaApprovalKind   = "codex_approval_kind"
	requestTypeApprove = "approval_request"
	approvalKindMCP    = "mcp_tool_call"

	paramElicitation = "codex_elicitation"
	elicitationExec  = "exec-approval"
	paramCommand     = "codex_command"
	paramCwd         = "codex_cwd"
	paramToolCallID  = "codex_mcp_tool_call_id"
)

// The keys guardian adds to what it sends: in results to the upstream and in the _meta of
// elicitations forwarded to the host.
const (
	metaReviewer   = "approvals_reviewer"
	reviewerName   = "guardian"
	metaDecision   = "guardian/decision"
	metaDecidedBy  = "guardian/decided_by"
	metaAssessment = "guardian/assessment"
)

// elicitation is one elicitation/create from an upstream, as guardian reads it. The params
// are kept verbatim (raw), so that whatever guardian does not understand is passed on as it
// came.
type elicitation struct {
	raw     map[string]json.RawMessage // every top-level param, verbatim
	meta    map[string]json.RawMessage // params._meta, verbatim; nil when absent or not an object
	message string
	family  family
	// problem is why an elicitation that claims to be an approval request cannot be reviewed
	// ("" when it can): it then goes to the human with this note, never accepted by guardian.
	problem string

	mcp  riskmodel.MCPRequest  // familyApproval: the tool call to review (Server set by the proxy)
	exec riskmodel.ExecRequest // familyExec: the command to review
	// connector names the server of an approval request when the _meta says (connector_name,
	// else connector_id); "" means the upstream's own name.
	connector string
	// toolCallID is codex_mcp_tool_call_id: the JSON-RPC id of the tools/call during which
	// Codex asks, which routes the elicitation to that call.
	toolCallID string
}

// parseElicitation reads the params of an elicitation/create. Only params that are not a JSON
// object are an error; anything else becomes an elicitation of some family, malformed
// approval requests included.
func parseElicitation(params []byte) (*elicitation, error) {
	e := &elicitation{}
	if err := json.Unmarshal(params, &e.raw); err != nil || e.raw == nil {
		return nil, fmt.Errorf("elicitation/create params are not a JSON object: %s", clip(riskmodel.RedactSecrets(string(params)), 80))
	}
	if m, ok := e.raw["message"]; ok {
		_ = json.Unmarshal(m, &e.message)
	}
	if m, ok := e.raw["_meta"]; ok {
		_ = json.Unmarshal(m, &e.meta) // not an object: no opt-in can be read from it
	}
	// A repeated key is read last-wins here and may be read otherwise by the host: a request
	// that says "tool_name" twice is never reviewed, only put to the human (security F7).
	dup := strictjson.Check(params, nil)
	if str(e.raw, paramElicitation) == elicitationExec {
		e.family = familyExec
		e.problem = e.readExec()
	} else if str(e.meta, metaRequestType) == requestTypeApprove {
		e.family = familyApproval
		e.problem = e.readApproval()
	}
	if dup != nil && e.family != familyPlain {
		e.problem = "the request cannot be read one way only: " + dup.Error()
	}
	return e, nil
}

// readExec fills e.exec from the codex_* params and returns what is wrong with them, if
// anything.
func (e *elicitation) readExec() string {
	var argv []string
	raw, ok := e.raw[paramCommand]
	if !ok {
		return paramCommand + " is missing"
	}
	if err := json.Unmarshal(raw, &argv); err != nil {
		return paramCommand + " is not an array of strings"
	}
	if strings.TrimSpace(strings.Join(argv, "")) == "" {
		return paramCommand + " is empty"
	}
	e.exec.Command = argv
	if raw, ok := e.raw[paramCwd]; ok {
		if err := json.Unmarshal(raw, &e.exec.Cwd); err != nil {
			return paramCwd + " is not a string"
		}
	}
	if raw, ok := e.raw[paramToolCallID]; ok {
		e.toolCallID = idString(raw)
	}
	return ""
}

// readApproval fills e.mcp from an approval request's _meta and returns what is wrong with
// it, if anything.
func (e *elicitation) readApproval() string {
	if k := str(e.meta, metaApprovalKind); k != approvalKindMCP {
		if _, ok := e.meta[metaApprovalKind]; !ok {
			return metaApprovalKind + " is missing (guardian reviews only \"mcp_tool_call\" approvals)"
		}
		return fmt.Sprintf("%s is %s, not \"mcp_tool_call\" (the only kind guardian reviews)", metaApprovalKind, clip(string(e.meta[metaApprovalKind]), 60))
	}
	name, err := optString(e.meta, "tool_name")
	switch {
	case err != nil:
		return err.Error()
	case strings.TrimSpace(name) == "":
		return "tool_name is missing or empty"
	}
	e.mcp.Tool = name
	if raw, ok := e.meta["tool_params"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &e.mcp.Arguments); err != nil || e.mcp.Arguments == nil {
			return "tool_params is not an object"
		}
	}
	fields := []struct {
		key string
		dst *string
	}{
		{"tool_title", &e.mcp.Title},
		{"tool_description", &e.mcp.ToolDescription},
		{"connector_name", nil},
		{"connector_id", nil},
		{"connector_description", nil},
	}
	for _, f := range fields {
		v, err := optString(e.meta, f.key)
		if err != nil {
			return err.Error()
		}
		switch {
		case f.dst != nil:
			*f.dst = v
		case f.key == "connector_name" && v != "":
			e.connector = v
		case f.key == "connector_id" && v != "" && e.connector == "":
			e.connector = v
		}
	}
	e.mcp.Message = e.message
	return ""
}

// forward returns the elicitation as it is put to the host: the original params, with note
// (when not empty) appended to the message after a blank line and meta added to the _meta,
// and every other top-level param as it came (an exec approval's codex_* and threadId; see
// question for where they can travel).
func (e *elicitation) forward(note string, meta map[string]any) (question, error) {
	var p mcpgo.ElicitationParams
	p.Message = e.message
	if note != "" {
		p.Message = strings.TrimRight(p.Message, "\n") + "\n\n" + note
	}
	for key, dst := range map[string]*string{"mode": &p.Mode, "elicitationId": &p.ElicitationID, "url": &p.URL} {
		if raw, ok := e.raw[key]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return question{}, fmt.Errorf("elicitation param %q is not a string", key)
			}
		}
	}
	if raw, ok := e.raw["requestedSchema"]; ok && !isNull(raw) {
		p.RequestedSchema = raw
	}
	fields := map[string]any{}
	for k, v := range e.meta {
		fields[k] = v
	}
	for k, v := range meta {
		fields[k] = v
	}
	if len(fields) > 0 || e.meta != nil {
		p.Meta = &mcpgo.Meta{AdditionalFields: fields}
	}
	var extra map[string]json.RawMessage
	for k, v := range e.raw {
		switch k {
		case "_meta", "message", "requestedSchema", "mode", "elicitationId", "url":
		default:
			if extra == nil {
				extra = map[string]json.RawMessage{}
			}
			extra[k] = v
		}
	}
	if err := p.Validate(); err != nil {
		return question{}, fmt.Errorf("the elicitation cannot be forwarded: %w", err)
	}
	return question{params: p, top: extra, topInMeta: e.family == familyExec}, nil
}

// ---- what goes back to the upstream ----------------------------------------------------------

// hostAnswer turns the host's answer into the result for the upstream: the answer as given
// for an MCP elicitation ({"action":"cancel"} when there is none); for an exec approval the
// host's own {"decision": …} when it gave one, else its action mapped to Codex's decision
// (accept → approved, decline → denied, anything else → abort).
func hostAnswer(f family, r hostReply) json.RawMessage {
	if f == familyExec {
		var d struct {
			Decision json.RawMessage `json:"decision"`
		}
		if len(r.raw) > 0 && json.Unmarshal(r.raw, &d) == nil && len(d.Decision) > 0 && !isNull(d.Decision) {
			return r.raw
		}
		decision := "abort"
		if r.res != nil {
			switch r.res.Action {
			case mcpgo.ElicitationResponseActionAccept:
				decision = "approved"
			case mcpgo.ElicitationResponseActionDecline:
				decision = "denied"
			}
		}
		return execDecision(decision)
	}
	if r.res == nil || r.res.Action == "" {
		return cancelResult()
	}
	b, err := json.Marshal(r.res)
	if err != nil {
		return cancelResult()
	}
	return b
}

func cancelResult() json.RawMessage { return json.RawMessage(`{"action":"cancel"}`) }

// execDecision is Codex's exec-approval reply: {"decision": d}.
func execDecision(d string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"decision": d})
	return b
}

// ---- small JSON helpers ----------------------------------------------------------------------

// str returns m[key] when it is a JSON string, else "".
func str(m map[string]json.RawMessage, key string) string {
	var s string
	if raw, ok := m[key]; ok {
		_ = json.Unmarshal(raw, &s)
	}
	return s
}

// optString returns m[key] as a string: "" when absent or null, an error naming the key when
// it is something else.
func optString(m map[string]json.RawMessage, key string) (string, error) {
	raw, ok := m[key]
	if !ok || isNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errors.New(key + " is not a string")
	}
	return s, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// idString renders a JSON-RPC id (a string or a number) the way Codex writes
// codex_mcp_tool_call_id: the string itself, or the number in decimal.
func idString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// clip shortens s to n bytes on a rune boundary, for error messages.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}
