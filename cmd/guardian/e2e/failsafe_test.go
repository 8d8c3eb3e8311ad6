package e2e

import (
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// faultScenario breaks guardian one way while it is a host's hook. The call is benign — a
// working guardian allows it — so only the fail-safe reply stands between it and its marker.
type faultScenario struct {
	name string
	// setup breaks the world and says how to install and run guardian in it.
	setup func(t *testing.T, s suite, h host, w world) faultSetup
	// reason is a piece of the fail-safe text Claude Code reports to the model.
	reason string
	// audited says the fail-safe answer must be in the audit log (status failsafe): every
	// fault but those where the payload itself is what broke (a broken config's answer goes
	// to the default log, which is the one these worlds use).
	audited bool
}

// faultSetup is how a fault scenario installs and runs guardian.
type faultSetup struct {
	bin   string             // the guardian binary to install as the hook
	args  []string           // extra arguments for guardian hook install
	env   []string           // extra host environment, which the hook inherits
	after func(t *testing.T) // a check after the host ran, or nil
}

// faultScenarios are the ways guardian can break as a hook that the hosts must survive
// without running the call: the failures docs/hooks.md lists under "Failing safe".
func faultScenarios() []faultScenario {
	return []faultScenario{
		{"panic", func(t *testing.T, s suite, h host, w world) faultSetup {
			// guardian-faults panics as the hook starts to decide (fault.go).
			return faultSetup{bin: s.faults, env: []string{"GUARDIAN_FAULT=decide"}}
		}, "internal error (panic)", true},
		{"bad-config", func(t *testing.T, s suite, h host, w world) faultSetup {
			writeFile(t, filepath.Join(w.home, ".config", "guardian", "config.toml"), "[review]\ndeadline = \"4 seconds\"\n")
			return faultSetup{bin: s.guardian}
		}, "config.toml", true},
		{"unreadable-stdin", func(t *testing.T, s suite, h host, w world) faultSetup {
			// The hook's stdin is a directory: every read fails.
			cmd := fmt.Sprintf("%s hook %s --deadline 10s < /", s.guardian, h.Name())
			return faultSetup{bin: s.guardian, args: []string{"--command", cmd}}
		}, "read the hook payload from stdin", false},
		{"reviewer-deadline", func(t *testing.T, s suite, h host, w world) faultSetup {
			// The rules leave every medium request to the model, which never answers; the
			// hook's deadline (2 s, from --timeout 7) passes long before the review's.
			m := newStallingModel(t)
			writeFile(t, filepath.Join(w.home, ".config", "guardian", "config.toml"), fmt.Sprintf(
				"[model]\nbase_url = %q\nmodel = \"stalling-model\"\n\n[review]\ndeadline = \"30s\"\n\n[mapping.exec]\nmedium_contained = \"ask\"\n", m.URL()))
			return faultSetup{bin: s.guardian, args: []string{"--timeout", "7"}, env: []string{"GUARDIAN_API_KEY=dummy"},
				after: func(t *testing.T) {
					if m.Requests() == 0 {
						t.Errorf("the review never reached the stalling model: the scenario did not test the deadline")
					}
				}}
		}, "no decision within the hook deadline of 2s", true},
		{"serve-down", func(t *testing.T, s suite, h host, w world) faultSetup {
			return faultSetup{bin: s.guardian, env: []string{"GUARDIAN_URL=http://" + closedPort(t)}}
		}, "guardian serve is unreachable", true},
	}
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestFailSafe breaks guardian in each way on each real host: the call must not run, and
// the host must have had guardian's fail-safe reply — Claude Code an ask (a deny in -p mode)
// or a block, with guardian's reason; Codex no verdict, so its own reviewer decided.
func TestFailSafe(t *testing.T) {
	s := need(t)
	for _, h := range hostsOf(s) {
		t.Run(h.Name(), func(t *testing.T) {
			for _, sc := range faultScenarios() {
				t.Run(sc.name, func(t *testing.T) {
					w := preparedWorld(t, h)
					f := sc.setup(t, s, h, w)
					install(t, h, w, f.bin, f.args...)
					r := h.Run(t, w, h.Shell(fmt.Sprintf("touch %s && ls", w.mark("ran"))), runOpts{Permissive: true, Env: f.env})
					got := classify(h, r, w.marked("ran"))
					t.Logf("%s %s: %s in %s; the model was told: %s", h.Name(), sc.name, got, r.took, abbrev(r.Result.Text, 400))
					want := guardianDenied
					if h.Name() == "codex" {
						want = noVerdict
					}
					if got != want {
						t.Fatalf("outcome %q, want %q\n%s", got, want, r.describe())
					}
					if h.Name() == "codex" && r.Hook != "Completed" {
						t.Errorf("Codex reports its hook as %q, want Completed (no verdict, given by the hook itself before Codex's timeout)", r.Hook)
					}
					if h.Name() == "claude" && !strings.Contains(r.Result.Text, sc.reason) {
						t.Errorf("the model was not told why guardian could not review (want %q in it):\n%s", sc.reason, r.describe())
					}
					if f.after != nil {
						f.after(t)
					}
					if sc.audited {
						recs := w.audited(t)
						if len(recs) != 1 || recs[0].Status != guardian.StatusFailsafe || recs[0].Decision != riskmodel.Ask {
							t.Errorf("audit log holds %d record(s) %+v, want the one fail-safe ask the host was given", len(recs), recs)
						}
					}
				})
			}
		})
	}
}

// TestClaudeFailSafeEveryMode checks that Claude Code honours guardian's fail-safe "ask" in
// every permission mode, bypassPermissions included: were one mode to run the tool on a
// hook's ask, every fail-safe reply would fail open there.
func TestClaudeFailSafeEveryMode(t *testing.T) {
	s := need(t)
	h := claudeHost{bin: s.claude}
	for _, mode := range []string{"default", "acceptEdits", "dontAsk", "bypassPermissions", "auto", "plan"} {
		t.Run(mode, func(t *testing.T) {
			w := preparedWorld(t, h)
			install(t, h, w, s.faults)
			// IS_SANDBOX lets root use bypassPermissions.
			r := h.Run(t, w, h.Shell(fmt.Sprintf("touch %s && ls", w.mark("ran"))),
				runOpts{Permissive: true, Env: []string{"GUARDIAN_FAULT=decide", "IS_SANDBOX=1"}, Args: []string{"--permission-mode", mode}})
			got := classify(h, r, w.marked("ran"))
			t.Logf("--permission-mode %s: %s", mode, got)
			if got != guardianDenied || !strings.Contains(r.Result.Text, "guardian could not review") {
				t.Fatalf("outcome %q, want guardian's fail-safe ask to stop the call\n%s", got, r.describe())
			}
		})
	}
}

// runFaults breaks guardian in each way of faultScenarios while it is h's hook, on a benign
// call that a working guardian allows: the call must not run, and the model must be told
// guardian's fail-safe reason.
func runFaults(t *testing.T, s suite, h host) {
	for _, sc := range faultScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			w := preparedWorld(t, h)
			f := sc.setup(t, s, h, w)
			install(t, h, w, f.bin, f.args...)
			r := h.Run(t, w, h.Shell(fmt.Sprintf("touch %s && ls", w.mark("ran"))), runOpts{Permissive: true, Env: f.env})
			got, want := classify(h, r, w.marked("ran")), expected(h, guardianDenied)
			t.Logf("%s %s: %s in %s; the model was told: %s", h.Name(), sc.name, got, r.took, abbrev(r.Result.Text, 400))
			if got != want {
				t.Fatalf("outcome %q, want %q\n%s", got, want, r.describe())
			}
			if want == guardianDenied && !strings.Contains(r.Result.Text, sc.reason) {
				t.Errorf("the model was not told why guardian could not review (want %q in it):\n%s", sc.reason, r.describe())
			}
			if f.after != nil {
				f.after(t)
			}
			if sc.audited {
				recs := w.audited(t)
				if len(recs) != 1 || recs[0].Status != guardian.StatusFailsafe {
					t.Errorf("audit log holds %d record(s) %+v, want the one fail-safe answer the host was given", len(recs), recs)
				}
			}
		})
	}
}
