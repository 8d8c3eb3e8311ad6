package server_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// held is the outcome of a review a hook made with Guardian-Approval: queue.
type held struct {
	res guardian.Result
	err error
}

// holdReview starts one review as a hook that cannot prompt makes it (Guardian-Approval:
// queue) and returns where its answer will come.
func holdReview(c *server.Client, caller guardian.Caller, command ...string) <-chan held {
	out := make(chan held, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		req := guardian.ExecRequest(riskmodel.ExecRequest{Command: command, Cwd: "/home/dev/app"})
		res, err := c.Decide(ctx, req, caller)
		out <- held{res, err}
	}()
	return out
}

// released waits for a held review's answer.
func released(t *testing.T, what string, ch <-chan held) guardian.Result {
	t.Helper()
	select {
	case h := <-ch:
		if h.err != nil {
			t.Fatalf("%s: %v", what, h.err)
		}
		return h.res
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: the held review was not released", what)
	}
	return guardian.Result{}
}

// click clicks the element the CSS selector finds, in the page's own script.
func click(t *testing.T, ctx context.Context, css string) {
	t.Helper()
	// The page re-renders a row when an event or the countdown arrives, so its button may be
	// briefly absent or disabled: wait for an enabled one before clicking it.
	poll(t, ctx, "an enabled "+css, `(() => { const e = document.querySelector(`+"`"+css+"`"+`); return !!e && !e.disabled; })()`)
	if !eval[bool](t, ctx, `(() => { const e = document.querySelector(`+"`"+css+"`"+`); if (!e || e.disabled) return false; e.click(); return true; })()`) {
		t.Fatalf("no enabled %s to click", css)
	}
}

// TestConsoleApprovalsInChromium drives the console's approvals in a real headless Chromium
// against an in-process serve with an approval gate and an approver token: a request a hook
// holds (Guardian-Approval: queue) appears live; approving it from the page — which asks for
// the approver token, keeps it out of storage, and refuses a wrong one — releases the hook
// with allow; an approval with scope session becomes a grant in the grants panel that allows
// the next identical request without holding it; revoking it in the page makes the next one
// held again; a deny from the page releases it with deny and the reason. The day's counts show
// what people answered per rule. Screenshots of a waiting request on a laptop and a phone.
func TestConsoleApprovalsInChromium(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	const approverToken = "approver-fedcba9876543210"
	s, _, gate := consoleServerWith(token, &fakeBreakers{}, func(rec approval.Recorder, changes func(approval.Change)) *approval.Gate {
		return approval.NewGate(approval.NewMemoryStore(), rec, approval.WithWait(time.Minute), approval.WithChanges(changes))
	}, server.WithApproverToken(approverToken))
	defer gate.Stop()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	ts := srv.URL
	hooks, err := server.NewClient(ts, server.WithClientToken(token), server.WithApprovalMode(server.ApprovalQueue))
	if err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(ts+"/console?token="+token)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the live event stream", `document.getElementById('live') && document.getElementById('live').textContent === 'live'`)
	poll(t, ctx, "the empty queue", `document.getElementById('pending-count').textContent === 'Nothing is waiting.'`)
	poll(t, ctx, "no grants", `document.getElementById('grant-count').textContent === 'No grants.'`)
	eval[chromedp.Void](t, ctx, `{ const e = document.getElementById('answer-as'); e.value = 'alice'; e.dispatchEvent(new Event('input')); }`)

	caller := guardian.Caller{Host: "claude", Session: "s-9"}
	command := []string{"curl", "https://example.com/<img src=x onerror=alert(1)>"}
	row := `document.querySelector('#pending-list li.approval')`

	// 1. A held request appears live, with what asked, who asks, and how long it waits; its
	// text stays text.
	first := holdReview(hooks, caller, command...)
	poll(t, ctx, "the held request", row+` && `+row+`.textContent.includes('onerror=alert(1)') && `+row+`.textContent.includes('rule:test.curl') &&
		`+row+`.textContent.includes('session s-9') && `+row+`.textContent.includes('medium') && /waiting \d+s/.test(`+row+`.textContent)`)
	if n := eval[int](t, ctx, `document.querySelectorAll('#pending img').length`); n != 0 {
		t.Errorf("the request's text became %d img elements", n)
	}

	// 2. Approve once: the page asks for the approver token; a wrong one is refused, the right
	// one releases the hook with allow, and it is kept in no storage.
	click(t, ctx, `#pending-list li.approval button.approve`)
	poll(t, ctx, "the approver token form", `!document.getElementById('approver').hidden`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("approver-token"), "not-the-approver-token"), chromedp.Click(chromedp.ID("approver-use"))); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the wrong token refused", `!document.getElementById('approver').hidden && document.getElementById('approver-msg').textContent.includes('refused')`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("approver-token"), approverToken), chromedp.Click(chromedp.ID("approver-use"))); err != nil {
		t.Fatal(err)
	}
	if res := released(t, "approve once", first); res.Decision != riskmodel.Allow || res.Status != guardian.StatusHuman || res.DecidedBy != "human:alice" {
		t.Errorf("approved once: %s %s %s, want allow human human:alice", res.Decision, res.Status, res.DecidedBy)
	}
	poll(t, ctx, "the queue empty again", `document.getElementById('pending-count').textContent === 'Nothing is waiting.' && document.getElementById('approver').hidden`)
	if st := eval[string](t, ctx, `JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie`); strings.Contains(st, approverToken) {
		t.Errorf("the approver token was stored: %s", st)
	}

	// 3. Approve with scope session: a grant, shown in the grants panel, that answers the next
	// identical request at once.
	second := holdReview(hooks, caller, command...)
	poll(t, ctx, "the second held request", row+` !== null`)
	eval[chromedp.Void](t, ctx, `{ const s = `+row+`.querySelector('select.scope'); s.value = 'session'; }`)
	click(t, ctx, `#pending-list li.approval button.approve`)
	if res := released(t, "approve for the session", second); res.Decision != riskmodel.Allow || res.Status != guardian.StatusHuman {
		t.Errorf("approved for the session: %s %s, want allow human", res.Decision, res.Status)
	}
	poll(t, ctx, "the grant", `(() => { const g = document.querySelectorAll('#grant-list li.grant');
		return g.length === 1 && g[0].textContent.includes('claude session s-9') && g[0].textContent.includes('onerror=alert(1)') && g[0].textContent.includes('by alice'); })()`)
	if res := released(t, "the request the grant covers", holdReview(hooks, caller, command...)); res.Decision != riskmodel.Allow || res.Status != guardian.StatusGrant {
		t.Errorf("the request a grant covers: %s %s, want allow grant", res.Decision, res.Status)
	}

	// 4. Revoke it in the page: the next identical request is held again.
	click(t, ctx, `#grant-list li.grant button.revoke`)
	poll(t, ctx, "the grant revoked", `document.getElementById('grant-count').textContent === 'No grants.'`)
	if gs, err := hooks.Grants(context.Background()); err != nil || len(gs) != 0 {
		t.Fatalf("grants after the revoke: %v, %v", gs, err)
	}
	fourth := holdReview(hooks, caller, command...)
	poll(t, ctx, "the request held again", row+` !== null && document.getElementById('pending-count').textContent === '1 request is waiting.'`)

	// CSRF: the page's origin with the approver token but without the CSRF header is refused.
	if code := eval[int](t, ctx, `fetch('/v1/pending/' + `+row+`.dataset.id + '/approve', {method: 'POST',
		headers: {'Guardian-Approver-Token': '`+approverToken+`', 'Content-Type': 'application/json'}, body: '{"by":"mallory"}'}).then(r => r.status)`); code != 403 {
		t.Errorf("approve without the CSRF header: %d, want 403", code)
	}
	poll(t, ctx, "the day's answers", `(document.getElementById('top-asking') || {}).textContent?.includes('rule:test.curl asked 4, approved 3')`)
	screenshot(t, ctx, "console-approvals-laptop.png")
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	poll(t, ctx, "the phone layout", `document.documentElement.scrollWidth <= 390`)
	screenshot(t, ctx, "console-approvals-phone.png")

	// 5. Deny from the page, with a reason: the hook gets deny and the reason.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#pending-list li.approval input.reason`), "not during the freeze")); err != nil {
		t.Fatal(err)
	}
	click(t, ctx, `#pending-list li.approval button.deny`)
	res := released(t, "deny", fourth)
	if res.Decision != riskmodel.Deny || res.Status != guardian.StatusHuman || !strings.Contains(res.Assessment.Rationale, "not during the freeze") {
		t.Errorf("denied: %s %s %q, want deny human with the reason", res.Decision, res.Status, res.Assessment.Rationale)
	}
	poll(t, ctx, "the queue empty after the deny", `document.getElementById('pending-count').textContent === 'Nothing is waiting.'`)
	poll(t, ctx, "the refusal counted", `(document.getElementById('top-asking') || {}).textContent?.includes('asked 4, approved 3, refused 1')`)
}
