package audit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// disk is the log's file as this process sees it. Every method runs with the flock held, so
// within a method the file cannot change under it; between calls other processes may have
// appended, rotated or left a torn tail, which resync notices.
type disk struct {
	path string
	opts *options

	f    *os.File    // the current file, opened O_APPEND; nil until resync
	info fs.FileInfo // f's identity, for os.SameFile
	// size is f's size after this process's last write or check; -1 forces a resync, as
	// after a failed write whose bytes may be partly on disk.
	size int64
	// last is the hash of the last complete record: the next record's prev.
	last string
}

// resync makes d match the disk: reopens the file if it was rotated or removed, moves a torn
// tail aside, and re-reads the last record's hash. When the file is as this process left it,
// it does nothing.
func (d *disk) resync() error {
	st, err := os.Stat(d.path)
	switch {
	case err == nil && d.f != nil && os.SameFile(st, d.info) && st.Size() == d.size:
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("audit: %w", err)
	}
	if err != nil || d.f == nil || !os.SameFile(st, d.info) {
		if err := d.reopen(); err != nil {
			return err
		}
	}
	st, err = d.f.Stat()
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	if d.size > 0 && st.Size() < d.size {
		// Same file, shorter than this process left it: only something outside guardian
		// removes complete records. The chain cannot show a cut at the end, so say it here.
		d.opts.logger.Warn("the audit log is shorter than this process left it: records were removed by something other than guardian",
			"file", d.path, "bytes_before", d.size, "bytes_now", st.Size())
	}
	size, err := d.recoverTorn(st.Size())
	if err != nil {
		return err
	}
	last, err := d.lastHash(size)
	if err != nil {
		return err
	}
	d.size, d.last = size, last
	return nil
}

// reopen opens (creating if needed) the file at d.path in place of d.f.
func (d *disk) reopen() error {
	if d.f != nil {
		d.f.Close()
		d.f, d.info = nil, nil
	}
	_, statErr := os.Stat(d.path)
	f, err := os.OpenFile(d.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit: open the log: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("audit: %w", err)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		if err := syncDir(filepath.Dir(d.path)); err != nil {
			f.Close()
			return err
		}
	}
	d.f, d.info, d.size = f, st, -1
	return nil
}

// commit appends the records of batch and fsyncs them, rotating first whenever the next record
// would take the file past the maximum size. Each record is finished (its caller released) as
// soon as the fsync covering it returns. An error is returned for the records not yet
// finished; a record that cannot be encoded fails alone.
func (d *disk) commit(batch []*pending) error {
	if err := d.resync(); err != nil {
		return err
	}
	var buf []byte
	var held []*pending // records in buf, with the records they will be written as
	var outs []Record
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		_, err := d.f.Write(buf)
		if err == nil {
			err = d.f.Sync()
		}
		if err != nil {
			d.size = -1 // a partial write: resync will move it aside as a torn tail
			return fmt.Errorf("audit: write %s: %w", d.path, err)
		}
		d.size += int64(len(buf))
		if d.opts.onCommit != nil {
			off := 0
			for _, rec := range outs {
				n := bytes.IndexByte(buf[off:], '\n')
				d.opts.onCommit(rec, buf[off:off+n])
				off += n + 1
			}
		}
		for i, p := range held {
			p.finish(outs[i], nil)
		}
		buf, held, outs = buf[:0], held[:0], outs[:0]
		return nil
	}
	for _, p := range batch {
		rec := p.rec
		rec.Prev = d.last
		line, h, err := encodeLine(p.body, rec.Prev)
		if err == nil && len(line) > MaxRecordBytes {
			err = fmt.Errorf("audit: record %s is %d bytes, over the limit of %d", rec.ID, len(line), MaxRecordBytes)
		}
		if err != nil {
			p.finish(Record{}, err)
			continue
		}
		if d.opts.maxSize > 0 && d.size+int64(len(buf)) > 0 && d.size+int64(len(buf)+len(line)) > d.opts.maxSize {
			if err := flush(); err != nil {
				return err
			}
			if err := d.rotate(); err != nil {
				return err
			}
		}
		rec.Hash = h
		buf = append(buf, line...)
		held = append(held, p)
		outs = append(outs, rec)
		d.last = h // on a failed write resync re-reads it from the disk
	}
	return flush()
}

// rotatedLayout names rotated files: fixed width, so that names sort in time order.
const rotatedLayout = "20060102T150405.000000000Z"

// rotate renames the current file to <path>.<UTC timestamp> and starts an empty one. The
// chain goes on: d.last is unchanged, so the new file's first record points at the old
// file's last.
func (d *disk) rotate() error {
	t := d.opts.now().UTC()
	// Later than every rotated file already there, so the names stay in chain order even if
	// the clock stepped back.
	rotated, err := rotatedFiles(d.path)
	if err != nil {
		return err
	}
	if n := len(rotated); n > 0 {
		if prev, err := time.Parse(rotatedLayout, rotated[n-1][len(d.path)+1:]); err == nil && !t.After(prev) {
			t = prev.Add(time.Nanosecond)
		}
	}
	name := d.path + "." + t.Format(rotatedLayout)
	if err := os.Rename(d.path, name); err != nil {
		return fmt.Errorf("audit: rotate %s: %w", d.path, err)
	}
	d.size = -1
	if err := d.reopen(); err != nil {
		return err
	}
	d.size = 0
	d.opts.logger.Info("audit log rotated", "file", d.path, "rotated_to", name)
	return nil
}

// recoverTorn moves the bytes after the last newline of the file (a record cut short by a
// crash) to <path>.torn-<unix time>, truncates the file to its last complete record and
// returns the new size. Nothing is deleted, and the next record starts on a line of its own.
func (d *disk) recoverTorn(size int64) (int64, error) {
	if size == 0 {
		return 0, nil
	}
	var b [1]byte
	if _, err := d.f.ReadAt(b[:], size-1); err != nil {
		return 0, fmt.Errorf("audit: read %s: %w", d.path, err)
	}
	if b[0] == '\n' {
		return size, nil
	}
	nl, err := lastNewline(d.f, size)
	if err != nil {
		return 0, err
	}
	cut := nl + 1
	name, err := d.saveTorn(io.NewSectionReader(d.f, cut, size-cut))
	if err != nil {
		return 0, err
	}
	if err := d.f.Truncate(cut); err != nil {
		return 0, fmt.Errorf("audit: truncate the torn tail of %s: %w", d.path, err)
	}
	if err := d.f.Sync(); err != nil {
		return 0, fmt.Errorf("audit: %w", err)
	}
	d.opts.logger.Warn("audit log ended in an incomplete record (a crash during a write?); moved it aside and continued the chain from the last complete record",
		"file", d.path, "bytes", size-cut, "moved_to", name)
	return cut, nil
}

// saveTorn copies r to a new <path>.torn-<unix time>[-N] file and fsyncs it.
func (d *disk) saveTorn(r io.Reader) (string, error) {
	base := fmt.Sprintf("%s.torn-%d", d.path, d.opts.now().Unix())
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("audit: save the torn tail: %w", err)
		}
		_, err = io.Copy(f, r)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = syncDir(filepath.Dir(d.path))
		}
		if err != nil {
			return "", fmt.Errorf("audit: save the torn tail to %s: %w", name, err)
		}
		return name, nil
	}
}

// lastHash is the hash of the last record in the file (whose size is size and which ends in a
// newline), or, when the file is empty, in the newest rotated file: the prev of the next
// record. A last line without a readable hash is warned about and gives "": verify reports
// that line, and the log stays writable.
func (d *disk) lastHash(size int64) (string, error) {
	if size > 0 {
		return d.hashOfLastLine(d.f, size, d.path)
	}
	rotated, err := rotatedFiles(d.path)
	if err != nil {
		return "", err
	}
	for _, name := range slices.Backward(rotated) {
		h, ok, err := func() (string, bool, error) {
			f, err := os.Open(name)
			if err != nil {
				return "", false, fmt.Errorf("audit: %w", err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				return "", false, fmt.Errorf("audit: %w", err)
			}
			end, err := completeEnd(f, st.Size())
			if err != nil || end == 0 {
				return "", false, err
			}
			h, err := d.hashOfLastLine(f, end, name)
			return h, true, err
		}()
		if ok || err != nil {
			return h, err
		}
	}
	return "", nil
}

func (d *disk) hashOfLastLine(r io.ReaderAt, end int64, name string) (string, error) {
	s := newBackScanner(r, end)
	line, err := s.prev()
	if err != nil && !errors.Is(err, errLineTooLong) {
		return "", fmt.Errorf("audit: read the last record of %s: %w", name, err)
	}
	h, ok := claimedHash(line)
	if !ok {
		d.opts.logger.Warn("the last line of the audit log is not a record; the next record starts a new chain (guardian audit verify reports the line)",
			"file", name)
		return "", nil
	}
	return h, nil
}

func (d *disk) close() error {
	if d.f == nil {
		return nil
	}
	err := d.f.Close()
	d.f = nil
	return err
}

// syncDir fsyncs a directory, so that a created or renamed file survives a crash.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("audit: sync directory %s: %w", dir, err)
	}
	return nil
}
