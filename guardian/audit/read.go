package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"
)

// ErrNotFound is returned (wrapped) by Find when no record has the id.
var ErrNotFound = errors.New("no such record")

// Tail returns the last n complete records of the log at path, oldest first, reading the
// current file and then, when it holds fewer than n, the rotated files backwards from their
// ends: the cost is that of the records returned, not of the log. A torn tail is skipped. It
// reads without the lock, so it never delays an append.
func Tail(ctx context.Context, path string, n int) ([]json.RawMessage, error) {
	files, err := Files(path)
	if err != nil {
		return nil, err
	}
	return tailFiles(ctx, files, n, nil)
}

// tailFiles is the last n lines of files that keep selects (nil: every line).
func tailFiles(ctx context.Context, files []string, n int, keep func(json.RawMessage) bool) ([]json.RawMessage, error) {
	var out []json.RawMessage // newest first
	for _, name := range slices.Backward(files) {
		if len(out) >= n {
			break
		}
		err := func() error {
			f, err := os.Open(name)
			if errors.Is(err, fs.ErrNotExist) {
				return nil // rotated away between listing and opening: its records moved on
			}
			if err != nil {
				return fmt.Errorf("audit: %w", err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				return fmt.Errorf("audit: %w", err)
			}
			end, err := completeEnd(f, st.Size())
			if err != nil {
				return err
			}
			s := newBackScanner(f, end)
			for len(out) < n {
				if err := ctx.Err(); err != nil {
					return err
				}
				line, err := s.prev()
				if errors.Is(err, io.EOF) {
					return nil
				}
				if errors.Is(err, errLineTooLong) {
					return fmt.Errorf("audit: %s: a line is longer than %d bytes; run guardian audit verify", name, MaxRecordBytes)
				}
				if err != nil {
					return err
				}
				if keep == nil || keep(line) {
					out = append(out, json.RawMessage(bytes.Clone(line)))
				}
			}
			return nil
		}()
		if err != nil {
			return nil, err
		}
	}
	slices.Reverse(out)
	return out, nil
}

// Location is where Find found a record: the file and line, its place in the whole chain,
// and the hash its predecessor claims, so that a reader can see whether the record's prev
// links up.
type Location struct {
	File string
	Line int
	// Index is the record's 0-based position in the chain across all the files searched.
	Index int
	// PrevHash is the hash claimed by the line before the record ("" when it is the first
	// line of the first file, or when that line has no readable hash).
	PrevHash string
	// First is true when the record is the first of the files searched.
	First bool
}

// MinIDPrefix is the shortest id prefix Find accepts (as git does for commits).
const MinIDPrefix = 4

// AmbiguousError is returned by Find when an id prefix names several records.
type AmbiguousError struct {
	Prefix string
	IDs    []string // the ids it matches, in log order
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("audit: id prefix %q is ambiguous: it matches %d records (%s); give more of the id", e.Prefix, len(e.IDs), strings.Join(e.IDs, ", "))
}

// Find returns the record with the given id from files (in chain order, as Files lists them)
// and where it is. id is a whole record id or, like a git commit, a prefix of one at least
// MinIDPrefix characters long that no other record shares (else an *AmbiguousError listing
// them). It reads the files forwards; the id is the first key of a record, so a line is
// matched by its prefix before anything is decoded.
func Find(ctx context.Context, files []string, id string) (json.RawMessage, Location, error) {
	if len(id) < MinIDPrefix {
		return nil, Location{}, fmt.Errorf("audit: record %q: give at least %d characters of its id: %w", id, MinIDPrefix, ErrNotFound)
	}
	key, err := json.Marshal(id)
	if err != nil {
		return nil, Location{}, fmt.Errorf("audit: %w", err)
	}
	// `{"id":"<id>` — without the closing quote, so that it matches the ids id begins.
	prefix := append([]byte(`{"id":`), key[:len(key)-1]...)
	var found []found
	index := 0
	prevHash := ""
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return nil, Location{}, err
		}
		exact, err := findIn(ctx, name, prefix, &index, &prevHash, &found)
		if err != nil {
			return nil, Location{}, err
		}
		if exact {
			f := found[len(found)-1]
			return f.raw, f.loc, nil
		}
	}
	switch len(found) {
	case 0:
		return nil, Location{}, fmt.Errorf("audit: record %q: %w", id, ErrNotFound)
	case 1:
		return found[0].raw, found[0].loc, nil
	}
	amb := &AmbiguousError{Prefix: id}
	for _, f := range found {
		amb.IDs = append(amb.IDs, f.id)
	}
	return nil, Location{}, amb
}

// found is a record whose id begins with the prefix Find looks for.
type found struct {
	id  string
	raw json.RawMessage
	loc Location
}

// findIn adds the records of the file name whose ids begin with prefix to found, and reports
// whether one has exactly that id (then it stops: ids are unique).
func findIn(ctx context.Context, name string, prefix []byte, index *int, prevHash *string, out *[]found) (bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return false, fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	lr := newLineReader(f)
	for lineNo := 1; ; lineNo++ {
		if lineNo%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		line, complete, _, err := lr.next()
		if errors.Is(err, io.EOF) || (err == nil && !complete) {
			return false, nil
		}
		if errors.Is(err, errLineTooLong) {
			*prevHash = ""
			*index++
			continue
		}
		if err != nil {
			return false, err
		}
		if bytes.HasPrefix(line, prefix) {
			rest := line[len(prefix):]
			if end := bytes.IndexByte(rest, '"'); end >= 0 && end+1 < len(rest) && rest[end+1] == ',' && bytes.IndexByte(rest[:end], '\\') < 0 {
				loc := Location{File: name, Line: lineNo, Index: *index, PrevHash: *prevHash, First: *index == 0}
				id := string(prefix[len(`{"id":"`):]) + string(rest[:end])
				*out = append(*out, found{id: id, raw: json.RawMessage(bytes.Clone(line)), loc: loc})
				if end == 0 {
					return true, nil
				}
			}
		}
		*prevHash, _ = claimedHash(line)
		*index++
	}
}

// Follow calls fn with the last n complete records of the log at path, oldest first, and then
// with every record appended after them, checking the file every interval until ctx ends (then
// it returns nil). It follows the log across rotations: the rest of the rotated file is read
// before the new one. An error from fn stops it and is returned.
func Follow(ctx context.Context, path string, n int, interval time.Duration, fn func(json.RawMessage) error) error {
	return follow(ctx, path, n, interval, nil, fn)
}

// follow is Follow for the lines keep selects (nil: every line).
func follow(ctx context.Context, path string, n int, interval time.Duration, keep func(json.RawMessage) bool, fn func(json.RawMessage) error) error {
	if keep != nil {
		all := fn
		fn = func(raw json.RawMessage) error {
			if !keep(raw) {
				return nil
			}
			return all(raw)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer func() { f.Close() }()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	off, err := completeEnd(f, st.Size())
	if err != nil {
		return err
	}
	rotated, err := rotatedFiles(path)
	if err != nil {
		return err
	}
	// The last n: from this open file (not the path, which may have been rotated since) and
	// the files rotated before it.
	recent, err := tailOpen(ctx, f, off, rotated, n, keep)
	if err != nil {
		return err
	}
	for _, r := range recent { // already selected: fn would check them again, harmlessly
		if err := fn(r); err != nil {
			return err
		}
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if off, err = emitFrom(f, off, fn); err != nil {
			return err
		}
		if cur, err := os.Stat(path); err == nil && !os.SameFile(cur, st) {
			// Rotated: finish the old file, then go on with the file after it, which is
			// another rotated one when the log rotated more than once since the last look.
			if off, err = emitFrom(f, off, fn); err != nil {
				return err
			}
			nf, err := openNext(path, st)
			if err != nil {
				return err
			}
			if nf != nil {
				f.Close()
				f, off = nf, 0
				if st, err = f.Stat(); err != nil {
					return fmt.Errorf("audit: %w", err)
				}
				continue
			}
			// Mid-rotation (the next file is not there yet): look again at the next tick.
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// openNext opens the file that follows the one described by st in the log's chain, or
// returns nil when it does not exist yet (the writer is between its rename and the new
// file). The log can rotate again while the follower looks: a file opened as the current one
// may be renamed just before the open, which then reaches the file after it and skips a
// whole rotated file. So the choice is made again after the open, and the open is retried
// until both agree.
func openNext(path string, st os.FileInfo) (*os.File, error) {
	for {
		name := nextFile(path, st)
		f, err := os.Open(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		if nextFile(path, st) == name {
			return f, nil
		}
		f.Close()
	}
}

// nextFile is the file that follows the one described by st in the log's chain: the rotated
// file after it, else the current file.
func nextFile(path string, st os.FileInfo) string {
	rotated, _ := rotatedFiles(path)
	for i, name := range rotated {
		if fi, err := os.Stat(name); err == nil && os.SameFile(fi, st) && i+1 < len(rotated) {
			return rotated[i+1]
		}
	}
	return path
}

// tailOpen is Tail over an open current file (its complete lines end at end) and the
// rotated files before it.
func tailOpen(ctx context.Context, f *os.File, end int64, rotated []string, n int, keep func(json.RawMessage) bool) ([]json.RawMessage, error) {
	var out []json.RawMessage
	s := newBackScanner(f, end)
	for len(out) < n {
		line, err := s.prev()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if keep == nil || keep(line) {
			out = append(out, json.RawMessage(bytes.Clone(line)))
		}
	}
	slices.Reverse(out)
	if len(out) < n && len(rotated) > 0 {
		older, err := tailFiles(ctx, rotated, n-len(out), keep)
		if err != nil {
			return nil, err
		}
		out = append(older, out...)
	}
	return out, nil
}

// emitFrom calls fn with each complete line of f from off on and returns the offset after the
// last one; a line still being written is left for the next call.
func emitFrom(f *os.File, off int64, fn func(json.RawMessage) error) (int64, error) {
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return off, fmt.Errorf("audit: %w", err)
	}
	lr := newLineReader(f)
	for {
		line, complete, n, err := lr.next()
		switch {
		case errors.Is(err, io.EOF) || (err == nil && !complete):
			return off, nil
		case errors.Is(err, errLineTooLong):
			off += n + 1 // skip it: verify reports it
			continue
		case err != nil:
			return off, err
		}
		if err := fn(json.RawMessage(bytes.Clone(line))); err != nil {
			return off, err
		}
		off += n + 1
	}
}
