package main

import (
	"strings"
	"testing"
)

// TestReviewJSONReadsKeysExactly pins security findings F2 and F7 for `guardian review --json -`:
// a request whose keys differ only in case, or repeat, is refused (exit 3) rather than
// reviewed as whichever key encoding/json would have kept.
func TestReviewJSONReadsKeysExactly(t *testing.T) {
	for _, tc := range []struct{ name, stdin, want string }{
		{"case variant of command", `{"kind":"exec","request":{"command":["rm","-rf","/"],"Command":["ls"]}}`, `"Command" is not "command"`},
		{"COMMAND alone", `{"kind":"exec","request":{"COMMAND":["ls"]}}`, `is not "command"`},
		{"duplicate command", `{"kind":"exec","request":{"command":["rm","-rf","/"],"command":["ls"]}}`, `duplicate key "request.command"`},
		{"duplicate kind", `{"kind":"mcp","kind":"exec","request":{"command":["ls"]}}`, `duplicate key "kind"`},
		{"duplicate via an escape", `{"kind":"exec","\u006bind":"exec","request":{"command":["ls"]}}`, `duplicate key "kind"`},
		{"duplicate MCP argument", `{"kind":"mcp","request":{"server":"gh","tool":"t","arguments":{"repo":"a","repo":"b"}}}`, `duplicate key "request.arguments.repo"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, submitted, err := parse(t, []string{"review", "--json", "-"}, tc.stdin)
			if err == nil || submitted {
				t.Fatalf("err %v, submitted %v: want a refusal", err, submitted)
			}
			if got := exitCode(err); got != exitInvalid {
				t.Errorf("exit code %d, want %d", got, exitInvalid)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}
