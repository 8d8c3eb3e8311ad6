package hook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"github.com/guardianhq/guardian/guardian"
)

// MaxInputBytes bounds what a hook reads from stdin. Claude Code's Write tool puts the whole
// file in its payload, so the bound is well above guardian's 256 KiB request limit (which
// still applies to what is reviewed); input over it gets the fail-safe reply.
const MaxInputBytes = 8 << 20

// DefaultDeadline is a hook's own deadline: everything — reading the payload, loading the
// config, the review, the audit record — must fit in it, and it sits below the host timeout
// guardian's installers write (10 s), so the host never kills the hook first.
const DefaultDeadline = 8 * time.Second

// DecideFunc decides a parsed call. The hook command builds the decider lazily inside it
// (config, pipeline, audit log, or a client of guardian serve), so that a slow disk or a
// broken config is covered by the deadline and the panic guard like the review itself.
type DecideFunc func(ctx context.Context, c Call) (guardian.Result, error)

// Input is what a hook process receives from its host.
type Input struct {
	Stdin  io.Reader
	Getenv func(string) string
}

// Run answers one hook invocation with p's reply before deadline, whatever happens: the work
// runs in its own goroutine with a panic guard, and when the deadline passes first the
// fail-safe reply is returned at once (the goroutine is abandoned; the process exits after
// printing). A call on which guardian has no opinion gets p's no-verdict reply without
// deciding.
func Run(ctx context.Context, p Protocol, in Input, decide DecideFunc, deadline time.Duration) Reply {
	if deadline <= 0 {
		deadline = DefaultDeadline
	}
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	var (
		mu     sync.Mutex
		parsed *Call // the call once parsed, for a fail-safe in its format and its audit record
	)
	failsafe := func(why string) Reply {
		mu.Lock()
		c := parsed
		mu.Unlock()
		event := ""
		if c != nil {
			event = c.Event
		}
		r := p.Failsafe(event, why)
		r.Failsafe, r.Call = why, c
		return r
	}
	done := make(chan Reply, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				r := failsafe(fmt.Sprintf("internal error (panic): %v", v))
				r.Stderr += string(debug.Stack())
				done <- r
			}
		}()
		stdin, err := readInput(in.Stdin)
		if err != nil {
			done <- failsafe(err.Error())
			return
		}
		getenv := in.Getenv
		if getenv == nil {
			getenv = func(string) string { return "" }
		}
		c, err := p.Parse(stdin, getenv)
		if err != nil {
			// Only the event is known: a failed parse has no request to record.
			mu.Lock()
			parsed = &Call{Event: c.Event}
			mu.Unlock()
			done <- failsafe(err.Error())
			return
		}
		mu.Lock()
		parsed = &c
		mu.Unlock()
		if c.Request == nil {
			done <- NoVerdict(p, c.Event)
			return
		}
		res, err := decide(ctx, c)
		if err != nil {
			done <- failsafe(err.Error())
			return
		}
		done <- p.Answer(c, res)
	}()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		why := fmt.Sprintf("no decision within the hook deadline of %s", deadline)
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			why = "interrupted before a decision"
		}
		return failsafe(why)
	}
}

// readInput reads stdin up to MaxInputBytes; nil stdin reads as empty.
func readInput(r io.Reader) ([]byte, error) {
	if r == nil {
		return nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read the hook payload from stdin: %w", err)
	}
	if len(b) > MaxInputBytes {
		return nil, fmt.Errorf("hook payload exceeds the limit of %d bytes (8 MiB)", MaxInputBytes)
	}
	return b, nil
}
