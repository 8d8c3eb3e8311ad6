package model

import (
	"strings"
	"unicode/utf8"
)

// MaxReasoningBytes caps a reasoning block set aside by SplitReasoning. Local reasoning models
// think for a few thousand tokens on a short review; a block over this cap is a model in a
// loop, and the cap keeps memory bounded before the verdict is looked at.
const MaxReasoningBytes = 256 << 10

// reasoningTags are the tags local reasoning models wrap their thinking in: <think> (Qwen3,
// DeepSeek-R1 and its distills, QwQ, most GGUF chat templates), <thinking> and <reasoning>
// (fine-tunes and prompt-taught models).
var reasoningTags = []string{"think", "thinking", "reasoning"}

// SplitReasoning sets aside the reasoning a model wrote before its answer, so that Parse sees
// the answer alone. Reasoning models served without a reasoning parser (Ollama's older
// releases, llama.cpp with --reasoning-format none, vLLM without --reasoning-parser, LM Studio)
// put "<think>…</think>" in the content before the JSON; chat templates that pre-fill the
// opening tag (DeepSeek-R1 distills, Qwen3 on some servers) leave only the closing "</think>".
//
// The reasoning is never parsed for a verdict: it is text the model wrote while reading
// untrusted input, and may quote a forged verdict. What follows the block must be the answer
// and only the answer (Parse then applies its usual strictness), so a split in the wrong place
// can only produce bad output, never a different verdict.
//
// The forms accepted, after leading whitespace:
//   - "<think>R</think>A" (or <thinking>, <reasoning>): the block must open the content and
//     close with the same tag; R is the first closing tag's prefix, A the rest.
//   - "R</think>A" with no opening tag, only when the content does not start like an answer
//     ("{" or a code fence): the pre-filled form.
//
// Content with no reasoning block is returned unchanged with an empty reasoning. A block that
// opens and never closes is an error (the answer was cut off mid-thought, or the model never
// answered); so is a block over MaxReasoningBytes. Errors are *BadOutputError.
func SplitReasoning(content string) (reasoning, answer string, err error) {
	s := strings.TrimLeft(content, " \t\r\n")
	for _, tag := range reasoningTags {
		open, closing := "<"+tag+">", "</"+tag+">"
		if !strings.HasPrefix(s, open) {
			continue
		}
		end := strings.Index(s, closing)
		if end < 0 {
			if len(s) > MaxReasoningBytes {
				return "", "", bad("reasoning block %s is over %d bytes and never closes", open, MaxReasoningBytes)
			}
			return "", "", bad("reasoning block %s never closes: the model was cut off while thinking, or never answered", open)
		}
		r := s[len(open):end]
		if len(r) > MaxReasoningBytes {
			return "", "", bad("reasoning block %s is %d bytes, over the %d-byte cap", open, len(r), MaxReasoningBytes)
		}
		return strings.TrimSpace(r), s[end+len(closing):], nil
	}
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "```") {
		return "", content, nil
	}
	const closing = "</think>"
	end := strings.Index(s, closing)
	if end < 0 {
		return "", content, nil
	}
	r := s[:end]
	if len(r) > MaxReasoningBytes {
		return "", "", bad("reasoning before %s is %d bytes, over the %d-byte cap", closing, len(r), MaxReasoningBytes)
	}
	return strings.TrimSpace(r), s[end+len(closing):], nil
}

// CapReasoning cuts reasoning to at most n bytes on a rune boundary, marking the cut, for the
// audit record: enough to see why the model decided, never the whole of a runaway block.
func CapReasoning(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = " …[cut]"
	cut := max(n-len(mark), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}
