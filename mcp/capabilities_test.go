package mcp

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestUpstreamSeesHostElicitation: the upstream is offered the elicitation capability and
// modes the host declared, nothing more; without knowing the host (WithHostCapabilities not
// given) the proxy declares form and URL mode.
func TestUpstreamSeesHostElicitation(t *testing.T) {
	form := &mcpgo.ElicitationCapability{Form: &struct{}{}}
	for _, tt := range []struct {
		name string
		host *mcpgo.ClientCapabilities
		want string
	}{
		{"host without elicitation", &mcpgo.ClientCapabilities{}, `{}`},
		{"host with form only", &mcpgo.ClientCapabilities{Elicitation: form}, `{"elicitation":{"form":{}}}`},
		{"host with the bare capability", &mcpgo.ClientCapabilities{Elicitation: &mcpgo.ElicitationCapability{}}, `{"elicitation":{}}`},
		{"host unknown", nil, `{"elicitation":{"form":{},"url":{}}}`},
	} {
		for _, kind := range upstreamKinds {
			t.Run(tt.name+"/"+kind.name, func(t *testing.T) {
				d, _ := rulesDecider(t)
				var opts []Option
				if tt.host != nil {
					opts = append(opts, WithHostCapabilities(*tt.host))
				}
				p, err := New(context.Background(), d, []Upstream{kind.spec(t, "fx")}, append(opts, WithStderr(testWriter{t}))...)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = p.Close() })
				c := connectStdio(t, p, legacyHost...)
				if got := text(t, callTool(t, c, "client_capabilities", nil)); !jsonEqual(t, got, tt.want) {
					t.Errorf("the upstream saw %s, want %s", got, tt.want)
				}
			})
		}
	}
}

func TestPeekHost(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     string // the capabilities as JSON, "" for none
	}{
		{"initialize", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"elicitation":{"form":{}},"roots":{}}}}` + "\n", `{"roots":{},"elicitation":{"form":{}}}`},
		{"initialize without capabilities", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}` + "\n", `{}`},
		{"2026-07-28 request", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}}}}}` + "\n", `{"elicitation":{"url":{}}}`},
		{"server/discover", `{"jsonrpc":"2.0","id":1,"method":"server/discover"}` + "\n", ""},
		{"nothing", ``, ""},
		{"not JSON", "garbage\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			caps, rest := PeekHost(strings.NewReader(tt.in + "next\n"))
			got := ""
			if caps != nil {
				got = string(mustJSON(caps))
			}
			if (got == "") != (tt.want == "") || (got != "" && !jsonEqual(t, got, tt.want)) {
				t.Errorf("caps %s, want %s", got, tt.want)
			}
			all, _ := io.ReadAll(rest)
			if !bytes.Equal(all, []byte(tt.in+"next\n")) {
				t.Errorf("rest = %q", all)
			}
		})
	}
}
