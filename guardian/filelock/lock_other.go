//go:build !unix

package filelock

import (
	"errors"
	"os"
)

// Lock fails where flock is missing: writing without the lock could interleave two
// processes' writes (and break the audit log's chain), so callers refuse rather than risk it.
func Lock(*os.File) error { return errors.ErrUnsupported }

// Unlock matches Lock.
func Unlock(*os.File) error { return errors.ErrUnsupported }
