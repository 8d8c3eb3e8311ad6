// Package strictjson decodes JSON the way the agent hosts read it, not the way encoding/json
// does. encoding/json matches object keys to struct fields case-insensitively and lets the last
// of two equal keys win; the hosts (JavaScript property access, serde) match keys exactly. So
// {"command":"rm -rf ~/","Command":"ls"} is `rm -rf ~/` to the host and `ls` to a plain Go
// decoder: a reviewer that decodes with encoding/json reviews a different request from the one
// that runs. Unmarshal closes that gap by refusing every input on which the two readings could
// differ, before encoding/json decodes it:
//
//   - a key that appears twice in one object (after \u escapes are resolved) is an error,
//     wherever it is — a host that keeps the first and a decoder that keeps the last disagree;
//   - in an object decoded into a struct, a key that is not exactly a field's name but that
//     encoding/json would fold onto one ("Command", "COMMAND", "Tool_Input", "\u212aind" for
//     "kind") is an error.
//
// Keys that match no field are left to the caller's decoder (ignored, or refused with
// DisallowUnknownFields), so a host that adds a field between releases does not break a hook.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Unmarshal checks b with Check against v's type and then decodes it with encoding/json.
func Unmarshal(b []byte, v any) error {
	if err := Check(b, v); err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// UnmarshalStrict is Unmarshal that also refuses keys matching no field (DisallowUnknownFields).
func UnmarshalStrict(b []byte, v any) error {
	if err := Check(b, v); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Check reports an error when b is not exactly one JSON value, when any of its objects holds a
// key twice, or when an object read into a struct of v's type (v may be nil: no struct) holds a
// key that only case-folding would match to a field. It does not decode anything.
func Check(b []byte, v any) error {
	var t reflect.Type
	if v != nil {
		t = reflect.TypeOf(v)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := walk(dec, t, ""); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// ErrDuplicateKey and ErrKeyCase are the two ways a well-formed document is refused.
var (
	ErrDuplicateKey = errors.New("duplicate key")
	ErrKeyCase      = errors.New("key differs from the field's name only in case")
)

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// walk reads one value from dec, checking its objects against t (nil: any type).
func walk(dec *json.Decoder, t reflect.Type, path string) error {
	t = concrete(t)
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar
	}
	switch d {
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := walk(dec, elem, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case '{':
		var fields []string
		var elem reflect.Type
		if t != nil {
			switch t.Kind() {
			case reflect.Struct:
				fields = fieldNames(t)
			case reflect.Map:
				elem = t.Elem()
			}
		}
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := tok.(string)
			at := path + "." + key
			if path == "" {
				at = key
			}
			if seen[key] {
				return fmt.Errorf("%w %q", ErrDuplicateKey, at)
			}
			seen[key] = true
			child := elem
			if fields != nil {
				child = nil
				for _, f := range fields {
					if f == key {
						child = fieldType(t, f)
						break
					}
				}
				if child == nil {
					for _, f := range fields {
						if strings.EqualFold(f, key) {
							return fmt.Errorf("%w: %q is not %q", ErrKeyCase, at, f)
						}
					}
				}
			}
			if err := walk(dec, child, at); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

// concrete strips pointers and returns nil for types whose decoding is their own
// (json.Unmarshaler, json.RawMessage) or untyped (interfaces): only duplicates are checked in
// those. Such a type is checked again when its own decoder uses this package.
func concrete(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	return t
}

// fieldNames lists the JSON names encoding/json gives t's fields, embedded structs' included.
func fieldNames(t reflect.Type) []string {
	names := []string{}
	for _, f := range reflect.VisibleFields(t) {
		if name, ok := jsonName(f); ok {
			names = append(names, name)
		}
	}
	return names
}

// fieldType is the type of the field named name in t.
func fieldType(t reflect.Type, name string) reflect.Type {
	for _, f := range reflect.VisibleFields(t) {
		if n, ok := jsonName(f); ok && n == name {
			return f.Type
		}
	}
	return nil
}

// jsonName is the key encoding/json uses for f, and whether f is decoded at all.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() && !f.Anonymous {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	if f.Anonymous && name == "" && concrete(f.Type) != nil && concrete(f.Type).Kind() == reflect.Struct {
		return "", false // its fields are promoted; VisibleFields lists them
	}
	if !f.IsExported() {
		return "", false
	}
	if name == "" {
		name = f.Name
	}
	return name, true
}
