package model

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guardianhq/guardian/riskmodel"
	"github.com/sashabaranov/go-openai/jsonschema"
)

var update = flag.Bool("update", false, "rewrite testdata/schema.golden.json from Schema()")

// wireSchema is the part of the schema these tests check, decoded independently of
// go-openai's types so that a change in its marshalling shows up here.
type wireSchema struct {
	Type                 string   `json:"type"`
	AdditionalProperties *bool    `json:"additionalProperties"`
	Required             []string `json:"required"`
	Properties           map[string]struct {
		Type        string   `json:"type"`
		Description string   `json:"description"`
		Enum        []string `json:"enum"`
	} `json:"properties"`
}

// verdictTags lists the json tags of Verdict's fields, in order: the source of truth for
// what "every field" means.
func verdictTags() []string {
	var out []string
	rt := reflect.TypeFor[Verdict]()
	for i := range rt.NumField() {
		out = append(out, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
	}
	return out
}

func TestSchemaMatchesVocabulary(t *testing.T) {
	var s wireSchema
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	if s.Type != "object" {
		t.Errorf("type = %q, want object", s.Type)
	}
	if s.AdditionalProperties == nil || *s.AdditionalProperties {
		t.Errorf("additionalProperties = %v, want false", s.AdditionalProperties)
	}
	sorted := func(xs []string) []string { return slices.Sorted(slices.Values(xs)) }
	if diff := cmp.Diff(sorted(verdictTags()), sorted(s.Required)); diff != "" {
		t.Errorf("required (-Verdict fields +schema):\n%s", diff)
	}
	// Strict mode wants every property required; the model writes them in this order, so the
	// outcome must come after the reasoning (see Schema).
	if diff := cmp.Diff(s.Required, propertyOrder(t, Schema())); diff != "" {
		t.Errorf("properties vs required (-required +properties):\n%s", diff)
	}
	if n := len(s.Required); n == 0 || s.Required[n-1] != "outcome" {
		t.Errorf("required = %v, want outcome last", s.Required)
	}

	var levels, cats, auths []string
	for _, l := range riskmodel.Levels() {
		levels = append(levels, l.String())
	}
	for _, c := range riskmodel.Categories() {
		cats = append(cats, string(c))
	}
	for _, a := range Authorizations() {
		auths = append(auths, string(a))
	}
	wantEnums := map[string][]string{
		"risk_level":         levels,
		"category":           cats,
		"user_authorization": auths,
		"outcome":            {"allow", "ask", "deny"},
	}
	for _, name := range verdictTags() {
		p, ok := s.Properties[name]
		if !ok {
			t.Errorf("property %s missing", name)
			continue
		}
		if p.Type != "string" {
			t.Errorf("%s: type %q, want string", name, p.Type)
		}
		if p.Description == "" {
			t.Errorf("%s: no description; the model reads them", name)
		}
		if diff := cmp.Diff(wantEnums[name], p.Enum); diff != "" {
			t.Errorf("%s enum (-vocabulary +schema):\n%s", name, diff)
		}
	}
	// The decisions' wire names are riskmodel's, too.
	for _, d := range []riskmodel.Decision{riskmodel.Allow, riskmodel.Ask, riskmodel.Deny} {
		if _, err := riskmodel.ParseDecision(d.String()); err != nil {
			t.Errorf("decision %v: %v", d, err)
		}
	}
}

// propertyOrder lists the keys of the schema's properties object in document order, which a
// map would lose.
func propertyOrder(t *testing.T, schema []byte) []string {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(schema, &top); err != nil {
		t.Fatal(err)
	}
	return topLevelKeys(t, string(top["properties"]))
}

func TestSchemaReturnsACopy(t *testing.T) {
	a := Schema()
	a[0] = 'X'
	if b := Schema(); b[0] != '{' {
		t.Fatal("modifying one Schema() result changed the next")
	}
}

// TestSchemaAgreesWithGoOpenAI checks the schema through go-openai's own validator, the one
// the go-stack note describes (jsonschema.VerifySchemaAndUnmarshal): it must accept a valid
// verdict and reject an unknown enum and a missing field, which guards the schema's shape.
//
// It also pins why Parse exists: that validator ignores additionalProperties, and its final
// json.Unmarshal keeps the last of duplicate keys and matches keys case-insensitively, so it
// accepts bodies that smuggle an allow. Parse must reject every one of them.
func TestSchemaAgreesWithGoOpenAI(t *testing.T) {
	var def jsonschema.Definition
	if err := json.Unmarshal(Schema(), &def); err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := jsonschema.VerifySchemaAndUnmarshal(def, []byte(validAllow), &out); err != nil {
		t.Fatalf("go-openai rejects a valid verdict: %v", err)
	}
	for name, body := range map[string]string{
		"wrong enum": obj(with("outcome", "maybe")),
		"missing":    obj(without("rationale")),
	} {
		if err := jsonschema.VerifySchemaAndUnmarshal(def, []byte(body), &out); err == nil {
			t.Errorf("%s: go-openai accepts %s", name, body)
		}
	}
	lenient := map[string]string{
		"extra field":   obj(with("extra", "x")),
		"duplicate key": obj(append(with("outcome", "deny"), kv{"outcome", "allow"})),
	}
	for name, body := range lenient {
		if err := jsonschema.VerifySchemaAndUnmarshal(def, []byte(body), &out); err != nil {
			t.Logf("%s: go-openai now rejects it too (%v)", name, err)
		}
		if _, err := Parse(body); !IsBadOutput(err) {
			t.Errorf("%s: Parse error = %v, want a *BadOutputError", name, err)
		}
	}
}

func TestSchemaGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, Schema(), "", "  "); err != nil {
		t.Fatal(err)
	}
	buf.WriteByte('\n')
	path := filepath.Join("testdata", "schema.golden.json")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestSchemaGolden -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), buf.String()); diff != "" {
		t.Errorf("schema changed (-golden +now); if intended, rerun with -update:\n%s", diff)
	}
}
