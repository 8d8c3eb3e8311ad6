package audit_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/guardianhq/guardian/guardian/audit"
)

// The test binary doubles as an appending child process: with childEnv set, TestMain appends
// records instead of running tests. That is how the tests get several real processes (with
// their own file descriptors and flocks) appending to one log, and one to SIGKILL mid-write.
const (
	childEnv     = "GUARDIAN_AUDIT_TEST_CHILD" // "count" (append N records) or "loop" (until killed)
	childPath    = "GUARDIAN_AUDIT_TEST_PATH"
	childN       = "GUARDIAN_AUDIT_TEST_N"       // records per worker ("count")
	childWorkers = "GUARDIAN_AUDIT_TEST_WORKERS" // appending goroutines
	childSync    = "GUARDIAN_AUDIT_TEST_SYNC"    // "record" or "batch"
	childMaxSize = "GUARDIAN_AUDIT_TEST_MAXSIZE" // bytes; 0 never rotates
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		if err := runChild(mode); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runChild appends records and prints the id of each on stdout once Append has returned it:
// a printed id is an acknowledged record, which must be in the log whatever happens next.
func runChild(mode string) error {
	n, _ := strconv.Atoi(os.Getenv(childN))
	workers, _ := strconv.Atoi(os.Getenv(childWorkers))
	maxSize, _ := strconv.ParseInt(os.Getenv(childMaxSize), 10, 64)
	sm, err := audit.ParseSyncMode(os.Getenv(childSync))
	if err != nil {
		return err
	}
	l, err := audit.Open(os.Getenv(childPath), audit.WithSync(sm), audit.WithMaxSize(maxSize))
	if err != nil {
		return err
	}
	defer l.Close()
	var out sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; mode == "loop" || i < n; i++ {
				rec, err := l.Append(context.Background(), testRecord(fmt.Sprintf("pid %d worker %d record %d", os.Getpid(), w, i)))
				if err != nil {
					errs <- err
					return
				}
				out.Lock()
				_, err = fmt.Println(rec.ID)
				out.Unlock()
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}
