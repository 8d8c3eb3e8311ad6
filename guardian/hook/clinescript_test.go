package hook

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClineScript runs guardian's Cline hook script as Cline 3.0.65 does (`sh FILE`, the call
// on stdin, stdout read, the exit status ignored) around hook commands that fail in every way
// guardian itself cannot answer for, and checks that what Cline reads is a cancel each time —
// and that guardian's own two answers pass through unchanged.
func TestClineScript(t *testing.T) {
	payload := `{"hookName":"tool_call","tool_call":{"id":"c1","name":"run_commands","input":{"commands":["ls"]}}}`
	_, hasTimeout := exec.LookPath("timeout")
	for _, tc := range []struct {
		name, command string
		timeoutMS     int
		want          string // the script's stdout, or "cancel: TEXT" for a cancel of its own
	}{
		{"allow passes", `grep -q '"run_commands"' && printf '{}\n'`, 15000, "{}\n"},
		{"cancel passes", `cat >/dev/null; echo '{"cancel":true,"errorMessage":"guardian: Deletes the home directory"}'`, 15000,
			`{"cancel":true,"errorMessage":"guardian: Deletes the home directory"}` + "\n"},
		{"crash", `exit 1`, 15000, "cancel: exited with status 1"},
		{"cancel then crash", `echo '{}'; exit 3`, 15000, "cancel: exited with status 3"},
		{"killed", `kill -9 $$`, 15000, "cancel: killed or gave no answer within 15 s (exit status 137)"},
		{"missing", `/nonexistent/guardian hook cline`, 15000, "cancel: exited with status 127"},
		{"empty", `true`, 15000, "cancel: exited 0 and printed nothing"},
		{"garbage", `echo 'guardian_faults: not a hook reply'`, 15000, "cancel: printed no answer of guardian's"},
		{"other JSON", `echo '{"cancel":false}'`, 15000, "cancel: printed no answer of guardian's"},
		{"two lines", `printf '{"cancel":true,"errorMessage":"a"}\n{}\n'`, 15000, "cancel: more than one line"},
		{"hang", `sleep 5; printf '{}\n'`, 1000, map[bool]string{true: "cancel: no answer within 1 s", false: "{}\n"}[hasTimeout == nil]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "PreToolUse")
			if err := os.WriteFile(path, clineScript(tc.command, tc.timeoutMS), 0o700); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("sh", path)
			cmd.Stdin = strings.NewReader(payload)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("the script failed: %v\n%s", err, stderr.Bytes())
			}
			var reply map[string]any
			if err := json.Unmarshal(out, &reply); err != nil || bytes.Count(out, []byte("\n")) != 1 {
				t.Fatalf("stdout %q is not one line of JSON (Cline would run the tool): %v", out, err)
			}
			if text, own := strings.CutPrefix(tc.want, "cancel: "); own {
				msg, _ := reply["errorMessage"].(string)
				if reply["cancel"] != true || !strings.HasPrefix(msg, "guardian could not review this tool call") || !strings.Contains(msg, text) {
					t.Fatalf("stdout %s, want a cancel saying %q", out, text)
				}
			} else if string(out) != tc.want {
				t.Fatalf("stdout %q, want %q", out, tc.want)
			}
			if got, want := interpretCline(out, 0), map[bool]string{true: "allow", false: "deny"}[tc.want == "{}\n"]; got != want {
				t.Errorf("interpretCline reads the script's answer as %s, want %s", got, want)
			}
		})
	}
}

// BenchmarkClineScript is what guardian's Cline hook script adds to every tool call: the
// script run as Cline runs it (`sh FILE`) around a hook command that answers at once, so the
// time is the two shells and coreutils' timeout, not guardian.
func BenchmarkClineScript(b *testing.B) {
	path := filepath.Join(b.TempDir(), "PreToolUse")
	if err := os.WriteFile(path, clineScript(`cat >/dev/null; printf '{}\n'`, 15000), 0o700); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cmd := exec.Command("sh", path)
		cmd.Stdin = strings.NewReader(`{"hookName":"tool_call"}`)
		if out, err := cmd.Output(); err != nil || string(out) != "{}\n" {
			b.Fatalf("%q, %v", out, err)
		}
	}
}

// BenchmarkClineScriptBaseline is the same hook command run directly by `sh -c`, what a
// script that only ran the command would cost: the difference is the script's own price.
func BenchmarkClineScriptBaseline(b *testing.B) {
	for b.Loop() {
		cmd := exec.Command("sh", "-c", `cat >/dev/null; printf '{}\n'`)
		cmd.Stdin = strings.NewReader(`{"hookName":"tool_call"}`)
		if out, err := cmd.Output(); err != nil || string(out) != "{}\n" {
			b.Fatalf("%q, %v", out, err)
		}
	}
}
