package e2e

import "testing"

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
