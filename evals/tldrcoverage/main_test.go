package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPageExamples(t *testing.T) {
	got, err := pageExamples(filepath.Join("testdata", "pages", "common", "frobtool.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"frobtool build",
		"frobtool convert src/input.md --output src/out.html",
		"frobtool fetch https://example.com/x",
	}
	if !slices.Equal(got, want) {
		t.Errorf("pageExamples = %q, want %q", got, want)
	}
}

// TestRun: every example of the three platforms is reviewed, and a made-up tool is unknown.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, filepath.Join("testdata", "pages"), 1); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tldr examples: 9 ", "decided by cmd.unknown: ", "pages with an unknown example: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if err := run(context.Background(), &out, t.TempDir(), 0); err == nil || !strings.Contains(err.Error(), "-pages must name") {
		t.Errorf("an empty directory: err = %v, want one saying what -pages must name", err)
	}
}

func FuzzFill(f *testing.F) {
	f.Add("{{path/to/file}}")
	f.Add("{{[-o|--output]}}")
	f.Add("{{}}")
	f.Fuzz(func(t *testing.T, s string) {
		placeholder.ReplaceAllStringFunc(s, fill) // must not panic
	})
}
