// Command tldrcoverage measures how often the embedded rules call a command unknown, on the
// examples of the tldr pages (github.com/tldr-pages/tldr): every example of every page under
// pages/common, pages/linux and pages/osx, its {{placeholders}} filled with plain values, is
// reviewed as `bash -lc EXAMPLE` in a project directory, and the rule that decided each is
// counted. docs/policy.md asks that the catalogue of known tools be broad enough that
// "unknown" is rare in everyday work; the tldr pages are the everyday tools, so the share of
// their examples decided by cmd.unknown is the measure (many pages are desktop apps, games or
// system administration that an agent never runs, so it never reaches zero).
//
//	git clone --depth 1 https://github.com/tldr-pages/tldr /tmp/tldr
//	go run ./evals/tldrcoverage -pages /tmp/tldr/pages
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/guardianhq/guardian/riskmodel"
)

func main() {
	pages := flag.String("pages", "", "the tldr pages directory (holding common/, linux/, osx/)")
	top := flag.Int("top", 0, "also list the N pages with the most unknown examples")
	flag.Parse()
	if *pages == "" {
		fmt.Fprintln(os.Stderr, "tldrcoverage: -pages is required: the pages/ directory of a tldr-pages/tldr checkout")
		os.Exit(2)
	}
	if err := run(context.Background(), os.Stdout, *pages, *top); err != nil {
		fmt.Fprintln(os.Stderr, "tldrcoverage:", err)
		os.Exit(1)
	}
}

// example is one command line of a page.
type example struct{ page, cmd string }

func run(ctx context.Context, w io.Writer, dir string, top int) error {
	var exs []example
	for _, plat := range []string{"common", "linux", "osx"} {
		files, err := filepath.Glob(filepath.Join(dir, plat, "*.md"))
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("no pages in %s: -pages must name the pages/ directory of a tldr checkout", filepath.Join(dir, plat))
		}
		sort.Strings(files)
		for _, f := range files {
			cmds, err := pageExamples(f)
			if err != nil {
				return err
			}
			for _, c := range cmds {
				exs = append(exs, example{plat + "/" + filepath.Base(f), c})
			}
		}
	}
	a, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		return err
	}
	by := map[string]int{}
	unknownByPage := map[string]int{}
	for _, ex := range exs {
		v := a.Exec(ctx, riskmodel.ExecRequest{Command: []string{"bash", "-lc", ex.cmd}, Cwd: "/home/dev/src/app"})
		by[v.DecidedBy]++
		if v.DecidedBy == "rule:cmd.unknown" {
			unknownByPage[ex.page]++
		}
	}
	n := len(exs)
	fmt.Fprintf(w, "tldr examples: %d (pages %s)\n", n, dir)
	fmt.Fprintf(w, "decided by cmd.unknown: %d (%.1f %%)\n", by["rule:cmd.unknown"], 100*float64(by["rule:cmd.unknown"])/float64(n))
	fmt.Fprintf(w, "decided by cmd.unknown-risky: %d\n", by["rule:cmd.unknown-risky"])
	fmt.Fprintf(w, "pages with an unknown example: %d\n", len(unknownByPage))
	if top > 0 {
		ps := make([]string, 0, len(unknownByPage))
		for p := range unknownByPage {
			ps = append(ps, p)
		}
		sort.Slice(ps, func(i, j int) bool {
			if unknownByPage[ps[i]] != unknownByPage[ps[j]] {
				return unknownByPage[ps[i]] > unknownByPage[ps[j]]
			}
			return ps[i] < ps[j]
		})
		for _, p := range ps[:min(top, len(ps))] {
			fmt.Fprintf(w, "  %4d  %s\n", unknownByPage[p], p)
		}
	}
	return nil
}

var (
	exampleLine = regexp.MustCompile("^`(.+)`\\s*$")
	placeholder = regexp.MustCompile(`\{\{(.*?)\}\}`)
	notWord     = regexp.MustCompile(`[^A-Za-z0-9_.=-]`)
	notName     = regexp.MustCompile(`[^a-z0-9_.]`)
)

// pageExamples returns a page's example command lines with their placeholders filled:
// {{[-w|--write]}} becomes its long form, {{path/to/file}} a path in the project, a URL
// placeholder https://example.com/x, any other a plain word.
func pageExamples(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := exampleLine.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		out = append(out, placeholder.ReplaceAllStringFunc(m[1], fill))
	}
	return out, sc.Err()
}

func fill(ph string) string {
	s := ph[2 : len(ph)-2]
	switch {
	case strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") && strings.Contains(s, "|"):
		alts := strings.Split(s[1:len(s)-1], "|")
		return alts[len(alts)-1]
	case strings.Contains(s, "path/to") || strings.Contains(s, "file") || strings.Contains(s, "dir"):
		parts := strings.Split(s, "/")
		name := notName.ReplaceAllString(parts[len(parts)-1], "_")
		return "src/" + name[:min(20, len(name))]
	case strings.Contains(strings.ToLower(s), "url"):
		return "https://example.com/x"
	}
	w := notWord.ReplaceAllString(s, "_")
	if w == "" {
		return "x"
	}
	return w[:min(24, len(w))]
}
