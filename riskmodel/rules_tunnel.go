package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Tunnels are judged from the catalogue (catalog/commands.toml, class tunnel): which tools
// open one, by which subcommands and arguments, and what keeps a use on loopback. A tunnel
// that exposes a local service or the machine is on docs/policy.md's deny list whatever
// the tool, so the match is certain; what a tool not in the catalogue does stays unknown.

func tunnelRules() []*Rule {
	return []*Rule{
		{
			ID: "net.tunnel", Level: High, Category: CatNetworkEgress,
			Message: "Opens a tunnel, relay or listener that makes a local service or this machine reachable from the network",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				// The tool itself, or the package a runner fetches and starts (npx localtunnel).
				cur := s
				for depth := 0; depth < 4 && cur != nil && len(cur.Args) > 0; depth++ {
					name, _, _ := strings.Cut(strings.TrimPrefix(cur.Name(), "@"), "@")
					if e, ok := catalog.DefaultCommands().Lookup(name, cur.Args[1:]); ok && e.Opens(cur.Args[1:]) {
						return "Runs " + name + ", which " + e.What + " (" + capText(strings.Join(cur.Args[1:], " ")) + ")", true
					}
					next, _, ok := pkgRunnerInner(cur)
					if !ok {
						break
					}
					cur = next
				}
				return "", false
			},
		},
	}
}
