package hook

import (
	"encoding/json"
	"fmt"
	"regexp"
	"time"
)

// Installed is one guardian hook found in a host's config.
type Installed struct {
	// Matcher is the group's tool matcher ("" when the group has none).
	Matcher string
	// Command is the hook command and Timeout its host timeout in seconds (0: unset).
	Command string
	// Wrapper is the command line the host runs when it is guardian's fail-closed wrapper
	// around Command (failClosed); "" when the host runs Command itself.
	Wrapper string
	Timeout int
	// OnFailure is the hook's failure policy where the host has one (Claude Code's
	// "onFailure"; "" when unset).
	OnFailure string
	// Group and Index locate the hook in the event's list (Codex's trust key uses them).
	Group, Index int
}

// FindInstalled lists the guardian hooks for host ("claude" or "codex") under event in a
// host config of the form {"hooks":{EVENT:[{"matcher","hooks":[{"type","command","timeout"}]}]}}
// — Claude Code's settings.json and Codex's hooks.json alike.
func FindInstalled(content []byte, event, host string) ([]Installed, error) {
	var cfg struct {
		Hooks map[string][]hookGroup `json:"hooks"`
	}
	if len(content) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(content, &cfg); err != nil {
		return nil, fmt.Errorf("not a hooks config: %w", err)
	}
	var out []Installed
	for g, group := range cfg.Hooks[event] {
		for i, h := range group.Hooks {
			if IsGuardianCommand(h.Command, host) {
				out = append(out, Installed{Matcher: group.Matcher, Command: h.Command, Timeout: h.Timeout, OnFailure: h.OnFailure, Group: g, Index: i})
			}
		}
	}
	return out, nil
}

// Matches reports whether the hook's matcher selects a tool name, as the hosts match it: the
// whole name against the matcher as a regular expression; an empty matcher or "*" selects
// every tool.
func (h Installed) Matches(tool string) bool {
	if h.Matcher == "" || h.Matcher == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + h.Matcher + ")$")
	return err == nil && re.MatchString(tool)
}

var monitorFlagRE = lazyRegexp(`(^|\s)--monitor(=true)?(\s|$|;)`)

// Monitor reports whether the hook command runs guardian in monitor mode (--monitor): the
// host gets no verdict, so guardian only records.
func (h Installed) Monitor() bool { return monitorFlagRE().MatchString(h.Command) }

var deadlineFlagRE = lazyRegexp(`--deadline[= ]+'?([0-9][0-9a-zµ.]*)`)

// Deadline is the --deadline the command passes to the hook (DefaultDeadline without one).
func (h Installed) Deadline() (time.Duration, error) {
	m := deadlineFlagRE().FindStringSubmatch(h.Command)
	if m == nil {
		return DefaultDeadline, nil
	}
	d, err := time.ParseDuration(m[1])
	if err != nil {
		return 0, fmt.Errorf("hook command %q: bad --deadline: %w", h.Command, err)
	}
	return d, nil
}
