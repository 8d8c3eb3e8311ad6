package hook

import (
	"regexp"
	"sync"
)

// lazyRegexp returns a function that compiles pattern on its first call and returns the same
// *regexp.Regexp ever after. Compiled at package init, the installers' expressions would cost
// every hook process their compile time before main, although only install and verify use
// them.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
