package catalog

import "testing"

func TestLookalike(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		host, imitates string
	}{
		{"github.com", ""},           // the real one is not a look-alike
		{"gіthub.com", "github.com"}, // Cyrillic і
		{"GІTHUB.COM", "github.com"}, // upper case
		{"xn--gthub-n2e.com", "github.com"},
		{"api.gіthub.com", "github.com"}, // a name under a look-alike
		{"руpi.org", "pypi.org"},         // Cyrillic р and у
		{"registry.npmjѕ.org", "npmjs.org"},
		{"ｇｉｔｈｕｂ.com", "github.com"},     // fullwidth
		{"gitһub。com", "github.com"},     // Cyrillic һ, ideographic full stop
		{"sh.rustuр.rs", "sh.rustup.rs"}, // a vendor host
		{"\u212Aubernetes.gcr.io", "gcr.io"},
		{"münchen.de", ""}, // international, imitates nothing known
		{"xn--mnchen-3ya.de", ""},
		{"example.com", ""},
	} {
		got, ok := c.Lookalike(tc.host)
		if got != tc.imitates || ok != (tc.imitates != "") {
			t.Errorf("Lookalike(%q) = %q, %v; want %q", tc.host, got, ok, tc.imitates)
		}
	}
	for h, want := range map[string]bool{"github.com": false, "gіthub.com": true, "xn--gthub-n2e.com": true, "a.XN--gthub-n2e.com": true,
		"git%68ub.com": true, "münchen.de": true} {
		if International(h) != want {
			t.Errorf("International(%q) = %v", h, !want)
		}
	}
}

// Lookalike reads hosts from requests: it must never panic, and a plain ASCII name is never
// a look-alike.
func FuzzLookalike(f *testing.F) {
	for _, s := range []string{"github.com", "gіthub.com", "xn--gthub-n2e.com", "xn--", "xn--.", "%zz", "\xff\xfe.com", "ｇ。"} {
		f.Add(s)
	}
	c := Default()
	f.Fuzz(func(t *testing.T, h string) {
		if _, ok := c.Lookalike(h); ok && !International(h) {
			t.Fatalf("ASCII name %q called a look-alike", h)
		}
	})
}
