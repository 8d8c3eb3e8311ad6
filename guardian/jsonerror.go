package guardian

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// posError is a decoding error and the byte offset it is about, relative to the bytes the
// decoder was given. It is turned into "line L, column C: …" once, by LocateJSONError on the
// whole input, so that an error inside the "request" object of an envelope is placed in the
// input the client sent, and only once.
type posError struct {
	off int64
	err error
}

func (e *posError) Error() string { return e.err.Error() }
func (e *posError) Unwrap() error { return e.err }

// shift moves the position of a posError in err by base bytes: err came from decoding a
// part of a larger input that starts at base.
func shift(err error, base int64) error {
	var pe *posError
	if errors.As(err, &pe) {
		pe.off += base
	}
	return err
}

var unknownFieldRE = lazyRegexp(`^json: unknown field "(.*)"$`)

// positioned turns an error of encoding/json decoding b into one that knows its offset in b
// and says what is wrong in JSON's terms rather than Go's: an unknown key, a value of the
// wrong JSON type, a syntax error.
func positioned(b []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return &posError{off: int64(len(b)), err: errors.New("unexpected end of JSON input")}
	case errors.As(err, &se):
		// A token stream (strictjson) reports syntax errors at another offset than the
		// scanner behind Unmarshal, which points just past the offending character.
		var x any
		if e := json.Unmarshal(b, &x); errors.As(e, &se) {
			return &posError{off: se.Offset - 1, err: se}
		}
		return &posError{off: se.Offset - 1, err: se}
	case errors.As(err, &te):
		// te.Offset is just past the value; point at its start.
		return &posError{off: valueStart(b, te.Offset), err: typeError(te)}
	}
	if strings.HasPrefix(err.Error(), "trailing data") {
		dec := json.NewDecoder(bytes.NewReader(b))
		var x any
		if dec.Decode(&x) == nil {
			off := dec.InputOffset()
			for off < int64(len(b)) && strings.IndexByte(" \t\r\n", b[off]) >= 0 {
				off++
			}
			return &posError{off: off, err: err}
		}
		return err
	}
	if m := unknownFieldRE().FindStringSubmatch(err.Error()); m != nil {
		msg := fmt.Errorf("unknown field %q", m[1])
		if off, ok := keyOffset(b, m[1]); ok {
			return &posError{off: off, err: msg}
		}
		return msg
	}
	return err
}

// typeError says what a wrongly typed value is and what was wanted, in JSON type names.
func typeError(te *json.UnmarshalTypeError) error {
	found := map[string]string{"string": "a string", "number": "a number", "bool": "true or false", "array": "an array", "object": "an object", "null": "null"}[te.Value]
	if found == "" {
		found = te.Value
		if strings.HasPrefix(found, "number ") {
			found = "the number " + strings.TrimPrefix(found, "number ")
		}
	}
	if te.Field == "" {
		return fmt.Errorf("wrong type: found %s, want %s", found, jsonTypeName(te.Type))
	}
	return fmt.Errorf("%q has the wrong type: found %s, want %s", te.Field, found, jsonTypeName(te.Type))
}

// jsonTypeName names the JSON a Go type decodes from.
func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if e := jsonTypeName(t.Elem()); strings.HasPrefix(e, "a ") || strings.HasPrefix(e, "an ") {
			_, noun, _ := strings.Cut(e, " ")
			return "an array of " + noun + "s"
		}
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a JSON value"
}

// valueStart backs up from just past a value (encoding/json's type-error offset) to where
// it starts: the value is the last thing before end, after a ':' or ',' or '['.
func valueStart(b []byte, end int64) int64 {
	end = min(max(end, 0), int64(len(b)))
	// Scan the whole value again with a decoder from each candidate start would be exact;
	// the value's first byte follows the last ':' ',' or '[' outside a string before end.
	dec := json.NewDecoder(bytes.NewReader(b))
	start := int64(0)
	for {
		before := dec.InputOffset()
		if before >= end {
			break
		}
		if _, err := dec.Token(); err != nil {
			break
		}
		after := dec.InputOffset()
		if after >= end {
			// The token ending at or past end starts after the blanks, colon or comma
			// that precede it.
			start = before
			for start < int64(len(b)) && strings.IndexByte(" \t\r\n:,", b[start]) >= 0 {
				start++
			}
			break
		}
	}
	return start
}

// keyOffset is where the object key name is written in b: the first such key directly in
// the top-level object, else the first anywhere outside an "arguments" object (whose keys
// are the tool's own and never unknown).
func keyOffset(b []byte, name string) (int64, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		object   bool
		wantKey  bool
		key      string // the key this container is the value of
		freeKeys bool   // inside "arguments": any key is valid
	}
	var stack []frame
	var nested int64 = -1
	lastKey := ""
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			break
		}
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if top != nil && top.object && top.wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			key, _ := tok.(string)
			top.wantKey = false
			lastKey = key
			if key == name && !top.freeKeys {
				off := before
				for off < int64(len(b)) && b[off] != '"' {
					off++
				}
				if len(stack) == 1 {
					return off, true
				}
				if nested < 0 {
					nested = off
				}
			}
			continue
		}
		if top != nil && top.object {
			top.wantKey = true // this token is a value (or starts one)
		}
		switch tok {
		case json.Delim('{'):
			free := lastKey == "arguments" || (top != nil && top.freeKeys)
			stack = append(stack, frame{object: true, wantKey: true, key: lastKey, freeKeys: free})
		case json.Delim('['):
			stack = append(stack, frame{key: lastKey, freeKeys: top != nil && top.freeKeys})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
	return nested, nested >= 0
}

// LocateJSONError writes err from decoding input as "line L, column C: …" when it knows
// where in input it happened, once; other errors are returned as they are.
func LocateJSONError(input []byte, err error) error {
	var pe *posError
	if !errors.As(err, &pe) || pe.off < 0 || pe.off > int64(len(input)) {
		return err
	}
	idx := int(pe.off)
	line := 1 + bytes.Count(input[:idx], []byte("\n"))
	col := idx - bytes.LastIndexByte(input[:idx], '\n')
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

// DescribeJSONError says what is wrong with input, which encoding/json failed to decode with
// err, in JSON's terms and with the line and column where that is known: "line 1, column 21:
// "readOnlyHint" has the wrong type: found a string, want true or false".
func DescribeJSONError(input []byte, err error) error {
	return LocateJSONError(input, positioned(input, err))
}
