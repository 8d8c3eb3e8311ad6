package riskmodel

import "strings"

// brewURLFormula returns the first formula or cask that brew install is handed as a URL
// (brew install --cask https://…/x.rb): Homebrew downloads that Ruby file and runs it, so
// it is code fetched from wherever the URL points, not a package of Homebrew's own.
func brewURLFormula(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && (strings.HasPrefix(a, "http://") || strings.HasPrefix(a, "https://") || strings.HasPrefix(a, "ftp://")) {
			return a
		}
	}
	return ""
}
