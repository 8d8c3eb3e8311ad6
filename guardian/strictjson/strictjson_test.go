package strictjson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// shell is a hook's tool_input as guardian reads it.
type shell struct {
	Command     *string `json:"command"`
	Description string  `json:"description"`
}

// payload is the top of a hook payload.
type payload struct {
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	Nested    *shell          `json:"nested,omitempty"`
	List      []shell         `json:"list,omitempty"`
	Args      map[string]any  `json:"args,omitempty"`
}

// envelope is serve's request envelope.
type envelope struct {
	Kind    string          `json:"kind"`
	Request json.RawMessage `json:"request"`
}

func TestUnmarshal(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		into     func() any
		want     error // nil: decodes
	}{
		{"exact keys", `{"command":"ls","description":"list"}`, func() any { return &shell{} }, nil},
		{"case variant after the key", `{"command":"rm -rf ~/","Command":"ls"}`, func() any { return &shell{} }, ErrKeyCase},
		{"case variant before the key", `{"Command":"ls","command":"rm -rf ~/"}`, func() any { return &shell{} }, ErrKeyCase},
		{"upper case alone", `{"COMMAND":"ls"}`, func() any { return &shell{} }, ErrKeyCase},
		{"upper case after", `{"command":"rm -rf ~/","COMMAND":"ls"}`, func() any { return &shell{} }, ErrKeyCase},
		{"Tool_Input", `{"tool_name":"Bash","tool_input":{"command":"rm -rf ~/"},"Tool_Input":{"command":"ls"}}`, func() any { return &payload{} }, ErrKeyCase},
		{"duplicate tool_name", `{"tool_name":"mcp__gh__delete_repo","tool_name":"Bash"}`, func() any { return &payload{} }, ErrDuplicateKey},
		{"duplicate kind", `{"kind":"mcp","kind":"exec","request":{}}`, func() any { return &envelope{} }, ErrDuplicateKey},
		{"duplicate through a \\u escape", `{"kind":"mcp","\u006bind":"exec"}`, func() any { return &envelope{} }, ErrDuplicateKey},
		{"case variant through a \\u escape", `{"kind":"mcp","\u004bind":"exec"}`, func() any { return &envelope{} }, ErrKeyCase},
		{"Kelvin sign folds to k", `{"` + "\u212a" + `ind":"exec"}`, func() any { return &envelope{} }, ErrKeyCase},
		{"long s folds to s", `{"de` + "\u017f" + `cription":"x","command":"ls"}`, func() any { return &shell{} }, ErrKeyCase},
		{"duplicate inside a raw value", `{"tool_name":"Bash","tool_input":{"command":"a","command":"b"}}`, func() any { return &payload{} }, ErrDuplicateKey},
		{"duplicate in a nested struct", `{"nested":{"command":"a","Command":"b"}}`, func() any { return &payload{} }, ErrKeyCase},
		{"duplicate in a list element", `{"list":[{"command":"a"},{"command":"a","command":"b"}]}`, func() any { return &payload{} }, ErrDuplicateKey},
		{"map keys differing in case are distinct", `{"args":{"id":1,"ID":2}}`, func() any { return &payload{} }, nil},
		{"duplicate map key", `{"args":{"id":1,"id":2}}`, func() any { return &payload{} }, ErrDuplicateKey},
		{"duplicate deep in a map", `{"args":{"a":[{"x":{"y":1,"y":2}}]}}`, func() any { return &payload{} }, ErrDuplicateKey},
		{"unknown keys pass", `{"tool_name":"Bash","tool_use_id":"t","extra":{"x":1}}`, func() any { return &payload{} }, nil},
		{"untyped: only duplicates", `{"A":1,"a":2}`, func() any { return new(any) }, nil},
		{"untyped duplicate", `{"a":1,"a":2}`, func() any { return new(any) }, ErrDuplicateKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Unmarshal([]byte(tc.in), tc.into())
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Unmarshal(%s) = %v, want success", tc.in, err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Unmarshal(%s) = %v, want %v", tc.in, err, tc.want)
			}
		})
	}
}

func TestSyntax(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a":1}{}`, `{"a":1} x`, `{"a" 1}`, `[1,]`, `nul`} {
		if err := Check([]byte(in), nil); err == nil {
			t.Errorf("Check(%q) = nil, want an error", in)
		}
	}
	for _, in := range []string{`{}`, ` {"a":[1,{"b":null}]} `, `"s"`, `1`, `[]`} {
		if err := Check([]byte(in), nil); err != nil {
			t.Errorf("Check(%q) = %v, want nil", in, err)
		}
	}
}

func TestUnmarshalStrictRefusesUnknown(t *testing.T) {
	if err := UnmarshalStrict([]byte(`{"kind":"exec","request":{},"extra":1}`), &envelope{}); err == nil {
		t.Fatal("UnmarshalStrict accepted an unknown key")
	}
	var e envelope
	if err := UnmarshalStrict([]byte(`{"kind":"exec","request":{}}`), &e); err != nil || e.Kind != "exec" {
		t.Fatalf("UnmarshalStrict = %v, %+v", err, e)
	}
}

// FuzzUnmarshal checks the promise: whenever Unmarshal accepts a document into a struct, each
// field holds what a case-sensitive, duplicate-refusing reader (a map with exact keys) reads
// for that field's exact name, and no other key of the object folds onto it.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{
		`{"command":"ls"}`, `{"command":"rm -rf ~/","Command":"ls"}`, `{"COMMAND":"ls"}`,
		`{"command":"a","command":"b"}`, `{"comm\u0061nd":"a","command":"b"}`, `{"description":"d","command":null}`,
		`{"\u212aind":1}`, `[{"command":"x"}]`, `{"command":"x","other":{"a":1,"a":2}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s shell
		if err := Unmarshal(b, &s); err != nil {
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil || m == nil {
			return // not an object (null, or a type error later): nothing decoded by key
		}
		for k := range m {
			for _, field := range []string{"command", "description"} {
				if strings.EqualFold(k, field) && k != field {
					t.Fatalf("accepted key %q folding onto %q in %s", k, field, b)
				}
			}
		}
		raw, ok := m["command"]
		if !ok || string(raw) == "null" {
			if s.Command != nil {
				t.Fatalf("command decoded as %q but the exact key is absent in %s", *s.Command, b)
			}
			return
		}
		var want string
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("accepted %s but command is not a string: %v", b, err)
		}
		if s.Command == nil || *s.Command != want {
			t.Fatalf("command = %v, the exact key holds %q in %s", s.Command, want, b)
		}
	})
}
