package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Baseline rules for the command catalogue (catalog/commands.toml) and for copies from a
// remote machine. Baseline: they are consulted only for a command no risk rule matched, so an
// upload, a credential source or a write outside the workspace is judged by those rules.

// remoteSpec reports an scp/rsync/sftp operand on another machine: [user@]host:path (not a
// local path with a colon further on, not a URL).
func remoteSpec(w string) bool {
	i := strings.IndexByte(w, ':')
	return i > 0 && !strings.Contains(w[:i], "/") && !strings.Contains(w, "://") && !strings.HasPrefix(w, "-")
}

func catalogRules() []*Rule {
	return []*Rule{
		{
			ID: "base.catalog", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Runs a catalogued everyday tool",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				e, ok := catalog.DefaultCommands().Lookup(s.Name(), s.Args[min(1, len(s.Args)):])
				if !ok || s.Privileged {
					return "", false
				}
				return "Runs " + s.Name() + ", which " + e.What, true
			},
		},
		{
			ID: "base.remote-fetch", Baseline: true, Level: Low, Category: CatNetworkEgress,
			Message: "Copies files from another machine into the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if n := s.Name(); n != "scp" && n != "rsync" || s.Privileged {
					return "", false
				}
				p := s.positional(0, "-P", "-i", "-F", "-o", "-l", "-c", "-J", "-S", "-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--port")
				if len(p) < 2 || !remoteSpec(p[0]) {
					return "", false
				}
				for _, src := range p[:len(p)-1] {
					if !remoteSpec(src) {
						return "", false
					}
				}
				dst := p[len(p)-1]
				if remoteSpec(dst) {
					return "", false
				}
				t := c.target(dst)
				if t.zone != ZoneWorkspace && t.zone != ZoneTemp {
					return "", false
				}
				host := p[0][:strings.IndexByte(p[0], ':')]
				return "Copies files from " + host + " into " + dst + " with " + s.Name(), true
			},
		},
	}
}
