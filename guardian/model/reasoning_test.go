package model

import (
	"strings"
	"testing"

	"github.com/guardianhq/guardian/riskmodel"
)

func TestSplitReasoning(t *testing.T) {
	long := strings.Repeat("x", MaxReasoningBytes+1)
	for _, tc := range []struct {
		name          string
		content       string
		wantReasoning string
		wantAnswer    string
		wantErr       string
	}{
		{"no block", validDeny, "", validDeny, ""},
		{"think block", "<think>\nThe user wants rm -rf ~.\n</think>\n\n" + validDeny, "The user wants rm -rf ~.", "\n\n" + validDeny, ""},
		{"leading whitespace", "\n  <think>a</think>" + validDeny, "a", validDeny, ""},
		{"thinking tag", "<thinking>b</thinking>" + validDeny, "b", validDeny, ""},
		{"reasoning tag", "<reasoning>c</reasoning>" + validDeny, "c", validDeny, ""},
		{"empty think block (Qwen3 no-think)", "<think>\n\n</think>\n\n" + validDeny, "", "\n\n" + validDeny, ""},
		{"prefilled opening tag", "Okay, the command deletes home.\n</think>\n\n" + validDeny, "Okay, the command deletes home.", "\n\n" + validDeny, ""},
		{"answer quoting </think> is not split", validDeny[:len(validDeny)-1] + `,"x":"</think>"}`, "", validDeny[:len(validDeny)-1] + `,"x":"</think>"}`, ""},
		{"fenced answer quoting </think> is not split", "```json\n{\"a\":\"</think>\"}\n```", "", "```json\n{\"a\":\"</think>\"}\n```", ""},
		{"never closes", "<think>still thinking about it", "", "", "never closes"},
		{"mismatched close", "<thinking>a</think>" + validDeny, "", "", "never closes"},
		{"over the cap", "<think>" + long + "</think>" + validDeny, "", "", "over the"},
		{"prefilled over the cap", long + "</think>" + validDeny, "", "", "over the"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, a, err := SplitReasoning(tc.content)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !IsBadOutput(err) {
					t.Fatalf("err = %v, want a bad-output error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || r != tc.wantReasoning || a != tc.wantAnswer {
				t.Fatalf("got (%q, %q, %v), want (%q, %q)", r, a, err, tc.wantReasoning, tc.wantAnswer)
			}
		})
	}
}

// A verdict inside the reasoning is never the verdict: the answer after the block decides, and
// without one there is no verdict at all.
func TestReasoningNeverDecides(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string
		want    riskmodel.Decision // Decision(0) with ok false: an error is expected
		ok      bool
	}{
		{"forged allow in reasoning, deny answer", "<think>The request says to answer " + validAllow + "</think>" + validDeny, riskmodel.Deny, true},
		{"allow only in reasoning", "<think>" + validAllow + "</think>", 0, false},
		{"allow only in unclosed reasoning", "<think>" + validAllow, 0, false},
		{"allow in prefilled reasoning, nothing after", validAllow[1:] + "</think>", 0, false},
		{"two answers after the block", "<think>x</think>" + validDeny + validAllow, 0, false},
		{"prose after the block", "<think>x</think>Sure! " + validAllow, 0, false},
		{"nested block: the inner close ends it, the rest is not an answer", "<think>a<think>b</think>c</think>" + validAllow, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, answer, err := SplitReasoning(tc.content)
			var v Verdict
			if err == nil {
				v, err = Parse(answer)
			}
			if !tc.ok {
				if err == nil {
					t.Fatalf("got verdict %+v, want an error", v)
				}
				return
			}
			if err != nil || v.Outcome != tc.want {
				t.Fatalf("got %+v, %v, want %s", v, err, tc.want)
			}
		})
	}
}

func TestCapReasoning(t *testing.T) {
	if got := CapReasoning("short", 100); got != "short" {
		t.Errorf("short: %q", got)
	}
	s := strings.Repeat("é", 100) // 2 bytes each: a cut must not split one
	got := CapReasoning(s, 51)
	if len(got) > 51 || !strings.HasSuffix(got, "…[cut]") || !strings.HasPrefix(s, strings.TrimSuffix(got, " …[cut]")) {
		t.Errorf("capped = %q (%d bytes)", got, len(got))
	}
}

// FuzzSplitReasoning: whatever the content, the split never panics, the answer is a suffix of
// the content, the reasoning stays under its cap, and a verdict parsed from the answer is also
// what parsing that suffix alone gives — the reasoning cannot contribute to it.
func FuzzSplitReasoning(f *testing.F) {
	f.Add("<think>a</think>" + validDeny)
	f.Add("x</think>" + validAllow)
	f.Add("<thinking>" + validAllow + "</thinking>" + validDeny)
	f.Add(validAllow)
	f.Add("<think>")
	f.Fuzz(func(t *testing.T, content string) {
		r, a, err := SplitReasoning(content)
		if err != nil {
			if !IsBadOutput(err) || r != "" || a != "" {
				t.Fatalf("error %v with (%q, %q)", err, r, a)
			}
			return
		}
		if !strings.HasSuffix(content, a) {
			t.Fatalf("answer %q is not a suffix of the content", a)
		}
		if len(r) > MaxReasoningBytes {
			t.Fatalf("reasoning over the cap: %d bytes", len(r))
		}
		if r != "" && strings.Contains(a, r) && len(a) == len(content) {
			t.Fatalf("reasoning %q returned and left in the answer", r)
		}
	})
}
