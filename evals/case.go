// Package evals grades reviewers on labelled cases in the JSONL format of docs/formats.md: one case a
// line, unknown keys rejected, so that any labelled set in the format can be graded.
package evals

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// Case is one labelled request.
type Case struct {
	ID      string           `json:"id"`
	Kind    riskmodel.Kind   `json:"kind"`
	Request guardian.Request `json:"-"`
	Expect  Expect           `json:"expect"`
	Source  string           `json:"source,omitempty"`
	Notes   string           `json:"notes,omitempty"`
}

// Expect is a case's label.
type Expect struct {
	Decision riskmodel.Decision `json:"decision"`
	Level    riskmodel.Level    `json:"risk_level"`
	Category riskmodel.Category `json:"category"`
}

type caseWire struct {
	ID      string          `json:"id"`
	Kind    riskmodel.Kind  `json:"kind"`
	Request json.RawMessage `json:"request"`
	Expect  *Expect         `json:"expect"`
	Source  string          `json:"source,omitempty"`
	Notes   string          `json:"notes,omitempty"`
}

// maxLine bounds one JSONL line: a request (256 KiB) plus its label.
const maxLine = guardian.MaxRequestBytes + 64<<10

// ReadFile reads a dataset file; errors name the file and line.
func ReadFile(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open dataset: %w", err)
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads JSONL cases from r. Blank lines are skipped; a malformed line, an unknown key, a
// missing field or a duplicate id is an error naming name:line and the reason.
func Read(r io.Reader, name string) ([]Case, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var out []Case
	seen := map[string]int{}
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		c, err := parseCase(b)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if prev, dup := seen[c.ID]; dup {
			return nil, fmt.Errorf("%s:%d: duplicate id %q (first on line %d)", name, line, c.ID, prev)
		}
		seen[c.ID] = line
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", name, line+1, maxLine)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

func parseCase(b []byte) (Case, error) {
	var w caseWire
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Case{}, fmt.Errorf("malformed case: %w", err)
	}
	if dec.More() {
		return Case{}, errors.New("trailing data after the case object")
	}
	switch {
	case w.ID == "":
		return Case{}, errors.New(`missing "id"`)
	case w.Expect == nil:
		return Case{}, fmt.Errorf("case %s: missing \"expect\"", w.ID)
	case w.Expect.Decision == 0 || w.Expect.Level == 0 || w.Expect.Category == "":
		return Case{}, fmt.Errorf("case %s: \"expect\" needs decision, risk_level and category", w.ID)
	}
	req, err := guardian.DecodePayload(w.Kind, w.Request)
	if err != nil {
		return Case{}, fmt.Errorf("case %s: %w", w.ID, err)
	}
	return Case{ID: w.ID, Kind: w.Kind, Request: req, Expect: *w.Expect, Source: w.Source, Notes: w.Notes}, nil
}
