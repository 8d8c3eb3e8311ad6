package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRulesCatalogListsCommands: `rules catalog` lists the command catalogue beside paths,
// vendors and services, in the table and in --json, each command with its class and source.
func TestRulesCatalogListsCommands(t *testing.T) {
	d, out, errb := testDeps("")
	if code := runEvalCLI(d, "rules", "catalog"); code != 0 {
		t.Fatalf("exit %d; stderr %s", code, errb)
	}
	for _, want := range []string{"COMMAND", "hey", "local_net", "tldr-pages: pages/common/hey.md", "mkcert", "(not with -install -uninstall)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q", want)
		}
	}
	d, out, errb = testDeps("")
	if code := runEvalCLI(d, "rules", "catalog", "--json"); code != 0 {
		t.Fatalf("exit %d; stderr %s", code, errb)
	}
	var v struct {
		Paths    []json.RawMessage `json:"paths"`
		Commands []struct {
			Name, Class, Source string
			Exclude             []string
		} `json:"commands"`
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Paths) == 0 || len(v.Commands) == 0 {
		t.Fatalf("paths %d, commands %d", len(v.Paths), len(v.Commands))
	}
	found := false
	for _, c := range v.Commands {
		if c.Name == "" || c.Class == "" || c.Source == "" {
			t.Errorf("command entry without name, class or source: %+v", c)
		}
		if c.Name == "mkcert" && len(c.Exclude) > 0 {
			found = true
		}
	}
	if !found {
		t.Error("mkcert's exclude list is missing from --json")
	}
}
