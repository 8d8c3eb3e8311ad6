// Package guardian is the review pipeline: request and result types, the policy config, the
// pipeline that runs the rule reviewer and then an optional second reviewer (the model), and
// the fail-safe mapping of every outcome to allow, ask or deny.
package guardian

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/guardianhq/guardian/guardian/strictjson"
	"github.com/guardianhq/guardian/riskmodel"
)

// MaxRequestBytes is the largest request guardian reviews: a bigger one is refused, never
// truncated, because a cut-off command could hide its dangerous tail.
const MaxRequestBytes = 256 << 10

// ErrTooLarge is returned (wrapped) for a request over MaxRequestBytes.
var ErrTooLarge = errors.New("request too large")

// Request is one approval request: its kind and the kind's payload. Its JSON form is
// {"kind":"exec"|"mcp","request":{…}}, the request object exactly as in docs/formats.md
// ("The request envelope").
type Request struct {
	Kind riskmodel.Kind
	Exec *riskmodel.ExecRequest
	MCP  *riskmodel.MCPRequest
}

// ExecRequest wraps an exec payload as a Request.
func ExecRequest(r riskmodel.ExecRequest) Request { return Request{Kind: riskmodel.KindExec, Exec: &r} }

// MCPRequest wraps an MCP payload as a Request.
func MCPRequest(r riskmodel.MCPRequest) Request { return Request{Kind: riskmodel.KindMCP, MCP: &r} }

type requestWire struct {
	Kind    riskmodel.Kind  `json:"kind"`
	Request json.RawMessage `json:"request"`
}

// MarshalJSON writes the {"kind","request"} envelope.
func (r Request) MarshalJSON() ([]byte, error) {
	var payload any
	switch r.Kind {
	case riskmodel.KindExec:
		payload = r.Exec
	case riskmodel.KindMCP:
		payload = r.MCP
	default:
		return nil, fmt.Errorf("marshal request: unknown kind %q", r.Kind)
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	return json.Marshal(requestWire{Kind: r.Kind, Request: raw})
}

// UnmarshalJSON reads the envelope strictly: unknown keys at any level are errors, so a typo
// in a field name cannot silently drop, say, the cwd. Errors name the line and column in b.
func (r *Request) UnmarshalJSON(b []byte) error {
	req, err := decodeEnvelope(b)
	if err != nil {
		return LocateJSONError(b, err)
	}
	*r = req
	return nil
}

// decodeEnvelope decodes {"kind","request"} from b; an error may carry its offset in b
// (LocateJSONError writes it).
func decodeEnvelope(b []byte) (Request, error) {
	var w requestWire
	if err := decodeStrict(b, &w); err != nil {
		return Request{}, err
	}
	if w.Kind == "" {
		return Request{}, errors.New(`missing "kind" (want "exec" or "mcp")`)
	}
	if len(w.Request) == 0 || string(w.Request) == "null" {
		return Request{}, errors.New(`missing "request" object`)
	}
	req, err := DecodePayload(w.Kind, w.Request)
	if err != nil {
		return Request{}, shift(err, payloadOffset(b))
	}
	return req, nil
}

// payloadOffset is where the value of the envelope's "request" key starts in b (which
// decodeStrict accepted, so the key is there once).
func payloadOffset(b []byte) int64 {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return 0
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return 0
		}
		if tok == "request" {
			off := dec.InputOffset()
			for off < int64(len(b)) && strings.IndexByte(" \t\r\n:", b[off]) >= 0 {
				off++
			}
			return off
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return 0
		}
	}
	return 0
}

// DecodePayload decodes the "request" object of the given kind strictly and validates it.
// Its errors say what is wrong without a position: raw is part of a larger input.
func DecodePayload(kind riskmodel.Kind, raw []byte) (Request, error) {
	switch kind {
	case riskmodel.KindExec:
		var e riskmodel.ExecRequest
		if err := decodeStrict(raw, &e); err != nil {
			return Request{}, fmt.Errorf("exec request: %w", err)
		}
		r := ExecRequest(e)
		return r, r.Validate()
	case riskmodel.KindMCP:
		var m riskmodel.MCPRequest
		if err := decodeStrict(raw, &m); err != nil {
			return Request{}, fmt.Errorf("mcp request: %w", err)
		}
		r := MCPRequest(m)
		return r, r.Validate()
	}
	return Request{}, fmt.Errorf("unknown request kind %q (want exec or mcp)", kind)
}

// Validate checks the fields every reviewer relies on.
func (r Request) Validate() error {
	switch r.Kind {
	case riskmodel.KindExec:
		if r.Exec == nil || len(r.Exec.Command) == 0 {
			return errors.New(`exec request: "command" must be a non-empty argv array, e.g. ["git","status"]`)
		}
		if strings.TrimSpace(strings.Join(r.Exec.Command, "")) == "" {
			return errors.New(`exec request: "command" has only empty words`)
		}
	case riskmodel.KindMCP:
		if r.MCP == nil || r.MCP.Tool == "" {
			return errors.New(`mcp request: "tool" must be set`)
		}
		for i, w := range r.MCP.Workspace {
			// A relative or empty directory has nothing to be resolved against: refuse it
			// rather than review the call against a workspace other than the one meant.
			// ("/" and the home directory are well-formed; the analysis ignores them.)
			if !absDir(w) || strings.ContainsAny(w, "\x00\n\r") {
				return fmt.Errorf(`mcp request: "workspace"[%d] %q must be an absolute directory, e.g. "/home/dev/proj" or "C:\\Users\\dev\\proj"`, i, w)
			}
		}
	default:
		return fmt.Errorf("unknown request kind %q (want exec or mcp)", r.Kind)
	}
	if n := r.size(); n > MaxRequestBytes {
		return fmt.Errorf("%w: %d bytes, the limit is %d bytes (256 KiB); send a shorter command or split it", ErrTooLarge, n, MaxRequestBytes)
	}
	return nil
}

// absDir reports an absolute directory: a POSIX path, or a Windows one with a drive letter
// (C:\Users\dev\proj, D:/work) as a host on Windows sends its roots.
func absDir(w string) bool {
	if strings.HasPrefix(w, "/") {
		return true
	}
	return len(w) >= 3 && (w[0]|0x20 >= 'a' && w[0]|0x20 <= 'z') && w[1] == ':' && (w[2] == '\\' || w[2] == '/')
}

// size is the length of the payload's JSON encoding: what a client would have to send.
func (r Request) size() int {
	var v any = r.Exec
	if r.Kind == riskmodel.KindMCP {
		v = r.MCP
	}
	b, err := json.Marshal(v)
	if err != nil {
		return MaxRequestBytes + 1 // unmarshalable arguments: refuse rather than guess
	}
	return len(b)
}

// ReadRequest reads one JSON request envelope from rd, refusing input over MaxRequestBytes
// (plus room for the envelope) before decoding it.
func ReadRequest(rd io.Reader) (Request, error) {
	const limit = MaxRequestBytes + 4096
	b, err := io.ReadAll(io.LimitReader(rd, limit+1))
	if err != nil {
		return Request{}, fmt.Errorf("read request: %w", err)
	}
	if len(b) > limit {
		return Request{}, fmt.Errorf("%w: input exceeds the limit of %d bytes (256 KiB request + envelope)", ErrTooLarge, limit)
	}
	r, err := decodeEnvelope(b)
	if err != nil {
		return Request{}, fmt.Errorf("decode request: %w", LocateJSONError(b, err))
	}
	return r, nil
}

// decodeStrict decodes b into v refusing unknown keys, repeated keys and keys that match a
// field only by case (strictjson): encoding/json alone would read {"kind":"mcp","kind":"exec"}
// as exec and {"command":[…],"Command":["ls"]} as ls, while the client meant something else.
// A syntax error, a wrongly typed value and an unknown key carry their offset in b.
func decodeStrict(b []byte, v any) error {
	if err := strictjson.Check(b, v); err != nil {
		return positioned(b, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return positioned(b, err)
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}
