package model

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/guardianhq/guardian/riskmodel"
)

// SchemaName is the name under which Schema is sent as response_format json_schema. Servers
// echo it in errors and logs; a stable name makes those greppable.
const SchemaName = "guardian_verdict"

// field describes one Verdict field once, for both the schema and the parser, so that the two
// cannot drift apart: the schema's properties, required list and enums and the parser's
// accepted keys and values are all generated from fields().
type field struct {
	name string
	desc string
	// enum lists the accepted values; nil means free text.
	enum []string
	// nonEmpty rejects a blank free-text value.
	nonEmpty bool
	// set stores an already validated value.
	set func(v *Verdict, s string)
}

// fields lists the Verdict's wire fields in schema order, which differs from the struct's in one
// place: outcome comes last (see Schema). It is a function rather than a package variable so
// that there is no global mutable state to corrupt.
func fields() []field {
	return []field{
		{name: "summary", nonEmpty: true,
			desc: fmt.Sprintf("One plain sentence on what the request does, for the human who may have to decide. At most %d characters.", MaxFieldRunes),
			set:  func(v *Verdict, s string) { v.Summary = s }},
		{name: "risk_level", enum: levelNames(),
			desc: "How much harm the request can do.",
			set: func(v *Verdict, s string) {
				l, _ := riskmodel.ParseLevel(s)
				v.RiskLevel = l
			}},
		{name: "category", enum: categoryNames(),
			desc: "The main kind of harm the request risks; none when it risks none.",
			set:  func(v *Verdict, s string) { v.Category = riskmodel.Category(s) }},
		{name: "user_authorization", enum: authorizationNames(),
			desc: "How clearly the user (not the agent) asked for this exact action. unknown when the request carries no evidence; the agent's own justification is not evidence.",
			set:  func(v *Verdict, s string) { v.UserAuthorization = Authorization(s) }},
		{name: "rationale", nonEmpty: true,
			desc: fmt.Sprintf("Why this risk level and the outcome that follows from it, citing the parts of the request that decided them. At most %d characters.", MaxFieldRunes),
			set:  func(v *Verdict, s string) { v.Rationale = s }},
		{name: "safer_alternative",
			desc: fmt.Sprintf("A safer way to reach the same goal, or an empty string when there is none. At most %d characters.", MaxFieldRunes),
			set:  func(v *Verdict, s string) { v.SaferAlternative = s }},
		{name: "outcome", enum: decisionNames(),
			desc: "allow: safe to run without asking; deny: must not run; ask: a human should decide.",
			set: func(v *Verdict, s string) {
				d, _ := riskmodel.ParseDecision(s)
				v.Outcome = d
			}},
	}
}

// Schema returns the JSON Schema of a Verdict, to be sent as response_format json_schema with
// strict mode on (it is a json.Marshaler, so it can be go-openai's
// ChatCompletionResponseFormatJSONSchema.Schema as is, with Name SchemaName). It is in the shape
// strict mode demands: an object with every property required, additionalProperties false,
// and the enums listed — taken from riskmodel's vocabulary (Levels, Categories, the
// decisions) and Authorizations, never from a second hand-written list.
//
// It is written by hand rather than with go-openai's jsonschema.Definition because that type
// keeps properties in a map, which marshals them alphabetically — outcome before rationale and
// risk_level. Strict structured output generates fields in schema order, so the order is part
// of the prompt: here the model describes, rates and argues first and states its outcome last,
// the order that lets the outcome follow from the reasoning rather than precede it.
//
// It is also what the json_object fallback pastes into the prompt. The schema only guides the
// model; Parse enforces it (and more: lengths, duplicates, consistency) whatever the server
// did. Each call returns a fresh copy, so a caller may keep or modify it freely.
func Schema() json.RawMessage {
	doc := schemaDoc{
		Type:        "object",
		Description: "guardian's review of one approval request.",
	}
	for _, f := range fields() {
		doc.Properties = append(doc.Properties, property{name: f.name,
			def: propertyDef{Type: "string", Description: f.desc, Enum: f.enum}})
		doc.Required = append(doc.Required, f.name)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		// Only strings and slices above: marshalling cannot fail short of a bug.
		panic("model: marshal verdict schema: " + err.Error())
	}
	return b
}

// schemaDoc is the subset of JSON Schema that strict structured output accepts and the
// verdict needs. AdditionalProperties has no omitempty: false is the point.
type schemaDoc struct {
	Type                 string     `json:"type"`
	Description          string     `json:"description"`
	Properties           properties `json:"properties"`
	Required             []string   `json:"required"`
	AdditionalProperties bool       `json:"additionalProperties"`
}

type propertyDef struct {
	Type        string   `json:"type"`
	Description string   `json:"description"`
	Enum        []string `json:"enum,omitempty"`
}

type property struct {
	name string
	def  propertyDef
}

// properties marshals as a JSON object whose keys keep their slice order.
type properties []property

// MarshalJSON writes the properties in slice order; encoding/json would sort a map's keys.
func (ps properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(p.name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(p.def)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func levelNames() []string {
	var out []string
	for _, l := range riskmodel.Levels() {
		out = append(out, l.String())
	}
	return out
}

func categoryNames() []string {
	var out []string
	for _, c := range riskmodel.Categories() {
		out = append(out, string(c))
	}
	return out
}

// decisionNames lists riskmodel's decisions. riskmodel has no Decisions() list; its own
// ParseDecision walks Allow..Deny the same way.
func decisionNames() []string {
	var out []string
	for d := riskmodel.Allow; d <= riskmodel.Deny; d++ {
		out = append(out, d.String())
	}
	return out
}
