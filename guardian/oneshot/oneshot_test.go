package oneshot_test

import (
	"testing"

	"github.com/guardianhq/guardian/guardian/oneshot"
)

func TestAgentHome(t *testing.T) {
	tests := []struct{ env, cwd, want string }{
		{"/home/dev", "/home/dev/proj", "/home/dev"},
		{"/home/dev", "/home/dev", "/home/dev"},
		{"/home/dev", "/work/proj", "/home/dev"},
		{"/home/dev", "/home/other/proj", ""},
		{"/root", "/Users/me/src", ""},
		{"/home/dev", "/root/x", ""},
		{"", "/home/dev/proj", ""},
		{"relative", "/work", ""},
		{"/home/dev/", "/home/dev/proj", "/home/dev"},
	}
	for _, tt := range tests {
		if got := oneshot.AgentHome(tt.env, tt.cwd); got != tt.want {
			t.Errorf("AgentHome(%q, %q) = %q, want %q", tt.env, tt.cwd, got, tt.want)
		}
	}
}
