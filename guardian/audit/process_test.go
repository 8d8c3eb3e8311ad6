package audit_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/guardianhq/guardian/guardian/audit"
)

// child returns a command that re-runs the test binary as an appending child (see TestMain).
func child(t *testing.T, mode, path string, sync audit.SyncMode, perWorker, workers int, maxSize int64) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(),
		childEnv+"="+mode,
		childPath+"="+path,
		childSync+"="+sync.String(),
		childN+"="+strconv.Itoa(perWorker),
		childWorkers+"="+strconv.Itoa(workers),
		childMaxSize+"="+strconv.FormatInt(maxSize, 10),
	)
	cmd.Stderr = &bytes.Buffer{}
	return cmd
}

// TestConcurrentProcesses has four processes append 200 records each to one log at once: the
// result must be one valid chain holding every acknowledged record exactly once.
func TestConcurrentProcesses(t *testing.T) {
	tests := []struct {
		name    string
		sync    audit.SyncMode
		workers int   // goroutines per process
		maxSize int64 // 0: no rotation
	}{
		{"record", audit.SyncRecord, 1, 0},
		{"batch", audit.SyncBatch, 4, 0},
		{"batch with rotation", audit.SyncBatch, 4, 64 << 10},
		{"record with rotation", audit.SyncRecord, 2, 64 << 10},
	}
	const procs, perProc = 4, 200
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			cmds := make([]*exec.Cmd, procs)
			outs := make([]*bytes.Buffer, procs)
			for i := range cmds {
				cmds[i] = child(t, "count", path, tt.sync, perProc/tt.workers, tt.workers, tt.maxSize)
				outs[i] = &bytes.Buffer{}
				cmds[i].Stdout = outs[i]
				if err := cmds[i].Start(); err != nil {
					t.Fatal(err)
				}
			}
			for i, c := range cmds {
				if err := c.Wait(); err != nil {
					t.Fatalf("child %d: %v\n%s", i, err, c.Stderr)
				}
			}
			rep := verifyLog(t, path)
			requireOK(t, rep, procs*perProc)
			inLog := idsInLog(t, path)
			acked := 0
			for _, out := range outs {
				for _, id := range scanIDs(out.Bytes()) {
					acked++
					if inLog[id] != 1 {
						t.Errorf("acknowledged id %s is in the log %d times", id, inLog[id])
					}
				}
			}
			if acked != procs*perProc {
				t.Errorf("%d records acknowledged, want %d", acked, procs*perProc)
			}
			if files, _ := audit.Files(path); tt.maxSize > 0 && len(files) < 2 {
				t.Errorf("no rotation happened: %v", files)
			}
			// Recent sees the other processes' records: the last records of the file.
			l, err := audit.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			recent, err := l.Recent(context.Background(), 3)
			if err != nil {
				t.Fatal(err)
			}
			lines := readLines(t, path)
			for i, r := range recent {
				if want := lines[len(lines)-3+i]; !bytes.Equal(r, want) {
					t.Errorf("recent[%d] = %s, want %s", i, r, want)
				}
			}
		})
	}
}

// TestKill9 SIGKILLs a process that appends in a loop. Every id it acknowledged (printed after
// Append returned) must be in the log, the complete records must verify, and whatever torn
// tail the kill left must be reported, then moved aside by the next append.
func TestKill9(t *testing.T) {
	for _, mode := range []audit.SyncMode{audit.SyncRecord, audit.SyncBatch} {
		t.Run(mode.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			cmd := child(t, "loop", path, mode, 0, 4, 0)
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Let it acknowledge a few hundred records, then kill it mid-stride.
			var seen bytes.Buffer
			r := bufio.NewReader(stdout)
			for n := 0; n < 300; n++ {
				line, err := r.ReadBytes('\n')
				seen.Write(line)
				if err != nil {
					t.Fatalf("child stopped early: %v\n%s", err, cmd.Stderr)
				}
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			rest, _ := io.ReadAll(r)
			seen.Write(rest)
			if err := cmd.Wait(); err == nil {
				t.Fatal("the child exited cleanly; it was meant to be killed")
			}

			acked := scanIDs(seen.Bytes())
			rep := verifyLog(t, path)
			if rep.Problem != nil {
				t.Fatalf("after kill -9: %s", rep.Problem)
			}
			inLog := idsInLog(t, path)
			for _, id := range acked {
				if inLog[id] != 1 {
					t.Errorf("acknowledged id %s is in the log %d times", id, inLog[id])
				}
			}
			if rep.Records < len(acked) {
				t.Errorf("%d records verified, fewer than the %d acknowledged", rep.Records, len(acked))
			}
			t.Logf("%d acknowledged, %d records verified, torn tail: %+v", len(acked), rep.Records, rep.Torn)

			// The next append recovers whatever the kill left and continues the chain.
			l, err := audit.Open(path, audit.WithLogger(new(logBuffer).logger()))
			if err != nil {
				t.Fatal(err)
			}
			appendN(t, l, 1)
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			requireOK(t, verifyLog(t, path), rep.Records+1)
		})
	}
}

func TestChildFailsCleanly(t *testing.T) {
	// A child that cannot open its log says so and exits non-zero: the harness itself is
	// checked, so a broken child cannot pass for a quiet one.
	cmd := child(t, "count", t.TempDir(), audit.SyncRecord, 1, 1, 0) // a directory, not a file
	out, err := cmd.Output()
	if err == nil {
		t.Fatalf("child appended to a directory: %s", out)
	}
	if !bytes.Contains(cmd.Stderr.(*bytes.Buffer).Bytes(), []byte("child:")) {
		t.Errorf("stderr = %s", cmd.Stderr)
	}
}
