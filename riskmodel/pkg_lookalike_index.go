package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// An install from an index or registry whose host imitates a known registry, a vendor or the
// organisation whose packages are being installed (registry.npmjs-mirror.org,
// pypi.acme-lnternal.net, acrne-packages.dev for @acme) is a homoglyph or look-alike domain:
// on docs/policy.md's deny list, so pkg.untrusted-source is certain. An index that is merely
// unknown stays a question (the policy's "extra package indexes" ask row).

// lookalikeIndex describes the first host the segment names that imitates another name, ""
// when none does.
func lookalikeIndex(s *Segment) string {
	if len(s.Args) < 2 {
		return ""
	}
	var names []string
	var hosts []string
	for _, a := range s.Args[1:] {
		w := a
		if strings.HasPrefix(w, "-") {
			i := strings.IndexByte(w, '=')
			if i < 0 {
				continue
			}
			w = w[i+1:]
		}
		if h := remoteHostOf(w); h != "" {
			hosts = append(hosts, h)
			continue
		}
		if strings.ContainsAny(w, "/") && !strings.HasPrefix(w, "@") {
			continue // a path
		}
		names = append(names, strings.FieldsFunc(w, func(r rune) bool {
			return r == '@' || r == '/' || r == '-' || r == '_' || r == '.' || r == '=' || r == '<' || r == '>' || r == '~' || r == '^'
		})...)
	}
	for _, h := range hosts {
		if of, ok := catalog.Default().ImitatedName(h, names); ok {
			return "the index host " + h + " imitates " + of + " (a look-alike domain)"
		}
	}
	return ""
}
