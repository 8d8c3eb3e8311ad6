package riskmodel

import (
	"context"
	"slices"
	"testing"
)

// A catalogue entry describes what a tool does with the project's files. A build tool or a
// file writer handed another host's URL fetches something the entry does not describe (a
// template, a package, a document to convert): such a use is judged as an unknown command's,
// at high, whether or not the entry says no_url. Read-only tools keep their URLs.
func TestClassCatalogURL(t *testing.T) {
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		src   string
		allow bool
	}{
		{`pandoc README.md -o docs/readme.html`, true},
		{`xmake build`, true},
		{`xmake require https://203.0.113.9/pkgs/zlib.tar.gz`, false},
		{`xmake f --toolchain=https://files.example-cdn.top/gcc-fixed.tar.gz`, false},
		{`pandoc http://127.0.0.1:8000/notes.md -o notes.html`, true},
	} {
		t.Run(tc.src, func(t *testing.T) {
			v := a.Exec(context.Background(), ExecRequest{Command: []string{"bash", "-c", tc.src}, Cwd: "/home/dev/proj"})
			ids := ruleIDs(v)
			if got := v.Decision == Allow; got != tc.allow {
				t.Fatalf("decision = %s at %s (rules %v), want allow = %v", v.Decision, v.Assessment.Level, ids, tc.allow)
			}
			if !tc.allow && (v.Assessment.Level < High || slices.Contains(ids, "base.catalog") || slices.Contains(ids, "base.catalog-write")) {
				t.Errorf("level %s, rules %v: want high and no catalogue rule", v.Assessment.Level, ids)
			}
		})
	}
}
