package hook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// ClaudeMatcher is the PreToolUse matcher guardian installs for Claude Code: shell commands,
// the file-writing tools, the tools that read files (Read, Grep, Glob: a secret store read
// without a shell), the tools that reach the web (WebFetch, WebSearch: data carried out in a
// URL or a query) and every MCP tool. Claude Code matches it as a whole-name regular
// expression, case-sensitively; a bare prefix such as mcp__ would match nothing.
const ClaudeMatcher = "Bash|Write|Edit|MultiEdit|NotebookEdit|Read|Grep|Glob|WebFetch|WebSearch|mcp__.*"

// ClaudeOnFailure is the per-hook onFailure value guardian installs for Claude Code. Claude
// Code 2.1.328 runs the tool when a hook exits with a status other than 0 or 2 or times out
// (onFailure "continue", the default); with "block" it stops the call instead, as the real
// host showed (docs/hosts.md). It does not cover a hook that exits 0 printing garbage — that
// still runs the tool — so guardian's hook must still always print one valid reply.
const ClaudeOnFailure = "block"

// CodexMatcher is the PermissionRequest matcher guardian installs for Codex: every request.
const CodexMatcher = ".*"

// hookEntry is one hook command in either host's config.
type hookEntry struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
	// OnFailure is Claude Code's per-hook failure policy ("block" or "continue").
	OnFailure string `json:"onFailure,omitempty"`
}

// hookGroup is a matcher with its hook commands.
type hookGroup struct {
	Matcher string      `json:"matcher,omitempty"`
	Hooks   []hookEntry `json:"hooks"`
}

// IsGuardianCommand reports whether a hook command runs guardian's adapter for host
// ("claude", "codex", "gemini"): what an installer replaces and verify looks for.
func IsGuardianCommand(command, host string) bool {
	return strings.Contains(command, "guardian") && strings.Contains(command, "hook "+host)
}

// ClaudeOutcomeEvents are the Claude Code events that report how a tool call ended, on which
// guardian is installed besides PreToolUse so that it learns what the host decided about its
// ask (claudeOutcomes): PostToolUse and PostToolUseFailure (the call ran: a person approved
// at the prompt, or a permission rule or mode let it through) and PermissionDenied (it was
// refused). The hook answers them with nothing, so they never change what the host does; they
// have no onFailure "block", which would turn a failed recording into a stopped session.
var ClaudeOutcomeEvents = []string{"PostToolUse", "PostToolUseFailure", "PermissionDenied"}

// InstallClaude adds guardian's PreToolUse hook, and its hooks for ClaudeOutcomeEvents, to a
// Claude Code settings file's content (empty for a new file) and returns the new content.
// Every other key keeps its place and value; a guardian group already there is replaced where
// it stands, so installing twice changes nothing. changed is false when the content already
// had exactly these hooks.
func InstallClaude(settings []byte, command string, timeoutSec int) (out []byte, changed bool, err error) {
	out, _, err = installJSONHook(settings, EventPreToolUse, "claude", hookGroup{
		Matcher: ClaudeMatcher,
		Hooks:   []hookEntry{{Type: "command", Command: command, Timeout: timeoutSec, OnFailure: ClaudeOnFailure}},
	})
	for _, event := range ClaudeOutcomeEvents {
		if err != nil {
			return nil, false, err
		}
		out, _, err = installJSONHook(out, event, "claude", hookGroup{
			Matcher: ClaudeMatcher,
			Hooks:   []hookEntry{{Type: "command", Command: command, Timeout: timeoutSec}},
		})
	}
	if err != nil {
		return nil, false, err
	}
	return out, !sameJSON(settings, out), nil
}

// uninstallClaude removes guardian's hooks for Claude Code from PreToolUse and every outcome
// event; the user's own hooks stay.
func uninstallClaude(files []File) ([]File, error) {
	return editSettings(files, func(c []byte) ([]byte, bool, error) {
		for _, event := range append([]string{EventPreToolUse}, ClaudeOutcomeEvents...) {
			out, _, err := uninstallJSON(c, event, "claude")
			if err != nil {
				return nil, false, err
			}
			c = out
		}
		return c, true, nil
	})
}

// claudeOutcomeFindings checks that guardian is installed on every outcome event with a
// matcher covering the tools it reviews, so that the audit log learns what the host decided.
func claudeOutcomeFindings(settings []byte, tools []string) []Finding {
	var out []Finding
	for _, event := range ClaudeOutcomeEvents {
		hs, err := FindInstalled(settings, event, "claude")
		if err != nil {
			return []Finding{{Message: err.Error()}}
		}
		var missed []string
		for _, tool := range tools {
			covered := false
			for _, h := range hs {
				covered = covered || h.Matches(tool)
			}
			if !covered {
				missed = append(missed, tool)
			}
		}
		msg := fmt.Sprintf("%s hook installed for every reviewed tool: guardian records what Claude Code decided about its asks", event)
		if len(missed) > 0 {
			msg = fmt.Sprintf("%s hook misses %s: guardian cannot learn what Claude Code decided about those asks; reinstall with `guardian hook install claude --write`",
				event, strings.Join(missed, ", "))
		}
		out = append(out, Finding{OK: len(missed) == 0, Message: msg})
	}
	return out
}

// installJSONHook puts g, guardian's group for host, under event in a settings file of the
// form {"hooks":{EVENT:[groups]}} (Claude Code's and Gemini CLI's settings.json), in place of
// an earlier guardian group or at the end.
func installJSONHook(settings []byte, event, host string, g hookGroup) (out []byte, changed bool, err error) {
	root, err := parseObject(settings)
	if err != nil {
		return nil, false, fmt.Errorf("settings are not a JSON object: %w", err)
	}
	hooks, err := parseObject(root.get("hooks"))
	if err != nil {
		return nil, false, fmt.Errorf(`"hooks" is not a JSON object: %w`, err)
	}
	groups, err := replaceGroup(hooks.get(event), host, g)
	if err != nil {
		return nil, false, fmt.Errorf(`"hooks.%s": %w`, event, err)
	}
	hooks.set(event, groups.raw)
	root.set("hooks", hooks.marshal())
	out, err = indent(root.marshal())
	if err != nil {
		return nil, false, err
	}
	return out, !sameJSON(settings, out), nil
}

// groupList is a hook event's list of groups after an install, and where guardian's is.
type groupList struct {
	raw   json.RawMessage
	index int
}

// replaceGroup puts g in the list of groups in place of the first group holding a guardian
// command for host, or at the end; other guardian groups for host are removed, so that one
// adapter never runs twice for one call.
func replaceGroup(list json.RawMessage, host string, g hookGroup) (groupList, error) {
	var groups []json.RawMessage
	if len(bytes.TrimSpace(list)) > 0 && string(list) != "null" {
		if err := json.Unmarshal(list, &groups); err != nil {
			return groupList{}, fmt.Errorf("not a list of hook groups: %w", err)
		}
	}
	mine, err := marshalNoEscape(g)
	if err != nil {
		return groupList{}, err
	}
	var out []json.RawMessage
	index := -1
	for _, raw := range groups {
		var existing hookGroup
		if json.Unmarshal(raw, &existing) == nil && groupHas(existing, host) {
			if index < 0 {
				index = len(out)
				out = append(out, mine)
			}
			continue
		}
		out = append(out, raw)
	}
	if index < 0 {
		index = len(out)
		out = append(out, mine)
	}
	b, err := json.Marshal(out)
	return groupList{raw: b, index: index}, err
}

func groupHas(g hookGroup, host string) bool {
	for _, h := range g.Hooks {
		if IsGuardianCommand(h.Command, host) {
			return true
		}
	}
	return false
}

// sameJSON reports whether two documents are byte-identical after formatting.
func sameJSON(a, b []byte) bool {
	ia, err := indent(a)
	if err != nil {
		return false
	}
	ib, err := indent(b)
	return err == nil && bytes.Equal(ia, ib)
}

// CodexInstall is the result of installing guardian's hook for Codex.
type CodexInstall struct {
	// HooksJSON is the new content of $CODEX_HOME/hooks.json.
	HooksJSON []byte
	// TrustKey and TrustHash are the [hooks.state."KEY"] trusted_hash entry Codex requires
	// before it runs the hook (an untrusted hook is skipped silently).
	TrustKey, TrustHash string
	// ConfigTOML is the new content of $CODEX_HOME/config.toml with the trust entry.
	ConfigTOML []byte
}

// InstallCodex adds guardian's PermissionRequest hook to the content of Codex's hooks.json
// (at hooksPath; empty content for a new file) and its trust entry to the content of
// config.toml, keeping everything else.
func InstallCodex(hooksJSON []byte, hooksPath string, configTOML []byte, command string, timeoutSec int) (CodexInstall, error) {
	root, err := parseObject(hooksJSON)
	if err != nil {
		return CodexInstall{}, fmt.Errorf("%s is not a JSON object: %w", hooksPath, err)
	}
	hooks, err := parseObject(root.get("hooks"))
	if err != nil {
		return CodexInstall{}, fmt.Errorf(`%s: "hooks" is not a JSON object: %w`, hooksPath, err)
	}
	g := hookGroup{Matcher: CodexMatcher, Hooks: []hookEntry{{Type: "command", Command: command, Timeout: timeoutSec}}}
	groups, err := replaceGroup(hooks.get("PermissionRequest"), "codex", g)
	if err != nil {
		return CodexInstall{}, fmt.Errorf(`%s: "hooks.PermissionRequest": %w`, hooksPath, err)
	}
	hooks.set("PermissionRequest", groups.raw)
	root.set("hooks", hooks.marshal())
	out, err := indent(root.marshal())
	if err != nil {
		return CodexInstall{}, err
	}
	res := CodexInstall{HooksJSON: out, TrustKey: CodexTrustKey(hooksPath, groups.index, 0)}
	if res.TrustHash, err = CodexTrustHash(CodexMatcher, command, timeoutSec); err != nil {
		return CodexInstall{}, err
	}
	if res.ConfigTOML, err = SetCodexTrust(configTOML, res.TrustKey, res.TrustHash); err != nil {
		return CodexInstall{}, err
	}
	return res, nil
}

// CodexTrustKey is the [hooks.state] key of the hook at group index g, hook index h of the
// PermissionRequest event in the file at path: "<path>:permission_request:<g>:<h>".
func CodexTrustKey(path string, g, h int) string {
	return fmt.Sprintf("%s:permission_request:%d:%d", path, g, h)
}

// CodexTrustHash is the trusted_hash Codex expects for a PermissionRequest hook group:
// "sha256:" and the hex SHA-256 of the compact, key-sorted JSON
// {"event_name":"permission_request","hooks":[{"async":false,"command":…,"timeout":…,"type":"command"}],"matcher":…}
// (matcher left out when empty, timeout 600 when unset), as docs/hooks.md records.
func CodexTrustHash(matcher, command string, timeoutSec int) (string, error) {
	if timeoutSec <= 0 {
		timeoutSec = 600
	}
	v := map[string]any{
		"event_name": "permission_request",
		"hooks":      []map[string]any{{"async": false, "command": command, "timeout": timeoutSec, "type": "command"}},
	}
	if matcher != "" {
		v["matcher"] = matcher
	}
	b, err := marshalNoEscape(v) // map keys are sorted
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// trustHeader is the [hooks.state."KEY"] header line of a trust entry.
func trustHeader(key string) string {
	k, _ := marshalNoEscape(key) // a JSON string is a valid TOML basic string for these keys
	return "[hooks.state." + string(k) + "]"
}

var trustedHashLineRE = lazyRegexp(`(?m)^[ \t]*trusted_hash[ \t]*=.*$`)

// SetCodexTrust returns config.toml content with [hooks.state."key"] trusted_hash = hash,
// editing the text so comments and layout survive: the entry's line is replaced when the table
// exists, the table is appended otherwise. The result is parsed to make sure it is valid TOML
// holding that hash; a config whose layout defeats this (an inline hooks table, say) is an
// error that says what to add by hand.
func SetCodexTrust(configTOML []byte, key, hash string) ([]byte, error) {
	header := trustHeader(key)
	entry := fmt.Sprintf("trusted_hash = %q", hash)
	text := string(configTOML)
	var out string
	if i := strings.Index(text, header); i >= 0 {
		body := text[i+len(header):]
		end := len(body)
		if j := strings.Index(body, "\n["); j >= 0 {
			end = j
		}
		section := body[:end]
		if loc := trustedHashLineRE().FindStringIndex(section); loc != nil {
			section = section[:loc[0]] + entry + section[loc[1]:]
		} else {
			section = "\n" + entry + section
		}
		out = text[:i+len(header)] + section + body[end:]
	} else {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" {
			text += "\n"
		}
		out = text + "# guardian's hook, trusted so that Codex runs it (see `guardian hook install codex`)\n" + header + "\n" + entry + "\n"
	}
	got, err := CodexTrustedHash([]byte(out), key)
	if err != nil || got != hash {
		return nil, fmt.Errorf("cannot add the trust entry to config.toml automatically (%v); add these lines yourself:\n%s\n%s", err, header, entry)
	}
	return []byte(out), nil
}

// CodexTrustedHash reads the trusted_hash of key from config.toml content ("" when absent).
func CodexTrustedHash(configTOML []byte, key string) (string, error) {
	var cfg struct {
		Hooks struct {
			State map[string]struct {
				TrustedHash string `toml:"trusted_hash"`
			} `toml:"state"`
		} `toml:"hooks"`
	}
	if err := toml.Unmarshal(configTOML, &cfg); err != nil {
		return "", fmt.Errorf("config.toml: %w", err)
	}
	return cfg.Hooks.State[key].TrustedHash, nil
}

// move is where one hook of an event's list went when guardian's hooks were removed: from
// (group, hook) to its new (group, hook), or removed.
type move struct {
	from, to [2]int
	removed  bool
}

// uninstallJSON removes guardian's hooks for host from event in a hooks config of the form
// {"hooks":{EVENT:[{"matcher","hooks":[…]}]}} and reports where every hook went. A group
// left without hooks is removed, then an event left without groups and a "hooks" object
// left empty; every other key and hook keeps its place and bytes.
func uninstallJSON(content []byte, event, host string) ([]byte, []move, error) {
	if len(bytes.TrimSpace(content)) == 0 {
		return content, nil, nil
	}
	root, err := parseObject(content)
	if err != nil {
		return nil, nil, fmt.Errorf("not a JSON object: %w", err)
	}
	hooks, err := parseObject(root.get("hooks"))
	if err != nil {
		return nil, nil, fmt.Errorf(`"hooks" is not a JSON object: %w`, err)
	}
	var groups []json.RawMessage
	if list := hooks.get(event); len(list) > 0 && string(list) != "null" {
		if err := json.Unmarshal(list, &groups); err != nil {
			return nil, nil, fmt.Errorf(`"hooks.%s" is not a list of hook groups: %w`, event, err)
		}
	}
	var (
		kept  []json.RawMessage
		moves []move
		found bool
	)
	for g, raw := range groups {
		group, err := parseObject(raw)
		if err != nil {
			kept = append(kept, raw)
			continue
		}
		var entries []json.RawMessage
		if err := json.Unmarshal(group.get("hooks"), &entries); err != nil {
			kept = append(kept, raw)
			continue
		}
		var left []json.RawMessage
		for h, e := range entries {
			var entry hookEntry
			if json.Unmarshal(e, &entry) == nil && IsGuardianCommand(entry.Command, host) {
				moves = append(moves, move{from: [2]int{g, h}, removed: true})
				found = true
				continue
			}
			moves = append(moves, move{from: [2]int{g, h}, to: [2]int{len(kept), len(left)}})
			left = append(left, e)
		}
		if len(left) == 0 {
			continue
		}
		if len(left) < len(entries) {
			b, err := json.Marshal(left)
			if err != nil {
				return nil, nil, err
			}
			group.set("hooks", b)
			raw = group.marshal()
		}
		kept = append(kept, raw)
	}
	if !found {
		return content, nil, nil
	}
	if len(kept) == 0 {
		hooks.remove(event)
	} else {
		b, err := json.Marshal(kept)
		if err != nil {
			return nil, nil, err
		}
		hooks.set(event, b)
	}
	if len(hooks.members) == 0 {
		root.remove("hooks")
	} else {
		root.set("hooks", hooks.marshal())
	}
	out, err := indent(root.marshal())
	return out, moves, err
}
