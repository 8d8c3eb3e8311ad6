package prompts

import "testing"

// BenchmarkRenderExec renders the typical exec prompt with a fresh random nonce, as every
// review does: redaction, capping, encoding and both templates.
func BenchmarkRenderExec(b *testing.B) {
	in := typicalExec()
	in.Nonce = ""
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderMCP is the same for the typical MCP request, whose arguments are walked and
// redacted value by value.
func BenchmarkRenderMCP(b *testing.B) {
	in := typicalMCP()
	in.Nonce = ""
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(in); err != nil {
			b.Fatal(err)
		}
	}
}
