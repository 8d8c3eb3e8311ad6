package client

import "encoding/json"

// extraFields are the parts of a chat completion that go-openai does not decode but servers
// people run do send: the "reasoning" message field (vLLM's newer reasoning parsers, Ollama,
// OpenRouter, Groq) and DeepSeek's prompt_cache_hit_tokens. They are read from the body the
// recording Doer kept, best effort: a body that does not fit leaves them empty, and nothing
// here can change a verdict (reasoning is never parsed for one).
type extraFields struct {
	Choices []struct {
		Message struct {
			Reasoning json.RawMessage `json:"reasoning"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"`
	} `json:"usage"`
}

// decodeExtra reads the extra fields of a response body.
func decodeExtra(body []byte) extraFields {
	var x extraFields
	if len(body) == 0 || json.Unmarshal(body, &x) != nil {
		return extraFields{}
	}
	return x
}

// reasoning is the first choice's "reasoning" field when it is a string.
func (x extraFields) reasoning() string {
	if len(x.Choices) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(x.Choices[0].Message.Reasoning, &s) != nil {
		return ""
	}
	return s
}

func (x extraFields) cachedTokens() int { return x.Usage.PromptCacheHitTokens }
