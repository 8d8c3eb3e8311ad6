//go:build unix && !race

package interop_test

// raceEnabled says this test binary has the race detector; without it the guardian binary
// under test is built without it too.
const raceEnabled = false
