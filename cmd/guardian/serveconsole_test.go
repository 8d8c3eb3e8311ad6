package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/notify"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestServeNotifiesAndStreams runs the real command with a webhook in the user config, whose
// URL comes from the environment: a deny made through the API is posted to the webhook (an
// allow is not), and appears on the event stream as its audit record.
func TestServeNotifiesAndStreams(t *testing.T) {
	got := make(chan notify.Event, 8)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var e notify.Event
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &e); err != nil {
			t.Errorf("webhook body %s: %v", b, err)
		}
		got <- e
	}))
	defer hook.Close()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	writeFile(t, cfg, "[[notify.webhook]]\nurl_env = \"HOOK_URL\"\nkinds = [\"deny\"]\n")
	sock := filepath.Join(t.TempDir(), "g.sock")
	log, _ := runningServe(t, serveEnv(dir, map[string]string{"HOOK_URL": hook.URL + "/secret-path"}), "--config", cfg, "--socket", sock, "--addr", "127.0.0.1:0")
	m := regexp.MustCompile(`listen=(127\.0\.0\.1:\d+)`).FindStringSubmatch(log.String())
	if m == nil {
		t.Fatalf("no TCP listener in the log:\n%s", log)
	}
	if !strings.Contains(log.String(), "console=http://"+m[1]+"/console") {
		t.Errorf("the start line does not give the console's address:\n%s", log)
	}
	resp, err := http.Get("http://" + m[1] + server.RouteEvents)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 64)
	if n, _ := resp.Body.Read(buf); !strings.Contains(string(buf[:n]), "retry:") { // subscribed
		t.Fatalf("event stream starts %q", buf[:n])
	}

	c, err := server.NewClient("unix://" + sock)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"ls"}, {"rm", "-rf", "/"}} {
		if _, err := c.Decide(context.Background(), guardian.ExecRequest(riskmodel.ExecRequest{Command: cmd, Cwd: dir}), guardian.Caller{Host: "claude", Session: "s1"}); err != nil {
			t.Fatal(err)
		}
	}
	e := <-got
	if e.Kind != notify.KindDeny || e.Host != "claude" || e.Session != "s1" || !strings.HasPrefix(e.DecidedBy, "rule:") ||
		!strings.Contains(e.Summary, "`rm -rf /`") || len(e.ID) != 16 {
		t.Errorf("webhook got %+v", e)
	}
	var rec struct{ ID string }
	if err := json.Unmarshal(e.Details, &rec); err != nil || rec.ID != e.ID {
		t.Errorf("details %s: want the audit record %s", e.Details, e.ID)
	}
	var stream strings.Builder
	for !strings.Contains(stream.String(), `"id":"`+e.ID+`"`) {
		n, err := resp.Body.Read(buf)
		if err != nil {
			t.Fatalf("event stream ended before the deny's record: %v\n%s", err, stream.String())
		}
		stream.Write(buf[:n])
	}
	if strings.Contains(log.String(), "secret-path") {
		t.Errorf("the log shows the webhook URL:\n%s", log)
	}
}

// TestServeRefusesUnsetWebhookURL: a webhook whose url_env is not set stops the start.
func TestServeRefusesUnsetWebhookURL(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	writeFile(t, cfg, "[[notify.webhook]]\nurl_env = \"HOOK_URL\"\n")
	d, _, stderr := testDeps("")
	d.getenv = serveEnv(dir, nil)
	if code := run(context.Background(), []string{"serve", "--config", cfg, "--socket", filepath.Join(dir, "g.sock")}, d); code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	if !strings.Contains(stderr.String(), "$HOOK_URL is not set") {
		t.Errorf("stderr: %s", stderr)
	}
}
