package riskmodel

import "strings"

// `go mod edit -replace OLD=NEW@VERSION` makes every build use NEW's code where the module
// asks for OLD. NEW in another owner's namespace is an unofficial fork (docs/policy.md's ask
// row: "unofficial forks"): asked about like pip's git+ URL (pkg.untrusted-source). A local
// directory (./pgx, ../pgx) is the developer's own checkout, and a replacement by the same
// owner's module (a major version, a moved path) is not a fork. Source: go help mod edit
// ("-replace=old[@v]=new[@v]"), Go Modules Reference: replace directives.

// goReplaceFork reports a go mod edit whose -replace points a module at another owner's.
func goReplaceFork(s *Segment) (pkgOp, bool) {
	args := s.Args[1:]
	for i, a := range args {
		spec := ""
		switch {
		case strings.HasPrefix(a, "-replace="):
			spec = a[len("-replace="):]
		case (a == "-replace" || a == "--replace") && i+1 < len(args):
			spec = args[i+1]
		case strings.HasPrefix(a, "--replace="):
			spec = a[len("--replace="):]
		default:
			continue
		}
		old, repl, ok := strings.Cut(spec, "=")
		if !ok {
			continue
		}
		if goLocalPath(repl) {
			continue
		}
		if oldOwner, newOwner := goModOwner(old), goModOwner(repl); oldOwner != newOwner {
			return pkgOp{pkgUntrusted, "Points " + goModPath(old) + " at " + goModPath(repl) + " with go mod edit -replace, another owner's fork, so builds run its code"}, true
		}
	}
	return pkgOp{}, false
}

func goLocalPath(p string) bool {
	return strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") || p == "." || p == ".."
}

// goModPath strips the version: github.com/a/b/v5@v5.1.0 → github.com/a/b/v5.
func goModPath(m string) string {
	if i := strings.IndexByte(m, '@'); i >= 0 {
		m = m[:i]
	}
	return m
}

// goModOwner is the host and first path element of a module path (github.com/jackc), or the
// whole path for hosts without owners (golang.org/x/net → golang.org/x).
func goModOwner(m string) string {
	parts := strings.Split(strings.ToLower(goModPath(m)), "/")
	if len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return strings.Join(parts, "/")
}
