package riskmodel

import "strings"

func interpRules() []*Rule {
	return []*Rule{
		{
			ID: "interp.opaque", Level: Medium, Category: CatNone,
			Message: "Runs inline code that does things guardian cannot follow",
			Match:   []string{"python3 -c 'import os; os.system(cmd)'", "node -e 'require(\"child_process\").exec(process.argv[1])'", "perl -e 'eval $ARGV[0]'"},
			NoMatch: []string{"python3 -c 'print(1+1)'", "node -e 'console.log(process.version)'"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !s.Code || !s.CodeOpaque {
					return "", false
				}
				return "Runs inline " + langOf(s.Name()) + " code that uses the system in ways guardian cannot follow", true
			},
		},
		{
			ID: "interp.inline", Level: Low, Category: CatNone,
			Message: "Runs a short inline script whose effects are judged separately",
			Match:   []string{"python3 -c 'print(1+1)'", "node -e 'console.log(process.version)'", "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"v\"])'"},
			NoMatch: []string{"python3 -c 'import os; os.system(cmd)'", "python3 app.py"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !s.Code || s.CodeOpaque {
					return "", false
				}
				return "Runs a short inline " + langOf(s.Name()) + " snippet (anything it does to files or the network is judged on its own)", true
			},
		},
		{
			ID: "interp.script-outside", Level: Medium, Category: CatNone,
			Message: "Runs a script from outside the workspace",
			Match:   []string{"bash /tmp/setup.sh", "python3 ~/Downloads/tool.py", "sh $SCRIPT"},
			NoMatch: []string{"bash scripts/test.sh", "./scripts/build.sh", "python3 manage.py migrate"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				f := executedFile(s)
				if f == "" || s.Code {
					return "", false
				}
				t := c.target(f)
				if t.zone == ZoneWorkspace || t.zone == ZoneDevNull || strings.HasPrefix(t.abs, "/usr/") || strings.HasPrefix(t.abs, "/bin/") || strings.HasPrefix(t.abs, "/opt/homebrew/") {
					return "", false
				}
				return "Runs the script " + c.where(t), true
			},
		},
		{
			ID: "interp.script-prod", Level: High, Category: CatFinancialOrProduction,
			Message: "Runs a project script against production",
			Match:   []string{"./scripts/rotate-keys.sh --env production", "bin/deploy prod", "node scripts/migrate.js --target=production"},
			NoMatch: []string{"./scripts/build.sh --env staging", "./scripts/test.sh"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if executedFile(s) == "" || s.Code {
					return "", false
				}
				for _, a := range s.Args[1:] {
					if v := a[strings.IndexByte(a, '=')+1:]; prodLike(a) || prodLike(v) {
						return "Runs " + s.Args[0] + " with " + a + ", acting on production", true
					}
				}
				return "", false
			},
		},
		{
			ID: "interp.workspace-script", Level: Medium, Category: CatNone, Contained: true, Baseline: true,
			Message: "Runs one of the project's own scripts or programs",
			Match:   []string{"./scripts/build.sh", "bash scripts/test.sh", "python3 manage.py test", "node server.js", "bin/setup"},
			NoMatch: []string{"bash /tmp/x.sh"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				f := executedFile(s)
				if f == "" || s.Code {
					return "", false
				}
				if t := c.target(f); t.zone == ZoneWorkspace {
					return "Runs the project's own " + f, true
				}
				return "", false
			},
		},
	}
}
