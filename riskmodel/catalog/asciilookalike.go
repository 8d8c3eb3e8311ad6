package catalog

import "strings"

// Look-alike hosts in plain ASCII. Lookalike (lookalike.go) catches names spelled with
// non-ASCII letters; these are spelled with ASCII that passes for other ASCII (pypl.org with
// an l for the i, acme-lnternal.net, rnaven.org with rn for m, d0cker.io) or a vendor's name
// with a word joined to it under a domain the vendor does not own (registry.npmjs-mirror.org,
// pypi-cdn.net). docs/policy.md denies "typosquatted or homoglyph packages and domains" and
// "look-alike orgs". Only the registrable label is read (the one before the public suffix):
// what lies left of it is the domain owner's own naming (pypi.tuna.tsinghua.edu.cn).

// asciiConfusables are the ASCII spellings that pass for others in a URL bar or a terminal
// font, longest first (Unicode TR39 confusables restricted to ASCII; the IDN homograph
// literature's rn/m, vv/w and cl/d).
var asciiConfusables = []struct{ from, to string }{
	{"rn", "m"}, {"vv", "w"}, {"cl", "d"}, {"1", "l"}, {"i", "l"}, {"|", "l"}, {"0", "o"},
}

// imitationSuffixes are words joined to a vendor's name to make a domain look like the
// vendor's infrastructure (npmjs-mirror, pypi-cdn, github-internal).
var imitationSuffixes = map[string]bool{
	"mirror": true, "mirrors": true, "cdn": true, "internal": true, "registry": true, "proxy": true, "cache": true,
	"dl": true, "download": true, "downloads": true, "files": true, "repo": true, "pkg": true, "pkgs": true,
	"packages": true, "static": true, "secure": true, "official": true, "org": true, "com": true, "io": true, "index": true,
}

// infraWords are words of a company's own infrastructure names whose homoglyph spelling is an
// imitation whoever's name they follow (acme-lnternal, corp-regIstry).
var infraWords = []string{"internal", "intranet", "registry", "mirror", "artifactory", "nexus", "artifacts", "packages",
	"private", "corp", "pypi", "npmjs", "simple"}

// skeletonASCII folds ASCII confusables: two names with the same skeleton read alike.
func skeletonASCII(s string) string {
	s = strings.ToLower(s)
	for _, c := range asciiConfusables {
		s = strings.ReplaceAll(s, c.from, c.to)
	}
	return s
}

// RegistrableLabel returns the label of h before its public suffix, with the suffix: for
// pypi.acme-lnternal.net "acme-lnternal" and "net"; a two-level country suffix (co.uk,
// com.cn, edu.au) counts as one.
func RegistrableLabel(h string) (label, suffix string) {
	parts := strings.Split(strings.TrimSuffix(strings.ToLower(h), "."), ".")
	if len(parts) < 2 {
		return "", ""
	}
	i := len(parts) - 2
	if len(parts) >= 3 && len(parts[len(parts)-1]) == 2 {
		switch parts[len(parts)-2] {
		case "co", "com", "net", "org", "edu", "gov", "ac", "or", "ne":
			i = len(parts) - 3
		}
	}
	return parts[i], strings.Join(parts[i+1:], ".")
}

// vendorLabels returns the registrable labels of the catalogue's known and vendor hosts
// (github, npmjs, pypi, pythonhosted, …), with the domain each stands for.
func (c *Catalog) vendorLabels() map[string]string {
	out := map[string]string{"npm": "npmjs.org", "pypi": "pypi.org"}
	add := func(h string) {
		if l, _ := RegistrableLabel(h); len(l) >= 4 {
			if _, dup := out[l]; !dup {
				out[l] = h
			}
		}
	}
	for _, k := range c.hosts.Known {
		add(k.Host)
	}
	for _, v := range c.hosts.Vendor {
		add(v.Host)
	}
	return out
}

// ImitatedName returns what an ASCII host name imitates: a known registry or vendor host
// spelled with confusable ASCII or with a word joined to the vendor's name, an
// infrastructure word (internal, registry) spelled with confusable ASCII, or one of names
// (the organisation and package names the request itself uses, such as an npm scope) spelled
// with confusable ASCII. ok is false for the hosts themselves and names under them, and for
// names that imitate nothing.
func (c *Catalog) ImitatedName(host string, names []string) (imitates string, ok bool) {
	host = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
	if host == "" || International(host) {
		return "", false
	}
	vendors := c.vendorLabels()
	for _, k := range c.hosts.Known {
		if host == k.Host || strings.HasSuffix(host, "."+k.Host) {
			return "", false
		}
	}
	for _, v := range c.hosts.Vendor {
		if host == v.Host || strings.HasSuffix(host, "."+v.Host) {
			return "", false
		}
	}
	label, suffix := RegistrableLabel(host)
	if label == "" {
		return "", false
	}
	sk := skeletonASCII(label + "." + suffix)
	for l, h := range vendors {
		if hl, hs := RegistrableLabel(h); hl == l && skeletonASCII(hl+"."+hs) == sk {
			return h, true // npmjs.corn, pypl.org
		}
	}
	words := strings.FieldsFunc(label, func(r rune) bool { return r == '-' || r == '_' })
	for i, w := range words {
		if h, ok := vendors[w]; ok && len(words) > 1 {
			// npmjs-mirror, pypi-cdn, org-npmjs: the vendor's name with another word.
			for j, o := range words {
				if j != i && imitationSuffixes[o] {
					return h, true
				}
			}
		}
		for l, h := range vendors {
			if w != l && len(w) >= 4 && skeletonASCII(w) == skeletonASCII(l) {
				return h, true // pypl-mirror, rubygerns
			}
		}
		for _, x := range infraWords {
			if w != x && skeletonASCII(w) == skeletonASCII(x) {
				return x, true // acme-lnternal
			}
		}
		for _, n := range names {
			n = strings.ToLower(n)
			if len(n) >= 4 && w != n && skeletonASCII(w) == skeletonASCII(n) {
				return n, true // acrne-internal for the @acme scope
			}
		}
	}
	return "", false
}
