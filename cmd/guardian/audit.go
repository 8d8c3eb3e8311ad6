package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/riskmodel"
)

// followInterval is how often `audit tail --follow` looks for new records.
const followInterval = 250 * time.Millisecond

func (a *app) auditCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "audit",
		Short: "Verify and read the audit log of decisions",
		Long: `Every decision guardian answers is appended to a hash-chained JSONL audit log: one
record a decision, with the request (secrets redacted), the decision, its status, what decided
it, the assessment, the latency, the token usage and who asked.

The log is the user config's [audit] path, else $GUARDIAN_AUDIT_LOG, else
$XDG_STATE_HOME/guardian/audit.jsonl, else ~/.local/state/guardian/audit.jsonl.
See docs/audit.md for the format and how to verify a log with other tools.`,
		Example: `  guardian audit verify
  guardian audit tail -n 50
  guardian audit tail --follow
  guardian audit explain 3f2a9c0d1e2f3a4b`,
		Args: cobra.ArbitraryArgs,
		RunE: groupRunE,
	}
	c.AddCommand(a.auditVerifyCmd(), a.auditTailCmd(), a.auditExplainCmd())
	return c
}

func (a *app) auditVerifyCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify [FILE...]",
		Short: "Check the audit log's hash chain; exit 3 if it is broken or torn",
		Long: `Check the hash chain of the audit log: every record's hash against its content, and every
record's prev against the hash of the record before it. FILEs are checked in the order given,
as one chain (rotated files first, the current file last); without FILEs, the configured log
and its rotated files.

It prints how many records verified and the first problem as FILE:LINE: a changed record (hash
mismatch), a deleted, reordered or inserted one (prev mismatch), a line that is not a record,
or a torn tail (an incomplete last record, left by a crash during a write). The exit status is
0 when the chain is intact — an empty log, or none yet at the configured path, included —
and 3 when it is broken or torn, or a FILE given cannot be read.

The last hash printed identifies the log's state: records cut off the end later cannot be seen
from the log alone, so keep it somewhere else if that matters.`,
		Example: `  guardian audit verify
  guardian audit verify ~/.local/state/guardian/audit.jsonl.20261115T100000.000000000Z ~/.local/state/guardian/audit.jsonl`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			files := args
			if len(files) == 0 {
				path, err := a.auditLogPath(cmd)
				if err != nil {
					return err
				}
				if files, err = audit.Files(path); errors.Is(err, fs.ErrNotExist) {
					fmt.Fprintf(cmd.OutOrStdout(), "ok: no audit log at %s yet: nothing has been recorded, nothing to verify\n", printable(path))
					fmt.Fprintln(cmd.OutOrStdout(), noLogHint)
					return nil
				} else if err != nil {
					return err
				}
			}
			rep, err := audit.Verify(files...)
			if err != nil {
				return invalidError(err)
			}
			writeVerifyReport(cmd.OutOrStdout(), rep)
			if !rep.OK() {
				return &exitError{code: exitInvalid}
			}
			return nil
		},
	}
}

// writeVerifyReport prints a Verify report for a human: the verdict first, then what to do.
func writeVerifyReport(w io.Writer, rep audit.Report) {
	files := count(len(rep.Files), "file")
	if p := rep.Problem; p != nil {
		fmt.Fprintf(w, "BROKEN: %s\n", printable(p.String()))
		fmt.Fprintf(w, "  %s before it verified in %s\n", count(rep.Records, "record"), files)
	} else {
		fmt.Fprintf(w, "ok: %s verified in %s\n", count(rep.Records, "record"), files)
	}
	if rep.LastHash != "" {
		fmt.Fprintf(w, "  last good hash: %s\n", rep.LastHash)
	}
	if rep.FirstPrev != "" {
		fmt.Fprintf(w, "note: the first record continues an earlier chain (prev %s); that link was not checked: verify the rotated files before it together with this one\n",
			printable(rep.FirstPrev))
	}
	if t := rep.Torn; t != nil {
		fmt.Fprintf(w, "TORN: %s:%d: the file ends in %d bytes of an incomplete record, left by a crash during a write; the next append moves them to %s.torn-<time> and continues the chain\n",
			printable(t.File), t.Line, t.Bytes, printable(t.File))
	}
}

func (a *app) auditTailCmd() *cobra.Command {
	var n int
	var jsonOut, follow bool
	var ff tailFilterFlags
	c := &cobra.Command{
		Use:   "tail [-n N] [--json] [--follow] [--decision D] [--host H] [--session S] [--rule R] [--since T]",
		Short: "Print the last records of the audit log",
		Long: `Print the last N records of the audit log, oldest first, one line each: time, decision,
status, what decided, summary, caller and record id (for 'guardian audit explain ID').
Characters from requests that could move the cursor or end a line are printed escaped
(\n, \x1b, \u2028). --json prints the records as stored, one JSON object a line. --follow
keeps printing records as they are appended, across rotations, until interrupted.

The filters keep the records that meet all of them, and -n counts those:
  --decision allow|ask|deny   (repeatable, or comma-separated)
  --host NAME, --session ID   the caller's, exactly as tail prints them
  --rule GLOB                 decided by, or with a finding of, a matching rule id
                              (fs.rm.home, rule:fs.rm.*, user:*)
  --since T                   reviews started at or after T: a duration back from now
                              (90m, 12h, 7d), an RFC 3339 time, or a date (local midnight)

An empty log, or none yet, prints a note on stderr and exits 0 (see docs/audit.md for the
exit codes).`,
		Example: `  guardian audit tail
  guardian audit tail --decision deny --since 24h
  guardian audit tail --host claude --rule 'user:*' -n 100
  guardian audit tail -n 100 --json | jq .assessment.summary
  guardian audit tail --follow --decision ask,deny`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 0 {
				return usageErrorf("audit tail: -n must be 0 or more, not %d", n)
			}
			filter, err := ff.filter(time.Now())
			if err != nil {
				return err
			}
			path, err := a.auditLogPath(cmd)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			emit := func(raw json.RawMessage) error {
				if jsonOut {
					_, err := fmt.Fprintf(out, "%s\n", raw)
					return err
				}
				_, err := fmt.Fprintln(out, tailLine(raw))
				return err
			}
			if follow {
				err := audit.FollowMatching(cmd.Context(), path, n, followInterval, filter, emit)
				return a.emptyLog(cmd, path, err)
			}
			recs, err := audit.TailMatching(cmd.Context(), path, n, filter)
			if err != nil {
				return a.emptyLog(cmd, path, err)
			}
			for _, r := range recs {
				if err := emit(r); err != nil {
					return err
				}
			}
			if len(recs) == 0 && n > 0 {
				if all, err := audit.Tail(cmd.Context(), path, 1); err == nil && len(all) == 0 {
					fmt.Fprintf(cmd.ErrOrStderr(), "guardian: the audit log %s is empty: nothing has been recorded yet\n", printable(path))
				} else if !filter.IsZero() {
					fmt.Fprintln(cmd.ErrOrStderr(), "guardian: no record matches the filters")
				}
			}
			return nil
		},
	}
	c.Flags().IntVarP(&n, "lines", "n", 20, "print the last `N` records (that match the filters)")
	c.Flags().BoolVar(&jsonOut, "json", false, "print the records as stored (JSON lines)")
	c.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing records as they are appended")
	ff.register(c)
	return c
}

// emptyLog turns a log that does not exist yet into a note on stderr and exit 0: nothing
// has been recorded, which is not an error (a broken log exits 3).
func (a *app) emptyLog(cmd *cobra.Command, path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(cmd.ErrOrStderr(), "guardian: no audit log at %s yet: nothing has been recorded there\n%s\n", printable(path), noLogHint)
		return nil
	}
	return err
}

// noLogHint is what to check when a log is missing or empty although decisions were made.
const noLogHint = "  (if guardian serve or the hooks record elsewhere, give this command the same [audit] path or GUARDIAN_AUDIT_LOG)"

// tailLine is one record on one line; every string from the record is escaped.
func tailLine(raw json.RawMessage) string {
	var r audit.Record
	if err := json.Unmarshal(raw, &r); err != nil {
		return "(unreadable record: " + printable(err.Error()) + "; run guardian audit verify)"
	}
	return strings.Join([]string{
		r.Time.UTC().Format("2006-01-02T15:04:05.000Z"),
		strings.ToUpper(r.Decision.String()),
		printable(string(r.Status)),
		printable(r.DecidedBy),
		printable(truncate(r.Assessment.Summary, 100)),
		"(" + callerText(r) + ")",
		printable(r.ID),
	}, "  ")
}

// callerText names who asked, e.g. "claude, session 0b6a…, turn toolu_01, agent Explore,
// role subagent, agent id ae46…".
func callerText(r audit.Record) string {
	var parts []string
	c := r.Caller
	if c.Host != "" {
		parts = append(parts, printable(c.Host))
	}
	for _, kv := range [][2]string{{"session", c.Session}, {"turn", c.Turn}, {"agent", c.Agent}, {"role", string(c.AgentRole)}, {"agent id", c.AgentID}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+" "+printable(kv[1]))
		}
	}
	if c.Monitor {
		parts = append(parts, "monitor: not enforced")
	}
	if len(parts) == 0 {
		return "unknown caller"
	}
	return strings.Join(parts, ", ")
}

func (a *app) auditExplainCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "explain ID",
		Short: "Print one audit record in full: request, assessment and place in the chain",
		Long: `Print the audit record with the given id (from 'guardian audit tail') in full: when and
for whom it was decided, the request as recorded (secrets redacted), the assessment with its
findings, and where the record sits in the hash chain — whether its hash matches its content
and its prev the record before it.

ID may be shortened, like a git commit, to any prefix of at least 4 characters that no other
record shares; an ambiguous prefix lists the records it matches (exit 2). No record with that
id exits 3.`,
		Example: `  guardian audit explain 3f2a9c0d1e2f3a4b
  guardian audit explain 3f2a9c`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args[0]) < audit.MinIDPrefix {
				return usageErrorf("audit explain: %q is too short: give at least %d characters of the record id (the last column of 'guardian audit tail')", args[0], audit.MinIDPrefix)
			}
			files, err := a.auditFiles(cmd)
			if err != nil {
				return err
			}
			raw, loc, err := audit.Find(cmd.Context(), files, strings.ToLower(args[0]))
			var amb *audit.AmbiguousError
			if errors.As(err, &amb) {
				return usageErrorf("audit explain: %q is ambiguous: %d records begin with it: %s; give more of the id", args[0], len(amb.IDs), printable(strings.Join(amb.IDs, ", ")))
			}
			if errors.Is(err, audit.ErrNotFound) {
				return invalidError(fmt.Errorf("no record with id %q in %s; ids are the last column of 'guardian audit tail'", args[0], printable(strings.Join(files, ", "))))
			}
			if err != nil {
				return err
			}
			return writeExplain(cmd.OutOrStdout(), raw, loc)
		},
	}
}

// writeExplain prints one record for a human. Request text is escaped; structured values
// (argv, MCP arguments) are printed as JSON, which escapes them too.
func writeExplain(w io.Writer, raw json.RawMessage, loc audit.Location) error {
	var r audit.Record
	if err := json.Unmarshal(raw, &r); err != nil {
		return invalidError(fmt.Errorf("%s:%d: the record cannot be read (%v); run guardian audit verify", loc.File, loc.Line, err))
	}
	row := func(indent, k, v string) { fmt.Fprintf(w, "%s%-16s %s\n", indent, k, v) }
	fmt.Fprintf(w, "record %s\n", printable(r.ID))
	row("  ", "time", r.Time.UTC().Format(time.RFC3339Nano))
	row("  ", "decision", fmt.Sprintf("%s (status %s, decided by %s)", r.Decision, printable(string(r.Status)), printable(r.DecidedBy)))
	row("  ", "latency", strconv.FormatFloat(r.LatencyMS, 'f', -1, 64)+" ms")
	if r.Usage != nil {
		row("  ", "tokens", fmt.Sprintf("%d in, %d out", r.Usage.InputTokens, r.Usage.OutputTokens))
	}
	row("  ", "caller", callerText(r))
	row("  ", "digest", printable(r.Digest))

	fmt.Fprintf(w, "\nrequest (%s, secrets redacted)\n", printable(string(r.Kind)))
	switch r.Kind {
	case riskmodel.KindExec:
		var e riskmodel.ExecRequest
		if err := json.Unmarshal(r.Request, &e); err != nil {
			row("  ", "(unreadable)", printable(err.Error()))
			break
		}
		argv, _ := json.Marshal(e.Command)
		row("  ", "command", string(argv))
		optional(row, "cwd", e.Cwd)
		optional(row, "justification", e.Justification)
		optional(row, "sandbox reason", e.SandboxReason)
	case riskmodel.KindMCP:
		var m riskmodel.MCPRequest
		if err := json.Unmarshal(r.Request, &m); err != nil {
			row("  ", "(unreadable)", printable(err.Error()))
			break
		}
		row("  ", "tool", printable(m.Server)+" / "+printable(m.Tool))
		optional(row, "title", m.Title)
		optional(row, "message", m.Message)
		optional(row, "tool description", m.ToolDescription)
		if m.Arguments != nil {
			args, _ := json.MarshalIndent(m.Arguments, "                   ", "  ")
			row("  ", "arguments", string(args))
		}
		if m.Annotations != nil {
			ann, _ := json.Marshal(m.Annotations)
			row("  ", "annotations", string(ann))
		}
	default:
		row("  ", "request", printable(string(r.Request)))
	}

	as := r.Assessment
	fmt.Fprintf(w, "\nassessment\n")
	row("  ", "risk", fmt.Sprintf("%s, %s", as.Level, printable(string(as.Category))))
	row("  ", "summary", printable(as.Summary))
	optional(row, "rationale", as.Rationale)
	for i, f := range as.Findings {
		if i == 0 {
			fmt.Fprintf(w, "  findings\n")
		}
		fmt.Fprintf(w, "    - %s: %s (%s, %s)\n", printable(f.RuleID), printable(f.Message), f.Decision, f.Level)
		if f.Segment != "" {
			fmt.Fprintf(w, "      segment: %s\n", printable(f.Segment))
		}
	}

	fmt.Fprintf(w, "\nchain\n")
	row("  ", "file", fmt.Sprintf("%s, line %d", printable(loc.File), loc.Line))
	row("  ", "position", fmt.Sprintf("record %d of the log", loc.Index+1))
	switch {
	case r.Prev == "":
		row("  ", "prev", `"" (the first record of the log)`)
	case loc.First:
		row("  ", "prev", printable(r.Prev)+" (a record in a file not searched)")
	case r.Prev == loc.PrevHash:
		row("  ", "prev", printable(r.Prev)+" (the hash of the record before it)")
	default:
		row("  ", "prev", printable(r.Prev)+" (NOT the hash of the record before it: the chain is broken here; run guardian audit verify)")
	}
	claimed, computed, ok := audit.LineHashes(raw)
	switch {
	case !ok:
		row("  ", "hash", "(missing: the line does not end in its hash; run guardian audit verify)")
	case claimed == computed:
		row("  ", "hash", claimed+" (matches the record's content)")
	default:
		row("  ", "hash", claimed+" (does NOT match the record's content, which hashes to "+computed+": it was changed after it was written)")
	}
	return nil
}

// optional prints an escaped row when v is not empty.
func optional(row func(indent, k, v string), k, v string) {
	if v != "" {
		row("  ", k, printable(v))
	}
}

// auditLogPath is the configured log path (user config only: the log is the user's). With a
// config that does not load it is the default log, after a warning on stderr.
func (a *app) auditLogPath(cmd *cobra.Command) (string, error) {
	cfg, err := a.diagnosticConfig(cmd)
	if err != nil {
		fmt.Fprintf(a.stderr, "guardian: warning: %s\nReading the default audit log.\n", brokenConfigNote(err))
	}
	return a.auditPath(cfg)
}

// auditFiles lists the configured log's files in chain order.
func (a *app) auditFiles(cmd *cobra.Command) ([]string, error) {
	path, err := a.auditLogPath(cmd)
	if err != nil {
		return nil, err
	}
	files, err := audit.Files(path)
	return files, noLogError(path, err)
}

// noLogError explains a missing log: usually nothing was audited there yet, or the hooks and
// serve write somewhere else.
func noLogError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return invalidError(fmt.Errorf("no audit log at %s: nothing has been recorded there yet; if serve or the hooks log elsewhere, set the same [audit] path or GUARDIAN_AUDIT_LOG here", printable(path)))
	}
	return err
}

// printable escapes what a terminal would act on: control characters (\n, \r, \x1b),
// Unicode line and paragraph separators, other invisible format characters and invalid UTF-8
// are written as Go escapes, so a request can neither forge a line of output nor paint the
// terminal.
func printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// count writes "1 record", "2 records".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// truncate shortens s to at most n runes, marking the cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
