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
	// Record receives a host's report of how a tool call ended (Call.Outcome), so that what
	// the person answered at the host's prompt is recorded against guardian's ask. nil: such
	// reports are ignored. Its error only goes to stderr: the report needs no reply.
	Record func(ctx context.Context, c Call) error
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
		growStack()
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
		if c.Outcome != "" {
			var r Reply
			if in.Record != nil {
				if err := in.Record(ctx, c); err != nil {
					r.Stderr = "guardian: the host's answer is not in the audit log: " + err.Error() + "\n"
				}
			}
			done <- r
			return
		}
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

// reviewStack is about the stack a rules review of a routine call reaches (the shell parser,
// the rule walk, the audit's JSON encoding). See growStack.
const reviewStack = 64 << 10

// growStack grows the calling goroutine's stack to reviewStack at once, while the goroutine is
// shallow. A goroutine starts with a few KiB of stack and doubles it whenever a call would
// overflow; each doubling copies the stack and walks every frame on it to adjust pointers,
// which in a fresh process also faults in the runtime's tables for each frame. The review
// reaches its depth in five or six doublings, taken deep inside the parser: about a tenth of
// a hook call's CPU (docs/hooks.md, "What a hook call costs"). One doubling to the final size
// at the top costs a 64 KiB clear.
//
//go:noinline
func growStack() {
	var frame [reviewStack]byte
	stackSink(frame[:])
}

// stackSink keeps growStack's frame from being optimised away.
//
//go:noinline
func stackSink(b []byte) { b[0] = 1 }
