package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/riskmodel"
)

// policyCmd is `guardian allow` (decision "allow") or `guardian block` (decision "deny").
func (a *app) policyCmd(verb, decision string) *cobra.Command {
	var (
		mcp          bool
		from, reason string
	)
	c := &cobra.Command{
		Use:   verb + " PATTERN [--mcp] [--from ID]",
		Short: map[string]string{"allow": "Allow a command (or MCP tool) from now on: add an allow rule to the user config", "block": "Deny a command (or MCP tool) from now on: add a deny rule to the user config"}[verb],
		Long: `Add a [[rule]] with decision = "` + decision + `" to the user config (--config, else the default path),
keeping the rest of the file as it is. The file with the new rule is loaded and validated
first; if it would not load, nothing is written and the problem is shown. The previous file
is kept as FILE.guardian-backup-<time>. Restart guardian serve to apply it there.

PATTERN is matched against each command of a shell line, its words joined by spaces:
"npm test" matches exactly that command, "git push origin feature/*" any feature branch
(* matches any run of characters, ? one). With --mcp it is "server/tool" ("github/list_*").

--from ID takes the request from an audit record (guardian audit tail) or a pending approval
(guardian pending): its command, or for an MCP call its server/tool, whatever the
arguments. A shell line of several commands cannot be one rule: write a rule per command.

A rule never outranks a stricter one: deny > ask > allow, and guardian's own denies stand.`,
		Example: "  guardian " + verb + " 'npm test'\n  guardian " + verb + " --mcp 'github/list_*'\n  guardian " + verb + " --from 3f1c2a9b",
		Args:    usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := userRule{Kind: "exec", Decision: decision, Reason: reason}
			switch {
			case len(args) == 1 && from == "":
				r.Glob = args[0]
				if mcp {
					r.Kind = "mcp"
				}
			case len(args) == 0 && from != "":
				if mcp {
					return usageErrorf("%s: --mcp and --from: the record says which kind it is", verb)
				}
				kind, glob, err := a.patternFrom(cmd, from)
				if err != nil {
					return err
				}
				r.Kind, r.Glob = kind, glob
			default:
				return usageErrorf("%s: give a PATTERN or --from ID (one of them)", verb)
			}
			if strings.TrimSpace(r.Glob) == "" {
				return usageErrorf("%s: the pattern is empty: it would match everything", verb)
			}
			r.Comment = ruleComment(verb, from, time.Now())
			path := a.configPath
			if path == "" {
				return usageErrorf("%s: no user config path (HOME is not set): give --config FILE", verb)
			}
			backup, err := addUserRule(path, r)
			switch {
			case errors.Is(err, errRuleExists):
				fmt.Fprintf(a.stdout, "%s already has this rule (%s): nothing to do\n", path, r.id())
				return nil
			case err != nil:
				return err
			}
			what := "command"
			if r.Kind == "mcp" {
				what = "MCP tool"
			}
			fmt.Fprintf(a.stdout, "added rule user:%s to %s: %s %s %s\n", r.id(), path, map[string]string{"allow": "allow", "deny": "deny"}[decision], what, printable(r.Glob))
			if backup != "" {
				fmt.Fprintf(a.stdout, "previous content saved as %s\n", backup)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&mcp, "mcp", false, "PATTERN is an MCP server/tool glob")
	c.Flags().StringVar(&from, "from", "", "take the pattern from the audit record or pending approval with this `ID`")
	c.Flags().StringVar(&reason, "reason", "", "shown to the human and the agent when the rule decides (`TEXT`)")
	return c
}

// patternFrom finds the request of an audit record or pending approval and turns it into a
// rule pattern.
func (a *app) patternFrom(cmd *cobra.Command, id string) (kind, glob string, err error) {
	ctx, cancel := context.WithTimeout(cmd.Context(), approvalCallTimeout)
	defer cancel()
	var (
		k   riskmodel.Kind
		raw json.RawMessage
	)
	if files, ferr := a.auditFiles(cmd); ferr == nil {
		if rec, _, ferr := audit.Find(ctx, files, id); ferr == nil {
			var r audit.Record
			if err := json.Unmarshal(rec, &r); err != nil {
				return "", "", fmt.Errorf("audit record %s: %w", id, err)
			}
			k, raw = r.Kind, r.Request
		}
	}
	if raw == nil {
		cl, err := a.adminClient()
		if err != nil {
			return "", "", err
		}
		p, err := cl.Approval(ctx, id)
		if err != nil {
			return "", "", usageErrorf("--from %s: no audit record with that id, and guardian serve has no such approval: %v", id, err)
		}
		k, raw = p.Kind, p.Request
	}
	req, err := guardian.DecodePayload(k, raw)
	if err != nil {
		return "", "", fmt.Errorf("--from %s: %w", id, err)
	}
	if k == riskmodel.KindMCP {
		return "mcp", req.MCP.Server + "/" + req.MCP.Tool, nil
	}
	glob, err = commandPattern(req.Exec.Command)
	if err != nil {
		return "", "", usageErrorf("--from %s: %v", id, err)
	}
	return "exec", glob, nil
}

// commandPattern turns an argv — or the script of `bash -c SCRIPT` — into the glob of one
// rule: the words of its single simple command, joined by spaces. Anything a glob cannot say
// exactly is refused with what to do instead.
func commandPattern(argv []string) (string, error) {
	words := argv
	if len(argv) == 3 && (argv[1] == "-c" || argv[1] == "-lc") && strings.Contains("bash sh zsh dash", argv[0]) {
		f, err := syntax.NewParser().Parse(strings.NewReader(argv[2]), "")
		if err != nil {
			return "", fmt.Errorf("the command does not parse as shell: %w", err)
		}
		if len(f.Stmts) != 1 {
			return "", fmt.Errorf("the command line holds %d commands: add a rule for each (guardian allow 'COMMAND')", len(f.Stmts))
		}
		st := f.Stmts[0]
		if _, ok := st.Cmd.(*syntax.BinaryCmd); ok {
			return "", errors.New("the command line holds several commands (joined by &&, || or |): add a rule for each (guardian allow 'COMMAND')")
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(st.Redirs) > 0 || len(call.Assigns) > 0 || st.Background || st.Negated {
			return "", errors.New("the command is not one simple command (a pipeline, a redirection, an assignment, …): write the rule's pattern yourself")
		}
		words = nil
		for _, w := range call.Args {
			lit := w.Lit()
			if lit == "" {
				return "", errors.New("the command has quoted or expanded words a pattern cannot match exactly: write the rule's pattern yourself")
			}
			words = append(words, lit)
		}
	}
	for _, w := range words {
		if strings.ContainsAny(w, "*?[") || strings.Contains(w, "[REDACTED") || w == "" {
			return "", fmt.Errorf("the word %q cannot be matched exactly by a pattern (a glob character, a redacted secret, or empty): write the rule's pattern yourself", w)
		}
	}
	return strings.Join(words, " "), nil
}
