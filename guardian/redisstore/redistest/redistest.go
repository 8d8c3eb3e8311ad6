// Package redistest starts a real redis-server for tests: on a free loopback port, with no
// persistence, in the test's temporary directory, killed at cleanup. Tests that share state
// between replicas run against it rather than a fake, so what they prove holds for Redis.
//
// Without the redis-server binary the test fails and says how to install it (Debian:
// apt-get install -y redis-server), unless GUARDIAN_NO_REDIS=1 is set: then it is skipped.
package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// EnvNoRedis set to 1 skips the tests that need redis-server instead of failing them.
const EnvNoRedis = "GUARDIAN_NO_REDIS"

// Server is one running redis-server.
type Server struct {
	// Addr is host:port; URL is redis://Addr.
	Addr, URL string

	cmd      *exec.Cmd
	killOnce sync.Once
	exited   chan struct{}
}

// Start starts a redis-server for tb and registers its kill with tb.Cleanup.
func Start(tb testing.TB) *Server {
	tb.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv(EnvNoRedis) == "1" {
			tb.Skipf("redis-server is not installed and %s=1: skipping the Redis integration test", EnvNoRedis)
		}
		tb.Fatalf("redis-server is not installed: install it (Debian/Ubuntu: apt-get install -y redis-server; macOS: brew install redis), or set %s=1 to skip the tests that need it", EnvNoRedis)
	}
	// The port is chosen by the kernel and released just before redis-server binds it; a
	// collision makes redis-server exit, which Start reports, rather than a flaky test.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	dir := tb.TempDir()
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", dir, "--protected-mode", "yes", "--loglevel", "notice")
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start redis-server: %v", err)
	}
	s := &Server{Addr: fmt.Sprintf("127.0.0.1:%d", port), cmd: cmd, exited: make(chan struct{})}
	s.URL = "redis://" + s.Addr
	tb.Cleanup(s.Kill)

	// Wait for the line redis-server prints once it accepts connections; keep draining its
	// output afterwards so it never blocks on a full pipe.
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		var log strings.Builder
		for sc.Scan() {
			line := sc.Text()
			if log.Len() < 8<<10 {
				log.WriteString(line + "\n")
			}
			if strings.Contains(line, "Ready to accept connections") {
				ready <- nil
				_, _ = io.Copy(io.Discard, out)
				_ = cmd.Wait()
				close(s.exited)
				return
			}
		}
		ready <- errors.New("redis-server exited before it was ready:\n" + log.String())
		_ = cmd.Wait()
		close(s.exited)
	}()
	select {
	case err := <-ready:
		if err != nil {
			tb.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		tb.Fatal("redis-server did not say it was ready within 30s")
	}
	return s
}

// Kill stops the server at once (SIGKILL), as a crash or a network partition would, and
// waits until the process has exited. It is safe to call more than once.
func (s *Server) Kill() {
	s.killOnce.Do(func() {
		_ = s.cmd.Process.Kill()
		<-s.exited
	})
}
