package guardian

import (
	"fmt"
	"slices"
	"strings"
)

// NotifyConfig is the [notify] table: the webhooks guardian serve posts events to. Only the
// user config may set it — a repository must not be able to send the user's decisions
// somewhere of its choosing.
type NotifyConfig struct {
	// Webhooks are the [[notify.webhook]] tables, in file order.
	Webhooks []NotifyWebhook
}

// NotifyWebhook is one [[notify.webhook]].
type NotifyWebhook struct {
	// URL is where events are posted. It is often a secret itself (a Slack webhook's path is
	// its credential), so URLEnv may name an environment variable holding it instead; then
	// URL is empty until WebhookURL resolves it.
	URL    string
	URLEnv string
	// Kinds are the events sent: "deny", "breaker_open", "pending"; empty for all.
	Kinds []string
	// Format is "json" (the default) or "slack".
	Format string
}

// NotifyKinds and NotifyFormats are the values [[notify.webhook]] accepts.
var (
	NotifyKinds   = []string{"deny", "breaker_open", "pending"}
	NotifyFormats = []string{"json", "slack"}
)

// WebhookURL returns the webhook's URL: URL, or the value of the variable URLEnv names,
// read with getenv. An unset or invalid variable is an error that names it, not its value.
func (w NotifyWebhook) WebhookURL(getenv func(string) string) (string, error) {
	if w.URLEnv == "" {
		return w.URL, nil
	}
	v := strings.TrimSpace(getenv(w.URLEnv))
	if v == "" {
		return "", fmt.Errorf("[[notify.webhook]] url_env: $%s is not set; export the webhook's URL in it, or remove this webhook", w.URLEnv)
	}
	if err := checkHTTPURL(v, "the URL in $"+w.URLEnv, "the webhook's URL", "https://hooks.slack.com/services/…", "put a token in the URL's path or query instead"); err != nil {
		return "", fmt.Errorf("[[notify.webhook]] url_env: $%s does not hold a usable URL (want http:// or https:// with a host, no user:password@)", w.URLEnv)
	}
	return v, nil
}

var notifySchema = []schemaKey{
	{"notify", "a table: [notify]"},
	{"notify.webhook", "[[notify.webhook]] tables"},
	{"notify.webhook.url", `a string holding an http(s) URL, e.g. "https://hooks.slack.com/services/…"`},
	{"notify.webhook.url_env", `a string naming an environment variable that holds the URL, e.g. "GUARDIAN_SLACK_WEBHOOK"`},
	{"notify.webhook.kinds", `a list of strings from "deny", "breaker_open", "pending", e.g. ["deny", "breaker_open"]`},
	{"notify.webhook.format", `a string: "json" or "slack"`},
}

type fileNotify struct {
	Webhooks []fileNotifyWebhook `toml:"webhook"`
}

type fileNotifyWebhook struct {
	URL    *string  `toml:"url"`
	URLEnv *string  `toml:"url_env"`
	Kinds  []string `toml:"kinds"`
	Format *string  `toml:"format"`
}

// validateNotify checks the [[notify.webhook]] tables and fills pf.notify.
func (pf *parsedFile) validateNotify() {
	if pf.fc.Notify == nil {
		return
	}
	if pos, ok := pf.ix.plainTables["notify.webhook"]; ok {
		pf.probs = append(pf.probs, ConfigProblem{File: pf.path, Line: pos.line, Column: pos.col, Key: "notify.webhook",
			Message: `key "notify.webhook": [notify.webhook] defines a single table; write [[notify.webhook]] (double brackets) before each webhook`})
		return
	}
	for i, f := range pf.fc.Notify.Webhooks {
		at := fmt.Sprintf("notify.webhook[%d]", i)
		var w NotifyWebhook
		switch {
		case f.URL != nil && f.URLEnv != nil:
			pf.add(at+".url_env", "a webhook has url or url_env, not both; remove one")
		case f.URL == nil && f.URLEnv == nil:
			pf.add(at, `[[notify.webhook]] needs url = "https://…" or url_env = "NAME" (an environment variable holding the URL, for a URL that is a secret)`)
		case f.URL != nil:
			if err := checkHTTPURL(*f.URL, "url", "the webhook's URL", "https://hooks.slack.com/services/…", "put a token in the URL's path or query, or use url_env"); err != nil {
				pf.addAt(at+".url", pf.ix.valuePos(at+".url"), err.Error())
			} else {
				w.URL = *f.URL
			}
		default:
			if !envNameRE().MatchString(*f.URLEnv) {
				pf.addAt(at+".url_env", pf.ix.valuePos(at+".url_env"), `url_env must be the NAME of the environment variable holding the URL (letters, digits, _), e.g. "GUARDIAN_SLACK_WEBHOOK", not the URL itself`)
			} else {
				w.URLEnv = *f.URLEnv
			}
		}
		for _, k := range f.Kinds {
			if !slices.Contains(NotifyKinds, k) {
				pf.add(at+".kinds", fmt.Sprintf("unknown kind %q; use %s", k, strings.Join(NotifyKinds, ", ")))
				continue
			}
			if !slices.Contains(w.Kinds, k) {
				w.Kinds = append(w.Kinds, k)
			}
		}
		if pf.ix.has(at+".kinds") && len(f.Kinds) == 0 {
			pf.add(at+".kinds", `kinds is empty, so this webhook would get nothing; list kinds (e.g. ["deny"]) or remove kinds to get all`)
		}
		w.Format = "json"
		if f.Format != nil {
			if !slices.Contains(NotifyFormats, *f.Format) {
				pf.addAt(at+".format", pf.ix.valuePos(at+".format"), fmt.Sprintf(`unknown format %q; use "json" (guardian's event as JSON) or "slack" (a Slack-compatible {"text": …})`, *f.Format))
			} else {
				w.Format = *f.Format
			}
		}
		pf.notify.Webhooks = append(pf.notify.Webhooks, w)
	}
}

// clone returns a copy of c sharing nothing with it.
func (c NotifyConfig) clone() NotifyConfig {
	if c.Webhooks == nil {
		return NotifyConfig{}
	}
	out := NotifyConfig{Webhooks: make([]NotifyWebhook, len(c.Webhooks))}
	for i, w := range c.Webhooks {
		w.Kinds = slices.Clone(w.Kinds)
		out.Webhooks[i] = w
	}
	return out
}

// refuseProjectNotify reports a [notify] table in a project file, trusted or not: where the
// user's decisions are sent is the user's to choose, never the repository's.
func (c Config) refuseProjectNotify(pf *parsedFile) {
	if pf.fc.Notify == nil {
		return
	}
	where := "notify"
	if len(pf.fc.Notify.Webhooks) > 0 {
		where = "notify.webhook[0]"
	}
	pf.addAt("notify", pf.ix.find(where), fmt.Sprintf("[notify] sends decisions to webhooks, so only the user config may set it (a repository must not choose where your decisions go); set it in %s", c.userConfigPath()))
}
