package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian/oneshot"
)

// openModelBreaker is a breaker state file whose model breaker is open for a long while.
const openModelBreaker = `{"model_failures":5,"model_retry_at":"2999-01-01T00:00:00Z"}`

// errFakeExec stands for guardian failing to start in the in-process hand-off tests.
var errFakeExec = errors.New("fake exec: guardian not started")

// TestHandoffDecision checks which calls guardian-hook answers itself and which it hands to
// guardian: only a call that needs the network (a guardian serve, a model review) goes to
// guardian; every other configuration — including an invalid one, whose error must read as
// guardian's — is answered here. The hand-off's exec is a fake that fails, so a handed-off
// call must end with the fail-safe reply (never an allow), and the payload it would have
// passed on must be the one the host sent.
func TestHandoffDecision(t *testing.T) {
	const modelTOML = "[model]\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"
	for _, tc := range []struct {
		name    string
		args    []string // default: hook claude
		stdin   string   // default: a Claude Code Bash command in the project
		command string   // that command; default: git status
		env     map[string]string
		user    string // the user config's text; "" means no file
		project string // the project file's text (in the payload's cwd); "" means none
		socket  string // "socket": a listening unix socket at the serve's default path; "file": a regular file there
		// breakers is the breaker state file's content; "" means none.
		breakers string
		// handoff is a substring of the reason given when the call is handed off; "" means
		// it must be answered here.
		handoff string
		stdout  string // a substring of the reply
		stderr  string // a substring
		code    int
	}{
		{name: "no config", stdout: `"permissionDecision":"allow"`},
		{name: "rules-only config", user: "[review]\ndeadline = \"5s\"\n", stdout: `"permissionDecision":"allow"`},
		{name: "audit settings", user: "[audit]\nsync = \"batch\"\n", stdout: `"permissionDecision":"allow"`},
		{name: "a shared store is serve's, not the hook's", user: "[store]\nurl = \"redis://127.0.0.1:6379/0\"\n", stdout: `"permissionDecision":"allow"`},
		{name: "deny by the rules", stdin: claudePayload("rm -rf ~/"), stdout: `"permissionDecision":"deny"`},
		{name: "monitor mode", args: []string{"hook", "claude", "--monitor"}},
		{name: "approvals queue without a serve", args: []string{"hook", "claude", "--approvals", "queue"}, stdout: `"permissionDecision":"allow"`},
		{name: "a regular file at the socket path", socket: "file", stdout: `"permissionDecision":"allow"`},
		{name: "invalid user config: guardian's error, here", user: "[review]\ndeadlin = \"5s\"\n", stdout: `key \"review.deadlin\"`},
		{name: "bad model variable: guardian's error, here", env: map[string]string{"GUARDIAN_MODEL_TIMEOUT": "forever", "GUARDIAN_MODEL": "m", "GUARDIAN_MODEL_BASE_URL": "http://127.0.0.1:9/v1"}, stdout: `GUARDIAN_MODEL_TIMEOUT=\"forever\"`},
		{name: "untrusted project naming a model: the config error, here", project: modelTOML, stdout: `this project is not trusted`},
		{name: "malformed payload with a model configured: nothing to review", user: modelTOML, stdin: `{"tool_name":`, code: 2, stderr: "guardian could not review"},
		{name: "a tool guardian has no opinion on, with a model", user: modelTOML, stdin: `{"session_id":"s1","cwd":"/w/p","hook_event_name":"PreToolUse","tool_name":"TodoWrite","tool_input":{"todos":[]},"tool_use_id":"t1"}`},

		{name: "model configured, rules allow", user: modelTOML, stdout: `"permissionDecision":"allow"`},
		{name: "model configured, rules deny", user: modelTOML, command: "rm -rf ~/", stdout: `"permissionDecision":"deny"`},
		{name: "model configured, an open model breaker", user: modelTOML, command: "chmod -R 777 .", breakers: openModelBreaker, stdout: `the model is skipped`},
		{name: "model in the user config, rules ask", user: modelTOML, command: "chmod -R 777 .", handoff: "rules leave this call to the model review (m)", stdout: `"permissionDecision":"ask"`},
		{name: "model from the environment, rules ask", command: "chmod -R 777 .", env: map[string]string{"GUARDIAN_MODEL": "m", "GUARDIAN_MODEL_BASE_URL": "http://127.0.0.1:9/v1"}, handoff: "model review (m)", stdout: `"permissionDecision":"ask"`},
		{name: "model in a trusted project file, rules ask", command: "chmod -R 777 .", user: "trusted_projects = [\"PROJECT\"]\n", project: modelTOML, handoff: "model review (m)", stdout: `"permissionDecision":"ask"`},
		{name: "model, monitor mode, rules ask", command: "chmod -R 777 .", user: modelTOML, args: []string{"hook", "claude", "--monitor"}, handoff: "model review"},
		{name: "model, predicate, rules ask", user: modelTOML, args: []string{"predicate"}, stdin: "-", env: map[string]string{"CODEX_COMMAND": "chmod -R 777 .", "CODEX_HOST_CWD": "/w/p"}, handoff: "model review", stdout: "ask"},
		{name: "model, predicate, rules allow", user: modelTOML, args: []string{"predicate"}, stdin: "-", env: map[string]string{"CODEX_COMMAND": "git status", "CODEX_HOST_CWD": "/w/p"}, stdout: "allow"},
		{name: "GUARDIAN_URL", env: map[string]string{"GUARDIAN_URL": "http://127.0.0.1:9"}, handoff: "serve at http://127.0.0.1:9", stdout: `GUARDIAN_URL: the guardian serve`},
		{name: "GUARDIAN_URL beats an invalid config", env: map[string]string{"GUARDIAN_URL": "http://127.0.0.1:9"}, user: "[review]\ndeadlin = \"5s\"\n", handoff: "serve at", stdout: `"permissionDecision":"ask"`},
		{name: "a socket at the default path", socket: "socket", handoff: "serve at unix://", stdout: `"permissionDecision":"ask"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			project := filepath.Join(home, "proj")
			env := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "XDG_RUNTIME_DIR": filepath.Join(home, "run"), "XDG_CONFIG_HOME": filepath.Join(home, "config")}
			for k, v := range tc.env {
				env[k] = v
			}
			writeFile(t, filepath.Join(home, "config", "guardian", "config.toml"), strings.ReplaceAll(tc.user, "PROJECT", project))
			writeFile(t, filepath.Join(project, ".guardian.toml"), tc.project)
			writeFile(t, filepath.Join(home, "state", "guardian", "breakers.json"), tc.breakers)
			if err := os.MkdirAll(filepath.Join(project, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			sock := filepath.Join(home, "run", "guardian", "guardian.sock")
			switch tc.socket {
			case "socket":
				if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
					t.Fatal(err)
				}
				ln, err := net.Listen("unix", sock)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { ln.Close() })
			case "file":
				writeFile(t, sock, "not a socket")
			}
			stdin := tc.stdin
			switch stdin {
			case "":
				command := tc.command
				if command == "" {
					command = "git status"
				}
				stdin = strings.Replace(claudePayload(command), "/home/dev/app", project, 1)
			case "-":
				stdin = ""
			}
			if v, ok := env["CODEX_HOST_CWD"]; ok && v == "/w/p" {
				env["CODEX_HOST_CWD"] = project
			}
			var execs int
			var passedOn []byte
			var stderr, stdout bytes.Buffer
			rec := &recordingReader{r: strings.NewReader(stdin)}
			e := oneshot.Env{Getenv: func(k string) string { return env[k] }, Getwd: func() (string, error) { return project, nil }, Stderr: &stderr,
				Network: handoff{stdin: &rec.buf, exec: func(b []byte) error { execs++; passedOn = b; return errFakeExec }}}
			args := tc.args
			if args == nil {
				args = []string{"hook", "claude"}
			}
			code := run(context.Background(), append(args, "--deadline", "10s"), e, rec, &stdout)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, stderr.String())
			}
			reply := stdout.String() + stderr.String()
			switch {
			case tc.handoff == "" && execs > 0:
				t.Errorf("handed off to guardian, want it answered here: %s", reply)
			case tc.handoff != "" && execs != 1:
				t.Errorf("handed off %d times, want once: %s", execs, reply)
			case tc.handoff != "" && string(passedOn) != stdin:
				t.Errorf("guardian would read %q, want the payload %q", passedOn, stdin)
			case tc.handoff != "" && reply != "" && !(strings.Contains(reply, tc.handoff) && strings.Contains(reply, "which only guardian reaches, but "+errFakeExec.Error())):
				// (A monitor's reply is empty whatever happens: it gives no verdict.)
				t.Errorf("a failed hand-off answered %q, want the fail-safe reply naming %q and the failure", reply, tc.handoff)
			}
			if !strings.Contains(stdout.String(), tc.stdout) || tc.stdout == "" && tc.handoff == "" && stdout.Len() > 0 {
				t.Errorf("stdout %q, want %q", stdout.String(), tc.stdout)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.stderr)
			}
		})
	}
}

// writeFile writes text to path, creating its directory; "" writes nothing.
func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if text == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
