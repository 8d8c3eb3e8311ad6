package prompts

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// FencePrefix starts every marker of the user message. Rendered content never contains it:
// a third '<' in a row (and likewise a third '>') is written as the JSON escape \u003c
// (\u003e), which a JSON reader decodes to the same character, so the neutralisation loses
// nothing while no request can spell a marker — not even one with the right nonce.
const FencePrefix = "<<<"

// nonceBytes is the size of a generated nonce: 128 bits, so a request cannot guess the marker
// that would close its own fence.
const nonceBytes = 16

// newNonce returns 128 random bits as 32 hex characters. crypto/rand.Read never fails (it
// aborts the program if the system's generator is broken), so there is no error path that
// could fall back to a guessable nonce.
func newNonce() string {
	b := make([]byte, nonceBytes)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// checkNonce accepts a caller-chosen nonce (tests, replays of an audit record): 16 to 64
// letters and digits, so it cannot carry marker syntax and is long enough not to be guessed.
func checkNonce(n string) error {
	if len(n) < 16 || len(n) > 64 {
		return fmt.Errorf("prompts: nonce must be 16 to 64 letters or digits, got %d bytes", len(n))
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return fmt.Errorf("prompts: nonce must be letters or digits only, got %q", c)
		}
	}
	return nil
}

// The markers of one review. The request section and the hints section each have their own
// pair, so the hints cannot be mistaken for part of the request or the other way round.
func requestBegin(nonce string) string { return FencePrefix + "UNTRUSTED-REQUEST-" + nonce + ">>>" }
func requestEnd(nonce string) string   { return FencePrefix + "END-UNTRUSTED-REQUEST-" + nonce + ">>>" }
func hintsBegin(nonce string) string   { return FencePrefix + "RULE-HINTS-" + nonce + ">>>" }
func hintsEnd(nonce string) string     { return FencePrefix + "END-RULE-HINTS-" + nonce + ">>>" }

// encodeData writes v as indented JSON for a fenced section: every string is JSON-escaped, so
// quotes, newlines and control characters cannot end a string or a line early, and the result
// is hardened (see harden). HTML escaping is off: shell commands are full of <, > and &, and
// \u0026\u0026 would only make them harder for the model to read.
func encodeData(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return harden(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

// compactJSON is v's compact JSON encoding, whose length the arguments cap measures.
func compactJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// harden rewrites JSON text produced by encoding/json so that it is safe to place between
// markers. It tracks JSON strings and rewrites only inside them, each time into a JSON escape
// of the same character, so a JSON reader still decodes exactly the original value:
//   - a third consecutive '<' or '>' becomes \u003c or \u003e, so FencePrefix (and the ">>>"
//     that ends a marker) never occurs in data;
//   - '<' before '/', '|', '!', '?', '｜' or an ASCII letter becomes \u003c, and '[' before a
//     Mistral control word becomes \u005b: closing tags such as </system> and the special
//     tokens of chat templates (<|im_end|>, <|eot_id|>, <end_of_turn>, [/INST], …), which a
//     self-hosted OpenAI-compatible server may otherwise tokenize as control tokens, never
//     appear verbatim;
//   - DEL and every non-printing rune (format characters such as bidi overrides and zero-width
//     spaces, non-ASCII spaces and line separators, private-use and unassigned code points)
//     become \uXXXX, so nothing in the data is invisible or reorders the text around it.
//
// encoding/json has already escaped the C0 controls, quotes and backslashes and replaced
// invalid UTF-8 with U+FFFD.
func harden(b []byte) string {
	var out bytes.Buffer
	out.Grow(len(b) + len(b)/16)
	inStr, esc := false, false
	lt, gt := 0, 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		next := b[i+size:]
		i += size
		if !inStr || esc || r == '\\' || r == '"' {
			switch {
			case !inStr:
				inStr = r == '"'
			case esc:
				esc = false
			case r == '\\':
				esc = true
			default: // the closing quote
				inStr = false
			}
			out.WriteRune(r)
			lt, gt = 0, 0
			continue
		}
		switch {
		case r == '<':
			if lt == 2 || opensTag(next) {
				out.WriteString(`\u003c`)
				lt = 0
			} else {
				out.WriteByte('<')
				lt++
			}
			gt = 0
			continue
		case r == '>':
			if gt == 2 {
				out.WriteString(`\u003e`)
				gt = 0
			} else {
				out.WriteByte('>')
				gt++
			}
			lt = 0
			continue
		case r == '[' && opensControlWord(next):
			out.WriteString(`\u005b`)
		case r == 0x7f || r >= utf8.RuneSelf && !unicode.IsPrint(r):
			writeEscape(&out, r)
		default:
			out.WriteRune(r)
		}
		lt, gt = 0, 0
	}
	return out.String()
}

// opensTag reports whether the text after a '<' would make it a tag or a special token.
func opensTag(next []byte) bool {
	if len(next) == 0 {
		return false
	}
	switch c := next[0]; {
	case c == '/' || c == '|' || c == '!' || c == '?':
		return true
	case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		return true
	}
	return bytes.HasPrefix(next, []byte("｜")) // DeepSeek's fullwidth bar
}

// mistralControlWords are the bracketed control tokens of Mistral's chat templates.
var mistralControlWords = []string{"INST]", "/INST]", "SYSTEM_PROMPT]", "/SYSTEM_PROMPT]", "AVAILABLE_TOOLS]",
	"/AVAILABLE_TOOLS]", "TOOL_CALLS]", "TOOL_RESULTS]", "/TOOL_RESULTS]", "TOOL_CONTENT]"}

func opensControlWord(next []byte) bool {
	for _, w := range mistralControlWords {
		if bytes.HasPrefix(next, []byte(w)) {
			return true
		}
	}
	return false
}

// writeEscape writes r as a JSON \u escape, as a surrogate pair above the BMP.
func writeEscape(out *bytes.Buffer, r rune) {
	if r == utf8.RuneError {
		r = unicode.ReplacementChar
	}
	if r > 0xffff {
		r -= 0x10000
		fmt.Fprintf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		return
	}
	fmt.Fprintf(out, `\u%04x`, r)
}

// truncationMarker replaces the middle of a capped value. It states how much is missing so
// the model knows the value is incomplete, and guardian names the field outside the fence too,
// so a look-alike marker written by the request proves nothing.
func truncationMarker(cut, words int) string {
	switch {
	case words == 1:
		return "…[truncated " + strconv.Itoa(cut) + " bytes, including 1 whole argument]…"
	case words > 1:
		return "…[truncated " + strconv.Itoa(cut) + " bytes, including " + strconv.Itoa(words) + " whole arguments]…"
	}
	return "…[truncated " + strconv.Itoa(cut) + " bytes]…"
}

// capString keeps at most limit bytes of s: the head and the tail, half each, with a
// truncation marker between them, so a dangerous command at either end stays visible. Cuts
// fall on rune boundaries. It reports whether s was shortened.
func capString(s string, limit int) (string, bool) {
	if len(s) <= limit {
		return s, false
	}
	out := capWords([]string{s}, limit)
	return out[0], true
}

// capArgv caps an argv as one sequence of bytes: the first limit/2 and the last limit/2
// bytes of the words survive, the words wholly inside the cut are dropped, and the marker
// goes where the cut starts. A single huge word (a bash -c script) keeps its head and tail.
func capArgv(words []string, limit int) ([]string, bool) {
	total := 0
	for _, w := range words {
		total += len(w)
	}
	if total <= limit {
		return words, false
	}
	return capWords(words, limit), true
}

func capWords(words []string, limit int) []string {
	total := 0
	for _, w := range words {
		total += len(w)
	}
	head := limit / 2
	cs, ce := head, total-(limit-head) // the cut is [cs, ce) of the concatenated words
	a, aoff := locate(words, cs)
	for aoff > 0 && !utf8.RuneStart(words[a][aoff]) { // move both ends to rune boundaries
		aoff--
		cs--
	}
	b, boff := locate(words, ce)
	for b < len(words) && boff < len(words[b]) && !utf8.RuneStart(words[b][boff]) {
		boff++
		ce++
	}
	if a == b {
		w := words[a]
		out := append([]string(nil), words[:a]...)
		out = append(out, w[:aoff]+truncationMarker(ce-cs, 0)+w[boff:])
		return append(out, words[a+1:]...)
	}
	// The cut spans words: word a keeps its head (if any), the words between go, word b keeps
	// its tail (if any), and each keeps its own place in argv.
	dropped := b - a - 1
	if aoff == 0 {
		dropped++
	}
	tail := ""
	if b < len(words) {
		tail = words[b][boff:]
		if tail == "" {
			dropped++
		}
	}
	out := append([]string(nil), words[:a]...)
	out = append(out, words[a][:aoff]+truncationMarker(ce-cs, dropped))
	if tail != "" {
		out = append(out, tail)
	}
	if b < len(words) {
		out = append(out, words[b+1:]...)
	}
	return out
}

// locate returns the word holding byte pos of the concatenation and the offset in it; pos ==
// total gives (len(words), 0).
func locate(words []string, pos int) (int, int) {
	for i, w := range words {
		if pos < len(w) {
			return i, pos
		}
		pos -= len(w)
	}
	return len(words), 0
}
