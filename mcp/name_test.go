package mcp

import (
	"strings"
	"testing"

	"github.com/guardianhq/guardian/mcp/fixture"
)

func TestServerName(t *testing.T) {
	for _, tt := range []struct{ info, want string }{
		{"github-mcp-server", "github"},
		{"@modelcontextprotocol/server-github", "github"},
		{"GitHub MCP Server", "github"},
		{"mcp-server-fetch", "fetch"},
		{"mcp-fetch", "fetch"},
		{"server-filesystem", "filesystem"},
		{"secure-filesystem-server", "secure-filesystem"},
		{"Linear", "linear"},
		{"posthog_mcp", "posthog"},
		{"guardian-fixture", "guardian-fixture"},
		{"mcp-server", ""},
		{"server", ""},
		{"MCP", ""},
		{"", ""},
		{"!!!", ""},
	} {
		if got := ServerName(tt.info); got != tt.want {
			t.Errorf("ServerName(%q) = %q, want %q", tt.info, got, tt.want)
		}
	}
}

func TestDefaultName(t *testing.T) {
	for _, tt := range []struct {
		cmd  []string
		url  string
		want string
	}{
		// The README's and docs/mcp.md's own example: the package, not the launcher.
		{[]string{"npx", "-y", "@modelcontextprotocol/server-github"}, "", "github"},
		{[]string{"/usr/local/bin/npx", "--yes", "@modelcontextprotocol/server-github@2025.4.8"}, "", "github"},
		{[]string{"npx", "-p", "@scope/mcp-server-tools", "tools"}, "", "tools"},
		{[]string{"npx", "--registry", "https://r.example", "linear-mcp-server"}, "", "linear"},
		{[]string{"bunx", "@posthog/mcp"}, "", "posthog"},
		{[]string{"pnpm", "dlx", "@notionhq/notion-mcp-server"}, "", "notion"},
		{[]string{"uvx", "mcp-server-fetch"}, "", "fetch"},
		{[]string{"uvx", "--from", "mcp-server-git==0.6", "mcp-server-git", "--repository", "."}, "", "git"},
		{[]string{"uv", "tool", "run", "mcp-server-time"}, "", "time"},
		{[]string{"pipx", "run", "mcp-server-sqlite"}, "", "sqlite"},
		{[]string{"docker", "run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"}, "", "github"},
		{[]string{"docker", "run", "-i", "--rm", "--env=A=b", "-v", "/x:/y", "mcp/filesystem:latest", "/y"}, "", "filesystem"},
		{[]string{"podman", "run", "-i", "mcp/sqlite@sha256:abc"}, "", "sqlite"},
		// Not a launcher, or a launcher that names no package: the program.
		{[]string{"/usr/bin/node", "upstream.mjs"}, "", "node"},
		{[]string{"npx", "-y"}, "", "npx"},
		{[]string{"docker", "ps"}, "", "docker"},
		{[]string{"npx", "-y", "mcp-server"}, "", "npx"},
		{[]string{"/opt/my server!"}, "", "my-server"},
		{nil, "https://mcp.linear.app/mcp", "mcp.linear.app"},
		{nil, "http://[::1]:8080/mcp", "1"},
		{[]string{"/"}, "", "upstream"},
	} {
		if got := DefaultName(tt.cmd, tt.url); got != tt.want {
			t.Errorf("DefaultName(%q, %q) = %q, want %q", tt.cmd, tt.url, got, tt.want)
		}
	}
}

// TestUpstreamNamedByServer: an upstream given without a name is named after its
// serverInfo.name, so a gate decision reads "github", not the program that started it.
func TestUpstreamNamedByServer(t *testing.T) {
	for _, tt := range []struct{ info, want string }{
		{"github-mcp-server", "github"},
		{"mcp-server", "upstream"}, // says nothing: the program's name (here the test binary's) would be next
	} {
		t.Run(tt.info, func(t *testing.T) {
			spec := stdioUpstream("", fixture.KindTools+" "+fixture.FlagName+"="+tt.info)
			spec.Command = append(spec.Command, "-test.run=^$") // any argv: the fixture reads its env
			spec.Gate = true
			p, audit := newProxy(t, spec)
			want := tt.want
			if want == "upstream" {
				want = DefaultName(spec.Command, "")
			}
			if got := p.ups[0].name; got != want {
				t.Fatalf("upstream named %q, want %q", got, want)
			}
			c := connectStdio(t, p, legacyHost...)
			res := callTool(t, c, "delete_repo", map[string]any{"repo": "acme/app"})
			if got := text(t, res); !strings.HasPrefix(got, "guardian denied the call to delete_repo on the MCP server "+want+": ") {
				t.Errorf("gate answered %q", got)
			}
			if e := audit.all(); len(e) != 1 || e[0].Request.MCP.Server != want {
				t.Errorf("audit: %+v", e)
			}
		})
	}
}
