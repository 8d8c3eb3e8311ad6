package audit

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzVerify feeds the verifier arbitrary file contents (in memory, so that the fuzzer spends
// its time on the parser rather than on the filesystem): it must never panic, and what it
// reports must be consistent with the bytes — no more records than complete lines, a problem
// on the line after the last verified record, a torn tail exactly where the last "\n" ends.
func FuzzVerify(f *testing.F) {
	// Small seeds: the fuzzer minimises every new input, which costs the square of its size.
	line := func(body string) string {
		return body[:len(body)-1] + `,"hash":"` + digestOf([]byte(body)) + `"}`
	}
	first := line(`{"id":"a","prev":""}`)
	h1, _ := claimedHash([]byte(first))
	chain := first + "\n" + line(`{"id":"b","prev":"`+h1+`"}`) + "\n"
	f.Add([]byte(chain))
	f.Add([]byte(chain[:len(chain)-20]))
	f.Add([]byte(strings.Replace(chain, `"id":"b"`, `"id":"c"`, 1)))
	f.Add([]byte(line(`{"id":"b","prev":"`+h1+`"}`) + "\n" + first + "\n"))
	f.Add([]byte(`{"id":"a","prev":""}` + "\n"))
	f.Add([]byte(""))
	f.Add([]byte("\n\n"))
	f.Add([]byte(`{,"hash":"sha256:0000000000000000000000000000000000000000000000000000000000000000"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "audit.jsonl"
		var rep Report
		v := verifier{rep: &rep}
		if err := v.read(file, bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		complete := bytes.Count(data, []byte("\n"))
		if rep.Records > complete {
			t.Fatalf("%d records verified in %d complete lines", rep.Records, complete)
		}
		if p := rep.Problem; p != nil && (p.File != file || p.Line != rep.Records+1 || p.Line > complete || p.Detail == "") {
			t.Fatalf("problem %+v after %d records in %d complete lines", *p, rep.Records, complete)
		}
		if tt := rep.Torn; tt != nil && (tt.Line != complete+1 || tt.Bytes != int64(len(data)-bytes.LastIndexByte(data, '\n')-1)) {
			t.Fatalf("torn tail %+v does not match the data", *tt)
		}
		if rep.Problem == nil && rep.Records != complete {
			t.Fatalf("no problem but %d of %d lines verified", rep.Records, complete)
		}
		if rep.Problem == nil && rep.Torn == nil && len(data) > 0 && data[len(data)-1] != '\n' {
			t.Fatal("a file not ending in a newline has no torn tail")
		}
	})
}
