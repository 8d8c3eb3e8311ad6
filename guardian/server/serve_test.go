package server_test

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// notifyListener reports when the server has closed it, which http.Server.Shutdown does
// first. The report comes after the close, so a dial that follows it is refused.
type notifyListener struct {
	net.Listener
	once   sync.Once
	closed chan struct{}
}

func (l *notifyListener) Close() error {
	err := l.Listener.Close()
	l.once.Do(func() { close(l.closed) })
	return err
}

// TestGracefulShutdown holds N reviews in flight, cancels Serve's context, and checks that new
// connections are refused while the N finish: every one answered 200 and audited.
func TestGracefulShutdown(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) {
			const n = 8
			addr := "127.0.0.1:0"
			if network == "unix" {
				addr = "unix:" + filepath.Join(t.TempDir(), "g.sock")
			}
			ln, err := server.Listen(context.Background(), addr)
			if err != nil {
				t.Fatal(err)
			}
			target := "http://" + ln.Addr().String()
			if network == "unix" {
				target = "unix://" + ln.Addr().String()
			}
			nl := &notifyListener{Listener: ln, closed: make(chan struct{})}
			g := newGate(n)
			aud := &countingAuditor{}
			srv := server.New(guardian.Audited(g, aud, time.Now))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			served := make(chan error, 1)
			go func() { served <- srv.Serve(ctx, nl) }()

			c, err := server.NewClient(target)
			if err != nil {
				t.Fatal(err)
			}
			req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"make", "test"}, Cwd: "/home/dev/proj"})
			type outcome struct {
				res guardian.Result
				err error
			}
			outcomes := make(chan outcome, n)
			for range n {
				go func() {
					res, err := c.Decide(context.Background(), req, guardian.Caller{Host: "test"})
					outcomes <- outcome{res, err}
				}()
			}
			for range n {
				<-g.entered
			}
			cancel()
			<-nl.closed

			// Shutdown has begun: nothing new gets in, and a client sees nothing listening.
			if _, err := c.Decide(context.Background(), req, guardian.Caller{}); !errors.Is(err, server.ErrUnreachable) {
				t.Errorf("review after shutdown began: err = %v, want ErrUnreachable", err)
			}

			close(g.release)
			for range n {
				o := <-outcomes
				if o.err != nil || o.res.Decision != riskmodel.Ask {
					t.Errorf("in-flight review: %+v, %v; want its decision", o.res, o.err)
				}
			}
			if err := <-served; err != nil {
				t.Errorf("Serve: %v", err)
			}
			if got := aud.n.Load(); got != n {
				t.Errorf("audited %d decisions, want %d", got, n)
			}
		})
	}
}

// TestDrainTimeout: a review that outlives the drain timeout is cut off (its context is
// cancelled) and reported, and Serve returns only after it has returned.
func TestDrainTimeout(t *testing.T) {
	ln, err := server.Listen(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := newGate(1)
	returned := make(chan struct{})
	d := guardian.DeciderFunc(func(ctx context.Context, req guardian.Request, c guardian.Caller) (guardian.Result, error) {
		defer close(returned)
		return g.Decide(ctx, req, c)
	})
	srv := server.New(d, server.WithDrainTimeout(time.Millisecond))
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	c, err := server.NewClient("http://" + ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	answered := make(chan error, 1)
	go func() {
		_, err := c.Decide(context.Background(), guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}}), guardian.Caller{})
		answered <- err
	}()
	<-g.entered
	cancel()
	err = <-served
	if err == nil || !strings.Contains(err.Error(), "drain: requests still in flight after 1ms were cut off") {
		t.Errorf("Serve: %v, want the drain timeout reported", err)
	}
	// The cut-off review has returned before Serve did, so closing the audit log next is safe.
	select {
	case <-returned:
	default:
		t.Error("Serve returned while a cut-off review was still running")
	}
	close(g.release)
	if err := <-answered; err == nil {
		t.Error("a review cut off at shutdown must be an error for its client, never a decision")
	}
}
