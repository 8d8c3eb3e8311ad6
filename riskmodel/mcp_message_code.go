package riskmodel

import "strings"

// looksLikeSourceCode reports a message body that is a program rather than prose: at least
// six non-blank lines, a third of them shaped like code (a declaration or import keyword
// at the start, or ending in a brace or semicolon). An e-mail that quotes one line of code,
// or a list of bullet points, does not qualify.
func looksLikeSourceCode(body string) bool {
	lines, code := 0, 0
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		lines++
		if codeLine(t) {
			code++
		}
		if lines >= 400 {
			break
		}
	}
	return lines >= 6 && code*3 >= lines && code >= 4
}

// codeLinePrefixes start declarations and imports in the common languages.
var codeLinePrefixes = []string{"package ", "import ", "from ", "func ", "def ", "class ", "const ", "let ", "var ",
	"public ", "private ", "protected ", "static ", "fn ", "pub ", "use ", "#include", "return ", "if (", "if ", "for (",
	"} else", "export ", "async ", "interface ", "struct ", "impl ", "module ", "require(", "@"}

func codeLine(t string) bool {
	if strings.HasSuffix(t, "{") || strings.HasSuffix(t, "}") || strings.HasSuffix(t, ";") || strings.HasSuffix(t, "):") || t == "}" {
		return true
	}
	for _, p := range codeLinePrefixes {
		if strings.HasPrefix(t, p) && len(t) > len(p) {
			return true
		}
	}
	return false
}
