package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// BearerToken checks "Authorization: Bearer <token>" headers against one token. guardian serve
// and guardian mcp-proxy --listen guard their HTTP faces with it, so both accept and refuse
// requests the same way. Both sides are hashed before the constant-time compare, so neither
// the token's bytes nor its length leak through timing.
type BearerToken struct {
	hash [sha256.Size]byte
	key  []byte // signs the console's session cookies (sessionKey)
}

// NewBearerToken returns the check for token; nil for an empty token, which checks nothing.
func NewBearerToken(token string) *BearerToken {
	if token == "" {
		return nil
	}
	return &BearerToken{hash: sha256.Sum256([]byte(token)), key: sessionKey(token)}
}

// Check reports whether h carries the token. When it does not, the message says how to fix
// the request. A nil BearerToken accepts everything.
func (t *BearerToken) Check(h http.Header) (msg string, ok bool) {
	if t == nil {
		return "", true
	}
	a := h.Get("Authorization")
	if a == "" {
		return "missing bearer token: send the header 'Authorization: Bearer <token>' with the token guardian was started with (GUARDIAN_TOKEN or --token-file)", false
	}
	scheme, tok, _ := strings.Cut(a, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "unsupported authorization scheme: use 'Authorization: Bearer <token>'", false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	if subtle.ConstantTimeCompare(got[:], t.hash[:]) != 1 {
		return "invalid bearer token: it does not match the token guardian was started with", false
	}
	return "", true
}

// Require wraps next so that a request without the token is answered 401 with the message of
// Check (as plain text) and never reaches next. A nil BearerToken returns next itself.
func (t *BearerToken) Require(next http.Handler) http.Handler {
	if t == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg, ok := t.Check(r.Header); !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="guardian"`)
			http.Error(w, msg, http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
