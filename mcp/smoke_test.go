package mcp

import (
	"testing"
)

func TestSmoke(t *testing.T) {
	for _, uk := range upstreamKinds {
		for _, dk := range downstreamKinds {
			for _, era := range []struct {
				name string
				opts []any
			}{{"legacy", nil}, {"modern", nil}} {
				t.Run(uk.name+"/"+dk.name+"/"+era.name, func(t *testing.T) {
					p, _ := newProxy(t, uk.spec(t, "fx"))
					o := legacyHost
					if era.name == "modern" {
						o = modernHost
					}
					c := dk.connect(t, p, hostOpts(o, nil)...)
					res := callTool(t, c, "echo", map[string]any{"message": "hi"})
					if got := text(t, res); got != "hi" {
						t.Fatalf("echo = %q", got)
					}
				})
			}
		}
	}
}
