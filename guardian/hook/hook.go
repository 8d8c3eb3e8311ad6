// Package hook speaks the approval-hook protocols of the agent hosts: Claude Code's
// PreToolUse (and PermissionRequest) hooks, Codex's PermissionRequest (and PreToolUse) hooks
// and the Codex approval-predicate protocol. Each protocol turns the host's input into a
// guardian request and guardian's decision into the exact reply the host acts on.
//
// Both hosts fail open on many hook failures (docs/hooks.md): a hook that exits 1, times out,
// prints garbage or JSON without the right hookEventName lets the tool run. So the one rule of
// this package is that Run always produces a reply the host reads as ask, deny or "no verdict"
// when anything goes wrong — a panic, unreadable input, a missing environment variable, a
// reviewer past the deadline, an unreachable guardian serve — and never one it reads as allow.
package hook

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// Call is what guardian makes of one hook invocation.
type Call struct {
	// Request is the request to review; nil means guardian has no opinion on this tool call
	// and the host's own permission flow decides.
	Request *guardian.Request
	// Caller is who asked: the host and its session and turn ids, for the audit log.
	Caller guardian.Caller
	// Event is the host's hook event ("PreToolUse", "PermissionRequest"); the reply format
	// depends on it.
	Event string
	// NeverAllow marks calls reviewed only to find reasons to stop them (file edits): an
	// allow becomes "no opinion", so guardian never waves through what the host would have
	// asked about.
	NeverAllow bool
	// Headless says the payload shows that the host will not prompt anyone for an ask (Claude
	// Code's permission_mode "dontAsk"), so an ask is as good as a deny unless a person
	// answers it elsewhere (guardian serve's approval queue).
	Headless bool
	// Outcome, when not "", makes this a report of how a tool call ended rather than a
	// request to review: OutcomeRan (Claude Code's PostToolUse, PostToolUseFailure) or
	// OutcomeDenied (PermissionDenied). Run hands it to Input.Record and replies nothing.
	Outcome string
}

// The outcomes a host reports after a tool call (Call.Outcome).
const (
	OutcomeRan    = "ran"
	OutcomeDenied = "denied"
)

// Reply is what a hook process writes and how it exits.
type Reply struct {
	Stdout []byte
	Stderr string
	Exit   int
	// Failsafe, when not "", says why this reply is the protocol's fail-safe answer instead of
	// a decision (a panic, unreadable input, a broken config, a missed deadline, …). It is not
	// written to the host; the hook command records it in the audit log, so that the log
	// shows what the host was told even when no review finished.
	Failsafe string
	// Call is the parsed call of a fail-safe reply when parsing got that far (nil otherwise):
	// the request and caller the audit record is about.
	Call *Call
}

// Protocol is one host's hook protocol.
type Protocol interface {
	// Parse turns the host's input (stdin and environment) into a call. An error means the
	// input cannot be understood; Run answers it with Failsafe.
	Parse(stdin []byte, getenv func(string) string) (Call, error)
	// Answer renders a decision for the host.
	Answer(c Call, res guardian.Result) Reply
	// Failsafe is the reply when no decision could be made: the host's ask or "no verdict",
	// never allow. event is the call's event when the input got that far, else "".
	Failsafe(event, reason string) Reply
}

// maxReason caps the reason text shown to the human or the model.
const maxReason = 2000

// Reason is the one-line explanation of res that hosts are shown: "guardian: " then the
// summary, risk level and category, and the rationale, cleaned of control characters and
// capped. Other adapters (the MCP proxy) use it so every host reads the same text.
func Reason(res guardian.Result) string { return reason(res) }

// reason joins a result's explanation into one line for the host: summary, risk level and
// category, rationale. Request text reaches the summary and rationale, so control
// characters are replaced — a reason cannot move the cursor or fake a second line in a
// terminal — and the text is capped.
func reason(res guardian.Result) string {
	a := res.Assessment
	var b strings.Builder
	b.WriteString("guardian: ")
	b.WriteString(a.Summary)
	if a.Level >= riskmodel.Low && a.Level <= riskmodel.Critical {
		b.WriteString(" [risk: " + a.Level.String())
		if a.Category != "" {
			b.WriteString(", " + string(a.Category))
		}
		b.WriteString("]")
	}
	if a.Rationale != "" && a.Rationale != a.Summary {
		b.WriteString(" ")
		b.WriteString(a.Rationale)
	}
	if res.Status != guardian.StatusOK && res.Status != guardian.StatusRule && res.Status != "" {
		b.WriteString(" (status: " + string(res.Status) + ")")
	}
	return clean(b.String())
}

// clean replaces control characters (C0, DEL, C1, line and paragraph separators) with spaces,
// collapses runs of spaces, and caps the text at maxReason bytes on a rune boundary.
func clean(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.IsSpace(r) {
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		if b.Len()+utf8.RuneLen(r) > maxReason-3 {
			b.WriteString("...")
			break
		}
		b.WriteRune(r)
	}
	return strings.TrimRight(b.String(), " ")
}
