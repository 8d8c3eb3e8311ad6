package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/oneshot"
	"github.com/guardianhq/guardian/riskmodel"
)

// handoff is guardian-hook's oneshot.Network. guardian-hook links no network client — no
// net/http, TLS, model client or serve client, whose package initialisation alone would
// cost every hook call about 0.65 ms (docs/hooks.md, "What a hook call costs") — so it
// answers only what needs no network: a review the rules decide, with its audit record,
// breakers and monitor mode. A call that needs a guardian serve ($GUARDIAN_URL, or a socket
// at the serve's default path), or one the rules leave to a model review (when the config
// or the environment names a model), is handed, unchanged, to the guardian beside it:
// oneshot calls the Network at the point where the call first needs it, before anything is
// audited or written, and the hand-off replaces this process with guardian, given the same
// arguments, environment and standard input (the payload this process has already read, fed
// to it again). Such calls wait on the network for tens to hundreds of milliseconds anyway
// (a model review, a serve that may hold an ask for a person), so guardian's slower start
// matters little there.
//
// When guardian cannot be run, the method returns the error, and the host gets the
// fail-safe reply, recorded in the audit log, as for any failure: never an answer reviewed
// without the serve or the model the configuration asks for.
type handoff struct {
	// stdin holds what this process has read of its standard input.
	stdin *bytes.Buffer
	// exec replaces the process with guardian, reading stdin; it returns only on failure.
	exec func(stdin []byte) error
}

// Serve implements oneshot.Network.
func (h handoff) Serve(s oneshot.Serve) (guardian.Decider, func(), error) {
	return nil, nil, h.handOff("the guardian serve at " + s.Target + " decides this call")
}

// ModelReviewer implements oneshot.Network: a reviewer that hands the call to guardian when
// the rules leave it to the model. A call the rules decide on their own — a routine command
// allowed, a destructive one denied — is answered here, with a model configured or not.
func (h handoff) ModelReviewer(_ guardian.Config, mc guardian.ModelConfig) (guardian.Reviewer, error) {
	return handoffReviewer{h: h, model: mc.Model}, nil
}

// handoffReviewer is the model reviewer of guardian-hook's pipeline.
type handoffReviewer struct {
	h     handoff
	model string
}

// Review implements guardian.Reviewer: it replaces the process with guardian, which reviews
// the call again from the start, rules and model, and answers the host. Nothing has been
// audited or saved yet (the pipeline records after its reviewer returns), so the call leaves
// one record, guardian's. It returns only when guardian cannot run: an *oneshot.UnreachedError,
// which oneshot answers with the fail-safe reply.
func (r handoffReviewer) Review(context.Context, guardian.Request, riskmodel.Verdict) (guardian.Review, error) {
	return guardian.Review{}, &oneshot.UnreachedError{Err: r.h.handOff(fmt.Sprintf("the rules leave this call to the model review (%s)", r.model))}
}

func (h handoff) handOff(why string) error {
	return fmt.Errorf("%s, which only guardian reaches, but %w", why, h.exec(h.stdin.Bytes()))
}

// recordingReader is a reader that keeps a copy of what it reads.
type recordingReader struct {
	r   io.Reader
	buf bytes.Buffer
}

func (r *recordingReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.buf.Write(p[:n])
	return n, err
}

// execGuardian replaces this process with the guardian installed beside it, with the same
// arguments and environment and the standard input it has now. It returns only on failure.
func execGuardian(args []string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("guardian-hook cannot find its own path, beside which guardian lies (%w)", err)
	}
	full := filepath.Join(filepath.Dir(exe), "guardian")
	if err := syscall.Exec(full, append([]string{full}, args...), os.Environ()); err != nil {
		return fmt.Errorf("%s cannot run (%w): install guardian beside guardian-hook", full, err)
	}
	return nil
}

// execGuardianWith is execGuardian with stdin as the standard input: the host's payload,
// which this process has read from its own, fed to guardian again.
func execGuardianWith(args []string, stdin []byte) error {
	if err := setStdin(stdin); err != nil {
		return fmt.Errorf("the payload cannot be passed on to guardian: %w", err)
	}
	return execGuardian(args)
}
