package guardian

import (
	"slices"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestMCPProtocolVersions fails when mcp-go, upgraded, knows other protocol versions than the
// copy that [[mcp.upstream]] protocol is checked against: update mcpProtocolVersions.
func TestMCPProtocolVersions(t *testing.T) {
	if !slices.Equal(mcpProtocolVersions, mcpgo.ValidProtocolVersions) {
		t.Errorf("mcpProtocolVersions = %q, mcp-go's ValidProtocolVersions = %q: copy mcp-go's list into config_mcp.go", mcpProtocolVersions, mcpgo.ValidProtocolVersions)
	}
}
