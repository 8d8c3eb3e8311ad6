package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// PeekHost reads the first message a stdio host sends and returns the capabilities it
// declares — in initialize, or in the _meta of a 2026-07-28 request — for
// WithHostCapabilities, so that the upstreams, connected before the host is served, are
// offered what the host can do. caps is nil when the first message says nothing about them
// (a 2026-07-28 host's server/discover, or no message at all). rest yields everything r does,
// from the first byte: serve the host from it.
func PeekHost(r io.Reader) (caps *mcpgo.ClientCapabilities, rest io.Reader) {
	br := bufio.NewReader(r)
	line, _ := br.ReadBytes('\n')
	rest = io.MultiReader(bytes.NewReader(line), br)
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Capabilities *mcpgo.ClientCapabilities  `json:"capabilities"`
			Meta         map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil {
		return nil, rest
	}
	if msg.Method == string(mcpgo.MethodInitialize) {
		if msg.Params.Capabilities == nil {
			return &mcpgo.ClientCapabilities{}, rest
		}
		return msg.Params.Capabilities, rest
	}
	if raw, ok := msg.Params.Meta[mcpgo.MetaKeyClientCapabilities]; ok {
		var c mcpgo.ClientCapabilities
		if json.Unmarshal(raw, &c) == nil {
			return &c, rest
		}
	}
	return nil, rest
}
