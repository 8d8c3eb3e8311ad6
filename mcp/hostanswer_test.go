package mcp

import (
	"context"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/guardianhq/guardian/guardian"
)

// TestGateReportsHostAnswers: what the host answered to an ask goes to WithHostAnswers, with
// guardian's ask; a call guardian decided is not reported.
func TestGateReportsHostAnswers(t *testing.T) {
	type answer struct {
		tool, askedBy string
		accepted      bool
	}
	var (
		mu  sync.Mutex
		got []answer
	)
	d, _ := rulesDecider(t)
	p, err := New(context.Background(), d, []Upstream{gated("fx", "tools -legacy")}, WithStderr(testWriter{t}),
		WithHostAnswers(func(_ context.Context, req guardian.Request, _ guardian.Caller, asked guardian.Result, accepted bool, _ time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, answer{req.MCP.Tool, asked.DecidedBy, accepted})
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	h := &host{}
	c := downstreamKinds[0].connect(t, p, hostOpts(eras[0].opts, h)...)
	h.expect(answerWith(mcpgo.ElicitationResponseActionAccept, nil))
	callTool(t, c, "deploy", map[string]any{"env": "prod"})
	h.expect(answerWith(mcpgo.ElicitationResponseActionDecline, nil))
	callTool(t, c, "deploy", map[string]any{"env": "prod"})
	h.expect(nil)
	callTool(t, c, "echo", map[string]any{"message": "hi"})
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || !got[0].accepted || got[1].accepted || got[0].tool != "deploy" || got[0].askedBy == "" {
		t.Fatalf("host answers reported: %+v", got)
	}
}
