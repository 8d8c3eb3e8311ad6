package riskmodel

import "testing"

// TestHeredocBody: a here-document reaches the command (and the code analysis) as the shell
// would hand it over — literally under a quoted delimiter, with only \$ \` \\ and \newline
// unescaped and expansions done under an unquoted one.
func TestHeredocBody(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"quoted delimiter keeps backslashes", "python3 - <<'EOF'\nprint('a\\nb', r'\\d+')\nEOF\n", "print('a\\nb', r'\\d+')\n"},
		{"double-quoted delimiter", "python3 - <<\"EOF\"\nx = '\\t$HOME'\nEOF\n", "x = '\\t$HOME'\n"},
		{"backslashed delimiter", "cat <<\\EOF\n\\$x \\n\nEOF\n", "\\$x \\n\n"},
		{"unquoted: \\n stays, \\$ unescapes", "cat <<EOF\nprint('a\\nb') \\$HOME \\\\ \\\"\nEOF\n", "print('a\\nb') $HOME \\ \\\"\n"},
		{"unquoted: a variable expands", "X=abc; cat <<EOF\nv=$X\nEOF\n", "v=abc\n"},
		{"unquoted: line continuation", "cat <<EOF\nab\\\ncd\nEOF\n", "abcd\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			segs, _, _ := extractProgram(NewScope(&Policy{}, "/home/dev/p"), []string{"bash", "-c", tc.src}, false)
			got := ""
			for _, s := range segs {
				if s.Stdin != "" {
					got = s.Stdin
				}
			}
			if got != tc.want {
				t.Errorf("stdin = %q, want %q", got, tc.want)
			}
		})
	}
}
