package prompts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/guardianhq/guardian/riskmodel"
)

// redactedSecret replaces a value when redaction cannot say more precisely what it held.
const redactedSecret = "[REDACTED:secret]"

// redactArgv redacts each word with riskmodel.RedactSecrets and then the command line as a
// whole, because some secrets are only recognisable across words: ["--password", "hunter2"]
// or ["curl", "-u", "me:pass", …]. A secret found that way is removed from the words it
// overlaps and from every other word that repeats it.
func redactArgv(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = riskmodel.RedactSecrets(w)
	}
	joined := strings.Join(out, " ")
	ms := riskmodel.FindSecrets(joined)
	if len(ms) == 0 {
		return out
	}
	values := map[string]string{} // secret value (8 bytes or more) → replacement
	type span struct{ start, end int }
	cuts := make([][]span, len(out))
	kinds := make([][]string, len(out))
	off := 0
	for i, w := range out {
		for _, m := range ms {
			s, e := max(m.Start, off), min(m.End, off+len(w))
			if s < e {
				cuts[i] = append(cuts[i], span{s - off, e - off})
				kinds[i] = append(kinds[i], m.Kind)
			}
		}
		off += len(w) + 1
	}
	for _, m := range ms {
		if v := joined[m.Start:m.End]; len(v) >= 8 {
			values[v] = "[REDACTED:" + m.Kind + "]"
		}
	}
	for i, w := range out {
		if len(cuts[i]) > 0 {
			var b strings.Builder
			prev := 0
			for j, c := range cuts[i] { // FindSecrets returns sorted, disjoint matches
				b.WriteString(w[prev:c.start])
				b.WriteString("[REDACTED:" + kinds[i][j] + "]")
				prev = c.end
			}
			b.WriteString(w[prev:])
			w = b.String()
		}
		for _, v := range sortedKeys(values) {
			w = strings.ReplaceAll(w, v, values[v])
		}
		out[i] = riskmodel.RedactSecrets(w)
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	// Longest first, so a value that contains another is replaced whole.
	sort.Slice(ks, func(i, j int) bool {
		if len(ks[i]) != len(ks[j]) {
			return len(ks[i]) > len(ks[j])
		}
		return ks[i] < ks[j]
	})
	return ks
}

// redactArguments returns a redacted copy of MCP tool arguments as plain JSON values
// (map[string]any, []any, string, json.Number, bool, nil), so that any Go value a caller put
// into the map renders the way it would travel on the wire. Keys are redacted too; a key that
// collides with another after redaction gets a "#N" suffix, so nothing silently disappears.
func redactArguments(args map[string]any) (any, error) {
	if args == nil {
		return nil, nil
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("prompts: mcp arguments are not JSON: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("prompts: mcp arguments: %w", err)
	}
	return redactValue("", v), nil
}

func redactValue(key string, v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		out := make(map[string]any, len(x))
		for _, k := range keys {
			nk := riskmodel.RedactSecrets(k)
			for n := 2; ; n++ {
				if _, dup := out[nk]; !dup {
					break
				}
				nk = fmt.Sprintf("%s#%d", riskmodel.RedactSecrets(k), n)
			}
			out[nk] = redactValue(k, x[k])
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = redactValue(key, e) // elements inherit their array's key: {"tokens": [...]}
		}
		return out
	case string:
		return redactKeyed(key, x)
	}
	return v
}

// redactKeyed redacts a string value of an argument named key. RedactSecrets finds the
// secrets that announce themselves (ghp_…, AKIA…, private keys, passwords in URLs); a plain
// value is a secret because of its key ({"password": "hunter2hunter2"}), so the value is also
// checked in the `"key": "value"` form that riskmodel's keyed detector reads. If that check
// redacts something that cannot be mapped back onto the value, the whole value goes.
func redactKeyed(key, val string) string {
	val = riskmodel.RedactSecrets(val)
	if key == "" {
		return val
	}
	kq, err1 := json.Marshal(key)
	vq, err2 := json.Marshal(val)
	if err1 != nil || err2 != nil {
		return redactedSecret
	}
	prefix := string(kq) + ": "
	probe := prefix + string(vq)
	r := riskmodel.RedactSecrets(probe)
	if r == probe {
		return val
	}
	if rest, ok := strings.CutPrefix(r, prefix); ok {
		var nv string
		if json.Unmarshal([]byte(rest), &nv) == nil {
			return nv
		}
	}
	return redactedSecret
}

// RedactArgv returns a copy of an exec command with every secret replaced, by the same rules
// the prompt uses: word by word and across words (["--password", "hunter2"]). Other places a
// request is written to — the audit log — use it, so none of them shows more than the model
// is shown.
func RedactArgv(words []string) []string { return redactArgv(words) }

// RedactArguments returns a redacted copy of MCP tool arguments as plain JSON values, keys
// and string values alike, by the same rules the prompt uses (including values that are
// secrets only because of their key, such as {"password": "…"}). It fails only when the
// arguments are not JSON-encodable.
func RedactArguments(args map[string]any) (any, error) { return redactArguments(args) }
