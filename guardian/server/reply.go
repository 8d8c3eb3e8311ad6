package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The codes of the JSON error body. They are stable: clients branch on them, messages are
// for people and may change.
const (
	CodeBadRequest       = "bad_request"        // 400: empty or malformed body, invalid request, bad query
	CodeUnauthorized     = "unauthorized"       // 401: missing or wrong bearer token
	CodeNotFound         = "not_found"          // 404: unknown path, or a route this server does not offer
	CodeMethodNotAllowed = "method_not_allowed" // 405: see the Allow header
	CodeTooLarge         = "too_large"          // 413: body over the body limit, or request over 256 KiB
	CodeInternal         = "internal"           // 500: no decision was made (the audit log failed, …)
	CodeInvalidConfig    = "invalid_config"     // 500: the project config of the request's cwd does not load
	CodeSaturated        = "saturated"          // 503: too many reviews in flight; retry after Retry-After
	CodeNotReady         = "not_ready"          // 503: a readiness check failed
)

// ErrorBody is the body of every error reply: {"error":{"code":"…","message":"…"}}.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail says what went wrong: Code for programs, Message for people (what, where and
// how to fix it).
type ErrorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// DecisionsBody is the reply of GET /v1/decisions: the audit records, newest last.
type DecisionsBody struct {
	Decisions []json.RawMessage `json:"decisions"`
}

// json writes v as the JSON reply with the given status. Replies are never cached: a decision
// or a readiness answer is only true now.
func (ex *exchange) json(code int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		ex.err = err
		ex.fail(http.StatusInternalServerError, CodeInternal, "cannot encode the reply: "+err.Error())
		return
	}
	ex.write(code, b.Bytes())
}

// fail writes an error reply. The message is sanitized: it may quote the request (a JSON
// error names the offending key), and control characters have no place in a reply.
func (ex *exchange) fail(code int, errCode, msg string) {
	ex.errCode = errCode
	b, err := json.Marshal(ErrorBody{Error: ErrorDetail{Code: errCode, Message: oneLine(msg, 4096)}})
	if err != nil { // unreachable: two strings always encode
		b = []byte(`{"error":{"code":"internal","message":"cannot encode the error"}}`)
	}
	ex.write(code, append(b, '\n'))
}

func (ex *exchange) write(code int, body []byte) {
	ex.writeType(code, "application/json", body)
}

func (ex *exchange) writeType(code int, ctype string, body []byte) {
	h := ex.w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	ex.code = code
	ex.w.WriteHeader(code)
	_, _ = ex.w.Write(body) // a client that went away is not the server's error
}

// sanitize makes untrusted text safe to echo in a reply, a header or a log line: invalid
// UTF-8 and control characters (newlines, escapes, DEL, C1) are dropped, surrounding space
// trimmed, and the result cut to at most max bytes on a rune boundary.
func sanitize(s string, max int) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) {
			clean = false
			break
		}
	}
	if !clean {
		s = strings.Map(func(r rune) rune {
			if r == utf8.RuneError || unicode.IsControl(r) {
				return -1
			}
			return r
		}, strings.ToValidUTF8(s, ""))
	}
	s = strings.TrimSpace(s)
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

// oneLine is sanitize for messages that may span lines (a config error lists one problem a
// line): line breaks become "; " instead of vanishing, so the problems stay apart.
func oneLine(s string, max int) string {
	s = strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(s), "\r\n", "\n"), "\n", "; ")
	return sanitize(s, max)
}

// quoteForMessage quotes a short piece of request input (a path, a method) for an error
// message, sanitized and capped.
func quoteForMessage(s string) string { return strconv.Quote(sanitize(s, 200)) }

// mib renders a byte count in MiB for error messages ("1 MiB", "0.25 MiB").
func mib(n int64) string {
	x := float64(n) / (1 << 20)
	if x < 1 {
		return strconv.FormatFloat(x, 'g', 3, 64) + " MiB"
	}
	s := strconv.FormatFloat(x, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + " MiB"
}
