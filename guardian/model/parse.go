package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/guardianhq/guardian/riskmodel"
)

// Limits on model output. A verdict is a few hundred bytes; anything near these caps is a
// model gone wrong (a loop, an echo of the request, an attack), and the caps keep the parser's
// time and memory bounded whatever arrives.
const (
	// MaxBodyBytes caps the whole answer, checked before anything else is looked at.
	MaxBodyBytes = 32 << 10
	// MaxFieldRunes caps each string field, in characters (runes), not bytes, so that
	// non-English text gets the same room as English.
	MaxFieldRunes = 2000
)

// BadOutputError is the one error type of Parse and ParseChoice: the model's answer is not a
// valid Verdict. The pipeline recognises it with errors.As (or IsBadOutput) and maps it to
// status bad_output, never to allow. Reason is safe to log: it quotes model text only in short,
// escaped snippets.
type BadOutputError struct {
	// Reason says what was wrong, for logs and the audit record.
	Reason string
	// Field is the wire name of the field at fault ("outcome"), or "" when the body as a whole
	// is wrong (not JSON, prose, two objects, too large).
	Field string
	// Refusal is set when the model declined to answer (a refusal field or refusal prose), so
	// that metrics can tell a squeamish model from a broken one.
	Refusal bool
}

// Error implements error.
func (e *BadOutputError) Error() string {
	if e.Field != "" {
		return "model: bad output: " + e.Field + ": " + e.Reason
	}
	return "model: bad output: " + e.Reason
}

// IsBadOutput reports whether err is (or wraps) a *BadOutputError: the question the pipeline
// asks to choose status bad_output over timeout or unavailable.
func IsBadOutput(err error) bool {
	var b *BadOutputError
	return errors.As(err, &b)
}

func bad(format string, args ...any) *BadOutputError {
	return &BadOutputError{Reason: fmt.Sprintf(format, args...)}
}

func badField(name, format string, args ...any) *BadOutputError {
	return &BadOutputError{Field: name, Reason: fmt.Sprintf(format, args...)}
}

// ParseChoice parses one chat-completion choice: its message content and, separately, the
// refusal text that OpenAI-style servers put in the message's refusal field instead of the
// content. A non-blank refusal is an error (with Refusal set) whatever the content says, since
// a model that refused did not review; otherwise the content goes through Parse.
func ParseChoice(content, refusal string) (Verdict, error) {
	if r := strings.TrimSpace(refusal); r != "" {
		return Verdict{}, &BadOutputError{Reason: "model refused: " + snippet(r), Refusal: true}
	}
	return Parse(content)
}

// Parse reads the model's answer strictly. It accepts exactly one JSON object holding exactly
// the Verdict's fields, each once, each a string, enums exactly as the schema lists them; on
// any doubt it returns the zero Verdict (whose Outcome is not a decision) and a
// *BadOutputError.
//
// Decisions, each on the side of failing safe:
//   - Whitespace around the object is tolerated, and so is one Markdown code fence around the
//     whole body ("```json" or a bare "```", newline, object, "```"), because many servers
//     and json_object-mode models add one and it hides nothing. Prose before or after the
//     object or the fence, a second fence, a fence with another language tag, or three
//     backticks anywhere inside the fence are rejected: the object must be the whole answer,
//     since text around it is where an injected second verdict or an instruction would hide.
//   - Keys and enum values are case-sensitive and must match exactly ("Allow", " allow" and
//     "Outcome" are errors). Strict structured output produces the exact values; a model that
//     does not is not following the schema, and fail-safe costs only an ask. It also closes
//     the hole of encoding/json's case-insensitive key matching.
//   - outcome allow with risk_level high or critical is an error, not something to repair:
//     the model contradicts itself, which is the mark of an injected "answer allow". The
//     pipeline caps such an allow anyway, but the ceiling is configurable; rejecting here keeps
//     "allow implies low or medium risk" true of every parsed Verdict whatever the config.
//   - Duplicate keys are errors (encoding/json would silently keep the last), including ones
//     spelt differently with \u escapes.
//   - Summary and rationale must not be blank; every string is capped at MaxFieldRunes and the
//     body at MaxBodyBytes; the body must be valid UTF-8; strings must not contain control
//     characters other than tab and newlines, nor bidirectional-override characters, because
//     the summary and rationale are shown to the human deciding and must not rewrite their
//     terminal or reorder what they read.
//   - A non-JSON body that reads as a refusal ("I can't help with that") is an error with
//     Refusal set; an empty body is an error.
//
// Time and memory are bounded by MaxBodyBytes, checked first; nesting is never descended,
// since the first non-string value is already an error.
func Parse(body string) (Verdict, error) {
	if len(body) > MaxBodyBytes {
		return Verdict{}, bad("body is %d bytes, over the %d-byte cap", len(body), MaxBodyBytes)
	}
	if !utf8.ValidString(body) {
		return Verdict{}, bad("body is not valid UTF-8")
	}
	s := strings.TrimSpace(body)
	if s == "" {
		return Verdict{}, bad("empty content")
	}
	s, err := unfence(s)
	if err != nil {
		return Verdict{}, err
	}
	if s == "" {
		return Verdict{}, bad("empty code fence")
	}
	if s[0] != '{' {
		if looksLikeRefusal(s) {
			return Verdict{}, &BadOutputError{Reason: "model refused: " + snippet(s), Refusal: true}
		}
		return Verdict{}, bad("body is not a JSON object: starts with %s", snippet(s))
	}
	return parseObject(s)
}

// unfence strips one Markdown code fence wrapping the whole (already trimmed) body, and
// returns s unchanged when it does not start with one.
func unfence(s string) (string, error) {
	const fence = "```"
	if !strings.HasPrefix(s, fence) {
		return s, nil
	}
	nl := strings.IndexByte(s, '\n')
	if nl < 0 {
		return "", bad("code fence without a line break after its opening")
	}
	if tag := strings.TrimSpace(s[len(fence):nl]); tag != "" && !strings.EqualFold(tag, "json") {
		return "", bad("code fence tagged %s, want json or no tag", snippet(tag))
	}
	rest := s[nl+1:]
	if !strings.HasSuffix(rest, fence) {
		return "", bad("code fence does not close at the end of the body")
	}
	inner := rest[:len(rest)-len(fence)]
	if strings.Contains(inner, fence) {
		return "", bad("more than one code fence")
	}
	return strings.TrimSpace(inner), nil
}

// parseObject walks s token by token. A json.Decoder token walk (rather than json.Unmarshal)
// is what lets the parser see duplicate keys, exact key spelling, value types before
// conversion, and what follows the object.
func parseObject(s string) (Verdict, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	tok, err := dec.Token()
	if err != nil {
		return Verdict{}, bad("malformed JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return Verdict{}, bad("top-level value is %s, not an object", tokenKind(tok))
	}
	specs := fields()
	seen := make([]bool, len(specs))
	var v Verdict
	for dec.More() {
		tok, err = dec.Token()
		if err != nil {
			return Verdict{}, bad("malformed JSON: %v", err)
		}
		key, ok := tok.(string)
		if !ok {
			return Verdict{}, bad("malformed JSON: object key is %s", tokenKind(tok))
		}
		i := slices.IndexFunc(specs, func(f field) bool { return f.name == key })
		if i < 0 {
			return Verdict{}, bad("unknown field %s", snippet(key))
		}
		f := specs[i]
		if seen[i] {
			return Verdict{}, badField(f.name, "duplicate key")
		}
		seen[i] = true
		tok, err = dec.Token()
		if err != nil {
			return Verdict{}, bad("malformed JSON: %v", err)
		}
		val, ok := tok.(string)
		if !ok {
			// An object or array value stops here, before its contents are read: nesting
			// depth costs nothing.
			return Verdict{}, badField(f.name, "want a string, got %s", tokenKind(tok))
		}
		if err := check(f, val); err != nil {
			return Verdict{}, err
		}
		f.set(&v, val)
	}
	if _, err := dec.Token(); err != nil { // the closing brace; a trailing comma fails here
		return Verdict{}, bad("malformed JSON: %v", err)
	}
	switch tok, err := dec.Token(); {
	case err == io.EOF:
	case err != nil:
		return Verdict{}, bad("trailing content after the object: %v", err)
	default:
		return Verdict{}, bad("trailing content after the object: %s", tokenKind(tok))
	}
	var missing []string
	for i, f := range specs {
		if !seen[i] {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return Verdict{}, badField(missing[0], "missing (missing fields: %s)", strings.Join(missing, ", "))
	}
	if v.Outcome == riskmodel.Allow && v.RiskLevel > riskmodel.Medium {
		return Verdict{}, badField("outcome", "allow contradicts risk_level %s", v.RiskLevel)
	}
	return v, nil
}

// check validates one string value against its field.
func check(f field, s string) error {
	if f.enum != nil {
		if !slices.Contains(f.enum, s) {
			return badField(f.name, "%s is not one of %s", snippet(s), strings.Join(f.enum, ", "))
		}
		return nil
	}
	if n := utf8.RuneCountInString(s); n > MaxFieldRunes {
		return badField(f.name, "%d characters, over the %d cap", n, MaxFieldRunes)
	}
	if f.nonEmpty && strings.TrimSpace(s) == "" {
		return badField(f.name, "blank")
	}
	for i, r := range s {
		if forbiddenRune(r) {
			return badField(f.name, "forbidden character %U at byte %d", r, i)
		}
	}
	return nil
}

// forbiddenRune reports control characters (other than tab, CR, LF) and the bidirectional
// embedding, override and isolate characters: text that can rewrite a terminal or reorder
// what a human reads.
func forbiddenRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// looksLikeRefusal recognises the usual refusal openings of chat models in a body that is not
// JSON. It only changes how the error is labelled: a non-JSON body is an error either way.
func looksLikeRefusal(s string) bool {
	if len(s) > 1024 {
		s = s[:1024]
	}
	s = strings.ToLower(strings.ReplaceAll(s, "\u2019", "'"))
	for _, p := range []string{
		"i can't", "i cannot", "i can not", "i won't", "i will not", "i'm sorry", "i am sorry",
		"i'm unable", "i am unable", "i'm not able", "i am not able", "i must decline",
		"sorry, but", "i apologize", "as an ai", "can't help", "cannot help", "can't assist",
		"cannot assist", "unable to help", "unable to assist",
	} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// tokenKind names a json.Token's type for error messages.
func tokenKind(t json.Token) string {
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			return "an object"
		case '[':
			return "an array"
		}
		return fmt.Sprintf("%q", string(t))
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", t)
}

// snippet quotes the start of s for an error message: short, escaped, safe to log.
func snippet(s string) string {
	const limit = 40
	if utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
