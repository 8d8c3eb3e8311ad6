package server

import "testing"

func TestSanitize(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"plain text", 100, "plain text"},
		{"  trimmed\t", 100, "trimmed"},
		{"esc\x1b[31mape\x7f", 100, "esc[31mape"},
		{"c1\u0085\u009bcontrols", 100, "c1controls"},
		{"bad\xff\xfeutf8", 100, "badutf8"},
		{"line\nbreak", 100, "linebreak"},
		{"ééé", 5, "éé"}, // cut on a rune boundary, never inside é
		{"abcdef", 3, "abc"},
	}
	for _, tc := range tests {
		if got := sanitize(tc.in, tc.max); got != tc.want {
			t.Errorf("sanitize(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func TestOneLineKeepsLinesApart(t *testing.T) {
	in := "a.toml:1:1: unknown key\r\na.toml:4:2: bad value\n"
	if got, want := oneLine(in, 200), "a.toml:1:1: unknown key; a.toml:4:2: bad value"; got != want {
		t.Errorf("oneLine = %q, want %q", got, want)
	}
}

func TestMiB(t *testing.T) {
	for n, want := range map[int64]string{1 << 20: "1 MiB", 1536 << 10: "1.5 MiB", 64 << 20: "64 MiB", 256 << 10: "0.25 MiB", 1024: "0.000977 MiB"} {
		if got := mib(n); got != want {
			t.Errorf("mib(%d) = %q, want %q", n, got, want)
		}
	}
}
