// Command guardian reviews the approval requests of coding agents — shell commands and MCP
// tool calls — and answers allow, ask or deny with an assessment.
//
// Every verb lives in its own file; the root command is built by newRootCmd from its
// dependencies (stdin, stdout, stderr, environment, working directory), so tests run the
// whole CLI in-process with no global state.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() { os.Exit(mainExit()) }

// mainExit runs the CLI against the real process environment and returns the exit status.
func mainExit() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	d := systemDeps()
	tel, err := newTelemetry(ctx, d.getenv)
	if err != nil {
		// Telemetry is optional; a hook that exited 3 over a bad OTEL_* variable in the host's
		// environment would let every tool call run (hosts fail open on such exits).
		fmt.Fprintf(d.stderr, "guardian: telemetry off: %v\n", err)
	} else {
		d.tracerProvider, d.meterProvider = tel.tp, tel.mp
	}
	code := run(ctx, os.Args[1:], d)
	if tel != nil {
		if err := tel.flush(); err != nil {
			fmt.Fprintf(d.stderr, "guardian: telemetry: %v\n", err)
		}
	}
	return code
}

// run executes one command line and returns its exit status (see exitcode.go). Errors are
// printed here, once, as "guardian: …"; usage errors add a pointer to the help.
func run(ctx context.Context, args []string, d deps) int {
	root := newRootCmd(d)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	code := exitCode(err)
	if msg := errorMessage(err); msg != "" {
		fmt.Fprintf(d.stderr, "guardian: %s\n", msg)
		if code == exitUsage {
			path := root.CommandPath()
			if cmd != nil {
				path = cmd.CommandPath()
			}
			fmt.Fprintf(d.stderr, "Run '%s --help' for usage.\n", path)
		}
	}
	return code
}
