package riskmodel

import (
	"path"
	"strings"
)

// tempCacheDir reports a directory in a temporary location that is a cache or a build
// directory by its name (/tmp/turbo-cache, /tmp/build-payments-api, /tmp/nx-cache): deleting
// it is "deleting caches or build dirs outside the workspace", asked about (docs/policy.md),
// where removing the request's own scratch files (/tmp/out.json, a pytest basetemp) is not.
// arg is the path as written, for globs (/tmp/build-cache-*).
func tempCacheDir(abs, arg string) bool {
	for _, p := range []string{abs, arg} {
		b := strings.ToLower(path.Base(strings.TrimSuffix(p, "/")))
		for _, w := range strings.FieldsFunc(b, func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
			switch w {
			case "cache", "caches", "cached", "build", "builds", "dist", "target", "deriveddata", "turbo", "nx", "gradle", "bazel", "ccache", "sccache",
				"artifact", "artifacts", "coverage", "htmlcov", "wheelhouse", "venv":
				return true
			}
		}
	}
	return false
}

// tempProjectDir reports a directory in a temporary location named after one of the request's
// workspaces (/tmp/shop-api-e2e-artifacts for ~/src/shop-api): the project's output kept
// outside the workspace, which its later runs, other checkouts or a human may still use, so
// deleting it is asked about as a build directory outside the workspace is. The workspace's
// name must be a run of whole words of the directory's name (shop-api in shop-api-e2e, not
// api in rapid) and at least four letters, so a short or generic name matches nothing.
func tempProjectDir(sc *Scope, abs string) bool {
	b := strings.ToLower(path.Base(strings.TrimSuffix(abs, "/")))
	for _, w := range append([]string{sc.Cwd}, sc.Workspaces...) {
		n := strings.ToLower(path.Base(strings.TrimSuffix(w, "/")))
		if len(n) < 4 || n == "tmp" || n == "temp" || n == "src" || n == "project" || n == "proj" || n == "app" || n == "work" {
			continue
		}
		for i := strings.Index(b, n); i >= 0 && i < len(b); {
			before := i == 0 || !isWordByte(b[i-1])
			after := i+len(n) == len(b) || !isWordByte(b[i+len(n)])
			if before && after {
				return true
			}
			j := strings.Index(b[i+1:], n)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}

func isWordByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
