package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// timingRounds is how many times each command scenario runs with and without the hook; the
// table shows medians.
const timingRounds = 3

// timing is one command scenario's numbers on one host.
type timing struct {
	scenario string
	outcome  outcome
	// with and without are the host's wall times for the whole run (start to exit, two
	// model round trips) with guardian as its hook and with no hook.
	with, without []time.Duration
	// hook is the hook process's own wall time inside the host (timedHookCommand).
	hook []time.Duration
	// review is guardian's own decision time inside the hook, from its audit records.
	review []time.Duration
}

// timedHookCommand is guardian's hook command for host wrapped to append its start and end
// (nanoseconds) to file: the hook's wall time as the host runs it, from the process start to
// its exit, less only the host's own /bin/sh. It is still a guardian hook command (verify
// and the installers recognise it), so the real installer installs it with --command.
func timedHookCommand(bin, host, file string) string {
	return fmt.Sprintf(`t0=$(date +%%s%%N); %s hook %s --deadline 10s; rc=$?; echo "$t0 $(date +%%s%%N)" >> %s; exit $rc`, bin, host, file)
}

// hookTimes reads the review's hook run timedHookCommand recorded in file: the first. A call
// that runs reaches the same command once more on Claude Code's outcome events (PostToolUse),
// which report and decide nothing.
func hookTimes(t *testing.T, file string) time.Duration {
	t.Helper()
	lines := strings.Fields(readFile(t, file))
	if len(lines) < 2 || len(lines)%2 != 0 {
		t.Fatalf("%s: want hook runs (start and end each), got %q", file, lines)
	}
	var start, end int64
	if _, err := fmt.Sscan(lines[0]+" "+lines[1], &start, &end); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return time.Duration(end - start)
}

// timingTable collects one host's timings and prints them.
type timingTable struct {
	host string
	// rounds is how many runs each median is of (timingRounds when 0).
	rounds int
	rows   []timing
}

// log prints the table: per scenario the medians of the host's wall time with the hook and
// without and their difference; the hook process's own wall time inside the host (process
// start, config, review, audit fsync); and guardian's review time from the audit log; then
// the medians over the scenarios. No assertion is made on any of it.
func (tt *timingTable) log(t *testing.T) {
	t.Helper()
	var b strings.Builder
	rounds := tt.rounds
	if rounds == 0 {
		rounds = timingRounds
	}
	fmt.Fprintf(&b, "%s: host wall time per run, median of %d rounds (no hook: %s)\n", tt.host, rounds, tt.baseline())
	line := "  %-13s %-24s %13s %13s %11s %13s %13s\n"
	fmt.Fprintf(&b, line, "scenario", "outcome", "host, hook", "host, none", "difference", "hook process", "review")
	var with, without, cost, hook, review []time.Duration
	for _, r := range tt.rows {
		w, wo, hk, rv := median(r.with), median(r.without), median(r.hook), median(r.review)
		with, without, cost, hook, review = append(with, w), append(without, wo), append(cost, w-wo), append(hook, hk), append(review, rv)
		fmt.Fprintf(&b, line, r.scenario, r.outcome, ms(w), ms(wo), ms(w-wo), ms(hk), ms(rv))
	}
	fmt.Fprintf(&b, line, "median", "", ms(median(with)), ms(median(without)), ms(median(cost)), ms(median(hook)), ms(median(review)))
	t.Log(b.String())
}

// baseline says what the host does with the call when no hook is installed.
func (tt *timingTable) baseline() string {
	switch tt.host {
	case "codex":
		return "Codex's own reviewer (the fake, which answers at once) decides"
	case "gemini", "qwen":
		return "yolo mode runs the call, destructive ones included (harmless here)"
	case "copilot":
		return "--allow-all-tools runs the call, destructive ones included (harmless here)"
	case "opencode":
		return "--auto runs the call, destructive ones included (harmless here)"
	case "cline":
		return "--auto-approve true runs the call, destructive ones included (harmless here)"
	}
	return "Claude Code's own permission check refuses the call (-p, no --allowedTools)"
}

// median of ds (0 for none); ds is not modified.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// ms formats a duration in milliseconds.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
