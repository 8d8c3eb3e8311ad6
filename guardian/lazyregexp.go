package guardian

import (
	"regexp"
	"sync"
)

// lazyRegexp returns a function that compiles pattern on its first call and returns the same
// *regexp.Regexp ever after. Compiled at package init, the config's expressions cost every
// guardian process — each hook call among them — their compile time before main, although
// most runs never reach them (a counted repetition such as {0,63} alone takes ~0.1 ms).
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
