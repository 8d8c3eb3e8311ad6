package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Routine tools write where their options say: a test runner's report (pytest --junitxml=F,
// jest --outputFile=F, go test -coverprofile=F), a reporter's output (mocha
// --reporter-option output=F), a log (pip --log F). The file rules know each tool's output
// options by name; a tool they do not know still says "output" in the option's name. An
// option of that kind whose value is a startup or autostart file (catalog class persistence)
// makes a routine command a persistence write (docs/policy.md: shell rc and profile files,
// autostart entries, cron), whatever the tool.

// outputOptWords are the words an option's name holds when its value is a file the tool
// writes (pytest, jest, mocha, go test, eslint, tsc, pip, coverage reporters' references).
var outputOptWords = []string{"out", "output", "report", "junit", "xml", "log", "profile", "dest", "target", "save", "write", "export", "cov", "dump"}

// outputOptValues returns the values of s's options whose names say they are written:
// --name=VALUE, name=VALUE (reporter options, make variables), and --name VALUE.
func outputOptValues(s *Segment) []string {
	var out []string
	args := s.Args[1:]
	for i, a := range args {
		name, val, eq := strings.Cut(a, "=")
		if !eq && strings.HasPrefix(a, "-") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			name, val = a, args[i+1]
		} else if !eq {
			continue
		}
		l := strings.ToLower(strings.TrimLeft(name, "-"))
		if l == "" || val == "" {
			continue
		}
		for _, w := range outputOptWords {
			if strings.Contains(l, w) {
				out = append(out, strings.Trim(val, `"'`))
				break
			}
		}
	}
	return out
}

func r16PathRules() []*Rule {
	return []*Rule{
		{
			ID: "fs.write.startup-option", Level: Critical, Category: CatPersistence,
			Message: "Writes a tool's output into a shell startup file or an autostart location, so it runs unattended later",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(s.Args) < 2 {
					return "", false
				}
				for _, v := range outputOptValues(s) {
					if strings.HasPrefix(v, "~/") {
						v = "$HOME" + v[1:] // a reviewer reads --opt=~/x as home, as the author meant
					}
					t := c.target(v)
					if t.zone == ZoneWorkspace || t.zone == ZoneTemp || t.zone == ZoneDevNull {
						continue
					}
					if e, ok := c.inClass(catalog.Persistence, t); ok && e.Severity == "" {
						return "Writes " + orStr(t.abs, t.arg) + " (" + e.What + ") through an output option of " + s.Name() + ", so it runs unattended later", true
					}
				}
				return "", false
			},
		},
	}
}
