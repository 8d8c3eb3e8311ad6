package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Any program told where to put its output writes there: pandoc -o FILE, a generator's
// --out-file, jq's --output-file, a converter's --dest. When that place is a startup file, an
// autostart entry, authorized_keys, the agent's own settings or a privilege file, the write is
// persistence or a disabled control (docs/policy.md) whatever the program — the same as
// `tee -a ~/.bashrc`. Only such places are taken from unknown programs' options: an ordinary
// output path is left to the rules that know the program, so that `gcc -o /tmp/x` is judged
// as before.

// outputOptions are option names (without dashes, lower case) whose value is a file the
// program writes: GNU and POSIX conventions (-o, --output), and the usual spellings of
// converters, generators and exporters.
var outputOptions = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"o": true, "output": true, "out": true, "outfile": true, "out-file": true, "output-file": true,
		"output-path": true, "out-path": true, "output-document": true, "dest": true, "destination": true, "dest-file": true,
		"save": true, "save-to": true, "save-as": true, "write-to": true, "write": true, "export": true, "target-file": true,
		"output-filename": true, "outputfile": true, "outpath": true}
}}

// sensitiveWriteClasses are the catalogue classes whose writes the file rules deny.
var sensitiveWriteClasses = []catalog.Class{catalog.Persistence, catalog.AgentConfig, catalog.Privilege, catalog.SecurityControl, catalog.SystemCritical}

// optionWriteTargets returns the sensitive files a segment's output options name.
func optionWriteTargets(c *execCtx, s *Segment, known []string) []target {
	var out []target
	args := s.Args[min(1, len(s.Args)):]
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, v, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !outputOption(name) { // -o, --output, and names that say so (catalog_paths.go)
			continue
		}
		if name == "o" && s.Name() != "sort" && (readOnly.get()[s.Name()] || nonReaders.get()[s.Name()]) {
			continue // ls -o, grep -o, find -o, ssh -o: a flag or an operator, not an output file (sort -o is one)
		}
		if !eq {
			if i+1 >= len(args) {
				continue
			}
			v = args[i+1]
		}
		v = strings.Trim(v, `"'`)
		if v == "" || v == "-" || strings.HasPrefix(v, "-") || containsStr(known, v) {
			continue
		}
		t := c.target(v)
		for _, cl := range sensitiveWriteClasses {
			if _, ok := c.inClass(cl, t); ok {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
