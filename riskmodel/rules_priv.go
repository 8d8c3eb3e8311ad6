package riskmodel

import (
	"path"
	"strings"
)

// sudoChecks are sudo invocations that only check or drop credentials.
func sudoCheckOnly(s *Segment) bool {
	if s.Name() != "sudo" {
		return false
	}
	rest := skipOpts(s.Args[1:], sudoArgOpts)
	if len(rest) > 0 {
		return rest[0] == "true"
	}
	return s.hasFlag("lvkK", "--list", "--validate", "--reset-timestamp", "--remove-timestamp")
}

func privRules() []*Rule {
	return []*Rule{
		{
			ID: "priv.sudo", Level: High, Category: CatPrivilegeEscalation,
			CertainWhen: "a program run as root is made to start a shell (a GTFOBins escape: vim :!sh, find -exec sh, awk system(), tar --checkpoint-action), or a shell enters PID 1's namespaces",
			Message:     "Runs a command as root",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if sudoCheckOnly(s) || (s.Name() == "true" && s.Privileged) {
					return "", false
				}
				if rootShellEscape(s) {
					c.certainty = certaintySure // docs/policy.md: GTFOBins-style shell escapes under sudo
				}
				if s.Name() == "sudoedit" || s.Name() == "sudo" && s.hasFlag("e", "--edit") {
					return "Edits files as root with " + joinArgs(s.Args), true
				}
				if s.Name() == "sudo" || s.Name() == "su" || s.Name() == "doas" {
					return "Opens a root shell with " + joinArgs(s.Args), true
				}
				if s.Privileged {
					return "Runs `" + joinArgs(s.Args) + "` as root", true
				}
				return "", false
			},
		},
		{
			ID: "priv.sudo-check", Level: Low, Category: CatNone,
			Message: "Checks whether sudo is available without running anything as root",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				return "", sudoCheckOnly(s) || s.Name() == "true" && s.Privileged && len(s.Args) == 1
			},
		},
		{
			ID: "priv.setuid", Level: Critical, Category: CatPrivilegeEscalation,
			Message: "Makes a program run with its owner's privileges (setuid/setgid)",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				switch s.Name() {
				case "chmod":
					for _, m := range s.positional(0) {
						if strings.Contains(m, "+s") || strings.Contains(m, "u+s") || strings.Contains(m, "g+s") ||
							len(m) == 4 && isOctal(m) && (m[0] == '4' || m[0] == '2' || m[0] == '6') {
							return "Sets the setuid/setgid bit (" + m + "), letting anyone run the file with its owner's privileges", true
						}
						break
					}
				case "setcap":
					return "Grants file capabilities with setcap", true
				}
				return "", false
			},
		},
		{
			ID: "priv.perms-wide", Level: High, Category: CatSecurityWeakening,
			Message: "Makes files writable by everyone or changes their owner outside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				n := s.Name()
				if n != "chmod" && n != "chown" && n != "chgrp" {
					return "", false
				}
				p := s.positional(0, "--reference")
				if len(p) < 2 {
					return "", false
				}
				mode, files := p[0], p[1:]
				if n == "chmod" && !worldWritable(mode) {
					return "", false
				}
				for _, t := range c.targets(files) {
					if t.zone != ZoneWorkspace && t.zone != ZoneTemp {
						if n == "chmod" {
							return "Makes " + c.where(t) + " writable by every user (" + mode + ")", true
						}
						return "Changes the owner of " + c.where(t) + " to " + mode, true
					}
				}
				if n == "chmod" && s.hasFlag("R", "--recursive") {
					return "Makes the files below " + files[0] + " writable by every user (" + mode + ")", true
				}
				return "", false
			},
		},
		{
			ID: "priv.perms-vital", Level: Critical, Category: CatSecurityWeakening,
			Message: "Changes permissions or ownership of a vital directory recursively",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				n := s.Name()
				if (n != "chmod" && n != "chown" && n != "chgrp") || !s.hasFlag("R", "--recursive") {
					return "", false
				}
				p := s.positional(0)
				if len(p) < 2 {
					return "", false
				}
				for _, t := range c.targets(p[1:]) {
					if t.zone == ZoneVital && t.abs != c.scope.Home && !c.scope.IsWorkspaceRoot(t.abs) {
						return "Recursively changes permissions of " + c.where(t) + " (" + n + " " + p[0] + ")", true
					}
				}
				return "", false
			},
		},
		{
			ID: "priv.accounts", Level: Critical, Category: CatPrivilegeEscalation,
			Message: "Changes user accounts or grants administrator rights",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				switch s.Name() {
				case "useradd", "adduser", "userdel", "deluser", "usermod", "groupadd", "groupmod", "gpasswd", "passwd", "chpasswd", "visudo", "vipw", "chsh":
					return "Runs " + joinArgs(s.Args) + ", changing accounts or administrator rights", true
				case "dscl", "sysadminctl", "dseditgroup":
					if s.arg("-create", "-append", "-delete", "-passwd", "-addUser", "-edit", "-o") || strings.Contains(strings.Join(s.Args, " "), "admin") {
						return "Changes macOS accounts with " + s.Name(), true
					}
				}
				return "", false
			},
		},
	}
}

func isOctal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return s != ""
}

// worldWritable reports whether a chmod mode grants write to others (777, 666, o+w, a+w).
func worldWritable(mode string) bool {
	if isOctal(mode) && len(mode) >= 3 {
		o := mode[len(mode)-1]
		return o == '2' || o == '3' || o == '6' || o == '7'
	}
	for _, part := range strings.Split(mode, ",") {
		i := strings.IndexAny(part, "+=")
		if i < 0 {
			continue
		}
		who, perm := part[:i], part[i+1:]
		if (who == "" || strings.ContainsAny(who, "oa")) && strings.Contains(perm, "w") {
			return true
		}
	}
	return false
}

// privWrappers only change the user a command runs as; a shell reached through one of them
// alone is an ordinary (asked) root shell, not an escape.
var privWrappers = map[string]bool{"sudo": true, "doas": true, "su": true, "pkexec": true, "run0": true, "runuser": true, "su -c": true}

// isShellName reports a command that is an interactive shell.
func isShellName(n string) bool {
	switch path.Base(n) {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "busybox":
		return true
	}
	return false
}

// rootShellEscape reports the GTFOBins pattern under privilege: a program run as root that is
// made to start a shell — through its own options (vim -c ':!sh', tar
// --checkpoint-action=exec=sh, less +!sh, awk system("sh")) or by running it as a child
// (find -exec sh, xargs sh) — and nsenter into PID 1's namespaces, which is the host's root
// shell from a container.
func rootShellEscape(s *Segment) bool {
	if s.Name() == "nsenter" && (s.arg("--target", "-t") && (containsArg(s.Args, "1") || s.arg("--target=1", "-t1")) || s.arg("-a", "--all")) {
		return true
	}
	if !s.Privileged {
		return false
	}
	if isShellName(s.Name()) && !s.arg("-c") {
		for _, v := range s.Via {
			if w, _, _ := strings.Cut(v, " "); !privWrappers[v] && !privWrappers[w] && !isShellName(w) && w != "env" && w != "eval" {
				return true // reached through a program that is not a shell or a user switch
			}
		}
	}
	if isShellName(s.Name()) || privWrappers[s.Name()] {
		return false
	}
	for _, e := range embeddedCommands(s) {
		if f := strings.Fields(e); len(f) > 0 && isShellName(strings.Trim(f[0], "'\"")) {
			return true
		}
	}
	return false
}
