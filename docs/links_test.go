// Package docs holds guardian's documentation; its test keeps the documents and the code
// pointing at things that exist.
package docs

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// root is the repository root, seen from this package's directory.
const root = ".."

// markdownFiles are the documents whose links are checked: README.md and docs/*.md.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(root, "README.md")}, files...)
}

var linkRE = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// TestRelativeLinks checks that every relative link in README.md and docs/*.md names a file
// that exists and, with a #fragment into a Markdown file, a heading that is there.
func TestRelativeLinks(t *testing.T) {
	anchors := map[string]map[string]bool{}
	for _, md := range markdownFiles(t) {
		for _, l := range links(t, md) {
			target, frag, _ := strings.Cut(l.target, "#")
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file := md
			if target != "" {
				file = filepath.Join(filepath.Dir(md), target)
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s:%d: link to %s: %v", rel(md), l.line, l.target, err)
					continue
				}
			}
			if frag == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			if anchors[file] == nil {
				anchors[file] = headingAnchors(t, file)
			}
			if !anchors[file][frag] {
				t.Errorf("%s:%d: link to %s: %s has no heading with the anchor #%s", rel(md), l.line, l.target, rel(file), frag)
			}
		}
	}
}

type link struct {
	target string
	line   int
}

// links lists the Markdown links of file outside fenced code blocks.
func links(t *testing.T, file string) []link {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []link
	fenced := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(stripCode(line), -1) {
			out = append(out, link{m[1], n})
		}
	}
	return out
}

var inlineCodeRE = regexp.MustCompile("`[^`]*`")

// stripCode removes inline code spans, whose brackets are not links.
func stripCode(line string) string { return inlineCodeRE.ReplaceAllString(line, "``") }

// headingAnchors are the anchors GitHub gives the headings of a Markdown file: lower case,
// punctuation other than - and _ dropped, spaces as hyphens, a repeated one suffixed -1, -2.
func headingAnchors(t *testing.T, file string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		a := slug(text)
		if n := seen[a]; n > 0 {
			out[a+"-"+itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func rel(p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return r
	}
	return p
}

// repoPathRE matches what a Go comment names as a file of this repository: a path under one
// of its top-level folders, or a document in capitals at the top (README.md).
var repoPathRE = regexp.MustCompile(`(?:^|[\s("'\x60])((?:docs|cmd|guardian|riskmodel|evals|mcp|prompts|internal)/[\w./-]*\.(?:md|go|json|jsonl|toml|txtar|mjs|golden)|[A-Z][A-Z_]+\.md)\b`)

// TestGoCommentPaths checks that every repository file a Go comment names exists, so a doc
// comment's "see docs/…" cannot point at nothing, as pointers to a design document that was
// never committed once did.
func TestGoCommentPaths(t *testing.T) {
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for n, line := range strings.Split(string(data), "\n") {
			_, comment, ok := strings.Cut(line, "//")
			if !ok {
				continue
			}
			for _, m := range repoPathRE.FindAllStringSubmatch(comment, -1) {
				name := strings.TrimRight(m[1], ".")
				if !exists(name, filepath.Dir(path)) {
					t.Errorf("%s:%d: the comment names %s, which is not in the repository", rel(path), n+1, name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// exists looks name up from the repository root and from the commenting file's directory.
func exists(name, dir string) bool {
	for _, base := range []string{root, dir} {
		if _, err := os.Stat(filepath.Join(base, name)); err == nil {
			return true
		}
	}
	return false
}
