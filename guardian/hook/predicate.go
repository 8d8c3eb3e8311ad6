package hook

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// The environment of the Codex approval-predicate protocol.
const (
	EnvCodexSessionID    = "CODEX_SESSION_ID"
	EnvCodexContainerCwd = "CODEX_CONTAINER_CWD"
	EnvCodexHostCwd      = "CODEX_HOST_CWD"
	EnvCodexCommand      = "CODEX_COMMAND"
)

// Predicate is the Codex approval-predicate protocol: an executable run with CODEX_SESSION_ID,
// CODEX_CONTAINER_CWD, CODEX_HOST_CWD and CODEX_COMMAND in its environment that prints
// exactly allow, deny or ask. A non-zero exit or any other output counts as ask, so ask is
// also the fail-safe. The word is printed without a newline: a host comparing the output
// exactly and one trimming it both read it.
type Predicate struct{}

// Parse builds an exec review from the environment. CODEX_COMMAND is the candidate shell
// command string (reviewed as bash -c STRING); a JSON array of strings is taken as an argv.
// The command's paths are relative to the container's working directory, so that is the
// cwd, falling back to the host's.
func (Predicate) Parse(_ []byte, getenv func(string) string) (Call, error) {
	c := Call{Event: "predicate", Caller: guardian.Caller{Host: "predicate", Session: getenv(EnvCodexSessionID)}}
	cmd := getenv(EnvCodexCommand)
	if strings.TrimSpace(cmd) == "" {
		return c, errors.New(EnvCodexCommand + " is not set or empty: the predicate protocol passes the command there")
	}
	argv := []string{"bash", "-c", cmd}
	if strings.HasPrefix(strings.TrimSpace(cmd), "[") {
		var words []string
		if json.Unmarshal([]byte(cmd), &words) == nil && len(words) > 0 {
			argv = words
		}
	}
	cwd := getenv(EnvCodexContainerCwd)
	if cwd == "" {
		cwd = getenv(EnvCodexHostCwd)
	}
	r := guardian.ExecRequest(riskmodel.ExecRequest{Command: argv, Cwd: cwd})
	c.Request = &r
	return c, nil
}

// Answer prints the decision's word.
func (Predicate) Answer(_ Call, res guardian.Result) Reply {
	switch res.Decision {
	case riskmodel.Allow:
		return Reply{Stdout: []byte("allow")}
	case riskmodel.Deny:
		return Reply{Stdout: []byte("deny"), Stderr: reason(res) + "\n"}
	}
	return Reply{Stdout: []byte("ask"), Stderr: reason(res) + "\n"}
}

// Failsafe prints ask.
func (Predicate) Failsafe(_, why string) Reply {
	return Reply{Stdout: []byte("ask"), Stderr: clean("guardian could not review this command: "+why) + "\n"}
}
