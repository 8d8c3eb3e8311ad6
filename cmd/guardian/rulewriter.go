package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/guardianhq/guardian/guardian"
)

// userRule is one [[rule]] as `guardian allow` and `guardian block` write it to the user
// config. This file is the only place that knows the rule syntax on the writing side
// (docs/config.md#rules-rule), so a change of that syntax changes this file alone.
type userRule struct {
	Kind     string // "exec" or "mcp"
	Decision string // "allow" or "deny"
	Glob     string // exec: the whole argv of a segment; mcp: "server/tool"
	Reason   string
	Comment  string // one line above the table: what added it and from where
}

// id is the rule's id: stable for a decision, kind and pattern, so writing the same rule
// twice is noticed rather than duplicated.
func (r userRule) id() string {
	sum := sha256.Sum256([]byte(r.Kind + "\x00" + r.Glob))
	verb := "allow"
	if r.Decision == "deny" {
		verb = "block"
	}
	return "cli-" + verb + "-" + hex.EncodeToString(sum[:])[:8]
}

// text is the rule as TOML, with a blank line before it.
func (r userRule) text() string {
	var b strings.Builder
	b.WriteString("\n")
	if r.Comment != "" {
		b.WriteString("# " + strings.ReplaceAll(r.Comment, "\n", " ") + "\n")
	}
	b.WriteString("[[rule]]\n")
	b.WriteString("id = " + tomlString(r.id()) + "\n")
	if r.Kind == "mcp" {
		b.WriteString(`kind = "mcp"` + "\n")
	}
	b.WriteString("decision = " + tomlString(r.Decision) + "\n")
	b.WriteString("glob = " + tomlString(r.Glob) + "\n")
	if r.Reason != "" {
		b.WriteString("reason = " + tomlString(r.Reason) + "\n")
	}
	return b.String()
}

// tomlString is s as a TOML basic string: quotes and backslashes escaped, every control
// character as \uXXXX (TOML has no \x escape).
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// errRuleExists says the user config already holds the rule.
var errRuleExists = errors.New("the rule is already in the config")

// addUserRule appends r to the user config at path, leaving the rest of the file as it is.
// The result is checked as any config edit is — parsed and validated as the user config —
// before anything is written; an invalid result is refused with the config's own message.
// The previous file is kept as a backup and the new one is written atomically. It returns
// the backup's name ("" when the file did not exist).
func addUserRule(path string, r userRule) (backup string, err error) {
	old, err := readOptional(path)
	if err != nil {
		return "", err
	}
	if strings.Contains(string(old), "id = "+tomlString(r.id())) {
		return "", fmt.Errorf("%s: rule %s: %w", path, r.id(), errRuleExists)
	}
	content := append([]byte{}, old...)
	if len(content) > 0 && content[len(content)-1] != '\n' {
		content = append(content, '\n')
	}
	content = append(content, r.text()...)
	if err := checkConfigText(path, content); err != nil {
		return "", err
	}
	return replaceFile(path, old, content, 0o600)
}

// checkConfigText loads content as the user config at path would load, from a temporary
// file beside it, and reports its problems under path's name.
func checkConfigText(path string, content []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".check-*")
	if err != nil {
		return fmt.Errorf("check the new config: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(content)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		return fmt.Errorf("check the new config: %w", errors.Join(werr, cerr))
	}
	if _, err := guardian.LoadConfig(tmp.Name()); err != nil {
		msg := strings.ReplaceAll(err.Error(), tmp.Name(), path)
		return invalidError(fmt.Errorf("the config with the new rule would not load, so nothing was written:\n%s", msg))
	}
	return nil
}

// ruleComment says what added a rule and when.
func ruleComment(verb, from string, now time.Time) string {
	c := "added by guardian " + verb + " on " + now.UTC().Format("2006-01-02")
	if from != "" {
		c += " from " + from
	}
	return c
}
