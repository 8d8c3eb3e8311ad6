package riskmodel

import (
	"strings"
)

// Debuggers, tracers and profilers run a program of the project (gdb ./build/app, perf stat
// ./a.out, py-spy record -- python main.py) or attach to one already running (gdb -p PID,
// strace -p PID, py-spy dump --pid PID). The first is judged as running that program, like
// valgrind or strace of it; the second reads another process's memory, which docs/policy.md
// puts on the deny list (rules_debugattach.go). Each parser below returns the program a
// use runs and the shell or Python code its command options carry; the self functions report
// the uses the rules must see as the tool's own (an attach, a command file, a remote target).
// Sources: gdb(1) and "Invoking GDB"; lldb --help and the LLDB command map; perf-record(1),
// perf-stat(1), perf-trace(1); strace(1), ltrace(1); heaptrack --help; py-spy and rbspy
// READMEs; entr(1); watchexec --help; GTFOBins gdb.

// gdbValueOpts are gdb's options that take a value (gdb --help), -ex and friends aside.
var gdbValueOpts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-x": true, "--command": true, "-command": true, "-ix": true, "--init-command": true, "-init-command": true,
		"-eix": true, "--early-init-command": true, "-cd": true, "--cd": true, "-d": true, "--directory": true, "-directory": true,
		"-s": true, "--symbols": true, "-symbols": true, "-e": true, "--exec": true, "-exec": true, "-se": true, "-c": true, "--core": true,
		"-core": true, "-p": true, "--pid": true, "-pid": true, "-b": true, "-l": true, "-D": true, "--data-directory": true,
		"-data-directory": true, "-tty": true, "--tty": true, "-i": true, "--interpreter": true, "-interpreter": true}
}}

// gdbCommandOpts are gdb's options whose value is a gdb command.
var gdbCommandOpts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-ex": true, "--ex": true, "-eval-command": true, "--eval-command": true, "-iex": true,
		"--init-eval-command": true, "-init-eval-command": true, "-eiex": true, "--early-init-eval-command": true}
}}

// gdbWords splits gdb's arguments into its commands (-ex …), the values of its other options
// (by option) and its operands (the program, then a core file or a process id).
func gdbWords(args []string) (cmds []string, vals map[string][]string, operands []string) {
	vals = map[string][]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, eq := strings.Cut(a, "=")
		switch {
		case a == "--args" || a == "-args":
			if i+1 < len(args) {
				operands = append(operands, args[i+1])
			}
			return cmds, vals, operands
		case gdbCommandOpts.get()[a]:
			if i+1 < len(args) {
				i++
				cmds = append(cmds, strings.TrimSpace(args[i]))
			}
		case eq && gdbCommandOpts.get()[name]:
			cmds = append(cmds, strings.TrimSpace(val))
		case gdbValueOpts.get()[a]:
			if i+1 < len(args) {
				i++
				vals[a] = append(vals[a], args[i])
			}
		case eq && gdbValueOpts.get()[name]:
			vals[name] = append(vals[name], val)
		case a == "--":
			operands = append(operands, args[i+1:]...)
			return cmds, vals, operands
		case strings.HasPrefix(a, "-"):
		default:
			operands = append(operands, a)
		}
	}
	return cmds, vals, operands
}

// parseGdb reads gdb's -ex/-iex commands ("!sh", "shell cmd", "python …", "call
// system(\"cmd\")"), "--args prog …" and the program operand (gdb ./build/app core): the
// program is what runs (GTFOBins: gdb). Python code becomes a python -c segment so the
// interpreter analysis judges it.
func parseGdb(args []string) ([]string, []string, bool) {
	var codes []string
	cmds, vals, operands := gdbWords(args)
	for _, c := range cmds {
		switch {
		case strings.HasPrefix(c, "!"):
			codes = append(codes, c[1:])
		case strings.HasPrefix(c, "shell "):
			codes = append(codes, c[len("shell "):])
		case strings.HasPrefix(c, "python ") || strings.HasPrefix(c, "py ") || strings.HasPrefix(c, "pi ") || strings.HasPrefix(c, "python-interactive "):
			py := c[strings.IndexByte(c, ' ')+1:]
			codes = append(codes, "python3 -c "+shellQuote(py))
		default:
			for _, m := range reGdbSystem().FindAllStringSubmatch(c, 4) {
				codes = append(codes, unescapeCodeString(m[1]))
			}
		}
	}
	for i, a := range args {
		if (a == "--args" || a == "-args") && i+1 < len(args) {
			return args[i+1:], codes, true
		}
	}
	prog := ""
	for _, o := range []string{"-e", "--exec", "-exec", "-se"} {
		if v := vals[o]; len(v) > 0 {
			prog = v[0]
		}
	}
	if prog == "" && len(operands) > 0 {
		prog = operands[0]
	}
	if prog != "" && !isNumber(prog) {
		return []string{prog}, codes, true
	}
	return nil, codes, len(codes) > 0
}

// gdbAttach reports the running process a gdb use attaches to: -p PID, --pid=PID, a process
// id as the operand after the program (gdb ./app 1234) or as -c's value, or an attach command.
func gdbAttach(args []string) (string, bool) {
	cmds, vals, operands := gdbWords(args)
	for _, o := range []string{"-p", "--pid", "-pid"} {
		if v := vals[o]; len(v) > 0 {
			return v[0], true
		}
	}
	for _, o := range []string{"-c", "--core", "-core"} {
		for _, v := range vals[o] {
			if isNumber(v) {
				return v, true
			}
		}
	}
	for i, op := range operands {
		if i > 0 && isNumber(op) || i == 0 && strings.HasPrefix(op, "$(") {
			return op, true
		}
		if i > 0 {
			break
		}
	}
	for _, c := range cmds {
		if f := strings.Fields(c); len(f) > 1 && (f[0] == "attach" || f[0] == "at") {
			return f[1], true
		}
	}
	return "", false
}

// gdbOwnUse reports a gdb use judged as gdb's own: an attach, a command file (-x, source),
// whose commands cannot be seen, or a remote target.
func gdbOwnUse(args []string) bool {
	if _, ok := gdbAttach(args); ok {
		return true
	}
	cmds, vals, _ := gdbWords(args)
	for _, o := range []string{"-x", "--command", "-command", "-ix", "--init-command", "-init-command", "-eix", "--early-init-command"} {
		if len(vals[o]) > 0 {
			return true
		}
	}
	for _, c := range cmds {
		if f := strings.Fields(c); len(f) > 0 && (f[0] == "source" || f[0] == "target" || f[0] == "tar" || f[0] == "file" || f[0] == "exec-file") {
			return true
		}
	}
	return false
}

// lldbValueOpts are lldb's options that take a value (lldb --help); -o and friends carry
// commands.
var lldbValueOpts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-p": true, "--attach-pid": true, "-n": true, "--attach-name": true, "-c": true, "--core": true,
		"-f": true, "--file": true, "-a": true, "--arch": true, "-s": true, "--source": true, "-S": true, "--source-before-file": true,
		"-K": true, "--source-on-crash": true, "-l": true, "--script-language": true, "-R": true, "--repl-language": true,
		"--capture-path": true, "-o": true, "--one-line": true, "-O": true, "--one-line-before-file": true, "-k": true,
		"--one-line-on-crash": true}
}}

// lldbWords splits lldb's arguments like gdbWords: its one-line commands, its other options'
// values and its operands (after --, the program and its arguments).
func lldbWords(args []string) (cmds []string, vals map[string][]string, operands []string) {
	vals = map[string][]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, eq := strings.Cut(a, "=")
		switch {
		case a == "--":
			return cmds, vals, append(operands, args[i+1:]...)
		case lldbValueOpts.get()[a] || eq && lldbValueOpts.get()[name]:
			if !eq {
				if i+1 >= len(args) {
					continue
				}
				i++
				name, val = a, args[i]
			}
			switch name {
			case "-o", "--one-line", "-O", "--one-line-before-file", "-k", "--one-line-on-crash":
				cmds = append(cmds, strings.TrimSpace(val))
			default:
				vals[name] = append(vals[name], val)
			}
		case strings.HasPrefix(a, "-"):
		default:
			operands = append(operands, a)
		}
	}
	return cmds, vals, operands
}

// parseLldb reads lldb's one-line commands ("platform shell cmd", "script …") and the
// program it runs (lldb ./build/app, lldb -- ./a.out args, lldb -f ./a.out).
func parseLldb(args []string) ([]string, []string, bool) {
	var codes []string
	cmds, vals, operands := lldbWords(args)
	for _, c := range cmds {
		switch {
		case strings.HasPrefix(c, "platform shell "):
			codes = append(codes, strings.TrimPrefix(strings.TrimSpace(c[len("platform shell "):]), "-- "))
		case strings.HasPrefix(c, "shell "):
			codes = append(codes, c[len("shell "):])
		case strings.HasPrefix(c, "script "):
			codes = append(codes, "python3 -c "+shellQuote(c[len("script "):]))
		}
	}
	if v := vals["-f"]; len(v) > 0 {
		return append(v[:1:1], operands...), codes, true
	}
	if v := vals["--file"]; len(v) > 0 {
		return append(v[:1:1], operands...), codes, true
	}
	if len(operands) > 0 {
		return operands, codes, true
	}
	return nil, codes, len(codes) > 0
}

// lldbAttach reports the process an lldb use attaches to: -p, -n, --wait-for, or a process
// attach command.
func lldbAttach(args []string) (string, bool) {
	cmds, vals, _ := lldbWords(args)
	for _, o := range []string{"-p", "--attach-pid", "-n", "--attach-name"} {
		if v := vals[o]; len(v) > 0 {
			return v[0], true
		}
	}
	for _, a := range args {
		if a == "-w" || a == "--wait-for" {
			return "the next process of that name", true
		}
	}
	for _, c := range cmds {
		f := strings.Fields(c)
		if len(f) > 1 && (f[0] == "attach" || f[0] == "process" && f[1] == "attach") {
			return c, true
		}
	}
	return "", false
}

// lldbOwnUse reports an lldb use judged as lldb's own: an attach, a command file, a remote
// connection, an imported script.
func lldbOwnUse(args []string) bool {
	if _, ok := lldbAttach(args); ok {
		return true
	}
	cmds, vals, _ := lldbWords(args)
	for _, o := range []string{"-s", "--source", "-S", "--source-before-file", "-K", "--source-on-crash"} {
		if len(vals[o]) > 0 {
			return true
		}
	}
	for _, c := range cmds {
		f := strings.Fields(c)
		if len(f) > 0 && (f[0] == "gdb-remote" || f[0] == "kdp-remote") ||
			len(f) > 1 && (f[0] == "process" && f[1] == "connect" || f[0] == "platform" && f[1] == "connect" ||
				f[0] == "command" && (f[1] == "source" || f[1] == "script") || f[0] == "target" && f[1] == "create") {
			return true
		}
	}
	return false
}

// tracerAttaches reports strace or ltrace attaching to a running process: -p PID, --attach,
// or p in a bundle of one-letter options (-fp PID).
func tracerAttaches(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			return false
		}
		if a == "--attach" || strings.HasPrefix(a, "--attach=") || !strings.HasPrefix(a, "--") && strings.Contains(a[1:], "p") && !strings.ContainsAny(a[1:], "=/") {
			return true
		}
		if tracerValueOpts.get()[a] {
			i++ // -e trace=network, -o FILE
		}
	}
	return false
}

// tracerValueOpts are strace's and ltrace's options that take a value.
var tracerValueOpts = table[map[string]bool]{build: func() map[string]bool {
	return opts("-o", "-e", "-s", "-u", "-E", "-P", "-I", "-a", "-b", "-O", "-S", "-X", "-U", "-n", "-A", "-D", "-F", "-l", "-x",
		"--output", "--user", "--env", "--trace-path", "--library")
}}

// perfValueOpts are the options of perf record, stat and trace that take a value.
var perfValueOpts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-e": true, "--event": true, "-o": true, "--output": true, "-F": true, "--freq": true, "-c": true,
		"--count": true, "-p": true, "--pid": true, "-t": true, "--tid": true, "-C": true, "--cpu": true, "-G": true, "--cgroup": true,
		"-r": true, "--repeat": true, "-x": true, "--field-separator": true, "-I": true, "--interval-print": true, "-m": true,
		"--mmap-pages": true, "-u": true, "--uid": true, "--call-graph": true, "-j": true, "--branch-filter": true, "-D": true,
		"--delay": true, "-M": true, "--metrics": true, "--pre": true, "--post": true, "--filter": true, "--max-size": true,
		"--duration": true, "-i": true, "--input": true}
}}

// perfRuns are perf's subcommands that start the program given after their options.
var perfRuns = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"stat": true, "record": true, "trace": true}
}}

// parsePerf reads perf stat/record/trace [options] PROGRAM ARGS: the program runs under perf.
// --pre and --post of perf stat are commands run around it.
func parsePerf(args []string) ([]string, []string, bool) {
	if len(args) == 0 || !perfRuns.get()[args[0]] {
		return nil, nil, false
	}
	var codes []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		name, val, eq := strings.Cut(a, "=")
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1:], codes, true
			}
			return nil, codes, len(codes) > 0
		case (a == "--pre" || a == "--post") && i+1 < len(args):
			codes = append(codes, args[i+1])
			i++
		case eq && (name == "--pre" || name == "--post"):
			codes = append(codes, val)
		case perfValueOpts.get()[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return args[i:], codes, true
		}
	}
	return nil, codes, len(codes) > 0
}

// perfOwnUse reports a perf use that watches more than the program it starts: another
// process (-p, -t), other users (-u), CPUs or the whole system (-a, -C). Those stay perf's
// own use, judged by the catalogue (which leaves them unknown) and the attach rule.
func perfOwnUse(args []string) bool {
	if len(args) == 0 || !perfRuns.get()[args[0]] {
		return false
	}
	for _, a := range args[1:] {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(a, "=")
		switch name {
		case "-p", "--pid", "-t", "--tid", "-u", "--uid", "-a", "--all-cpus", "-C", "--cpu":
			return true
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "pa") && !perfValueOpts.get()[a[:2]] {
			return true // -ag, -ap PID
		}
	}
	return false
}

// heaptrackOwnUse reports heaptrack attaching to a running process or analysing a recording.
func heaptrackOwnUse(args []string) bool {
	for _, a := range args {
		name, _, _ := strings.Cut(a, "=")
		if name == "-p" || name == "--pid" || name == "-a" || name == "--analyze" {
			return true
		}
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return false
}

// parseSamplingProfiler reads py-spy and rbspy: record/top/snapshot -- PROGRAM ARGS runs the
// program under the profiler; a use with --pid samples a running process instead.
func parseSamplingProfiler(args []string) ([]string, []string, bool) {
	if len(args) == 0 {
		return nil, nil, false
	}
	switch args[0] {
	case "record", "top", "snapshot":
		for i, a := range args {
			if a == "--" && i+1 < len(args) {
				return args[i+1:], nil, true
			}
		}
	}
	return nil, nil, false
}

// samplerAttaches reports py-spy or rbspy reading a running process (--pid, -p).
func samplerAttaches(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(a, "=")
		if name == "-p" || name == "--pid" {
			return true
		}
	}
	return false
}

// parseEntr reads entr [-acdnprsz] UTILITY ARGS: the utility runs whenever a listed file
// changes; with -s its first operand is shell code.
func parseEntr(args []string) ([]string, []string, bool) {
	shell := false
	for i, a := range args {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			shell = shell || strings.Contains(a, "s")
			continue
		}
		if shell {
			return nil, []string{a}, true
		}
		return args[i:], nil, true
	}
	return nil, nil, false
}

// watchexecValueOpts are watchexec's options that take a value (watchexec --help).
var watchexecValueOpts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-e": true, "--exts": true, "-w": true, "--watch": true, "-W": true, "--watch-non-recursive": true,
		"-F": true, "--watch-file": true, "-i": true, "--ignore": true, "--ignore-file": true, "-f": true, "--filter": true,
		"--filter-file": true, "-j": true, "--filter-prog": true, "-s": true, "--signal": true, "--stop-signal": true,
		"--stop-timeout": true, "-d": true, "--debounce": true, "--delay-run": true, "--shell": true, "-E": true, "--env": true,
		"--project-origin": true, "--workdir": true, "-o": true, "--on-busy-update": true, "--emit-events-to": true,
		"--log-file": true, "--wrap-process": true, "--color": true, "--socket": true, "--timeout": true, "--fs-events": true}
}}

// parseWatchexec reads watchexec [options] [--] COMMAND: the command runs on every change,
// through a shell unless -n or --shell=none says otherwise.
func parseWatchexec(args []string) ([]string, []string, bool) {
	shell := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, eq := strings.Cut(a, "=")
		switch {
		case a == "--" || !strings.HasPrefix(a, "-"):
			rest := args[i:]
			if a == "--" {
				rest = args[i+1:]
			}
			if len(rest) == 0 {
				return nil, nil, false
			}
			if shell {
				return nil, []string{strings.Join(rest, " ")}, true
			}
			return rest, nil, true
		case a == "-n" || eq && name == "--shell" && val == "none":
			shell = false
		case a == "--shell" && i+1 < len(args) && args[i+1] == "none":
			shell = false
			i++
		case watchexecValueOpts.get()[a]:
			i++
		}
	}
	return nil, nil, false
}

// isNumber reports a word of digits only: a process id.
func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
