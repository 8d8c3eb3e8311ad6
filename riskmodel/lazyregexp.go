package riskmodel

import (
	"regexp"
	"sync"
)

// lazyRegexp returns a function that compiles pattern on its first call and returns the same
// *regexp.Regexp ever after. Some of riskmodel's expressions (long alternations, counted
// repetitions such as {1,1000}) take a millisecond or more each to compile; compiled at
// package init they cost every hook process several milliseconds at start, although most
// requests never reach them. A bad pattern still panics, at first use, and the rule examples
// reach every one of them in `guardian rules test`.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
