package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/guardianhq/guardian/guardian"
)

// DefaultAddr is where guardian serve listens unless told otherwise: loopback only, so that
// without a token nothing but this machine can ask for decisions or read the audit log.
const DefaultAddr = "127.0.0.1:7420"

// maxSocketPath is the longest unix socket path every supported OS accepts (sun_path is 104
// bytes on macOS and BSD, 108 on Linux, including the terminating NUL).
const maxSocketPath = 103

// SocketPath returns the path of a unix socket address — "unix:/path" or "unix:///path" — and
// whether addr is one.
func SocketPath(addr string) (string, bool) {
	rest, ok := strings.CutPrefix(addr, "unix:")
	if !ok {
		return "", false
	}
	if strings.HasPrefix(rest, "//") { // unix:///path, the URL form
		rest = strings.TrimPrefix(rest, "//")
	}
	return rest, true
}

// Listen listens on addr: a TCP host:port ("" is DefaultAddr) or a unix socket as
// "unix:/path" (see ListenUnix).
func Listen(ctx context.Context, addr string) (net.Listener, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	if path, ok := SocketPath(addr); ok {
		return ListenUnix(ctx, path)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("listen on %s: the address is in use (another guardian serve?): stop that process or choose another --addr: %w", addr, err)
	case err != nil:
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

// ListenUnix listens on a unix socket at path, readable and writable by this user only (mode
// 0600). A missing directory is created with mode 0700; an existing one must not be writable
// by other users unless it is sticky (like /tmp), since they could replace the socket. A
// stale socket file (nothing accepts on it, e.g. after a crash) is removed; a live one is an
// error, so a second guardian serve cannot silently steal the first one's clients. The
// socket file is removed when the listener is closed.
func ListenUnix(ctx context.Context, path string) (net.Listener, error) {
	if path == "" {
		return nil, errors.New("listen on a unix socket: empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("listen on unix socket %s: %w", path, err)
	}
	path = abs
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("listen on unix socket %s: the path is %d bytes, the limit is %d: choose a shorter path", path, len(path), maxSocketPath)
	}
	if err := privateDir(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("listen on unix socket %s: %w", path, err)
	}
	if err := removeStaleSocket(ctx, path); err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on unix socket %s: %w", path, err)
	}
	// The directory keeps other users out between bind and chmod.
	if err := os.Chmod(path, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("listen on unix socket %s: restrict it to mode 0600: %w", path, err)
	}
	return ln, nil
}

// privateDir makes sure dir exists and other users cannot replace files in it.
func privateDir(dir string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("create its directory: %w", err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("check its directory: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if st.Mode().Perm()&0o022 != 0 && st.Mode()&fs.ModeSticky == 0 {
		return fmt.Errorf("directory %s (mode %04o) is writable by other users, who could replace the socket: use a private directory (chmod 700 %s) or one guardian creates", dir, st.Mode().Perm(), dir)
	}
	return nil
}

// removeStaleSocket removes a socket file nothing listens on, and refuses to touch a live
// socket or a file that is not a socket.
func removeStaleSocket(ctx context.Context, path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("listen on unix socket %s: %w", path, err)
	}
	if st.Mode()&fs.ModeSocket == 0 {
		return fmt.Errorf("listen on unix socket %s: the file exists and is not a socket: remove it or choose another --socket", path)
	}
	d := net.Dialer{Timeout: time.Second}
	conn, err := d.DialContext(ctx, "unix", path)
	if err == nil {
		_ = conn.Close()
		return fmt.Errorf("another guardian serve is listening on %s: stop it first, or choose another --socket", path)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("listen on unix socket %s: cannot tell whether the existing socket is in use: %w", path, err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove the stale socket %s: %w", path, err)
	}
	return nil
}

// IsLoopback reports whether addr can only be reached from this machine: a unix socket, a
// loopback IP (127.0.0.0/8, ::1) or "localhost". A host name or an empty host (all
// interfaces, ":7420") is not: guardian serve refuses to listen there without a token.
func IsLoopback(addr string) bool {
	if _, ok := SocketPath(addr); ok {
		return true
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	host, _, _ = strings.Cut(host, "%") // a zone (fe80::1%eth0) is never loopback anyway
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// DefaultSocketPath is the unix socket guardian serve uses with --socket default and the
// adapters look for (guardian.DefaultSocketPath).
func DefaultSocketPath(getenv func(string) string) string { return guardian.DefaultSocketPath(getenv) }
