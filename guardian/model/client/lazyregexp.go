package client

import (
	"regexp"
	"sync"
)

// lazyRegexp returns a function that compiles pattern on its first call and returns the same
// *regexp.Regexp ever after. Compiled at package init, the model families' name patterns
// would cost every guardian process (each hook call among them) ~0.2 ms before main, although
// only a process that builds a model client matches a model name.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
