package riskmodel

import (
	"strings"
)

// Wrappers run another command given in their arguments: a CPU pinner, a tracer, a
// terminal multiplexer, a sandbox, a privilege changer. Each is described here as data —
// which options take a value, how many operands come before the command, whether the inner
// command gains privilege — so the command that really runs is reached and judged, and a
// wrapper never hides its payload behind a medium "unknown command". A few need a parser of
// their own (tmux, screen, parallel, expect, gdb, capsh, machinectl, runuser, cmd /c); the
// command() switch in unwrap.go consults this table.

// wrapperSpec describes one wrapper.
type wrapperSpec struct {
	// optArgs are options that take a separate value; optArgs2 take two (bwrap --bind A B).
	optArgs  map[string]bool
	optArgs2 map[string]bool
	// operands is how many words come before the command (taskset's mask, chroot's root).
	operands int
	// privileged: the inner command runs as another user, as root, or with capabilities.
	privileged bool
	// privFlags are short flags that make it privileged (unshare -r maps the caller to root).
	privFlags string
	// noCmdFlags are short flags after which no command follows (taskset -p PID).
	noCmdFlags string
	// parse, when set, replaces the generic option walk: it returns the inner argv, shell
	// code to parse, and whether the wrapper runs anything at all.
	parse func(args []string) (argv []string, codes []string, ok bool)
	// timer options make the inner command run later and again (persistence).
	timerOpts []string
	// self, when set, reports a use the rules must see as the wrapper's own as well as
	// through what it runs: a debugger or tracer attaching to a running process, reading a
	// command file or connecting to a remote target (debuggers.go).
	self func(args []string) bool
}

func opts(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// tableWrappers are looked up by command name. Sources: each tool's man page (tldr pages for
// the common forms); GTFOBins lists the ones that give a shell (taskset, strace, gdb, tmux,
// screen, expect, unshare, nsenter, chroot, capsh, setpriv, ssh-agent, firejail, …).
var tableWrappers = table[map[string]*wrapperSpec]{build: func() map[string]*wrapperSpec {
	m := map[string]*wrapperSpec{
		"busybox":   {},
		"toybox":    {},
		"taskset":   {operands: 1, noCmdFlags: "p"},
		"chrt":      {optArgs: opts("-T", "-P", "-D", "--sched-runtime", "--sched-period", "--sched-deadline"), operands: 1, noCmdFlags: "pm"},
		"strace":    {optArgs: opts("-o", "-e", "-p", "-s", "-u", "-E", "-P", "-I", "-a", "-b", "-O", "-S", "-X", "-U", "--output", "--attach", "--user", "--env", "--trace-path"), self: tracerAttaches},
		"ltrace":    {optArgs: opts("-o", "-e", "-p", "-s", "-u", "-n", "-a", "-A", "-D", "-E", "-F", "-l", "-x", "--output", "--library"), self: tracerAttaches},
		"ssh-agent": {optArgs: opts("-a", "-E", "-t", "-P", "-O"), noCmdFlags: "kscD"},
		"firejail":  {},
		"bwrap":     {optArgs: opts("--dev", "--proc", "--tmpfs", "--dir", "--mqueue", "--chdir", "--unsetenv", "--uid", "--gid", "--hostname", "--lock-file", "--sync-fd", "--info-fd", "--block-fd", "--userns-block-fd", "--seccomp", "--add-seccomp-fd", "--exec-label", "--file-label", "--remount-ro", "--args", "--userns", "--userns2", "--pidns", "--cap-add", "--cap-drop", "--perms", "--size", "--json-status-fd"), optArgs2: opts("--bind", "--ro-bind", "--dev-bind", "--bind-try", "--ro-bind-try", "--dev-bind-try", "--symlink", "--setenv", "--file", "--bind-data", "--ro-bind-data", "--chmod")},
		"systemd-run": {optArgs: opts("-p", "--property", "-u", "--unit", "-E", "--setenv", "--uid", "--gid", "-M", "--machine", "-H", "--host", "--description", "--slice", "--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--timer-property", "--working-directory", "--nice", "--service-type", "--path-property", "--socket-property"),
			privileged: true, timerOpts: []string{"--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--timer-property"}},
		"gosu":             {operands: 1, privileged: true},
		"su-exec":          {operands: 1, privileged: true},
		"setpriv":          {optArgs: opts("--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--selinux-label", "--apparmor-profile", "--pdeathsig", "--landlock-access", "--landlock-rule"), privileged: true},
		"unshare":          {optArgs: opts("-S", "--setuid", "-G", "--setgid", "--propagation", "-R", "--root", "-w", "--wd", "--map-user", "--map-group", "--map-users", "--map-groups", "-l", "--load-interp"), privFlags: "rc"},
		"nsenter":          {optArgs: opts("-t", "--target", "-S", "--setuid", "-G", "--setgid", "-r", "-w", "--env"), privileged: true},
		"chroot":           {optArgs: opts("--userspec", "--groups"), operands: 1, privileged: true},
		"dbus-run-session": {optArgs: opts("--config-file", "--dbus-daemon")},
		"xvfb-run":         {optArgs: opts("-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file", "-p", "--xauth-protocol", "-w", "--wait", "-l")},
		"catchsegv":        {},
		"valgrind":         {},
		"cpulimit":         {optArgs: opts("-l", "--limit", "-p", "--pid", "-e", "--exe", "-m"), noCmdFlags: "pe"},
		"numactl":          {optArgs: opts("-N", "-m", "-C", "-i", "-p", "-P", "--cpunodebind", "--membind", "--physcpubind", "--interleave", "--preferred")},
		"prlimit":          {optArgs: opts("-p", "--pid"), noCmdFlags: "p"},
		"fakeroot":         {optArgs: opts("-l", "--lib", "--faked", "-s", "-i")},
		"faketime":         {optArgs: opts("-m", "-p", "-f"), operands: 1},
		"rlwrap":           {optArgs: opts("-a", "-b", "-C", "-D", "-e", "-f", "-F", "-g", "-H", "-l", "-O", "-p", "-P", "-q", "-s", "-S", "-t", "-w", "-z")},
		"eatmydata":        {},
		"nocache":          {},
		"trickle":          {optArgs: opts("-d", "-u", "-w", "-t", "-l", "-n")},
		"daemonize":        {optArgs: opts("-a", "-c", "-e", "-o", "-p", "-l", "-u", "-E")},
		"catatonit":        {},
		"tini":             {optArgs: opts("-p", "-e")},
		"dumb-init":        {optArgs: opts("-r", "--rewrite")},
		"sg":               {privileged: true, parse: parseSg},
		"runuser":          {privileged: true, parse: parseRunuser},
		"tmux":             {parse: parseTmux},
		"screen":           {parse: parseScreen},
		"parallel":         {parse: parseParallel},
		"sem":              {parse: parseParallel},
		"expect":           {parse: parseExpect},
		"gdb":              {parse: parseGdb, self: gdbOwnUse},
		"lldb":             {parse: parseLldb, self: lldbOwnUse},
		"perf":             {parse: parsePerf, self: perfOwnUse},
		"heaptrack":        {optArgs: opts("-o", "--output", "--record-only-to"), noCmdFlags: "pa", self: heaptrackOwnUse},
		"py-spy":           {parse: parseSamplingProfiler, self: samplerAttaches},
		"rbspy":            {parse: parseSamplingProfiler, self: samplerAttaches},
		"entr":             {parse: parseEntr},
		"watchexec":        {parse: parseWatchexec},
		"capsh":            {privileged: true, parse: parseCapsh},
		"machinectl":       {privileged: true, parse: parseMachinectl},
		"cmd":              {parse: parseCmdExe},
		"cmd.exe":          {parse: parseCmdExe},
	}
	for n, w := range devWrappers() {
		m[n] = w
	}
	return m
}}

// unwrapTable applies a wrapper spec: the inner argv, shell code strings to parse, whether
// anything runs, and what the wrapper adds to the context.
func (w *wrapperSpec) unwrap(args []string) (argv []string, codes []string, runs, priv, timer bool) {
	priv = w.privileged
	for _, a := range args {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && w.privFlags != "" && strings.ContainsAny(a[1:], w.privFlags) {
			priv = true
		}
		if a == "--map-root-user" || a == "--map-current-user" {
			priv = true
		}
		for _, t := range w.timerOpts {
			if a == t || strings.HasPrefix(a, t+"=") {
				timer = true
			}
		}
		if a == "--user" && len(w.timerOpts) > 0 {
			priv = false // systemd-run --user runs as the caller
		}
	}
	if w.parse != nil {
		argv, codes, runs = w.parse(args)
		return argv, codes, runs, priv, timer
	}
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		if w.noCmdFlags != "" && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], w.noCmdFlags) {
			return nil, nil, false, priv, timer
		}
		switch {
		case w.optArgs2[a]:
			i += 3
		case w.optArgs[a]:
			i += 2
		default:
			i++
		}
	}
	if i+w.operands > len(args) {
		return nil, nil, false, priv, timer
	}
	rest := args[i+w.operands:]
	if len(rest) == 0 {
		return nil, nil, false, priv, timer
	}
	return rest, nil, true, priv, timer
}

// skipWithArgs drops leading options, taking a value for the named ones; a short flag group
// ending in such an option (screen -dmS NAME) takes one too.
func skipWithArgs(args []string, withArg map[string]bool) (rest []string, seen []string) {
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return args[1:], seen
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return args, seen
		}
		seen = append(seen, a)
		takes := withArg[a] || !strings.HasPrefix(a, "--") && len(a) > 2 && withArg["-"+a[len(a)-1:]]
		if takes && len(args) > 1 && !strings.Contains(a, "=") {
			seen = append(seen, args[1])
			args = args[2:]
			continue
		}
		args = args[1:]
	}
	return args, seen
}

var tmuxKeys = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"Enter": true, "C-m": true, "KPEnter": true, "C-j": true, "Escape": true, "C-c": true, "Space": true, "Tab": true}
}}

// parseTmux reads "tmux [-L s] new-session -d 'cmd'", "tmux send-keys -t x 'cmd' Enter",
// "tmux run-shell 'cmd'" and "tmux -c 'cmd'" (GTFOBins: tmux).
func parseTmux(args []string) ([]string, []string, bool) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		switch args[i] {
		case "-c":
			if i+1 < len(args) {
				return nil, []string{args[i+1]}, true
			}
			return nil, nil, false
		case "-L", "-S", "-f", "-T":
			i++
		}
		i++
	}
	var codes []string
	// Commands may be chained with ";" or "\;".
	for i < len(args) {
		j := i + 1
		for j < len(args) && args[j] != ";" && args[j] != `\;` {
			j++
		}
		sub, rest := args[i], args[i+1:j]
		switch sub {
		case "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "run-shell", "run", "display-popup", "popup", "pipe-pane", "pipep":
			r, _ := skipWithArgs(rest, opts("-s", "-n", "-c", "-t", "-x", "-y", "-e", "-F", "-l", "-p", "-f", "-w", "-h", "-d", "-b", "-T", "-S", "-s", "-M", "-E"))
			if sub == "new-session" || sub == "new" || sub == "new-window" || sub == "neww" || sub == "split-window" || sub == "splitw" {
				r, _ = skipWithArgs(rest, opts("-s", "-n", "-c", "-t", "-x", "-y", "-e", "-F", "-l", "-p", "-f", "-w", "-h"))
			}
			if len(r) > 0 {
				codes = append(codes, strings.Join(r, " "))
			}
		case "send-keys", "send":
			r, seen := skipWithArgs(rest, opts("-t", "-N"))
			literal := false
			for _, s := range seen {
				literal = literal || s == "-l"
			}
			var words []string
			for _, w := range r {
				if !literal && tmuxKeys.get()[w] {
					words = append(words, "\n")
					continue
				}
				words = append(words, w)
			}
			if len(words) > 0 {
				codes = append(codes, strings.Join(words, " "))
			}
		}
		i = j + 1
	}
	return nil, codes, len(codes) > 0
}

// parseScreen reads "screen -dmS name cmd args" and "screen -S name -X stuff 'cmd\n'"
// (GTFOBins: screen).
func parseScreen(args []string) ([]string, []string, bool) {
	withArg := opts("-S", "-c", "-e", "-h", "-p", "-s", "-t", "-T", "-Logfile", "-X")
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-X" && i+1 < len(args) {
			cmd := args[i+1:]
			switch cmd[0] {
			case "stuff":
				if len(cmd) > 1 {
					return nil, []string{ansiC(strings.Join(cmd[1:], " "))}, true
				}
			case "exec", "screen":
				if len(cmd) > 1 {
					return cmd[1:], nil, true
				}
			}
			return nil, nil, false
		}
		if !strings.HasPrefix(a, "-") {
			return args[i:], nil, true
		}
		if withArg[a] || len(a) > 2 && !strings.HasPrefix(a, "--") && withArg["-"+a[len(a)-1:]] {
			i++
		}
		if strings.ContainsAny(a, "lrRx") && !strings.HasPrefix(a, "--") && !withArg[a] && a != "-dm" && a != "-dmS" && a != "-Dm" {
			if strings.Contains(a, "r") || strings.Contains(a, "x") || strings.Contains(a, "l") && a == "-ls" {
				return nil, nil, false // reattach or list
			}
		}
	}
	return nil, nil, false
}

// parseParallel reads "parallel [opts] CMD ::: ARGS" (the command template runs through a
// shell) and "parallel ::: 'cmd1' 'cmd2'" (each argument is a command).
func parseParallel(args []string) ([]string, []string, bool) {
	r, _ := skipWithArgs(args, opts("-j", "-P", "--jobs", "-S", "--sshlogin", "-a", "--arg-file", "--delay", "--timeout", "-n", "-N", "-L", "-l",
		"--colsep", "-C", "-d", "--delimiter", "-I", "--results", "--joblog", "--tmpdir", "--workdir", "--wd", "-E", "--eof", "--env",
		"--retries", "--halt", "--memfree", "--load", "--id", "--semaphorename"))
	var tmpl []string
	i := 0
	for ; i < len(r) && r[i] != ":::" && r[i] != "::::" && r[i] != ":::+"; i++ {
		tmpl = append(tmpl, r[i])
	}
	if len(tmpl) > 0 {
		return nil, []string{strings.Join(tmpl, " ")}, true
	}
	var codes []string
	if i < len(r) && r[i] == ":::" {
		for _, a := range r[i+1:] {
			if a == ":::" || a == "::::" {
				break
			}
			codes = append(codes, a)
		}
	}
	return nil, codes, len(codes) > 0
}

var (
	reExpectSpawn = lazyRegexp(`(?m)\b(?:spawn|exec|system)\s+(?:-noecho\s+)?([^;\n\]}]+)`)
	reExpectSend  = lazyRegexp(`\bsend\s+(?:--\s+)?"((?:[^"\\]|\\.){1,1000})"`)
)

// parseExpect reads "expect -c 'spawn sh; send \"cmd\\r\"; interact'": what it spawns and,
// when that is a shell, what it types into it (GTFOBins: expect).
func parseExpect(args []string) ([]string, []string, bool) {
	code, ok := optValue(args, "-c")
	if !ok {
		return nil, nil, false
	}
	var codes []string
	shell := false
	for _, m := range reExpectSpawn().FindAllStringSubmatch(code, 16) {
		c := strings.Trim(strings.TrimSpace(m[1]), "{}\"")
		codes = append(codes, c)
		if f := strings.Fields(c); len(f) > 0 {
			n := baseName(f[0])
			shell = shell || shells.get()[n] || n == "su" || n == "sudo" || n == "ssh" || n == "docker" || n == "kubectl"
		}
	}
	if shell {
		for _, m := range reExpectSend().FindAllStringSubmatch(code, 32) {
			codes = append(codes, ansiC(m[1]))
		}
	}
	return nil, codes, len(codes) > 0
}

var reGdbSystem = lazyRegexp(`system\s*\(\s*"((?:[^"\\]|\\.){1,1000})"`)

// parseCapsh reads "capsh [--opts] -- [bash args]": what follows "--" is passed to bash
// (GTFOBins: capsh).
func parseCapsh(args []string) ([]string, []string, bool) {
	for i, a := range args {
		if a == "--" {
			return append([]string{"bash"}, args[i+1:]...), nil, true
		}
		if strings.HasPrefix(a, "--shell=") {
			return []string{a[len("--shell="):]}, nil, true
		}
	}
	return nil, nil, false
}

// parseMachinectl reads "machinectl shell [opts] [user@]machine [cmd …]"; other verbs run
// nothing inside the machine.
func parseMachinectl(args []string) ([]string, []string, bool) {
	r, _ := skipWithArgs(args, opts("-E", "--setenv", "--uid", "-M", "--machine", "-H", "--host", "-p", "--property"))
	if len(r) == 0 || r[0] != "shell" {
		return nil, nil, false
	}
	r, _ = skipWithArgs(r[1:], opts("-E", "--setenv", "--uid"))
	if len(r) > 1 {
		return r[1:], nil, true
	}
	return nil, nil, false
}

// parseRunuser reads "runuser -u USER [--] cmd …" and "runuser [-l] USER -c 'cmd'".
func parseRunuser(args []string) ([]string, []string, bool) {
	if code, ok := optValue(args, "-c", "--command"); ok {
		return nil, []string{code}, true
	}
	if _, ok := optValue(args, "-u", "--user"); ok {
		r, _ := skipWithArgs(args, opts("-u", "--user", "-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w", "--whitelist-environment"))
		if len(r) > 0 {
			return r, nil, true
		}
	}
	return nil, nil, false
}

// parseSg reads "sg GROUP -c 'cmd'" and "sg GROUP cmd".
func parseSg(args []string) ([]string, []string, bool) {
	if code, ok := optValue(args, "-c"); ok {
		return nil, []string{code}, true
	}
	r, _ := skipWithArgs(args, nil)
	if len(r) > 1 {
		return nil, []string{strings.Join(r[1:], " ")}, true
	}
	return nil, nil, false
}

// parseCmdExe reads Windows "cmd /c COMMAND" and "cmd /k COMMAND"; the command line is close
// enough to shell syntax ("&&", "|", redirections) to be parsed as one.
func parseCmdExe(args []string) ([]string, []string, bool) {
	for i, a := range args {
		l := strings.ToLower(a)
		if l == "/c" || l == "/k" || l == "/r" {
			if i+1 < len(args) {
				code := strings.Join(args[i+1:], " ")
				if sh, ok := winShellAsBash(code, false); ok {
					code = sh // r18win_pwsh.go: "\" is a path separator in cmd
				}
				return nil, []string{code}, true
			}
			return nil, nil, false
		}
		if !strings.HasPrefix(a, "/") {
			break
		}
	}
	return nil, nil, false
}

// shellQuote quotes s as one shell word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// vimEscape returns the shell code of a vim command that runs one (GTFOBins: vim): ":py3
// import os; os.system('…')" becomes a python -c segment, ":lua os.execute('…')" a lua -e
// one, ":exe '!…'" and ":term …" shell code.
func vimEscape(c string) (string, bool) {
	c = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(c, "silent!"), "silent"))
	word, rest, _ := strings.Cut(c, " ")
	switch word {
	case "py", "py3", "python", "python3", "pyx", "pythonx", "pydo", "py3do":
		return "python3 -c " + shellQuote(rest), true
	case "lua", "luado":
		return "lua -e " + shellQuote(rest), true
	case "perl", "perldo":
		return "perl -e " + shellQuote(rest), true
	case "ruby", "rubydo":
		return "ruby -e " + shellQuote(rest), true
	case "exe", "exec", "execute":
		r := strings.Trim(strings.TrimSpace(rest), `"'`)
		if strings.HasPrefix(r, "!") {
			return r[1:], true
		}
		if strings.Contains(r, "system(") || strings.Contains(r, "!") {
			return "$(…)", true // built at run time
		}
	case "term", "terminal":
		if rest == "" {
			return "sh", true
		}
		return rest, true
	case "call":
		if strings.Contains(rest, "system(") || strings.Contains(rest, "systemlist(") || strings.Contains(rest, "jobstart(") || strings.Contains(rest, "termopen(") {
			if m := reGdbSystem().FindStringSubmatch(strings.ReplaceAll(rest, "'", `"`)); m != nil {
				return unescapeCodeString(m[1]), true
			}
			return "$(…)", true
		}
	}
	return "", false
}

// manPager returns the pager or browser man/less is told to run: man -P CMD, --pager=CMD,
// -H CMD, --html=CMD (GTFOBins: man).
func manPager(name string, args []string, i int) (string, bool) {
	if name != "man" {
		return "", false
	}
	a := args[i]
	switch {
	case (a == "-P" || a == "--pager" || a == "-H" || a == "--html") && i+1 < len(args):
		return args[i+1], true
	case strings.HasPrefix(a, "--pager=") || strings.HasPrefix(a, "--html="):
		return a[strings.IndexByte(a, '=')+1:], true
	case strings.HasPrefix(a, "-P") && len(a) > 2:
		return a[2:], true
	}
	return "", false
}

var reEmacsShell = lazyRegexp(`\((?:shell-command|shell-command-to-string|async-shell-command)\s+"((?:[^"\\]|\\.){1,1000})"`)

// emacsShell returns the shell commands of an emacs --eval form; a process started any other
// way (call-process, start-process, a command built at run time) is unknown code.
func emacsShell(form string) []string {
	var out []string
	for _, m := range reEmacsShell().FindAllStringSubmatch(form, 8) {
		out = append(out, unescapeCodeString(m[1]))
	}
	if len(out) == 0 && containsAny(form, "shell-command", "call-process", "start-process", "make-process", "process-file", "eshell", "(shell", "term ") {
		out = append(out, "$(…)")
	}
	return out
}

// gitPackProgram returns the program git is told to run on the remote side of a transfer:
// --upload-pack=CMD, --receive-pack=CMD, --exec=CMD (GTFOBins: git), and -u CMD where -u is
// short for --upload-pack: git clone and git ls-remote only (git-clone(1), git-ls-remote(1)).
// Elsewhere -u is something else — git push -u is --set-upstream, git fetch -u
// --update-head-ok — and takes no program. sub is git's subcommand ("" for git's own
// options).
func gitPackProgram(args []string, i int, sub string) (string, bool) {
	a := args[i]
	for _, p := range []string{"--upload-pack=", "--receive-pack=", "--exec="} {
		if strings.HasPrefix(a, p) {
			return a[len(p):], true
		}
	}
	if a == "-u" && sub != "clone" && sub != "ls-remote" {
		return "", false
	}
	if (a == "--upload-pack" || a == "--receive-pack" || a == "-u") && i+1 < len(args) {
		return args[i+1], true
	}
	return "", false
}
