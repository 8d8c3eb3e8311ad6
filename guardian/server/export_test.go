package server

import "time"

// NewSessionForTest returns the console session cookie value and CSRF value that token signs
// for a session ending at expiry.
func NewSessionForTest(token string, expiry time.Time) (session, csrf string) {
	return NewBearerToken(token).newSession(expiry)
}
