package riskmodel

import (
	"regexp"
	"strings"
)

// File reads and writes of inline code through calls the generic open/read/write pattern
// (reOpen) does not cover, each GTFOBins' file-read, file-write or download spelling of a
// language: PHP's readfile/show_source/highlight_file/copy, Java's stream and reader
// constructors (jrunscript, jshell, groovy), Julia's open(f -> read/write(f, …), PATH), and
// the copy calls whose destination is their second argument (Ruby IO.copy_stream, Python
// urlretrieve and shutil.copyfile). Sources: php.net (readfile, show_source, highlight_file,
// copy); docs.oracle.com java.io (FileReader, FileInputStream, FileWriter, FileOutputStream,
// PrintWriter) and java.nio.file.Files; docs.julialang.org Base.open; ruby-doc.org
// IO.copy_stream; docs.python.org urllib.request.urlretrieve, shutil.copyfile.

// gtfoCodeRes are the patterns, compiled on first use:
//   - read1: a call whose first argument, a string literal, is a file it reads;
//   - write1: a call whose first argument, a string literal, is a file it writes;
//   - write2: a copy or download whose second argument, a string literal, is the file it writes;
//   - juliaDo: Julia's open(f -> read(f, String), PATH) and open(f -> write(f, …), PATH, "w").
var gtfoCodeRes = table[*struct{ read1, write1, write2, juliaDo *regexp.Regexp }]{build: func() *struct{ read1, write1, write2, juliaDo *regexp.Regexp } {
	return &struct{ read1, write1, write2, juliaDo *regexp.Regexp }{
		read1:   regexp.MustCompile(`\b(readfile|show_source|highlight_file|php_strip_whitespace|FileReader|FileInputStream|RandomAccessFile|Files\.readAllBytes\(\s*Paths\.get|Files\.readAllLines\(\s*Paths\.get|Files\.readString\(\s*Path\.of|Files\.readString\(\s*Paths\.get|Files\.lines\(\s*Paths\.get)\s*\(\s*["']([^"'\n]{1,1000})["']`),
		write1:  regexp.MustCompile(`\b(FileWriter|FileOutputStream|PrintWriter|PrintStream|BufferedWriter\(\s*new\s+FileWriter)\s*\(\s*["']([^"'\n]{1,1000})["']`),
		write2:  regexp.MustCompile(`\b(IO\.copy_stream|FileUtils\.cp|urlretrieve|copyfile|shutil\.copy2?|copy)\s*\(\s*[^,()]{1,300}(?:\([^()]{0,300}\))?[^,()]{0,100},\s*["']([^"'\n]{1,1000})["']`),
		juliaDo: regexp.MustCompile(`\bopen\(\s*\w+\s*->\s*(read|write|print|println)\((?:[^()]|\([^()]*\))*\)\s*,\s*["']([^"'\n]{1,1000})["']`),
	}
}}

// gtfoCodeFileEffects returns the file effects of those calls in code.
func gtfoCodeFileEffects(code string) []fileEffect {
	if !containsAny(code, "readfile", "show_source", "highlight_file", "php_strip_whitespace", "File", "Print", "RandomAccess",
		"copy", "urlretrieve", "open(") {
		return nil
	}
	res := gtfoCodeRes.get()
	var out []fileEffect
	add := func(idx []int, p string, write bool) {
		out = append(out, fileEffect{path: p, write: write, start: idx[0], end: idx[1], text: code[idx[0]:idx[1]]})
	}
	for _, idx := range res.read1.FindAllStringSubmatchIndex(code, 32) {
		add(idx, submatches(code, idx)[2], false)
	}
	for _, idx := range res.write1.FindAllStringSubmatchIndex(code, 32) {
		add(idx, submatches(code, idx)[2], true)
	}
	for _, idx := range res.write2.FindAllStringSubmatchIndex(code, 32) {
		if p := submatches(code, idx)[2]; !strings.Contains(p, "://") {
			add(idx, p, true)
		}
	}
	for _, idx := range res.juliaDo.FindAllStringSubmatchIndex(code, 32) {
		m := submatches(code, idx)
		add(idx, m[2], m[1] != "read")
	}
	return out
}
