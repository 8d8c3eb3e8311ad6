package riskmodel

import (
	"path"
	"slices"
	"strings"
)

// mcpWorkspaces returns the directories of a request's declared workspace that may serve as
// one: absolute, cleaned, each once, in order. Relative paths (there is nothing to resolve
// them against), "/", the home directory, a directory above it and a top-level system
// directory are dropped: any of them would make the user's whole home, or the system, a place
// the agent may change freely (docs/policy.md: "$HOME itself and / are never a workspace").
func mcpWorkspaces(home string, dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if !strings.HasPrefix(d, "/") {
			continue
		}
		d = path.Clean(d)
		if d == "/" || d == home || isAncestor(d, home) || isTopLevelSystem(d) || slices.Contains(out, d) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// mcpWorkspaceHome infers the home directory from the first absolute directory of a declared
// workspace that lies in a home (/home/NAME, /Users/NAME, /root), for a policy that names no
// home: the workspace comes from the host, so it is a better witness than the call's
// arguments. "" when none does.
func mcpWorkspaceHome(dirs []string) string {
	for _, d := range dirs {
		if !strings.HasPrefix(d, "/") {
			continue
		}
		d = path.Clean(d)
		if strings.HasPrefix(d, "/home/") || strings.HasPrefix(d, "/Users/") || d == "/root" || strings.HasPrefix(d, "/root/") {
			if h := inferHome(d); h != "/home/user" {
				return h
			}
		}
	}
	return ""
}
