package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The console's cookies and header. A browser cannot send the bearer token by itself, so the
// console page trades it once for a session cookie; the cookie is HttpOnly (no script can read
// it) and SameSite=Strict (no other site's page makes the browser send it). Every
// state-changing call made with the cookie must also carry HeaderCSRF, holding the value of
// CSRFCookie — a cookie the page's own script can read and no other origin can — which is
// bound to the session by an HMAC, so a cookie planted by someone else does not match.
const (
	SessionCookie = "guardian_session"
	CSRFCookie    = "guardian_csrf"
	HeaderCSRF    = "X-Guardian-CSRF"
	// SessionLifetime is how long a console login lasts.
	SessionLifetime = 12 * time.Hour
)

// sessionKey derives the key the console's cookies are signed with from the bearer token, so
// changing the token (and restarting) logs every console out, and no state is kept.
func sessionKey(token string) []byte {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("guardian console session v1"))
	return m.Sum(nil)
}

func (t *BearerToken) mac(parts ...string) string {
	m := hmac.New(sha256.New, t.key)
	m.Write([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(m.Sum(nil))
}

// newSession returns a session cookie value valid until expiry, and its CSRF value.
func (t *BearerToken) newSession(expiry time.Time) (session, csrf string) {
	exp := strconv.FormatInt(expiry.Unix(), 10)
	session = exp + "." + t.mac("session", exp)
	return session, t.mac("csrf", session)
}

// checkSession reports whether v is a session this token signed that has not expired.
func (t *BearerToken) checkSession(v string, now time.Time) bool {
	exp, sig, ok := strings.Cut(v, ".")
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || now.Unix() >= n {
		return false
	}
	return hmac.Equal([]byte(sig), []byte(t.mac("session", exp)))
}

// checkToken compares a token given in a form or a URL with the server's, in constant time.
func (t *BearerToken) checkToken(tok string) bool {
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(got[:], t.hash[:]) == 1
}

// authKind says how a request was let in.
type authKind int

const (
	authOpen   authKind = iota // the server has no token
	authBearer                 // Authorization: Bearer
	authCookie                 // the console's session cookie
)

// authenticate checks the bearer token or, without an Authorization header, the console's
// session cookie.
func (s *Server) authenticate(r *http.Request) (authKind, string, bool) {
	if s.token == nil {
		return authOpen, "", true
	}
	if r.Header.Get("Authorization") == "" {
		if c, err := r.Cookie(SessionCookie); err == nil {
			if s.token.checkSession(c.Value, s.now()) {
				return authCookie, "", true
			}
			return authCookie, "the console session has expired or is not valid: log in again at /console", false
		}
	}
	msg, ok := s.token.Check(r.Header)
	return authBearer, msg, ok
}

// csrfOK checks a state-changing request for its CSRF header. A request let in by the session
// cookie must carry the CSRF value of that very session. A request that comes from a browser
// (it has Origin or Sec-Fetch-Site) must carry the header in any case: a page of another origin
// cannot add a custom header without a CORS preflight, which this server never grants. A
// program's request (curl, a hook, with or without the bearer token) needs none.
func (s *Server) csrfOK(r *http.Request, via authKind) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	got := r.Header.Get(HeaderCSRF)
	if via == authCookie {
		c, err := r.Cookie(SessionCookie)
		return err == nil && got != "" && hmac.Equal([]byte(got), []byte(s.token.mac("csrf", c.Value)))
	}
	fromBrowser := r.Header.Get("Origin") != "" || r.Header.Get("Sec-Fetch-Site") != ""
	return !fromBrowser || got != ""
}

// setSession gives the browser a new console session: the HttpOnly session cookie and the
// script-readable CSRF cookie.
func (s *Server) setSession(w http.ResponseWriter, r *http.Request) {
	expiry := s.now().Add(SessionLifetime)
	session, csrf := s.token.newSession(expiry)
	secure := r.TLS != nil
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: session, Path: "/", Expires: expiry, MaxAge: int(SessionLifetime / time.Second),
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteStrictMode})
	http.SetCookie(w, &http.Cookie{Name: CSRFCookie, Value: csrf, Path: "/", Expires: expiry, MaxAge: int(SessionLifetime / time.Second),
		Secure: secure, SameSite: http.SameSiteStrictMode})
}

// clearSession removes the console's cookies.
func clearSession(w http.ResponseWriter) {
	for _, name := range []string{SessionCookie, CSRFCookie} {
		http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, HttpOnly: name == SessionCookie, SameSite: http.SameSiteStrictMode})
	}
}
