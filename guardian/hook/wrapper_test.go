package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// wrapped is a host whose hook command line guardian wraps in its fail-closed program.
type wrapped struct {
	host   Host
	w      failClosed
	runner string // the shell the host runs its hook command line with
}

func wrappedHosts(t testing.TB) []wrapped {
	var out []wrapped
	for _, name := range []string{"gemini", "qwen", "copilot"} {
		h, ok := Lookup(name)
		if !ok {
			t.Fatalf("no host %s", name)
		}
		w := map[string]failClosed{"gemini": geminiFailClosed, "qwen": qwenFailClosed, "copilot": copilotFailClosed}[name]
		out = append(out, wrapped{h, w, "bash"}) // all three run `bash -c COMMAND`
	}
	return out
}

// shells are the shells the wrapper's program must be correct under: /bin/sh is dash on
// Debian and Ubuntu, bash elsewhere.
func shells(t *testing.T) []string {
	var out []string
	for _, sh := range []string{"dash", "bash"} {
		if _, err := exec.LookPath(sh); err == nil {
			out = append(out, sh)
		}
	}
	if len(out) == 0 {
		t.Skip("neither dash nor bash is installed")
	}
	return out
}

// runWrapped runs the wrapper around command as the host would (its runner, `-c LINE`), but
// with the program itself interpreted by shell in place of /bin/sh, and returns stdout and the
// exit status.
func runWrapped(t *testing.T, w failClosed, shell, command string, seconds int, payload string) ([]byte, int) {
	t.Helper()
	line := w.wrap(command, seconds)
	line = shell + strings.TrimPrefix(line, "/bin/sh")
	cmd := exec.Command("bash", "-c", line)
	cmd.Stdin = strings.NewReader(payload)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("run: %v\n%s", err, stderr.Bytes())
	}
	return out, cmd.ProcessState.ExitCode()
}

// printing is a hook command that prints r's stdout and exits with its status, as guardian
// would.
func printing(r Reply) string {
	return "cat >/dev/null; printf '%s' " + shQuote(string(r.Stdout)) + "; exit " + strconv.Itoa(r.Exit)
}

// guardianReplies are every reply guardian's hook gives a host's protocol: its answers to
// allow, deny and ask (for a call that may be allowed and for one that is only ever stopped),
// its fail-safe for the host's event and for an unknown one, and its no-verdict. The reasons
// hold the bytes a JSON string and a shell word could trip on.
func guardianReplies(p Protocol, event string) map[string]Reply {
	why := `guardian: Deletes "~" — it's $HOME\ and ` + "`x`; 100% <sure> & more"
	res := func(d riskmodel.Decision) guardian.Result {
		return guardian.Result{Decision: d, Assessment: riskmodel.Assessment{Summary: why}}
	}
	call := Call{Event: event}
	never := Call{Event: event, NeverAllow: true}
	return map[string]Reply{
		"allow":                 p.Answer(call, res(riskmodel.Allow)),
		"deny":                  p.Answer(call, res(riskmodel.Deny)),
		"ask":                   p.Answer(call, res(riskmodel.Ask)),
		"never-allow allow":     p.Answer(never, res(riskmodel.Allow)),
		"never-allow deny":      p.Answer(never, res(riskmodel.Deny)),
		"failsafe":              p.Failsafe(event, why),
		"failsafe, no event":    p.Failsafe("", why),
		"failsafe, other event": p.Failsafe(EventPermissionRequest, why),
		"no verdict":            NoVerdict(p, event),
		"monitor":               Monitor(p).Answer(call, res(riskmodel.Deny)),
	}
}

// TestFailClosedPassesGuardiansAnswers runs each of guardian's replies to each wrapped host
// through the wrapper: the host must get exactly guardian's stdout and exit status. None of
// them is an exit 0 with nothing on stdout, which the wrapper blocks as a failure.
func TestFailClosedPassesGuardiansAnswers(t *testing.T) {
	for _, sh := range shells(t) {
		for _, h := range append(wrappedHosts(t), wrapped{w: clineFailClosed}) {
			for name, r := range guardianReplies(h.w.protocol, h.w.event) {
				t.Run(sh+"/"+h.w.event+"/"+name, func(t *testing.T) {
					if r.Exit == 0 && len(bytes.TrimSpace(r.Stdout)) == 0 {
						t.Fatalf("guardian answers with nothing on stdout and exit 0, which the wrapper reads as a failure")
					}
					out, code := runWrapped(t, h.w, sh, printing(r), 15, "{}")
					if !bytes.Equal(bytes.TrimRight(out, "\n"), bytes.TrimRight(r.Stdout, "\n")) || code != r.Exit {
						t.Fatalf("the host got %q, exit %d; guardian answered %q, exit %d", out, code, r.Stdout, r.Exit)
					}
				})
			}
		}
	}
}

// TestFailClosedBlocks runs the wrapper around hook commands that fail in every way guardian
// cannot answer for itself, under dash and bash, and checks that the host reads a block each
// time — the host's own reading (Interpret), never "allow" or a fail-open run — with a reason
// that says what happened. Empty output with exit 0 is among them for every host: guardian
// always prints its answer, so nothing on stdout is a guardian that failed (a truncated write,
// an early return, an os.Exit(0) in a library), never a no objection.
func TestFailClosedBlocks(t *testing.T) {
	_, noTimeout := exec.LookPath("timeout")
	cases := []struct {
		name, command string
		seconds       int
		reason        string
	}{
		{"crash", `cat >/dev/null; exit 1`, 15, "exited with status 1"},
		{"go panic", `echo 'panic: boom' >&2; exit 2`, 15, "exited with status 2"},
		{"answer then crash", `printf '{}\n'; exit 3`, 15, "exited with status 3"},
		{"kill signal", `kill -9 $$`, 15, "killed or gave no answer within 15 s (exit status 137)"},
		{"missing binary", `/nonexistent/guardian hook x --deadline 10s`, 15, "exited with status 127"},
		{"empty output", `cat >/dev/null`, 15, "exited 0 and printed nothing"},
		{"empty output, no read", `exit 0`, 15, "exited 0 and printed nothing"},
		{"blank line", `cat >/dev/null; echo`, 15, "exited 0 and printed nothing"},
		{"garbage", `echo 'guardian_faults: not a hook reply'`, 15, "printed no answer of guardian's"},
		{"garbage before the answer", `echo garbage; printf '{}\n'`, 15, "more than one line"},
		{"garbage on the answer's line", `printf 'x{}\n'`, 15, "printed no answer of guardian's"},
		{"other JSON: allow", `echo '{"decision":"allow","permissionDecision":"allow","cancel":false}'`, 15, "printed no answer of guardian's"},
		{"other JSON: wrong case", `echo '{"permissionDecision":"Deny","permissionDecisionReason":"x"}'`, 15, "printed no answer of guardian's"},
		{"hang", `sleep 30; printf '{}\n'`, 1, "no answer within 1 s"},
	}
	for _, sh := range shells(t) {
		for _, h := range wrappedHosts(t) {
			for _, tc := range cases {
				t.Run(sh+"/"+h.host.Name+"/"+tc.name, func(t *testing.T) {
					if tc.name == "hang" && noTimeout != nil {
						t.Skip("no coreutils timeout here: the host's own timeout ends a hung hook")
					}
					out, code := runWrapped(t, h.w, sh, tc.command, tc.seconds, h.host.Verify.Payload("ls", "/tmp"))
					got := h.host.Verify.Interpret(out, code)
					if tc.name == "go panic" && h.host.Name == "qwen" {
						// Exit 2 is guardian's own block for Qwen (with the reason on stderr),
						// which Qwen reads as a block whatever is on stdout: passed on.
						if code != 2 || got != "blocked" {
							t.Fatalf("Qwen reads %q, exit %d as %s, want exit 2 passed on", out, code, got)
						}
						return
					}
					if got == "allow" || got == "no opinion" || strings.HasPrefix(got, "runs") {
						t.Fatalf("the host reads %q as %s (exit %d), want a block", out, got, code)
					}
					if !strings.Contains(string(out), "guardian could not review this tool call") || !strings.Contains(string(out), tc.reason) {
						t.Fatalf("stdout %q, want guardian's block saying %q", out, tc.reason)
					}
				})
			}
		}
	}
}

// TestFailClosedMonitor: in monitor mode guardian never stands in the way, so the wrapper's
// block is the host's no-verdict reply: a crashing guardian leaves the call to the host.
func TestFailClosedMonitor(t *testing.T) {
	for _, h := range append(wrappedHosts(t), wrapped{host: Host{Name: "cline"}, w: clineFailClosed}) {
		t.Run(h.host.Name, func(t *testing.T) {
			nv := NoVerdict(h.w.protocol, h.w.event)
			out, code := runWrapped(t, h.w, "sh", "guardian hook "+h.host.Name+" --monitor; exit 1", 15, "{}")
			if !bytes.Equal(out, nv.Stdout) || code != nv.Exit {
				t.Fatalf("monitor mode, guardian crashed: the host got %q, exit %d; want the no-verdict %q, exit %d", out, code, nv.Stdout, nv.Exit)
			}
		})
	}
}

// TestFailClosedUnwrap: the command line the installer writes reads back as guardian's
// command, which IsGuardianCommand and the flag readers still recognise; anything else —
// a plain command from a guardian before the wrapper, an edited wrapper — does not unwrap.
func TestFailClosedUnwrap(t *testing.T) {
	for _, command := range []string{
		"/usr/local/bin/guardian hook gemini --deadline 10s",
		`'/home/o'\''neil/bin/guardian' hook gemini --deadline 2s --monitor`,
		`t0=$(date +%s%N); guardian hook gemini --deadline 10s; rc=$?; echo "$t0" >> '/tmp/x y'; exit $rc`,
	} {
		line := geminiFailClosed.wrap(command, 14)
		got, seconds, ok := geminiFailClosed.unwrap(line)
		if !ok || got != command || seconds != 14 {
			t.Fatalf("unwrap(wrap(%q)) = %q, %d, %v", command, got, seconds, ok)
		}
		if !IsGuardianCommand(line, "gemini") || IsGuardianCommand(line, "qwen") || IsGuardianCommand(line, "claude") {
			t.Errorf("IsGuardianCommand does not tell the wrapped gemini hook: %q", line)
		}
		in := Installed{Command: got}
		if in.Monitor() != strings.Contains(command, "--monitor") {
			t.Errorf("Monitor() of %q is wrong", command)
		}
		if _, _, ok := qwenFailClosed.unwrap(line); ok {
			t.Errorf("qwen's wrapper unwraps gemini's line")
		}
		for _, edited := range []string{
			strings.Replace(line, "exit $status ;;", "exit 0 ;;", 1),
			strings.Replace(line, " 14 ", " x ", 1),
			line + " ",
		} {
			if _, _, ok := geminiFailClosed.unwrap(edited); ok {
				t.Errorf("an edited wrapper unwraps: %q", edited)
			}
		}
	}
	if _, _, ok := geminiFailClosed.unwrap("/usr/local/bin/guardian hook gemini --deadline 10s"); ok {
		t.Error("an unwrapped command unwraps")
	}
}

// TestFailClosedOlderConfigs: a config that an older guardian wrote — its hook command
// unwrapped — is still found as guardian's; verify says to reinstall; install wraps it in
// place, leaving one hook; uninstall removes it.
func TestFailClosedOlderConfigs(t *testing.T) {
	old := map[string]string{
		"gemini":  `{"hooks":{"BeforeTool":[{"matcher":"` + GeminiMatcher + `","hooks":[{"type":"command","command":"/usr/bin/guardian hook gemini --deadline 10s","timeout":15000}]}]}}`,
		"qwen":    `{"hooks":{"PreToolUse":[{"matcher":"` + QwenMatcher + `","hooks":[{"type":"command","command":"/usr/bin/guardian hook qwen --deadline 10s","timeout":15000}]}]}}`,
		"copilot": `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"/usr/bin/guardian hook copilot --deadline 10s","timeoutSec":15}]}}`,
	}
	for _, h := range wrappedHosts(t) {
		t.Run(h.host.Name, func(t *testing.T) {
			command := "/usr/bin/guardian hook " + h.host.Name + " --deadline 10s"
			files := []File{{Path: "settings.json", Content: []byte(old[h.host.Name])}}
			found, err := h.host.Verify.Find(files)
			if err != nil || len(found) != 1 || found[0].Command != command || found[0].Wrapper != "" {
				t.Fatalf("Find on an older config = %+v, %v", found, err)
			}
			if f := h.host.Verify.Check(files, found[0]); len(f) != 1 || f[0].OK || !strings.Contains(f[0].Message, "reinstall") {
				t.Errorf("verify of an unwrapped hook: %+v, want a failed check saying to reinstall", f)
			}
			in, err := h.host.Install(files, command, 15)
			if err != nil {
				t.Fatal(err)
			}
			found, err = h.host.Verify.Find(in)
			if err != nil || len(found) != 1 || found[0].Command != command || found[0].Wrapper != h.w.wrap(command, 14) {
				t.Fatalf("Find after reinstall = %+v, %v; want the one hook, wrapped", found, err)
			}
			if f := h.host.Verify.Check(in, found[0]); len(f) != 1 || !f[0].OK {
				t.Errorf("verify after reinstall: %+v", f)
			}
			out, err := h.host.Uninstall(in)
			if err != nil {
				t.Fatal(err)
			}
			if found, _ := h.host.Verify.Find(out); len(found) != 0 {
				t.Errorf("after uninstall: %+v", found)
			}
		})
	}
}

// TestFailClosedOlderWrapper: a hook inside the wrapper of an older guardian — here one that,
// like the wrapper before guardian's answers to Qwen and Copilot became {}, passes an empty
// output on — is not guardian's current wrapper: verify fails it and says to reinstall, and a
// reinstall replaces it in place with the current one.
func TestFailClosedOlderWrapper(t *testing.T) {
	for _, h := range wrappedHosts(t) {
		t.Run(h.host.Name, func(t *testing.T) {
			command := "/usr/bin/guardian hook " + h.host.Name + " --deadline 10s"
			current := h.w.wrap(command, 14)
			older := strings.Replace(current, "0: | *", "*", 1)
			older = strings.Replace(older, `'0:{}'`, `'0:' | '0:{}'`, 1)
			if older == current {
				t.Fatal("the older wrapper is the current one: the test no longer builds an older wrapper")
			}
			files, err := h.host.Install([]File{{Path: "settings.json"}}, command, 15)
			if err != nil {
				t.Fatal(err)
			}
			files[0].Content = replaceString(t, files[0].Content, current, older)
			found, err := h.host.Verify.Find(files)
			if err != nil || len(found) != 1 || found[0].Wrapper != "" {
				t.Fatalf("Find on a config with an older wrapper = %+v, %v", found, err)
			}
			if f := h.host.Verify.Check(files, found[0]); len(f) != 1 || f[0].OK || !strings.Contains(f[0].Message, "reinstall") {
				t.Errorf("verify of an older wrapper: %+v, want a failed check saying to reinstall", f)
			}
			in, err := h.host.Install(files, command, 15)
			if err != nil {
				t.Fatal(err)
			}
			found, err = h.host.Verify.Find(in)
			if err != nil || len(found) != 1 || found[0].Wrapper != current {
				t.Fatalf("Find after reinstall = %+v, %v; want the one hook, in the current wrapper", found, err)
			}
		})
	}
}

// replaceString is the JSON document doc with every string value old replaced by new.
func replaceString(t *testing.T, doc []byte, old, new string) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	replaced := 0
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			if x == old {
				replaced++
				return new
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	out, err := json.Marshal(walk(v))
	if err != nil {
		t.Fatal(err)
	}
	if replaced != 1 {
		t.Fatalf("%d strings %q in %s, want 1", replaced, old, doc)
	}
	return out
}

// BenchmarkFailClosed is what the wrapper adds to every tool call of each wrapped host: the
// installed command line run as the host runs it (`bash -c LINE`) around a hook command that
// answers at once; "baseline" is that hook command alone under `bash -c`, what the host ran
// before the wrapper. The difference is the wrapper's price.
func BenchmarkFailClosed(b *testing.B) {
	const answer = `cat >/dev/null; printf '{}\n'`
	run := func(b *testing.B, line, want string) {
		for b.Loop() {
			cmd := exec.Command("bash", "-c", line)
			cmd.Stdin = strings.NewReader(`{"hook_event_name":"BeforeTool"}`)
			if out, err := cmd.Output(); err != nil || string(out) != want {
				b.Fatalf("%q, %v", out, err)
			}
		}
	}
	b.Run("baseline", func(b *testing.B) { run(b, answer, "{}\n") })
	b.Run("gemini", func(b *testing.B) { run(b, geminiFailClosed.wrap(answer, 14), "{}\n") })
	b.Run("copilot", func(b *testing.B) { run(b, copilotFailClosed.wrap(answer, 14), "{}\n") })
}
