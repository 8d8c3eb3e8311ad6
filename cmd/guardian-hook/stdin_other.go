//go:build unix && !linux

package main

import "os"

// setStdin makes b the rest of this process's standard input, for the process it execs: a
// temporary file, private to the user and removed before it is written, so that only the
// open descriptor names it.
func setStdin(b []byte) error {
	f, err := os.CreateTemp("", "guardian-hook-stdin-*")
	if err != nil {
		return err
	}
	defer f.Close()
	if err := os.Remove(f.Name()); err != nil {
		return err
	}
	return replaceStdin(f, b)
}
