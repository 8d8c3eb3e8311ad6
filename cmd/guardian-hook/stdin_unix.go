//go:build unix

package main

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// replaceStdin writes b to f, rewinds it and puts it in place of standard input (descriptor
// 0, which dup2 leaves open across exec).
func replaceStdin(f *os.File, b []byte) error {
	if _, err := f.Write(b); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return os.NewSyscallError("dup2", unix.Dup2(int(f.Fd()), 0))
}
