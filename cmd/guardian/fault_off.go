//go:build !guardian_faults

package main

// injectFault does nothing: fault injection exists only in binaries built with
// -tags guardian_faults (see fault.go), never in the one that ships.
func (a *app) injectFault(string) {}
