package riskmodel

import (
	"encoding/base64"
	"strings"
)

// Inline interpreter code (python -c, node -e, perl -e, ruby -e, php -r, heredocs fed to an
// interpreter) is inspected, not run: the shell commands it spawns, the files it deletes,
// reads or writes and the URLs and sockets it opens become synthetic segments that the same
// rules judge. What cannot be followed leaves the code marked opaque.

// inlineCode returns the code of an interpreter invocation: "-c CODE", "-e CODE", …
func inlineCode(s *Segment) (code string, ok bool) {
	n := s.Name()
	if !interpreters[n] {
		return "", false
	}
	args := s.Args[1:]
	for i, a := range args {
		if i+1 >= len(args) {
			break
		}
		switch n {
		case "python", "python3", "python2":
			if a == "-c" {
				return args[i+1], true
			}
			if a == "-m" {
				return "", false
			}
		case "node", "bun", "deno":
			if a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "eval" {
				return args[i+1], true
			}
		case "perl", "ruby":
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "e") || a == "-E" {
				return args[i+1], true
			}
		case "php":
			if a == "-r" {
				return args[i+1], true
			}
		case "osascript", "lua", "Rscript", "tclsh", "pwsh":
			if a == "-e" || a == "-c" || a == "-Command" {
				return args[i+1], true
			}
		}
		if !strings.HasPrefix(a, "-") {
			return "", false // a script file comes first
		}
	}
	return "", false
}

// The patterns of inline code are compiled on first use: their long alternations and counted
// repetitions take milliseconds to compile, which every hook process would otherwise pay at
// start even though most commands carry no inline code.
var (
	reShellCall  = lazyRegexp(`(?:system|popen|shell_exec|passthru|execSync|exec|spawnSync|spawn|check_output|check_call|getoutput|getstatusoutput|run|call|Popen|do shell script|qx|%x)\s*[\(\{]?\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|` + "`" + `((?:[^` + "`" + `\\]|\\.)*)` + "`" + `|\[([^\]]*)\])`)
	reBacktick   = lazyRegexp("`([^`]{1,1000})`")
	reDelete     = lazyRegexp(`(rmtree|rm_rf|rm_r|rmSync|rmdirSync|unlinkSync|remove_dir_all|remove|unlink|rmdir|delete|rm)\s*\(\s*(?:(?:os\.path\.)?expanduser\()?\s*["']([^"']{1,1000})["']`)
	reOpen       = lazyRegexp(`(open|readFileSync|readFile|read_text|read_bytes|File\.read|IO\.read|file_get_contents|writeFileSync|writeFile|write_text|File\.write|appendFileSync|file_put_contents)\s*\(\s*(?:(?:os\.path\.)?expanduser\()?\s*["']([^"']{1,1000})["']\s*(?:\)?\s*,\s*["']([rwab+]{1,3})["'])?`)
	reURL        = lazyRegexp(`(?:(post|put|patch|upload|urlretrieve|urlopen|get|fetch|request|Request|LWP::Simple|Net::HTTP)[\w.]*\s*\(?\s*)?["'](https?://[^"'\s]{1,1000})["']`)
	reSocket     = lazyRegexp(`(?:connect|create_connection|Socket|INET|TCPSocket)[\w.:]*\s*\(?\s*\(?\s*(?:PeerAddr\s*=>\s*)?["']([^"']{1,255})["']\s*,\s*(?:PeerPort\s*=>\s*)?["']?(\d{1,5})`)
	reB64Literal = lazyRegexp(`(?:b64decode|decodebytes|decode_base64|base64_decode|atob|Base64\.decode64|decodestring)\s*\(\s*b?["']([A-Za-z0-9+/=_-]{8,})["']|Buffer\.from\(\s*["']([A-Za-z0-9+/=_-]{8,})["']\s*,\s*["']base64["']`)
	reRiskyToken = lazyRegexp(`\b(os|subprocess|shutil|socket|urllib|requests|http|httpx|ctypes|pty|child_process|fs|net|https|FileUtils|File|Net|IO|LWP|Socket|exec|eval|system|unlink|popen|spawn|__import__|compile|require|open|fetch|Deno|Bun|glob|pathlib|Path|importlib|pickle|marshal|base64|codecs|getattr|dlopen|ffi)\b|` + "`")
)

// inspectCode turns inline code into synthetic segments and reports whether every risky
// construct in it was followed.
func (x *extractor) inspectCode(lang, code string, ctx walkCtx) (followed, decodedExec bool) {
	if ctx.depth > maxDepth {
		x.issues = append(x.issues, issue{"too-deep", capText(code)})
		return false, false
	}
	c := ctx.with(lang + " code")
	c.depth++
	c.pipeIn = nil
	code = normalizeHomeExprs(code)
	found := 0
	addSyn := func(args []string, text string) {
		found++
		seg := &Segment{Args: args, Text: capText(text), Parsed: true}
		x.command(seg, c)
	}
	for _, idx := range reShellCall().FindAllStringSubmatchIndex(code, 64) {
		m := submatches(code, idx)
		switch {
		case m[1] != "" || m[2] != "" || m[3] != "":
			src := m[1] + m[2] + m[3]
			if rest := strings.TrimLeft(code[idx[1]:], " \t"); strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, ".") && !strings.HasPrefix(rest, ".then") || strings.HasPrefix(rest, "%") {
				src += " $DYNAMIC" // concatenated with something only known at run time
			}
			found++
			x.script(unescapeCodeString(src), c)
		case m[4] != "":
			if argv := listLiteral(m[4]); len(argv) > 0 {
				addSyn(argv, m[0])
			}
		}
	}
	if lang == "perl" || lang == "ruby" || lang == "php" {
		for _, m := range reBacktick().FindAllStringSubmatch(code, 16) {
			found++
			x.script(m[1], c)
		}
	}
	for _, m := range reDelete().FindAllStringSubmatch(code, 64) {
		verb, p := m[1], m[2]
		switch verb {
		case "rmtree", "rm_rf", "rm_r", "rmSync", "remove_dir_all":
			addSyn([]string{"rm", "-rf", p}, m[0])
		case "delete", "remove", "unlink", "rm", "unlinkSync", "rmdir", "rmdirSync":
			addSyn([]string{"rm", p}, m[0])
		}
	}
	for _, m := range reOpen().FindAllStringSubmatch(code, 64) {
		fn, p, mode := m[1], m[2], m[3]
		if strings.Contains(strings.ToLower(fn), "write") || strings.Contains(fn, "append") || strings.Contains(fn, "put") || strings.ContainsAny(mode, "wa+") {
			addSyn([]string{"tee", p}, m[0])
		} else {
			addSyn([]string{"cat", p}, m[0])
		}
	}
	for _, m := range reURL().FindAllStringSubmatch(code, 32) {
		verb := strings.ToLower(m[1])
		if verb == "post" || verb == "put" || verb == "patch" || verb == "upload" || strings.Contains(code, "method") && containsAny(strings.ToUpper(code), "'POST'", `"POST"`, "'PUT'", `"PUT"`) {
			addSyn([]string{"curl", "--data", "@-", m[2]}, m[0])
		} else {
			addSyn([]string{"curl", m[2]}, m[0])
		}
	}
	for _, m := range reSocket().FindAllStringSubmatch(code, 16) {
		if containsAny(code, "dup2", "pty.spawn", "/bin/sh", "/bin/bash", "subprocess", "exec(", "spawn(") {
			addSyn([]string{"bash", "-i"}, m[0])
			seg := x.segs[len(x.segs)-1]
			seg.Redirs = append(seg.Redirs, Redirect{Op: ">&", Target: "/dev/tcp/" + m[1] + "/" + m[2]})
		} else {
			addSyn([]string{"nc", m[1], m[2]}, m[0])
		}
	}
	for _, m := range reB64Literal().FindAllStringSubmatch(code, 8) {
		lit := m[1] + m[2]
		if dec, ok := decodeB64(lit); ok {
			found++
			d := c
			d.decoded = true
			x.inspectCode(lang, dec, d)
			decodedExec = decodedExec || containsAny(code, "exec(", "eval(", "system(", "Function(", "compile(")
			if looksLikeShell(dec) {
				x.script(dec, d)
			}
		}
	}
	risky := len(reRiskyToken().FindAllStringIndex(code, 256))
	return risky == 0 || found > 0 && found >= countCalls(code), decodedExec
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
	reHomeExpr   = `(?:require\(\s*['"]os['"]\s*\)\.homedir\(\)|os\.homedir\(\)|Dir\.home|os\.path\.expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|os\.environ\[\s*['"]HOME['"]\s*\]|os\.getenv\(\s*['"]HOME['"]\s*\)|ENV\[\s*['"]HOME['"]\s*\]|\$ENV\{HOME\}|process\.env\.HOME|getenv\(\s*['"]HOME['"]\s*\))`
	reHomeInterp = lazyRegexp(`#\{\s*` + reHomeExpr + `\s*\}|\{\s*` + reHomeExpr + `\s*\}|\$\{\s*` + reHomeExpr + `\s*\}`)
	reHomeConcat = lazyRegexp(`(["'` + "`" + `])\s*\+\s*` + reHomeExpr)
)

// normalizeHomeExprs rewrites well-known "home directory" expressions inside or appended to
// string literals as "~", so 'rm -rf ' + os.homedir() reads as 'rm -rf ~'.
func normalizeHomeExprs(code string) string {
	if !strings.Contains(code, "home") && !strings.Contains(code, "HOME") && !strings.Contains(code, "expanduser") {
		return code
	}
	code = reHomeInterp().ReplaceAllString(code, "~")
	return reHomeConcat().ReplaceAllString(code, "~$1")
}

// countCalls estimates how many risky operations the code performs, so that code which does
// one followed thing and one unfollowed thing is still opaque.
func countCalls(code string) int {
	n := 0
	for _, k := range []string{"system(", "popen(", "exec(", "execSync(", "spawn(", "run(", "call(", "Popen(", "check_output(", "rmtree(", "remove(", "unlink(",
		"rmSync(", "urlopen(", "requests.", "fetch(", "connect(", "eval(", "__import__(", "writeFileSync(", "open("} {
		n += strings.Count(code, k)
	}
	if n == 0 {
		n = 1
	}
	return n
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
