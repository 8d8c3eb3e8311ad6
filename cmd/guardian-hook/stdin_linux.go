package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// setStdin makes b the rest of this process's standard input, for the process it execs: an
// anonymous memory file (memfd), so that the payload, which may hold a file's contents, is
// never written to disk.
func setStdin(b []byte) error {
	fd, err := unix.MemfdCreate("guardian-hook-stdin", unix.MFD_CLOEXEC)
	if err != nil {
		return os.NewSyscallError("memfd_create", err)
	}
	f := os.NewFile(uintptr(fd), "guardian-hook-stdin")
	defer f.Close()
	return replaceStdin(f, b)
}
