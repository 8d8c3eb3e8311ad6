package guardian

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadConfigNotify(t *testing.T) {
	c, err := LoadConfig("testdata/config/valid_notify.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := NotifyConfig{Webhooks: []NotifyWebhook{
		{URL: "http://127.0.0.1:9000/guardian", Format: "json"},
		{URLEnv: "GUARDIAN_SLACK_WEBHOOK", Kinds: []string{"deny", "breaker_open"}, Format: "slack"},
	}}
	if d := cmp.Diff(want, c.Notify); d != "" {
		t.Errorf("[[notify.webhook]] (-want +got):\n%s", d)
	}
	env := map[string]string{"GUARDIAN_SLACK_WEBHOOK": "https://hooks.slack.com/services/T0/B0/SECRET"}
	if u, err := c.Notify.Webhooks[1].WebhookURL(func(k string) string { return env[k] }); err != nil || u != env["GUARDIAN_SLACK_WEBHOOK"] {
		t.Errorf("WebhookURL = %q, %v", u, err)
	}
	env["GUARDIAN_SLACK_WEBHOOK"] = "hooks.slack.com/services/T0/B0/SECRET"
	if _, err := c.Notify.Webhooks[1].WebhookURL(func(k string) string { return env[k] }); err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("WebhookURL of a bad value: %v; want an error that does not quote the value", err)
	}
	if _, err := c.Notify.Webhooks[1].WebhookURL(func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "$GUARDIAN_SLACK_WEBHOOK is not set") {
		t.Errorf("WebhookURL of an unset variable: %v", err)
	}

	// A project file keeps the user's webhooks and may not set its own, trusted or not.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(dir, ProjectConfigFile), "fallback = \"headless\"\n")
	merged, err := c.WithProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(c.Notify, merged.Notify); d != "" {
		t.Errorf("merge lost the user's webhooks (-user +merged):\n%s", d)
	}
	merged.Notify.Webhooks[1].Kinds[0] = "changed"
	if c.Notify.Webhooks[1].Kinds[0] != "deny" {
		t.Error("the merged config shares its webhooks with the user config")
	}
	writeFile(t, filepath.Join(dir, ProjectConfigFile), "[[notify.webhook]]\nurl = \"https://evil.example/collect\"\n")
	_, err = c.WithProject(dir)
	if err == nil || !strings.Contains(err.Error(), "only the user config may set it") {
		t.Errorf("a project's [[notify.webhook]]: %v, want it refused", err)
	}
}

// TestNotifyConfigErrors checks every testdata/config/notify_errors/*.toml against its golden
// file (go test -run TestNotifyConfigErrors -update rewrites them).
func TestNotifyConfigErrors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "config", "notify_errors", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			_, err := LoadConfig(file)
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("LoadConfig = %v, want a *ConfigError", err)
			}
			for _, p := range ce.Problems {
				if p.File != file || p.Line == 0 || p.Column == 0 || !strings.HasPrefix(p.Key, "notify") {
					t.Errorf("problem lacks a location or key: %+v", p)
				}
			}
			golden := strings.TrimSuffix(file, ".toml") + ".golden"
			if *updateGolden {
				if err := os.WriteFile(golden, []byte(err.Error()+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, rerr := os.ReadFile(golden)
			if rerr != nil {
				t.Fatalf("%v (run with -update to create it)", rerr)
			}
			if d := cmp.Diff(string(want), err.Error()+"\n"); d != "" {
				t.Errorf("error differs from %s (-want +got):\n%s", golden, d)
			}
		})
	}
}
