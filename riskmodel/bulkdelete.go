package riskmodel

import (
	"net/url"
	"strings"
)

// deleteWords are the verbs and options with which data-store CLIs delete what they hold
// (kafka-topics --delete, consul kv delete, nomad var purge, etcdctl del).
var deleteWords = &wordSet{words: "delete del rm remove purge drop destroy wipe deleteall"}

// unknownBulkDelete describes an unknown command that deletes in bulk or in production
// ("" when it does not): a delete verb or option among its first words, with recursion
// (-recurse, --prefix, --all), a wildcard, or a production name among its arguments. The
// store it deletes from is not the workspace: docs/policy.md denies bulk deletion of data
// the user never mentioned and of production data, so the rules must say high, not the
// medium of an unknown command a model may wave through.
func unknownBulkDelete(s *Segment) string {
	del, broad, verbs := "", "", 0
	for _, a := range s.Args[1:] {
		la := strings.ToLower(a)
		if strings.HasPrefix(la, "-") {
			name := strings.TrimLeft(la, "-")
			name, _, _ = strings.Cut(name, "=")
			switch {
			case deleteWords.get()[name]:
				del = a
			case name == "recurse" || name == "recursive" || name == "r" || name == "prefix" || name == "all":
				broad = a
			}
			continue
		}
		if verbs < 3 && del == "" && deleteWords.get()[la] {
			del = a
		}
		verbs++
		if strings.ContainsAny(a, "*") || namesProduction(la) {
			broad = a
		}
	}
	if del == "" || broad == "" {
		return ""
	}
	return "deleting with " + del + " on " + broad
}

// namesProduction reports a word that names a production host, cluster or environment
// (kafka.prod:9092, prod-eu, production): one of its dot, dash, colon or slash separated parts.
func namesProduction(a string) bool {
	for _, w := range strings.FieldsFunc(a, func(r rune) bool { return r == '.' || r == '-' || r == ':' || r == '/' || r == '_' || r == '=' }) {
		if w == "prod" || w == "production" || w == "prd" {
			return true
		}
	}
	return false
}

// bulkDeleteURL describes an HTTP DELETE target that removes many things at once: a
// wildcard or _all in its path (Elasticsearch and OpenSearch index patterns), or a
// _delete_by_query. "" when it names one thing.
func bulkDeleteURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	p, _ := url.PathUnescape(u.EscapedPath())
	for _, seg := range strings.Split(p, "/") {
		if strings.Contains(seg, "*") || seg == "_all" || seg == "_delete_by_query" {
			return u.Host + p
		}
	}
	return ""
}
