package catalog

import (
	"bytes"
	"reflect"
	"strconv"
	"testing"
)

// indexByLine is how indexCommands read the catalogue before it jumped between headers: line
// by line, a header is a line that is "[[command]]" once trimmed, and an entry's name is the
// first line after its header that starts `name = "` and unquotes. TestIndexCommandsByLine
// keeps the two readings equal.
func indexByLine(data []byte) map[string][][2]int {
	entries := map[string][][2]int{}
	start, name := -1, ""
	end := func(at int) {
		if start >= 0 && name != "" {
			entries[name] = append(entries[name], [2]int{start, at})
		}
	}
	for off := 0; off < len(data); {
		line := data[off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		switch {
		case bytes.Equal(bytes.TrimSpace(line), []byte("[[command]]")):
			end(off)
			start, name = off, ""
		case start >= 0 && name == "" && bytes.HasPrefix(line, []byte(`name = "`)):
			if n, err := strconv.Unquote(string(bytes.TrimSpace(line[len("name = "):]))); err == nil {
				name = n
			}
		}
		off += len(line)
	}
	end(len(data))
	return entries
}

func TestIndexCommandsByLine(t *testing.T) {
	for _, tc := range []struct{ name, data string }{
		{"embedded", string(commandsTOML())},
		{"empty", ""},
		{"no header", "name = \"a\"\n"},
		{"name before header", "name = \"a\"\n[[command]]\nname = \"b\"\n"},
		{"no trailing newline", "[[command]]\nname = \"a\""},
		{"header without newline", "[[command]]"},
		{"spaced header", "  [[command]] \r\nname = \"a\"\n\t[[command]]\nname = \"b\"\n"},
		{"header text inside a line", "x = \"[[command]]\"\n[[command]]\nname = \"a\"\n"},
		{"bad name then good", "[[command]]\nname = \"a\nname = \"b\"\n"},
		{"indented name", "[[command]]\n  name = \"a\"\nname = \"b\"\n"},
		{"nameless entry", "[[command]]\nclass = \"x\"\n[[command]]\nname = \"a\"\n"},
		{"two entries one name", "[[command]]\nname = \"a\"\n[[command]]\nname = \"a\"\n"},
		{"second name ignored", "[[command]]\nname = \"a\"\nname = \"b\"\n"},
		{"name at end", "[[command]]\nname = \"a\"\n[[command]]\nname = \"z\""},
		{"two headers on one line", "[[command]] [[command]]\nname = \"a\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := indexByLine([]byte(tc.data))
			got := indexCommands([]byte(tc.data)).entries
			if len(got) == 0 && len(want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("indexCommands %v, line by line %v", got, want)
			}
		})
	}
}

// FuzzIndexCommands checks indexCommands against the line-by-line reading on any text.
func FuzzIndexCommands(f *testing.F) {
	f.Add([]byte("[[command]]\nname = \"a\"\n"))
	f.Add(commandsTOML()[:2000])
	f.Fuzz(func(t *testing.T, data []byte) {
		want := indexByLine(data)
		got := indexCommands(data).entries
		if (len(got) != 0 || len(want) != 0) && !reflect.DeepEqual(got, want) {
			t.Errorf("indexCommands %v, line by line %v", got, want)
		}
	})
}

func BenchmarkIndexCommands(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		indexCommands(commandsTOML())
	}
}

func BenchmarkIndexCommandsByLine(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		indexByLine(commandsTOML())
	}
}
