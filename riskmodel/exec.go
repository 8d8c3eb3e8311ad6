package riskmodel

import "context"

type execCtx struct {
	scope *Scope
	req   *ExecRequest
	segs  []*Segment
}

func (r UserRule) validate() error { return nil }

func (a *Analyzer) execVerdict(ctx context.Context, req ExecRequest) Verdict {
	return a.finish(KindExec, nil, "")
}
