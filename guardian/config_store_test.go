package guardian

import (
	"strings"
	"testing"
)

func TestConfigStoreAndAuditOTLP(t *testing.T) {
	tests := []struct {
		name    string
		toml    string
		wantErr string
		check   func(t *testing.T, c Config)
	}{
		{"no store", ``, "", func(t *testing.T, c Config) {
			if c.Store != (StoreConfig{}) || c.Audit.OTLP != nil {
				t.Errorf("defaults: %+v %+v", c.Store, c.Audit.OTLP)
			}
		}},
		{"redis", "[store]\nurl = \"redis://redis:6379/0\"\nprefix = \"team1\"\n", "", func(t *testing.T, c Config) {
			if c.Store.URL != "redis://redis:6379/0" || c.Store.Prefix != "team1" {
				t.Errorf("store: %+v", c.Store)
			}
		}},
		{"local", "[store]\nurl = \"local\"\n", "", func(t *testing.T, c Config) {
			if c.Store.URL != "" {
				t.Errorf("local store URL %q, want empty", c.Store.URL)
			}
		}},
		{"bad scheme", "[store]\nurl = \"http://redis:6379\"\n", `unknown scheme "http"`, nil},
		{"password not echoed", "[store]\nurl = \"ftp://u:hunter2@redis:6379\"\n", `unknown scheme "ftp"`, nil},
		{"prefix with a space", "[store]\nprefix = \"a b\"\n", "want a non-empty word", nil},
		{"otlp", "[audit.otlp]\nendpoint = \"https://collector:4318\"\nheaders = { authorization = \"env:TOKEN\" }\n", "", func(t *testing.T, c Config) {
			o := c.Audit.OTLP
			if o == nil || o.Endpoint != "https://collector:4318" || o.Headers["authorization"] != "env:TOKEN" || o.Insecure {
				t.Errorf("otlp: %+v", o)
			}
		}},
		{"otlp plain http", "[audit.otlp]\nendpoint = \"http://collector:4318\"\n", "plain HTTP", nil},
		{"otlp plain http, insecure", "[audit.otlp]\nendpoint = \"http://collector:4318\"\ninsecure = true\n", "", nil},
		{"otlp without endpoint", "[audit.otlp]\ninsecure = true\n", "needs endpoint", nil},
		{"otlp header value type", "[audit.otlp]\nendpoint = \"https://c\"\nheaders = { x = 1 }\n", "audit.otlp.headers", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseConfig("config.toml", []byte(tc.toml))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want it to contain %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "hunter2") {
					t.Errorf("the error shows the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.check != nil {
				tc.check(t, c)
			}
		})
	}
}
