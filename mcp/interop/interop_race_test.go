//go:build unix && race

package interop_test

// raceEnabled says this test binary has the race detector, so the guardian binary under test
// is built with it too and a racing proxy fails the suite.
const raceEnabled = true
