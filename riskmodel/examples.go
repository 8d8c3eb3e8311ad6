package riskmodel

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// Every built-in rule's examples live as data in examples/*.toml, one file per rule family
// (examples/fs.toml for rules_fs.go): commands, or MCP requests as JSON, that must produce a
// finding with the rule's id (match) and ones that must not (no_match). Data rather than Go
// literals so that a reviewer can read and extend them without reading the rules, and so the
// rules' source holds only the rules. `guardian rules test` and the package tests run them.

//go:embed examples/*.toml
var exampleFiles embed.FS

// ruleExamples is one [[rule]] table of an examples file.
type ruleExamples struct {
	ID      string   `toml:"id"`
	Match   []string `toml:"match"`
	NoMatch []string `toml:"no_match"`
	// File is the examples file the table came from, for reports.
	File string `toml:"-"`
}

type exampleFile struct {
	Rule []ruleExamples `toml:"rule"`
}

// examples loads the embedded examples once; they never change after the build.
var examples = sync.OnceValues(func() (map[string]ruleExamples, error) {
	return parseExamples(exampleFiles)
})

// parseExamples reads every examples/*.toml of fsys strictly: an unknown key, a table
// without an id or an id given twice (in any file) is an error naming the file.
func parseExamples(fsys fs.FS) (map[string]ruleExamples, error) {
	names, err := fs.Glob(fsys, "examples/*.toml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := map[string]ruleExamples{}
	var errs []error
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var f exampleFile
		dec := toml.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			var de *toml.DecodeError
			if errors.As(err, &de) {
				row, col := de.Position()
				err = fmt.Errorf("%d:%d: %w", row, col, err)
			}
			errs = append(errs, fmt.Errorf("riskmodel/%s:%w; each table is [[rule]] with id, match and no_match", name, err))
			continue
		}
		for _, r := range f.Rule {
			r.File = path.Join("riskmodel", name)
			switch prev, dup := out[r.ID]; {
			case r.ID == "":
				errs = append(errs, fmt.Errorf("%s: a [[rule]] without an id; add id = \"<rule id>\"", r.File))
			case dup:
				errs = append(errs, fmt.Errorf("%s: examples for %s are also in %s; keep one table per rule", r.File, r.ID, prev.File))
			default:
				out[r.ID] = r
			}
		}
	}
	return out, errors.Join(errs...)
}
