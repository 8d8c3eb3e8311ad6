package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/guardianhq/guardian/mcp/fixture"
)

// TestMCPProxyExampleGitHubRule runs the README's own setup — `guardian mcp-proxy --gate --
// npx -y @modelcontextprotocol/server-github` under guardian.example.toml — with a stand-in
// for npx, and checks that the example config's github/delete_* rule is what denies
// delete_repo: the upstream is named "github" (after the server's own name, or else the
// package npx runs), never "npx".
func TestMCPProxyExampleGitHubRule(t *testing.T) {
	example, err := filepath.Abs(filepath.Join("..", "..", "guardian.example.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, serverInfo string }{
		{"named by serverInfo", "github-mcp-server"}, // what server-github reports
		{"named by the npx package", "mcp-server"},   // a server whose own name says nothing
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			bin := filepath.Join(dir, "bin")
			if err := os.Mkdir(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			npx := "#!/bin/sh\nexec mcp-fixture " + fixture.KindTools + " " + fixture.FlagLegacy + " " + fixture.FlagName + "=" + tt.serverInfo + "\n"
			if err := os.WriteFile(filepath.Join(bin, "npx"), []byte(npx), 0o755); err != nil {
				t.Fatal(err)
			}
			env := proxyEnv(t, dir)
			for i, kv := range env {
				if strings.HasPrefix(kv, "PATH=") {
					env[i] = "PATH=" + bin + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
				}
			}
			c := startStdio(t, dir, env,
				[]string{"guardian", "mcp-proxy", "--config", example, "--gate", "--", "npx", "-y", "@modelcontextprotocol/server-github"},
				client.WithProtocolVersion(mcpgo.ProtocolVersion20251125))
			res := call(t, c, "delete_repo", map[string]any{"repo": "acme/app"})
			got := resultText(t, res)
			if !res.IsError || !strings.HasPrefix(got, "guardian denied the call to delete_repo on the MCP server github: Calls github tool delete_repo") ||
				!strings.Contains(got, "user:github-delete") {
				t.Errorf("delete_repo = %q", got)
			}
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			recs := auditRecords(t, dir)
			if len(recs) != 1 {
				t.Fatalf("%d audit records, want 1", len(recs))
			}
			var req struct{ Server, Tool string }
			if err := json.Unmarshal(recs[0].Request, &req); err != nil || req.Server != "github" {
				t.Errorf("audited request %s (%v), want server github", recs[0].Request, err)
			}
			b, _ := os.ReadFile(filepath.Join(dir, "audit.jsonl"))
			if !strings.Contains(string(b), `"user:github-delete"`) {
				t.Errorf("the audit record does not name user:github-delete: %s", b)
			}
		})
	}
}
