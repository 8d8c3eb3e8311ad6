// Package e2e proves guardian's hook adapters against the real agent hosts: Claude Code and
// Codex, installed from npm at pinned versions (testdata/hosts), driven offline by fake model
// servers on 127.0.0.1, with guardian installed as their hook by its own installers.
//
// The tests run only under `make e2e`, which installs the hosts, builds guardian (and a second
// binary with fault injection, build tag guardian_faults) and runs the compiled test binary
// inside a loopback-only network namespace; see docs/e2e.md. Without GUARDIAN_E2E=1 every
// test skips.
package e2e
