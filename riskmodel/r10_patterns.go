package riskmodel

import "regexp"

// The patterns of appcode.go, rules_r10exec.go and inline_pyexec.go, compiled together on
// first use: a package-level lazyRegexp costs allocations at init in every hook process.
type r10Patterns struct {
	reTexWrite18     *regexp.Regexp
	reTexDirectLua   *regexp.Regexp
	reRPMShell       *regexp.Regexp
	reRPMLua         *regexp.Regexp
	reMakeShell      *regexp.Regexp
	reFzfExec        *regexp.Regexp
	rePuppetExec     *regexp.Regexp
	reCallsQuoted    *regexp.Regexp
	reCallsBang      *regexp.Regexp
	reCallsRisky     *regexp.Regexp
	reCallsFetchRun  *regexp.Regexp
	reCallsFetch     *regexp.Regexp
	reElispTerm      *regexp.Regexp
	reElispWriteCall *regexp.Regexp
	reElispString    *regexp.Regexp
	reElispFetch     *regexp.Regexp
	reLimaLocation   *regexp.Regexp
	rePyExecFamily   *regexp.Regexp
	rePyStrLiteral   *regexp.Regexp
}

var r10Regexps = table[*r10Patterns]{build: func() *r10Patterns {
	return &r10Patterns{
		reTexWrite18:     regexp.MustCompile(`\\write18\s*\{([^{}]{1,1000})\}`),
		reTexDirectLua:   regexp.MustCompile(`\\directlua\s*\{([^{}]{1,1000})\}`),
		reRPMShell:       regexp.MustCompile(`%\(([^()]{1,1000})\)`),
		reRPMLua:         regexp.MustCompile(`%\{lua:([^{}]{1,1000})\}`),
		reMakeShell:      regexp.MustCompile(`\$\(shell\s+([^()]{1,1000})\)`),
		reFzfExec:        regexp.MustCompile(`(execute|execute-silent|become|reload|preview)[(\[{<]([^)\]}>]{1,1000})[)\]}>]`),
		rePuppetExec:     regexp.MustCompile(`exec\s*\{\s*(?:'([^']{1,1000})'|"([^"]{1,1000})")\s*:`),
		reCallsQuoted:    regexp.MustCompile(`(?:\bsystem|\bunix|\bdos|\bshell_cmd|run-shell-command|run-program|callCommand|spawnCommand|readProcess|\bexec|\bpopen|\besyscmd|\bsyscmd)\s*[\(\s]\s*(?:"((?:[^"\\]|\\.){1,1000})"|'((?:[^'\\]|\\.){1,1000})')`),
		reCallsBang:      regexp.MustCompile(`(?m)(?:^|[;,]\s*)!([^;\n]{1,1000})`),
		reCallsRisky:     regexp.MustCompile(`\b(?:system|unix|dos|shell_cmd|run-shell-command|run-program|callCommand|spawnCommand|readProcess|exec|popen|esyscmd|syscmd|urlread|webread|websave|urlwrite|http-get|Runtime)\b`),
		reCallsFetchRun:  regexp.MustCompile(`\beval(?:in)?\s*\(\s*(?:urlread|webread)\s*\(\s*['"](https?://[^'"\s]{1,1000})['"]`),
		reCallsFetch:     regexp.MustCompile(`\b(?:urlread|webread|websave|urlwrite)\s*\(\s*(?:'[^']*'\s*,\s*)?['"](https?://[^'"\s]{1,1000})['"]`),
		reElispTerm:      regexp.MustCompile(`\((?:term|ansi-term|vterm|shell|eshell)(?:\s+"((?:[^"\\]|\\.){0,1000})")?\s*\)`),
		reElispWriteCall: regexp.MustCompile(`\((?:append-to-file|write-region|with-temp-file|write-file|copy-file)\s`),
		reElispString:    regexp.MustCompile(`"((?:[^"\\]|\\.){0,1000})"`),
		reElispFetch:     regexp.MustCompile(`\((?:url-retrieve(?:-synchronously)?|url-copy-file|url-insert-file-contents)\s+"(https?://[^"\s]{1,1000})"`),
		reLimaLocation:   regexp.MustCompile(`"?location"?\s*:\s*"?([^",}\s]+)"?`),
		rePyExecFamily:   regexp.MustCompile(`\bos\.(exec|spawn)([lv])p?e?\s*\(([^()]{0,1000})\)`),
		rePyStrLiteral:   regexp.MustCompile(`[bru]{0,2}"((?:[^"\\]|\\.)*)"|[bru]{0,2}'((?:[^'\\]|\\.)*)'`),
	}
}}

func reTexWrite18() *regexp.Regexp     { return r10Regexps.get().reTexWrite18 }
func reTexDirectLua() *regexp.Regexp   { return r10Regexps.get().reTexDirectLua }
func reRPMShell() *regexp.Regexp       { return r10Regexps.get().reRPMShell }
func reRPMLua() *regexp.Regexp         { return r10Regexps.get().reRPMLua }
func reMakeShell() *regexp.Regexp      { return r10Regexps.get().reMakeShell }
func reFzfExec() *regexp.Regexp        { return r10Regexps.get().reFzfExec }
func rePuppetExec() *regexp.Regexp     { return r10Regexps.get().rePuppetExec }
func reCallsQuoted() *regexp.Regexp    { return r10Regexps.get().reCallsQuoted }
func reCallsBang() *regexp.Regexp      { return r10Regexps.get().reCallsBang }
func reCallsRisky() *regexp.Regexp     { return r10Regexps.get().reCallsRisky }
func reCallsFetchRun() *regexp.Regexp  { return r10Regexps.get().reCallsFetchRun }
func reCallsFetch() *regexp.Regexp     { return r10Regexps.get().reCallsFetch }
func reElispTerm() *regexp.Regexp      { return r10Regexps.get().reElispTerm }
func reElispWriteCall() *regexp.Regexp { return r10Regexps.get().reElispWriteCall }
func reElispString() *regexp.Regexp    { return r10Regexps.get().reElispString }
func reElispFetch() *regexp.Regexp     { return r10Regexps.get().reElispFetch }
func reLimaLocation() *regexp.Regexp   { return r10Regexps.get().reLimaLocation }
func rePyExecFamily() *regexp.Regexp   { return r10Regexps.get().rePyExecFamily }
func rePyStrLiteral() *regexp.Regexp   { return r10Regexps.get().rePyStrLiteral }
