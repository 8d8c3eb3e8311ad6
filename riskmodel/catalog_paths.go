package riskmodel

import (
	"strings"
	"unicode"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// The command catalogue says what a tool does with the project (catalog/commands.go); it does
// not follow the paths a use is given. Two mechanisms keep a catalogued use from carrying a
// startup file, an agent's settings or a system file past the rules as "routine":
//
//   - Output options by their name. Any program's option whose name says it writes
//     (--export-json, --output-log, -output-directory, --report-dir, --cache-dir) names a file
//     or directory it writes, like -o and --output do (optwrite.go): its value joins the
//     segment's write targets and the file rules judge it — `hyperfine --export-json
//     ~/.bashrc` is the startup-file write `tee ~/.bashrc` is. This holds for every class,
//     read_only included: a viewer's output option writes as surely as a compiler's.
//   - Any path a build tool is given (cat.sensitive-path). A build, test or benchmark
//     tool's operands and option values are its inputs and its outputs, and which is which the
//     catalogue does not say: `stylua ~/.config/nvim/init.lua` rewrites the file, `ctest
//     --resource-spec-file ~/.bashrc` reads it. A build use that names a persistence, agent
//     configuration, privilege, security-control or system-critical path is therefore not
//     the everyday use the entry describes: it is rated high and asked about (the analysis
//     cannot tell whether the file is written). A read_only tool's operands are what it
//     reads and prints, so `bat ~/.bashrc` and `less /etc/sudoers` stay reads (credential
//     stores are the credential rules' business, for every class).

// outputLeads are option-name words that, first in the name, say the value is written:
// --output-log, --export-json, --save-path, --dump-header, --dest-dir.
var outputLeads = &wordSet{words: "output outputs out outdir outfile outpath export save write dest destination dump logfile logdir"}

// outputPlaces are option-name words that say a file or directory is written when the name
// ends in a place word (--log-dir, --report-path, --cache-dir, --build-dir, --target-dir,
// --junit-file): logs, reports, caches and build trees are written where they are told.
var outputPlaces = &wordSet{words: "log logs report reports cache build target dist results result coverage artifacts artifact install junit trace profile snapshot snapshots"}

// placeWords end an option name that names where something goes.
var placeWords = &wordSet{words: "dir directory folder path file root"}

// outputTails are option-name words that, last in the name, say the value is written:
// --json-output, --html-out, --log-dest.
var outputTails = &wordSet{words: "output out outdir outfile outpath dest destination logfile"}

// outputOption reports whether an option name (dashes dropped, any case, "--opt=v" cut at
// "=") names a file or directory the program writes: the conventional names (outputOptions)
// and compound ones whose words say so. camelCase names count by their words
// (-outputDirectory).
func outputOption(name string) bool {
	if outputOptions.get()[strings.ToLower(name)] {
		return true
	}
	words := optionWords(name)
	if len(words) == 0 {
		return false
	}
	first, last := words[0], words[len(words)-1]
	switch {
	case len(words) > 1 && outputLeads.has(first):
		return true
	case len(words) == 1 && (first == "log" || first == "logfile" || first == "report" || first == "outdir" || first == "logdir"):
		return true // --log FILE, --logfile FILE, --report FILE
	case len(words) > 1 && outputPlaces.has(first) && placeWords.has(last):
		return true
	case len(words) > 1 && outputTails.has(last):
		return true
	}
	// One word run together: -outputdirectory, --outputfile.
	return len(words) == 1 && strings.HasPrefix(first, "output")
}

// optionWords splits an option name into lower-case words at '-', '_', '.' and camelCase
// humps: "output-directory", "output_dir" and "outputDir" all give [output dir …].
func optionWords(name string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, b.String())
			b.Reset()
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case r == '-' || r == '_' || r == '.':
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		b.WriteRune(unicode.ToLower(r))
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	return words
}

// buildSensitiveClasses are the path classes a build tool's argument may not name and stay
// everyday: the places whose writes the file rules deny.
var buildSensitiveClasses = sensitiveWriteClasses

// buildPathExempt are catalogue entries a build tool routinely names without writing them:
// the system's interpreters (virtualenv -p /usr/bin/python3, cmake
// -DPython3_EXECUTABLE=/usr/bin/python3, uv venv --python /usr/bin/python3).
var buildPathExempt = &wordSet{words: "system.interpreter"}

// buildSensitiveArg returns the first argument of a build tool's use that names a sensitive
// path (an operand, the value of --opt=value or -DNAME=value, or a word after an option), and
// the entry that holds it.
func buildSensitiveArg(c *execCtx, s *Segment) (string, *catalog.PathEntry) {
	for _, a := range s.Args[min(1, len(s.Args)):] {
		if strings.HasPrefix(a, "-") {
			j := strings.IndexByte(a, '=')
			if j < 0 {
				continue // a flag, or an option whose value is the next word (checked as one)
			}
			a = a[j+1:]
		}
		a = strings.Trim(a, `"'`)
		if a == "" || !strings.ContainsAny(a, "/~$") {
			continue // a word, not a path outside the working directory
		}
		t := c.target(a)
		for _, cl := range buildSensitiveClasses {
			if e, ok := c.inClass(cl, t); ok && !buildPathExempt.has(e.ID) {
				return a, e
			}
		}
	}
	return "", nil
}

func catalogPathRules() []*Rule {
	return []*Rule{{
		ID: "cat.sensitive-path", Level: High, Category: CatPersistence,
		Message: "Gives a catalogued build tool a startup file, an agent's settings or a system file",
		exec: func(c *execCtx, s *Segment) (string, bool) {
			e, ok := catalog.DefaultCommands().Lookup(s.Name(), s.Args[min(1, len(s.Args)):])
			if !ok || e.Class != catalog.CommandBuild {
				return "", false
			}
			a, pe := buildSensitiveArg(c, s)
			if pe == nil {
				return "", false
			}
			return "Runs " + s.Name() + " on " + a + " (" + pe.What + "): whether it reads or rewrites it cannot be told", true
		},
	}}
}
