// Package mcp is guardian's MCP proxy: it stands between an agent host (Codex, Claude Code,
// any MCP client) and one or more upstream MCP servers, forwards tools, resources, prompts and
// their notifications, and reviews what the upstream servers ask the human to approve.
//
// Three things are reviewed, each through the same guardian.Decider (pipeline, audit log,
// metrics) as every other entry point:
//
//   - elicitations that opt in to review with Codex's approval _meta
//     (codex_request_type "approval_request", codex_approval_kind "mcp_tool_call"): allow and
//     deny are answered to the upstream without asking the host; ask forwards the elicitation
//     to the host, annotated with guardian's assessment;
//   - Codex's own exec-approval elicitations (Codex running as an MCP server), answered in
//     Codex's reply shape {"decision": "approved" | "denied" | "abort"};
//   - with the tool-call gate on, every tools/call before it is forwarded.
//
// Everything else passes through untouched. The proxy speaks both protocol eras of mcp-go on
// both sides: a downstream host on 2025-11-25 or earlier gets server-initiated
// elicitation/create requests, one on 2026-07-28 gets input_required results (multi
// round-trip), and upstreams are reached over stdio (a subprocess) or streamable HTTP.
//
// docs/mcp.md describes how to put the proxy in front of a server, what each decision sends
// back, and how an elicitation is routed to the downstream call it belongs to.
package mcp
