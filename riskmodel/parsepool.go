package riskmodel

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// bashParsers holds reusable bash parsers. A syntax.Parser carries two 1 KiB buffers, so
// making one per parse was a tenth of a typical request's allocation; Parse resets all of its
// state (and hands out fresh node batches, so an earlier parse's tree is never overwritten).
var bashParsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// parseBash parses src as a bash program, as syntax.NewParser(syntax.Variant(syntax.LangBash))
// would.
func parseBash(src string) (*syntax.File, error) {
	p := bashParsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(src), "")
	bashParsers.Put(p)
	return f, err
}
