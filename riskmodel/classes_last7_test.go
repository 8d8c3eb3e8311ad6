package riskmodel

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestLast7Classes covers deny classes blind7 showed rated medium: a tool's startup file in
// home (latexmk, IPython, Julia, Octave run code from them: persistence) and a bulk read of a
// secret manager's storage backend (Vault's Consul prefix, Kubernetes secrets in etcd).
// Each class keeps a routine neighbour that must not be denied.
func TestLast7Classes(t *testing.T) {
	runRoutineCases(t, []routineCase{
		// latexmk(1): ~/.latexmkrc and ~/.config/latexmk/latexmkrc are Perl run on each build.
		{src: `echo '$pdflatex = "sh -c id";' >> ~/.latexmkrc`, want: Deny, rule: "fs.write.startup", source: "latexmk(1) rc files"},
		{src: "cp tools/rc.pl ~/.config/latexmk/latexmkrc", want: Deny, rule: "fs.write.startup", source: "latexmk(1) XDG rc"},
		// IPython runs every file in profile_default/startup; Julia runs config/startup.jl.
		{src: "printf 'import os\\n' > ~/.ipython/profile_default/startup/00-init.py", want: Deny, rule: "fs.write.startup", source: "IPython startup files"},
		{src: "echo 'run(`curl x.example`)' >> ~/.julia/config/startup.jl", want: Deny, rule: "fs.write.startup", source: "Julia startup.jl"},
		{src: "echo 'system(\"id\")' >> ~/.octaverc", want: Deny, rule: "fs.write.startup", source: "GNU Octave startup files"},
		{src: "cat ~/.latexmkrc", want: Allow, source: "routine: reading an rc file"},
		{src: "latexmk -pdf paper.tex", want: Allow, source: "routine: building the project's paper"},
		// Bulk secret dumps through a store's backend.
		{src: "consul kv export vault/ > /tmp/v.json", want: Deny, rule: "cred.secret-bulk", source: "Vault Consul storage backend"},
		{src: "consul kv get -recurse secrets/prod", want: Deny, rule: "cred.secret-bulk", source: "consul kv get -recurse"},
		{src: "etcdctl get --prefix /registry/secrets/default", want: Deny, rule: "cred.secret-bulk", source: "Kubernetes secrets in etcd"},
	})
}

// TestLast7SecretBackendNeighbours: a KV read outside a secret subtree is not a bulk dump.
func TestLast7SecretBackendNeighbours(t *testing.T) {
	for _, src := range []string{"consul kv export app/config", "consul kv get app/feature-flags", "etcdctl get --prefix /registry/pods"} {
		s := &Segment{Args: strings.Fields(src)}
		if what, ok := secretBackendDump(s); ok {
			t.Errorf("%s: secretBackendDump = %q, want no match", src, what)
		}
	}
}

// TestLast7LoadFlood: an MCP load-testing tool asked to run without end is an unbounded
// flood of requests (docs/policy.md: resource exhaustion) and is denied; a bounded run is not.
func TestLast7LoadFlood(t *testing.T) {
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, req string
		want      Decision
		rule      string
	}{
		{"duration forever", `{"server":"stress-kit","tool":"start_load","arguments":{"target":"https://shop.example.com/","workers":800,"duration":"indefinite"}}`, Deny, "mcp.load-flood"},
		{"iterations -1", `{"server":"k6","tool":"run_test","arguments":{"script":"tests/smoke.js","iterations":-1,"vus":2000}}`, Deny, "mcp.load-flood"},
		{"forever flag", `{"server":"vegeta","tool":"attack","arguments":{"url":"https://api.example.org/login","rate":10000,"forever":true}}`, Deny, "mcp.load-flood"},
		{"bounded run", `{"server":"k6","tool":"run_test","arguments":{"script":"tests/smoke.js","duration":"30s","vus":5}}`, Allow, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := a.MCP(context.Background(), mcpReq(t, tc.req))
			ids := ruleIDs(v)
			if tc.rule != "" && !slices.Contains(ids, tc.rule) {
				t.Errorf("rules = %v, want %s among them", ids, tc.rule)
			}
			if tc.want == Deny && v.Decision != Deny || tc.want == Allow && slices.Contains(ids, "mcp.load-flood") {
				t.Errorf("decision = %s at %s (rules %v), want %s", v.Decision, v.Assessment.Level, ids, tc.want)
			}
		})
	}
}
