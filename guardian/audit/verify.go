package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// ProblemKind says what is wrong with a record, and so what probably happened to the log.
type ProblemKind string

// The problems Verify reports.
const (
	// ProblemTampered: the record's hash does not match its bytes — it was changed after it
	// was written.
	ProblemTampered ProblemKind = "tampered"
	// ProblemChain: the record's prev is not the hash of the record before it — a record was
	// deleted, reordered or inserted just before it.
	ProblemChain ProblemKind = "chain"
	// ProblemInvalid: the line is not a JSON record (or lacks its id or prev, or is longer
	// than MaxRecordBytes).
	ProblemInvalid ProblemKind = "invalid"
	// ProblemMissingHash: the line is JSON but does not end in its hash.
	ProblemMissingHash ProblemKind = "missing_hash"
)

// Problem is the first record that does not verify.
type Problem struct {
	File string
	Line int
	// ID is the record's id when the line has a readable one.
	ID     string
	Kind   ProblemKind
	Detail string
}

// String formats the problem as file:line: record ID: detail, for terminals and editors.
func (p Problem) String() string {
	id := ""
	if p.ID != "" {
		id = fmt.Sprintf("record %q: ", p.ID)
	}
	return fmt.Sprintf("%s:%d: %s%s", p.File, p.Line, id, p.Detail)
}

// Torn is a torn tail: bytes after a file's last newline, left by a crash in the middle of a
// write. It is reported, not an error in the chain: the record it held was never
// acknowledged, and the next append moves it aside.
type Torn struct {
	File  string
	Line  int
	Bytes int64
}

// Report is the outcome of Verify.
type Report struct {
	Files []string
	// Records is how many complete records verified: all of them when Problem is nil, else
	// those before it.
	Records int
	// FirstPrev is the prev of the first record. It is not "" when the files continue an
	// earlier chain (the current file of a rotated log verified without its rotated files):
	// not an error, but that link was not checked.
	FirstPrev string
	// LastHash is the hash of the last record verified. Keep it elsewhere to detect records
	// cut off the end of the log later, which no chain can show by itself.
	LastHash string
	// Problem is the first record that does not verify; nil when all do.
	Problem *Problem
	// Torn is the first torn tail found; nil when every file ends in a complete record.
	Torn *Torn
}

// OK reports whether every record verified and no file has a torn tail.
func (r Report) OK() bool { return r.Problem == nil && r.Torn == nil }

// Verify checks the hash chain through files, given in chain order (Files lists a log's
// rotated files and then its current one). It stops at the first record that does not verify
// and reports it; the records before it are counted as verified. The error is for files that
// cannot be read, never for their content. It reads without the lock: a record being
// appended at that moment can show as a torn tail.
func Verify(files ...string) (Report, error) {
	rep := Report{Files: files}
	v := verifier{rep: &rep}
	for _, name := range files {
		if err := v.file(name); err != nil {
			return rep, err
		}
		if rep.Problem != nil {
			break
		}
	}
	return rep, nil
}

type verifier struct {
	rep  *Report
	prev string // hash of the last record verified
}

func (v *verifier) file(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("audit: verify: %w", err)
	}
	defer f.Close()
	return v.read(name, f)
}

// read verifies the lines of r, the content of the file name.
func (v *verifier) read(name string, r io.Reader) error {
	lr := newLineReader(r)
	for lineNo := 1; ; lineNo++ {
		line, complete, n, err := lr.next()
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.Is(err, errLineTooLong):
			v.rep.Problem = &Problem{File: name, Line: lineNo, Kind: ProblemInvalid,
				Detail: fmt.Sprintf("line is %d bytes, longer than any record (%d)", n, MaxRecordBytes)}
			return nil
		case err != nil:
			return fmt.Errorf("audit: verify %s: %w", name, err)
		case !complete:
			if v.rep.Torn == nil {
				v.rep.Torn = &Torn{File: name, Line: lineNo, Bytes: n}
			}
			return nil
		}
		if p := v.check(line); p != nil {
			p.File, p.Line = name, lineNo
			v.rep.Problem = p
			return nil
		}
	}
}

// check verifies one complete line against the chain so far and, when it verifies, extends
// the chain by it.
func (v *verifier) check(line []byte) *Problem {
	type head struct {
		ID   *string `json:"id"`
		Prev *string `json:"prev"`
		Hash *string `json:"hash"`
	}
	invalid := func(err error) *Problem {
		if len(line) == 0 {
			return &Problem{Kind: ProblemInvalid, Detail: "empty line where a record should be"}
		}
		return &Problem{Kind: ProblemInvalid, Detail: fmt.Sprintf("not a JSON record: %v", err)}
	}
	claimed, computed, ok := splitLine(line)
	if !ok {
		var h head
		if err := json.Unmarshal(line, &h); err != nil {
			return invalid(err)
		}
		p := &Problem{Kind: ProblemMissingHash, Detail: "the record has no hash"}
		if h.ID != nil {
			p.ID = *h.ID
		}
		if h.Hash != nil {
			p.Detail = `the record does not end in its hash (,"hash":"sha256:<64 hex digits>"})`
		}
		return p
	}
	// The record as it was hashed: the line without its hash suffix, closed again.
	body := append(line[:len(line)-suffixLen:len(line)-suffixLen], '}')
	var h head
	if err := json.Unmarshal(body, &h); err != nil {
		return invalid(err)
	}
	id := ""
	if h.ID != nil {
		id = *h.ID
	}
	switch {
	case claimed != computed:
		return &Problem{ID: id, Kind: ProblemTampered,
			Detail: fmt.Sprintf("hash mismatch: the record says %s but its content hashes to %s; it was changed after it was written", claimed, computed)}
	case h.Hash != nil:
		return &Problem{ID: id, Kind: ProblemInvalid, Detail: "the record has a second hash field"}
	case id == "":
		return &Problem{Kind: ProblemInvalid, Detail: "the record has no id"}
	case h.Prev == nil:
		return &Problem{ID: id, Kind: ProblemInvalid, Detail: "the record has no prev"}
	}
	prev := *h.Prev
	if v.rep.Records == 0 {
		v.rep.FirstPrev = prev
	} else if prev != v.prev {
		return &Problem{ID: id, Kind: ProblemChain,
			Detail: fmt.Sprintf("prev is %s but the record before it has hash %s: a record was deleted, reordered or inserted here", quoteHash(prev), v.prev)}
	}
	v.prev = claimed
	v.rep.Records++
	v.rep.LastHash = claimed
	return nil
}

// quoteHash shows an empty prev as "" rather than nothing.
func quoteHash(h string) string {
	if h == "" {
		return `""`
	}
	return h
}
