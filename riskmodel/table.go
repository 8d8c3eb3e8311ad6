package riskmodel

import "sync"

// table is a value riskmodel builds the first time a review reads it: the rules' maps (word
// lists, option tables, vocabularies, indexes). A hook call is a fresh process per tool call
// and reviews one request, which reads a handful of the package's ~180 tables; built at
// package init, all of them cost every process ~250 KB of heap and half a millisecond before
// main runs (docs/hooks.md, "Where the time goes"). Declared as a composite literal whose build
// is a function literal capturing nothing, a table is static data the linker lays out: the
// package's init neither allocates nor runs code for it (TestInitAllocations checks).
//
// build must not read the table it builds (sync.Once would deadlock); the value is shared by
// every review and must not be modified.
type table[T any] struct {
	once  sync.Once
	build func() T
	v     T
}

// get returns the table, building it on the first call.
func (t *table[T]) get() T {
	t.once.Do(func() { t.v = t.build() })
	return t.v
}

// wordSet is a set of words, written as one string of words separated by blanks and built
// into a map on first use (see table): riskmodel's MCP and SQL vocabularies, which a shell
// command's review mostly never reads.
type wordSet struct {
	once  sync.Once
	words string
	set   map[string]bool
}

// get returns the set as a map, building it on the first call.
func (w *wordSet) get() map[string]bool {
	w.once.Do(func() { w.set = mcpWordSet(w.words) })
	return w.set
}

// has reports whether word is in the set.
func (w *wordSet) has(word string) bool { return w.get()[word] }
