package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/guardianhq/guardian/mcp/fixture"
)

// TestStdioAnswersEveryLine: whatever a stdio host sends gets an answer it can correlate, per
// JSON-RPC 2.0, and the session goes on: a host never waits for a reply that will not come.
func TestStdioAnswersEveryLine(t *testing.T) {
	p, _ := newProxy(t, stdioUpstream("fx", fixture.KindTools+" "+fixture.FlagLegacy))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- p.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	t.Cleanup(func() { inW.Close(); <-done })
	out := bufio.NewReader(outR)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	read := func() string {
		t.Helper()
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		return line
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	read()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	const batchMsg = "Invalid Request: JSON-RPC batches are not supported (MCP removed them in protocol 2025-06-18); send each message on its own line"
	for _, tt := range []struct {
		name, send string
		want       string // the answer, as JSON
	}{
		{"not JSON", `garbage`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not JSON (one JSON-RPC message per line)"}}`},
		{"truncated", `{"jsonrpc":"2.0","id":7,"method":"ping"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not JSON (one JSON-RPC message per line)"}}`},
		{"batch", `[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/progress"},{"jsonrpc":"2.0","id":"x","method":"tools/list"},42]`,
			`[{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"` + batchMsg + `"}},` +
				`{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"` + batchMsg + `"}},` +
				`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object"}}]`},
		{"empty batch", `[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an empty batch"}}`},
		{"a number", `42`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object"}}`},
		{"no method", `{"jsonrpc":"2.0","id":4}`, `{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request: a request needs a method"}}`},
		{"no jsonrpc", `{"id":5,"method":"ping"}`, `{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request: jsonrpc must be \"2.0\""}}`},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: id must be a string or a number, not {\"a\":1}"}}`},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: id must be a string or a number, not null"}}`},
		{"method not a string", `{"jsonrpc":"2.0","id":"m","method":3}`, `{"jsonrpc":"2.0","id":"m","error":{"code":-32600,"message":"Invalid Request: method must be a non-empty string"}}`},
		{"a valid request after all that", `{"jsonrpc":"2.0","id":6,"method":"ping"}`, `{"jsonrpc":"2.0","id":6,"result":{}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			send("")                                                      // blank lines are skipped, not answered
			send(`[{"jsonrpc":"2.0","method":"notifications/progress"}]`) // a batch of notifications has no answer
			send(tt.send)
			if got := read(); !jsonEqual(t, got, tt.want) {
				t.Errorf("sent %s\ngot  %s\nwant %s", tt.send, got, tt.want)
			}
		})
	}
}

// FuzzCheckFrame: every line either passes to mcp-go as a valid message or is answered with
// a JSON-RPC error response (or a batch of them), and nothing panics.
func FuzzCheckFrame(f *testing.F) {
	for _, s := range []string{``, `garbage`, `[]`, `[1,{"jsonrpc":"2.0","id":1,"method":"x"}]`, `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}`, `"x"`, `{"id":true}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		reply, pass := checkFrame(line)
		if pass {
			if reply != nil {
				t.Fatalf("passed and answered %q", line)
			}
			if _, err := checkMessage(line); err != nil {
				t.Fatalf("passed an invalid message %q: %v", line, err)
			}
			return
		}
		if reply == nil {
			return
		}
		var one map[string]json.RawMessage
		var many []map[string]json.RawMessage
		if json.Unmarshal(reply, &one) != nil && json.Unmarshal(reply, &many) != nil {
			t.Fatalf("answer %q is not a response", reply)
		}
	})
}
