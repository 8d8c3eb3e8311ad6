//go:build unix

package interop_test

// How a stdio proxy ends: the contract says it exits 0 when the host closes its stdin, or on
// SIGTERM, and kills its upstream subprocesses.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInteropProxyExit starts a server over stdio, initializes it with raw JSON-RPC lines,
// then closes its stdin or sends it SIGTERM, and checks that it exits 0 and that every
// process it started is gone. The direct phase runs the same against upstream.mjs alone,
// which proves the harness.
//
// "Gone" is observed without polling: the test hands the server the write end of a pipe as
// an extra file; the upstream inherits it from the proxy, so reading the pipe reaches EOF
// exactly when every process holding it has exited.
func TestInteropProxyExit(t *testing.T) {
	s, sb := parallelSuite(t)
	for _, how := range []string{"stdin-closed", "sigterm"} {
		t.Run(how, func(t *testing.T) {
			directThenProxy(t, s, func(t *testing.T) *report {
				checkExit(t, sb, how, s.upstreamCmd())
				return &report{}
			}, func(t *testing.T, _ *report) {
				checkExit(t, sb, how, s.proxyCmd(nil, s.upstreamCmd()...))
			})
		})
	}
}

// exitGuard bounds each wait of checkExit; it only keeps a hang from stalling the suite.
const exitGuard = 30 * time.Second

func checkExit(t *testing.T, sb sandbox, how string, command []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), scenarioTimeout)
	defer cancel()
	alive, held, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer alive.Close()
	cmd := sb.command(ctx, command[0], command[1:]...)
	cmd.ExtraFiles = []*os.File{held}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := newWatchedOutput(dataRace)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	held.Close() // only the server and its children hold it now
	defer killGroup(cmd)
	fail := func(format string, args ...any) {
		t.Helper()
		killGroup(cmd)
		t.Fatalf("%s: "+format+"\nstderr:\n%s", append([]any{strings.Join(command, " ")}, append(args, stderr)...)...)
	}

	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
		`"capabilities":{"elicitation":{}},"clientInfo":{"name":"guardian-interop-exit","version":"1"}}}` + "\n"
	if _, err := io.WriteString(stdin, initialize); err != nil {
		fail("write initialize: %v", err)
	}
	if err := within(exitGuard, func() error { return readResponse(stdout, 1) }); err != nil {
		fail("initialize: %v", err)
	}
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		fail("write initialized: %v", err)
	}
	go io.Copy(io.Discard, stdout) // whatever it still says must not block it

	switch how {
	case "stdin-closed":
		stdin.Close()
	case "sigterm":
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			fail("SIGTERM: %v", err)
		}
	}
	if err := within(exitGuard, cmd.Wait); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			fail("after %s it exited %v, want 0", how, exit)
		}
		fail("after %s: %v", how, err)
	}
	if err := within(exitGuard, func() error {
		_, err := io.Copy(io.Discard, alive)
		return err
	}); err != nil {
		fail("after it exited (%s), a process it started still runs (the upstream must be killed): %v", how, err)
	}
	if strings.Contains(stderr.String(), dataRace) {
		t.Errorf("%s: the race detector reported a data race:\n%s", strings.Join(command, " "), stderr)
	}
}

// readResponse reads JSON-RPC lines until the response with id.
func readResponse(r io.Reader, id int) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var msg struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			return errors.New("stdout carried a line that is not JSON-RPC: " + sc.Text())
		}
		if msg.ID != nil && *msg.ID == id {
			if msg.Error != nil {
				return errors.New("error response: " + string(msg.Error))
			}
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return io.ErrUnexpectedEOF
}

// within runs f and returns its error, or an error when it has not returned after d (f keeps
// running; the caller kills what it waits on).
func within(d time.Duration, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		return errors.New("no result within " + d.String() + " (hung?)")
	}
}
