package server_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// chromiumPath is where Debian's chromium package puts the browser (.ci/run installs it).
const chromiumPath = "/usr/bin/chromium"

// envNoChromium, set to 1, says this machine has no Chromium: the browser tests skip instead
// of failing. Without it a missing browser is a failure, so CI cannot silently stop testing
// the console.
const envNoChromium = "GUARDIAN_NO_CHROMIUM"

// browser starts a headless Chromium with a fresh profile and returns a tab's context.
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv(envNoChromium) == "1" {
			t.Skipf("%s=1: no Chromium on this machine; the console's browser tests did not run", envNoChromium)
		}
		t.Fatalf("%s not found (%v): install it (apt-get install chromium), or set %s=1 on a machine that cannot have it", chromiumPath, err, envNoChromium)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	t.Cleanup(acancel)
	tctx, tcancel := chromedp.NewContext(actx)
	t.Cleanup(tcancel)
	return tctx
}

// screenshotDir is where the console's screenshots go: $GUARDIAN_SCREENSHOTS, else
// $TMPDIR/guardian-console-screenshots.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("GUARDIAN_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "guardian-console-screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(screenshotDir(t), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// poll waits until the JavaScript expression is truthy in the page, failing with what.
func poll(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
		t.Fatalf("waiting for %s (%s): %v\npage text:\n%s", what, expr, err, body)
	}
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// submit submits the form of the element sel and waits for the page it leads to to load.
func submit[S chromedp.Selectable](t *testing.T, ctx context.Context, sel S) {
	t.Helper()
	loaded := chromedp.Events(ctx, page.LoadEventFired)
	if err := chromedp.Do(ctx, chromedp.Submit(sel)); err != nil {
		t.Fatal(err)
	}
	for _, err := range loaded {
		if err != nil {
			t.Fatalf("waiting for the page after submitting: %v", err)
		}
		break
	}
}

// review posts one exec review through the API, as a hook would, with the bearer token.
func review(t *testing.T, c *server.Client, caller guardian.Caller, command ...string) {
	t.Helper()
	req := guardian.ExecRequest(riskmodel.ExecRequest{Command: command, Cwd: "/home/dev/app"})
	if _, err := c.Decide(context.Background(), req, caller); err != nil {
		t.Fatalf("review %q: %v", command, err)
	}
}

// TestConsoleInChromium drives the console in a real headless Chromium: the login (a wrong
// token refused, the right one traded for an HttpOnly cookie), decisions made through the API
// appearing live, untrusted text shown as text, the four filters, the breaker reset, CSRF on
// state-changing calls, and the layout on a laptop and a phone (screenshots).
func TestConsoleInChromium(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	br := &fakeBreakers{open: true}
	s, _ := consoleServer(token, br)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	client, err := server.NewClient(ts.URL, server.WithClientToken(token))
	if err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)

	// Log in: a wrong token is refused, the right one opens the console.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the login form", `document.getElementById('token') !== null`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("token"), "not-the-token-at-all")); err != nil {
		t.Fatal(err)
	}
	submit(t, ctx, chromedp.ID("token"))
	poll(t, ctx, "the wrong token's error", `document.getElementById('login-error') !== null`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("token"), token)); err != nil {
		t.Fatal(err)
	}
	submit(t, ctx, chromedp.ID("token"))
	poll(t, ctx, "the live event stream", `document.getElementById('live') && document.getElementById('live').textContent === 'live'`)
	if c := eval[string](t, ctx, `document.cookie`); !strings.Contains(c, server.CSRFCookie+"=") || strings.Contains(c, server.SessionCookie) {
		t.Errorf("document.cookie = %q: want the CSRF cookie readable and the session cookie HttpOnly", c)
	}

	// A decision made through the API appears live, its text as text.
	review(t, client, guardian.Caller{Host: "claude", Session: "s-1"}, "rm", "-rf", "<img src=x onerror=alert(1)>")
	poll(t, ctx, "the deny in the list", `[...document.querySelectorAll('#decision-list li.deny')].some(li => li.textContent.includes('<img src=x onerror=alert(1)>'))`)
	if n := eval[int](t, ctx, `document.querySelectorAll('#decision-list img').length`); n != 0 {
		t.Errorf("the request's text became %d img elements", n)
	}
	review(t, client, guardian.Caller{Host: "codex", Session: "s-2"}, "curl", "https://example.com/install.sh")
	review(t, client, guardian.Caller{Host: "claude", Session: "s-2"}, "git", "status")
	poll(t, ctx, "three decisions", `document.querySelectorAll('#decision-list li').length === 3`)
	poll(t, ctx, "the day's counts", `document.querySelector('#count-reviews .num').textContent === '3' && document.querySelector('#count-ask .num').textContent === '1'`)
	poll(t, ctx, "the asking rule", `document.getElementById('top-asking').textContent.includes('rule:test.curl')`)

	// The filters.
	filters := []struct {
		name, set, want string
	}{
		{"decision", `const s = document.getElementById('filter-decision'); s.value = 'ask'; s.dispatchEvent(new Event('change'))`, "ask"},
		{"host", `const s = document.getElementById('filter-decision'); s.value = ''; s.dispatchEvent(new Event('change'));
			const h = document.getElementById('filter-host'); h.value = 'codex'; h.dispatchEvent(new Event('input'))`, "ask"},
		{"session", `const h = document.getElementById('filter-host'); h.value = 'claude'; h.dispatchEvent(new Event('input'));
			const q = document.getElementById('filter-session'); q.value = 's-2'; q.dispatchEvent(new Event('input'))`, "allow"},
		{"rule", `for (const id of ['filter-host', 'filter-session']) { const e = document.getElementById(id); e.value = ''; e.dispatchEvent(new Event('input')); }
			const r = document.getElementById('filter-rule'); r.value = 'test.rm'; r.dispatchEvent(new Event('input'))`, "deny"},
	}
	for _, f := range filters {
		eval[chromedp.Void](t, ctx, `{`+f.set+`}`)
		poll(t, ctx, "the "+f.name+" filter", `(() => { const li = document.querySelectorAll('#decision-list li');
			return li.length === 1 && li[0].classList.contains('`+f.want+`'); })()`)
	}
	// A decision arriving while a filter is set is shown only when it matches.
	review(t, client, guardian.Caller{Host: "claude"}, "rm", "-r", "build")
	review(t, client, guardian.Caller{Host: "claude"}, "ls")
	poll(t, ctx, "the new matching deny", `document.querySelectorAll('#decision-list li').length === 2 && document.getElementById('shown').textContent === 'Showing 2 of 5.'`)
	eval[chromedp.Void](t, ctx, `{ const r = document.getElementById('filter-rule'); r.value = ''; r.dispatchEvent(new Event('input')); }`)
	poll(t, ctx, "every decision again", `document.querySelectorAll('#decision-list li').length === 5`)

	// CSRF: the page's own script, but without the header or with a wrong one, is refused.
	for _, header := range []string{`{}`, `{'X-Guardian-CSRF': 'forged'}`} {
		code := eval[int](t, ctx, `fetch('/v1/breakers/reset', {method: 'POST', headers: `+header+`, body: '{}'}).then(r => r.status)`)
		if code != 403 {
			t.Errorf("POST /v1/breakers/reset with headers %s: %d, want 403", header, code)
		}
	}
	if got := br.resetCalls(); len(got) != 0 {
		t.Fatalf("breakers reset without a valid CSRF header: %q", got)
	}

	// The breaker: open, then reset from the page.
	poll(t, ctx, "the open breaker", `document.getElementById('breaker-state').textContent.startsWith('OPEN')`)
	screenshot(t, ctx, "console-laptop.png")
	eval[chromedp.Void](t, ctx, `document.getElementById('breaker-reset').click()`)
	poll(t, ctx, "the closed breaker", `document.getElementById('breaker-state').textContent.startsWith('closed')`)
	if got := br.resetCalls(); len(got) != 1 || got[0] != "" {
		t.Errorf("reset calls %q, want one for all breakers", got)
	}
	// A breaker that opens after a review is pushed to the page.
	br.setOpen(true)
	review(t, client, guardian.Caller{Host: "claude"}, "rm", "x")
	poll(t, ctx, "the breaker event", `document.getElementById('breaker-state').textContent.startsWith('OPEN')`)

	// A phone: one column, nothing wider than the screen.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the phone layout", `document.documentElement.scrollWidth <= 390`)
	screenshot(t, ctx, "console-phone.png")

	// Logging out ends the session: the page is the login form again.
	submit(t, ctx, chromedp.CSS("#logout button"))
	poll(t, ctx, "the login form after logout", `document.getElementById('token') !== null`)
	if code := eval[int](t, ctx, `fetch('/v1/decisions').then(r => r.status)`); code != 401 {
		t.Errorf("GET /v1/decisions after logout: %d, want 401", code)
	}
}
