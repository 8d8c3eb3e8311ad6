package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/oneshot"
	"github.com/guardianhq/guardian/guardian/server"
)

// envApproverToken holds the approver token on the person's side: guardian serve requires it
// to answer approvals when started with one (--approver-token-file, or this variable).
const envApproverToken = "GUARDIAN_APPROVER_TOKEN"

// approvalCallTimeout bounds one call of guardian pending/approve/deny/grants to the serve.
const approvalCallTimeout = 10 * time.Second

// adminClient is the client of the serve that a person's verbs talk to: $GUARDIAN_URL, else
// the default socket when one exists, else the default TCP address; the token is
// $GUARDIAN_TOKEN — the same client config as the hooks'.
func (a *app) adminClient() (*server.Client, error) {
	token := a.getenv(envToken)
	target := a.getenv(oneshot.EnvURL)
	if target == "" {
		if path := server.DefaultSocketPath(a.getenv); path != "" {
			if st, err := os.Stat(path); err == nil && st.Mode()&os.ModeSocket != 0 {
				target = "unix://" + path
			}
		}
	}
	if target == "" {
		target = "http://" + server.DefaultAddr
	}
	c, err := server.NewClient(target, server.WithClientToken(token), server.WithClientApproverToken(a.getenv(envApproverToken)))
	if err != nil {
		return nil, usageErrorf("%s: %v", oneshot.EnvURL, err)
	}
	return c, nil
}

// serveError explains a failed call to the serve.
func serveError(err error) error {
	var se *server.StatusError
	switch {
	case errors.Is(err, server.ErrUnreachable):
		return fmt.Errorf("%w; approvals live in guardian serve: start it (guardian serve), or point %s at it", err, oneshot.EnvURL)
	case errors.As(err, &se) && se.StatusCode == 404 && se.Code == server.CodeNotFound && strings.Contains(se.Message, "not enabled"):
		return fmt.Errorf("%s: restart guardian serve without --approvals off", se.Message)
	case errors.As(err, &se) && (se.Code == server.CodeApproverRequired || se.Code == server.CodeNotFound || se.Code == server.CodeAmbiguous || se.Code == server.CodeAnswered || se.Code == server.CodeScopeRefused || se.Code == server.CodeBadRequest):
		return &exitError{code: exitUsage, err: errors.New(se.Message)}
	}
	return err
}

// answererName is who answers: --as, else $GUARDIAN_USER, else the login name.
func (a *app) answererName(as string) string {
	for _, v := range []string{as, a.getenv("GUARDIAN_USER"), a.getenv("USER"), a.getenv("LOGNAME")} {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func (a *app) pendingCmd() *cobra.Command {
	var all, asJSON bool
	c := &cobra.Command{
		Use:   "pending [--all] [--json]",
		Short: "List the requests guardian serve holds until a person approves or denies them",
		Long: `List the requests guardian serve holds for a person: asks from hosts that cannot prompt
(claude -p, codex exec, CI) whose hooks wait for an answer. Answer one with
guardian approve ID or guardian deny ID; any unambiguous prefix of the ID will do.

The serve is $GUARDIAN_URL, else its default socket, else 127.0.0.1:7420; the token is
$GUARDIAN_TOKEN.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cl, err := a.adminClient()
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), approvalCallTimeout)
			defer cancel()
			ps, err := cl.Pending(ctx, all)
			if err != nil {
				return serveError(err)
			}
			if asJSON {
				return writeJSON(a.stdout, server.PendingList{Pending: ps})
			}
			writePending(a.stdout, ps, time.Now())
			return nil
		},
	}
	c.Flags().BoolVar(&all, "all", false, "also the approvals answered or expired in the last hour")
	c.Flags().BoolVar(&asJSON, "json", false, "print the API's JSON")
	return c
}

// writePending prints one approval a line, oldest first.
func writePending(w io.Writer, ps []approval.Pending, now time.Time) {
	if len(ps) == 0 {
		fmt.Fprintln(w, "no pending approvals")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tAGE\tLEFT\tRISK\tASKED BY\tFROM\tREQUEST")
	for _, p := range ps {
		left := "-"
		if p.State == approval.StateOpen {
			left = p.Expires.Sub(now).Round(time.Second).String()
		}
		state := string(p.State)
		if p.Answer != nil {
			state += " (" + p.Answer.Decision.String() + " by " + printable(p.Answer.By) + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.ID, state, now.Sub(p.Created).Round(time.Second), left,
			p.Assessment.Level, printable(truncate(p.AskedBy, 40)), printable(callerLine(p.Caller.Host, p.Caller.Session, p.Project)),
			printable(truncate(p.Shape, 100)))
	}
	tw.Flush()
}

// callerLine is "host session project", shortened.
func callerLine(host, session, project string) string {
	parts := []string{host}
	if session != "" {
		parts = append(parts, "session "+truncate(session, 12))
	}
	if project != "" {
		parts = append(parts, truncate(project, 40))
	}
	return strings.Join(parts, ", ")
}

func (a *app) approveCmd() *cobra.Command {
	var scope, as, reason string
	var ttl time.Duration
	c := &cobra.Command{
		Use:   "approve ID [--scope once|session|project|always] [--as NAME] [--ttl D]",
		Short: "Approve a request guardian serve holds; with a scope, allow the same request again",
		Long: `Approve a request guardian serve holds (guardian pending): its waiting hook gets allow.

--scope once (default) allows this request only. session, project and always also store a
grant: the same request (the exact command, or the MCP tool with the same arguments) is
allowed again without asking — in the same host session, in the same project, or anywhere —
until the grant expires (--ttl; a day for session, 30 days otherwise) or is revoked
(guardian grants revoke ID). A request the review rates high or critical gets no grant:
approve it once.

The answer is recorded in the audit log with decided_by human:NAME (--as, else
$GUARDIAN_USER, else $USER) and how long the request waited.`,
		Example: `  guardian approve 3f1c
  guardian approve 3f1c --scope session
  guardian approve 3f1c --scope project --ttl 8h --as alice`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := approval.ParseScope(scope); err != nil {
				return usageErrorf("approve: --scope: %v", err)
			}
			req := server.AnswerRequest{By: a.answererName(as), Scope: scope, Reason: reason}
			if ttl < 0 {
				return usageErrorf("approve: --ttl %s: want a positive duration", ttl)
			}
			if ttl > 0 {
				req.TTL = ttl.String()
			}
			return a.answer(cmd, args[0], req, true)
		},
	}
	c.Flags().StringVar(&scope, "scope", "once", "how far the approval reaches: once, session, project or always (a `SCOPE`)")
	c.Flags().StringVar(&as, "as", "", "`NAME` of who approves, for the audit log (default $GUARDIAN_USER, else $USER)")
	c.Flags().DurationVar(&ttl, "ttl", 0, "a grant lasts `D` (default: a day for session, 30 days otherwise)")
	c.Flags().StringVar(&reason, "reason", "", "why, as `TEXT` for the audit log")
	return c
}

func (a *app) denyCmd() *cobra.Command {
	var as, reason string
	c := &cobra.Command{
		Use:   "deny ID [--reason TEXT] [--as NAME]",
		Short: "Deny a request guardian serve holds; the agent is told the reason",
		Long: `Deny a request guardian serve holds (guardian pending): its waiting hook gets deny, with
your reason shown to the agent. A deny is for this request only; to deny a command always,
add a rule (guardian block PATTERN).`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.answer(cmd, args[0], server.AnswerRequest{By: a.answererName(as), Reason: reason}, false)
		},
	}
	c.Flags().StringVar(&reason, "reason", "", "why, as `TEXT` shown to the agent and recorded")
	c.Flags().StringVar(&as, "as", "", "`NAME` of who denies, for the audit log (default $GUARDIAN_USER, else $USER)")
	return c
}

// answer sends an approve or deny and prints what happened.
func (a *app) answer(cmd *cobra.Command, id string, req server.AnswerRequest, allow bool) error {
	if req.By == "" {
		return usageErrorf("who answers is not known: give --as NAME (or set GUARDIAN_USER)")
	}
	cl, err := a.adminClient()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), approvalCallTimeout)
	defer cancel()
	var (
		p  approval.Pending
		gr *approval.Grant
	)
	if allow {
		p, gr, err = cl.Approve(ctx, id, req)
	} else {
		p, err = cl.Deny(ctx, id, req)
	}
	if err != nil {
		return serveError(err)
	}
	verb := "approved"
	if !allow {
		verb = "denied"
	}
	fmt.Fprintf(a.stdout, "%s %s: %s\n", verb, p.ID, printable(truncate(p.Shape, 200)))
	if p.State == approval.StateAnswered && p.Expires.Before(time.Now()) {
		fmt.Fprintln(a.stdout, "  its hook had stopped waiting: a retry of the same request in the same session gets this answer")
	}
	if gr != nil {
		fmt.Fprintf(a.stdout, "  grant %s: the same request is allowed %s until %s (guardian grants revoke %s)\n",
			gr.ID, scopeText(*gr), gr.Expires.Local().Format("2006-01-02 15:04"), gr.ID)
	}
	return nil
}

// scopeText says where a grant applies.
func scopeText(g approval.Grant) string {
	switch g.Scope {
	case approval.ScopeSession:
		return "in " + printable(g.Host) + " session " + printable(truncate(g.Session, 24))
	case approval.ScopeProject:
		return "in " + printable(g.Project)
	}
	return "anywhere"
}

func (a *app) grantsCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "grants [--json] | grants revoke ID",
		Short: "List the standing grants people gave with guardian approve --scope, or revoke one",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cl, err := a.adminClient()
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), approvalCallTimeout)
			defer cancel()
			gs, err := cl.Grants(ctx)
			if err != nil {
				return serveError(err)
			}
			if asJSON {
				return writeJSON(a.stdout, server.GrantList{Grants: gs})
			}
			if len(gs) == 0 {
				fmt.Fprintln(a.stdout, "no grants")
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSCOPE\tWHERE\tBY\tEXPIRES\tREQUEST")
			for _, g := range gs {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", g.ID, g.Scope, scopeText(g), printable(g.By),
					g.Expires.Local().Format("2006-01-02 15:04"), printable(truncate(g.Shape, 100)))
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the API's JSON")
	revoke := &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a grant: the request is asked about again",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			cl, err := a.adminClient()
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), approvalCallTimeout)
			defer cancel()
			g, err := cl.RevokeGrant(ctx, args[0])
			if err != nil {
				return serveError(err)
			}
			fmt.Fprintf(a.stdout, "revoked grant %s: %s\n", g.ID, printable(truncate(g.Shape, 200)))
			return nil
		},
	}
	c.AddCommand(revoke)
	return c
}

// writeJSON prints v indented.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
