// Command guardian-hook is guardian's lean entry for the agent hosts' hooks: it answers
// `guardian-hook hook HOST` and `guardian-hook predicate` exactly as guardian answers
// `guardian hook HOST` and `guardian predicate` (same flags, same replies, same audit log,
// through guardian/oneshot), and nothing else.
//
// A host starts its hook afresh for every tool call, so the hook's cost is its process
// start. guardian links the MCP proxy's server (whose JSON-schema compiler compiles five
// metaschemas at package init), the Prometheus and OTLP exporters and the eval harness; their
// initialisation alone takes longer than a rules review. This binary links none of them
// (TestLeanDeps checks it). `guardian hook install` writes this binary into the hosts'
// configs when it lies beside guardian, and guardian itself otherwise.
//
// It links no network client either (no net/http, TLS, model or serve client): it answers the
// rules-only configuration itself, and hands a call that needs the network — a guardian
// serve, a model review, telemetry (OTEL_EXPORTER_OTLP_ENDPOINT) — unchanged to the guardian
// beside it (handoff.go).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/guardianhq/guardian/guardian/hook"
	"github.com/guardianhq/guardian/guardian/oneshot"
)

// Exit statuses of the command line itself; a hook exchange exits 0 or with its reply's own.
const exitUsage = 2

func main() {
	// One P: a hook call is one review in one goroutine, and with a second P idle every
	// goroutine the call starts (the review's, the audit writer's, the timers') wakes a new
	// thread to run it, in a process that lives ~4 ms. Measured: 0.15–0.2 ms less wall
	// time per call (docs/hooks.md, "What a hook call costs"). The deadline still holds: the
	// runtime preempts a review that runs long, so hook.Run's timer fires.
	runtime.GOMAXPROCS(1)
	os.Exit(mainExit())
}

func mainExit() int {
	args := os.Args[1:]
	if strings.TrimSpace(os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")) != "" {
		// Only guardian exports telemetry; this call is answered by it (exec replaces this
		// process, so the host sees one process, one reply). When it cannot be run, the call
		// is answered here without telemetry, as guardian does when its telemetry is off.
		err := execGuardian(args)
		fmt.Fprintf(os.Stderr, "guardian: telemetry off: OTEL_EXPORTER_OTLP_ENDPOINT is set, and only guardian exports telemetry, but %v\n", err)
	}
	ctx, stop := interruptible(context.Background(), signalDelay)
	defer stop()
	stdin := &recordingReader{r: os.Stdin}
	net := handoff{stdin: &stdin.buf, exec: func(b []byte) error { return execGuardianWith(args, b) }}
	return run(ctx, args, oneshot.Env{Getenv: os.Getenv, Getwd: os.Getwd, Stderr: os.Stderr, Network: net}, stdin, os.Stdout)
}

// run answers one command line: [--config FILE] hook HOST [--deadline D] [--monitor], or
// [--config FILE] predicate [--deadline D]. env's ConfigPath is set from --config.
func run(ctx context.Context, args []string, env oneshot.Env, stdin io.Reader, stdout io.Writer) int {
	cfg, rest, err := configFlag(args)
	if err != nil {
		return usage(env.Stderr, err)
	}
	env.ConfigPath = cfg
	var p hook.Protocol
	fs := flag.NewFlagSet("guardian-hook", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	deadline := fs.Duration("deadline", hook.DefaultDeadline, "answer within `DURATION`, whatever happens")
	var monitor *bool
	var approvals *string
	switch {
	case len(rest) >= 2 && rest[0] == "hook":
		h, ok := host(rest[1])
		if !ok {
			return usage(env.Stderr, fmt.Errorf("unknown host %q (one of: %s)", rest[1], strings.Join(hostNames(), ", ")))
		}
		p = h.Protocol
		monitor = fs.Bool("monitor", false, "monitor mode: record every call, give the host no verdict")
		approvals = fs.String("approvals", "", "queue, host or auto: whether guardian serve holds an ask for a person (default $GUARDIAN_APPROVALS, else auto)")
		rest = rest[2:]
	case len(rest) >= 1 && rest[0] == "predicate":
		p = hook.Predicate{}
		rest = rest[1:]
	case len(rest) == 1 && (rest[0] == "-h" || rest[0] == "--help" || rest[0] == "help"):
		fmt.Fprint(stdout, usageText())
		return 0
	default:
		return usage(env.Stderr, errors.New("want: hook HOST [--deadline D] [--monitor] [--approvals MODE], or predicate [--deadline D]"))
	}
	if err := fs.Parse(rest); err != nil {
		return usage(env.Stderr, err)
	}
	if fs.NArg() > 0 {
		return usage(env.Stderr, fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	if monitor != nil && *monitor {
		p = hook.Monitor(p)
	}
	if approvals != nil {
		switch *approvals {
		case "", "auto", "queue", "host":
			env.Approvals = *approvals
		default:
			return usage(env.Stderr, fmt.Errorf("--approvals %q: want queue, host or auto", *approvals))
		}
	}
	return env.Answer(ctx, p, stdin, stdout, *deadline)
}

// configFlag takes guardian's persistent --config flag out of args, wherever it stands.
func configFlag(args []string) (path string, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--config":
			if i+1 >= len(args) {
				return "", nil, errors.New("flag needs an argument: --config")
			}
			path = args[i+1]
			i++
		case strings.HasPrefix(a, "--config="):
			path = strings.TrimPrefix(a, "--config=")
		default:
			rest = append(rest, a)
		}
	}
	return path, rest, nil
}

func host(name string) (hook.Host, bool) {
	for _, h := range hook.Hosts() {
		if h.Name == name {
			return h, true
		}
	}
	return hook.Host{}, false
}

func hostNames() []string {
	var names []string
	for _, h := range hook.Hosts() {
		names = append(names, h.Name)
	}
	return names
}

func usageText() string {
	return "Usage: guardian-hook [--config FILE] hook " + strings.Join(hostNames(), "|") + " [--deadline 8s] [--monitor] [--approvals MODE]\n" +
		"       guardian-hook [--config FILE] predicate [--deadline 8s]\n\n" +
		"guardian's lean entry for the hosts' hooks: the same answers as guardian hook and\n" +
		"guardian predicate, from a process that starts faster. Everything else: guardian.\n"
}

// usage reports a command line guardian-hook cannot act on (exit 2). A host never runs such a
// command line unless its config was edited by hand; exit 2 is a block for Claude Code.
func usage(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "guardian: %v\n%s", err, usageText())
	return exitUsage
}
