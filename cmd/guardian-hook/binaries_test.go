package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// buildBinaries builds guardian-hook (static, as make build links it) and, with guardian
// set, guardian, into dir.
func buildBinaries(t *testing.T, dir string, guardian bool) {
	t.Helper()
	pkgs := map[string]string{"guardian-hook": "."}
	if guardian {
		pkgs["guardian"] = "../guardian"
	}
	for name, pkg := range pkgs {
		cmd := exec.Command(goTool(t), "build", "-o", filepath.Join(dir, name), pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
}

// hookProcess is one run of a hook binary.
type hookProcess struct {
	code           int
	stdout, stderr string
	audit          []string // the audit log's records, normalised (see normaliseRecord)
}

// runHook runs exe with args in home (its own state and runtime directories, the user config
// under home/config), with payload on stdin, and then reads and removes what it left in
// the state directory, so that the next run in the same home starts from the same state.
func runHook(t *testing.T, exe, home string, args []string, payloads []string, extraEnv []string) []hookProcess {
	t.Helper()
	env := append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_RUNTIME_DIR=" + filepath.Join(home, "run"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config")}, extraEnv...)
	var runs []hookProcess
	for _, payload := range payloads {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(exe, args...)
		cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, strings.NewReader(payload), &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		code := 0
		switch {
		case errors.As(err, &ee):
			code = ee.ExitCode()
		case err != nil:
			t.Fatalf("%s: %v", exe, err)
		}
		runs = append(runs, hookProcess{code: code, stdout: stdout.String(), stderr: stderr.String()})
	}
	state := filepath.Join(home, "state")
	data, err := os.ReadFile(filepath.Join(state, "guardian", "audit.jsonl"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line != "" {
			runs[len(runs)-1].audit = append(runs[len(runs)-1].audit, normaliseRecord(line))
		}
	}
	if err := os.RemoveAll(state); err != nil {
		t.Fatal(err)
	}
	return runs
}

// volatile are the audit record's fields that differ between two runs of the same call: its
// id, time and latency, and the hash chain over them.
var volatile = regexp.MustCompile(`"(id|time|latency_ms|prev|hash)":("[^"]*"|[0-9.e+-]+)`)

func normaliseRecord(line string) string {
	return volatile.ReplaceAllString(line, `"$1":_`)
}

// TestLeanAnswersAsGuardian runs guardian-hook and guardian on the same calls, in the same
// home, and wants the same bytes from both: reply, stderr, exit status and audit records (but
// for their ids, times and latencies). The rules-only cases are answered by guardian-hook
// itself; the model cases are handed to guardian (the model's endpoint does not answer, so
// the review falls back to ask), and must read exactly as guardian's own answer, the payload
// passed on intact.
func TestLeanAnswersAsGuardian(t *testing.T) {
	if testing.Short() {
		t.Skip("builds guardian and guardian-hook")
	}
	bin := t.TempDir()
	buildBinaries(t, bin, true)
	const cwd = `"cwd":"/w/p"`
	claude := func(event, tool, input string) string {
		return `{"session_id":"s1",` + cwd + `,"hook_event_name":"` + event + `","tool_name":"` + tool + `","tool_input":` + input + `,"tool_use_id":"toolu_1"}`
	}
	cases := []struct {
		name     string
		args     []string
		payloads []string
		env      []string
		want     string // in the first reply, rules only: what the table covers
	}{
		{"claude allow", []string{"hook", "claude"}, []string{claude("PreToolUse", "Bash", `{"command":"git status"}`)}, nil, `"permissionDecision":"allow"`},
		{"claude deny", []string{"hook", "claude"}, []string{claude("PreToolUse", "Bash", `{"command":"rm -rf ~/"}`)}, nil, `"permissionDecision":"deny"`},
		{"claude ask, then the person's answer", []string{"hook", "claude"}, []string{
			claude("PreToolUse", "Bash", `{"command":"chmod -R 777 ."}`),
			claude("PostToolUse", "Bash", `{"command":"chmod -R 777 ."}`)}, nil, `"permissionDecision":"ask"`},
		{"claude MCP tool", []string{"hook", "claude"}, []string{claude("PreToolUse", "mcp__gh__delete_repo", `{"repo":"x"}`)}, nil, `"permissionDecision":"deny"`},
		{"claude file write", []string{"hook", "claude"}, []string{claude("PreToolUse", "Write", `{"file_path":"/h/.bashrc","content":"x"}`)}, nil, `"permissionDecision":"ask"`},
		{"claude no opinion", []string{"hook", "claude"}, []string{claude("PreToolUse", "TodoWrite", `{"todos":[]}`)}, nil, ""},
		{"claude malformed", []string{"hook", "claude"}, []string{`{"tool_name":`}, nil, `could not review`},
		{"claude monitor", []string{"hook", "claude", "--monitor"}, []string{claude("PreToolUse", "Bash", `{"command":"rm -rf ~/"}`)}, nil, ""},
		{"codex", []string{"hook", "codex"}, []string{`{"session_id":"s1","turn_id":"t1",` + cwd + `,"hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"git push --force origin main"},"tool_use_id":"call_1"}`}, nil, `→ deny`},
		{"gemini", []string{"hook", "gemini"}, []string{`{"session_id":"s1",` + cwd + `,"hook_event_name":"BeforeTool","timestamp":"2026-11-24T10:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~/"}}`}, nil, `"decision":"deny"`},
		{"qwen", []string{"hook", "qwen"}, []string{`{"session_id":"s1",` + cwd + `,"hook_event_name":"PreToolUse","timestamp":"2026-11-24T10:00:00.000Z","permission_mode":"yolo","tool_use_id":"call_1","tool_call_id":"call_1","tool_name":"run_shell_command","tool_input":{"command":"git status","is_background":false}}`}, nil, `{}`},
		{"copilot", []string{"hook", "copilot"}, []string{`{"sessionId":"s1","timestamp":1767225600000,` + cwd + `,"toolName":"bash","toolArgs":{"command":"rm -rf ~/"}}`}, nil, `"permissionDecision":"deny"`},
		{"opencode", []string{"hook", "opencode"}, []string{`{"hook_event_name":"tool.execute.before","tool":"bash","sessionID":"ses_1","callID":"call_1","args":{"command":"git status","description":"look"},"directory":"/w/p","worktree":"/"}`}, nil, `allow`},
		{"cline", []string{"hook", "cline"}, []string{`{"clineVersion":"","timestamp":"2026-11-24T12:03:01.434Z","taskId":"t1","workspaceRoots":["/w/p"],"hookName":"tool_call","iteration":1,"tool_call":{"id":"call_1","name":"run_commands","input":{"commands":["rm -rf ~/"]}},"preToolUse":{"toolName":"run_commands","parameters":{"commands":"[\"rm -rf ~/\"]"}}}`}, nil, `"cancel":true`},
		{"cursor", []string{"hook", "cursor"}, []string{`{"conversation_id":"c1","generation_id":"g1","hook_event_name":"preToolUse",` + cwd + `,"workspace_roots":["/w/p"],"model":"auto","cursor_version":"2.4.0","tool_name":"Shell","tool_input":{"command":"git push --force origin main","cwd":"/w/p"},"tool_use_id":"tool_1"}`}, nil, `"permission":"deny"`},
		{"predicate allow", []string{"predicate"}, []string{""}, []string{"CODEX_COMMAND=git status", "CODEX_HOST_CWD=/w/p", "CODEX_SESSION_ID=s1"}, `allow`},
		{"predicate deny", []string{"predicate"}, []string{""}, []string{"CODEX_COMMAND=rm -rf ~/", "CODEX_HOST_CWD=/w/p", "CODEX_SESSION_ID=s1"}, `deny`},
	}
	for _, config := range []struct{ name, text string }{
		{"rules only", ""},
		{"invalid config", "[review]\ndeadlin = \"5s\"\n"},
		// A model whose endpoint refuses the connection at once: guardian-hook hands these
		// calls to guardian.
		{"model", "[model]\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:9/v1\"\ntimeout = \"1s\"\n"},
	} {
		for _, tc := range cases {
			if config.name != "rules only" && !strings.HasPrefix(tc.name, "claude") && !strings.HasPrefix(tc.name, "predicate") && tc.name != "gemini" {
				continue // the other hosts differ from these only in the protocol, which the rules-only run covers
			}
			t.Run(config.name+"/"+tc.name, func(t *testing.T) {
				home := t.TempDir()
				writeFile(t, filepath.Join(home, "config", "guardian", "config.toml"), config.text)
				args := append(append([]string{}, tc.args...), "--deadline", "10s")
				lean := runHook(t, filepath.Join(bin, "guardian-hook"), home, args, tc.payloads, tc.env)
				if r := lean[0].stdout + lean[0].stderr; config.text == "" && !strings.Contains(r, tc.want) {
					t.Errorf("guardian-hook answered %q, want %q", r, tc.want)
				}
				full := runHook(t, filepath.Join(bin, "guardian"), home, args, tc.payloads, tc.env)
				for i := range lean {
					l, f := lean[i], full[i]
					if l.code != f.code || l.stdout != f.stdout || l.stderr != f.stderr {
						t.Errorf("call %d:\nguardian-hook: exit %d, stdout %q, stderr %q\nguardian:      exit %d, stdout %q, stderr %q", i, l.code, l.stdout, l.stderr, f.code, f.stdout, f.stderr)
					}
				}
				l, f := lean[len(lean)-1].audit, full[len(full)-1].audit
				if strings.Join(l, "\n") != strings.Join(f, "\n") {
					t.Errorf("audit records differ:\nguardian-hook: %s\nguardian:      %s", strings.Join(l, "\n               "), strings.Join(f, "\n               "))
				}
				if len(l) == 0 && tc.name != "claude no opinion" && tc.name != "claude malformed" {
					t.Errorf("no audit record")
				}
			})
		}
	}
}

// TestHandoffExecFails runs guardian-hook with no runnable guardian beside it: a call that
// needs guardian gets the fail-safe reply (ask, never allow), saying why, the audit log
// records it, and the model breaker does not count it; a call that needs no network is still
// answered; with telemetry asked for, the call is answered without it, as before.
func TestHandoffExecFails(t *testing.T) {
	if testing.Short() {
		t.Skip("builds guardian-hook")
	}
	const model = "[model]\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"
	payload := func(command string) string {
		return `{"session_id":"s1","cwd":"/w/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + command + `"},"tool_use_id":"toolu_1"}`
	}
	for _, tc := range []struct {
		name     string
		command  string // the Bash command; default: git status
		guardian bool   // a file named guardian beside guardian-hook, not executable
		config   string
		env      []string
		reply    string // in stdout
		stderr   string
		failsafe bool // the audit record is the fail-safe's
	}{
		{name: "no guardian, model configured, rules ask", command: "chmod -R 777 .", config: model, reply: `"permissionDecision":"ask","permissionDecisionReason":"guardian could not review this tool call, so it asks you: the rules leave this call to the model review (m), which only guardian reaches, but `, failsafe: true},
		{name: "guardian not executable, model configured, rules ask", command: "chmod -R 777 .", guardian: true, config: model, reply: `guardian cannot run (permission denied): install guardian beside guardian-hook`, failsafe: true},
		{name: "no guardian, model configured, rules allow", config: model, reply: `"permissionDecision":"allow"`},
		{name: "no guardian, GUARDIAN_URL", env: []string{"GUARDIAN_URL=http://127.0.0.1:9"}, reply: `GUARDIAN_URL: the guardian serve at http://127.0.0.1:9 decides this call, which only guardian reaches, but `, failsafe: true},
		{name: "no guardian, rules only", reply: `"permissionDecision":"allow"`},
		{name: "no guardian, telemetry", env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:9"}, reply: `"permissionDecision":"allow"`, stderr: "guardian: telemetry off: OTEL_EXPORTER_OTLP_ENDPOINT is set, and only guardian exports telemetry, but "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := t.TempDir()
			buildBinaries(t, bin, false)
			if tc.guardian {
				writeFile(t, filepath.Join(bin, "guardian"), "#!/bin/sh\necho allow\n") // mode 0644: not executable
			}
			home := t.TempDir()
			writeFile(t, filepath.Join(home, "config", "guardian", "config.toml"), tc.config)
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(filepath.Join(bin, "guardian-hook"), "hook", "claude", "--deadline", "10s")
			cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_STATE_HOME=" + filepath.Join(home, "state"),
				"XDG_RUNTIME_DIR=" + filepath.Join(home, "run"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config")}, tc.env...)
			command := tc.command
			if command == "" {
				command = "git status"
			}
			cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(payload(command)), &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("guardian-hook: %v (stderr %q)", err, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.reply) {
				t.Errorf("reply %q, want %q", stdout.String(), tc.reply)
			}
			if tc.failsafe && strings.Contains(stdout.String(), "allow") {
				t.Errorf("reply %q allows", stdout.String())
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.stderr)
			}
			audit, err := os.ReadFile(filepath.Join(home, "state", "guardian", "audit.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(audit), `"status":"failsafe"`); got != tc.failsafe {
				t.Errorf("audit log %s: fail-safe record %v, want %v", audit, got, tc.failsafe)
			}
			// The model was never asked: its breaker, shared with guardian, must not count it.
			if b, _ := os.ReadFile(filepath.Join(home, "state", "guardian", "breakers.json")); strings.Contains(string(b), "model_failures") {
				t.Errorf("breaker state %s counts a model failure", b)
			}
		})
	}
}
