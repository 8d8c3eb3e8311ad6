package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// object is a JSON object that keeps its members' order and their values' bytes, so that an
// installer editing one key of a user's settings file leaves every other key as it was.
type object struct {
	members []member
}

type member struct {
	key   string
	value json.RawMessage
}

// parseObject reads a JSON object; empty input is an empty object (a settings file that does
// not exist yet).
func parseObject(b []byte) (*object, error) {
	o := &object{}
	if len(bytes.TrimSpace(b)) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("value of %q: %w", key, err)
		}
		o.members = append(o.members, member{key, v})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON object")
	}
	return o, nil
}

// get returns the value of key, or nil.
func (o *object) get(key string) json.RawMessage {
	for _, m := range o.members {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// set replaces the value of key in place, or appends the key.
func (o *object) set(key string, v json.RawMessage) {
	for i, m := range o.members {
		if m.key == key {
			o.members[i].value = v
			return
		}
	}
	o.members = append(o.members, member{key, v})
}

// marshal writes the object compactly; indent formats the whole file afterwards.
func (o *object) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o.members {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// indent formats a JSON document with two-space indentation and a final newline.
func indent(b []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// marshalNoEscape encodes v without HTML escaping: hook commands hold '&' and '>', which the
// hosts (and their trust hashes) see verbatim.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// remove deletes key.
func (o *object) remove(key string) {
	for i, m := range o.members {
		if m.key == key {
			o.members = append(o.members[:i], o.members[i+1:]...)
			return
		}
	}
}
