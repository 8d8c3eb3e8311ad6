package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkHookProcess measures what a host pays per tool call: the whole process of a hook
// answering a routine Claude Code payload (Bash `git status`, allowed by the rules, audited
// with fsync), from exec to exit, for guardian-hook and for guardian itself. It builds both
// binaries first, as make build does, and runs copies of them (see copyBinary). Besides ns/op (the mean) it reports the median, the figure docs/hooks.md
// quotes; `make hook-time` runs it. Run with -benchtime 200x or more: one op is one process.
func BenchmarkHookProcess(b *testing.B) {
	bin := b.TempDir()
	for _, pkg := range []string{".", "../guardian"} {
		name := filepath.Base(pkg)
		if pkg == "." {
			name = "guardian-hook"
		}
		cmd := exec.Command(goTool(b), "build", "-o", filepath.Join(bin, name), pkg)
		if name == "guardian-hook" {
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as make build links it
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
		copyBinary(b, filepath.Join(bin, name))
	}
	payload := []byte(claudePayload("git status"))
	for _, exe := range []string{"guardian-hook", "guardian"} {
		b.Run(exe, func(b *testing.B) {
			run := hookRunner(b, filepath.Join(bin, exe), payload)
			times := make([]time.Duration, 0, b.N)
			for b.Loop() {
				times = append(times, run())
			}
			b.ReportMetric(median(times), "median-ms")
		})
	}
	// With GUARDIAN_HOOK_BASELINE naming another guardian-hook binary (make hook-time
	// HOOKBASE=…), the two run in turn, one call each per round, so that both see the same
	// load: on a shared machine the load drifts more between two runs of this benchmark than
	// a change of a few tenths of a millisecond.
	if base := os.Getenv("GUARDIAN_HOOK_BASELINE"); base != "" {
		baseCopy := filepath.Join(bin, "guardian-hook-baseline")
		data, err := os.ReadFile(base)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(baseCopy, data, 0o755); err != nil {
			b.Fatal(err)
		}
		b.Run("guardian-hook-vs-baseline", func(b *testing.B) {
			run, runBase := hookRunner(b, filepath.Join(bin, "guardian-hook"), payload), hookRunner(b, baseCopy, payload)
			times, baseTimes := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
			for b.Loop() {
				times = append(times, run())
				baseTimes = append(baseTimes, runBase())
			}
			b.ReportMetric(median(times), "median-ms")
			b.ReportMetric(median(baseTimes), "baseline-median-ms")
		})
	}
}

// hookRunner returns a function that runs exe as a Claude Code hook on payload, in a home of
// its own, and returns the process's wall time.
func hookRunner(b *testing.B, exe string, payload []byte) func() time.Duration {
	home := b.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_RUNTIME_DIR=" + filepath.Join(home, "run"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config")}
	var stdout bytes.Buffer
	return func() time.Duration {
		stdout.Reset()
		cmd := exec.Command(exe, "hook", "claude", "--deadline", "10s")
		cmd.Env, cmd.Stdin, cmd.Stdout = env, bytes.NewReader(payload), &stdout
		start := time.Now()
		err := cmd.Run()
		took := time.Since(start)
		if err != nil || !strings.Contains(stdout.String(), `"permissionDecision":"allow"`) {
			b.Fatalf("%s hook claude: %v, reply %q", exe, err, stdout.String())
		}
		return took
	}
}

// median is the median of times in milliseconds.
func median(times []time.Duration) float64 {
	slices.Sort(times)
	return float64(times[len(times)/2].Microseconds()) / 1000
}

// copyBinary replaces the file at path with a copy of itself. The linker writes its output
// through a memory map, and a process started from a file written that way starts about a
// millisecond slower (on Linux 6.18, ext4) than one started from a copy of the same bytes
// written with write(2), as an installed binary read back from disk is: page faults on the
// file cost more, not more of them (docs/hooks.md, "What a hook call costs"). Timing the
// copy measures what a host pays, and compares builds fairly.
func copyBinary(b *testing.B, path string) {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	tmp := path + ".copy"
	if err := os.WriteFile(tmp, data, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
}
