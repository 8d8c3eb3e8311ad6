package catalog

import "testing"

func TestCompromised(t *testing.T) {
	c, err := LoadCompromised()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		eco           Ecosystem
		name, version string
		want          bool
	}{
		{Npm, "event-stream", "3.3.6", true},
		{Npm, "event-stream", "3.3.4", false},
		{Npm, "UA-Parser-JS", "v0.7.29", true},
		{RubyGems, "rest-client", "1.6.13", true},
		{RubyGems, "rest-client", "2.1.0", false},
		{PyPI, "CTX", "==0.2.6", true},
		{PyPI, "requests", "2.31.0", false},
	} {
		if _, got := c.Version(tc.eco, tc.name, tc.version); got != tc.want {
			t.Errorf("Version(%s, %s, %s) = %v, want %v", tc.eco, tc.name, tc.version, got, tc.want)
		}
	}
}
