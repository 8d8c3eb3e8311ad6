package catalog

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Look-alike hosts. A host name with non-ASCII letters (gіthub.com with a Cyrillic і), or
// its punycode form (xn--…), or percent escapes, is never the vendor or registry it resembles:
// it is a different name that a browser, curl or git may resolve to someone else's server.
// Lookalike says which catalogue host such a name imitates, so the rules can call it what
// docs/policy.md calls it (a homoglyph domain: deny), and Vendor and trusted-host checks
// refuse it whatever its letters look like.

// confusable maps characters that render like a Latin letter or digit to it.
type confusable struct {
	ASCII  string `toml:"ascii" json:"ascii,omitempty"`
	Chars  string `toml:"chars" json:"chars,omitempty"`
	Source string `toml:"source" json:"source,omitempty"`
}

// KnownHost is a well-known development host (a code host, a package registry) whose
// look-alikes are suspicious. Vendor installer hosts count too.
type KnownHost struct {
	Host   string `toml:"host" json:"host,omitempty"`
	Source string `toml:"source" json:"source,omitempty"`
}

func (h *hostData) validateLookalikes() error {
	h.skeleton = map[rune]string{}
	for _, c := range h.Confusable {
		if len(c.ASCII) != 1 || c.ASCII[0] >= utf8.RuneSelf || c.Chars == "" || c.Source == "" {
			return fmt.Errorf("confusable %q: one ASCII character, its look-alikes and a source are required", c.ASCII)
		}
		for _, r := range c.Chars {
			if r < utf8.RuneSelf {
				return fmt.Errorf("confusable %q: %q is ASCII; list only the characters that imitate it", c.ASCII, r)
			}
			if prev, dup := h.skeleton[r]; dup && prev != c.ASCII {
				return fmt.Errorf("confusable %q: %q already stands for %q", c.ASCII, r, prev)
			}
			h.skeleton[r] = c.ASCII
		}
	}
	for _, k := range h.Known {
		if k.Host == "" || k.Source == "" || k.Host != strings.ToLower(k.Host) || International(k.Host) {
			return fmt.Errorf("known %q: a lower-case ASCII host and a source are required", k.Host)
		}
	}
	return nil
}

// International reports a host name that is not plain ASCII: a non-ASCII character, a
// percent escape, or a punycode label (xn--). Such a name is never a catalogue host.
func International(h string) bool {
	for i := 0; i < len(h); i++ {
		if h[i] >= utf8.RuneSelf || h[i] == '%' {
			return true
		}
	}
	l := strings.ToLower(h)
	return strings.HasPrefix(l, "xn--") || strings.Contains(l, ".xn--")
}

// Lookalike returns the catalogue host an international name imitates: once its punycode is
// decoded and each look-alike character replaced by the letter it imitates, the name is a
// known host (or a vendor's) or a name under one. ok is false for plain ASCII names and for
// international names that imitate nothing the catalogue knows (münchen.de).
func (c *Catalog) Lookalike(h string) (imitates string, ok bool) {
	if !International(h) {
		return "", false
	}
	h = strings.TrimSuffix(strings.TrimSpace(h), ".")
	if u, err := idna.Punycode.ToUnicode(strings.ToLower(h)); err == nil {
		h = u
	}
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r >= 0xFF01 && r <= 0xFF5E: // fullwidth forms of ASCII
			b.WriteRune(unicodeLower(r - 0xFEE0))
		case r == 0x3002 || r == 0xFF0E || r == 0xFF61: // ideographic and fullwidth full stops
			b.WriteByte('.')
		default:
			if a, ok := c.hosts.skeleton[r]; ok {
				b.WriteString(a)
			} else {
				b.WriteRune(r)
			}
		}
	}
	sk := b.String()
	for _, k := range c.hosts.Known {
		if sk == k.Host || strings.HasSuffix(sk, "."+k.Host) {
			return k.Host, true
		}
	}
	for _, v := range c.hosts.Vendor {
		if sk == v.Host || strings.HasSuffix(sk, "."+v.Host) {
			return v.Host, true
		}
	}
	return "", false
}

func unicodeLower(r rune) rune {
	if r >= 'A' && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// KnownHosts lists the well-known development hosts, for listing.
func (c *Catalog) KnownHosts() []KnownHost { return append([]KnownHost(nil), c.hosts.Known...) }
