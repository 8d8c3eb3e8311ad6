// Package riskmodel holds guardian's risk vocabulary and its embedded, offline reviewer: a real
// shell parser that splits a command into segments, built-in rules that know commands by
// behaviour, the MCP request analysis, and the mapping from risk level to decision.
//
// It has no I/O and no model: it is the deterministic first stage of every review and the whole
// review when no model is configured.
package riskmodel

import (
	"fmt"
	"strings"
)

// Level is how much harm a request can do. Levels are ordered: Low < Medium < High < Critical,
// so the most severe of several findings is simply the largest.
type Level uint8

// The risk levels of docs/design.md. The zero value is not a level, so a forgotten field is caught
// when it is marshalled rather than silently read as "low".
const (
	Low Level = iota + 1
	Medium
	High
	Critical
)

var levelNames = [...]string{Low: "low", Medium: "medium", High: "high", Critical: "critical"}

// Levels lists every level from least to most severe.
func Levels() []Level { return []Level{Low, Medium, High, Critical} }

// String returns the wire name ("low", …) or "invalid(N)".
func (l Level) String() string {
	if l >= Low && l <= Critical {
		return levelNames[l]
	}
	return fmt.Sprintf("invalid(%d)", uint8(l))
}

// ParseLevel reads a wire name; the error lists the accepted names so a config or dataset
// author can fix the value.
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels() {
		if s == levelNames[l] {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown risk level %q (want one of %s)", s, strings.Join(levelNames[1:], ", "))
}

// MarshalText implements encoding.TextMarshaler; an invalid level is an error, never "".
func (l Level) MarshalText() ([]byte, error) {
	if l < Low || l > Critical {
		return nil, fmt.Errorf("cannot marshal risk level %d", uint8(l))
	}
	return []byte(levelNames[l]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}
