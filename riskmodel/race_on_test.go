//go:build race

package riskmodel

// raceEnabled is true when the tests run under the race detector, which makes the
// pure-function comparison tests ~20× slower without finding anything more in them.
const raceEnabled = true
