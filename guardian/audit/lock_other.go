//go:build !unix

package audit

import (
	"errors"
	"os"
)

// lockFile fails where flock is missing: appending without the lock could interleave the
// records of two processes and break the chain, so the log refuses rather than risk it.
func lockFile(*os.File) error { return errors.ErrUnsupported }

// unlockFile matches lockFile.
func unlockFile(*os.File) error { return errors.ErrUnsupported }
