package riskmodel

import (
	"regexp"
	"strings"
)

// A recursive delete whose path is home or / followed only by variables the request never
// set deletes home or / itself when those variables are empty or unset: bash expands an
// unset variable to nothing unless `set -u` is on (bash(1), "Parameter Expansion"; POSIX
// 2.6.2). This is the Steam-for-Linux installer bug (valvesoftware/steam-for-linux#3671:
// `rm -rf "$STEAMROOT/"*` with STEAMROOT empty deleted every file the user owned) and the
// reason ShellCheck warns SC2115 ("Use "${var:?}" to ensure this never expands to /*").
// docs/policy.md denies destruction outside the workspace, and deleting home or / is the
// most certain case of it, so the target is judged as home or / itself, as fs.rm.vital
// judges a spelled-out one. A variable the request sets to a literal is resolved by the
// shell front end and never reaches here; one it guards (${X:?}, [ -n "$X" ], set -u) or
// that a loop or read fills is not judged empty.

// alwaysSetVars are variables bash or the login sets in every shell, never empty.
var alwaysSetVars = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"HOME": true, "USER": true, "LOGNAME": true, "PWD": true, "SHELL": true, "HOSTNAME": true,
		"UID": true, "EUID": true, "PPID": true, "RANDOM": true, "SECONDS": true, "BASHPID": true, "LINENO": true,
		"OSTYPE": true, "HOSTTYPE": true, "MACHTYPE": true, "BASH": true, "BASH_VERSION": true, "TMPDIR": true}
}}

// varWord matches a path component that is nothing but one variable: $X or ${X}.
var varWordRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$`)
}}

// nounsetOn matches `set -u`, `set -eu`, `set -o nounset` and bash -u.
var nounsetRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\bset\s+-[a-zA-Z]*u|\bset\s+-o\s+nounset|\bbash\s+-[a-zA-Z]*u)`)
}}

// requestText is the request's command as one string, capped: the guards and assignments
// this file looks for sit in the few kilobytes an agent writes.
func requestText(c *execCtx) string {
	if c == nil || c.req == nil {
		return ""
	}
	t := strings.Join(c.req.Command, " ")
	if len(t) > 8192 {
		t = t[:8192]
	}
	return t
}

// mayBeEmpty reports a variable the request leaves possibly empty: not always set, not
// guarded or checked, not filled by a loop, read or getopts.
func mayBeEmpty(c *execCtx, name string) bool {
	if alwaysSetVars.get()[name] {
		return false
	}
	txt := requestText(c)
	if nounsetRe.get().MatchString(txt) {
		return false
	}
	q := regexp.QuoteMeta(name)
	guard := regexp.MustCompile(`\$\{` + q + `:?[?=+-]|-[nz]\s+"?\$\{?` + q + `\b|\bfor\s+` + q + `\b|\bselect\s+` + q + `\b|\bread\b[^;&|\n]*\b` + q + `\b|\bgetopts\b|\b` + q + `=`)
	return !guard.MatchString(txt)
}

// assignedText returns the text a segment before upto assigns to name (NAME=value, export
// NAME=value), quotes removed, when exactly one does.
func assignedText(c *execCtx, upto *Segment, name string) (string, bool) {
	val, n := "", 0
	for _, o := range c.segs {
		if o == upto {
			break
		}
		for _, f := range strings.Fields(o.Text) {
			if v, ok := strings.CutPrefix(f, name+"="); ok {
				val, n = strings.NewReplacer(`"`, "", `'`, "").Replace(v), n+1
			}
		}
	}
	return val, n == 1
}

// emptyVarRoot returns home or / when arg, with every variable the request may leave empty
// taken as empty, is home, / or everything in one of them, and the variable(s) that do it.
func emptyVarRoot(c *execCtx, s *Segment, arg string) (root string, vars []string) {
	// A variable the request assigned a value it could not resolve ("$HOME/$OUT_DIR"):
	// judge the value's text.
	if m := varWordRe.get().FindStringSubmatch(strings.SplitN(arg, "/", 2)[0]); m != nil {
		name := m[1] + m[2]
		if v, ok := assignedText(c, s, name); ok {
			arg = v + strings.TrimPrefix(arg, strings.SplitN(arg, "/", 2)[0])
		}
	}
	home := c.scope.Home
	for _, p := range []string{"${HOME}", "$HOME", "~"} {
		if rest, ok := strings.CutPrefix(arg, p); ok && (rest == "" || rest[0] == '/') {
			arg = home + rest
			break
		}
	}
	parts := strings.Split(arg, "/")
	var kept []string
	leadVar := false
	for i, p := range parts {
		switch {
		case p == "" || p == "." || p == "*":
			continue
		case varWordRe.get().MatchString(p):
			m := varWordRe.get().FindStringSubmatch(p)
			name := m[1] + m[2]
			if !mayBeEmpty(c, name) {
				return "", nil
			}
			if i == 0 {
				leadVar = true
			}
			vars = append(vars, "$"+name)
		default:
			if i == 0 {
				return "", nil // a relative path
			}
			kept = append(kept, p)
		}
	}
	if len(vars) == 0 {
		return "", nil
	}
	if leadVar && (len(vars) > 1 || len(parts) < 2) {
		// "$A/$B" is / only if both are empty, "$X" alone is nothing: only "$X/" and
		// "$X/*" are the Steam shape.
		return "", nil
	}
	p := "/" + strings.Join(kept, "/")
	switch p {
	case "/":
		return "/", vars
	case home:
		return home, vars
	}
	return "", nil
}

func r12FSRules() []*Rule {
	return []*Rule{
		{
			ID: "fs.rm.empty-var", Level: Critical, Category: CatDataDeletion,
			Message: "Recursively deletes home or / if a variable the request never set is empty",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if s.Name() != "rm" {
					return "", false
				}
				ts, rec, ok := deletion(s)
				if !ok || !rec {
					return "", false
				}
				for _, t := range c.targets(ts) {
					if t.zone == ZoneWorkspace || t.zone == ZoneTemp {
						continue
					}
					if root, vars := emptyVarRoot(c, s, t.arg); root != "" {
						what := root + " (the home directory)"
						if root == "/" {
							what = "/ (the whole filesystem)"
						}
						return "Recursively deletes " + what + " when " + strings.Join(vars, ", ") + " is empty or unset, which the request never rules out", true
					}
				}
				return "", false
			},
		},
	}
}
