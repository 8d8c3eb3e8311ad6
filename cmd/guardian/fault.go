//go:build guardian_faults

package main

// envFault names the fault to inject. Only a binary built with -tags guardian_faults reads
// it: the end-to-end suite builds one to prove that the hosts get a fail-safe reply when
// guardian itself breaks, which no configuration of the real binary can make happen.
const envFault = "GUARDIAN_FAULT"

// injectFault panics at point when $GUARDIAN_FAULT names it ("decide": as a hook starts to
// decide a call).
func (a *app) injectFault(point string) {
	if a.getenv(envFault) == point {
		panic("guardian_faults: injected panic at " + point)
	}
}
