package prompts

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// PolicyMode says how the operator's policy text combines with a template's built-in policy
// section. It is explicit, because "add a rule" and "take over the whole policy" are very
// different changes and a config file must not be able to make the second by accident.
type PolicyMode string

// The policy modes. The zero value, ModeNone, means the built-in policy alone.
const (
	// ModeNone keeps the built-in policy; Policy.Text must then be empty.
	ModeNone PolicyMode = ""
	// ModeAppend adds the text after the built-in policy, as the operator's policy, which
	// wins where the two conflict.
	ModeAppend PolicyMode = "append"
	// ModeReplace uses the text instead of the built-in policy section. The untrusted-data
	// rules, the risk vocabulary and the output format stay: they are not policy but the
	// contract between guardian and the model.
	ModeReplace PolicyMode = "replace"
)

// MaxPolicyBytes bounds the operator's policy text. It is sent with every review, so a
// runaway file would cost tokens on each request; 16 KiB is several pages of rules.
const MaxPolicyBytes = 16 << 10

// ParsePolicyMode reads a mode from config ("append" or "replace"; "" or "none" for none).
// Anything else is an error naming the accepted values.
func ParsePolicyMode(s string) (PolicyMode, error) {
	switch PolicyMode(s) {
	case ModeNone, ModeAppend, ModeReplace:
		return PolicyMode(s), nil
	case "none":
		return ModeNone, nil
	}
	return "", fmt.Errorf("unknown policy mode %q (want append or replace)", s)
}

// UnmarshalText implements encoding.TextUnmarshaler, so a TOML config with an unknown mode
// fails to load instead of silently falling back to the built-in policy.
func (m *PolicyMode) UnmarshalText(b []byte) error {
	v, err := ParsePolicyMode(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// Policy is the operator's policy text from config and how it combines with the built-in
// policy of each template. The zero value means the built-in policy alone.
type Policy struct {
	// Text is the operator's policy: plain prose or a list of rules, in the operator's words.
	// It is trusted (it comes from config, not from a request) and inserted verbatim, never
	// parsed as a template.
	Text string `toml:"text" json:"text,omitempty"`
	// Mode is ModeAppend or ModeReplace when Text is set, ModeNone otherwise.
	Mode PolicyMode `toml:"mode" json:"mode,omitempty"`
}

// Validate reports a policy that cannot be rendered: an unknown mode, text without a mode (an
// ambiguous config), a mode without text, or text over MaxPolicyBytes.
func (p Policy) Validate() error {
	text := strings.TrimSpace(p.Text)
	switch p.Mode {
	case ModeNone:
		if text != "" {
			return errors.New("policy text is set but its mode is not: set mode to append or replace")
		}
		return nil
	case ModeAppend, ModeReplace:
		if text == "" {
			return fmt.Errorf("policy mode %q needs policy text", p.Mode)
		}
	default:
		return fmt.Errorf("unknown policy mode %q (want append or replace)", p.Mode)
	}
	if len(p.Text) > MaxPolicyBytes {
		return fmt.Errorf("policy text is %d bytes, the limit is %d", len(p.Text), MaxPolicyBytes)
	}
	return nil
}

// Hash identifies the policy for cache keys and the audit record: the first HashLen hex
// characters of the SHA-256 of mode and text, or "" for the built-in policy alone. Together
// with the template's ID and Hash it pins the whole system prompt.
func (p Policy) Hash() string {
	if p.Mode == ModeNone {
		return ""
	}
	h := sha256.Sum256([]byte(string(p.Mode) + "\x00" + strings.TrimSpace(p.Text)))
	return hex.EncodeToString(h[:])[:HashLen]
}
