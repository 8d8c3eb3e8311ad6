package client_test

import (
	"strings"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian/model/client"
)

func TestConfigFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		ok      bool
		want    client.Config
		wantErr string
	}{
		{name: "nothing: rules only", env: nil},
		{name: "an API key alone: rules only", env: map[string]string{"OPENAI_API_KEY": "sk-x"}},
		{name: "local server", env: map[string]string{"GUARDIAN_MODEL_BASE_URL": "http://127.0.0.1:11434/v1", "GUARDIAN_MODEL": "qwen3"},
			ok: true, want: client.Config{BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen3"}},
		{name: "OpenAI with fallback key and timeout", env: map[string]string{"GUARDIAN_MODEL": "gpt-x", "OPENAI_API_KEY": "sk-o", "GUARDIAN_MODEL_TIMEOUT": "1500ms"},
			ok: true, want: client.Config{Model: "gpt-x", APIKey: "sk-o", Timeout: 1500 * time.Millisecond}},
		{name: "GUARDIAN_API_KEY wins", env: map[string]string{"GUARDIAN_MODEL": "gpt-x", "OPENAI_API_KEY": "sk-o", "GUARDIAN_API_KEY": "sk-g"},
			ok: true, want: client.Config{Model: "gpt-x", APIKey: "sk-g"}},
		{name: "base URL without model", env: map[string]string{"GUARDIAN_MODEL_BASE_URL": "http://localhost:8000/v1"}, wantErr: "GUARDIAN_MODEL is not"},
		{name: "OpenAI without key", env: map[string]string{"GUARDIAN_MODEL": "gpt-x"}, wantErr: "API key"},
		{name: "bad timeout", env: map[string]string{"GUARDIAN_MODEL": "m", "GUARDIAN_MODEL_BASE_URL": "http://h/v1", "GUARDIAN_MODEL_TIMEOUT": "3"}, wantErr: "GUARDIAN_MODEL_TIMEOUT"},
		{name: "negative timeout", env: map[string]string{"GUARDIAN_MODEL": "m", "GUARDIAN_MODEL_BASE_URL": "http://h/v1", "GUARDIAN_MODEL_TIMEOUT": "-1s"}, wantErr: "GUARDIAN_MODEL_TIMEOUT"},
		{name: "bad URL", env: map[string]string{"GUARDIAN_MODEL": "m", "GUARDIAN_MODEL_BASE_URL": "localhost:8000"}, wantErr: "scheme"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, ok, err := client.ConfigFromEnv(func(k string) string { return tc.env[k] })
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one mentioning %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || ok != tc.ok || cfg != tc.want {
				t.Fatalf("got %+v, %v, %v; want %+v, %v", cfg, ok, err, tc.want, tc.ok)
			}
		})
	}
}

func TestNewValidates(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  client.Config
		opts []client.Option
	}{
		{"no model", client.Config{BaseURL: "http://h/v1"}, nil},
		{"azure without URL", client.Config{Model: "d", Azure: true}, nil},
		{"temperature", client.Config{Model: "m", Temperature: 3}, nil},
		{"backoff", client.Config{Model: "m"}, []client.Option{client.WithBackoff(0, time.Second)}},
		{"attempts", client.Config{Model: "m"}, []client.Option{client.WithMaxAttempts(0)}},
	} {
		if _, err := client.New(tc.cfg, tc.opts...); err == nil {
			t.Errorf("%s: New accepted %+v", tc.name, tc.cfg)
		}
	}
	rev, err := client.New(client.Config{Model: "m", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if c := rev.Config(); c.BaseURL != client.DefaultOpenAIBaseURL || c.MaxTokens != client.DefaultMaxTokens || c.Temperature != client.DefaultTemperature {
		t.Errorf("defaults not applied: %+v", c)
	}
}
