package riskmodel

import (
	"math/rand"
	"strings"
	"testing"
)

// TestCapTextMatchesFields checks capText's early-stopping whitespace join against the whole
// strings.Fields join it replaces.
func TestCapTextMatchesFields(t *testing.T) {
	ref := func(s string) string {
		if strings.ContainsAny(s, "\n\t\r") || strings.Contains(s, "  ") {
			s = strings.Join(strings.Fields(s), " ")
		}
		if len(s) > maxTextLen {
			cut := maxTextLen
			for cut > 0 && !utf8Start(s[cut]) {
				cut--
			}
			return s[:cut] + "…"
		}
		return s
	}
	in := []string{"", " ", "\n", "a\nb", "  a  ", "\t\ta\r\nb  c\v\fd", "x\u00a0\u0085y\u2003z", "\xff \xfe\n\xfd",
		strings.Repeat("ab ", 100), strings.Repeat("é\n", 200), strings.Repeat("x", 500) + "\n", "a\n" + strings.Repeat("y", 300),
		"cat > f <<'EOF'\n" + strings.Repeat("def f():\n    return 1\n", 50) + "EOF\n"}
	r := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "b", " ", "  ", "\n", "\t", "é", "\u00a0", "\u2003", "\xff", "\r", "€"}
	for range 3000 {
		var b strings.Builder
		for n := r.Intn(400); n > 0; n-- {
			b.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		in = append(in, b.String())
	}
	for _, s := range in {
		if got, want := capText(s), ref(s); got != want {
			t.Fatalf("capText(%q) = %q, want %q", s, got, want)
		}
	}
}
