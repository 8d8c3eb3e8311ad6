package riskmodel

import (
	"regexp"
	"strings"
)

// Interpreter code that runs what it fetches, in the spellings neither the common shell-call
// pattern (inline.go's reShellCall) nor the Julia/Elixir/Tcl calls (inline_langs.go) reach:
// Elixir's :os.cmd(String.to_charlist("…")), the shell calls of Erlang (os:cmd, open_port({spawn, …})), Clojure/Babashka (shell, sh,
// process) and Raku (shell, qx), whose literal commands are followed like python's
// os.system; code loaded from a URL (R source(URL), PHP include URL, JavaScript import of a
// URL); Python 2's exec statement; and code that evaluates what it reads from standard input
// when that input was fetched. Sources: erlang.org os and erlang
// (open_port) references; babashka book, "Shell commands"; docs.raku.org "routine shell";
// R documentation ?source; php.net include (allow_url_include); MDN import(); Python 2
// language reference, "The exec statement".

// ecoShellCall is one language's literal shell call: the pattern, and whether its first
// submatch is a whole shell command line (true) or a list of argv strings (false).
type ecoShellCall struct {
	re     func() *regexp.Regexp
	script bool
}

var (
	reExOsCmdCharlist = lazyRegexp(`:os\.cmd\(\s*(?:String\.to_charlist|to_charlist|to_char_list)\(\s*"((?:[^"\\]|\\.)*)"`)
	reErlOsCmd        = lazyRegexp(`\bos:cmd\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')`)
	reErlPort         = lazyRegexp(`open_port\(\s*\{\s*spawn\s*,\s*"((?:[^"\\]|\\.)*)"`)
	reCljShell        = lazyRegexp(`\((?:[\w.\-]+/)?(?:shell|sh|process)((?:\s+"(?:[^"\\]|\\.)*")+)\s*\)`)
	reRakuShell       = lazyRegexp(`\b(?:shell|qx)\s*\(?\s*"((?:[^"\\]|\\.)*)"`)
	rePy2Exec         = lazyRegexp(`(?m)(?:^|[;:])\s*exec\s+[A-Za-z_"']`)
	reJSURLImport     = lazyRegexp(`\b(?:import\s*\(\s*|import\s+(?:[\w*{}\s,$]+\s+from\s+)?|require\s*\(\s*)["'](https?://[^"'\s]{1,1000})["']`)
	reRURLSource      = lazyRegexp(`\b(?:sys\.)?source\s*\(\s*["'](https?://[^"'\s]{1,1000})["']`)
	reRURLRead        = lazyRegexp(`\b(?:readLines|url|scan|readRDS|read\.table|read\.csv)\s*\(\s*(?:url\s*\(\s*)?["'](https?://[^"'\s]{1,1000})["']`)
	reCljURLRead      = lazyRegexp(`(?i)\(\s*slurp\s+"(https?://[^"\s]{1,1000})"`)
	reRbURLRead       = lazyRegexp(`\b(?:URI\.open|URI\.parse|open|Net::HTTP\.get|URI)\s*\(?\s*["'](https?://[^"'\s]{1,1000})["']`)
	rePHPURLInc       = lazyRegexp(`\b(?:include|require)(?:_once)?\s*\(?\s*["'](https?://[^"'\s]{1,1000})["']`)
	reCodeStrings     = lazyRegexp(`"((?:[^"\\]|\\.)*)"`)
	reReadsStdin      = lazyRegexp(`sys\.stdin|process\.stdin|\bSTDIN\b|\$stdin|php://stdin|io\.read\b|io\.stdin|file\(\s*["']stdin["']\)|readLines\(\s*["']stdin["']|<>|Console\.In|\[Console\]::In|IO\.read\(:stdio|\$input`)
)

// followEcoShells follows the literal shell calls of the languages above: run gives the
// command line to the shell analysis, argv a program and its arguments. It returns the spans
// it followed, so their capabilities are not counted as unfollowed.
func followEcoShells(lang, code string, run func(start int, cmd string), argv func(args []string, text string)) [][2]int {
	var calls []ecoShellCall
	switch lang {
	case "elixir":
		calls = []ecoShellCall{{reExOsCmdCharlist, true}} // the other spellings: inline_langs.go
	case "erlang":
		calls = []ecoShellCall{{reErlOsCmd, true}, {reErlPort, true}}
	case "clojure":
		calls = []ecoShellCall{{reCljShell, false}}
	case "raku":
		calls = []ecoShellCall{{reRakuShell, true}}
	default:
		return nil
	}
	var spans [][2]int
	for _, k := range calls {
		for _, idx := range k.re().FindAllStringSubmatchIndex(code, 32) {
			m := submatches(code, idx)
			if k.script {
				run(idx[0], unescapeCodeString(strings.Join(m[1:], "")))
				spans = append(spans, [2]int{idx[0], idx[1]})
				continue
			}
			var args []string
			for _, s := range reCodeStrings().FindAllStringSubmatch(m[1], 64) {
				args = append(args, unescapeCodeString(s[1]))
			}
			if len(args) == 0 {
				continue
			}
			if lang == "clojure" && len(args) == 1 {
				run(idx[0], args[0]) // (shell "cmd args"): one string is the whole command
			} else if len(args) > 0 {
				argv(args, m[0])
			}
			spans = append(spans, [2]int{idx[0], idx[1]})
		}
	}
	return spans
}

// codeLoadsURLs returns the URLs code loads and runs as code in one step: JavaScript's import
// of a URL (deno eval, bun -e), PHP's include or require of a URL.
func codeLoadsURLs(lang, code string) []string {
	var re *regexp.Regexp
	switch lang {
	case "node":
		re = reJSURLImport()
	case "php":
		re = rePHPURLInc()
	case "r":
		re = reRURLSource()
	default:
		return nil
	}
	return firstGroups(re, code)
}

// codeReadsURLs returns the URLs code reads through functions that take a URL for a file
// name (R's readLines, Clojure's slurp, Ruby's URI.open), which the network tables do not
// list: what they read came from the network, and evaluating it runs fetched code.
func codeReadsURLs(lang, code string) []string {
	switch lang {
	case "r":
		return firstGroups(reRURLRead(), code)
	case "clojure":
		return firstGroups(reCljURLRead(), code)
	case "ruby":
		return firstGroups(reRbURLRead(), code)
	}
	return nil
}

func firstGroups(re *regexp.Regexp, code string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(code, 16) {
		out = append(out, m[1])
	}
	return out
}

// loadsFetchedCode records, in facts, code fetched from u and evaluated.
func (f *CodeFacts) loadsFetchedCode(u string) {
	f.Caps |= capNet | capEval
	f.Reads = append(f.Reads, u)
	if h := hostOf(u); h != "" {
		f.Hosts = append(f.Hosts, h)
	}
}

// py2ExecStatement reports Python 2's exec statement (exec code, exec "…" in ns), which the
// call-based scan does not see: it evaluates code like exec(…).
func py2ExecStatement(lang, code string) bool {
	return lang == "python" && strings.Contains(code, "exec") && rePy2Exec().MatchString(code)
}

// evalsFetchedInput reports inline code that evaluates what it reads from standard input
// (python3 -c "exec(sys.stdin.read())", node -e "…eval(d)" on process.stdin) when that input
// was fetched from a host the user does not trust: curl … | python3 -c "exec(…)" is curl … |
// python3 spelled longer.
func (c *execCtx) evalsFetchedInput(s *Segment) (hosts string, ok bool) {
	f := s.CodeFacts
	if !s.Code || f == nil || f.Caps&capEval == 0 || !s.In.has(taintFetched) {
		return "", false
	}
	code, _ := inlineCode(s)
	if !reReadsStdin().MatchString(code) {
		return "", false
	}
	src := s.In.from(taintFetched)
	if c.allFrom(src, false) {
		return "", false
	}
	return describeHosts(src), true
}

// codeIsSubstitution reports an interpreter whose whole inline code is a command
// substitution (python3 -c "$(curl …)", node -e "$(wget -qO- …)"): the code is what that
// command printed, so it runs with the substitution's taint.
func codeIsSubstitution(s *Segment) bool {
	if !s.Dynamic || !interpreters.get()[s.Name()] && !codeRunners.get()[s.Name()] {
		return false
	}
	code, ok := inlineCode(s)
	return ok && strings.Trim(strings.TrimSpace(code), `"'`) == "$(…)"
}

// codeDownload is a file interpreter code fills from a URL; run is set when the same code
// runs that file itself as code (PowerShell's & ./x.ps1 after Invoke-WebRequest -OutFile).
type codeDownload struct {
	url, file, text string
	run             bool
}

var (
	// python urllib.request.urlretrieve(URL, F); perl LWP::Simple getstore/mirror(URL, F);
	// R download.file(URL, F); julia download(URL, F); PowerShell WebClient.DownloadFile(URL, F).
	reDownloadURLFile = lazyLitRegexp(`(?:urlretrieve|getstore|mirror|download\.file|download|DownloadFile)\s*\(\s*["'](https?://[^"'\s]{1,1000})["']\s*,\s*(?:destfile\s*=\s*)?["']([^"'\s]{1,500})["']`)
	// PowerShell Invoke-WebRequest/iwr/curl/wget/Start-BitsTransfer URL -OutFile F (either order).
	rePwshOutFile = lazyRegexp(`(?i)(?:invoke-webrequest|iwr|curl|wget|start-bitstransfer)\b[^;|\n]*?(?:-uri\s+|-source\s+)?["']?(https?://[^"'\s;]{1,1000})["']?[^;|\n]*?-(?:outfile|destination)\s+["']?([^"'\s;]{1,500})`)
)

// codeDownloads returns the files code downloads. For PowerShell it also says whether the
// code then runs the file (& F, . F, ./F, Start-Process F, -File F), since its statements are
// not shell segments the flow analysis could follow.
func codeDownloads(lang, code string) []codeDownload {
	var out []codeDownload
	for _, m := range reDownloadURLFile().FindAllStringSubmatch(code, 8) {
		out = append(out, codeDownload{url: m[1], file: m[2], text: m[0]})
	}
	if lang != "pwsh" {
		return out
	}
	for _, m := range rePwshOutFile().FindAllStringSubmatch(code, 8) {
		out = append(out, codeDownload{url: m[1], file: m[2], text: m[0]})
	}
	for i := range out {
		base := regexpQuoteBase(out[i].file)
		re, err := regexp.Compile(`(?i)(?:(?:^|[;|({\s])(?:&|\.|start-process|saps|start|invoke-item|ii|-file|powershell(?:\.exe)?|pwsh(?:\.exe)?)\s+["']?(?:\.[\\/])?` + base +
			`|(?:^|[;&|({\s])["']?\.[\\/]` + base + `)["']?\s*(?:$|[;)}\s])`)
		if err != nil {
			continue
		}
		rest := strings.Replace(code, out[i].text, "", 1)
		out[i].run = re.MatchString(rest)
	}
	return out
}

// regexpQuoteBase quotes the last element of a path for a pattern, so ./x.ps1, .\x.ps1 and
// x.ps1 all name it.
func regexpQuoteBase(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return `(?:[^"'\s;]*[\\/])?` + regexp.QuoteMeta(p)
}
