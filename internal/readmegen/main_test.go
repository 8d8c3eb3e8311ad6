package main

import (
	"strings"
	"testing"
)

func TestRegenerate(t *testing.T) {
	doc := "# x\n<!-- make readme-tables: guardian rules test -->\n```console\nstale\n```\n<!-- /make readme-tables -->\ntext\n" +
		"<!-- make readme-tables: guardian rules list | head 2 -->\n<!-- /make readme-tables -->\n" +
		"<!-- make readme-tables: printf '| a |\\n' -->\nold\n<!-- /make readme-tables -->\n"
	outputs := map[string]string{
		"guardian rules test": "1 examples, 0 failures\n",
		"guardian rules list": "ID\nr1\nr2\nr3\n",
		`printf '| a |\n'`:    "| a |\n",
	}
	got, n, err := Regenerate(doc, func(cmd string) (string, int, error) { return outputs[cmd], 0, nil })
	if err != nil {
		t.Fatal(err)
	}
	want := "# x\n<!-- make readme-tables: guardian rules test -->\n```console\n$ guardian rules test\n1 examples, 0 failures\n[exit 0]\n```\n<!-- /make readme-tables -->\ntext\n" +
		"<!-- make readme-tables: guardian rules list | head 2 -->\n```console\n$ guardian rules list\nID\nr1\n… (2 more lines)\n[exit 0]\n```\n<!-- /make readme-tables -->\n" +
		"<!-- make readme-tables: printf '| a |\\n' -->\n| a |\n<!-- /make readme-tables -->\n"
	if n != 3 || got != want {
		t.Errorf("Regenerate = %d blocks\n%s\nwant 3\n%s", n, got, want)
	}
	if _, _, err := Regenerate("<!-- make readme-tables: guardian x -->\n", nil); err == nil || !strings.Contains(err.Error(), "no <!-- /make readme-tables -->") {
		t.Errorf("unterminated block: err = %v", err)
	}
}
