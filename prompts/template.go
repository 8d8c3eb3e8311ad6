package prompts

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"sync"
	"text/template"

	"github.com/guardianhq/guardian/riskmodel"
)

//go:embed templates/*.tmpl templates/decision-policy.md
var templateFS embed.FS

// commonFile holds the sections every kind template shares; its bytes are part of every
// template's hash.
const commonFile = "templates/common.tmpl"

// decisionPolicyFile is guardian's decision policy: what it should answer, stated once for the
// rules, the model prompt and every labelled set. The prompt quotes its answers table and
// conventions, so the model and the rules cannot drift apart; docs/policy.md is the same file
// (a test holds them equal). Its bytes are part of every template's hash.
const decisionPolicyFile = "templates/decision-policy.md"

// HashLen is the number of hex characters of a template hash: 48 bits, plenty to tell the
// versions of one template apart and short enough for a log line.
const HashLen = 12

// Template is the embedded prompt of one request kind. Its ID names the prompt version a
// human bumps on purpose ("exec-v1"); its Hash is derived from the bytes and changes with any
// edit, so decided_by and the audit record identify the prompt exactly even if someone forgot
// to bump the ID.
type Template struct {
	// ID is the version name defined inside the template file, "<kind>-v<N>".
	ID string
	// Hash is the first HashLen hex characters of the SHA-256 of the template's source: the
	// kind's file followed by the shared common.tmpl.
	Hash string
	// Kind is the request kind the template reviews.
	Kind riskmodel.Kind

	tmpl *template.Template
	// decision is the decision policy's sections as the prompt quotes them.
	decision string
}

// String returns "ID@Hash" (e.g. "exec-v1@0123456789ab"), the form meant for decided_by.
func (t Template) String() string { return t.ID + "@" + t.Hash }

// builtin returns the parsed templates, built once on first use from the embedded files and
// never written afterwards; text/template is safe for concurrent execution. Parsing them at
// package init cost every guardian process a quarter of a millisecond, hooks that review with
// the rules alone included.
var builtin = sync.OnceValue(mustLoad)

// idPattern is compiled on first use, as builtin is, not at package init.
var idPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(exec|mcp)-v[1-9][0-9]*$`) })

func mustLoad() []Template {
	ts, err := load(templateFS)
	if err != nil {
		panic("prompts: embedded templates are broken: " + err.Error())
	}
	return ts
}

// load parses the kind templates of fsys. It is separate from mustLoad so tests can check
// its errors on broken inputs.
func load(fsys fs.FS) ([]Template, error) {
	common, err := fs.ReadFile(fsys, commonFile)
	if err != nil {
		return nil, err
	}
	policy, err := fs.ReadFile(fsys, decisionPolicyFile)
	if err != nil {
		return nil, err
	}
	decision, err := decisionSections(string(policy))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", decisionPolicyFile, err)
	}
	var out []Template
	for _, kind := range []riskmodel.Kind{riskmodel.KindExec, riskmodel.KindMCP} {
		name := "templates/" + string(kind) + ".tmpl"
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		t, err := parseTemplate(kind, name, src, common, policy, decision)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func parseTemplate(kind riskmodel.Kind, name string, src, common, policy []byte, decision string) (Template, error) {
	tm, err := template.New(string(kind)).Option("missingkey=error").Parse(string(common))
	if err != nil {
		return Template{}, fmt.Errorf("%s: %w", commonFile, err)
	}
	if tm, err = tm.Parse(string(src)); err != nil {
		return Template{}, fmt.Errorf("%s: %w", name, err)
	}
	for _, def := range []string{"id", "label", "role", "fields", "policy", "system", "user"} {
		if tm.Lookup(def) == nil {
			return Template{}, fmt.Errorf("%s: no %q block", name, def)
		}
	}
	var id strings.Builder
	if err := tm.ExecuteTemplate(&id, "id", nil); err != nil {
		return Template{}, fmt.Errorf("%s: id: %w", name, err)
	}
	ID := strings.TrimSpace(id.String())
	if !idPattern().MatchString(ID) || !strings.HasPrefix(ID, string(kind)+"-") {
		return Template{}, fmt.Errorf("%s: id %q must be %q followed by -v<N>", name, ID, kind)
	}
	h := sha256.New()
	h.Write(src)
	h.Write(common)
	h.Write(policy)
	return Template{
		ID:       ID,
		Hash:     hex.EncodeToString(h.Sum(nil))[:HashLen],
		Kind:     kind,
		tmpl:     tm,
		decision: decision,
	}, nil
}

// decisionSections extracts what the model needs from the decision policy: the sections "The
// three answers" and "Conventions", their headings one level down. The title, the preamble and
// "The rules floor" (which is about guardian's rules, not the model's answer) are left out.
func decisionSections(md string) (string, error) {
	var out []string
	for _, want := range []string{"The three answers", "Conventions"} {
		start := strings.Index(md, "\n## "+want+"\n")
		if start < 0 {
			return "", fmt.Errorf("no section %q", "## "+want)
		}
		body := md[start+1:]
		if end := strings.Index(body[3:], "\n## "); end >= 0 {
			body = body[:end+3]
		}
		out = append(out, "#"+strings.TrimSpace(body))
	}
	return strings.Join(out, "\n\n"), nil
}

// ForKind returns the embedded template that reviews requests of kind k. An unknown kind is
// an error rather than a default, so a new kind cannot be reviewed under the wrong policy.
func ForKind(k riskmodel.Kind) (Template, error) {
	for _, t := range builtin() {
		if t.Kind == k {
			return t, nil
		}
	}
	return Template{}, fmt.Errorf("prompts: no template for request kind %q (want exec or mcp)", k)
}

// Templates lists every embedded template (exec, then mcp), for `guardian version`, audit
// headers and the eval report, which record the prompt versions in use.
func Templates() []Template {
	return append([]Template(nil), builtin()...)
}
