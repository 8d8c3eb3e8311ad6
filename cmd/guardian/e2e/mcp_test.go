package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// mcpServer is an MCP server a host starts (stdio transport): how each host is told about one
// is the host's business (claudeHost.mcpArgs, codexHost.mcpArgs). A scenario that puts a proxy
// in front of a server only changes Command and Args.
type mcpServer struct {
	Name    string
	Command string
	Args    []string
	Env     map[string]string
}

// touchServer is the suite's own MCP server: this test binary re-executed in the MCP role,
// offering one tool, touch, which creates the file at its "path" argument — a marker.
func (s suite) touchServer(name string) mcpServer {
	return mcpServer{Name: name, Command: s.self, Env: map[string]string{envRole: roleMCP}}
}

// rpcMessage is a JSON-RPC 2.0 request or notification.
type rpcMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// serveMCP is a minimal MCP server over newline-delimited JSON-RPC on r and w: initialize,
// tools/list with the touch tool, tools/call, ping. It returns the process exit status when
// the host closes its stdin.
func serveMCP(r io.Reader, w io.Writer) int {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	enc := json.NewEncoder(w)
	reply := func(id json.RawMessage, result any) {
		_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	}
	for sc.Scan() {
		var m rpcMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			fmt.Fprintf(os.Stderr, "mcp server: bad message: %v\n", err)
			continue
		}
		if len(m.ID) == 0 {
			continue // a notification (notifications/initialized, cancellations)
		}
		switch m.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(m.Params, &p)
			if p.ProtocolVersion == "" {
				p.ProtocolVersion = "2025-06-18"
			}
			reply(m.ID, map[string]any{
				"protocolVersion": p.ProtocolVersion,
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "guardian-e2e", "version": "1.0.0"},
			})
		case "tools/list":
			reply(m.ID, map[string]any{"tools": []any{map[string]any{
				"name":        "touch",
				"description": "Create an empty file at path.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}, "required": []string{"path"}},
			}}})
		case "tools/call":
			var p struct {
				Name      string `json:"name"`
				Arguments struct {
					Path string `json:"path"`
				} `json:"arguments"`
			}
			_ = json.Unmarshal(m.Params, &p)
			text, isErr := "touched "+p.Arguments.Path, false
			if err := os.WriteFile(p.Arguments.Path, nil, 0o600); err != nil || p.Name != "touch" {
				text, isErr = fmt.Sprintf("touch %q failed: %v", p.Arguments.Path, err), true
			}
			reply(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": isErr})
		case "ping":
			reply(m.ID, map[string]any{})
		default:
			_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "method not found: " + m.Method}})
		}
	}
	return 0
}
