package riskmodel

import "strings"

// HTTPie's request items name files as well as values (httpie.io/docs/cli/request-items):
// `field@path` uploads the file as a multipart field, `field=@path` embeds its text and
// `field:=@path` its JSON. curl's @file is handled where curl is; these are HTTPie's (http,
// https) and xh's, which takes the same items.

// isHTTPie reports the HTTPie-style clients.
func isHTTPie(name string) bool {
	return name == "http" || name == "https" || name == "xh" || name == "xhs"
}

// httpieFile returns the file a request item sends, "" when the item names none. Items with
// "=@" or ":=@" are handled by the callers' generic =@ split; this adds the upload form.
func httpieFile(item string) string {
	if strings.HasPrefix(item, "-") || strings.Contains(item, "://") {
		return ""
	}
	i := strings.IndexByte(item, '@')
	if i <= 0 || strings.ContainsAny(item[:i], "=:") {
		return ""
	}
	p, _, _ := strings.Cut(item[i+1:], ";") // field@file;type=text/plain
	return p
}

// httpieSendsFile reports a HTTPie command whose items upload or embed a local file.
func httpieSendsFile(s *Segment) bool {
	if !isHTTPie(s.Name()) {
		return false
	}
	for _, a := range s.Args[1:] {
		if httpieFile(a) != "" || !strings.HasPrefix(a, "-") && strings.Contains(a, "=@") {
			return true
		}
	}
	return false
}
