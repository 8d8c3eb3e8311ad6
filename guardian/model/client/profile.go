package client

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// FormatNone sends no response_format at all: the schema goes into the system prompt and the
// strict parser is the only check. It is the last resort for servers that reject both
// json_schema and json_object.
const FormatNone ResponseFormat = "none"

// TokenField names the request field that carries the completion budget. OpenAI's reasoning
// models reject max_tokens; several local servers ignore or reject max_completion_tokens.
type TokenField string

// The token-limit fields.
const (
	TokensMaxCompletion TokenField = "max_completion_tokens"
	TokensMax           TokenField = "max_tokens"
)

// Completion budgets. A verdict is 150 to 300 tokens; a reasoning model spends its hidden or
// visible reasoning out of the same budget, so it gets room for a short think as well. When a
// reasoning model still runs out (finish_reason length), the budget doubles once per review up
// to MaxAutoTokens, unless the operator set max_tokens, which is then reported as the thing to
// raise.
const (
	DefaultReasoningMaxTokens = 4096
	MaxAutoTokens             = 16384
)

// maxAdaptations bounds how many times one review changes its request in answer to a server's
// 400s. Each parameter adapts at most once or twice, so a server that rejects everything is
// reported after a handful of requests, not hammered.
const maxAdaptations = 8

// Profile is what one endpoint and model accept, and how the reviewer calls them: the
// structured-output mode, which sampling parameters to send, the token-limit field and budget,
// the reasoning controls. New starts from what the model's family is known to accept; every 400
// that names a parameter adapts it once, and the Reviewer keeps the result for its life (the
// process, or serve's lifetime), so only the first review pays for learning.
type Profile struct {
	// Family is the model family the starting point came from ("openai-reasoning",
	// "local-reasoning", "generic", …), for `model check` and logs.
	Family string `json:"family"`
	// Format is the structured-output mode.
	Format ResponseFormat `json:"response_format"`
	// Temperature and Seed say whether those are sent. Reasoning models fix the temperature
	// and refuse any other value.
	Temperature bool `json:"temperature"`
	Seed        bool `json:"seed"`
	// TokenField and MaxTokens are the budget and the field it goes in.
	TokenField TokenField `json:"token_field"`
	MaxTokens  int        `json:"max_tokens"`
	// ReasoningEffort is sent as reasoning_effort when not empty: the lowest effort the family
	// accepts, since a verdict needs judgement, not a long proof.
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
	// ThinkingOff sends chat_template_kwargs {"enable_thinking": false}, which Qwen3-style
	// templates on vLLM and llama.cpp read to skip the think block.
	ThinkingOff bool `json:"thinking_off,omitempty"`
	// Reasoning says the model reasons before answering (hidden or visible).
	Reasoning bool `json:"reasoning"`
	// Changes lists what was changed from the family's starting point, oldest first.
	Changes []Change `json:"changes,omitempty"`
}

// Change is one adaptation of a Profile: what changed and the server's words that caused it.
type Change struct {
	Param string `json:"param"`
	From  string `json:"from"`
	To    string `json:"to"`
	Why   string `json:"why"`
}

// String is the change as `model check` prints it.
func (c Change) String() string {
	return fmt.Sprintf("%s: %s → %s (%s)", c.Param, c.From, c.To, c.Why)
}

// family is one entry of the family table: a name pattern and what such models accept.
type family struct {
	name    string
	pattern func() *regexp.Regexp
	// reasoning: the model reasons before answering.
	reasoning bool
	// noTemperature: any temperature but the default is refused (OpenAI's reasoning models,
	// and go-openai refuses to send one for every gpt-5* name).
	noTemperature bool
	// effort is the reasoning_effort to start with ("" sends none).
	effort string
	// thinkingOff sends chat_template_kwargs enable_thinking false.
	thinkingOff bool
	// tokens is the token field the family wants ("" for the endpoint's default).
	tokens TokenField
}

// families is the known-family table, first match wins. The names are the model names users
// configure, matched after any "vendor/" prefix (OpenRouter's "openai/gpt-5-mini", a Hugging
// Face path in Ollama) and case-insensitively. Sources: OpenAI's reasoning guide (reasoning
// models take max_completion_tokens and reasoning_effort, fix temperature at 1; gpt-5 has
// "minimal", gpt-5.1 and later "none"), go-openai's ReasoningValidator (which refuses a
// temperature for every o1/o3/o4/gpt-5 name), Qwen's vLLM guide (enable_thinking), and the
// model cards of the open reasoning models.
var families = []family{
	{name: "openai-reasoning", pattern: lazyRegexp(`^gpt-5(-\d{4}-\d{2}-\d{2})?(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$`),
		reasoning: true, noTemperature: true, effort: openai.ReasoningEffortMinimal, tokens: TokensMaxCompletion},
	{name: "openai-chat", pattern: lazyRegexp(`^gpt-5(\.\d+)?-chat`), noTemperature: true, tokens: TokensMaxCompletion},
	{name: "openai-reasoning", pattern: lazyRegexp(`^gpt-5\.\d+(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$`),
		reasoning: true, noTemperature: true, effort: openai.ReasoningEffortNone, tokens: TokensMaxCompletion},
	{name: "openai-reasoning", pattern: lazyRegexp(`^(gpt-5|gpt-6|o1|o3|o4)([-.]|$)`),
		reasoning: true, noTemperature: true, effort: openai.ReasoningEffortLow, tokens: TokensMaxCompletion},
	{name: "local-reasoning", pattern: lazyRegexp(`^gpt-oss`), reasoning: true, effort: openai.ReasoningEffortLow},
	{name: "local-reasoning", pattern: lazyRegexp(`^qwen3(\.\d+)?(-\d+(\.\d+)?b)?(-a\d+b)?([-:](\d+b|latest|thinking|fp8|awq|gguf|q\d).*)?$`),
		reasoning: true, thinkingOff: true},
	{name: "local-reasoning", pattern: lazyRegexp(`deepseek-r1|deepseek-reasoner|r1-distill|qwq|magistral|phi-4-(mini-)?reasoning|exaone-deep|-thinking|openthinker|skywork-or1`),
		reasoning: true},
	{name: "gemini", pattern: lazyRegexp(`^gemini-(2\.5|3)`), reasoning: true, effort: openai.ReasoningEffortLow},
	{name: "anthropic", pattern: lazyRegexp(`^claude-`)},
}

// startProfile is the Profile a Reviewer starts from: the family's, on the endpoint's
// defaults. maxTokens is the operator's max_tokens (0: the family's budget).
func startProfile(cfg Config, configuredMax int) Profile {
	name := strings.ToLower(strings.TrimSpace(cfg.Model))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	p := Profile{Family: "generic", Format: FormatJSONSchema, Temperature: true, Seed: true, TokenField: defaultTokenField(cfg)}
	for _, f := range families {
		if !f.pattern().MatchString(name) {
			continue
		}
		p.Family = f.name
		p.Reasoning = f.reasoning
		p.Temperature = !f.noTemperature
		p.ReasoningEffort = f.effort
		p.ThinkingOff = f.thinkingOff
		if f.tokens != "" {
			p.TokenField = f.tokens
		}
		break
	}
	switch {
	case configuredMax > 0:
		p.MaxTokens = configuredMax
	case p.Reasoning:
		p.MaxTokens = DefaultReasoningMaxTokens
	default:
		p.MaxTokens = DefaultMaxTokens
	}
	return p
}

// defaultTokenField is max_completion_tokens for OpenAI and Azure (the field their reasoning
// models require), max_tokens elsewhere: every OpenAI-compatible server reads max_tokens, and
// several ignore max_completion_tokens, which would leave the answer unbounded.
func defaultTokenField(cfg Config) TokenField {
	if cfg.Azure {
		return TokensMaxCompletion
	}
	if u, err := url.Parse(cfg.BaseURL); err == nil && (u.Hostname() == "api.openai.com" || strings.HasSuffix(u.Hostname(), ".openai.azure.com")) {
		return TokensMaxCompletion
	}
	return TokensMax
}

// rejection is what a failed request said about its parameters.
type rejection struct {
	param string // the error's param field, lowercased
	text  string // message, code and body, lowercased
	raw   string // the same as the server wrote it, for the record
}

// rejectionOf reads a deterministic refusal of the request: a 400/422 (or 501) from the
// server, or go-openai refusing to send it. ok is false for anything else (auth, rate limits,
// server errors, transport), which adapting the request cannot fix.
func rejectionOf(err error) (rejection, bool) {
	for _, e := range []error{openai.ErrReasoningModelMaxTokensDeprecated, openai.ErrO1MaxTokensDeprecated} {
		if errors.Is(err, e) {
			return rejection{param: "max_tokens", text: strings.ToLower(e.Error()), raw: "go-openai: " + e.Error()}, true
		}
	}
	for _, e := range []error{openai.ErrReasoningModelLimitationsOther, openai.ErrO1BetaLimitationsOther, openai.ErrReasoningSamplingUnsupported} {
		if errors.Is(err, e) {
			return rejection{param: "temperature", text: strings.ToLower(e.Error()), raw: "go-openai: " + e.Error()}, true
		}
	}
	if errors.Is(err, openai.ErrReasoningEffortUnsupported) {
		return rejection{param: "reasoning_effort", text: strings.ToLower(err.Error()), raw: err.Error()}, true
	}
	switch httpStatus(err) {
	case http.StatusBadRequest, http.StatusUnprocessableEntity, http.StatusNotImplemented:
	default:
		return rejection{}, false
	}
	var r rejection
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		r.text = apiErr.Message
		if apiErr.Param != nil {
			r.param = strings.ToLower(*apiErr.Param)
		}
		if s, ok := apiErr.Code.(string); ok {
			r.text += " " + s
		}
	case errors.As(err, &reqErr):
		r.text = string(reqErr.Body)
	}
	r.raw = r.text
	r.text = strings.ToLower(r.text)
	return r, true
}

// mentions reports whether the rejection names one of the words, in its param field or text.
func (r rejection) mentions(words ...string) bool {
	for _, w := range words {
		if r.param == w || strings.Contains(r.text, w) {
			return true
		}
	}
	return false
}

// why is the server's own words, short, for a Change.
func (r rejection) why() string {
	t := strings.Join(strings.Fields(r.raw), " ")
	if t == "" {
		t = strings.Join(strings.Fields(r.text), " ")
	}
	if r := []rune(t); len(r) > 160 {
		t = string(r[:160]) + "…"
	}
	return "server said: " + t
}

// adapt returns the profile changed to avoid the rejection, or ok false when the rejection
// names nothing this profile sent and can change. The param field, when the server sets it,
// names the culprit exactly and is tried first; then the message text.
func (p Profile) adapt(r rejection) (Profile, Change, bool) {
	if r.param != "" {
		if q, c, ok := p.adaptBy(rejection{param: r.param, text: r.param, raw: r.raw}, r); ok {
			return q, c, true
		}
	}
	return p.adaptBy(r, r)
}

// adaptBy applies the first step that match names; full is the whole rejection, for the
// reason recorded and for telling a json_object refusal from a json_schema one.
func (p Profile) adaptBy(match, full rejection) (Profile, Change, bool) {
	q := p.clone()
	var c Change
	switch {
	case p.Format != FormatNone && match.mentions("response_format", "json_schema", "json_object", "structured output", "response format"):
		// json_object next, unless the server named json_object as what it refuses.
		q.Format = FormatJSONObject
		if p.Format != FormatJSONSchema || (full.mentions("json_object") && !full.mentions("json_schema")) {
			q.Format = FormatNone
		}
		c = Change{Param: "response_format", From: string(p.Format), To: string(q.Format)}
	case p.Temperature && match.mentions("temperature"):
		q.Temperature = false
		c = Change{Param: "temperature", From: "sent", To: "omitted (the model's default)"}
	case p.Seed && match.mentions("seed"):
		q.Seed = false
		c = Change{Param: "seed", From: "sent", To: "omitted"}
	case p.ReasoningEffort != "" && match.mentions("reasoning_effort", "reasoning effort", "reasoning.effort"):
		switch p.ReasoningEffort {
		case openai.ReasoningEffortMinimal, openai.ReasoningEffortNone:
			q.ReasoningEffort = openai.ReasoningEffortLow
		default:
			q.ReasoningEffort = ""
		}
		c = Change{Param: "reasoning_effort", From: p.ReasoningEffort, To: orDash(q.ReasoningEffort)}
	case p.ThinkingOff && match.mentions("chat_template_kwargs"):
		q.ThinkingOff = false
		c = Change{Param: "chat_template_kwargs", From: "enable_thinking false", To: "omitted"}
	case match.mentions(string(p.TokenField)) && !p.changed("token limit"):
		// Switched once at most: a server that refuses both fields is reported, not toggled.
		q.TokenField = TokensMax
		if p.TokenField == TokensMax {
			q.TokenField = TokensMaxCompletion
		}
		c = Change{Param: "token limit", From: string(p.TokenField), To: string(q.TokenField)}
	default:
		return p, Change{}, false
	}
	c.Why = full.why()
	q.Changes = append(q.Changes, c)
	return q, c, true
}

// raiseBudget raises the token budget after an answer was cut off at it: to a reasoning
// model's budget at least, doubled otherwise, up to MaxAutoTokens; ok is false when it is
// already there. Being cut off is how a model not known as a reasoning model shows it is one.
func (p Profile) raiseBudget(why string) (Profile, Change, bool) {
	if p.MaxTokens >= MaxAutoTokens {
		return p, Change{}, false
	}
	q := p.clone()
	q.MaxTokens = min(max(p.MaxTokens*2, DefaultReasoningMaxTokens), MaxAutoTokens)
	q.Reasoning = true
	c := Change{Param: "token budget", From: fmt.Sprint(p.MaxTokens), To: fmt.Sprint(q.MaxTokens), Why: why}
	q.Changes = append(q.Changes, c)
	return q, c, true
}

// changed reports whether param was already adapted.
func (p Profile) changed(param string) bool {
	for _, c := range p.Changes {
		if c.Param == param {
			return true
		}
	}
	return false
}

func (p Profile) clone() Profile {
	p.Changes = append([]Change(nil), p.Changes...)
	return p
}

func orDash(s string) string {
	if s == "" {
		return "omitted"
	}
	return s
}
