package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

func (a *app) reviewCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "review [--json] -",
		Short: "Review one approval request and answer allow, ask or deny",
		Long: `Review one approval request and answer allow, ask or deny with an assessment.

  guardian review exec [flags] -- ARGV...     a shell command (argv)
  guardian review exec --shell 'STRING'       a shell command line, reviewed as bash -c STRING
  guardian review mcp --server S --tool T     an MCP tool call
  guardian review --json -                    one JSON request on stdin:
                                              {"kind":"exec"|"mcp","request":{...}}

--json writes the result as one line of JSON instead of text, for every form:
{"decision","status","decided_by","assessment":{"summary","risk_level","category","rationale","findings"}}

The user config (--config) and the project file of the request's cwd apply.

` + exitCodesHelp,
		Example: `  guardian review exec -- rm -rf ~/
  guardian review exec --cwd ~/src/app --justification 'run the tests' -- go test ./...
  guardian review exec --json --shell 'git push --force origin main'
  guardian review mcp --server posthog --tool exec --args '{"command":"notebooks-destroy","id":42}'
  echo '{"kind":"exec","request":{"command":["git","status"],"cwd":"/src/app"}}' | guardian review --json -`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return usageErrorf("review: missing request: use 'review exec …', 'review mcp …' or 'review --json -' with the JSON request on stdin")
			case args[0] != "-":
				msg := fmt.Sprintf("review: unknown request form %q: use 'review exec …', 'review mcp …' or 'review --json -'", args[0])
				if s := suggest(cmd, args[0]); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				return usageErrorf("%s", msg)
			case len(args) > 1:
				return usageErrorf("review -: unexpected arguments after -: %q (the request is read from stdin)", args[1:])
			}
			req, err := a.readRequest(cmd.InOrStdin())
			if err != nil {
				return err
			}
			return a.submit(cmd, req)
		},
	}
	c.PersistentFlags().BoolVar(&a.jsonOut, "json", false, "write the result as one line of JSON")
	c.AddCommand(a.reviewExecCmd(), a.reviewMCPCmd())
	return c
}

// readRequest reads the JSON request envelope from r; an exec request without a cwd gets the
// working directory, as on the command line.
func (a *app) readRequest(r io.Reader) (guardian.Request, error) {
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&fs.ModeCharDevice != 0 {
			return guardian.Request{}, usageErrorf("review -: stdin is a terminal; pipe the JSON request in, e.g. echo '{\"kind\":\"exec\",\"request\":{\"command\":[\"ls\"]}}' | guardian review --json -")
		}
	}
	req, err := guardian.ReadRequest(r)
	if err != nil {
		return guardian.Request{}, invalidError(fmt.Errorf("stdin: %w", err))
	}
	if req.Kind == riskmodel.KindExec && req.Exec.Cwd == "" {
		wd, err := a.workdir()
		if err != nil {
			return guardian.Request{}, err
		}
		req.Exec.Cwd = wd
	}
	return req, nil
}

// execFlags are the flags of `review exec`.
type execFlags struct {
	cwd           string
	justification string
	sandboxReason string
	shell         string
}

func (a *app) reviewExecCmd() *cobra.Command {
	var f execFlags
	c := &cobra.Command{
		Use:   "exec [flags] [--] ARGV...",
		Short: "Review a shell command",
		Long: `Review a shell command the agent's sandbox blocked.

The command is either an argv after the flags (put it after -- when it starts with a dash;
flags after the first word of ARGV belong to ARGV) or, with --shell, one shell command line
that is reviewed as ["bash","-c",STRING]. Shell wrappers, pipelines, && and || are analysed
segment by segment; the most restrictive segment wins.`,
		Example: `  guardian review exec -- rm -rf ~/
  guardian review exec --cwd /home/dev/proj --sandbox-reason 'network' -- curl https://example.com
  guardian review exec --shell 'cd build && make clean'`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			wd, err := a.workdir()
			if err != nil && !filepath.IsAbs(f.cwd) {
				return err
			}
			req, err := f.request(args, cmd.Flags().Changed("shell"), wd)
			if err != nil {
				return err
			}
			if f.cwd != "" && a.statDir != nil {
				if err := a.statDir(req.Exec.Cwd); err != nil {
					return usageErrorf("review exec: --cwd %s: %v", f.cwd, err)
				}
			}
			return a.submit(cmd, req)
		},
	}
	c.Flags().SetInterspersed(false)
	c.Flags().StringVar(&f.cwd, "cwd", "", "`DIR` to run the command in (default: the working directory)")
	c.Flags().StringVar(&f.justification, "justification", "", "the agent's reason for the command, as untrusted `TEXT`")
	c.Flags().StringVar(&f.sandboxReason, "sandbox-reason", "", "why the sandbox blocked the command, as `TEXT`")
	c.Flags().StringVar(&f.shell, "shell", "", "review the shell command line `STRING` as bash -c STRING (instead of ARGV)")
	return c
}

// checkDir reports why dir cannot be a --cwd: a typo there would review the command against
// a workspace it will not run in. (A request read from JSON may name a directory of another
// machine, as an agent host's would; it is not checked.)
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("no such directory (%s); give the directory the command runs in, or send the request as JSON on stdin (guardian review --json -) to review it for a directory of another machine", dir)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// request builds the exec request; wd resolves a missing or relative --cwd.
func (f execFlags) request(args []string, shellSet bool, wd string) (guardian.Request, error) {
	var argv []string
	switch {
	case shellSet && len(args) > 0:
		return guardian.Request{}, usageErrorf("review exec: --shell and ARGV are mutually exclusive: give the command either as --shell 'STRING' or after --")
	case shellSet:
		if strings.TrimSpace(f.shell) == "" {
			return guardian.Request{}, usageErrorf("review exec: --shell needs a non-empty command line")
		}
		argv = []string{"bash", "-c", f.shell}
	case len(args) == 0:
		return guardian.Request{}, usageErrorf("review exec: missing command: give it after -- (review exec -- ARGV...) or as --shell 'STRING'")
	default:
		argv = args
	}
	cwd := f.cwd
	switch {
	case cwd == "":
		cwd = wd
	case !filepath.IsAbs(cwd):
		cwd = filepath.Join(wd, cwd)
	default:
		cwd = filepath.Clean(cwd)
	}
	return guardian.ExecRequest(riskmodel.ExecRequest{
		Command:       argv,
		Cwd:           cwd,
		Justification: f.justification,
		SandboxReason: f.sandboxReason,
	}), nil
}

// mcpFlags are the flags of `review mcp`.
type mcpFlags struct {
	server, tool, args, title, description, message, annotations string
	workspace                                                    []string
}

func (a *app) reviewMCPCmd() *cobra.Command {
	var f mcpFlags
	c := &cobra.Command{
		Use:   "mcp --server S --tool T [flags]",
		Short: "Review an MCP tool call",
		Long: `Review an MCP tool call (or the elicitation that asks about one).

--args is the call's arguments as a JSON object; --annotations the tool's MCP annotations
(readOnlyHint, destructiveHint, idempotentHint, openWorldHint) as a JSON object.
--workspace (repeatable) is the project the call belongs to, as the MCP host's roots would
say: paths inside it are the workspace. Without it the workspace is guessed from the call's
own paths. "/" and the home directory are never a workspace.`,
		Example: `  guardian review mcp --server posthog --tool exec --args '{"command":"notebooks-destroy","id":42}'
  guardian review mcp --server fs --tool read_file --args '{"path":"README.md"}' --annotations '{"readOnlyHint":true}'
  guardian review mcp --server filesystem --tool write_file --workspace ~/src/app --args '{"path":"/home/dev/src/app/main.go","content":"…"}'`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			wd := ""
			if slices.ContainsFunc(f.workspace, func(w string) bool { return w != "" && !filepath.IsAbs(w) }) {
				var err error
				if wd, err = a.workdir(); err != nil {
					return err
				}
			}
			req, err := f.request(wd)
			if err != nil {
				return err
			}
			return a.submit(cmd, req)
		},
	}
	c.Flags().StringVar(&f.server, "server", "", "the MCP server's `NAME` (required)")
	c.Flags().StringVar(&f.tool, "tool", "", "the tool's `NAME` (required)")
	c.Flags().StringVar(&f.args, "args", "", "the call's arguments as a `JSON` object")
	c.Flags().StringVar(&f.title, "title", "", "the tool's title `TEXT`")
	c.Flags().StringVar(&f.description, "description", "", "the tool's description `TEXT`")
	c.Flags().StringVar(&f.message, "message", "", "the elicitation's question to the human, as `TEXT`")
	c.Flags().StringVar(&f.annotations, "annotations", "", "the tool's annotations as a `JSON` object")
	c.Flags().StringArrayVar(&f.workspace, "workspace", nil, "a `DIR` of the project the call belongs to (repeatable; relative to the working directory)")
	return c
}

// request builds the MCP request; wd resolves a relative --workspace.
func (f mcpFlags) request(wd string) (guardian.Request, error) {
	var missing []string
	if f.server == "" {
		missing = append(missing, "--server")
	}
	if f.tool == "" {
		missing = append(missing, "--tool")
	}
	if len(missing) > 0 {
		return guardian.Request{}, usageErrorf("review mcp: missing %s", strings.Join(missing, " and "))
	}
	r := riskmodel.MCPRequest{Server: f.server, Tool: f.tool, Title: f.title, ToolDescription: f.description, Message: f.message}
	for _, w := range f.workspace {
		switch {
		case strings.TrimSpace(w) == "":
			return guardian.Request{}, usageErrorf("review mcp: --workspace needs a directory, e.g. --workspace ~/src/app")
		case filepath.IsAbs(w):
			w = filepath.Clean(w)
		default:
			w = filepath.Join(wd, w)
		}
		r.Workspace = append(r.Workspace, w)
	}
	if f.args != "" {
		args, err := jsonObjectFlag("--args", f.args)
		if err != nil {
			return guardian.Request{}, err
		}
		r.Arguments = args
	}
	if f.annotations != "" {
		var ann riskmodel.ToolAnnotations
		if err := decodeFlagJSON("--annotations", f.annotations, &ann, true); err != nil {
			if strings.Contains(err.Error(), "unknown field") {
				err = usageErrorf("%v (known: readOnlyHint, destructiveHint, idempotentHint, openWorldHint)", err)
			}
			return guardian.Request{}, err
		}
		r.Annotations = &ann
	}
	return guardian.MCPRequest(r), nil
}

// jsonObjectFlag decodes a flag's value, which must be one JSON object.
func jsonObjectFlag(flag, s string) (map[string]any, error) {
	var v any
	if err := decodeFlagJSON(flag, s, &v, false); err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, usageErrorf("invalid %s: want a JSON object like {\"key\":\"value\"}, got %s", flag, jsonKind(v))
	}
	return m, nil
}

// decodeFlagJSON decodes one JSON value from a flag, naming the flag and the line and column of
// a syntax error. strict refuses unknown object keys.
func decodeFlagJSON(flag, s string, v any, strict bool) error {
	dec := json.NewDecoder(strings.NewReader(s))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return usageErrorf("invalid %s: %s", flag, describeJSONError(s, err))
	}
	off := int(dec.InputOffset())
	if rest := strings.TrimLeft(s[off:], " \t\r\n"); rest != "" {
		return usageErrorf("invalid %s: %s: unexpected data after the JSON value", flag, position(s, len(s)-len(rest)))
	}
	return nil
}

// describeJSONError says where in s and what went wrong decoding it, in JSON's terms.
func describeJSONError(s string, err error) string {
	return guardian.DescribeJSONError([]byte(s), err).Error()
}

// position renders the byte index i of s as "line L, column C", both 1-based; i == len(s) is
// the end of the input.
func position(s string, i int) string {
	i = min(max(i, 0), len(s))
	line := 1 + strings.Count(s[:i], "\n")
	col := i - strings.LastIndexByte(s[:i], '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}

// review runs the request through the pipeline, writes the result and returns the decision's
// exit status.
func (a *app) review(cmd *cobra.Command, req guardian.Request) error {
	if err := req.Validate(); err != nil {
		return invalidError(err)
	}
	dir := ""
	if req.Kind == riskmodel.KindExec && filepath.IsAbs(req.Exec.Cwd) {
		dir = req.Exec.Cwd
	} else if wd, err := a.getwd(); err == nil {
		dir = wd
	}
	p, err := a.pipeline(cmd, dir)
	if err != nil {
		return err
	}
	res, err := p.Review(cmd.Context(), req)
	if err != nil {
		return invalidError(err)
	}
	if err := writeResult(cmd.OutOrStdout(), res, a.jsonOut); err != nil {
		return err
	}
	return decisionExit(res.Decision)
}

// writeResult writes a result as one line of JSON or as text for a human.
func writeResult(w io.Writer, res guardian.Result, asJSON bool) error {
	if asJSON {
		return guardian.WriteResultJSON(w, res)
	}
	var b strings.Builder
	as := res.Assessment
	fmt.Fprintf(&b, "%s  %s  %s\n", strings.ToUpper(res.Decision.String()), as.Level, as.Category)
	if as.Summary != "" {
		fmt.Fprintf(&b, "%s\n", as.Summary)
	}
	if as.Rationale != "" {
		fmt.Fprintf(&b, "why:  %s\n", as.Rationale)
	}
	if len(as.Findings) > 0 {
		b.WriteString("findings:\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, f := range as.Findings {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", f.RuleID, f.Level, f.Category, oneLine(f.Segment), oneLine(f.Message))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(&b, "decided by %s (status %s)\n", res.DecidedBy, res.Status)
	_, err := io.WriteString(w, b.String())
	return err
}

// oneLine keeps a finding on one row: newlines and tabs of multi-line segments become spaces.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' || r == '\t' }), " ")
}
