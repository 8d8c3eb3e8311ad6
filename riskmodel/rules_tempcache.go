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
			case "cache", "caches", "cached", "build", "builds", "dist", "target", "deriveddata", "turbo", "nx", "gradle", "bazel", "ccache", "sccache":
				return true
			}
		}
	}
	return false
}
