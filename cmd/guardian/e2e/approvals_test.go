package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guardianhq/guardian/riskmodel"
)

// TestApprovalQueue runs Claude Code headless (-p, where an ask cannot be answered and acts
// as deny) with guardian's hook delegating to a guardian serve, GUARDIAN_APPROVALS=queue in
// the host's environment. The command is one the rules ask about; while the host waits, a
// person answers from another terminal: guardian approve lets it run, guardian deny stops it
// with the reason.
func TestApprovalQueue(t *testing.T) {
	s := need(t)
	h := claudeHost{bin: s.claude}
	for _, tc := range []struct {
		verb   string
		args   []string
		marked bool
	}{
		{"approve", []string{"--as", "alice"}, true},
		{"deny", []string{"--as", "bob", "--reason", "not during the freeze"}, false},
	} {
		t.Run(tc.verb, func(t *testing.T) {
			w := preparedWorld(t, h)
			// A hook timeout of 60 s leaves the person 53 s (deadline 55 s, less 2 s to reply).
			install(t, h, w, s.guardian, "--timeout", "60")
			sock := filepath.Join(w.root, "g.sock")
			env := []string{"GUARDIAN_SOCKET=" + sock}
			serve := startServe(t, w, s.guardian, env)
			defer serve()

			answered := make(chan error, 1)
			go func() { answered <- answerFirst(w, s.guardian, env, tc.verb, tc.args) }()
			// chmod in the temporary project: a command the rules ask about whose running
			// harms nothing outside the test (docker system prune, used before, would really
			// prune a Docker daemon reachable through its socket, which no namespace isolates).
			cmd := fmt.Sprintf("touch %s && chmod -R 777 .", w.mark("prune"))
			r := h.Run(t, w, h.Shell(cmd), runOpts{Permissive: true, Env: append(env, "GUARDIAN_APPROVALS=queue")})
			if err := <-answered; err != nil {
				t.Fatalf("guardian %s: %v\n%s", tc.verb, err, r.describe())
			}
			if got := w.marked("prune"); got != tc.marked {
				t.Fatalf("after guardian %s the command ran = %v, want %v\n%s", tc.verb, got, tc.marked, r.describe())
			}
			if !tc.marked && !strings.Contains(r.Result.Text, "not during the freeze") {
				t.Errorf("the model was not told the reason: %q", r.Result.Text)
			}
			recs := w.audited(t)
			var ask, answer bool
			for _, rec := range recs {
				ask = ask || (rec.Decision == riskmodel.Ask && rec.AskedBy == "" && rec.Caller.Host == "claude")
				answer = answer || (strings.HasPrefix(rec.DecidedBy, "human:") && rec.Pending != "" && rec.WaitMS > 0)
			}
			if !ask || !answer {
				t.Fatalf("audit log: want guardian's ask and the person's answer, got %+v", recs)
			}
			t.Logf("claude -p waited %s for guardian %s", r.took, tc.verb)
		})
	}
}

// startServe runs guardian serve on the world's socket until the returned function stops it.
func startServe(t *testing.T, w world, bin string, env []string) func() {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "serve", "--socket", "default")
	cmd.Dir, cmd.Env = w.project, w.env(env...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() { cancel(); _ = cmd.Wait() }
	for deadline := time.Now().Add(20 * time.Second); ; {
		probe := exec.Command(bin, "pending")
		probe.Dir, probe.Env = w.project, w.env(env...)
		if probe.Run() == nil {
			break
		}
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("guardian serve did not answer within 20 s:\n%s", out.String())
		}
		<-time.After(50 * time.Millisecond) // pacing the poll of a process starting up
	}
	return stop
}

// answerFirst waits for the first pending approval and answers it with guardian VERB.
func answerFirst(w world, bin string, env []string, verb string, args []string) error {
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); <-time.After(100 * time.Millisecond) {
		c := exec.Command(bin, "pending", "--json")
		c.Dir, c.Env = w.project, w.env(env...)
		out, err := c.Output()
		if err != nil {
			return fmt.Errorf("guardian pending: %w", err)
		}
		var list struct{ Pending []struct{ ID string } }
		if err := json.Unmarshal(out, &list); err != nil {
			return fmt.Errorf("guardian pending --json: %w: %s", err, out)
		}
		if len(list.Pending) == 0 {
			continue
		}
		a := exec.Command(bin, append([]string{verb, list.Pending[0].ID}, args...)...)
		a.Dir, a.Env = w.project, w.env(env...)
		if out, err := a.CombinedOutput(); err != nil {
			return fmt.Errorf("%w: %s", err, out)
		}
		return nil
	}
	return errors.New("no pending approval within 60 s")
}
