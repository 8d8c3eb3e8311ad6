package approval

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/prompts"
	"github.com/guardianhq/guardian/riskmodel"
)

// Shape returns the exact shape of a request — what a grant allows again — as a line for
// people (secrets redacted) and as a key for matching (a digest of the unredacted shape, so
// two requests that differ only in a secret are different shapes).
//
// An exec request's shape is its command: the script of `bash -c SCRIPT` (and sh, zsh, -lc),
// else the argv joined with shell quoting where a word needs it. The cwd is not part of it: a
// grant's scope says where it applies. An MCP request's shape is server/tool and its
// arguments, exactly (keys sorted): a grant for deleting notebook 42 does not delete 43.
func Shape(req guardian.Request) (line, key string) {
	switch req.Kind {
	case riskmodel.KindExec:
		if req.Exec == nil {
			return "", ""
		}
		raw := commandLine(req.Exec.Command)
		return commandLine(prompts.RedactArgv(req.Exec.Command)), digest("exec", raw)
	case riskmodel.KindMCP:
		if req.MCP == nil {
			return "", ""
		}
		m := req.MCP
		args, _ := json.Marshal(m.Arguments) // maps marshal with sorted keys
		red, err := prompts.RedactArguments(m.Arguments)
		shown := []byte("{…}")
		if err == nil {
			shown, _ = json.Marshal(red)
		}
		name := riskmodel.RedactSecrets(m.Server) + "/" + riskmodel.RedactSecrets(m.Tool)
		return name + " " + string(shown), digest("mcp", m.Server, m.Tool, string(args))
	}
	return "", ""
}

// commandLine is the command an argv runs, as one line: the script of a shell's -c.
func commandLine(argv []string) string {
	if len(argv) == 3 {
		switch filepath.Base(argv[0]) {
		case "bash", "sh", "zsh", "dash":
			if argv[1] == "-c" || argv[1] == "-lc" {
				return strings.TrimSpace(argv[2])
			}
		}
	}
	words := make([]string, len(argv))
	for i, w := range argv {
		if w == "" || strings.ContainsAny(w, " \t\n'\"\\$`|&;<>()*?[]{}~#!") {
			w = strconv.Quote(w)
		}
		words[i] = w
	}
	return strings.Join(words, " ")
}

// digest is a sha256 over parts separated by NUL, which no part can contain ambiguously
// (the parts are a kind, names and JSON).
func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Project is the project a request belongs to, for project grants: the repository root
// (the nearest directory holding .git) of an exec request's cwd, else the cwd itself; an MCP
// request's first workspace. "" when the request names none.
func Project(req guardian.Request) string {
	switch {
	case req.Kind == riskmodel.KindExec && req.Exec != nil && filepath.IsAbs(req.Exec.Cwd):
		cwd := filepath.Clean(req.Exec.Cwd)
		for dir := cwd; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
				return dir
			}
			if dir == filepath.Dir(dir) {
				return cwd
			}
		}
	case req.Kind == riskmodel.KindMCP && req.MCP != nil && len(req.MCP.Workspace) > 0:
		return filepath.Clean(req.MCP.Workspace[0])
	}
	return ""
}
