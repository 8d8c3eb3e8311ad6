package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian/model/providertest"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/modelcheck")

// checkAllow is the verdict every provider's model gives the check's `git status`.
const checkAllow = `{"summary":"Shows the working tree status of the repository.","risk_level":"low","category":"read_only","user_authorization":"unknown","rationale":"git status only reads the repository.","safer_alternative":"","outcome":"allow"}`

var (
	latencyRE = regexp.MustCompile(`latency:( +)\d+ ms`)
	addrRE    = regexp.MustCompile(`http://127\.0\.0\.1:\d+`)
)

// maskCheck replaces what differs between runs — the latency and the test server's port — so
// that the golden files, and docs/models.md, hold the real output otherwise.
func maskCheck(s string) string {
	s = latencyRE.ReplaceAllString(s, "latency:${1}N ms")
	return addrRE.ReplaceAllString(s, "http://127.0.0.1:PORT")
}

// TestModelCheckProviders runs `guardian model check` against every provider's test server
// (package providertest: recorded from each provider's documentation) and the failures it
// advises on, and compares the output with testdata/modelcheck/NAME.txt. docs/models.md quotes
// each of these files, and the test holds it to them, so the documented output is the real one.
func TestModelCheckProviders(t *testing.T) {
	recorded, err := providertest.Load()
	if err != nil {
		t.Fatal(err)
	}
	type checkCase struct {
		name     string
		p        providertest.Provider
		extra    string // more [model] lines
		down     bool   // the server is not running
		wantCode int
	}
	var cases []checkCase
	for _, p := range append(recorded, providertest.Reproductions()...) {
		cases = append(cases, checkCase{name: p.Name, p: p})
	}
	repro := providertest.Reproductions()
	cases = append(cases,
		checkCase{name: "fail-cut-off", p: repro[0], extra: "max_tokens = 512", wantCode: exitInternal},
		checkCase{name: "fail-unreachable", p: repro[1], down: true, wantCode: exitInternal},
	)

	docs, err := os.ReadFile(filepath.Join("..", "..", "docs", "models.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := providertest.NewServer(tc.p, func() string { return checkAllow })
			base := srv.BaseURL()
			if tc.down {
				srv.Close()
			} else {
				t.Cleanup(srv.Close)
			}
			cfg := filepath.Join(t.TempDir(), "config.toml")
			body := fmt.Sprintf("[model]\nbase_url = %q\nmodel = %q\napi_key_env = \"PROVIDER_KEY\"\n", base, tc.p.Model)
			if tc.p.Azure {
				body += "azure = true\n"
			}
			if tc.extra != "" {
				body += tc.extra + "\n"
			}
			if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			d, out, errb := testDeps("")
			env := map[string]string{"HOME": "/home/dev", "PROVIDER_KEY": "sk-test"}
			d.getenv = func(k string) string { return env[k] }
			if code := run(context.Background(), []string{"--config", cfg, "model", "check"}, d); code != tc.wantCode {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out, errb)
			}
			got := maskCheck("$ guardian model check\n" + out.String())
			golden := filepath.Join("testdata", "modelcheck", tc.name+".txt")
			if *updateGolden {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (run with -update to accept):\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
			if !strings.Contains(string(docs), string(want)) {
				t.Errorf("docs/models.md does not quote %s verbatim", golden)
			}
		})
	}
}
