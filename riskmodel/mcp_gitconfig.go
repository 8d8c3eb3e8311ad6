package riskmodel

import (
	"path"
	"strings"
)

// A repository's .git/config (git-config(1) FILES) is read by every git command run in it:
// a key whose value is a command — core.sshCommand, core.fsmonitor, core.pager, an alias
// starting with !, a filter's clean/smudge — runs that command later, unattended. An MCP
// write or edit of the file is judged by the keys it writes, as `git config KEY VALUE`
// is by vcs.config-exec.

// isRepoGitConfig reports a repository's own configuration file (.git/config, a linked
// worktree's config.worktree, a submodule's .git/modules/NAME/config).
func isRepoGitConfig(p string) bool {
	p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
	b := path.Base(p)
	if b != "config" && b != "config.worktree" {
		return false
	}
	return strings.HasSuffix(path.Dir(p), ".git") || strings.Contains(p, "/.git/modules/") || strings.Contains(p, "/.git/worktrees/")
}

// gitConfigExecKey finds, in text written to a git config file, the first key that makes
// git run a program, with its value; sure says the command is certainly one nobody
// reviewed (it fetches or runs remote code, or is a shell fsmonitor or credential helper).
func gitConfigExecKey(text string) (key, value string, sure, ok bool) {
	section := ""
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[") {
			if i := strings.IndexByte(l, ']'); i > 0 {
				section = "" // [core], [filter "lfs"], [remote "origin"]: the section's name
				if f := strings.Fields(l[1:i]); len(f) > 0 {
					section = strings.ToLower(f[0])
				}
				l = strings.TrimSpace(l[i+1:])
			}
		}
		k, v, found := strings.Cut(l, "=")
		if !found {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		full := section + "." + k
		runs := false
		switch {
		case section == "core" && (k == "sshcommand" || k == "pager" || k == "editor" || k == "askpass" || k == "gitproxy" || k == "hookspath"),
			section == "core" && k == "fsmonitor" && !isGitBool(v),
			section == "credential" && k == "helper" && strings.HasPrefix(v, "!"),
			section == "alias" && strings.HasPrefix(strings.Trim(v, `"`), "!"),
			section == "filter" && (k == "clean" || k == "smudge" || k == "process"),
			section == "diff" && (k == "textconv" || k == "command" || k == "external"),
			section == "merge" && k == "driver",
			section == "sequence" && k == "editor", section == "gpg" && k == "program", section == "pager",
			section == "uploadpack" && k == "packobjectshook", section == "remote" && (k == "uploadpack" || k == "receivepack"):
			runs = true
		}
		if !runs {
			continue
		}
		sure = mcpReRemoteCode.MatchString(v) || section == "core" && k == "fsmonitor" || section == "credential"
		return full, v, sure, true
	}
	return "", "", false, false
}

func isGitBool(v string) bool {
	switch strings.ToLower(strings.Trim(v, `"`)) {
	case "true", "false", "yes", "no", "on", "off", "1", "0", "":
		return true
	}
	return false
}
