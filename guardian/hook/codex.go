package hook

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// Codex is Codex's tool-hook protocol. Its PermissionRequest hook answers
// {"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow|deny","message":"…"}}}
// or nothing ("no verdict": Codex's auto-review or its prompt decides), so guardian's ask is
// no output. Its PreToolUse hook honours only deny, which guardian gives as exit status 2 with
// the reason on stderr (Codex's documented block, also read as deny by Claude Code).
//
// Codex treats a silent hook, exit 1, a timeout or garbage as "no verdict", so the fail-safe
// reply is no output: the human (or Codex's own reviewer) decides, never guardian's allow.
type Codex struct{}

// Parse reads Codex's hook payload: Bash (shell and exec commands, with the model's
// justification as description) and mcp__SERVER__TOOL (Codex's own approval of an MCP call).
// Codex has no file-writing tool hook; apply_patch and others get no opinion.
//
// A call from a sub-agent (spawn_agent) carries agent_id (the sub-agent's thread id) and
// agent_type (its role). Codex does not document that agent_id is absent only for the main
// agent, so a payload without it counts as the main agent only when its transcript is the
// session's own (the main thread's rollout file is named after session_id; a sub-agent's
// after its own thread id); else the agent stays unknown.
func (Codex) Parse(stdin []byte, _ func(string) string) (Call, error) {
	return parsePayload("codex", stdin, false, codexMain)
}

// codexMain reports whether a payload without agent_id is the main agent's.
func codexMain(p payload) bool {
	return p.SessionID != "" && strings.Contains(filepath.Base(p.TranscriptPath), p.SessionID)
}

// Answer renders res in the call's event format.
func (Codex) Answer(c Call, res guardian.Result) Reply {
	switch c.Event {
	case EventPermissionRequest:
		return permissionRequest(res.Decision, reason(res))
	case EventPreToolUse:
		if res.Decision == riskmodel.Deny {
			return Reply{Exit: 2, Stderr: reason(res) + "\n"}
		}
	}
	return Reply{}
}

// Failsafe gives no verdict, whatever the event.
func (Codex) Failsafe(_, why string) Reply {
	return Reply{Stderr: clean("guardian could not review this request, leaving it to you: "+why) + "\n"}
}

// codexHost is Codex: a PermissionRequest hook in $CODEX_HOME/hooks.json and its trust entry
// in $CODEX_HOME/config.toml (docs/hooks.md).
func codexHost() Host {
	return Host{
		Name:        "codex",
		Title:       "Codex",
		Summary:     "Codex PermissionRequest (Bash, mcp__* tools)",
		Protocol:    Codex{},
		ConfigFlag:  "codex-home",
		ConfigUsage: "Codex home `DIR` (default $CODEX_HOME, else ~/.codex)",
		Paths: func(flag string, getenv func(string) string) ([]string, error) {
			dir, err := homeDir(flag, "CODEX_HOME", ".codex", getenv)
			if err != nil {
				return nil, err
			}
			return []string{filepath.Join(dir, "hooks.json"), filepath.Join(dir, "config.toml")}, nil
		},
		Install: func(files []File, command string, timeoutSec int) ([]File, error) {
			res, err := InstallCodex(files[0].Content, files[0].Path, files[1].Content, command, timeoutSec)
			if err != nil {
				return nil, err
			}
			return withContents(files, res.HooksJSON, res.ConfigTOML), nil
		},
		Uninstall: uninstallCodex,
		Done:      "approvals reach hooks only interactively or with codex exec --approve-for-me; check it with: guardian verify",
		Verify: Verifier{
			Event:          EventPermissionRequest,
			Tools:          []string{"Bash", "mcp__example__tool"},
			TimeoutUnit:    time.Second,
			DefaultTimeout: 600 * time.Second,
			Find: func(files []File) ([]Installed, error) {
				return FindInstalled(files[0].Content, EventPermissionRequest, "codex")
			},
			Check:     checkCodexTrust,
			Payload:   func(command, project string) string { return canaryPayload(EventPermissionRequest, command, project) },
			Held:      "no verdict",
			Interpret: func(out []byte, code int) string { return interpretClaudeStyle("codex", out, code) },
		},
	}
}

// checkCodexTrust checks that config.toml trusts the hook as it is now: Codex skips an
// untrusted hook, or one changed since it was trusted, silently.
func checkCodexTrust(files []File, h Installed) []Finding {
	hooksPath, configPath := files[0].Path, files[1].Path
	key := CodexTrustKey(hooksPath, h.Group, h.Index)
	want, err := CodexTrustHash(h.Matcher, h.Command, h.Timeout)
	if err != nil {
		return []Finding{{false, err.Error()}}
	}
	got, err := CodexTrustedHash(files[1].Content, key)
	switch {
	case err != nil:
		return []Finding{{false, fmt.Sprintf("%s: %v", configPath, err)}}
	case got == "":
		return []Finding{{false, fmt.Sprintf("trusted: no [hooks.state.%q] in %s — Codex skips this hook silently; run guardian hook install codex --write", key, configPath)}}
	case got != want:
		return []Finding{{false, fmt.Sprintf("trusted: the trusted_hash in %s is for another hook (the hook changed since it was trusted) — Codex skips it silently; run guardian hook install codex --write", configPath)}}
	}
	return []Finding{{true, "trusted by " + configPath}}
}

// uninstallCodex removes guardian's PermissionRequest hooks from hooks.json and their trust
// entries from config.toml. The hooks after a removed one move up, and Codex keys trust by
// position, so their trust entries are renamed to the new positions: the user's own hooks
// stay trusted.
func uninstallCodex(files []File) ([]File, error) {
	hooksPath := files[0].Path
	out, moved, err := uninstallJSON(files[0].Content, EventPermissionRequest, "codex")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", hooksPath, err)
	}
	config := string(files[1].Content)
	for _, m := range moved {
		oldKey := CodexTrustKey(hooksPath, m.from[0], m.from[1])
		if m.removed {
			config = removeTOMLTable(config, trustHeader(oldKey))
			continue
		}
		if m.from != m.to {
			config = strings.Replace(config, trustHeader(oldKey), trustHeader(CodexTrustKey(hooksPath, m.to[0], m.to[1])), 1)
		}
	}
	newConfig := []byte(config)
	if files[1].Content == nil && config == "" {
		newConfig = nil
	}
	return withContents(files, out, newConfig), nil
}

// removeTOMLTable removes the table that starts with header up to the next table, with the
// comment line guardian's installer writes above it.
func removeTOMLTable(text, header string) string {
	i := strings.Index(text, header)
	if i < 0 {
		return text
	}
	end := len(text)
	if j := strings.Index(text[i+len(header):], "\n["); j >= 0 {
		end = i + len(header) + j + 1
	}
	start := i
	const comment = "# guardian's hook, trusted so that Codex runs it (see `guardian hook install codex`)\n"
	if strings.HasSuffix(text[:start], comment) {
		start -= len(comment)
	}
	text = text[:start] + text[end:]
	return strings.TrimRight(text, "\n") + "\n"
}
