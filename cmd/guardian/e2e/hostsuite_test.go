package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// runCommandTable runs the command scenarios on h with guardian installed by its installer
// (runGuarded, which checks each outcome), timed once more through timedHookCommand, and with
// no hook (unguarded, which checks the host's own outcome), rounds times each, and logs the
// timing table. It is the commands half of every host's test. Hosts whose runs take many
// seconds (OpenCode, Cline) run one round, to keep make e2e within its budget.
func runCommandTable(t *testing.T, s suite, h host, rounds int, unguarded func(*testing.T, host, commandScenario) hostRun) {
	t.Helper()
	tab := timingTable{host: h.Name(), rounds: rounds}
	for _, sc := range commandScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			row := timing{scenario: sc.name, outcome: expected(h, sc.want)}
			for range rounds {
				r, review, _ := runGuarded(t, s, h, sc, false)
				row.with, row.review = append(row.with, r.took), append(row.review, review)
				_, _, hookTook := runGuarded(t, s, h, sc, true)
				row.hook = append(row.hook, hookTook)
				row.without = append(row.without, unguarded(t, h, sc).took)
			}
			tab.rows = append(tab.rows, row)
		})
	}
	tab.log(t)
}

// taskStopper is a host whose hook cannot refuse one call, only stop the whole task (Cline's
// cancel): guardian's deny shows there as taskStopped, and the model is told nothing.
type taskStopper interface{ StopsTask() }

// expected is the outcome a scenario wanting want has on h: on a task-stopping host guardian's
// deny stops the task.
func expected(h host, want outcome) outcome {
	if _, ok := h.(taskStopper); ok && want == guardianDenied {
		return taskStopped
	}
	return want
}

// runHookFailures breaks guardian's hook where its own fail-safe cannot reach (guardian-faults'
// start:… points: a crash, garbage, an exit 0 with no output, a hang; and a hook command whose
// binary is missing) on h with guardian installed by
// its installer, and checks that the wrapper the installer puts around the command (Cline: its
// hook script) stops the call each time, telling the model what happened where the host tells
// it anything; and that in monitor mode the same crash leaves the call to the host, which runs
// it. The hang is installed with --timeout 7: guardian's deadline is 2 s, the wrapper gives up
// on it at 6 s (Cline's script at 7 s; Cline's own limit is 120 s), before the host does.
func runHookFailures(t *testing.T, s suite, h host) {
	t.Helper()
	for _, c := range []struct {
		name   string
		args   []string
		env    []string
		reason string
		want   outcome
	}{
		{"crash", nil, []string{"GUARDIAN_FAULT=start:exit1"}, "the hook command exited with status 1", guardianDenied},
		{"garbage", nil, []string{"GUARDIAN_FAULT=start:garbage"}, "the hook command printed no answer of guardian's", guardianDenied},
		{"silent", nil, []string{"GUARDIAN_FAULT=start:silent"}, "the hook command exited 0 and printed nothing", guardianDenied},
		{"hang", []string{"--timeout", "7"}, []string{"GUARDIAN_FAULT=start:hang"}, "the hook command was killed or gave no answer within", guardianDenied},
		{"missing", []string{"--command", "/nonexistent/guardian hook " + h.Name() + " --deadline 10s"}, nil, "the hook command exited with status 127", guardianDenied},
		{"monitor crash", []string{"--monitor"}, []string{"GUARDIAN_FAULT=start:exit1"}, "", ran},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := preparedWorld(t, h)
			install(t, h, w, s.faults, c.args...)
			r := h.Run(t, w, h.Shell(fmt.Sprintf("touch %s && ls", w.mark("ran"))), runOpts{Permissive: true, Env: c.env})
			got, want := classify(h, r, w.marked("ran")), expected(h, c.want)
			t.Logf("%s %s: %s in %s; the model was told: %s", h.Name(), c.name, got, r.took, abbrev(r.Result.Text, 300))
			if got != want {
				t.Fatalf("outcome %q, want %q\n%s", got, want, r.describe())
			}
			if want == guardianDenied && !strings.Contains(r.Result.Text, c.reason) {
				t.Errorf("the model was not told what happened (want %q in it):\n%s", c.reason, r.describe())
			}
		})
	}
}
