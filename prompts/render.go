package prompts

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/guardianhq/guardian/riskmodel"
)

// Field names one capped part of the rendered request. Rendered.Truncated lists fields by
// these names, which are also the JSON keys the model sees.
type Field string

// The capped fields. Exec requests use command, cwd, justification and sandbox_reason; MCP
// requests use server, tool, title, tool_description, arguments and message; both use
// findings (each text of each rule finding, and how many findings are shown).
const (
	FieldCommand         Field = "command"
	FieldCwd             Field = "cwd"
	FieldJustification   Field = "justification"
	FieldSandboxReason   Field = "sandbox_reason"
	FieldServer          Field = "server"
	FieldTool            Field = "tool"
	FieldTitle           Field = "title"
	FieldToolDescription Field = "tool_description"
	FieldArguments       Field = "arguments"
	FieldMessage         Field = "message"
	FieldFindings        Field = "findings"
)

// fieldOrder is the order of Rendered.Truncated and of DefaultFieldCaps' documentation.
var fieldOrder = []Field{FieldCommand, FieldCwd, FieldJustification, FieldSandboxReason, FieldServer,
	FieldTool, FieldTitle, FieldToolDescription, FieldArguments, FieldMessage, FieldFindings}

// DefaultFieldCap returns the default cap of a field in bytes, or 0 for an unknown field.
// The caps leave room for what decides a review while bounding the prompt: the command gets
// 4 KiB (its argv words together; a typical command is under 200 bytes), MCP arguments 4 KiB
// of compact JSON, a tool description 2 KiB, the agent's and the server's prose
// (justification, message) and the cwd 1 KiB each, short texts and names less. For findings
// the cap applies to each text of each finding (they repeat the request, so they get little).
// With printable text a worst-case user message stays under 20 KiB, about 5k tokens; caps
// count the bytes of a value, so JSON escapes of control characters can add to that.
func DefaultFieldCap(f Field) int {
	switch f {
	case FieldCommand, FieldArguments:
		return 4096
	case FieldToolDescription:
		return 2048
	case FieldCwd, FieldJustification, FieldMessage:
		return 1024
	case FieldSandboxReason, FieldTitle:
		return 512
	case FieldFindings:
		return 256
	case FieldServer, FieldTool:
		return 256
	}
	return 0
}

// MinFieldCap is the smallest cap WithFieldCap accepts: a head and a tail of 32 bytes each
// are about the least that still shows what a command starts and ends with.
const MinFieldCap = 64

// DefaultMaxFindings is how many rule findings the hints show by default, most severe first:
// the rules' decision rests on the worst few, and the model sees the whole command anyway.
const DefaultMaxFindings = 8

type settings struct {
	caps        map[Field]int
	maxFindings int
	err         error
}

// Option adjusts one Render call.
type Option func(*settings)

// WithFieldCap sets the cap of field f to n bytes of content (the truncation marker comes on
// top). An unknown field or n < MinFieldCap makes Render fail rather than silently ignoring a
// misconfiguration.
func WithFieldCap(f Field, n int) Option {
	return func(s *settings) {
		switch {
		case DefaultFieldCap(f) == 0:
			s.err = errors.Join(s.err, fmt.Errorf("prompts: unknown field %q", f))
		case n < MinFieldCap:
			s.err = errors.Join(s.err, fmt.Errorf("prompts: cap of %s is %d bytes, the minimum is %d", f, n, MinFieldCap))
		default:
			s.caps[f] = n
		}
	}
}

// WithMaxFindings sets how many rule findings the hints show (at least 1); the most severe
// are kept and Truncated lists FieldFindings when some were left out.
func WithMaxFindings(n int) Option {
	return func(s *settings) {
		if n < 1 {
			s.err = errors.Join(s.err, fmt.Errorf("prompts: max findings must be at least 1, got %d", n))
			return
		}
		s.maxFindings = n
	}
}

func (s *settings) cap(f Field) int {
	if n, ok := s.caps[f]; ok {
		return n
	}
	return DefaultFieldCap(f)
}

// Input is what one review renders: the request (its kind and that kind's payload), the
// rules' verdict on it, the operator's policy and, optionally, the fence nonce.
type Input struct {
	// Kind selects the template; exactly the matching payload must be set.
	Kind riskmodel.Kind
	// Exec is the payload of an exec review (a blocked shell command); nil otherwise.
	Exec *riskmodel.ExecRequest
	// MCP is the payload of an mcp review (a tool call or an elicitation); nil otherwise.
	MCP *riskmodel.MCPRequest
	// Rules is the rule reviewer's verdict. Its findings become the hints section: the model
	// sees what the rules found and can agree or explain why not.
	Rules riskmodel.Verdict
	// Policy is the operator's policy text; the zero value keeps the built-in policy.
	Policy Policy
	// Nonce is the fence token. Leave it empty: Render then draws 128 random bits, which is
	// what keeps a request from closing its own fence. Set it only to reproduce a rendering
	// (golden tests, replaying an audit record); it must be 16 to 64 letters or digits.
	Nonce string
}

// Rendered is one review's prompt: the two chat messages and what identifies them.
type Rendered struct {
	// System is the system prompt. It depends only on Template and the policy, so it is the
	// same for every review with the same configuration.
	System string
	// User is the user message: the fenced request and the fenced rule hints.
	User string
	// Template is the template used; Template.ID and Template.Hash go into decided_by and
	// the audit record.
	Template Template
	// PolicyHash identifies the operator's policy ("" for the built-in policy alone); cache
	// keys and audit records need it next to the template.
	PolicyHash string
	// Nonce is the fence token of this rendering, for the audit record.
	Nonce string
	// Truncated lists the fields that were shortened, in a fixed order; empty when nothing
	// was. A review of a truncated request should be logged as such.
	Truncated []Field
}

// Render builds the system prompt and the user message of one review. Every string from the
// request and the findings is redacted (riskmodel.RedactSecrets) and then capped before it is
// JSON-encoded between the fence markers; nothing of the request reaches the system prompt.
// It fails on an unknown kind, a missing or mismatched payload, an invalid policy or nonce,
// a bad option, or MCP arguments that are not JSON — never with a half-built prompt.
func Render(in Input, opts ...Option) (Rendered, error) {
	s := settings{caps: map[Field]int{}, maxFindings: DefaultMaxFindings}
	for _, o := range opts {
		o(&s)
	}
	if s.err != nil {
		return Rendered{}, s.err
	}
	t, err := ForKind(in.Kind)
	if err != nil {
		return Rendered{}, err
	}
	if err := in.Policy.Validate(); err != nil {
		return Rendered{}, fmt.Errorf("prompts: %w", err)
	}
	nonce := in.Nonce
	if nonce == "" {
		nonce = newNonce()
	} else if err := checkNonce(nonce); err != nil {
		return Rendered{}, err
	}

	truncated := map[Field]bool{}
	capField := func(f Field, v string) string {
		v, cut := capString(riskmodel.RedactSecrets(v), s.cap(f))
		if cut {
			truncated[f] = true
		}
		return v
	}
	var payload any
	switch in.Kind {
	case riskmodel.KindExec:
		if in.Exec == nil || in.MCP != nil {
			return Rendered{}, errors.New("prompts: an exec review needs Input.Exec and no Input.MCP")
		}
		payload, err = execPayload(in.Exec, &s, truncated, capField)
	case riskmodel.KindMCP:
		if in.MCP == nil || in.Exec != nil {
			return Rendered{}, errors.New("prompts: an mcp review needs Input.MCP and no Input.Exec")
		}
		payload, err = mcpPayload(in.MCP, &s, truncated, capField)
	}
	if err != nil {
		return Rendered{}, err
	}
	reqJSON, err := encodeData(payload)
	if err != nil {
		return Rendered{}, fmt.Errorf("prompts: encode request: %w", err)
	}
	hintsJSON, err := encodeData(hints(in.Rules.Assessment.Findings, &s, truncated, capField))
	if err != nil {
		return Rendered{}, fmt.Errorf("prompts: encode hints: %w", err)
	}

	var fields []Field
	var names []string
	for _, f := range fieldOrder {
		if truncated[f] {
			fields = append(fields, f)
			names = append(names, string(f))
		}
	}

	var sys, user strings.Builder
	if err := t.tmpl.ExecuteTemplate(&sys, "system", systemData{Mode: string(in.Policy.Mode), Text: strings.TrimSpace(in.Policy.Text), Decision: t.decision}); err != nil {
		return Rendered{}, fmt.Errorf("prompts: %s: system: %w", t.ID, err)
	}
	if err := t.tmpl.ExecuteTemplate(&user, "user", userData{
		Nonce:        nonce,
		RequestBegin: requestBegin(nonce), Request: reqJSON, RequestEnd: requestEnd(nonce),
		HintsBegin: hintsBegin(nonce), Hints: hintsJSON, HintsEnd: hintsEnd(nonce),
		Truncated: strings.Join(names, ", "),
	}); err != nil {
		return Rendered{}, fmt.Errorf("prompts: %s: user: %w", t.ID, err)
	}
	return Rendered{
		System:     sys.String(),
		User:       user.String(),
		Template:   t,
		PolicyHash: in.Policy.Hash(),
		Nonce:      nonce,
		Truncated:  fields,
	}, nil
}

// systemData is what the "system" template sees: only trusted configuration and the embedded
// decision policy.
type systemData struct {
	Mode     string
	Text     string
	Decision string
}

// userData is what the "user" template sees. Request and Hints are already encoded and
// hardened JSON; the markers are built in Go so the template cannot get them wrong.
type userData struct {
	Nonce                       string
	RequestBegin, Request       string
	RequestEnd                  string
	HintsBegin, Hints, HintsEnd string
	Truncated                   string
}

// execData is the fenced form of an exec request; the JSON keys are the Field names.
type execData struct {
	Command       []string `json:"command"`
	Cwd           string   `json:"cwd,omitempty"`
	Justification string   `json:"justification,omitempty"`
	SandboxReason string   `json:"sandbox_reason,omitempty"`
}

func execPayload(r *riskmodel.ExecRequest, s *settings, truncated map[Field]bool, capField func(Field, string) string) (any, error) {
	if len(r.Command) == 0 {
		return nil, errors.New("prompts: exec request has no command")
	}
	argv, cut := capArgv(redactArgv(r.Command), s.cap(FieldCommand))
	if cut {
		truncated[FieldCommand] = true
	}
	return execData{
		Command:       argv,
		Cwd:           capField(FieldCwd, r.Cwd),
		Justification: capField(FieldJustification, r.Justification),
		SandboxReason: capField(FieldSandboxReason, r.SandboxReason),
	}, nil
}

// mcpData is the fenced form of an MCP request; the JSON keys are the Field names (and the
// MCP names of the annotations).
type mcpData struct {
	Server          string          `json:"server,omitempty"`
	Tool            string          `json:"tool"`
	Title           string          `json:"title,omitempty"`
	ToolDescription string          `json:"tool_description,omitempty"`
	Annotations     map[string]bool `json:"annotations,omitempty"`
	Arguments       any             `json:"arguments,omitempty"`
	Message         string          `json:"message,omitempty"`
}

func mcpPayload(r *riskmodel.MCPRequest, s *settings, truncated map[Field]bool, capField func(Field, string) string) (any, error) {
	d := mcpData{
		Server:          capField(FieldServer, r.Server),
		Tool:            capField(FieldTool, r.Tool),
		Title:           capField(FieldTitle, r.Title),
		ToolDescription: capField(FieldToolDescription, r.ToolDescription),
		Message:         capField(FieldMessage, r.Message),
	}
	if a := r.Annotations; a != nil {
		d.Annotations = map[string]bool{}
		for name, p := range map[string]*bool{"readOnlyHint": a.ReadOnlyHint, "destructiveHint": a.DestructiveHint,
			"idempotentHint": a.IdempotentHint, "openWorldHint": a.OpenWorldHint} {
			if p != nil {
				d.Annotations[name] = *p
			}
		}
	}
	args, err := redactArguments(r.Arguments)
	if err != nil {
		return nil, err
	}
	if args != nil {
		raw, err := compactJSON(args)
		if err != nil {
			return nil, fmt.Errorf("prompts: mcp arguments: %w", err)
		}
		if len(raw) > s.cap(FieldArguments) {
			// Too long to show as an object: show the JSON text, head and tail, as a string.
			text, _ := capString(string(raw), s.cap(FieldArguments))
			args = text
			truncated[FieldArguments] = true
		}
		d.Arguments = args
	}
	return d, nil
}

// hint is one rule finding as the model sees it.
type hint struct {
	RuleID   string `json:"rule_id"`
	Level    string `json:"level"`
	Category string `json:"category"`
	Message  string `json:"message"`
	Segment  string `json:"segment,omitempty"`
}

// hints turns the rule findings into the hints section: most severe first (stable, so equal
// levels keep the rules' order), at most s.maxFindings of them, every text redacted and
// capped because findings quote the request.
func hints(fs []riskmodel.Finding, s *settings, truncated map[Field]bool, capField func(Field, string) string) []hint {
	sorted := append([]riskmodel.Finding(nil), fs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Level > sorted[j].Level })
	if len(sorted) > s.maxFindings {
		sorted = sorted[:s.maxFindings]
		truncated[FieldFindings] = true
	}
	out := make([]hint, 0, len(sorted))
	for _, f := range sorted {
		out = append(out, hint{
			RuleID:   capField(FieldFindings, f.RuleID),
			Level:    f.Level.String(),
			Category: capField(FieldFindings, string(f.Category)),
			Message:  capField(FieldFindings, f.Message),
			Segment:  capField(FieldFindings, f.Segment),
		})
	}
	return out
}
