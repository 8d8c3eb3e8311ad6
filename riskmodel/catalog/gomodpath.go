package catalog

// goPathConfusable judges a Go package path by its module prefixes: `go install
// github.com/golang-jwt/jvvt/v5/cmd/jwt@latest` names a command below the module, so the
// whole path never equals a popular module's and the confusable fold (vv for w, rn for m, 1
// and I for l, 0 for o) must be applied to each prefix that ends at a path separator. of is
// the popular module a prefix imitates.
func (p *Packages) goPathConfusable(raw string) (of string, ok bool) {
	for i := len(raw) - 1; i > 0; i-- {
		if raw[i] != '/' {
			continue
		}
		pre := raw[:i]
		n := NormalizePackage(GoMod, pre)
		if p.popular[GoMod][n] {
			return "", false
		}
		if of, ok := p.skeletons[GoMod][skeleton(asciiLookalikes(pre))]; ok && of != n {
			return of, true
		}
	}
	return "", false
}
