package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// authorized checks the bearer token when the server has one. Both sides are hashed before
// the constant-time compare, so neither the token's bytes nor its length leak through timing.
// The message says how to fix a refusal.
func (s *Server) authorized(r *http.Request) (msg string, ok bool) {
	if s.tokenHash == nil {
		return "", true
	}
	h := r.Header.Get("Authorization")
	if h == "" {
		return "missing bearer token: send the header 'Authorization: Bearer <token>' with the token guardian serve was started with (GUARDIAN_TOKEN or --token-file)", false
	}
	scheme, tok, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "unsupported authorization scheme: use 'Authorization: Bearer <token>'", false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	if subtle.ConstantTimeCompare(got[:], s.tokenHash[:]) != 1 {
		return "invalid bearer token: it does not match the token guardian serve was started with", false
	}
	return "", true
}
