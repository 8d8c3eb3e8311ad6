package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// A stdio host waits for the answer to each request it sends; a message it cannot get one
// for hangs it. mcp-go's stdio server drops what it cannot read as a request (a JSON-RPC
// batch gets one parse error with no id, a request without a method "method not found", an
// object id is echoed), so the proxy checks each line from the host against JSON-RPC 2.0
// first and answers what is not a message MCP accepts itself:
//
//   - not JSON: -32700 (parse error) with id null;
//   - a batch (MCP removed batching in protocol 2025-06-18): -32600 (invalid request) for
//     each request in it, under the request's own id, in one batch response; its
//     notifications and responses are dropped; an empty batch is one -32600 with id null;
//   - JSON that is not a request, notification or response (not an object, jsonrpc not
//     "2.0", no method, a method that is not a string, an id that is not a string or a
//     number): -32600, under the id when it is one, else null.
//
// Blank lines are skipped.

// checkFrame checks one line from the host. pass is true when the line is a message for
// mcp-go's server; otherwise reply, when not nil, is the line to answer it with.
func checkFrame(line []byte) (reply []byte, pass bool) {
	line = bytes.TrimSpace(line)
	switch {
	case len(line) == 0:
		return nil, false
	case !json.Valid(line):
		return errorLine(nil, mcpgo.PARSE_ERROR, "Parse error: the message is not JSON (one JSON-RPC message per line)"), false
	case line[0] == '[':
		return batchReply(line), false
	}
	id, err := checkMessage(line)
	if err == nil {
		return nil, true
	}
	return errorLine(id, mcpgo.INVALID_REQUEST, "Invalid Request: "+err.Error()), false
}

// batchMessage is the error answering every request of a batch.
const batchMessage = "Invalid Request: JSON-RPC batches are not supported (MCP removed them in protocol 2025-06-18); send each message on its own line"

// batchReply answers a batch: an error for each request in it, nil when it holds none.
func batchReply(line []byte) []byte {
	var elems []json.RawMessage
	if json.Unmarshal(line, &elems) != nil || len(elems) == 0 {
		return errorLine(nil, mcpgo.INVALID_REQUEST, "Invalid Request: an empty batch")
	}
	var out []json.RawMessage
	for _, e := range elems {
		id, err := checkMessage(e)
		var m struct {
			Method json.RawMessage `json:"method"`
		}
		_ = json.Unmarshal(e, &m)
		switch {
		case err != nil:
			out = append(out, bytes.TrimSuffix(errorLine(id, mcpgo.INVALID_REQUEST, "Invalid Request: "+err.Error()), []byte("\n")))
		case id != nil && len(m.Method) > 0:
			out = append(out, bytes.TrimSuffix(errorLine(id, mcpgo.INVALID_REQUEST, batchMessage), []byte("\n")))
		}
	}
	if len(out) == 0 {
		return nil
	}
	b, _ := json.Marshal(out)
	return append(b, '\n')
}

// checkMessage checks that msg is a JSON-RPC 2.0 request, notification or response as MCP
// allows them, and returns its id when it has a valid one (even when the message is
// invalid, so the error can be correlated).
func checkMessage(msg []byte) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if bytes.TrimSpace(msg)[0] != '{' || json.Unmarshal(msg, &m) != nil {
		return nil, fmt.Errorf("a message must be a JSON object")
	}
	rawID, hasID := m["id"]
	var id json.RawMessage
	if hasID {
		switch v := bytes.TrimSpace(rawID); {
		case len(v) > 0 && (v[0] == '"' || v[0] == '-' || (v[0] >= '0' && v[0] <= '9')):
			id = v
		case !isResponse(m):
			return nil, fmt.Errorf("id must be a string or a number, not %s", v)
		}
	}
	if string(bytes.TrimSpace(m["jsonrpc"])) != `"2.0"` {
		return id, fmt.Errorf(`jsonrpc must be "2.0"`)
	}
	method, hasMethod := m["method"]
	switch {
	case hasMethod:
		var s string
		if json.Unmarshal(method, &s) != nil || s == "" {
			return id, fmt.Errorf("method must be a non-empty string")
		}
	case isResponse(m):
	default:
		return id, fmt.Errorf("a request needs a method")
	}
	return id, nil
}

func isResponse(m map[string]json.RawMessage) bool {
	_, res := m["result"]
	_, err := m["error"]
	return res || err
}

// errorLine is a JSON-RPC error response line; a nil id is written as null.
func errorLine(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	return append(b, '\n')
}
