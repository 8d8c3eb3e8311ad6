package e2e

import (
	"fmt"
	"testing"

	"github.com/guardianhq/guardian/riskmodel"
)

// TestMonitor installs guardian in monitor mode on the real hosts and runs a command guardian
// denies: the host's own permissions decide (here they let it run: Claude Code with
// --allowedTools, Gemini in yolo mode), and the audit log holds guardian's deny, marked as
// not enforced.
func TestMonitor(t *testing.T) {
	s := need(t)
	for _, h := range []host{claudeHost{bin: s.claude}, geminiHost{script: s.gemini}} {
		t.Run(h.Name(), func(t *testing.T) {
			w := preparedWorld(t, h)
			install(t, h, w, s.guardian, "--monitor")
			r := h.Run(t, w, h.Shell(fmt.Sprintf("touch %s && git push --force origin main", w.mark("push"))), runOpts{Permissive: true})
			got := classify(h, r, w.marked("push"))
			t.Logf("%s monitor: %s in %s", h.Name(), got, r.took)
			if got != ran {
				t.Fatalf("outcome %q, want the host to decide (and run it)\n%s", got, r.describe())
			}
			recs := w.audited(t)
			if len(recs) != 1 || recs[0].Decision != riskmodel.Deny || !recs[0].Caller.Monitor || recs[0].Caller.Host != h.Name() {
				t.Fatalf("audit log %+v, want guardian's deny marked monitor", recs)
			}
		})
	}
}
