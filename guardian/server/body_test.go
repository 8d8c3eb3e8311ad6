package server

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDecodeSmall: the console's small bodies are read as strictly as a review's: a key
// repeated, or matching a field only by case, is refused rather than read one way.
func TestDecodeSmall(t *testing.T) {
	for _, tc := range []struct {
		body, want, err string
	}{
		{`{"breaker":"model"}`, "model", ""},
		{``, "", ""},
		{`{"breaker":"model","breaker":"all"}`, "", "breaker"},
		{`{"Breaker":"all"}`, "", "Breaker"},
		{`{"breaker":"model","extra":1}`, "", "extra"},
		{`{"breaker":"model"} {}`, "", "decode the body"},
	} {
		t.Run(tc.body, func(t *testing.T) {
			ex := &exchange{w: httptest.NewRecorder(), r: httptest.NewRequest("POST", "/v1/breakers/reset", strings.NewReader(tc.body))}
			var rb ResetBody
			err := decodeSmall(ex, &rb)
			if tc.err == "" {
				if err != nil || rb.Breaker != tc.want {
					t.Fatalf("decodeSmall(%s) = %+v, %v; want breaker %q", tc.body, rb, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("decodeSmall(%s) = %+v, %v; want an error naming %q", tc.body, rb, err, tc.err)
			}
		})
	}
}
