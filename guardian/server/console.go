package server

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"strings"
	"sync"
)

// The console's routes. The page and its two files need no token: the page asks for it
// (a login form, or ?token= once, traded for a session cookie) and the files hold nothing
// secret. Everything the page shows comes from the API routes, which do need it.
const (
	RouteRoot       = "/"
	RouteConsole    = "/console"
	RouteLogin      = "/console/login"
	RouteLogout     = "/console/logout"
	routeConsoleJS  = "/console/console.js"
	routeConsoleCSS = "/console/console.css"
)

// consoleFiles are the page, its script and its style sheet: plain files, no build step, no
// CDN — the console works on a machine without internet access.
//
//go:embed console/index.html console/console.js console/console.css console/login.html
var consoleFiles embed.FS

// loginPage is parsed on first use: the hook binaries link this package for its client, and
// their start-up must not pay for a page they never serve.
var loginPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.ParseFS(consoleFiles, "console/login.html"))
})

// consoleCSP allows the page its own script, style and API, and nothing else: no inline
// script, no other origin, no framing (clickjacking a Reset button), no form posted elsewhere.
const consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// writeAs writes a reply of the given content type with the headers every reply has, and,
// for HTML, those that keep the page to itself.
func (ex *exchange) writeAs(code int, ctype string, body []byte) {
	h := ex.w.Header()
	if strings.HasPrefix(ctype, "text/html") {
		h.Set("Content-Security-Policy", consoleCSP)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin") // no-referrer would make the browser send "Origin: null" on the login form
	}
	ex.writeType(code, ctype, body)
}

// root sends a browser from / to the console.
func (s *Server) root(ex *exchange) {
	ex.w.Header().Set("Location", RouteConsole)
	ex.writeAs(http.StatusSeeOther, "text/plain; charset=utf-8", []byte("see "+RouteConsole+"\n"))
}

// console answers GET /console: the page, or — when the server has a token and the browser
// no session — the login form. ?token=T logs in with T and redirects to the bare /console, so
// the token does not stay in the address bar or the history.
func (s *Server) console(ex *exchange) {
	if s.token != nil {
		if via, _, ok := s.authenticate(ex.r); !ok || via != authCookie {
			q := ex.r.URL.Query()
			if !q.Has("token") {
				s.loginForm(ex, http.StatusOK, "")
				return
			}
			s.login(ex, q.Get("token"))
			return
		}
	}
	s.consoleFile(ex, "console/index.html", "text/html; charset=utf-8")
}

// loginPost answers POST /console/login: the form's token, traded for a session cookie.
func (s *Server) loginPost(ex *exchange) {
	if s.token == nil {
		s.seeConsole(ex)
		return
	}
	ex.r.Body = http.MaxBytesReader(ex.w, ex.r.Body, maxSmallBody)
	if err := ex.r.ParseForm(); err != nil {
		s.loginForm(ex, http.StatusBadRequest, "The form could not be read; try again.")
		return
	}
	s.login(ex, ex.r.PostForm.Get("token"))
}

// login checks tok and, when it is the server's token, starts a session.
func (s *Server) login(ex *exchange, tok string) {
	if !s.token.checkToken(tok) {
		ex.errCode = CodeUnauthorized
		s.loginForm(ex, http.StatusUnauthorized, "That is not the token guardian serve was started with.")
		return
	}
	s.setSession(ex.w, ex.r)
	s.seeConsole(ex)
}

// logout answers POST /console/logout: the cookies are removed.
func (s *Server) logout(ex *exchange) {
	clearSession(ex.w)
	s.seeConsole(ex)
}

func (s *Server) seeConsole(ex *exchange) {
	ex.w.Header().Set("Location", RouteConsole)
	ex.writeAs(http.StatusSeeOther, "text/plain; charset=utf-8", []byte("see "+RouteConsole+"\n"))
}

// loginForm renders the login page with an optional error.
func (s *Server) loginForm(ex *exchange, code int, msg string) {
	var b bytes.Buffer
	if err := loginPage().Execute(&b, struct{ Error, Action string }{msg, RouteLogin}); err != nil {
		ex.err = err
		ex.fail(http.StatusInternalServerError, CodeInternal, "cannot render the login page: "+err.Error())
		return
	}
	ex.writeAs(code, "text/html; charset=utf-8", b.Bytes())
}

func (s *Server) consoleScript(ex *exchange) {
	s.consoleFile(ex, "console/console.js", "text/javascript; charset=utf-8")
}

func (s *Server) consoleStyle(ex *exchange) {
	s.consoleFile(ex, "console/console.css", "text/css; charset=utf-8")
}

func (s *Server) consoleFile(ex *exchange, name, ctype string) {
	b, err := consoleFiles.ReadFile(name)
	if err != nil { // unreachable: the files are embedded
		ex.err = err
		ex.fail(http.StatusInternalServerError, CodeInternal, "console file missing: "+err.Error())
		return
	}
	ex.writeAs(http.StatusOK, ctype, b)
}
