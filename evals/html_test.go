package evals

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// renderHTML renders the golden report's HTML page.
func renderHTML(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := goldenReport().WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// walk calls f on every element node under n.
func walk(n *html.Node, f func(*html.Node)) {
	if n.Type == html.ElementNode {
		f(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func byID(root *html.Node, id string) *html.Node {
	var found *html.Node
	walk(root, func(n *html.Node) {
		if found == nil && attr(n, "id") == id {
			found = n
		}
	})
	return found
}

// elements returns the elements under n named tag, with class cls when cls is not "".
func elements(n *html.Node, tag, cls string) []*html.Node {
	var out []*html.Node
	walk(n, func(e *html.Node) {
		if e.Data == tag && (cls == "" || strings.Contains(" "+attr(e, "class")+" ", " "+cls+" ")) {
			out = append(out, e)
		}
	})
	return out
}

func text(n *html.Node) string {
	var b strings.Builder
	var f func(*html.Node)
	f = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			f(c)
		}
	}
	f(n)
	return b.String()
}

// TestHTMLStructure parses the page as a browser would (golang.org/x/net/html implements the
// HTML5 parsing algorithm) and checks that it is self-contained, that each chart is there with
// the right number of marks, and that the wrong cases are listed. It always runs; the Chromium
// test below adds a real browser when one is installed.
func TestHTMLStructure(t *testing.T) {
	r := goldenReport()
	doc, err := html.Parse(bytes.NewReader(renderHTML(t)))
	if err != nil {
		t.Fatal(err)
	}

	// Self-contained: no script, no external resource of any kind.
	walk(doc, func(n *html.Node) {
		switch n.Data {
		case "script", "link", "img", "iframe", "object", "embed", "image", "use", "foreignobject":
			t.Errorf("element <%s> in a self-contained report", n.Data)
		}
		for _, a := range n.Attr {
			if a.Key == "src" || a.Key == "href" || strings.HasSuffix(a.Key, ":href") || strings.HasPrefix(a.Key, "on") {
				t.Errorf("<%s %s=%q>: no external references or handlers allowed", n.Data, a.Key, a.Val)
			}
		}
	})
	for _, st := range elements(doc, "style", "") {
		if css := text(st); strings.Contains(css, "url(") || strings.Contains(css, "@import") {
			t.Errorf("style loads something: %s", css)
		}
	}

	// Heat map: 3 labelled rows × 4 received columns, each cell's count as in the matrix.
	heat := byID(doc, "confusion-matrix")
	if heat == nil || heat.Data != "svg" {
		t.Fatal("no <svg id=confusion-matrix>")
	}
	cells := elements(heat, "g", "cell")
	if len(cells) != 12 {
		t.Fatalf("heat map has %d cells, want 12", len(cells))
	}
	var counts []string
	for _, row := range confusionRows(r.Metrics.Confusion) {
		for _, n := range row.cells {
			counts = append(counts, strconv.Itoa(n))
		}
	}
	for i, c := range cells {
		if len(elements(c, "rect", "")) != 1 {
			t.Errorf("cell %d has no rect", i)
		}
		if got := text(elements(c, "text", "")[0]); got != counts[i] {
			t.Errorf("cell %d shows %q, want %s", i, got, counts[i])
		}
	}

	// Category bars: one group per labelled category with a false allow or a false deny, a
	// bar for each rate above zero; the categories without either are named below the chart.
	bars := byID(doc, "category-errors")
	if bars == nil {
		t.Fatal("no <svg id=category-errors>")
	}
	wantFA, wantFD, wantGroups := 0, 0, 0
	var cleanCats []string
	for _, name := range sortedGroups(r.ByCategory) {
		m := r.ByCategory[name]
		fa, fd := m.FalseAllow != nil && *m.FalseAllow > 0, m.FalseDeny != nil && *m.FalseDeny > 0
		if fa {
			wantFA++
		}
		if fd {
			wantFD++
		}
		if fa || fd {
			wantGroups++
		} else {
			cleanCats = append(cleanCats, name)
		}
	}
	if g := len(elements(bars, "g", "category")); g != wantGroups || wantGroups == 0 {
		t.Errorf("category chart has %d groups, want %d", g, wantGroups)
	}
	if n := byID(doc, "category-errors-clean"); n == nil || !strings.Contains(text(n), strings.Join(cleanCats, ", ")) {
		t.Errorf("the categories without errors (%v) are not named under the chart", cleanCats)
	}
	if n := len(elements(bars, "rect", "false-allow")); n != wantFA {
		t.Errorf("%d false-allow bars, want %d", n, wantFA)
	}
	if n := len(elements(bars, "rect", "false-deny")); n != wantFD {
		t.Errorf("%d false-deny bars, want %d", n, wantFD)
	}

	// Latency histogram: the bars' counts add up to the number of reviews.
	hist := byID(doc, "latency-histogram")
	if hist == nil {
		t.Fatal("no <svg id=latency-histogram>")
	}
	total := 0
	re := regexp.MustCompile(`: (\d+) reviews$`)
	for _, g := range elements(hist, "g", "bar") {
		m := re.FindStringSubmatch(text(elements(g, "title", "")[0]))
		if m == nil {
			t.Fatalf("histogram bar title %q", text(g))
		}
		n, _ := strconv.Atoi(m[1])
		total += n
	}
	if total != r.Metrics.Reviews {
		t.Errorf("histogram counts %d reviews, want %d", total, r.Metrics.Reviews)
	}

	// Wrong cases: one row each, the untrusted text present as text — not as markup.
	wrong := byID(doc, "wrong-cases")
	if wrong == nil {
		t.Fatal("no wrong-cases table")
	}
	rows := elements(wrong, "tr", "wrong")
	if len(rows) != len(r.Wrong()) {
		t.Errorf("%d wrong-case rows, want %d", len(rows), len(r.Wrong()))
	}
	found := false
	for _, row := range rows {
		if strings.Contains(text(row), `<script>alert("x")</script>`) && strings.Contains(text(row), "[a link](http://evil.example)") {
			found = true
		}
	}
	if !found {
		t.Error("the case with <script> in its summary is not listed with its text intact")
	}
}

// TestHTMLEscapesUntrustedText checks the bytes: the request's <script> appears only escaped.
func TestHTMLEscapesUntrustedText(t *testing.T) {
	page := string(renderHTML(t))
	if strings.Contains(strings.ToLower(page), "<script") {
		t.Fatal("the page contains a raw <script")
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks the escaped text %s", want)
		}
	}
}

// TestHTMLInChromium loads the page in headless Chromium (installed by .ci/run when apt is
// available) and checks that the charts and the wrong-case list are in the rendered DOM and no
// script element came to life.
func TestHTMLInChromium(t *testing.T) {
	const bin = "/usr/bin/chromium"
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("%s not installed (apt-get install chromium); TestHTMLStructure still checks the page", bin)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, renderHTML(t), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--dump-dom", "file://"+page)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	doc, err := html.Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"confusion-matrix", "category-errors", "latency-histogram", "wrong-cases"} {
		n := byID(doc, id)
		if n == nil {
			t.Errorf("rendered DOM lacks #%s", id)
			continue
		}
		if id != "wrong-cases" && len(elements(n, "rect", "")) == 0 {
			t.Errorf("#%s has no bars or cells in the rendered DOM", id)
		}
	}
	if n := len(elements(doc, "script", "")); n != 0 {
		t.Errorf("rendered DOM has %d script elements", n)
	}
}
