package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// maxSmallBody bounds the JSON bodies of the console's calls (a breaker reset, a login).
const maxSmallBody = 64 << 10

// decodeSmall decodes a small JSON object body into v strictly (an unknown key is an error);
// an empty body leaves v as it is.
func decodeSmall(ex *exchange, v any) error {
	b, err := io.ReadAll(http.MaxBytesReader(ex.w, ex.r.Body, maxSmallBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return fmt.Errorf("body over %d bytes", maxSmallBody)
		}
		return fmt.Errorf("read the body: %w", err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("decode the body: %w", err)
	}
	if dec.More() {
		return errors.New("decode the body: one JSON object expected, found more")
	}
	return nil
}
