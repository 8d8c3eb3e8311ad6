package riskmodel

import (
	"path"
	"regexp"
	"strings"
)

// Inline code names the files it writes the way programs do: built at run time from the home
// directory or an XDG base directory, joined with path functions, concatenated with the
// language's string operator. Once normalizeHomeExprs has read the home expressions as "~",
// foldPathExprs reduces such a path to one string literal ("~/.ssh/authorized_keys",
// "$XDG_STATE_HOME/guardian/grants.json"), so that the literal recognisers of inspectCode
// (reOpen, reDelete, the receiver and per-language write forms below) follow it into a
// synthetic segment that the file rules judge exactly as they judge the shell's
// `tee -a ~/.bashrc`. Without this a write through os.path.join(os.environ['HOME'], …) read
// as a write to "~" or to nothing at all.

// xdgDefaults are the XDG base directories and the home-relative default each falls back to
// (XDG Base Directory Specification). A program that honours $XDG_STATE_HOME keeps its state
// in $XDG_STATE_HOME/NAME whatever the variable holds, so a path below the variable is
// matched against the catalogue as if below the default.
var xdgDefaults = table[map[string]string]{build: func() map[string]string {
	return map[string]string{
		"XDG_CONFIG_HOME": "~/.config",
		"XDG_STATE_HOME":  "~/.local/state",
		"XDG_DATA_HOME":   "~/.local/share",
		"XDG_CACHE_HOME":  "~/.cache",
	}
}}

// xdgPath rewrites a path that starts with an unresolved XDG base-directory variable
// ($XDG_STATE_HOME/…, ${XDG_CONFIG_HOME}/…) to the variable's home-relative default, for
// classifying it; "" when p starts with none.
func xdgPath(p string) string {
	if !strings.HasPrefix(p, "$XDG_") && !strings.HasPrefix(p, "${XDG_") {
		return ""
	}
	name := strings.TrimPrefix(p, "$")
	rest := ""
	if strings.HasPrefix(name, "{") {
		end := strings.IndexByte(name, '}')
		if end < 0 {
			return ""
		}
		name, rest = name[1:end], name[end+1:]
	} else {
		end := len(name)
		for i := 0; i < len(name); i++ {
			if !(name[i] == '_' || name[i] >= 'A' && name[i] <= 'Z') {
				end = i
				break
			}
		}
		name, rest = name[:end], name[end:]
	}
	def, ok := xdgDefaults.get()[name]
	if !ok || rest != "" && rest[0] != '/' {
		return ""
	}
	return def + rest
}

var (
	// reXDGExpr is an XDG base-directory variable read by inline code.
	reXDGExpr = lazyRegexp(`(?:os\.environ\.get|os\.getenv|ENV\.fetch|Deno\.env\.get|System\.getenv|Sys\.getenv|getenv)\(\s*['"](XDG_(?:CONFIG|STATE|DATA|CACHE)_HOME)['"]\s*(?:,(?:[^()\n]|\([^()\n]*\))*)?\)|(?:os\.environ|ENV|process\.env|\$_ENV|\$_SERVER)\[\s*['"](XDG_(?:CONFIG|STATE|DATA|CACHE)_HOME)['"]\s*\]|process\.env\.(XDG_(?:CONFIG|STATE|DATA|CACHE)_HOME)\b|\$ENV\{\s*['"]?(XDG_(?:CONFIG|STATE|DATA|CACHE)_HOME)['"]?\s*\}|\$env:(XDG_(?:CONFIG|STATE|DATA|CACHE)_HOME)\b|\$env\((XDG_(?:CONFIG|STATE|DATA|CACHE)_HOME)\)|ENVIRON\[\s*"(XDG_(?:CONFIG|STATE|DATA|CACHE)_HOME)"\s*\]`)
	// reTildeExpand is a call that only expands a leading ~ of the literal it is given.
	reTildeExpand = lazyRegexp(`(?:(?:os\.path\.)?expanduser|File\.expand_path|path\.expand|normalizePath)\(\s*("[~$][^"\n]*"|'[~$][^'\n]*')\s*\)|(?:pathlib\.)?Path\(\s*("[~$][^"\n]*"|'[~$][^'\n]*')\s*\)(?:\.expanduser\(\))?`)
	// reRootJoin is a path-joining call whose first part is a home or XDG literal.
	reRootJoin = lazyRegexp(`(?:(?:[\w$]+\.)+(?:join|resolve)|joinpath|file\.path|Paths\.get|Path\.of|(?:pathlib\.)?Path|(?i:Join-Path))\(?\s*\[?\s*("[~$][^"\n]*"|'[~$][^'\n]*')((?:\s*,?\s*(?:"[^"\n]*"|'[^'\n]*')){1,8})\s*\]?\s*\)?`)
	// reJoinPath is a joinpath call on a home or XDG literal.
	reJoinPath = lazyRegexp(`("[~$][^"\n]*"|'[~$][^'\n]*')\.joinpath\(((?:\s*,?\s*(?:"[^"\n]*"|'[^'\n]*')){1,8})\s*\)`)
	// reRootConcat is a home or XDG literal followed by a string operator and another literal:
	// + (most languages), . (perl, php), .. (lua), / (pathlib), or nothing (python and awk
	// juxtapose literals).
	reRootConcat = lazyRegexp("(\"[~$][^\"\\n]*\"|'[~$][^'\\n]*'|`[~$][^`\\n]*`)[ \\t]*(\\+|\\.\\.|\\.|/)?[ \\t]*(\"[^\"\\n]*\"|'[^'\\n]*'|`[^`$\\n]*`)")
	// reAllLiterals finds the literals of a joined argument list.
	reAllLiterals = lazyRegexp(`"([^"\n]*)"|'([^'\n]*)'`)
)

// juxtaposes are the languages where two string literals side by side are one string.
var juxtaposes = table[map[string]bool]{build: func() map[string]bool { return map[string]bool{"python": true, "awk": true} }}

// rootLiteral reports whether a literal's text starts with the home directory or an XDG
// variable, the roots whose paths are folded.
func rootLiteral(v string) bool {
	return v == "~" || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "$XDG_") || strings.HasPrefix(v, "${XDG_")
}

// unquote returns the text of a quoted literal.
func unquote(lit string) string {
	if len(lit) >= 2 {
		return lit[1 : len(lit)-1]
	}
	return lit
}

// joinParts joins path parts the way path.Join does, keeping a leading ~ or $VAR.
func joinParts(root string, parts []string) string {
	out := strings.TrimRight(root, "/")
	for _, p := range parts {
		p = strings.Trim(p, "/")
		if p == "" {
			continue
		}
		out += "/" + p
	}
	if strings.HasPrefix(out, "~/") || strings.HasPrefix(out, "$") {
		i := strings.IndexByte(out, '/')
		if i > 0 {
			return out[:i] + path.Clean(out[i:])
		}
	}
	return out
}

// foldPathExprs rewrites paths built from the home directory or an XDG base directory as one
// string literal. It runs after normalizeHomeExprs (home expressions are "~" by then).
func foldPathExprs(lang, code string) string {
	if strings.Contains(code, "XDG_") {
		code = reXDGExpr().ReplaceAllStringFunc(code, func(m string) string {
			sub := reXDGExpr().FindStringSubmatch(m)
			for _, v := range sub[1:] {
				if v != "" {
					return `"$` + v + `"`
				}
			}
			return m
		})
	}
	if !strings.Contains(code, `"~`) && !strings.Contains(code, `'~`) && !strings.Contains(code, "`~") &&
		!strings.Contains(code, `"$XDG_`) && !strings.Contains(code, `'$XDG_`) {
		return code
	}
	code = reTildeExpand().ReplaceAllStringFunc(code, func(m string) string {
		sub := reTildeExpand().FindStringSubmatch(m)
		lit := sub[1] + sub[2]
		if !rootLiteral(unquote(lit)) {
			return m
		}
		return `"` + unquote(lit) + `"`
	})
	join := func(re func() *regexp.Regexp, m string) string {
		sub := re().FindStringSubmatch(m)
		root := unquote(sub[1])
		if !rootLiteral(root) {
			return m
		}
		var parts []string
		for _, p := range reAllLiterals().FindAllStringSubmatch(sub[2], 8) {
			parts = append(parts, p[1]+p[2])
		}
		return `"` + joinParts(root, parts) + `"`
	}
	for i := 0; i < 4; i++ {
		before := code
		code = reRootJoin().ReplaceAllStringFunc(code, func(m string) string { return join(reRootJoin, m) })
		code = reJoinPath().ReplaceAllStringFunc(code, func(m string) string { return join(reJoinPath, m) })
		code = reRootConcat().ReplaceAllStringFunc(code, func(m string) string {
			sub := reRootConcat().FindStringSubmatch(m)
			a, op, b := unquote(sub[1]), sub[2], unquote(sub[3])
			if !rootLiteral(a) || op == "" && !juxtaposes.get()[lang] {
				return m
			}
			if op == "/" {
				return `"` + joinParts(a, []string{b}) + `"`
			}
			return `"` + a + b + `"`
		})
		if code == before {
			break
		}
	}
	return code
}

// The write (and read) forms that are not a call with the path as its first argument.
var (
	// reRecvFile is a path literal whose method reads or writes it: pathlib's
	// Path('~/.npmrc').write_text(…), (…).open('a'), .unlink().
	reRecvFile = lazyLitRegexp(`["'` + "`" + `]([^"'` + "`" + `\n]{1,1000})["'` + "`" + `]\s*\)?\s*\.(write_text|write_bytes|read_text|read_bytes|open|touch|unlink|symlink_to)\s*\(\s*(?:(?:mode\s*=\s*)?["']([rwabx+]{1,3})["'])?`)
	// rePerlOpen is perl's open with a mode: open(F, ">>path"), open(my $f, '>', "path").
	rePerlOpen = lazyLitRegexp(`\bopen\s*\(?\s*(?:my\s+)?[\$\w:]+\s*,\s*(?:["'](\+?(?:>>|>|<))["']\s*,\s*["']([^"'\n]{1,1000})["']|["']\s*(\+?(?:>>|>|<))?\s*([^"'|\n<>]{1,1000})["'])`)
	// reTclOpen is tcl's open: [open "path" a].
	reTclOpen = lazyLitRegexp(`\bopen\s+["{]([^"}\n]{1,1000})["}](?:\s+["{]?([rwa]\+?|[A-Z| ]{4,40})["}]?)?`)
	// reAwkRedirect is awk's print > "file" and print >> "file".
	reAwkRedirect = lazyLitRegexp(`\bprintf?\b[^;\n}]*?(>>|>)\s*\(?\s*"([^"\n]{1,1000})"`)
	// reRFile is R's file= and con= arguments (cat, write, writeLines, sink).
	reRFile = lazyLitRegexp(`\b(?:file|con)\s*=\s*"([^"\n]{1,1000})"`)
	// rePwshWrite is a PowerShell cmdlet that writes a file, with the rest of its statement.
	rePwshWrite = lazyRegexp(`(?i)\b(set-content|add-content|out-file|new-item|tee-object)\b([^;|\n]*)`)
	rePwshPath  = lazyRegexp(`(?i)-(?:path|filepath|literalpath)\s+\(?\s*("[^"\n]+"|'[^'\n]+'|[^\s;|)"']+)`)
	rePwshHome  = lazyRegexp(`(?i)\$HOME\b`)
	// reAppendHint is how a write call says it appends rather than replaces.
	reAppendHint = lazyRegexp(`FILE_APPEND|APPEND\b|\bmode\s*[:=]\s*["']a|\bflags?\s*:\s*["']a|\bappend\s*=\s*(?:TRUE|T)\b|(?i)-Append\b`)
)

// fileEffect is one file that inline code writes or reads through a form reOpen does not
// cover, with the text it was found in.
type fileEffect struct {
	path        string
	write, apnd bool
	start, end  int
	text        string
	del         bool
}

// codeFileEffects finds the files inline code writes, reads or deletes through method calls
// on a path literal and through each language's own write syntax.
func codeFileEffects(lang, code string) []fileEffect {
	var out []fileEffect
	add := func(idx []int, p string, write, apnd, del bool) {
		out = append(out, fileEffect{path: p, write: write, apnd: apnd, del: del, start: idx[0], end: idx[1], text: code[idx[0]:idx[1]]})
	}
	if containsAny(code, "write_text", "write_bytes", "read_text", "read_bytes", ".open(", ".touch(", ".unlink(", ".symlink_to(") {
		for _, idx := range reRecvFile().FindAllStringSubmatchIndex(code, 32) {
			m := submatches(code, idx)
			p, meth, mode := m[1], m[2], m[3]
			switch {
			case meth == "unlink":
				add(idx, p, false, false, true)
			case meth == "open" && mode == "" || meth == "read_text" || meth == "read_bytes":
				add(idx, p, false, false, false)
			case meth == "open" && !strings.ContainsAny(mode, "wax+"):
				add(idx, p, false, false, false)
			default:
				add(idx, p, true, strings.Contains(mode, "a"), false)
			}
		}
	}
	out = append(out, langFileEffects(lang, code)...)
	out = append(out, gtfoCodeFileEffects(code)...) // readfile, FileReader, IO.copy_stream, … (inline_gtfo.go)
	switch lang {
	case "perl":
		for _, idx := range rePerlOpen().FindAllStringSubmatchIndex(code, 32) {
			m := submatches(code, idx)
			mode, p := m[1]+m[3], strings.TrimSpace(m[2]+m[4])
			if p == "" || strings.HasPrefix(p, "-") {
				continue
			}
			w := strings.Contains(mode, ">") || strings.HasPrefix(mode, "+")
			add(idx, p, w, strings.Contains(mode, ">>"), false)
		}
	case "tcl":
		for _, idx := range reTclOpen().FindAllStringSubmatchIndex(code, 32) {
			m := submatches(code, idx)
			mode := m[2]
			w := strings.ContainsAny(mode, "wa+") || strings.Contains(mode, "WRONLY") || strings.Contains(mode, "RDWR") || strings.Contains(mode, "APPEND")
			add(idx, m[1], w, strings.Contains(mode, "a") || strings.Contains(mode, "APPEND"), false)
		}
	case "awk":
		for _, idx := range reAwkRedirect().FindAllStringSubmatchIndex(code, 32) {
			m := submatches(code, idx)
			add(idx, m[2], true, m[1] == ">>", false)
		}
	case "r":
		for _, idx := range reRFile().FindAllStringSubmatchIndex(code, 32) {
			m := submatches(code, idx)
			rest := code[idx[1]:min(len(code), idx[1]+120)]
			add(idx, m[1], true, reAppendHint().MatchString(rest) || reAppendHint().MatchString(code[max(0, idx[0]-120):idx[0]]), false)
		}
	case "pwsh":
		for _, idx := range rePwshWrite().FindAllStringSubmatchIndex(code, 32) {
			m := submatches(code, idx)
			cmd, rest := strings.ToLower(m[1]), m[2]
			p := ""
			if pm := rePwshPath().FindStringSubmatch(rest); pm != nil {
				p = pm[1]
			} else if f := strings.Fields(rest); len(f) > 0 && !strings.HasPrefix(f[0], "-") {
				p = f[0]
			}
			p = strings.Trim(p, `"'()`)
			if p == "" || strings.HasPrefix(p, "$") && !strings.HasPrefix(p, "$XDG_") {
				continue
			}
			p = strings.ReplaceAll(p, `\`, "/")
			add(idx, p, true, cmd == "add-content" || reAppendHint().MatchString(rest), false)
		}
	}
	return out
}

// appendsAt reports whether the write call that ends at end in code appends (fs.appendFile,
// FILE_APPEND, mode: 'a', StandardOpenOption.APPEND) rather than replacing the file.
func appendsAt(code string, end int) bool {
	return reAppendHint().MatchString(code[end:min(len(code), end+200)])
}
