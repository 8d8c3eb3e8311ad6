package riskmodel

import "strings"

// Applications that run code given in an option or an argument: a 3-D editor's Python
// expression (blender --python-expr), an editor's Lisp form (emacs --eval), a plotting or
// numeric tool's system() call (gnuplot -e, octave --eval), a TeX run with \write18, a hook
// option of a network tool (certbot --pre-hook, openvpn --up, aria2c
// --on-download-complete), a program run as an operand (aa-exec, setarch, pidstat -e).
// GTFOBins lists them as the "shell", "command" and "inherit" functions of each binary; the
// table below holds one row per option form with the language of its value and the GTFOBins
// page it was taken from (github.com/GTFOBins/GTFOBins.github.io, _gtfobins/NAME, commit
// 7382261e of 2026-04-20), or the tool's own manual where GTFOBins has no page.
//
// The code is not judged here: appCodeCommands turns it into shell command lines that the
// same extractor parses — shell code as it is, Python, Lua, Ruby, Perl, PHP and JavaScript
// as that interpreter's -c/-e invocation (so inline.go and codecaps.go follow its fetches,
// sockets, credential reads and startup-file writes), and the system()-style calls of other
// languages as the command they start. Code of these languages that starts a program in a way
// that cannot be followed becomes "$(…)", a command only known at run time (high, never
// unknown/medium). Under sudo a code option that starts a shell is a GTFOBins escape
// (rootShellEscape, via embeddedCommands).

// appCodeRow is one option of one or more applications whose value is code.
type appCodeRow struct {
	tools []string
	// opt is the option as written (-e, --eval, --python-expr); its value is the next word
	// or follows "=". An opt without a leading dash is a subcommand whose next word is the
	// code (csvtool call CMD).
	opt  string
	lang string
	// needs, when set, is a flag that must also be present for the code to run (TeX runs
	// \write18 only with --shell-escape).
	needs []string
	// eqOnly: the code is only the value after "=" (latexmk -xelatex alone is a switch,
	// -xelatex="CMD" the command it runs).
	eqOnly bool
	// attached: the code is only text glued to the option (man -Hbrowser: -H alone takes no
	// value, so the next word is the page, not a program).
	attached bool
	// feeds: the application reads what the command prints (restic --password-command), so
	// the command's output goes to it, not to the transcript.
	feeds bool
	// vars are the placeholders the application sets for the command ($FILE of split
	// --filter, $f of scrot -e), with a value of the same kind in the workspace.
	vars []string // old, new, old, new… (strings.NewReplacer)
	src  string
}

// appCodeLangs are the languages of appCodeRow:
//
//	sh      a shell command line
//	argv    the option or subcommand is followed by a program and its arguments (everything
//	        after it), or, for opt "", the first operand onward is the program
//	python, lua, ruby, perl, php, node, r   code of that interpreter
//	elisp   an Emacs Lisp form
//	vim     an ex command (the :sh/:shell/:set shell forms; :!cmd and :py are unwrap.go's)
//	calls   a language whose programs are started by system("…")-style calls: Octave/MATLAB,
//	        gnuplot, S-Lang, bpftrace, Guile, CLISP, jrunscript, GHC, m4
//	tex     TeX source with \write18{…} (or \immediate\write18)
//	rpm     an rpm macro expression: %(shell) and %{lua:…}
//	make    a makefile fragment: $(shell …)
//	bang    a "!cmd" line of an interactive client (dc, lftp, mail)
//	fzf     fzf key bindings: execute(…), execute-silent(…), become(…)
//	puppet  a Puppet manifest: exec { 'cmd': }
//	busctl  a D-Bus address: unixexec:path=P,argv1=…
//	aptopt  an APT -o option: the value of a *::Pre-Invoke/Post-Invoke key is a command
//	hgcfg   an hg --config item: alias.NAME=!cmd and hooks.NAME=cmd are commands
var appCodeRows = table[[]appCodeRow]{build: func() []appCodeRow {
	return []appCodeRow{
		// Interpreters embedded in applications ("inherit" functions of GTFOBins).
		{tools: []string{"blender"}, opt: "--python-expr", lang: "python", src: "docs.blender.org: Command Line Arguments (--python-expr)"},
		{tools: []string{"gimp", "gimp-console"}, opt: "-b", lang: "gimpbatch", src: "GTFOBins gimp"},
		{tools: []string{"gimp", "gimp-console"}, opt: "--batch", lang: "gimpbatch", src: "GTFOBins gimp"},
		{tools: []string{"sqlmap"}, opt: "--eval", lang: "python", src: "GTFOBins sqlmap"},
		{tools: []string{"knife"}, opt: "-E", lang: "ruby", src: "GTFOBins knife"},
		{tools: []string{"knife"}, opt: "--exec", lang: "ruby", src: "GTFOBins knife"},
		{tools: []string{"rake"}, opt: "-p", lang: "ruby", src: "GTFOBins rake"},
		{tools: []string{"rake"}, opt: "-e", lang: "ruby", src: "rake --help (--execute)"},
		{tools: []string{"rake"}, opt: "--execute", lang: "ruby", src: "rake --help (--execute)"},
		{tools: []string{"latexmk"}, opt: "-e", lang: "perl", src: "GTFOBins latexmk"},
		{tools: []string{"exiftool"}, opt: "-if", lang: "perl", src: "GTFOBins exiftool"},
		{tools: []string{"bee"}, opt: "eval", lang: "php", src: "GTFOBins bee"},
		{tools: []string{"drush"}, opt: "eval", lang: "php", src: "drush.org: php:eval (alias eval, ev)"},
		{tools: []string{"drush"}, opt: "php:eval", lang: "php", src: "drush.org: php:eval"},
		{tools: []string{"wp"}, opt: "eval", lang: "php", src: "developer.wordpress.org/cli/commands/eval"},
		{tools: []string{"rpm", "rpmdb", "rpmquery", "rpmverify"}, opt: "--eval", lang: "rpm", src: "GTFOBins rpm"},
		{tools: []string{"rpm", "rpmdb", "rpmquery", "rpmverify"}, opt: "-E", lang: "rpm", src: "rpm(8) --eval"},
		{tools: []string{"rpm"}, opt: "--pipe", lang: "sh", src: "GTFOBins rpm"},
		{tools: []string{"lualatex", "luatex"}, opt: "--shell-escape", lang: "texlua", src: "GTFOBins lualatex, luatex"},
		{tools: []string{"lualatex", "luatex"}, opt: "-shell-escape", lang: "texlua", src: "GTFOBins lualatex, luatex"},

		// Editors and numeric tools.
		{tools: []string{"emacs"}, opt: "--execute", lang: "elisp", src: "GNU Emacs manual: Initial Options (--execute)"},
		{tools: []string{"vi", "vim", "nvim", "ex", "view", "gvim", "rvim", "rview", "vimdiff"}, opt: "-c", lang: "vim", src: "GTFOBins vi, vim"},
		{tools: []string{"vi", "vim", "nvim", "ex", "view", "gvim", "rvim", "rview", "vimdiff"}, opt: "--cmd", lang: "vim", src: "vim(1) --cmd"},
		{tools: []string{"octave", "octave-cli"}, opt: "--eval", lang: "calls", src: "GTFOBins octave"},
		{tools: []string{"matlab"}, opt: "-batch", lang: "calls", src: "mathworks.com: matlab (Linux) -batch statement"},
		{tools: []string{"matlab"}, opt: "-r", lang: "calls", src: "mathworks.com: matlab (Linux) -r statement"},
		{tools: []string{"gnuplot"}, opt: "-e", lang: "calls", src: "GTFOBins gnuplot"},
		{tools: []string{"slsh"}, opt: "-e", lang: "calls", src: "GTFOBins slsh"},
		{tools: []string{"bpftrace"}, opt: "-e", lang: "calls", src: "GTFOBins bpftrace"},
		{tools: []string{"bpftrace"}, opt: "-c", lang: "sh", src: "GTFOBins bpftrace"},
		{tools: []string{"guile"}, opt: "-c", lang: "calls", src: "GTFOBins guile"},
		{tools: []string{"clisp"}, opt: "-x", lang: "calls", src: "GTFOBins clisp"},
		{tools: []string{"sbcl"}, opt: "--eval", lang: "calls", src: "sbcl(1) --eval"},
		{tools: []string{"jrunscript"}, opt: "-e", lang: "calls", src: "GTFOBins jrunscript"},
		{tools: []string{"jjs"}, opt: "-e", lang: "calls", src: "jjs(1)"},
		{tools: []string{"ghc", "ghci"}, opt: "-e", lang: "calls", src: "GTFOBins ghc"},
		{tools: []string{"tex", "latex", "pdflatex", "pdftex", "xelatex", "xetex", "lualatex", "luatex"}, opt: "", lang: "tex", needs: []string{"--shell-escape", "-shell-escape", "--enable-write18", "-enable-write18"}, src: "GTFOBins tex, latex, pdflatex, pdftex, xelatex"},
		{tools: []string{"make", "gmake"}, opt: "--eval", lang: "make", src: "GTFOBins make"},
		{tools: []string{"dc"}, opt: "-e", lang: "bang", src: "GTFOBins dc"},
		{tools: []string{"dc"}, opt: "--expression", lang: "bang", src: "dc(1)"},
		{tools: []string{"lftp"}, opt: "-c", lang: "bang", src: "GTFOBins lftp"},
		{tools: []string{"mail", "mailx"}, opt: "--exec", lang: "bang", src: "GTFOBins mail"},
		{tools: []string{"fzf"}, opt: "--bind", lang: "fzf", src: "GTFOBins fzf"},
		{tools: []string{"puppet"}, opt: "-e", lang: "puppet", src: "GTFOBins puppet"},
		{tools: []string{"puppet"}, opt: "--execute", lang: "puppet", src: "puppet apply --help"},
		{tools: []string{"busctl"}, opt: "--address", lang: "busctl", src: "GTFOBins busctl"},
		{tools: []string{"apt-get", "apt"}, opt: "-o", lang: "aptopt", src: "GTFOBins apt-get, apt"},
		{tools: []string{"hg"}, opt: "--config", lang: "hgcfg", src: "GTFOBins hg; hgrc(5) alias, hooks"},

		// Hook options whose value is a shell command (GTFOBins "shell"/"command" functions).
		{tools: []string{"aria2c"}, opt: "--on-download-complete", lang: "sh", src: "GTFOBins aria2c"},
		{tools: []string{"aria2c"}, opt: "--on-download-start", lang: "sh", src: "aria2c(1) Event Hook"},
		{tools: []string{"aria2c"}, opt: "--on-bt-download-complete", lang: "sh", src: "aria2c(1) Event Hook"},
		{tools: []string{"aria2c"}, opt: "--on-download-error", lang: "sh", src: "GTFOBins aria2c (command); aria2c(1) Event Hook"},
		{tools: []string{"aria2c"}, opt: "--on-download-stop", lang: "sh", src: "aria2c(1) Event Hook"},
		{tools: []string{"aria2c"}, opt: "--on-download-pause", lang: "sh", src: "aria2c(1) Event Hook"},
		{tools: []string{"wget"}, opt: "--use-askpass", lang: "sh", src: "GTFOBins wget (shell); wget(1) --use-askpass=command"},
		{tools: []string{"man"}, opt: "-H", lang: "sh", attached: true, src: "GTFOBins man (shell); man(1) -H[browser], --html[=browser]"},
		{tools: []string{"man"}, opt: "--html", lang: "sh", eqOnly: true, src: "man(1) --html[=browser]"},
		{tools: []string{"borg"}, opt: "--rsh", lang: "sh", src: "GTFOBins borg"},
		{tools: []string{"certbot"}, opt: "--pre-hook", lang: "sh", src: "GTFOBins certbot"},
		{tools: []string{"certbot"}, opt: "--post-hook", lang: "sh", src: "eff-certbot.readthedocs.io: Pre and Post Validation Hooks"},
		{tools: []string{"certbot"}, opt: "--deploy-hook", lang: "sh", src: "eff-certbot.readthedocs.io: renewing certificates"},
		{tools: []string{"certbot"}, opt: "--manual-auth-hook", lang: "sh", src: "eff-certbot.readthedocs.io: manual"},
		{tools: []string{"dhclient"}, opt: "-sf", lang: "sh", src: "GTFOBins dhclient"},
		{tools: []string{"dnsmasq"}, opt: "--conf-script", lang: "sh", src: "GTFOBins dnsmasq"},
		{tools: []string{"dnsmasq"}, opt: "--dhcp-script", lang: "sh", src: "dnsmasq(8)"},
		{tools: []string{"enscript"}, opt: "-I", lang: "sh", src: "GTFOBins enscript"},
		{tools: []string{"gcc", "g++", "cc"}, opt: "-wrapper", lang: "csv", src: "GTFOBins gcc"},
		{tools: []string{"gem"}, opt: "-e", lang: "sh", src: "GTFOBins gem (gem open -e EDITOR)"},
		{tools: []string{"genie"}, opt: "-c", lang: "sh", src: "GTFOBins genie"},
		{tools: []string{"latexmk"}, opt: "-pdflatex", lang: "sh", eqOnly: true, src: "GTFOBins latexmk"},
		{tools: []string{"latexmk"}, opt: "-latex", lang: "sh", eqOnly: true, src: "latexmk(1)"},
		{tools: []string{"latexmk"}, opt: "-xelatex", lang: "sh", eqOnly: true, src: "latexmk(1)"},
		{tools: []string{"latexmk"}, opt: "-lualatex", lang: "sh", eqOnly: true, src: "latexmk(1)"},
		{tools: []string{"openvpn"}, opt: "--up", lang: "sh", src: "GTFOBins openvpn"},
		{tools: []string{"openvpn"}, opt: "--down", lang: "sh", src: "openvpn(8) Script Hooks"},
		{tools: []string{"openvpn"}, opt: "--route-up", lang: "sh", src: "openvpn(8) Script Hooks"},
		{tools: []string{"openvpn"}, opt: "--ipchange", lang: "sh", src: "openvpn(8) Script Hooks"},
		{tools: []string{"openvpn"}, opt: "--client-connect", lang: "sh", src: "openvpn(8) Script Hooks"},
		{tools: []string{"openvpn"}, opt: "--auth-user-pass-verify", lang: "sh", src: "openvpn(8) Script Hooks"},
		{tools: []string{"openvpn"}, opt: "--tls-verify", lang: "sh", src: "openvpn(8) Script Hooks"},
		{tools: []string{"pidstat"}, opt: "-e", lang: "argv", src: "GTFOBins pidstat"},
		{tools: []string{"pip", "pip3"}, opt: "--editor", lang: "sh", src: "GTFOBins pip"},
		{tools: []string{"plymouth"}, opt: "--command", lang: "sh", src: "GTFOBins plymouth"},
		{tools: []string{"restic"}, opt: "--password-command", lang: "sh", feeds: true, src: "GTFOBins restic; restic docs: --password-command"},
		{tools: []string{"scrot"}, opt: "-e", lang: "sh", vars: scrotVars, src: "GTFOBins scrot; scrot(1) SPECIAL STRINGS"},
		{tools: []string{"scrot"}, opt: "--exec", lang: "sh", vars: scrotVars, src: "scrot(1)"},
		{tools: []string{"split"}, opt: "--filter", lang: "sh", vars: []string{"${FILE}", "./xaa", "$FILE", "./xaa"}, src: "GTFOBins split; split(1) --filter ($FILE)"},
		{tools: []string{"sshfs"}, opt: "-o", lang: "sshfsopt", src: "GTFOBins sshfs"},
		{tools: []string{"sshuttle"}, opt: "--ssh-cmd", lang: "sh", src: "GTFOBins sshuttle"},
		{tools: []string{"tcpdump"}, opt: "-z", lang: "sh", src: "GTFOBins tcpdump"},
		{tools: []string{"yt-dlp", "youtube-dl"}, opt: "--exec", lang: "sh", src: "GTFOBins yt-dlp"},
		{tools: []string{"yt-dlp"}, opt: "--exec-before-download", lang: "sh", src: "yt-dlp README"},
		{tools: []string{"csvtool"}, opt: "call", lang: "sh", src: "GTFOBins csvtool"},
		{tools: []string{"xdotool"}, opt: "exec", lang: "argv", src: "GTFOBins xdotool"},
		{tools: []string{"task"}, opt: "execute", lang: "argv", src: "GTFOBins task"},
		{tools: []string{"perlbug"}, opt: "-e", lang: "sh", src: "GTFOBins perlbug"},
		{tools: []string{"start-stop-daemon"}, opt: "-x", lang: "argv", src: "GTFOBins start-stop-daemon"},
		{tools: []string{"start-stop-daemon"}, opt: "--exec", lang: "argv", src: "start-stop-daemon(8)"},

		// Programs that run their operand (GTFOBins "shell": TOOL /bin/sh).
		{tools: []string{"aa-exec", "aoss", "multitime", "pexec", "softlimit", "torify", "sshpass", "distcc", "grc", "choom", "setarch", "setlock", "logsave", "linux32", "linux64", "i386", "x86_64"}, opt: "", lang: "argv", src: "GTFOBins aa-exec, aoss, multitime, pexec, softlimit, torify, sshpass, distcc, grc, choom, setarch, setlock, logsave"},
	}
}}

// appOperandSkip is how many operands an operand-running program takes before the program
// it runs (setarch ARCH, setlock FILE, logsave FILE), and which of its options take a value.
type operandSkip struct {
	operands int
	valued   map[string]bool
}

var appOperandSkip = table[map[string]operandSkip]{build: func() map[string]operandSkip {
	return map[string]operandSkip{
		"setarch":           {operands: 1, valued: opts("--uname-2.6")},
		"setlock":           {operands: 1},
		"logsave":           {operands: 1},
		"choom":             {valued: opts("-n", "--adjust", "-p", "--pid")},
		"aa-exec":           {valued: opts("-p", "--profile", "-n", "--namespace")},
		"sshpass":           {valued: opts("-p", "-f", "-d", "-e", "-P")},
		"grc":               {},
		"pidstat":           {},
		"xdotool":           {valued: opts("--sync", "--args", "--terminator")},
		"distcc":            {},
		"softlimit":         {valued: opts("-m", "-d", "-s", "-l", "-a", "-o", "-p", "-f", "-c", "-r", "-t")},
		"multitime":         {valued: opts("-n", "-s", "-i", "-o", "-c", "-q")},
		"start-stop-daemon": {},
	}
}}

// scrotVars are scrot's special strings in an -e command: the file name, and its parts.
var scrotVars = []string{"$f", "./screenshot.png", "$n", "screenshot.png", "$w", "1920", "$h", "1080", "$s", "1024", "$p", "2073600", "$t", "png"}

// appCodeIndex is appCodeRows by tool.
var appCodeIndex = table[map[string][]appCodeRow]{build: func() map[string][]appCodeRow {
	m := map[string][]appCodeRow{}
	for _, r := range appCodeRows.get() {
		if r.lang == "" {
			continue
		}
		for _, t := range r.tools {
			m[t] = append(m[t], r)
		}
	}
	return m
}}

// appCodeCommands returns the shell command lines the code options of an application run.
func appCodeCommands(s *Segment) []string {
	rows := appCodeIndex.get()[s.Name()]
	if len(rows) == 0 || len(s.Args) < 2 {
		return nil
	}
	args := s.Args[1:]
	var out []string
	for _, r := range rows {
		if len(r.needs) > 0 && !anyArg(args, r.needs) {
			continue
		}
		if r.opt == "" {
			out = append(out, appOperandCode(s.Name(), r.lang, args)...)
			continue
		}
		for i := 0; i < len(args); i++ {
			a := args[i]
			code, ok := "", false
			switch {
			case r.attached:
				if strings.HasPrefix(a, r.opt) && len(a) > len(r.opt) {
					code, ok = strings.TrimPrefix(a[len(r.opt):], "="), true
				}
			case a == r.opt && i+1 < len(args) && !r.eqOnly:
				if r.lang == "argv" {
					code, ok = operandCommand(s.Name(), args[i+1:]), true
					i = len(args)
				} else {
					code, ok = args[i+1], true
					i++
				}
			case strings.HasPrefix(r.opt, "-") && strings.HasPrefix(a, r.opt+"="):
				code, ok = a[len(r.opt)+1:], true
			}
			if ok {
				if len(r.vars) > 0 {
					code = strings.NewReplacer(r.vars...).Replace(code)
				}
				for _, c := range appCodeShell(r.lang, code, args) {
					if r.feeds && c != "" {
						c += " | " + s.Name()
					}
					out = append(out, c)
				}
			}
		}
	}
	return out
}

func anyArg(args, names []string) bool {
	for _, a := range args {
		for _, n := range names {
			if a == n || strings.HasPrefix(a, n+"=") {
				return true
			}
		}
	}
	return false
}

// appOperandCode is the code of a row with no option: the operand program (argv) or the
// whole operand text (tex: the source given on the command line).
func appOperandCode(name, lang string, args []string) []string {
	switch lang {
	case "argv":
		if c := operandCommand(name, args); c != "" {
			return []string{c}
		}
	case "tex", "texlua":
		var out []string
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				out = append(out, appCodeShell(lang, a, args)...)
			}
		}
		return out
	}
	return nil
}

// operandCommand returns the program an operand-running tool starts and its arguments,
// shell-quoted, "" when there is none.
func operandCommand(name string, args []string) string {
	skip := appOperandSkip.get()[name]
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" && name != "setlock" {
			break
		}
		if skip.valued[a] {
			i++
		}
		i++
	}
	if name == "setarch" && len(args) > 0 && strings.HasPrefix(args[0], "-") {
		skip.operands = 0 // setarch -3 PROG: the architecture is optional (setarch(8))
	}
	i += skip.operands
	if i >= len(args) {
		return ""
	}
	return shellJoin(args[i:])
}

// appCodeShell turns code of a language into the shell command lines it runs; "$(…)" stands
// for a program it starts in a way that cannot be followed.
func appCodeShell(lang, code string, args []string) []string {
	code = strings.TrimSpace(code)
	if code == "" {
		return nil
	}
	switch lang {
	case "sh", "argv":
		return []string{code}
	case "csv": // gcc -wrapper PROG,ARG…: judged when PROG is a shell or interpreter
		argv := strings.Split(code, ",")
		if n := baseName(argv[0]); isShellName(n) || interpreters.get()[n] {
			return []string{shellJoin(argv)}
		}
	case "python":
		return []string{"python3 -c " + shellQuote(code)}
	case "lua":
		return []string{"lua -e " + shellQuote(code)}
	case "ruby":
		return []string{"ruby -e " + shellQuote(code)}
	case "perl":
		return []string{"perl -e " + shellQuote(code)}
	case "php":
		return []string{"php -r " + shellQuote(code)}
	case "node":
		return []string{"node -e " + shellQuote(code)}
	case "gimpbatch":
		// gimp -b runs Script-Fu unless --batch-interpreter names the Python evaluator.
		for i, a := range args {
			if strings.HasPrefix(a, "--batch-interpreter") && strings.Contains(a+" "+argAt(args, i+1), "python") {
				return []string{"python3 -c " + shellQuote(code)}
			}
		}
		return callsShell(code)
	case "elisp":
		return elispShell(code)
	case "vim":
		return vimShellCommand(code)
	case "calls":
		return callsShell(code)
	case "tex", "texlua":
		var out []string
		for _, m := range reTexWrite18().FindAllStringSubmatch(code, 8) {
			out = append(out, m[1])
		}
		if lang == "texlua" {
			for _, m := range reTexDirectLua().FindAllStringSubmatch(code, 8) {
				out = append(out, "lua -e "+shellQuote(m[1]))
			}
		}
		return out
	case "rpm":
		var out []string
		for _, m := range reRPMShell().FindAllStringSubmatch(code, 8) {
			out = append(out, m[1])
		}
		for _, m := range reRPMLua().FindAllStringSubmatch(code, 8) {
			out = append(out, "lua -e "+shellQuote(m[1]))
		}
		return out
	case "make":
		var out []string
		for _, m := range reMakeShell().FindAllStringSubmatch(code, 8) {
			out = append(out, m[1])
		}
		return out
	case "bang":
		var out []string
		for _, part := range strings.Split(code, ";") {
			if p := strings.TrimSpace(part); strings.HasPrefix(p, "!") {
				out = append(out, p[1:])
			}
		}
		if len(out) == 0 && strings.HasPrefix(code, "!") {
			out = append(out, code[1:])
		}
		return out
	case "fzf":
		var out []string
		for _, m := range reFzfExec().FindAllStringSubmatch(code, 8) {
			out = append(out, m[2])
		}
		return out
	case "puppet":
		var out []string
		for _, m := range rePuppetExec().FindAllStringSubmatch(code, 8) {
			out = append(out, unescapeCodeString(m[1]+m[2]))
		}
		if len(out) == 0 && strings.Contains(code, "exec") {
			out = append(out, "$(…)")
		}
		return out
	case "busctl":
		if rest, ok := strings.CutPrefix(code, "unixexec:"); ok {
			var argv []string
			for _, kv := range strings.Split(rest, ",") {
				k, v, _ := strings.Cut(kv, "=")
				if k == "path" || strings.HasPrefix(k, "argv") && k != "argv0" {
					argv = append(argv, v)
				}
			}
			return []string{shellJoin(argv)}
		}
	case "aptopt":
		k, v, ok := strings.Cut(code, "=")
		if ok && (strings.Contains(strings.ToLower(k), "pre-invoke") || strings.Contains(strings.ToLower(k), "post-invoke") || strings.Contains(strings.ToLower(k), "pre-install-pkgs")) {
			return []string{v}
		}
	case "hgcfg":
		k, v, ok := strings.Cut(code, "=")
		switch {
		case !ok:
		case strings.HasPrefix(k, "alias.") && strings.HasPrefix(v, "!"):
			return []string{v[1:]}
		case strings.HasPrefix(k, "hooks.") && !strings.HasPrefix(v, "python:"):
			return []string{v}
		}
	case "sshfsopt":
		for _, o := range strings.Split(code, ",") {
			if v, ok := strings.CutPrefix(o, "ssh_command="); ok {
				return []string{v}
			}
		}
	}
	return nil
}

func argAt(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

// callsShell follows the system("…")-style calls of Octave/MATLAB, gnuplot, S-Lang, bpftrace,
// Guile, CLISP, jrunscript and GHC code, MATLAB's "!cmd" lines and the fetch-and-eval of
// eval(urlread(URL)); a call it cannot read becomes "$(…)".
func callsShell(code string) []string {
	var out []string
	for _, m := range reCallsFetchRun().FindAllStringSubmatch(code, 4) {
		out = append(out, "curl -s "+shellQuote(m[1])+" | sh")
	}
	for _, m := range reCallsQuoted().FindAllStringSubmatch(code, 8) {
		out = append(out, unescapeCodeString(m[1]+m[2]))
	}
	for _, m := range reCallsBang().FindAllStringSubmatch(code, 8) {
		out = append(out, m[1])
	}
	if len(out) == 0 {
		for _, m := range reCallsFetch().FindAllStringSubmatch(code, 4) {
			out = append(out, "curl -s "+shellQuote(m[1]))
		}
	}
	if len(out) == 0 && reCallsRisky().MatchString(code) {
		out = append(out, "$(…)")
	}
	return out
}

// elispShell returns the commands an Emacs Lisp form (emacs --eval, --execute; unwrap.go)
// runs (shell-command, term and shell
// buffers, call-process) and the files it writes, as shell lines: a write is ": >> FILE" so
// the path rules judge where it lands (an init file is a startup file). A form that quotes
// another form ("(insert \"(shell-command …)\")") is read once unescaped too.
func elispShell(form string) []string {
	var out []string
	forms := []string{form}
	if strings.Contains(form, `\"`) {
		forms = append(forms, strings.ReplaceAll(form, `\"`, `"`))
	}
	seen := map[string]bool{}
	add := func(c string) {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, f := range forms {
		for _, c := range emacsShell(f) {
			add(c)
		}
		for _, m := range reElispTerm().FindAllStringSubmatch(f, 4) {
			if m[1] == "" {
				add("sh")
			} else {
				add(unescapeCodeString(m[1]))
			}
		}
		for _, p := range elispWrites(f) {
			add(": >> " + shellQuote(p))
		}
		for _, m := range reElispFetch().FindAllStringSubmatch(f, 4) {
			add("curl -s " + shellQuote(m[1]))
		}
	}
	return out
}

// vimShellCommand returns the shell an ex command opens: :sh, :shell, and ":set shell=PROG |
// shell" (GTFOBins vi). Other escapes (:!cmd, :py, :lua, :term) are read in unwrap.go.
func vimShellCommand(c string) []string {
	shell := "sh"
	for _, part := range strings.Split(c, "|") {
		p := strings.TrimPrefix(strings.TrimSpace(part), ":")
		if v, ok := strings.CutPrefix(p, "set shell="); ok {
			shell = strings.TrimSpace(v)
			continue
		}
		if p == "sh" || p == "shell" {
			return []string{shell}
		}
	}
	return nil
}

// elispWrites returns the files an Emacs Lisp form writes: the file-name argument of
// append-to-file and write-region (START END FILENAME), with-temp-file, write-file and the
// target of copy-file, taken as the last path-like string literal inside each call.
func elispWrites(form string) []string {
	var out []string
	for _, idx := range reElispWriteCall().FindAllStringIndex(form, 8) {
		body := lispCall(form[idx[0]:])
		var last string
		for _, m := range reElispString().FindAllStringSubmatch(body, 16) {
			if v := unescapeCodeString(m[1]); strings.HasPrefix(v, "~") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") || strings.Contains(v, "/") {
				last = v
			}
		}
		if last != "" {
			out = append(out, last)
		}
	}
	return out
}

// lispCall returns the call starting at form[0] up to its closing parenthesis, strings
// skipped; the whole text when it is not closed.
func lispCall(form string) string {
	depth, in := 0, false
	for i := 0; i < len(form); i++ {
		switch ch := form[i]; {
		case in && ch == '\\':
			i++
		case ch == '"':
			in = !in
		case in:
		case ch == '(':
			depth++
		case ch == ')':
			depth--
			if depth == 0 {
				return form[:i+1]
			}
		}
	}
	return form
}
