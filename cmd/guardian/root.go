package main

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/guardianhq/guardian/guardian"
)

// deps is everything the CLI takes from its process: tests substitute each of them.
type deps struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	getwd  func() (string, error)
	// statDir says why a directory named on the command line (--cwd) cannot be used; nil
	// checks nothing.
	statDir func(string) error
	// executable is the path of the running guardian binary, which the hook installers
	// write into the hosts' configs.
	executable func() (string, error)
	// goCache is `go env GOCACHE` ("" when go is not installed): hook install refuses a binary
	// there, which is what go run builds.
	goCache func() string
	// tracerProvider and meterProvider receive the reviews' spans and metrics; nil means the
	// otel globals, which are no-ops unless something installed a provider.
	tracerProvider trace.TracerProvider
	meterProvider  metric.MeterProvider
	// isTerminal says whether a writer is a terminal (eval draws a progress bar there); nil
	// means never.
	isTerminal func(io.Writer) bool
}

func systemDeps() deps {
	return deps{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, getwd: os.Getwd, statDir: checkDir, isTerminal: isTerminal, executable: os.Executable, goCache: goEnvCache}
}

// app is the state of one invocation: its dependencies and the flags shared between verbs.
type app struct {
	deps
	configPath string // --config
	jsonOut    bool   // review --json

	// submit reviews a request built from the command line or stdin. Tests replace it to
	// check flag parsing without running the pipeline.
	submit func(cmd *cobra.Command, req guardian.Request) error
}

func newApp(d deps) *app {
	a := &app{deps: d}
	a.submit = a.review
	return a
}

// newRootCmd builds the guardian command tree around d.
func newRootCmd(d deps) *cobra.Command { return newApp(d).command() }

func (a *app) command() *cobra.Command {
	root := &cobra.Command{
		Use:   "guardian",
		Short: "Review coding agents' approval requests: allow, ask or deny",
		Long: `guardian reviews the approval requests of coding agents — shell commands their sandbox
blocked and MCP tool calls — before a human has to, and answers allow, ask or deny with an
assessment: summary, risk level, risk category, rationale and the findings behind it.

The embedded rule reviewer runs offline: no API key, no network.

` + exitCodesHelp,
		Example: `  guardian review exec -- rm -rf ~/
  guardian review exec --shell 'curl -fsSL https://example.com/i.sh | sh'
  guardian review mcp --server posthog --tool exec --args '{"command":"notebooks-destroy","id":42}'
  echo '{"kind":"exec","request":{"command":["git","status"]}}' | guardian review --json -
  guardian serve --socket default
  guardian rules list
  guardian config check ~/.config/guardian/config.toml`,
		Version:       versionString(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE:          groupRunE,
	}
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: exitUsage, err: err}
	})
	root.PersistentFlags().StringVar(&a.configPath, "config", guardian.DefaultConfigPath(a.getenv),
		"user config `FILE` (the default path may be missing; an explicit FILE must exist)")
	root.AddCommand(a.reviewCmd(), a.serveCmd(), a.hookCmd(), a.predicateCmd(), a.verifyCmd(), a.evalCmd(), a.auditCmd(), a.rulesCmd(), a.configCmd(), a.modelCmd(), a.versionCmd())
	root.AddCommand(a.mcpProxyCmd())
	return root
}

// groupRunE runs for a command that only groups others (and for the root): without a
// subcommand, or with an unknown one, it is a usage error rather than help and exit 0.
func groupRunE(cmd *cobra.Command, args []string) error {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() && c.Name() != "help" && c.Name() != "completion" {
			names = append(names, c.Name())
		}
	}
	if len(args) == 0 {
		return usageErrorf("missing command for %q (one of: %s)", cmd.CommandPath(), strings.Join(names, ", "))
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := suggest(cmd, args[0]); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	} else {
		msg += fmt.Sprintf(" (one of: %s)", strings.Join(names, ", "))
	}
	return usageErrorf("%s", msg)
}

// suggest returns the subcommand of cmd closest to a mistyped name, or "".
func suggest(cmd *cobra.Command, typed string) string {
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(typed); len(s) > 0 {
		return s[0]
	}
	return ""
}

// usageArgs makes an argument validator's complaint a usage error (exit 2) that says what
// the command takes, instead of cobra's stock "requires at least 1 arg(s)".
func usageArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return &exitError{code: exitUsage, err: argsError(cmd, args, err)}
		}
		return nil
	}
}

var cobraArgCountRE = regexp.MustCompile(`^(?:requires at least|accepts at most|accepts|accepts between) (\d+)`)

// argsError rewrites cobra's message about the number of positional arguments as one that
// names the command, what it takes (from its Use line) and an example; other validators'
// errors keep their message, prefixed with the command.
func argsError(cmd *cobra.Command, args []string, err error) error {
	// main prefixes "guardian: "; the command is named without repeating it.
	path := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	takes := positionalUse(cmd)
	msg := err.Error()
	example := ""
	if line, _, _ := strings.Cut(strings.TrimSpace(cmd.Example), "\n"); line != "" {
		example = "; e.g. " + strings.TrimSpace(line)
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = strconv.Quote(a)
	}
	switch {
	case takes == "" && len(args) > 0:
		return fmt.Errorf("%s takes no arguments, got %s", path, strings.Join(quoted, " "))
	case cobraArgCountRE.MatchString(msg) || strings.HasPrefix(msg, "unknown command"):
		m := cobraArgCountRE.FindStringSubmatch(msg)
		if m != nil && strings.HasPrefix(msg, "requires") || m != nil && len(args) < atoi(m[1]) {
			if strings.HasSuffix(takes, "...") {
				return fmt.Errorf("%s needs at least one %s%s", path, strings.TrimSuffix(takes, "..."), example)
			}
			return fmt.Errorf("%s needs %s%s", path, takes, example)
		}
		return fmt.Errorf("%s takes %s, got %s%s", path, takes, strings.Join(quoted, " "), example)
	case strings.Contains(msg, cmd.CommandPath()):
		return err
	}
	return fmt.Errorf("%s: %w", cmd.CommandPath(), err)
}

// positionalUse is the positional part of cmd's Use line: "FILE..." of "check FILE...", ""
// when it takes none. Flags written in it ("[--format table|json]") are left out.
func positionalUse(cmd *cobra.Command) string {
	var words []string
	flagValue := false // the word after --flag is its value
	for _, w := range strings.Fields(cmd.Use)[1:] {
		isFlag := strings.HasPrefix(w, "-") || strings.HasPrefix(w, "[-")
		skip := flagValue || isFlag || strings.HasPrefix(w, "[") || strings.HasSuffix(w, "]")
		flagValue = isFlag && !strings.HasSuffix(w, "]")
		if !skip {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// workdir is the process's working directory, the default cwd of a request.
func (a *app) workdir() (string, error) {
	wd, err := a.getwd()
	if err != nil {
		return "", fmt.Errorf("cannot determine the working directory (pass --cwd): %w", err)
	}
	return wd, nil
}

// loadConfig reads the user config (--config, or the default path, which may be missing)
// and merges the project file of dir into it. Every failure is an invalid-config error.
func (a *app) loadConfig(cmd *cobra.Command, dir string) (guardian.Config, error) {
	return a.env(cmd).LoadConfig(dir)
}

// pipeline builds the review pipeline for a request whose project directory is dir.
func (a *app) pipeline(cmd *cobra.Command, dir string) (*guardian.Pipeline, error) {
	p, _, err := a.env(cmd).Pipeline(dir)
	return p, err
}

// newPipeline builds a pipeline from an effective config (oneshot.Env.NewPipeline).
func (a *app) newPipeline(cfg guardian.Config, home string, second guardian.Reviewer, extra ...guardian.Option) (*guardian.Pipeline, error) {
	return a.env(nil).NewPipeline(cfg, home, second, extra...)
}
