package audit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// errLineTooLong reports a line over MaxRecordBytes.
var errLineTooLong = fmt.Errorf("line longer than %d bytes", MaxRecordBytes)

// chunkSize is how much is read at a time when scanning backwards.
const chunkSize = 64 << 10

// lastNewline returns the offset of the last "\n" in r[0:end], or -1.
func lastNewline(r io.ReaderAt, end int64) (int64, error) {
	buf := make([]byte, chunkSize)
	for end > 0 {
		n := min(int64(len(buf)), end)
		b := buf[:n]
		if _, err := r.ReadAt(b, end-n); err != nil {
			return 0, fmt.Errorf("audit: %w", err)
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return end - n + int64(i), nil
		}
		end -= n
	}
	return -1, nil
}

// completeEnd is the end of the complete lines of r[0:size]: just after its last "\n", or 0.
// What follows is a torn tail.
func completeEnd(r io.ReaderAt, size int64) (int64, error) {
	nl, err := lastNewline(r, size)
	if err != nil {
		return 0, err
	}
	return nl + 1, nil
}

// backScanner yields the lines of r[0:end] from the last to the first, reading backwards a
// chunk at a time; end is just after a "\n". It never reads more than it yields (plus one
// chunk), so the last records of a large file cost what they weigh.
type backScanner struct {
	r   io.ReaderAt
	pos int64  // buf holds r[pos:pos+len(buf)]
	buf []byte // not yet yielded
	eof bool
}

func newBackScanner(r io.ReaderAt, end int64) *backScanner {
	if end <= 0 {
		return &backScanner{r: r, eof: true}
	}
	// The region ends before the final "\n" of the last line.
	return &backScanner{r: r, pos: end - 1}
}

// prev returns the line before the ones already returned, io.EOF when there is none, or
// errLineTooLong (with the line's tail, which still ends in its hash) when a line is longer
// than MaxRecordBytes.
func (s *backScanner) prev() ([]byte, error) {
	for {
		if s.eof {
			return nil, io.EOF
		}
		if i := bytes.LastIndexByte(s.buf, '\n'); i >= 0 {
			line := s.buf[i+1:]
			s.buf = s.buf[:i]
			return line, nil
		}
		if s.pos == 0 {
			line := s.buf
			s.buf, s.eof = nil, true
			return line, nil
		}
		if len(s.buf) > MaxRecordBytes {
			s.eof = true // cannot find where this line starts without reading without bound
			return s.buf, errLineTooLong
		}
		n := min(int64(chunkSize), s.pos)
		b := make([]byte, int(n)+len(s.buf))
		if _, err := s.r.ReadAt(b[:n], s.pos-n); err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		copy(b[n:], s.buf)
		s.buf, s.pos = b, s.pos-n
	}
}

// lineReader reads lines forwards with a bound on their length.
type lineReader struct {
	r *bufio.Reader
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, chunkSize)}
}

// next returns the next line without its "\n". complete is false for bytes at the end of the
// input that no "\n" ends (a torn tail); err is io.EOF after the last line, or
// errLineTooLong, after which the rest of the line has been skipped and n is its length.
func (lr *lineReader) next() (line []byte, complete bool, n int64, err error) {
	var acc []byte
	over := false
	for {
		frag, err := lr.r.ReadSlice('\n')
		n += int64(len(frag))
		if !over && len(acc)+len(frag) <= MaxRecordBytes+1 {
			acc = append(acc, frag...)
		} else {
			over, acc = true, nil
		}
		switch {
		case err == nil && over:
			return nil, true, n - 1, errLineTooLong
		case err == nil:
			return acc[:len(acc)-1], true, n - 1, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if n == 0 {
				return nil, false, 0, io.EOF
			}
			return acc, false, n, nil
		default:
			return nil, false, n, fmt.Errorf("audit: %w", err)
		}
	}
}
