package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/guardianhq/guardian/mcp/fixture"
)

// TestMain lets the test binary double as the guardian command inside the scripts, and as
// the upstream MCP servers of guardian mcp-proxy's tests (mcp-fixture tools|codex).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"guardian":    func() { os.Exit(mainExit()) },
		"mcp-fixture": func() { os.Exit(fixture.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout)) },
	})
}

// TestScripts runs testdata/script/*.txtar. Besides the standard testscript commands they can use:
//
//	exitcode CODES PROG ARGS...  run PROG (like exec) and require its exit status to be one of
//	                             CODES, e.g. 3 or 0|10|20; stdout/stderr stay inspectable.
//	                             CODES "decision": the code must be that of the decision in
//	                             the JSON result on stdout (allow 0, ask 10, deny 20)
//	bigenv NAME BYTES            set $NAME to BYTES letters, to build oversized arguments
//	bigrequest FILE BYTES        write an exec request envelope of at least BYTES bytes to FILE
//	installbin DIR               copy the guardian program to DIR/guardian and put DIR first
//	                             on $PATH, as an install would: the hooks then run that copy

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// Never pick up the real user's config.
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exitcode":   cmdExitcode,
			"bigenv":     cmdBigenv,
			"bigrequest": cmdBigrequest,
			"installbin": cmdInstallbin,
		},
	})
}

func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode CODE[|CODE...]|decision program [args...]")
	}
	want := map[int]bool{}
	if args[0] != "decision" {
		for _, s := range strings.Split(args[0], "|") {
			n, err := strconv.Atoi(s)
			if err != nil {
				ts.Fatalf("exitcode: bad code %q", s)
			}
			want[n] = true
		}
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if args[0] == "decision" {
		var res struct{ Decision string }
		if err := json.Unmarshal([]byte(ts.ReadFile("stdout")), &res); err != nil {
			ts.Fatalf("exitcode decision: stdout is not a JSON result: %v", err)
		}
		codes := map[string]int{"allow": exitAllow, "ask": exitAsk, "deny": exitDeny}
		c, ok := codes[res.Decision]
		if !ok {
			ts.Fatalf("exitcode decision: unknown decision %q", res.Decision)
		}
		want[c] = true
	}
	if !want[got] {
		ts.Fatalf("exit status %d, want %s", got, args[0])
	}
}

func cmdInstallbin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: installbin DIR")
	}
	src, err := exec.LookPath("guardian")
	ts.Check(err)
	data, err := os.ReadFile(src)
	ts.Check(err)
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	ts.Check(os.WriteFile(filepath.Join(dir, "guardian"), data, 0o755))
	ts.Setenv("PATH", dir+string(filepath.ListSeparator)+ts.Getenv("PATH"))
}

func cmdBigenv(ts *testscript.TestScript, neg bool, args []string) {
	n := sizeArg(ts, neg, args, "usage: bigenv NAME BYTES")
	ts.Setenv(args[0], strings.Repeat("a", n))
}

func cmdBigrequest(ts *testscript.TestScript, neg bool, args []string) {
	n := sizeArg(ts, neg, args, "usage: bigrequest FILE BYTES")
	body := `{"kind":"exec","request":{"command":["echo","` + strings.Repeat("a", n) + `"],"cwd":"/tmp"}}` + "\n"
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(body), 0o666))
}

// sizeArg checks a "NAME BYTES" command line and returns BYTES.
func sizeArg(ts *testscript.TestScript, neg bool, args []string, usage string) int {
	if neg || len(args) != 2 {
		ts.Fatalf("%s", usage)
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 0 {
		ts.Fatalf("%s", usage)
	}
	return n
}
