package client

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/guardianhq/guardian/guardian"

	openai "github.com/sashabaranov/go-openai"
)

func TestStartProfile(t *testing.T) {
	for _, tc := range []struct {
		model, baseURL string
		want           Profile
	}{
		{"gpt-5-mini", "https://api.openai.com/v1", Profile{Family: "openai-reasoning", Format: FormatJSONSchema, Seed: true, TokenField: TokensMaxCompletion, MaxTokens: DefaultReasoningMaxTokens, ReasoningEffort: "minimal", Reasoning: true}},
		{"gpt-5-nano-2025-08-07", "https://api.openai.com/v1", Profile{Family: "openai-reasoning", Format: FormatJSONSchema, Seed: true, TokenField: TokensMaxCompletion, MaxTokens: DefaultReasoningMaxTokens, ReasoningEffort: "minimal", Reasoning: true}},
		{"gpt-5.4-mini", "https://api.openai.com/v1", Profile{Family: "openai-reasoning", Format: FormatJSONSchema, Seed: true, TokenField: TokensMaxCompletion, MaxTokens: DefaultReasoningMaxTokens, ReasoningEffort: "none", Reasoning: true}},
		{"o4-mini", "https://api.openai.com/v1", Profile{Family: "openai-reasoning", Format: FormatJSONSchema, Seed: true, TokenField: TokensMaxCompletion, MaxTokens: DefaultReasoningMaxTokens, ReasoningEffort: "low", Reasoning: true}},
		{"openai/o3", "https://openrouter.ai/api/v1", Profile{Family: "openai-reasoning", Format: FormatJSONSchema, Seed: true, TokenField: TokensMaxCompletion, MaxTokens: DefaultReasoningMaxTokens, ReasoningEffort: "low", Reasoning: true}},
		{"gpt-5-chat-latest", "https://api.openai.com/v1", Profile{Family: "openai-chat", Format: FormatJSONSchema, Seed: true, TokenField: TokensMaxCompletion, MaxTokens: DefaultMaxTokens}},
		{"gpt-4.1-mini", "https://api.openai.com/v1", Profile{Family: "generic", Format: FormatJSONSchema, Temperature: true, Seed: true, TokenField: TokensMaxCompletion, MaxTokens: DefaultMaxTokens}},
		{"qwen2.5-coder:7b", "http://127.0.0.1:11434/v1", Profile{Family: "generic", Format: FormatJSONSchema, Temperature: true, Seed: true, TokenField: TokensMax, MaxTokens: DefaultMaxTokens}},
		{"qwen3:8b", "http://127.0.0.1:11434/v1", Profile{Family: "local-reasoning", Format: FormatJSONSchema, Temperature: true, Seed: true, TokenField: TokensMax, MaxTokens: DefaultReasoningMaxTokens, ThinkingOff: true, Reasoning: true}},
		{"Qwen/Qwen3-30B-A3B", "http://127.0.0.1:8000/v1", Profile{Family: "local-reasoning", Format: FormatJSONSchema, Temperature: true, Seed: true, TokenField: TokensMax, MaxTokens: DefaultReasoningMaxTokens, ThinkingOff: true, Reasoning: true}},
		{"deepseek-r1:14b", "http://127.0.0.1:11434/v1", Profile{Family: "local-reasoning", Format: FormatJSONSchema, Temperature: true, Seed: true, TokenField: TokensMax, MaxTokens: DefaultReasoningMaxTokens, Reasoning: true}},
		{"gpt-oss:20b", "http://127.0.0.1:11434/v1", Profile{Family: "local-reasoning", Format: FormatJSONSchema, Temperature: true, Seed: true, TokenField: TokensMax, MaxTokens: DefaultReasoningMaxTokens, ReasoningEffort: "low", Reasoning: true}},
		{"gemini-2.5-flash", "https://generativelanguage.googleapis.com/v1beta/openai/", Profile{Family: "gemini", Format: FormatJSONSchema, Temperature: true, Seed: true, TokenField: TokensMax, MaxTokens: DefaultReasoningMaxTokens, ReasoningEffort: "low", Reasoning: true}},
	} {
		t.Run(tc.model, func(t *testing.T) {
			got := startProfile(Config{Model: tc.model, BaseURL: tc.baseURL}, 0)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
	if got := startProfile(Config{Model: "o4-mini", BaseURL: "https://api.openai.com/v1"}, 900); got.MaxTokens != 900 {
		t.Errorf("an operator's max_tokens must win: %d", got.MaxTokens)
	}
}

func apiErr(status int, msg, param string) error {
	e := &openai.APIError{HTTPStatusCode: status, Message: msg}
	if param != "" {
		e.Param = &param
	}
	return fmt.Errorf("model: attempt 1: %w", e)
}

// TestAdapt: the servers' own words, and go-openai's refusals, adapt the profile one step.
func TestAdapt(t *testing.T) {
	generic := Profile{Family: "generic", Format: FormatJSONSchema, Temperature: true, Seed: true, TokenField: TokensMax, MaxTokens: 512}
	reasoning := Profile{Family: "openai-reasoning", Format: FormatJSONSchema, Seed: true, TokenField: TokensMaxCompletion, MaxTokens: 4096, ReasoningEffort: "minimal"}
	qwen := generic
	qwen.ThinkingOff = true
	jsonObject := generic
	jsonObject.Format = FormatJSONObject
	for _, tc := range []struct {
		name      string
		from      Profile
		err       error
		wantParam string
		wantTo    string
	}{
		{"openai temperature", generic, apiErr(400, "Unsupported value: 'temperature' does not support 1e-06 with this model. Only the default (1) value is supported.", "temperature"), "temperature", "omitted (the model's default)"},
		{"openai max_tokens", generic, apiErr(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "max_tokens"), "token limit", "max_completion_tokens"},
		{"unknown max_completion_tokens", reasoning, apiErr(400, "Unrecognized request argument supplied: max_completion_tokens", ""), "token limit", "max_tokens"},
		{"seed", generic, apiErr(400, "seed is not supported", ""), "seed", "omitted"},
		{"effort minimal refused", reasoning, apiErr(400, "Unsupported value: 'reasoning_effort' does not support 'minimal' with this model. Supported values are: 'low', 'medium', and 'high'.", "reasoning_effort"), "reasoning_effort", "low"},
		{"json_schema refused", generic, apiErr(400, "This response_format type is unavailable now", "response_format"), "response_format", "json_object"},
		{"json_object refused by name", generic, apiErr(400, "'response_format.type' must be 'json_schema' or 'text'", ""), "response_format", "json_object"},
		{"json_object refused after fallback", jsonObject, apiErr(400, "response_format json_object is not supported", ""), "response_format", "none"},
		{"lm studio json_object only", Profile{Format: FormatJSONSchema, TokenField: TokensMax}, apiErr(400, "json_object is not supported", "response_format"), "response_format", "none"},
		{"chat_template_kwargs", qwen, apiErr(400, "Unrecognized request argument supplied: chat_template_kwargs", ""), "chat_template_kwargs", "omitted"},
		{"param field wins over text", generic, apiErr(400, "Invalid value; see the temperature docs", "seed"), "seed", "omitted"},
		{"go-openai refuses max_tokens", generic, fmt.Errorf("x: %w", openai.ErrReasoningModelMaxTokensDeprecated), "token limit", "max_completion_tokens"},
		{"go-openai refuses temperature", generic, fmt.Errorf("x: %w", openai.ErrReasoningModelLimitationsOther), "temperature", "omitted (the model's default)"},
		{"unprocessable entity", generic, apiErr(http.StatusUnprocessableEntity, "temperature: Input should be less than or equal to 1", ""), "temperature", "omitted (the model's default)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := rejectionOf(tc.err)
			if !ok {
				t.Fatalf("not a rejection: %v", tc.err)
			}
			got, c, ok := tc.from.adapt(r)
			if !ok || c.Param != tc.wantParam || c.To != tc.wantTo || len(got.Changes) != 1 || c.Why == "" {
				t.Fatalf("adapt = %+v, %+v, %v; want %s → %s", got, c, ok, tc.wantParam, tc.wantTo)
			}
		})
	}
	// What no adaptation can fix is reported as is.
	for _, err := range []error{
		apiErr(400, "This model's maximum context length is 8192 tokens.", "messages"),
		apiErr(401, "Incorrect API key provided: temperature", ""),
		apiErr(429, "Rate limit reached for max_tokens", ""),
		apiErr(500, "temperature sensor overheated", ""),
	} {
		if r, ok := rejectionOf(err); ok {
			if _, c, ok := generic.adapt(r); ok {
				t.Errorf("%v adapted %+v", err, c)
			}
		}
	}
	// Each parameter adapts to a final state: a server that keeps refusing is not looped on.
	p := generic
	for range maxAdaptations + 4 {
		if q, _, ok := p.adapt(rejection{text: "temperature seed response_format max_tokens max_completion_tokens"}); ok {
			p = q
		}
	}
	if len(p.Changes) > maxAdaptations {
		t.Errorf("%d changes: %v", len(p.Changes), p.Changes)
	}
}

// TestAdvise: each failure a check can meet names the config line most likely to fix it.
func TestAdvise(t *testing.T) {
	cfg := Config{Model: "m", BaseURL: "http://127.0.0.1:11434/v1"}
	for _, tc := range []struct {
		name       string
		err        error
		table, has string
	}{
		{"bad key", &guardian.ReviewError{Status: guardian.StatusUnavailable, Err: apiErr(401, "Incorrect API key", "")}, "[model]", "api_key_env"},
		{"no such model", &guardian.ReviewError{Status: guardian.StatusUnavailable, Err: apiErr(404, "model not found", "")}, "[model]", `model = "m"`},
		{"deadline", &guardian.ReviewError{Status: guardian.StatusTimeout, Err: errors.New("deadline")}, "[review]", "deadline ="},
		{"cut off", &guardian.ReviewError{Status: guardian.StatusBadOutput, Err: &CutOffError{Budget: 512, Err: errors.New("x")}}, "[model]", "max_tokens = 4096"},
		{"refused", &guardian.ReviewError{Status: guardian.StatusUnavailable, Err: fmt.Errorf("x: %w", syscall.ECONNREFUSED)}, "[model]", "base_url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := advise(tc.err, cfg, Profile{})
			if a.Table != tc.table || !strings.Contains(a.Line, tc.has) || a.Why == "" {
				t.Errorf("advise = %+v, want %s with %q", a, tc.table, tc.has)
			}
		})
	}
}
