package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian/hook"
)

func (a *app) hookCmd() *cobra.Command {
	var list strings.Builder
	for _, h := range hook.Hosts() {
		fmt.Fprintf(&list, "  guardian hook %-10s %s\n", h.Name, h.Summary)
	}
	c := &cobra.Command{
		Use:   "hook",
		Short: "Answer an agent host's tool hook (" + strings.Join(hostNames(), ", ") + ") or install one",
		Long: `Answer an agent host's tool hook: read the host's JSON payload on stdin, review the tool
call, and write the reply the host acts on.

` + list.String() + `  guardian hook install    print or write the host configuration that runs these
  guardian hook uninstall  remove it again

When anything goes wrong — a malformed payload, a broken config, a reviewer past the
deadline, a guardian serve that is down — the host gets its fail-safe reply ("ask", "no
verdict" or a block; docs/hooks.md), never allow; and the command never exits with a status
the host would read as "run the tool".

When a guardian serve is reachable ($GUARDIAN_URL, or its default socket) the review is
delegated to it, so its cache, breakers and audit log are shared; otherwise the hook
reviews in-process and appends to the audit log itself.`,
		Args: cobra.ArbitraryArgs,
		RunE: groupRunE,
	}
	for _, h := range hook.Hosts() {
		c.AddCommand(a.hookRunCmd(h.Name, "Answer a "+h.Summary+" hook", h.Protocol))
	}
	c.AddCommand(a.hookInstallCmd(), a.hookUninstallCmd())
	return c
}

// hostNames lists the names of the supported hosts.
func hostNames() []string {
	var names []string
	for _, h := range hook.Hosts() {
		names = append(names, h.Name)
	}
	return names
}

// hookRunCmd is `guardian hook HOST`.
func (a *app) hookRunCmd(name, short string, p hook.Protocol) *cobra.Command {
	var (
		deadline  time.Duration
		monitor   bool
		approvals string
	)
	c := &cobra.Command{
		Use:   name + " [--deadline 8s] [--monitor]",
		Short: short,
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("approvals") && a.getenv(envApprovals) != "" {
				approvals = a.getenv(envApprovals)
			}
			if err := checkApprovalMode(approvals); err != nil {
				return err
			}
			a.approvals = approvals
			if monitor {
				return a.answerHook(cmd, hook.Monitor(p), deadline)
			}
			return a.answerHook(cmd, p, deadline)
		},
	}
	c.Flags().StringVar(&approvals, "approvals", "auto", "where an ask goes through guardian serve: queue (hold it until a person answers: guardian approve), host (the host's prompt), or auto (queue when the payload shows the host cannot prompt) (`MODE`; default $GUARDIAN_APPROVALS)")
	c.Flags().DurationVar(&deadline, "deadline", hook.DefaultDeadline, "answer within `DURATION`, whatever happens (keep it below the host's hook timeout)")
	c.Flags().BoolVar(&monitor, "monitor", false, "monitor mode: review and record every call in the audit log, but give the host no verdict (its own permissions decide)")
	return c
}

func (a *app) predicateCmd() *cobra.Command {
	var deadline time.Duration
	c := &cobra.Command{
		Use:   "predicate [--deadline 8s]",
		Short: "Answer the Codex approval-predicate protocol: print allow, deny or ask",
		Long: `Answer the Codex approval-predicate protocol: review the shell command in $CODEX_COMMAND
(run in $CODEX_CONTAINER_CWD, else $CODEX_HOST_CWD; session $CODEX_SESSION_ID) and print
exactly allow, deny or ask. Whatever goes wrong, it prints ask.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.answerHook(cmd, hook.Predicate{}, deadline)
		},
	}
	c.Flags().DurationVar(&deadline, "deadline", hook.DefaultDeadline, "answer within `DURATION`, whatever happens")
	return c
}

// answerHook runs one hook protocol exchange and writes its reply (oneshot.Env.Answer). The
// only exit statuses are 0 and the reply's own (2 for a block).
func (a *app) answerHook(cmd *cobra.Command, p hook.Protocol, deadline time.Duration) error {
	if code := a.env(cmd).Answer(cmd.Context(), p, cmd.InOrStdin(), a.stdout, deadline); code != 0 {
		return &exitError{code: code}
	}
	return nil
}
