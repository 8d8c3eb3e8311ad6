package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/guardianhq/guardian/guardian/strictjson"
)

// maxSmallBody bounds the JSON bodies of the console's calls (a breaker reset, a login).
const maxSmallBody = 64 << 10

// decodeSmall decodes a small JSON object body into v strictly, as POST /v1/review reads its
// body: an unknown key, a repeated key, a key that matches a field only by case and anything
// after the object are errors; an empty body leaves v as it is.
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
	if err := strictjson.UnmarshalStrict(b, v); err != nil {
		return fmt.Errorf("decode the body: %w", err)
	}
	return nil
}
