// Package interop_test checks guardian mcp-proxy against MCP code it shares nothing with: a
// host and an upstream on the official TypeScript SDK and @modelcontextprotocol/server-everything
// (the Node project in ../testdata/interop). It runs with GUARDIAN_INTEROP=1 (make interop).
package interop_test
