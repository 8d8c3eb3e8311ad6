package hook

import (
	"fmt"
	"strconv"
	"strings"
)

// failClosed is how guardian closes the ways a host fails open when guardian's hook process
// cannot answer for itself. guardian's own errors, panics, timeouts and an unreachable serve
// all end in a reply that blocks; what it cannot answer for is a process that hangs, dies or
// prints something else before it gets that far — or a binary that is not there. Gemini CLI,
// Qwen Code, Copilot CLI and Cline run the tool on some of those (docs/hosts.md has what each
// real host showed), so guardian's hook command runs inside a small POSIX sh program, written
// by the installer, that passes guardian's output on only when it is one of guardian's answers
// for that host and prints the host's block otherwise. Every answer guardian gives is printed
// (or, for Qwen's exit 2, has a status that blocks by itself), so an exit 0 with nothing on
// stdout — a truncated write, a return before the reply, an os.Exit(0) in a library — is a
// block for every host, whatever the host itself would make of it.
//
// The program is the same for every host; a host differs in its block reply (its protocol's
// Failsafe, or in monitor mode its NoVerdict, so that a monitored hook never stands in the
// way) and in the answers guardian gives it (accepted).
type failClosed struct {
	// protocol and event give the block reply: protocol.Failsafe(event, reason).
	protocol Protocol
	event    string
	// accepted are sh case patterns over "STATUS:STDOUT" (stdout without its trailing
	// newlines, as $(…) reads it) that match exactly guardian's own answers to the host: what
	// the program passes on, with the same exit status. A pattern never sees a reply of more
	// than one line, nor an exit 0 with no output: that is a block, for every host.
	accepted []string
}

// reasonMark stands for the block's reason in the fail-safe reply the block is cut from.
const reasonMark = "GUARDIAN-WRAPPER-REASON"

// block is the sh function `block REASON` that prints the host's block reply and exits. The
// reply is the protocol's own fail-safe for that reason (its no-verdict reply in monitor
// mode), printed with printf '%s', so no byte of it is read as a format.
func (w failClosed) block(monitor bool) string {
	r := w.protocol.Failsafe(w.event, reasonMark)
	if monitor {
		r = NoVerdict(w.protocol, w.event)
	}
	out := strings.TrimRight(string(r.Stdout), "\n")
	var print string
	if out != "" {
		parts := strings.Split(out, reasonMark)
		for i := range parts {
			parts[i] = shQuote(parts[i])
		}
		print = "\tprintf '%s\\n' " + strings.Join(parts, `"$1"`) + "\n"
	}
	return "block() {\n" + print + "\texit " + strconv.Itoa(r.Exit) + "\n}\n"
}

// check is the body of the program: run, a shell command that runs guardian's hook command
// (stdin is the host's payload, stderr goes to the host), under coreutils' `timeout -s KILL`
// of seconds (a shell word) where the machine has it; then guardian's output is passed on if
// it is one of the accepted answers, and the host's block is printed otherwise, saying what
// went wrong: a non-zero exit (127: guardian is missing), a kill (137, or 124), no output,
// garbage, more than one line, any other JSON.
func (w failClosed) check(run, seconds string, monitor bool) string {
	return w.block(monitor) + `if command -v timeout >/dev/null 2>&1; then
	reply=$(timeout -s KILL ` + seconds + ` ` + run + `)
else
	reply=$(` + run + `)
fi
status=$?
case $status:$reply in
0: | *'
'*) ;;
` + strings.Join(w.accepted, " | ") + `)
	[ -z "$reply" ] || printf '%s\n' "$reply"
	exit $status ;;
esac
case $status in
0)
	case $reply in
	'') block "the hook command exited 0 and printed nothing" ;;
	*'
'*) block "the hook command printed more than one line" ;;
	esac
	block "the hook command printed no answer of guardian's" ;;
124 | 137) block "the hook command was killed or gave no answer within ` + strings.Trim(seconds, `"`) + ` s (exit status $status)" ;;
*) block "the hook command exited with status $status" ;;
esac
`
}

// wrapperName is the program's $0, which names it in the host's config.
const wrapperName = "guardian-fail-closed"

// wrap is the command line a host runs in place of command: the program as a `/bin/sh -c`
// argument, then the seconds after which it kills the hook command and the command itself as
// its positional parameters, so that the program text is the same for every install and the
// command stays readable — and findable by IsGuardianCommand — at the end of the line.
func (w failClosed) wrap(command string, seconds int) string {
	return w.prefix(Installed{Command: command}.Monitor()) + strconv.Itoa(seconds) + " " + shQuote(command)
}

func (w failClosed) prefix(monitor bool) string {
	return "/bin/sh -c " + shQuote(w.check(`/bin/sh -c "$2"`, `"$1"`, monitor)) + " " + wrapperName + " "
}

// unwrap reads back what wrap wrote: the hook command and the kill timeout in seconds. ok is
// false for any other command line — an unwrapped hook from a guardian before the wrapper, or
// a wrapper that was edited.
func (w failClosed) unwrap(line string) (command string, seconds int, ok bool) {
	for _, monitor := range []bool{false, true} {
		rest, found := strings.CutPrefix(line, w.prefix(monitor))
		if !found {
			continue
		}
		n, quoted, _ := strings.Cut(rest, " ")
		s, err := strconv.Atoi(n)
		if err != nil || s <= 0 {
			return "", 0, false
		}
		command, ok := shUnquote(quoted)
		if !ok || w.wrap(command, s) != line {
			return "", 0, false
		}
		return command, s, true
	}
	return "", 0, false
}

// wrapperSeconds is when the wrapper of a hook with host timeout timeoutSec kills the hook
// command: a second before the host would give up on the wrapper, so that the wrapper's block
// reaches the host first.
func wrapperSeconds(timeoutSec int) int { return max(timeoutSec-1, 1) }

// unwrapInstalled replaces the wrapped command line of each hook found in a host's config by
// guardian's command inside it, keeping the line in Wrapper; a hook that is not wrapped keeps
// its command and has no Wrapper.
func (w failClosed) unwrapInstalled(hooks []Installed) []Installed {
	for i, h := range hooks {
		if command, _, ok := w.unwrap(h.Command); ok {
			hooks[i].Wrapper, hooks[i].Command = h.Command, command
		}
	}
	return hooks
}

// finding is verify's check that a hook runs inside the wrapper, and that the wrapper kills a
// stuck hook after guardian's deadline and before the host's timeout.
func (w failClosed) finding(v Verifier, h Installed, host string) Finding {
	_, seconds, ok := w.unwrap(h.Wrapper)
	if h.Wrapper == "" || !ok {
		return Finding{Message: fmt.Sprintf("the hook command does not run inside guardian's fail-closed wrapper (installed by an older guardian, or edited): "+
			"if guardian hangs, crashes or prints garbage the host runs the tool; reinstall with guardian hook install %s --write", host)}
	}
	deadline, _ := h.Deadline()
	kill := float64(seconds)
	ok = deadline.Seconds() < kill && kill < v.Timeout(h).Seconds()
	return Finding{OK: ok, Message: fmt.Sprintf("the hook runs inside guardian's fail-closed wrapper, which blocks at %d s if guardian has not answered (after its deadline %s, before the host timeout %s)",
		seconds, deadline, v.Timeout(h))}
}

// shQuote is s in single quotes, always (so that unwrap can compare lines byte for byte).
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// shUnquote reads back exactly what shQuote wrote.
func shUnquote(q string) (string, bool) {
	if len(q) < 2 || q[0] != '\'' || q[len(q)-1] != '\'' {
		return "", false
	}
	s := strings.ReplaceAll(q[1:len(q)-1], `'\''`, "'")
	return s, shQuote(s) == q
}
