package server_test

import (
	"context"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian/server"
)

func TestIsLoopback(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:7420", true},
		{"127.8.9.10:7420", true},
		{"[::1]:7420", true},
		{"localhost:7420", true},
		{"LOCALHOST:0", true},
		{"unix:/run/user/1000/guardian/guardian.sock", true},
		{"unix:///tmp/g.sock", true},
		{"0.0.0.0:7420", false},
		{"[::]:7420", false},
		{":7420", false},
		{"192.168.1.5:7420", false},
		{"guardian.internal:7420", false},
		{"localhost.evil.example:7420", false},
		{"[fe80::1%eth0]:7420", false},
		{"127.0.0.1", false}, // no port: not an address Listen accepts
		{"", false},
	}
	for _, tc := range tests {
		if got := server.IsLoopback(tc.addr); got != tc.want {
			t.Errorf("IsLoopback(%q) = %v, want %v", tc.addr, got, tc.want)
		}
	}
}

func TestDefaultSocketPath(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"GUARDIAN_SOCKET": "/srv/g.sock", "XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/dev"}, "/srv/g.sock"},
		{map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/dev"}, "/run/user/1000/guardian/guardian.sock"},
		{map[string]string{"XDG_RUNTIME_DIR": "relative", "HOME": "/home/dev"}, "/home/dev/.local/state/guardian/guardian.sock"},
		{map[string]string{"HOME": "/home/dev"}, "/home/dev/.local/state/guardian/guardian.sock"},
		{map[string]string{}, ""},
	}
	for _, tc := range tests {
		if got := server.DefaultSocketPath(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("DefaultSocketPath(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

func TestSocketPath(t *testing.T) {
	for addr, want := range map[string]string{"unix:/a/b.sock": "/a/b.sock", "unix:///a/b.sock": "/a/b.sock", "unix:rel.sock": "rel.sock"} {
		if got, ok := server.SocketPath(addr); !ok || got != want {
			t.Errorf("SocketPath(%q) = %q, %v; want %q", addr, got, ok, want)
		}
	}
	if _, ok := server.SocketPath("127.0.0.1:7420"); ok {
		t.Error("a TCP address is not a socket")
	}
}

func TestListenUnixModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "guardian")
	path := filepath.Join(dir, "g.sock")
	ln, err := server.Listen(context.Background(), "unix:"+path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode()&fs.ModeSocket == 0 || st.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want a socket with 0600", st.Mode())
	}
	dst, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if dst.Mode().Perm()&0o077 != 0 {
		t.Errorf("created directory mode %v, want no access for others (0700)", dst.Mode().Perm())
	}
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("socket file left behind after Close: %v", err)
	}
}

func TestListenUnixStaleLiveAndForeign(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()

	// A stale socket: bound, then abandoned without unlinking (as after kill -9).
	stale := filepath.Join(dir, "stale.sock")
	l, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	if _, err := os.Lstat(stale); err != nil {
		t.Fatalf("the stale socket should still exist: %v", err)
	}
	ln, err := server.ListenUnix(ctx, stale)
	if err != nil {
		t.Fatalf("a stale socket must be replaced: %v", err)
	}
	defer ln.Close()

	// A live one: the listener just opened.
	if _, err := server.ListenUnix(ctx, stale); err == nil || !strings.Contains(err.Error(), "another guardian serve is listening on "+stale) {
		t.Errorf("second listener on a live socket: err = %v", err)
	}

	// A regular file is never removed.
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := server.ListenUnix(ctx, file); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("listening over a regular file: err = %v", err)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "keep me" {
		t.Errorf("the regular file was touched: %q %v", b, err)
	}
}

func TestListenUnixRefusesSharedDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { // umask-proof
		t.Fatal(err)
	}
	_, err := server.ListenUnix(context.Background(), filepath.Join(dir, "g.sock"))
	if err == nil || !strings.Contains(err.Error(), "writable by other users") {
		t.Errorf("err = %v, want a refusal naming the shared directory", err)
	}
}

func TestListenTCPInUse(t *testing.T) {
	ln, err := server.Listen(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = server.Listen(context.Background(), ln.Addr().String())
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("err = %v, want the address in use", err)
	}
}
