//go:build guardian_faults

package main

import (
	"fmt"
	"os"
	"time"
)

// envFault names the fault to inject. Only a binary built with -tags guardian_faults reads
// it: the end-to-end suite builds one to prove what the hosts do when guardian itself breaks,
// which no configuration of the real binary can make happen.
const envFault = "GUARDIAN_FAULT"

// injectFault breaks the process at point when $GUARDIAN_FAULT names it: "POINT" panics
// (inside hook.Run that becomes the fail-safe reply); "POINT:hang" never answers (a process
// stuck before it can reply, which only the host's timeout ends); "POINT:exit1" exits 1
// without a reply (a crash, as log.Fatal would); "POINT:garbage" prints a line that is not
// JSON and exits 0; "POINT:silent" exits 0 printing nothing (a truncated write, a return
// before the reply, an os.Exit(0) in a library). The last four happen where guardian's own
// fail-safe cannot reach, so they show what the host does with a hook that fails (its
// onFailure setting, or guardian's fail-closed wrapper).
func (a *app) injectFault(point string) {
	switch a.getenv(envFault) {
	case point:
		panic("guardian_faults: injected panic at " + point)
	case point + ":hang":
		time.Sleep(time.Hour) // not synchronisation: the fault is a process that never answers
	case point + ":exit1":
		os.Exit(1)
	case point + ":silent":
		os.Exit(0)
	case point + ":garbage":
		fmt.Fprintln(a.stdout, "guardian_faults: not a hook reply")
		os.Exit(0)
	}
}
