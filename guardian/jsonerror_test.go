package guardian

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"
)

var lineColRE = regexp.MustCompile(`line (\d+), column (\d+): `)

// FuzzReadRequest: whatever the input, ReadRequest does not panic, states a position at most
// once, and any position it states lies within the input.
func FuzzReadRequest(f *testing.F) {
	for _, s := range []string{
		`{"kind":"exec","request":{"command":["ls"],"cwdx":"/tmp"}}`,
		`{"kind":"exec","request":{"command":"ls"}}`,
		"{\"kind\":\"mcp\",\n\"request\":{\"tool\":\"t\",\"arguments\":{\"x\":1},\"annotations\":{\"readOnly\":1}}}",
		`{"kind":"exec","request":{"command":["ls"]}} {}`,
		`{"kind":5}`,
		`[`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := ReadRequest(bytes.NewReader(b))
		if err == nil {
			return
		}
		m := lineColRE.FindAllStringSubmatch(err.Error(), -1)
		if len(m) > 1 {
			t.Fatalf("position stated %d times: %v", len(m), err)
		}
		if len(m) == 1 {
			line, _ := strconv.Atoi(m[0][1])
			col, _ := strconv.Atoi(m[0][2])
			lines := bytes.Split(b, []byte("\n"))
			if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1])+1 {
				t.Fatalf("position line %d, column %d is outside the input %q: %v", line, col, b, err)
			}
		}
	})
}
