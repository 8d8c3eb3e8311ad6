package hook

import (
	"strings"
	"testing"
)

// TestClaudeOutcomeHooksRoundTrip: install puts guardian on PreToolUse and on every outcome
// event, verify's findings pass, and uninstall takes exactly guardian's hooks away again,
// leaving the user's own PostToolUse hook.
func TestClaudeOutcomeHooksRoundTrip(t *testing.T) {
	h, ok := Lookup("claude")
	if !ok {
		t.Fatal("no claude host")
	}
	user := `{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"log.sh"}]}]}}`
	files, err := h.Install([]File{{Path: "settings.json", Content: []byte(user)}}, cmdClaude, 10)
	if err != nil {
		t.Fatal(err)
	}
	settings := files[0].Content
	for _, event := range append([]string{EventPreToolUse}, ClaudeOutcomeEvents...) {
		hs, err := FindInstalled(settings, event, "claude")
		if err != nil || len(hs) != 1 {
			t.Fatalf("%s: %d guardian hooks (err %v), want 1:\n%s", event, len(hs), err, settings)
		}
		if event != EventPreToolUse && hs[0].OnFailure != "" {
			t.Errorf("%s: onFailure %q: an outcome hook must never stop the host", event, hs[0].OnFailure)
		}
	}
	for _, f := range claudeOutcomeFindings(settings, claudeReviewedTools) {
		if !f.OK {
			t.Errorf("verify after install: %s", f.Message)
		}
	}

	files, err = h.Uninstall(files)
	if err != nil {
		t.Fatal(err)
	}
	got := string(files[0].Content)
	if strings.Contains(got, "guardian") || !strings.Contains(got, "log.sh") {
		t.Errorf("after uninstall:\n%s\nwant only the user's log.sh hook", got)
	}
}

// TestClaudeOutcomeFindings: a settings file from before the outcome hooks (PreToolUse only),
// or with a matcher that misses a reviewed tool, fails verify with the way to fix it.
func TestClaudeOutcomeFindings(t *testing.T) {
	preOnly := `{"hooks":{"PreToolUse":[{"matcher":"` + ClaudeMatcher + `","hooks":[{"type":"command","command":"guardian hook claude","onFailure":"block"}]}]}}`
	narrow := `{"hooks":{` +
		`"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"guardian hook claude"}]}],` +
		`"PostToolUseFailure":[{"matcher":"Bash|mcp__.*","hooks":[{"type":"command","command":"guardian hook claude"}]}],` +
		`"PermissionDenied":[{"hooks":[{"type":"command","command":"guardian hook claude"}]}]}}`
	for _, tc := range []struct {
		name, settings string
		failing        []string
	}{
		{"pre-tool-use only", preOnly, ClaudeOutcomeEvents},
		{"narrow matchers", narrow, []string{"PostToolUse hook misses mcp__example__tool, Write", "PostToolUseFailure hook misses Write"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var failed []string
			for _, f := range claudeOutcomeFindings([]byte(tc.settings), claudeReviewedTools) {
				if !f.OK {
					failed = append(failed, f.Message)
					if !strings.Contains(f.Message, "guardian hook install claude --write") {
						t.Errorf("finding %q does not say how to fix it", f.Message)
					}
				}
			}
			if len(failed) != len(tc.failing) {
				t.Fatalf("failing findings %q, want %d", failed, len(tc.failing))
			}
			for i, want := range tc.failing {
				if !strings.Contains(failed[i], want) {
					t.Errorf("finding %q, want it to name %q", failed[i], want)
				}
			}
		})
	}
}

// TestParseRecordedOutcomes: the payloads Claude Code 2.1.328 gave guardian's outcome hooks in
// cmd/guardian/e2e's TestClaudeOutcome parse as reports that the call ran, tied to the ask by
// session and tool-use id.
func TestParseRecordedOutcomes(t *testing.T) {
	for _, tc := range []struct{ file, event, session string }{
		{"claude-posttooluse.json", "PostToolUse", "950b8995-ee06-432d-b06d-a9e47b9a8a4a"},
		{"claude-posttoolusefailure.json", "PostToolUseFailure", "37a3790d-b09a-4a64-b7f6-1ee90b32576e"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := Claude{}.Parse(fixture(t, tc.file), nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.Event != tc.event || c.Outcome != OutcomeRan || c.Caller.Host != "claude" ||
				c.Caller.Session != tc.session || c.Caller.Turn != "toolu_e2e00000000000000000001" {
				t.Errorf("parsed %+v, want event %s, outcome %s, session %s, turn toolu_e2e00000000000000000001", c, tc.event, OutcomeRan, tc.session)
			}
		})
	}
}
