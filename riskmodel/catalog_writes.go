package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// catalogOutputs returns the files a catalogued workspace writer names as its outputs
// (catalog Outputs and WritesLast): pandoc -o FILE, asciidoctor -D DIR, magick IN OUT. They
// join a segment's write targets, so the file rules judge a document rendered into a shell
// startup file or an agent's settings as the write it is, whatever tool made it.
func catalogOutputs(s *Segment) []string {
	if len(s.Args) < 2 {
		return nil
	}
	args := s.Args[1:]
	e, ok := catalog.DefaultCommands().Lookup(s.Name(), args)
	if !ok || len(e.Outputs) == 0 && !e.WritesLast {
		return nil
	}
	out := toolOptionValues(args, e.Outputs)
	if s.Name() == "magick" && args[0] == "identify" {
		return out // magick identify prints what it reads
	}
	if last := args[len(args)-1]; e.WritesLast && len(args) > 1 && !strings.HasPrefix(last, "-") && !strings.Contains(last, "://") {
		out = append(out, imageMagickOperand(s.Name(), last))
	}
	return out
}

// imageMagickTools are ImageMagick's commands, whose file operands may carry a coder prefix.
var imageMagickTools = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"magick": true, "convert": true, "mogrify": true, "montage": true, "composite": true, "identify": true,
		"compare": true, "stream": true, "conjure": true, "animate": true, "display": true, "import": true, "gm": true}
}}

// imageMagickOperand is the file an ImageMagick operand reads or writes once its coder prefix
// and list marker are dropped: text:/etc/shadow renders that file, label:@notes.txt reads it,
// msl:build.msl runs that script, png:out.png writes out.png (ImageMagick "Command-line
// Processing: Input Filename", "Security Policy"). Other commands' arguments are returned
// as they are.
func imageMagickOperand(name, a string) string {
	if !imageMagickTools.get()[name] {
		return a
	}
	if i := strings.IndexByte(a, ':'); i >= 2 && !strings.HasPrefix(a[i:], "://") {
		coder := a[:i]
		plain := true
		for _, r := range coder {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				plain = false
				break
			}
		}
		if plain {
			a = a[i+1:]
		}
	}
	return strings.TrimPrefix(a, "@")
}
