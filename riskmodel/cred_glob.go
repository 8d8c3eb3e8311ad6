package riskmodel

import (
	"regexp"
	"strings"
)

// Inline code that reads the files a wildcard pattern names: glob.glob('/home/*/.ssh/id_*'),
// Path.home().glob('.aws/*'), Path('/root').rglob('*.pem'), require('glob').sync(…),
// fs.globSync(…), Dir.glob(…), filepath.Glob(…). The shell expands such a pattern before
// cat sees it, and the file rules judge `cat /home/*/.ssh/id_*` by every path it can match;
// in code the pattern is a string the program expands, so reOpen's literal never names the
// store. codeGlobReads hands each pattern to the same rules as a read of the pattern, so a
// pattern that can match a credential store (or lies within one) is judged as reading it,
// and a pattern over the workspace or public keys stays what the file rules say it is.

// credGlobRes are the two call forms, compiled on first use (a table: nothing built at init).
// call is a glob function called with a literal pattern first; method is a path object's glob
// method: Path('/root').glob('*'), Path.home().rglob('id_*').
var credGlobRes = table[struct{ call, method *regexp.Regexp }]{build: func() struct{ call, method *regexp.Regexp } {
	return struct{ call, method *regexp.Regexp }{
		call:   regexp.MustCompile(`(?:\brequire\(\s*["'](?:glob|fast-glob)["']\s*\)\.sync|\b(?:glob\.i?glob|glob\.sync|globSync|glob|iglob|globby(?:Sync)?|fg(?:\.sync)?|fastGlob(?:\.sync)?|Dir\.glob|Dir|filepath\.Glob|doublestar\.Glob))\s*[(\[]\s*[rbfRBF]?["'` + "`" + `]([^"'` + "`" + `\n]{1,300})["'` + "`" + `]`),
		method: regexp.MustCompile(`(?:["']~["']|\b(?:Path|pathlib\.Path)(?:\.home\(\)|\s*\(\s*(?:[rbfRBF]?["']([^"'\n]{1,300})["'])?\s*\)(\.expanduser\(\))?))\s*\.\s*(r?glob)\s*\(\s*[rbfRBF]?["']([^"'\n]{1,300})["']`),
	}
}}

// codeGlobReads returns the wildcard patterns inline code expands and reads, as paths for
// the file rules; nil when the code reads no files.
func codeGlobReads(code string, all codeCap) []string {
	if all&capRead == 0 || !strings.ContainsAny(code, "*?[") {
		return nil
	}
	var out []string
	add := func(p string) {
		if strings.ContainsAny(p, "*?[") && !workspaceTypeScan(p) {
			out = append(out, p)
		}
	}
	for _, idx := range credGlobRes.get().call.FindAllStringSubmatchIndex(code, 16) {
		if idx[0] > 0 && code[idx[0]-1] == '.' && (strings.HasPrefix(code[idx[0]:], "glob(") || strings.HasPrefix(code[idx[0]:], "glob (")) {
			continue // a path object's method: reGlobMethod reads it with its receiver
		}
		add(code[idx[2]:idx[3]])
	}
	for _, m := range credGlobRes.get().method.FindAllStringSubmatch(code, 16) {
		root, home, method, pat := m[1], m[2], m[3], m[4]
		switch {
		case strings.Contains(m[0], "Path.home()") || strings.HasPrefix(m[0], `"~"`) || strings.HasPrefix(m[0], "'~'"):
			root = "~"
		case home != "" && strings.HasPrefix(root, "~"):
		case root == "":
			root = "."
		}
		if method == "rglob" {
			pat = "**/" + pat
		}
		add(strings.TrimSuffix(root, "/") + "/" + pat)
	}
	return out
}

// workspaceTypeScan reports a relative pattern that selects the workspace's files by type
// (fixtures/*.json, src/**/*.py): the project's own files, what the shell's file rules would
// weigh as possibly holding a key only because any JSON file might. A relative pattern that
// names a store (**/.env, */id_rsa) is judged.
func workspaceTypeScan(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") || strings.Contains(p, "..") {
		return false
	}
	last := p[strings.LastIndexByte(p, '/')+1:]
	ext, ok := strings.CutPrefix(last, "*.")
	return ok && ext != "" && !strings.ContainsAny(ext, "*?[/")
}
