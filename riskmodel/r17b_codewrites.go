package riskmodel

// Files that interpreter code writes with literal text.
//
// The shell's writes (heredoc, printf, echo, tee) record what a file holds, so a later
// `bash FILE`, `python FILE` or `jupyter nbconvert --execute FILE` is judged by that text
// (flow.go, runfiles.go). Interpreter code writes files too: open(p, 'w').write(…),
// Path(p).write_text(…), fs.writeFileSync(p, …), File.write(p, …), and nbformat.write(nb, p)
// after nbformat.v4.new_code_cell('…'). The inline analysis already sees those writes as a
// tee of unknown text; codeWrittenTexts reads the literal text they write, so the file is
// recorded as known and whatever later runs it is judged by its content: a notebook cell
// `!curl … | bash` is remote code run, a cell `!pip install -r requirements.txt` stays routine.
//
// Sources: Python's io.open and pathlib.Path.write_text (docs.python.org), nbformat's
// "Python API" (nbformat.readthedocs.io: v4.new_code_cell, write), Node's fs.writeFileSync /
// appendFileSync (nodejs.org/api/fs.html), Ruby's File.write (ruby-doc.org IO.write).

import (
	"encoding/json"
	"regexp"
	"strings"
)

// codeWrite is one file interpreter code writes, with the text it writes.
type codeWrite struct {
	path, text string
	apnd       bool
}

// codeWriteRes are the calls that write files, built on first use (table.go).
var codeWriteRes = table[*codeWriteRegexps]{build: func() *codeWriteRegexps {
	return &codeWriteRegexps{
		openWrite: regexp.MustCompile(`\bopen\(\s*(?:r|f)?(?:'([^'\n]{1,300})'|"([^"\n]{1,300})")\s*,\s*(?:mode\s*=\s*)?["']([wax]\+?[bt]?)["'][^)]{0,80}\)\s*\.\s*write\(\s*`),
		withOpen:  regexp.MustCompile(`\bwith\s+open\(\s*(?:r|f)?(?:'([^'\n]{1,300})'|"([^"\n]{1,300})")\s*,\s*(?:mode\s*=\s*)?["']([wax]\+?[bt]?)["'][^)]{0,80}\)\s+as\s+([A-Za-z_]\w{0,40})\s*:`),
		pathWrite: regexp.MustCompile(`\bPath\(\s*(?:r|f)?(?:'([^'\n]{1,300})'|"([^"\n]{1,300})")\s*\)\s*\.\s*write_text\(\s*`),
		fileWrite: regexp.MustCompile(`\b(writeFileSync|writeFile|appendFileSync|appendFile|File\.write|IO\.write)\(\s*(?:'([^'\n]{1,300})'|"([^"\n]{1,300})")\s*,\s*`),
		nbWrite:   regexp.MustCompile(`\b(?:nbformat|nbf)\.write\(\s*[A-Za-z_]\w{0,40}\s*,\s*(?:'([^'\n]{1,300})'|"([^"\n]{1,300})")`),
		nbCell:    regexp.MustCompile(`\bnew_code_cell\(\s*(?:source\s*=\s*)?`),
	}
}}

// codeWriteRegexps: open('p', 'w').write(TEXT); with open('p', 'w') as f: … f.write(TEXT);
// Path('p').write_text(TEXT); fs.writeFileSync('p', TEXT), File.write('p', TEXT);
// nbformat.write(nb, 'p') and the cells new_code_cell('…') adds.
type codeWriteRegexps struct {
	openWrite *regexp.Regexp
	withOpen  *regexp.Regexp
	pathWrite *regexp.Regexp
	fileWrite *regexp.Regexp
	nbWrite   *regexp.Regexp
	nbCell    *regexp.Regexp
}

// codeWrittenTexts returns the files code writes with text it can read: a string literal, or
// a variable assigned one.
func codeWrittenTexts(lang, code string) []codeWrite {
	if !strings.Contains(code, "write") {
		return nil
	}
	res := codeWriteRes.get()
	var out []codeWrite
	add := func(p, text string, apnd bool) {
		if p != "" && len(out) < 16 {
			out = append(out, codeWrite{p, text, apnd})
		}
	}
	switch lang {
	case "python":
		for _, m := range res.openWrite.FindAllStringSubmatchIndex(code, 16) {
			if text, ok := codeTextAt(code, m[1]); ok {
				add(code[max(m[2], m[4]):max(m[3], m[5])], text, strings.HasPrefix(code[m[6]:m[7]], "a"))
			}
		}
		for _, m := range res.withOpen.FindAllStringSubmatchIndex(code, 16) {
			name := code[m[8]:m[9]]
			var b strings.Builder
			ok := false
			for _, w := range regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\.write\(\s*`).FindAllStringIndex(code[m[1]:], 32) {
				if text, known := codeTextAt(code, m[1]+w[1]); known {
					b.WriteString(text)
					ok = true
				}
			}
			if ok {
				add(code[max(m[2], m[4]):max(m[3], m[5])], b.String(), strings.HasPrefix(code[m[6]:m[7]], "a"))
			}
		}
		for _, m := range res.pathWrite.FindAllStringSubmatchIndex(code, 16) {
			if text, ok := codeTextAt(code, m[1]); ok {
				add(code[max(m[2], m[4]):max(m[3], m[5])], text, false)
			}
		}
		if nb := res.nbWrite.FindStringSubmatch(code); nb != nil {
			var cells []string
			for _, m := range res.nbCell.FindAllStringIndex(code, 64) {
				if text, ok := codeTextAt(code, m[1]); ok {
					cells = append(cells, text)
				}
			}
			if len(cells) > 0 {
				add(nb[1]+nb[2], notebookJSON(cells), false)
			}
		}
	case "node", "ruby":
		for _, m := range res.fileWrite.FindAllStringSubmatchIndex(code, 16) {
			if text, ok := codeTextAt(code, m[1]); ok {
				add(code[max(m[4], m[6]):max(m[5], m[7])], text, strings.HasPrefix(code[m[2]:m[3]], "append"))
			}
		}
	}
	return out
}

// codeTextAt reads the text argument that starts at code[i]: a string literal (Python triple
// quotes and prefixes, JavaScript backticks without substitutions) or a variable assigned one
// earlier in the code.
func codeTextAt(code string, i int) (string, bool) {
	if i >= len(code) {
		return "", false
	}
	raw := false
	j := i
	for j < len(code) && j < i+2 && strings.IndexByte("rRbBuU", code[j]) >= 0 {
		raw = raw || code[j] == 'r' || code[j] == 'R'
		j++
	}
	if j < len(code) && (code[j] == '\'' || code[j] == '"' || code[j] == '`') {
		q := code[j]
		if strings.HasPrefix(code[j:], strings.Repeat(string(q), 3)) && q != '`' {
			end := strings.Index(code[j+3:], strings.Repeat(string(q), 3))
			if end < 0 {
				return "", false
			}
			s := code[j+3 : j+3+end]
			if raw {
				return s, true
			}
			return unescapeCodeString(s), true
		}
		k := j + 1
		for k < len(code) && code[k] != q && (code[k] != '\n' || q == '`') {
			if code[k] == '\\' {
				k++
			}
			k++
		}
		if k >= len(code) {
			return "", false
		}
		s := code[j+1 : k]
		if q == '`' && strings.Contains(s, "${") {
			return "", false // a template filled at run time
		}
		if raw {
			return s, true
		}
		return unescapeCodeString(s), true
	}
	// A variable: name = 'text' or name = """text""" earlier in the code.
	k := i
	for k < len(code) && (code[k] == '_' || code[k] >= 'a' && code[k] <= 'z' || code[k] >= 'A' && code[k] <= 'Z' || k > i && code[k] >= '0' && code[k] <= '9') {
		k++
	}
	if k == i || k-i > 40 {
		return "", false
	}
	name := code[i:k]
	if rest := strings.TrimLeft(code[k:], " \t"); rest == "" || rest[0] != ')' && rest[0] != ',' {
		return "", false // an expression, not a plain variable
	}
	re := regexp.MustCompile(`(?m)(?:^|[;{]|\b(?:const|let|var)\s)\s*` + name + `\s*=\s*`)
	locs := re.FindAllStringIndex(code[:i], 4)
	if len(locs) == 0 {
		return "", false
	}
	return codeTextAt(code, locs[len(locs)-1][1])
}

// notebookJSON is a minimal Jupyter notebook holding code cells, so a notebook written by
// nbformat is read by notebookCode as any notebook on disk is.
func notebookJSON(cells []string) string {
	var b strings.Builder
	b.WriteString(`{"cells":[`)
	for i, c := range cells {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"cell_type":"code","source":`)
		q, _ := json.Marshal(c)
		b.Write(q)
		b.WriteByte('}')
	}
	b.WriteString(`]}`)
	return b.String()
}

// recordCodeWrites records the files code writes with known text (after the inline analysis
// has judged the writes themselves), so whatever later runs them is judged by that text.
func (x *extractor) recordCodeWrites(lang, code string) {
	if x.noFlow || x.files == nil {
		return
	}
	for _, w := range codeWrittenTexts(lang, code) {
		abs, ok := x.scope.Resolve(w.path)
		if !ok {
			continue
		}
		t := taint{}
		if old := x.files[abs]; old != nil && !w.apnd {
			t = old.t
		}
		x.record(abs, w.text, true, w.apnd, t)
	}
}
