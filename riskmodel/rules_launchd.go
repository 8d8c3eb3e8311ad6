package riskmodel

import (
	"path"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// launchctl(1) load -w, bootstrap and enable register a launchd job: loaded from one of
// launchd's own directories (~/Library/LaunchAgents, /Library/LaunchAgents,
// /Library/LaunchDaemons) the job starts again at every login or boot — a launch agent, on
// docs/policy.md's persistence list (MITRE ATT&CK T1543.001, T1543.004). The same holds for
// `systemctl enable` or `link` of a unit file named by its path in a systemd unit directory:
// enabling makes the unit start at every boot or login. Starting, stopping or reloading a
// service by name stays sys.service (asked: a system change a person decides). Agents that
// Homebrew's `brew services` writes (homebrew.mxcl.<formula>.plist) are the package
// manager's own and stay asked.

// launchdRegisters returns the plist paths a launchctl segment loads or bootstraps.
func launchdRegisters(s *Segment) []string {
	if s.Name() != "launchctl" {
		return nil
	}
	var out []string
	switch sub := s.sub(0); sub {
	case "load", "bootstrap":
		for i, a := range s.Args[2:] {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if sub == "bootstrap" && i == 0 && !strings.Contains(a, ".plist") && !strings.Contains(a, "/Library/") {
				continue // the domain: gui/501, user/501, system
			}
			out = append(out, a)
		}
	}
	return out
}

// systemdEnables returns the unit file paths a systemctl enable or link names by path.
func systemdEnables(s *Segment) []string {
	if s.Name() != "systemctl" {
		return nil
	}
	var sub string
	var out []string
	for _, a := range s.Args[1:] {
		switch {
		case strings.HasPrefix(a, "-"):
		case sub == "":
			sub = a
			if sub != "enable" && sub != "link" && sub != "reenable" {
				return nil
			}
		case strings.Contains(a, "/"):
			out = append(out, a)
		}
	}
	return out
}

func launchdRules() []*Rule {
	return []*Rule{
		{
			ID: "sys.service-persist", Level: High, Category: CatPersistence,
			Message: "Registers a launch agent or daemon, or enables a unit, from the directories that start it at every login or boot",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, p := range append(launchdRegisters(s), systemdEnables(s)...) {
					t := c.target(p)
					e, ok := c.inClass(catalog.Persistence, t)
					if !ok || e.ID != "launchd" && e.ID != "systemd" {
						continue
					}
					if strings.HasPrefix(path.Base(orStr(t.abs, t.arg)), "homebrew.mxcl.") {
						continue // brew services' own agent
					}
					return "Runs " + s.Name() + " " + s.sub(0) + " on " + orStr(t.abs, t.arg) + " (" + e.What + "), which then starts again at every login or boot", true
				}
				return "", false
			},
		},
	}
}
