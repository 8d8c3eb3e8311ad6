package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/oneshot"
	"github.com/guardianhq/guardian/riskmodel"
)

// Exit codes. A caller can tell the three decisions apart from each other and from every kind
// of failure without parsing output; no failure ever exits 0.
const (
	exitAllow    = 0 // review: the decision is allow
	exitInternal = 1 // internal error; `rules test`: a rule example failed
	exitUsage    = 2 // usage error: unknown command or flag, bad flag value, wrong arguments
	exitInvalid  = 3 // invalid request (malformed JSON, unknown key, over 256 KiB) or invalid config
	// exitFailOn: `guardian eval` ran, but a --fail-on condition holds — the reviewer did worse
	// than the caller accepts. CI can tell "the reviewer regressed" from "the eval could not run".
	exitFailOn = 4
	exitAsk    = 10 // review: the decision is ask (hand the request to the human)
	exitDeny   = 20 // review: the decision is deny
)

// exitCodesHelp documents the exit codes in `guardian --help`; README.md has the same table.
const exitCodesHelp = `Exit codes:
   0  allow: the request may run
  10  ask: hand the request to the human
  20  deny: the request must not run
   1  internal error (and: rules test found failing examples)
   2  usage error: unknown command or flag, bad flag value, wrong arguments
   3  invalid request or config: malformed JSON, unknown key, request over 256 KiB,
      config file that does not load
   4  eval: a --fail-on condition holds`

// exitError carries an exit code through cobra. A nil err is a silent exit: a review's ask
// or deny is an answer, not a failure, and its output has already been written.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErrorf reports a command line guardian cannot act on (exit 2).
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// invalidError reports an invalid request or config (exit 3).
func invalidError(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitInvalid, err: err}
}

// decisionExit turns a review's decision into its exit status: nil for allow. An unknown
// decision is an internal error, never allow.
func decisionExit(d riskmodel.Decision) error {
	switch d {
	case riskmodel.Allow:
		return nil
	case riskmodel.Ask:
		return &exitError{code: exitAsk}
	case riskmodel.Deny:
		return &exitError{code: exitDeny}
	}
	return &exitError{code: exitInternal, err: fmt.Errorf("review produced an invalid decision %v", d)}
}

// exitCode maps the error of a command to the process exit status.
func exitCode(err error) int {
	if err == nil {
		return exitAllow
	}
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case oneshot.IsInvalid(err):
		return exitInvalid
	case errors.Is(err, guardian.ErrTooLarge):
		return exitInvalid
	case isCobraUsageError(err):
		return exitUsage
	}
	return exitInternal
}

// isCobraUsageError recognizes the few command-line errors cobra reports without going
// through the flag error func or an Args validator.
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "required flag", "if any flags in the group", "none of the others can be", "at least one of the flags"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// errorMessage is what is printed for err on stderr; "" for a silent exit.
func errorMessage(err error) string {
	if err == nil {
		return ""
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.err == nil {
		return ""
	}
	return err.Error()
}
