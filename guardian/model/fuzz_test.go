package model

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/guardianhq/guardian/riskmodel"
)

// FuzzParse feeds arbitrary bodies to Parse. Whatever the input, Parse must not panic, must
// fail only with a *BadOutputError and the zero Verdict, and must succeed only on a body that an
// independent reading confirms is exactly one object of exactly the seven fields, each once,
// whose values are the verdict's. Together: the outcome is allow only when the body is a valid
// allow.
func FuzzParse(f *testing.F) {
	for _, tc := range parseCases() {
		if len(tc.body) <= 4096 {
			f.Add(tc.body)
		}
	}
	f.Add(validAllow + validAllow)
	f.Add("```json\n" + validDeny + "\n```")
	f.Add(`{"summary":"a","risk_level":"low","category":"none","user_authorization":"unknown","rationale":"b","safer_alternative":"","outcome":"allow","outcome":"allow"}`)

	f.Fuzz(func(t *testing.T, body string) {
		v, err := Parse(body)
		if cv, cerr := ParseChoice(body, ""); cv != v || (cerr == nil) != (err == nil) {
			t.Fatalf("ParseChoice(body, \"\") = %+v, %v; Parse = %+v, %v", cv, cerr, v, err)
		}
		if err != nil {
			if !IsBadOutput(err) {
				t.Fatalf("error %T (%v) is not a *BadOutputError", err, err)
			}
			if v != (Verdict{}) {
				t.Fatalf("verdict on error = %+v", v)
			}
			return
		}

		// The enums are the vocabulary's.
		if _, err := riskmodel.ParseLevel(v.RiskLevel.String()); err != nil {
			t.Fatalf("risk level: %v", err)
		}
		if _, err := riskmodel.ParseCategory(string(v.Category)); err != nil {
			t.Fatalf("category: %v", err)
		}
		if _, err := ParseAuthorization(string(v.UserAuthorization)); err != nil {
			t.Fatalf("authorization: %v", err)
		}
		if _, err := riskmodel.ParseDecision(v.Outcome.String()); err != nil {
			t.Fatalf("outcome: %v", err)
		}
		if v.Outcome == riskmodel.Allow && v.RiskLevel > riskmodel.Medium {
			t.Fatalf("allow at %s risk", v.RiskLevel)
		}
		for name, s := range map[string]string{"summary": v.Summary, "rationale": v.Rationale, "safer_alternative": v.SaferAlternative} {
			if utf8.RuneCountInString(s) > MaxFieldRunes {
				t.Fatalf("%s over the cap", name)
			}
		}
		if strings.TrimSpace(v.Summary) == "" || strings.TrimSpace(v.Rationale) == "" {
			t.Fatalf("blank summary or rationale: %+v", v)
		}
		if len(body) > MaxBodyBytes {
			t.Fatalf("accepted a %d-byte body", len(body))
		}

		// The body was exactly one object (after whitespace and at most one fence) ...
		inner := strings.TrimSpace(body)
		if strings.HasPrefix(inner, "```") {
			nl := strings.IndexByte(inner, '\n')
			if nl < 0 || !strings.HasSuffix(inner, "```") || len(inner) < nl+1+3 {
				t.Fatalf("accepted a malformed fence: %q", body)
			}
			inner = strings.TrimSpace(inner[nl+1 : len(inner)-3])
		}
		if inner == "" || inner[0] != '{' || !json.Valid([]byte(inner)) {
			t.Fatalf("accepted something other than one JSON object: %q", body)
		}
		// ... with seven distinct keys ...
		keys := topLevelKeys(t, inner)
		seen := map[string]bool{}
		for _, k := range keys {
			if seen[k] {
				t.Fatalf("accepted duplicate key %q in %q", k, body)
			}
			seen[k] = true
		}
		if len(keys) != len(verdictTags()) {
			t.Fatalf("accepted %d keys %v", len(keys), keys)
		}
		// ... whose values, read independently, are the verdict's fields.
		var m map[string]string
		if err := json.Unmarshal([]byte(inner), &m); err != nil {
			t.Fatalf("independent decode: %v", err)
		}
		want := map[string]string{
			"summary": v.Summary, "risk_level": v.RiskLevel.String(), "category": string(v.Category),
			"user_authorization": string(v.UserAuthorization), "outcome": v.Outcome.String(),
			"rationale": v.Rationale, "safer_alternative": v.SaferAlternative,
		}
		for k, w := range want {
			if got, ok := m[k]; !ok || got != w {
				t.Fatalf("field %s: body has %q (present %v), verdict has %q", k, got, ok, w)
			}
		}

		// Re-marshalled, the verdict parses back to itself.
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if back, err := Parse(string(b)); err != nil || back != v {
			t.Fatalf("round trip = %+v, %v; want %+v", back, err, v)
		}
	})
}

// topLevelKeys lists the keys of a JSON object in order, duplicates included (which
// json.Unmarshal would hide).
func topLevelKeys(t *testing.T, s string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
