package riskmodel

import "strings"

// What inline code of these languages does, in each one's own syntax for starting programs
// and running fetched code (their command lines and capability tables are in
// interp_ecosystems.go and codecaps.go):
//
//   - Julia: command literals in backticks are always programs
//     (run(`…`), read(`…`, String), pipeline(`a`, `b`)); include/evalfile/include_string
//     evaluate code, download/Downloads/HTTP fetch it (docs.julialang.org: Running External
//     Programs; Base.include; Downloads.jl; HTTP.jl).
//   - Elixir: System.cmd(PROG, ARGS), System.shell(CMD) and :os.cmd(CMD)
//     start programs; Code.eval_string/eval_file evaluate code; :httpc, HTTPoison, Req, Finch
//     fetch (hexdocs.pm: System, Code, :httpc).
//   - Tcl (tclsh, heredoc or stdin): exec WORDS… runs a program, with | pipelines (tcl.tk
//     exec(n)).
//   - R: source(URL), sys.source and devtools::source_url evaluate code fetched from a URL
//     (R documentation: source, url connections).

// langValueOpts are an interpreter's options that take the next word as their value, so
// that word is not read as the script file that would end the search for inline code
// (R and Lua; the ecosystem interpreters' options are in interp_ecosystems.go).
var langValueOpts = table[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"r":   {"--encoding": true, "--default-packages": true},
		"lua": {"-l": true},
	}
}}

// langCall is a program started in a language's own syntax: a shell command line (script)
// or an argument vector (argv), at [start, end) of the code.
type langCall struct {
	start, end int
	script     string
	argv       []string
}

var (
	reJuliaCmd      = lazyRegexp("`((?:[^`\\\\]|\\\\.){1,1000})`")
	reJuliaPipeline = lazyRegexp("pipeline\\(\\s*((?:`[^`]*`\\s*,?\\s*){2,8})\\)")
	reElixirCmd     = lazyRegexp(`(System\.cmd|System\.shell|:os\.cmd)\s*\(?\s*(?:~c"((?:[^"\\]|\\.){0,1000})"|"((?:[^"\\]|\\.){0,1000})"|'((?:[^'\\]|\\.){0,1000})')(?:\s*,\s*\[([^\]]{0,1000})\])?`)
	reTclExec       = lazyRegexp(`(?m)(?:^|[\[;{]\s*|\s)exec\s+([^\]\n;}]{1,1000})`)
	// reEvalURL is a call that evaluates the code found at a URL given as its first argument:
	// R's source(URL), sys.source, devtools::source_url; Julia's include(download(URL));
	// Elixir's Code.eval_file; Lua's dofile and loadfile.
	reEvalURL = lazyRegexp(`(?:\bsource|\bsys\.source|source_url|source_gist|\binclude|evalfile|Code\.eval_file|Code\.require_file|\bdofile|\bloadfile)\s*\(\s*(?:(?:download|Base\.download|Downloads\.download|url)\s*\(\s*)?(?:~c)?$`)
	// reJuliaPipeEval is Julia's function-pipe into an evaluator: download(url) |> include.
	reJuliaPipeEval = lazyRegexp(`\|>\s*(?:include|evalfile|include_string|eval|Meta\.parse)\b`)
)

// langCalls returns the programs code starts in the syntax of Julia, Elixir and Tcl.
func langCalls(lang, code string) []langCall {
	var out []langCall
	switch lang {
	case "python":
		return pyExecCalls(code)
	case "julia":
		if !strings.Contains(code, "`") {
			return nil
		}
		for _, idx := range reJuliaPipeline().FindAllStringSubmatchIndex(code, 16) {
			var parts []string
			for _, m := range reJuliaCmd().FindAllStringSubmatch(code[idx[2]:idx[3]], 8) {
				parts = append(parts, m[1])
			}
			out = append(out, langCall{start: idx[0], end: idx[1], script: strings.Join(parts, " | ")})
		}
		for _, idx := range reJuliaCmd().FindAllStringSubmatchIndex(code, 32) {
			if inCalls(out, idx[0]) {
				continue
			}
			out = append(out, langCall{start: idx[0], end: idx[1], script: unescapeCodeString(code[idx[2]:idx[3]])})
		}
	case "elixir":
		for _, idx := range reElixirCmd().FindAllStringSubmatchIndex(code, 32) {
			m := submatches(code, idx)
			prog := unescapeCodeString(m[2] + m[3] + m[4])
			if m[1] == "System.cmd" {
				argv := []string{prog}
				if idx[10] >= 0 {
					argv = append(argv, listLiteral(m[5])...)
				}
				out = append(out, langCall{start: idx[0], end: idx[1], argv: argv})
				continue
			}
			out = append(out, langCall{start: idx[0], end: idx[1], script: prog})
		}
	case "tcl":
		for _, idx := range reTclExec().FindAllStringSubmatchIndex(code, 32) {
			words := strings.TrimSpace(code[idx[2]:idx[3]])
			if strings.ContainsAny(words, "$[") {
				continue // built at run time: left to the capability scan (opaque)
			}
			words = strings.NewReplacer("{", "'", "}", "'").Replace(words)
			out = append(out, langCall{start: idx[0], end: idx[1], script: words})
		}
	}
	return out
}

func inCalls(calls []langCall, at int) bool {
	for _, c := range calls {
		if at >= c.start && at < c.end {
			return true
		}
	}
	return false
}

// evalsURL reports whether the URL literal starting at start is the argument of a call that
// evaluates the code it names (source("https://…"), include(download("https://…"))).
func evalsURL(code string, start int) bool {
	return reEvalURL().MatchString(code[max(0, start-64):start])
}

// langCapsExtra returns capabilities a language spells without a call: Julia's
// download(url) |> include evaluates what it pipes.
func langCapsExtra(lang, code string) codeCap {
	if lang == "julia" && strings.Contains(code, "|>") && reJuliaPipeEval().MatchString(code) {
		return capEval
	}
	return 0
}

// writesToStream reports a Julia or Elixir write whose first argument is a standard stream or
// an in-memory buffer (write(stdout, …), IO.write(:stdio, …)): output, not a file.
func writesToStream(code string, end int) bool {
	rest := strings.TrimLeft(code[end:min(len(code), end+24)], " \t(")
	for _, w := range []string{"stdout", "stderr", "devnull", "io,", "io ", "buf", "IOBuffer", ":stdio", ":stderr"} {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}

// coveredSpan reports whether [start, end) overlaps a construct already followed.
func coveredSpan(spans [][2]int, start, end int) bool {
	for _, s := range spans {
		if start < s[1] && end > s[0] {
			return true
		}
	}
	return false
}

var (
	// reJuliaFile is Julia's read and write of a path literal: read("p", String), readlines,
	// readchomp, write("p", data), touch (docs.julialang.org: I/O and Network, Filesystem).
	reJuliaFile = lazyRegexp(`\b(read|readlines|readline|readchomp|readavailable|write|touch)\s*\(\s*"([^"\n]{1,1000})"`)
	// reElixirFile is Elixir's File.read/write/cp of a path literal (hexdocs.pm: File).
	reElixirFile = lazyRegexp(`\bFile\.(read|write|cp|cp_r|touch|stream|open)!?\s*\(\s*"([^"\n]{1,1000})"`)
)

// langFileEffects finds the files Julia and Elixir code reads or writes by a path literal.
func langFileEffects(lang, code string) []fileEffect {
	var re = reJuliaFile
	switch lang {
	case "julia":
	case "elixir":
		re = reElixirFile
	default:
		return nil
	}
	var out []fileEffect
	for _, idx := range re().FindAllStringSubmatchIndex(code, 32) {
		m := submatches(code, idx)
		w := m[1] == "write" || m[1] == "touch"
		out = append(out, fileEffect{path: m[2], write: w, start: idx[0], end: idx[1], text: m[0]})
	}
	return out
}
