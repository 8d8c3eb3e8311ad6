package e2e

import (
	"strings"
)

// outcome is what became of a scripted call, as the host reported it to the model and as the
// marker file shows.
type outcome string

// The outcomes the suite tells apart.
const (
	// ran: the command ran (the marker exists).
	ran outcome = "ran"
	// guardianDenied: guardian's reply stopped it and the model was told guardian's reason.
	guardianDenied outcome = "denied by guardian"
	// noVerdict: (Codex) the hook gave no verdict, so Codex's own reviewer decided (the fake
	// reviewer denies).
	noVerdict outcome = "no verdict; Codex's reviewer denied"
	// hostRefused: the host refused on its own, without guardian (no hook, or a hook it
	// skipped), and without running it.
	hostRefused outcome = "refused by the host"
	// taskStopped: (Cline) the hook stopped the whole task before the call ran; the model
	// is told nothing, so guardian's reason is only in the audit log.
	taskStopped outcome = "task stopped by guardian"
	// unknown: none of the above — the run did not get as far as the tool result.
	unknown outcome = "unknown"
)

// classify reads a run: the marker first (a command that ran, ran), then what the host told
// the model.
func classify(h host, r hostRun, marked bool) outcome {
	switch {
	case marked:
		return ran
	case r.Stopped:
		return taskStopped
	case !r.Got:
		return unknown
	case h.Name() == "codex" && r.AutoReviews > 0:
		return noVerdict
	case strings.Contains(r.Result.Text, "guardian: ") || strings.Contains(r.Result.Text, "guardian could not review"):
		return guardianDenied
	}
	return hostRefused
}
