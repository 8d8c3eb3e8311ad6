//go:build unix && !race

package mcp_test

// raceEnabled says this test binary has the race detector; without it the guardian binary
// under test is built without it too.
const raceEnabled = false
