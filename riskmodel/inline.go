package riskmodel

import (
	"encoding/base64"
	"regexp"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Inline interpreter code (python -c, node -e, perl -e, ruby -e, php -r, heredocs fed to an
// interpreter) is inspected, not run: the shell commands it spawns, the files it deletes,
// reads or writes and the URLs and sockets it opens become synthetic segments that the same
// rules judge. What cannot be followed leaves the code marked opaque.

// codeLangOf maps an interpreter's name to the language table that reads its code.
var codeLangOf = table[map[string]string]{build: func() map[string]string {
	m := map[string]string{
		"node": "node", "bun": "node", "deno": "node", "nodejs": "node", "perl": "perl", "ruby": "ruby", "php": "php",
		"lua": "lua", "luajit": "lua", "osascript": "osascript", "pwsh": "pwsh", "powershell": "pwsh", "rscript": "r", "r": "r",
		"jshell": "java", "tclsh": "tcl", "wish": "tcl", "awk": "awk", "gawk": "awk", "mawk": "awk", "nawk": "awk", "busybox-awk": "awk",
	}
	for n, e := range ecoInterps.get() {
		m[n] = e.lang
	}
	return m
}}

// codeRunners are the programs, besides the interpreters of rules_net.go, whose arguments
// carry code: awk programs and PowerShell commands. Their standard input is data (awk) or
// handled by the option that says so (pwsh -Command -).
var codeRunners = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"awk": true, "gawk": true, "mawk": true, "nawk": true, "powershell": true, "powershell.exe": true,
		"pwsh.exe": true, "jshell": true, "Rscript": true, "R": true, "luajit": true}
}}

// dollarLangs use $ in their own syntax, so a $ in their code is not a sign of a value the
// shell left unresolved.
var dollarLangs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"perl": true, "php": true, "ruby": true, "pwsh": true, "awk": true, "node": true, "tcl": true}
}}

// inlineSegment records an interpreter segment running code and inspects the code. It
// returns false for awk programs that use none of awk's escapes, which stay plain readers.
func (x *extractor) inlineSegment(seg *Segment, name, code string, ctx walkCtx) bool {
	lang := langOf(name)
	if lang == "awk" {
		if _, caps := scanCaps(lang, code); caps&(capStrong|capEnv|capLoop|capMemBomb) == 0 {
			return false
		}
	}
	if lang == "pwsh" && pwshEncoded(seg.Args[1:]) {
		ctx.decoded = true
	}
	seg.Code = true
	x.add(seg, ctx)
	facts, decodedExec := x.inspectCode(lang, moduleFlags(lang, seg.Args[1:])+code, ctx)
	if facts.Opaque == "" && (reWholeVar().MatchString(code) || strings.Contains(code, "$(…)") || strings.Contains(code, "$((…))") || seg.Dynamic && !dollarLangs.get()[lang] && strings.Contains(code, "$")) {
		facts.Opaque = "part of it is only known when the shell runs it"
		facts.Unfollowed |= capDynamic
	}
	if lang == "pwsh" && !ctx.decoded {
		x.pwshAsShell(code, facts, ctx) // r18win_pwsh.go
	}
	seg.CodeFacts = facts
	seg.CodeOpaque = facts.Opaque != ""
	if decodedExec || ctx.decoded && !hasVia(seg, "decoded") {
		seg.Via = append(append([]string(nil), seg.Via...), "decoded")
	}
	return true
}

// inlineCode returns the code of an interpreter invocation: "-c CODE", "-e CODE", …
func inlineCode(s *Segment) (code string, ok bool) {
	n := s.Name()
	lang := langOf(n)
	if !interpreters.get()[n] && !codeRunners.get()[n] {
		return "", false
	}
	args := s.Args[1:]
	if e := ecoInterps.get()[n]; e != nil {
		return e.inlineCode(args)
	}
	switch lang {
	case "awk":
		return awkProgram(args)
	case "pwsh":
		return pwshCode(args)
	}
	for i, a := range args {
		if i+1 >= len(args) {
			break
		}
		switch lang {
		case "python":
			if a == "-c" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "c") && strings.Trim(a[1:len(a)-1], "BdEhiIOqsSuvx") == "" {
				return args[i+1], true
			}
			if a == "-m" {
				return "", false
			}
		case "node":
			if a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "eval" || a == "-pe" {
				return args[i+1], true
			}
		case "perl", "ruby":
			if isShortFlags(a) && strings.HasSuffix(a, "e") || a == "-E" {
				return args[i+1], true
			}
		case "php":
			if a == "-r" {
				return args[i+1], true
			}
		case "osascript", "lua", "r", "tcl":
			if a == "-e" || a == "-c" || a == "--command" {
				return args[i+1], true
			}
		}
		if !strings.HasPrefix(a, "-") {
			if i > 0 && langValueOpts.get()[lang][args[i-1]] {
				continue // the value of an option such as julia -t 4
			}
			return "", false // a script file comes first
		}
	}
	return "", false
}

// moduleFlags turns the modules an interpreter loads from its command line (perl -MLWP::Simple,
// ruby -rsocket) into source lines, so the capability scan sees them.
func moduleFlags(lang string, args []string) string {
	var b strings.Builder
	for _, a := range args {
		switch {
		case lang == "perl" && (strings.HasPrefix(a, "-M") || strings.HasPrefix(a, "-m")) && len(a) > 2:
			mod, _, _ := strings.Cut(a[2:], "=")
			b.WriteString("use " + mod + ";\n")
		case lang == "ruby" && strings.HasPrefix(a, "-r") && len(a) > 2:
			b.WriteString("require '" + a[2:] + "'\n")
		}
	}
	return b.String()
}

// isShortFlags reports a cluster of single-letter flags such as -ne or -lane (not -Mmod=x).
func isShortFlags(a string) bool {
	if len(a) < 2 || len(a) > 6 || a[0] != '-' || a[1] == '-' {
		return false
	}
	for _, c := range a[1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

var reWholeVar = lazyRegexp(`^\s*\$\{?[A-Za-z_]\w*\}?\s*$`)

// awkProgram returns the program text of an awk invocation, skipping -F, -v and friends; a
// program read from a file (-f) is not known.
func awkProgram(args []string) (string, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1], true
			}
			return "", false
		case a == "-f" || strings.HasPrefix(a, "--file"):
			return "", false
		case a == "-e" || a == "--source":
			if i+1 < len(args) {
				return args[i+1], true
			}
			return "", false
		case a == "-F" || a == "-v" || a == "--assign" || a == "--field-separator":
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			return a, true
		}
	}
	return "", false
}

// pwshOptArgs are PowerShell options (lower case, any unique prefix accepted by pwsh is
// spelled out) that take a value.
var pwshOptArgs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-w": true, "-windowstyle": true, "-win": true, "-ep": true, "-ex": true, "-exec": true, "-executionpolicy": true,
		"-version": true, "-v": true, "-configurationname": true, "-outputformat": true, "-of": true, "-o": true, "-inputformat": true, "-if": true,
		"-i": true, "-workingdirectory": true, "-wd": true, "-settingsfile": true, "-psconsolefile": true, "-custompipename": true}
}}

// pwshCode returns the command text of a PowerShell invocation: -Command TEXT…, the words
// after the options, or the decoded -EncodedCommand (UTF-16LE base64). A script (-File) is
// not inline code.
func pwshCode(args []string) (string, bool) {
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i])
		if a != "-" && (strings.HasPrefix(a, "-") || strings.HasPrefix(a, "/")) {
			o := strings.TrimLeft(a, "-/")
			switch {
			case o == "c" || o == "command" || strings.HasPrefix("command", o) && len(o) >= 3:
				if i+1 < len(args) {
					return strings.Join(args[i+1:], " "), true
				}
				return "", false
			case o == "e" || o == "ec" || strings.HasPrefix("encodedcommand", o) && len(o) >= 2 && o[0] == 'e' && o != "ex" && o != "exec" && !strings.HasPrefix(o, "exe"):
				if i+1 < len(args) {
					if dec, ok := decodeUTF16B64(args[i+1]); ok {
						return dec, true
					}
					return "$(…)", true // not decodable: unknown code
				}
				return "", false
			case o == "f" || o == "file":
				return "", false
			}
			if pwshOptArgs.get()["-"+o] {
				i++
			}
			continue
		}
		return strings.Join(args[i:], " "), true
	}
	return "", false
}

// pwshEncoded reports a PowerShell invocation whose command is base64-encoded.
func pwshEncoded(args []string) bool {
	for _, a := range args {
		o := strings.TrimLeft(strings.ToLower(a), "-/")
		if (o == "e" || o == "ec" || strings.HasPrefix("encodedcommand", o) && len(o) >= 3 && o != "exe") && strings.HasPrefix(a, "-") {
			return true
		}
	}
	return false
}

// decodeUTF16B64 decodes PowerShell's -EncodedCommand: base64 of UTF-16LE text.
func decodeUTF16B64(s string) (string, bool) {
	raw, ok := decodeB64(s)
	if !ok || len(raw)%2 != 0 || len(raw) > 1<<20 {
		return "", false
	}
	var b strings.Builder
	for i := 0; i+1 < len(raw); i += 2 {
		r := rune(raw[i]) | rune(raw[i+1])<<8
		b.WriteRune(r)
	}
	return b.String(), true
}

// The patterns of inline code are compiled on first use: their long alternations and counted
// repetitions take milliseconds to compile, which every hook process would otherwise pay at
// start even though most commands carry no inline code.
var (
	reShellCall  = lazyLitRegexp(`(?:system|popen|shell_exec|passthru|execSync|exec|spawnSync|spawn|check_output|check_call|getoutput|getstatusoutput|run|call|Popen|do shell script|qx|%x|os\.execute|io\.popen)\s*[\(\{]?\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|` + "`" + `((?:[^` + "`" + `\\]|\\.)*)` + "`" + `|\[([^\]]*)\])`)
	reBacktick   = lazyLitRegexp("`([^`]{1,1000})`")
	reDelete     = lazyLitRegexp(`(rmtree|rm_rf|rm_r|rmSync|rmdirSync|unlinkSync|remove_dir_all|remove_tree|remove|unlink|rmdir|delete|rm)!?\s*\(\s*(?:(?:os\.path\.)?expanduser\()?\s*["']([^"']{1,1000})["']`)
	reOpen       = lazyLitRegexp(`\b(open|fopen|File\.new|readFileSync|readFile|File\.read|IO\.read|file_get_contents|writeFileSync|writeFile|writeTextFile|File\.write|IO\.write|appendFileSync|appendFile|createWriteStream|file_put_contents|writeString|Files\.write)\s*\(\s*(?:(?:os\.path\.)?expanduser\()?\s*[fbrFBR]{0,2}["'` + "`" + `]([^"'` + "`" + `]{1,1000})["'` + "`" + `]\s*(?:\)?\s*,\s*(?:mode\s*=\s*)?["']([rwabx+]{1,3})["'])?`)
	reURL        = lazyLitRegexp(`(?:((?i:post|put|patch)|upload|urlretrieve|urlopen|get|fetch|request|Request|LWP::Simple|Net::HTTP)[\w.]*\s*\(?\s*)?["'](https?://[^"'\s]{1,1000})["']`)
	reSocket     = lazyLitRegexp(`(?:connect|create_connection|Socket|INET|TCPSocket)[\w.:]*\s*\(?\s*\(?\s*(?:PeerAddr\s*=>\s*)?["']([^"']{1,255})["']\s*,\s*(?:PeerPort\s*=>\s*)?["']?(\d{1,5})`)
	reB64Literal = lazyLitRegexp(`(?:b64decode|decodebytes|decode_base64|base64_decode|atob|Base64\.decode64|decodestring)\s*\(\s*b?["']([A-Za-z0-9+/=_-]{8,})["']|Buffer\.from\(\s*["']([A-Za-z0-9+/=_-]{8,})["']\s*,\s*["']base64["']|(?i:FromBase64String)\(\s*["']([A-Za-z0-9+/=_-]{8,})["']`)
)

// inspectCode turns inline code into synthetic segments and returns what it found: the
// capabilities of the code, which risky calls were not followed, and the literal hosts and
// paths it touches. Code is opaque when a risky call was not followed, when it evaluates
// something it builds at run time, or when it is too large to scan.
func (x *extractor) inspectCode(lang, code string, ctx walkCtx) (facts *CodeFacts, decodedExec bool) {
	facts = &CodeFacts{}
	if ctx.depth > maxDepth {
		x.issues = append(x.issues, issue{"too-deep", capText(code)})
		facts.Opaque = "it nests code too deeply to follow"
		return facts, false
	}
	c := ctx.with(lang + " code")
	c.depth++
	c.pipeIn = nil
	if lang == "pwsh" && strings.Contains(code, "$") {
		code = replaceByContext(code, rePwshHome(), "~", `"~"`) // PowerShell's automatic $HOME
	}
	code = normalizeHomeExprs(code)
	code = propagateConstants(code)
	code = foldPathExprs(lang, code)
	if folded := code; strings.Contains(folded, `"~`) || strings.Contains(folded, `"$XDG_`) {
		// p = os.path.expanduser('~/.claude/settings.json'); open(p, 'w'): the variable holds
		// a literal only once the path is folded, so constants are propagated again.
		code = propagateConstants(folded)
	}
	if len(code) > maxCodeScan {
		facts.Opaque = "it is too long to follow"
	}
	var spans [][2]int
	followed := func(idx []int) { spans = append(spans, [2]int{idx[0], idx[1]}) }
	addSyn := func(args []string, text string) {
		seg := &Segment{Args: args, Text: capText(text), Parsed: true}
		x.command(seg, c)
	}
	// runsFetched follows a command whose output is itself run: os.execute(io.popen("curl …"):
	// read()), os.system(check_output(["curl", …])), system(`wget -qO- …`). That is remote
	// code run unseen, the same as curl … | sh, whatever the language.
	runsFetched := func(start int, cmd string) {
		if f := strings.Fields(cmd); len(f) > 0 && fetchers.get()[baseName(f[0])] && reExecOpener().MatchString(code[max(0, start-48):start]) {
			x.script(cmd+" | sh", c)
		}
	}
	for _, d := range codeDownloads(lang, code) {
		// urlretrieve(URL, F), getstore(URL, F), download.file(URL, F): the file now holds
		// fetched content, so a later system("sh F") is followed as download → run.
		addSyn([]string{"curl", "-o", d.file, d.url}, d.text)
		if d.run {
			facts.loadsFetchedCode(d.url)
		}
	}
	for _, idx := range reShellCall().FindAllStringSubmatchIndex(code, 64) {
		m := submatches(code, idx)
		switch {
		case m[1] != "" || m[2] != "" || m[3] != "":
			src := m[1] + m[2] + m[3]
			if rest := strings.TrimLeft(code[idx[1]:], " \t"); strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, ".") && !strings.HasPrefix(rest, ".then") || strings.HasPrefix(rest, "%") {
				src += " $DYNAMIC" // concatenated with something only known at run time
			}
			followed(idx)
			x.script(unescapeCodeString(src), c)
			runsFetched(idx[0], unescapeCodeString(src))
		case m[4] != "":
			if argv := listLiteral(m[4]); len(argv) > 0 {
				followed(idx)
				addSyn(argv, m[0])
				runsFetched(idx[0], strings.Join(argv, " "))
			}
		}
	}
	for _, lc := range langCalls(lang, code) {
		if coveredSpan(spans, lc.start, lc.end) {
			continue // run(`…`): already followed as a shell call
		}
		followed([]int{lc.start, lc.end})
		if lc.argv != nil {
			addSyn(lc.argv, code[lc.start:lc.end])
			runsFetched(lc.start, strings.Join(lc.argv, " "))
			continue
		}
		x.script(lc.script, c)
		runsFetched(lc.start, lc.script)
	}
	spans = append(spans, followEcoShells(lang, code, func(start int, cmd string) {
		x.script(cmd, c)
		runsFetched(start, cmd)
	}, addSyn)...)
	for _, u := range codeLoadsURLs(lang, code) {
		facts.loadsFetchedCode(u)
	}
	for _, u := range codeReadsURLs(lang, code) {
		facts.Caps |= capNet
		facts.Reads = append(facts.Reads, u)
	}
	if lang == "awk" {
		// print | "cmd", "cmd" | getline: awk pipes run their string through the shell.
		for _, p := range awkPipes(code) {
			if !p.literal {
				if !strings.Contains(code, "/inet") {
					facts.Unfollowed |= capExec
					facts.Opaque = "it pipes to or from a command held in the variable " + p.target
				}
				continue
			}
			cmd := unescapeCodeString(p.target)
			if f := strings.Fields(cmd); len(f) == 1 && (shells.get()[baseName(f[0])] || interpreters.get()[baseName(f[0])]) {
				facts.Unfollowed |= capExec
				facts.Opaque = "it prints text into " + f[0] + ", which runs it as code"
			}
			spans = append(spans, [2]int{p.start, p.end})
			x.script(cmd, c)
		}
	}
	if lang == "perl" || lang == "ruby" || lang == "php" {
		for _, idx := range reBacktick().FindAllStringSubmatchIndex(code, 16) {
			followed(idx)
			x.script(code[idx[2]:idx[3]], c)
			runsFetched(idx[0], code[idx[2]:idx[3]])
		}
	}
	for _, idx := range reDelete().FindAllStringSubmatchIndex(code, 64) {
		m := submatches(code, idx)
		verb, p := m[1], m[2]
		followed(idx)
		switch verb {
		case "rmtree", "rm_rf", "rm_r", "rmSync", "remove_dir_all", "remove_tree":
			addSyn([]string{"rm", "-rf", p}, m[0])
		default:
			if strings.Contains(code[idx[1]:min(len(code), idx[1]+80)], "recursive") {
				addSyn([]string{"rm", "-rf", p}, m[0])
			} else {
				addSyn([]string{"rm", p}, m[0])
			}
		}
	}
	for _, idx := range reOpen().FindAllStringSubmatchIndex(code, 64) {
		m := submatches(code, idx)
		fn, p, mode := m[1], m[2], m[3]
		followed(idx)
		if strings.Contains(strings.ToLower(fn), "write") || strings.Contains(fn, "append") || strings.Contains(fn, "put") || strings.Contains(fn, "Set-Content") || strings.ContainsAny(mode, "wax+") {
			addSyn(teeArgs(p, strings.Contains(fn, "append") || strings.Contains(mode, "a") || appendsAt(code, idx[1])), m[0])
		} else {
			facts.Reads = append(facts.Reads, p)
			addSyn([]string{"cat", p}, m[0])
		}
	}
	for _, call := range codeSecretReads(lang, code) {
		// keyring.get_password(…), keytar.getPassword(…): a stored password, read as the
		// keyring CLI reads one (inline_secretapi.go).
		addSyn([]string{"keyring", "get", "$SERVICE", "$USER"}, call)
	}
	for _, call := range codeCloudSecretReads(lang, code) {
		// boto3 get_secret_value(…), access_secret_version(…): a secret manager's value, read
		// as the CLI reads it (r15exec_secretapi.go).
		addSyn([]string{"aws", "secretsmanager", "get-secret-value", "--secret-id", "$SECRET"}, call)
	}
	for _, e := range codeFileEffects(lang, code) {
		spans = append(spans, [2]int{e.start, e.end})
		switch {
		case e.del:
			addSyn([]string{"rm", e.path}, e.text)
		case e.write:
			addSyn(teeArgs(e.path, e.apnd), e.text)
		default:
			facts.Reads = append(facts.Reads, e.path)
			addSyn([]string{"cat", e.path}, e.text)
		}
	}
	x.recordCodeWrites(lang, code) // r17b_codewrites.go: the text written, for what runs it later
	hits, all := scanCaps(lang, code)
	for _, p := range codeGlobReads(code, all) {
		// glob.glob('/home/*/.ssh/id_*') read: judged as the shell's cat of the pattern (cred_glob.go).
		facts.Reads = append(facts.Reads, p)
		addSyn([]string{"cat", p}, p)
	}
	if all&capRead != 0 {
		// A credential store named through a path built at run time from the home directory:
		// readFileSync(os.homedir()+'/.npmrc'), Path.home() / '.ssh' / 'id_rsa'.
		for _, p := range homeCredPaths(code, spans) {
			facts.Reads = append(facts.Reads, p)
			addSyn([]string{"cat", p}, p)
		}
	}
	posts := reSendsBody().MatchString(code)
	for _, idx := range reURL().FindAllStringSubmatchIndex(code, 32) {
		m := submatches(code, idx)
		verb := strings.ToLower(m[1])
		followed(idx)
		if u := hostOf(m[2]); u != "" {
			facts.Hosts = append(facts.Hosts, u)
		}
		if evalsURL(code, idx[4]-1) {
			// source("https://…"), include(download("https://…")): the fetched text is run.
			facts.Reads = append(facts.Reads, m[2])
			facts.Caps |= capEval | capNet
		}
		if verb == "post" || verb == "put" || verb == "patch" || verb == "upload" || strings.HasPrefix(verb, "upload") || posts {
			addSyn([]string{"curl", "--data", "@-", m[2]}, m[0])
		} else {
			addSyn([]string{"curl", m[2]}, m[0])
		}
	}
	for _, m := range reBareURL().FindAllStringSubmatch(code, 32) {
		facts.Hosts = append(facts.Hosts, strings.ToLower(m[1]))
	}
	for _, idx := range reSocket().FindAllStringSubmatchIndex(code, 16) {
		m := submatches(code, idx)
		followed(idx)
		facts.Hosts = append(facts.Hosts, m[1])
		if containsAny(code, "dup2", "pty.spawn", "/bin/sh", "/bin/bash", "subprocess", "exec(", "spawn(", "popen", "system") {
			addSyn([]string{"bash", "-i"}, m[0])
			seg := x.segs[len(x.segs)-1]
			seg.Redirs = append(seg.Redirs, Redirect{Op: ">&", Target: "/dev/tcp/" + m[1] + "/" + m[2]})
		} else {
			addSyn([]string{"nc", m[1], m[2]}, m[0])
		}
	}
	for _, idx := range reB64Literal().FindAllStringSubmatchIndex(code, 8) {
		m := submatches(code, idx)
		lit := m[1] + m[2] + m[3]
		if dec, ok := decodeB64(lit); ok {
			followed(idx)
			d := c
			d.decoded = true
			sub, _ := x.inspectCode(lang, dec, d)
			facts.merge(sub)
			decodedExec = decodedExec || containsAny(code, "exec(", "eval(", "system(", "Function(", "compile(")
			if looksLikeShell(dec) {
				x.script(dec, d)
			}
		}
	}
	if py2ExecStatement(lang, code) {
		all |= capEval
		facts.Unfollowed |= capEval
		if facts.Opaque == "" {
			facts.Opaque = "it evaluates code with the exec statement"
		}
	}
	facts.Caps |= all
	if all&(capNet|capSocket) != 0 && strings.Contains(code, "/v1/") {
		facts.GuardianRoute = codeGuardianRoute(code)
	}
	for _, h := range hits {
		if !h.strong || h.cap&(capStrong|capRead) == 0 || covered(spans, h) {
			continue
		}
		if h.cap&(capEval|capDynamic) != 0 {
			if lit, ok := literalArg(code, h.end); ok {
				// eval("…") of a literal is code we can read; require("fs") names a module.
				if h.cap&capEval != 0 && strings.TrimSpace(lit) != "" {
					sub, _ := x.inspectCode(lang, lit, c)
					facts.merge(sub)
				}
				continue
			}
		}
		cp := h.cap
		if cp == capWrite && (lang == "julia" || lang == "elixir") && writesToStream(code, h.end) {
			continue // write(stdout, …): output, not a file
		}
		if cp&capRead != 0 && cp&^capRead == 0 {
			if !writesByMode(code, h.end) {
				continue // reading a file named at run time: judged by what the data feeds
			}
			cp = capWrite // open(p, "w"): a write to a path known only at run time
			facts.Caps |= capWrite
		}
		facts.Unfollowed |= cp
		if facts.Opaque == "" {
			facts.Opaque = "it calls " + h.name + " with arguments known only at run time"
		}
	}
	if facts.Opaque == "" && facts.Caps&capDecode != 0 && facts.Caps&(capEval|capExec) != 0 && !decodedExec {
		facts.Unfollowed |= capDecode
		facts.Opaque = "it runs data it decodes at run time"
	}
	return facts, decodedExec
}

// teeArgs is the synthetic segment of a write: tee -a for an append, tee for a write that
// replaces the file, so the file rules judge it as they judge the shell's.
func teeArgs(p string, apnd bool) []string {
	if apnd {
		return []string{"tee", "-a", p}
	}
	return []string{"tee", p}
}

// merge adds what nested code (decoded, eval'ed) does to the code that runs it.
func (f *CodeFacts) merge(sub *CodeFacts) {
	if sub == nil {
		return
	}
	f.Caps |= sub.Caps
	f.Unfollowed |= sub.Unfollowed
	f.Hosts = append(f.Hosts, sub.Hosts...)
	f.Reads = append(f.Reads, sub.Reads...)
	if f.GuardianRoute == "" {
		f.GuardianRoute = sub.GuardianRoute
	}
	if f.Opaque == "" {
		f.Opaque = sub.Opaque
	}
}

// covered reports whether a capability hit lies inside a construct that was followed.
func covered(spans [][2]int, h capHit) bool {
	for _, s := range spans {
		if h.start < s[1] && h.end > s[0] || h.end <= s[0] && s[0]-h.end <= 2 {
			return true
		}
	}
	return false
}

// literalArg returns the string literal that is the whole first argument of a call whose
// name ends at end: ("…"), ('…'), or perl/ruby's bare "…".
// reExecOpener finds the opening of a call that runs its argument as a command or as code,
// right before the argument: os.execute(, system(, exec(, eval(, Kernel.exec (.
// The parenthesis is optional (perl's eval `…`); Lua's load/loadstring count only as the
// global functions, not json.load(…), which reads data.
var reExecOpener = lazyRegexp(`(?i)(?:\b(?:execute|system|exec|execSync|eval|spawn|popen|shell_exec|passthru|Invoke-Expression|iex)|(?:^|[^.\w:])(?:load|loadstring|dostring))\s*(?:\(\s*)?([A-Za-z_][\w.]*\.)?$`)

func literalArg(code string, end int) (string, bool) {
	i := end
	for i < len(code) && (code[i] == ' ' || code[i] == '\t') {
		i++
	}
	if i < len(code) && code[i] == '(' {
		i++
		for i < len(code) && (code[i] == ' ' || code[i] == '\t') {
			i++
		}
	}
	if i >= len(code) || code[i] != '"' && code[i] != '\'' {
		return "", false
	}
	q := code[i]
	j := i + 1
	for ; j < len(code) && j-i < 4096; j++ {
		if code[j] == '\\' {
			j++
			continue
		}
		if code[j] == q {
			break
		}
	}
	if j >= len(code) || code[j] != q {
		return "", false
	}
	k := j + 1
	for k < len(code) && (code[k] == ' ' || code[k] == '\t') {
		k++
	}
	if k < len(code) && !strings.ContainsRune(");,\n}", rune(code[k])) {
		return "", false // "…" + something: built at run time
	}
	return unescapeCodeString(code[i+1 : j]), true
}

// writesByMode reports whether an open(…) call starting at end passes a write mode.
func writesByMode(code string, end int) bool {
	e := min(len(code), end+200)
	arg := code[end:e]
	if p := strings.IndexByte(arg, ')'); p >= 0 {
		arg = arg[:p]
	}
	return reWriteMode().MatchString(arg)
}

var (
	reWriteMode = lazyRegexp(`,\s*(?:mode\s*=\s*)?["'][rb]?[wax+][bt+]?["']|">|'>|">>|'>>|\+>`)
	reSendsBody = lazyLitRegexp(`\bdata\s*=[^=]|\bjson\s*=[^=]|\bfiles\s*=[^=]|\bbody\s*:|\bbody\s*=[^=]|method\s*[:=]\s*["'](?i:post|put|patch)|(?i)-Method\s+(?:post|put)|(?i)-Body\b|(?i)Upload(?:String|File|Data|Values)|\.write\(|\.end\(\s*[^)\s]`)
	reBareURL   = lazyLitRegexp(`(?i)\b(?:https?|wss?|ftp)://([a-z0-9.\-]+|\[[0-9a-f:.]+\])`)
)

// hostOf returns the host of a URL literal, "" if it has none.
func hostOf(u string) string {
	if m := reBareURL().FindStringSubmatch(u); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

func submatches(s string, idx []int) []string {
	out := make([]string, len(idx)/2)
	for i := range out {
		if idx[2*i] >= 0 {
			out[i] = s[idx[2*i]:idx[2*i+1]]
		}
	}
	return out
}

var (
	reHomeInterp  = lazyRegexp(`#\{\s*` + reHomeExpr + `\s*\}|\{\s*` + reHomeExpr + `\s*\}|\$\{\s*` + reHomeExpr + `\s*\}|\$\(\s*` + reHomeExpr + `\s*\)`)
	reHomeBare    = lazyRegexp(`(?:pathlib\.)?` + reHomeExpr)
	reModuleAlias = lazyRegexp(`__import__\(\s*['"](os|pathlib)['"]\s*\)|require\(\s*['"](?:node:)?(os|path)['"]\s*\)`)
	reHomeVar     = lazyRegexp(`(?i:\$env:(?:USERPROFILE|HOME))\b|\$ENV\{["']?HOME["']?\}|\$env\(HOME\)`)
	reHomeConcat  = lazyRegexp(`(["'` + "`" + `])\s*\+\s*` + reHomeExpr)
)

// reHomeExpr is spliced into the expressions above; a constant, so that they are too.
const reHomeExpr = `(?:require\(\s*['"]os['"]\s*\)\.homedir\(\)|os\.homedir\(\)|(?:require\(\s*['"]os['"]\s*\)|os)\.userInfo\(\)\.homedir|Dir\.home|(?:os\.path\.)?expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|os\.environ\[\s*['"]HOME['"]\s*\]|os\.environ\.get\(\s*['"]HOME['"]\s*\)|os\.getenv\(\s*['"]HOME['"]\s*\)|ENV(?:\[\s*['"]HOME['"]\s*\]|\.fetch\(\s*['"]HOME['"]\s*\))|\$ENV\{HOME\}|process\.env(?:\.(?:HOME|USERPROFILE)|\[\s*['"](?:HOME|USERPROFILE)['"]\s*\])|Deno\.env\.get\(\s*['"]HOME['"]\s*\)|System\.getProperty\(\s*"user\.home"\s*\)|File\.expand_path\(\s*['"]~['"]\s*\)|Sys\.getenv\(\s*['"]HOME['"]\s*\)|getenv\(\s*['"](?:HOME|USERPROFILE)['"]\s*\)|\$_(?:SERVER|ENV)\[\s*['"]HOME['"]\s*\]|ENVIRON\[\s*"HOME"\s*\]|(?:Base\.)?homedir\(\)|System\.user_home!?\(\)|Path\.expand\(\s*"~"\s*\))`

// normalizeHomeExprs rewrites well-known "home directory" expressions inside or appended to
// string literals as "~", so 'rm -rf ' + os.homedir() reads as 'rm -rf ~'.
func normalizeHomeExprs(code string) string {
	if !strings.Contains(code, "home") && !strings.Contains(code, "HOME") && !strings.Contains(code, "expanduser") && !strings.Contains(code, "USERPROFILE") {
		return code
	}
	// __import__('os').path…, require('path').join(…): the module by its usual name.
	code = reModuleAlias().ReplaceAllString(code, "$1$2")
	code = reHomeInterp().ReplaceAllString(code, "~")
	code = reHomeConcat().ReplaceAllString(code, "~$1")
	// Inside a string ("$ENV{HOME}/.bashrc", perl and php interpolation) the expression
	// is part of that string's text; outside one it is a value of its own.
	code = replaceByContext(code, reHomeBare(), "~", `"~"`)
	return replaceByContext(code, reHomeVar(), "~", `"~"`) // joins and concatenations: foldPathExprs
}

// replaceByContext replaces every match of re with inString where the match starts inside a
// string literal and with outside elsewhere. Strings are told by their quotes (", ', `) and
// backslash escapes, which is exact enough for the one-liners inline code holds.
func replaceByContext(code string, re *regexp.Regexp, inString, outside string) string {
	idx := re.FindAllStringIndex(code, 64)
	if len(idx) == 0 {
		return code
	}
	var b strings.Builder
	var quote byte
	last, k := 0, 0
	for i := 0; i < len(code) && k < len(idx); i++ {
		if i == idx[k][0] {
			b.WriteString(code[last:i])
			if quote != 0 {
				b.WriteString(inString)
			} else {
				b.WriteString(outside)
			}
			last = idx[k][1]
			k++
			i = last - 1
			continue
		}
		switch c := code[i]; {
		case c == '\\' && quote != 0:
			i++
		case quote != 0 && c == quote, quote != 0 && c == '\n' && quote != '`':
			quote = 0
		case quote == 0 && (c == '"' || c == '\'' || c == '`'):
			quote = c
		}
	}
	b.WriteString(code[last:])
	return b.String()
}

// reCodeLiteral is one quoted string of inline code.
var reCodeLiteral = lazyRegexp("\"([^\"\\\\\\n]{1,300})\"|'([^'\\\\\\n]{1,300})'|`([^`\\\\\\n]{1,300})`")

// homeCredPaths returns the credential stores below the home directory that code names with
// string literals in code that also names the home directory (its home expressions read as
// "~" by normalizeHomeExprs): os.homedir()+'/.npmrc', Path.home() / '.ssh' / 'id_rsa',
// $ENV{HOME}."/.pgpass", os.path.join(home, '.aws', 'credentials'), or home + '/.netrc' with
// home assigned elsewhere. Literals joined by path operators (+ . / ,) are read as one path.
// Literals inside a construct already followed (skip) are left to it.
func homeCredPaths(code string, skip [][2]int) []string {
	if !strings.Contains(code, "~") || !containsAny(code, ".", "/") {
		return nil
	}
	idx := reCodeLiteral().FindAllStringSubmatchIndex(code, 256)
	type lit struct {
		s          string
		start, end int
	}
	lits := make([]lit, 0, len(idx))
	home := false
	for _, m := range idx {
		v := ""
		for g := 1; g <= 3; g++ {
			if m[2*g] >= 0 {
				v = code[m[2*g]:m[2*g+1]]
			}
		}
		if v == "~" || strings.HasPrefix(v, "~/") {
			home = true
		}
		lits = append(lits, lit{v, m[0], m[1]})
	}
	if !home {
		return nil
	}
	joiner := func(gap string) bool {
		gap = strings.TrimSpace(gap)
		return gap == "+" || gap == "." || gap == "/" || gap == "," || gap == ".."
	}
	inSkip := func(l lit) bool {
		for _, s := range skip {
			if l.start >= s[0] && l.end <= s[1] {
				return true
			}
		}
		return false
	}
	cat := catalog.Default()
	seen := map[string]bool{}
	var out []string
	for i := range lits {
		p, followed := "", true
		for k := i; k < len(lits) && k < i+4; k++ {
			if k > i && !joiner(code[lits[k-1].end:lits[k].start]) {
				break
			}
			followed = followed && inSkip(lits[k])
			if k == i && writtenTo(code, lits[k].start) {
				break // the path is written (writeFileSync(home+'/.npmrc', …)), not read
			}
			part := strings.Trim(lits[k].s, "/")
			switch {
			case p == "" || p == "~":
				p = strings.TrimPrefix(strings.TrimPrefix(part, "~"), "/")
			case part != "":
				p += "/" + part
			}
			if p == "" || followed || strings.ContainsAny(p, " \t*?{$") || strings.HasPrefix(p, ".") && strings.Trim(p, ".") == "" {
				continue
			}
			c := "~/" + p
			if seen[c] {
				continue
			}
			if cat.Is(catalog.Credential, c, "") {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// writeCalls are the calls whose path argument is written, not read.
var writeCalls = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"writeFileSync": true, "writeFile": true, "appendFileSync": true, "appendFile": true,
		"createWriteStream": true, "write_text": true, "write_bytes": true, "File.write": true, "IO.write": true, "write": true,
		"file_put_contents": true, "copyFileSync": true, "symlinkSync": true}
}}

// writtenTo reports whether the string literal at pos is the path argument of a call that
// writes: a write function, open with a write mode, or a group (Path.home() / '.npmrc')
// whose value is written (.write_text, .open('w')).
func writtenTo(code string, pos int) bool {
	depth := 0
	for i := pos - 1; i >= 0 && pos-i < 400; i-- {
		switch code[i] {
		case ')', ']':
			depth++
		case '[':
			depth--
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			j := i
			for j > 0 && (identChar(code[j-1]) || code[j-1] == '.') {
				j--
			}
			name := code[j:i]
			if k := strings.LastIndexByte(name, '.'); k >= 0 && !writeCalls.get()[name] {
				name = name[k+1:]
			}
			switch {
			case writeCalls.get()[name]:
				return true
			case name == "open" || name == "fopen" || name == "File.open" || name == "io.open":
				return writesByMode(code, i)
			case name == "":
				// A group: find its close and look at the method called on it.
				d := 0
				for k := i; k < len(code); k++ {
					if code[k] == '(' {
						d++
					} else if code[k] == ')' {
						d--
						if d == 0 {
							rest := code[k+1 : min(len(code), k+40)]
							return strings.HasPrefix(rest, ".write") || strings.HasPrefix(rest, ".open(") && writesByMode(code, k+6)
						}
					}
				}
			}
			return false
		case ';', '\n', '{':
			if depth == 0 {
				return false
			}
		}
	}
	return false
}

func decodeB64(s string) (string, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return string(b), true
		}
	}
	return "", false
}

func looksLikeShell(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	switch baseName(f[0]) {
	case "rm", "curl", "wget", "bash", "sh", "nc", "chmod", "cat", "dd", "mkfs", "sudo", "python", "python3", "perl", "echo", "cp", "mv", "scp", "ssh", "git", "eval":
		return true
	}
	return false
}

// listLiteral reads a list of string literals ("rm", "-rf", "~") into an argv; nil when an
// element is not a plain literal.
func listLiteral(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		p := strings.TrimSpace(part)
		if len(p) < 2 || (p[0] != '"' && p[0] != '\'') || p[len(p)-1] != p[0] {
			if p == "" {
				continue
			}
			out = append(out, "$(unknown)")
			continue
		}
		out = append(out, unescapeCodeString(p[1:len(p)-1]))
	}
	return out
}

func unescapeCodeString(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return ansiC(s)
}

var (
	reConstAssign = lazyRegexp(`(?m)(?:^|[;\n{]|\b(?:const|let|var|my|local)\s+)\s*(\$?[A-Za-z_]\w{0,40})\s*=\s*(?:(["'])([^"'\n\\]{1,300})["']|(?:os\.path\.join|path\.join|File\.join)\(\s*((?:["'][^"'\n\\]{1,100}["']\s*,?\s*){1,6})\))\s*(?:;|\n|$)`)
	reJoinPart    = lazyRegexp(`["']([^"']*)["']`)
)

// propagateConstants replaces a variable assigned one string literal (or a join of literals)
// by that literal where it is passed as an argument, so p='package.json'; open(p,'w') is
// followed like open('package.json','w'). A variable assigned twice is left alone.
func propagateConstants(code string) string {
	if len(code) > 16<<10 || !strings.Contains(code, "=") {
		return code
	}
	ms := reConstAssign().FindAllStringSubmatch(code, 16)
	if len(ms) == 0 {
		return code
	}
	vals := map[string]string{}
	count := map[string]int{}
	for _, m := range ms {
		name, v := m[1], m[3]
		if m[4] != "" {
			var parts []string
			for _, p := range reJoinPart().FindAllStringSubmatch(m[4], 6) {
				parts = append(parts, p[1])
			}
			v = strings.Join(parts, "/")
		}
		count[name]++
		vals[name] = v
	}
	for name, v := range vals {
		if count[name] != 1 || strings.Count(code, name+" =")+strings.Count(code, name+"=") > 1 || strings.ContainsAny(v, `"'`) {
			continue
		}
		lit := `"` + v + `"`
		for _, pre := range []string{"(", "( ", ", ", ","} {
			for _, post := range []string{",", ")", " ,", " )"} {
				code = strings.ReplaceAll(code, pre+name+post, pre+lit+post)
			}
		}
		if rootLiteral(v) {
			// h = os.path.expanduser('~'); open(h + '/.bashrc', 'a'): the home directory
			// held in a variable and joined to a literal is a path foldPathExprs can fold.
			re := regexp.MustCompile(`(^|[^\w$.])` + regexp.QuoteMeta(name) + `(\s*(?:\+|\.\.|\.|/)\s*["'` + "`" + `])`)
			code = re.ReplaceAllString(code, "${1}"+strings.ReplaceAll(lit, "$", "$$")+"${2}")
		}
	}
	return code
}

// awkPipe is one pipe of an awk program: print … | TARGET or TARGET | getline.
type awkPipe struct {
	target     string // the command string, or the variable holding it
	literal    bool
	start, end int
}

// awkPipes finds the pipes of an awk program, skipping string and regex literals so the
// alternation in /GET|POST/ or split($0, a, "|") is not taken for one.
func awkPipes(code string) []awkPipe {
	var out []awkPipe
	type tok struct {
		text       string
		str        bool
		start, end int
	}
	var toks []tok
	regexPos := true // a / here starts a regex literal
	for i := 0; i < len(code) && len(toks) < 4096; {
		ch := code[i]
		switch {
		case ch == '"':
			j := i + 1
			for j < len(code) && code[j] != '"' {
				if code[j] == '\\' {
					j++
				}
				j++
			}
			toks = append(toks, tok{code[i+1 : min(j, len(code))], true, i, min(j+1, len(code))})
			i = j + 1
			regexPos = false
		case ch == '/' && regexPos:
			j := i + 1
			for j < len(code) && code[j] != '/' && code[j] != '\n' {
				if code[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
			regexPos = false
		case ch == '|':
			if i+1 < len(code) && code[i+1] == '|' {
				i += 2
				regexPos = true
				continue
			}
			toks = append(toks, tok{"|", false, i, i + 1})
			i++
			if i < len(code) && code[i] == '&' {
				i++
			}
			regexPos = true
		case identStart(ch) && ch != '$':
			j := i
			for j < len(code) && identChar(code[j]) {
				j++
			}
			toks = append(toks, tok{code[i:j], false, i, j})
			i = j
			regexPos = false
		case ch == ' ' || ch == '\t':
			i++
		default:
			regexPos = strings.IndexByte("({,;~!&=\n", ch) >= 0
			if ch == ')' || ch == ']' || ch >= '0' && ch <= '9' || ch == '$' {
				regexPos = false
			}
			toks = append(toks, tok{string(ch), false, i, i + 1})
			i++
		}
	}
	for k, t := range toks {
		if t.text != "|" || t.str {
			continue
		}
		if k+1 < len(toks) && toks[k+1].text == "getline" && k > 0 {
			p := toks[k-1]
			if p.str || identStart(p.text[0]) {
				out = append(out, awkPipe{p.text, p.str, p.start, toks[k+1].end})
			}
			continue
		}
		if k+1 < len(toks) {
			n := toks[k+1]
			if n.str || len(n.text) > 0 && identStart(n.text[0]) && n.text != "getline" {
				out = append(out, awkPipe{n.text, n.str, t.start, n.end})
			}
		}
	}
	return out
}
