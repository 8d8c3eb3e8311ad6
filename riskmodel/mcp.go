package riskmodel

import "context"

type mcpCtx struct {
	req   *MCPRequest
	scope *Scope
}

func mcpRules() []*Rule { return nil }

func (a *Analyzer) mcpVerdict(ctx context.Context, req MCPRequest) Verdict {
	return a.finish(KindMCP, nil, "")
}
