package client

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Environment variables read by ConfigFromEnv. They are the documented way to point guardian
// at a model without a config file (CI, containers, a quick trial).
const (
	EnvBaseURL      = "GUARDIAN_MODEL_BASE_URL"
	EnvModel        = "GUARDIAN_MODEL"
	EnvAPIKey       = "GUARDIAN_API_KEY"
	EnvOpenAIAPIKey = "OPENAI_API_KEY"
	EnvTimeout      = "GUARDIAN_MODEL_TIMEOUT"
)

// Request defaults. The temperature is tiny rather than zero because go-openai omits a zero
// float32 from the request (omitempty), and a server then applies its own default (often 1).
const (
	DefaultMaxTokens       = 512
	DefaultTemperature     = float32(1e-6)
	DefaultAzureAPIVersion = "2024-10-21"
	// DefaultOpenAIBaseURL is used when a model is named without a base URL.
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
)

// Config names one OpenAI-compatible chat-completions endpoint and how to call it. A review is
// one stateless completion, so this is all the model side needs to know.
type Config struct {
	// BaseURL is the API root including /v1 (e.g. http://127.0.0.1:11434/v1 for Ollama), or,
	// with Azure, the resource URL (https://NAME.openai.azure.com). Empty means OpenAI.
	BaseURL string
	// Model is the model name, or the deployment name with Azure. Required: it goes into
	// decided_by, so a verdict can always be traced to the model that gave it.
	Model string
	// APIKey is sent as a bearer token (api-key header with Azure); empty sends none, which
	// local servers accept.
	APIKey string
	// Azure selects Azure OpenAI's URL layout and authentication.
	Azure bool
	// AzureAPIVersion is the api-version query parameter (DefaultAzureAPIVersion if empty).
	AzureAPIVersion string
	// Timeout caps one attempt (optional). The whole review is bounded by the deadline of the
	// ctx passed to Review; a per-attempt cap lets a stuck attempt be retried within it.
	Timeout time.Duration
	// MaxTokens caps the completion (DefaultMaxTokens if 0): a verdict is a few hundred
	// tokens, and a runaway answer would only cost time and money before failing to parse.
	MaxTokens int
	// Seed is sent with every request so that servers that support it answer reproducibly.
	Seed int
	// Temperature is sent as is when positive; 0 means DefaultTemperature (near zero).
	Temperature float32
}

// ConfigFromEnv reads the model configuration from the environment through getenv (os.Getenv
// in production, a map in tests). ok is false, with a nil error, when neither a model nor a base
// URL is set: guardian then runs on rules only. An API key alone does not turn the model on,
// since OPENAI_API_KEY is often set for other tools. A malformed value is an error naming its
// variable.
func ConfigFromEnv(getenv func(string) string) (cfg Config, ok bool, err error) {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	cfg = Config{BaseURL: get(EnvBaseURL), Model: get(EnvModel), APIKey: get(EnvAPIKey)}
	if cfg.APIKey == "" {
		cfg.APIKey = get(EnvOpenAIAPIKey)
	}
	if s := get(EnvTimeout); s != "" {
		d, perr := time.ParseDuration(s)
		if perr != nil {
			return Config{}, false, fmt.Errorf("%s=%q: want a Go duration such as 2s or 1500ms: %w", EnvTimeout, s, perr)
		}
		if d <= 0 {
			return Config{}, false, fmt.Errorf("%s=%q: must be positive", EnvTimeout, s)
		}
		cfg.Timeout = d
	}
	if cfg.Model == "" && cfg.BaseURL == "" {
		return Config{}, false, nil
	}
	if cfg.Model == "" {
		return Config{}, false, fmt.Errorf("%s is set but %s is not: name the model to use at that endpoint", EnvBaseURL, EnvModel)
	}
	if cfg.BaseURL == "" && cfg.APIKey == "" {
		return Config{}, false, fmt.Errorf("%s is set without %s, so OpenAI would be used, but neither %s nor %s holds an API key", EnvModel, EnvBaseURL, EnvAPIKey, EnvOpenAIAPIKey)
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, false, fmt.Errorf("model config from environment: %w", err)
	}
	return cfg, true, nil
}

// Validate reports a configuration that cannot work, before the first review finds out.
func (c Config) Validate() error {
	var errs []error
	if strings.TrimSpace(c.Model) == "" {
		errs = append(errs, errors.New("model: a model (or Azure deployment) name is required"))
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("base URL %q: %w", c.BaseURL, err))
		case u.Scheme != "http" && u.Scheme != "https":
			errs = append(errs, fmt.Errorf("base URL %q: scheme must be http or https", c.BaseURL))
		case u.Host == "":
			errs = append(errs, fmt.Errorf("base URL %q: no host", c.BaseURL))
		}
	} else if c.Azure {
		errs = append(errs, errors.New("azure: the base URL (https://NAME.openai.azure.com) is required"))
	}
	if c.Timeout < 0 {
		errs = append(errs, fmt.Errorf("timeout %s: must not be negative", c.Timeout))
	}
	if c.MaxTokens < 0 {
		errs = append(errs, fmt.Errorf("max tokens %d: must not be negative", c.MaxTokens))
	}
	if c.Temperature < 0 || c.Temperature > 2 {
		errs = append(errs, fmt.Errorf("temperature %g: want 0 to 2 (near 0 for reviews)", c.Temperature))
	}
	return errors.Join(errs...)
}

// withDefaults fills the optional fields.
func (c Config) withDefaults() Config {
	if c.MaxTokens == 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	if c.Temperature == 0 {
		c.Temperature = DefaultTemperature
	}
	if c.Azure && c.AzureAPIVersion == "" {
		c.AzureAPIVersion = DefaultAzureAPIVersion
	}
	if !c.Azure && c.BaseURL == "" {
		c.BaseURL = DefaultOpenAIBaseURL
	}
	return c
}

// system is the gen_ai.system attribute value for the endpoint.
func (c Config) system() string {
	if c.Azure {
		return "az.ai.openai"
	}
	return "openai"
}
