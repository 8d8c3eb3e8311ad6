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
	rest := skipOpts(s.Args[1:], sudoArgOpts.get())
	if len(rest) > 0 {
		return rest[0] == "true"
	}
	return s.hasFlag("lvkK", "--list", "--validate", "--reset-timestamp", "--remove-timestamp")
}

func privRules() []*Rule {
	return []*Rule{
		{
			ID: "priv.sudo", Level: High, Category: CatPrivilegeEscalation,
			CertainWhen: "a program run as root is made to start a shell (a GTFOBins escape: vim :!sh, find -exec sh, awk system(), tar --checkpoint-action, a PAGER or EDITOR that is a shell), a shell enters PID 1's namespaces, or an interactive root shell is opened (sudo -i, sudo su -, sudo bash), where nothing that follows is reviewed",
			Message:     "Runs a command as root",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if sudoCheckOnly(s) || (s.Name() == "true" && s.Privileged) {
					return "", false
				}
				if rootShellEscape(s) {
					c.certainty = certaintySure // docs/policy.md: GTFOBins-style shell escapes under sudo
				}
				if interactiveRootShell(s) {
					// docs/policy.md: loss of control. The agent gets a root shell whose
					// commands never come back for review; no stated reason makes that routine.
					c.certainty = certaintySure
					return "Opens an interactive root shell (" + joinArgs(s.Args) + "); nothing typed into it is reviewed", true
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
						if setuidMode(m) {
							return "Sets the setuid/setgid bit (" + m + "), letting anyone run the file with its owner's privileges", true
						}
						break
					}
				case "setcap":
					return "Grants file capabilities with setcap", true
				case "install":
					// install -m 4755 copies a program in with the setuid bit set.
					if m, ok := optValue(s.Args[1:], "-m", "--mode"); ok && setuidMode(m) {
						return "Installs a program with the setuid/setgid bit (" + m + "), letting anyone run it with its owner's privileges", true
					}
				}
				return "", false
			},
		},
		{
			ID: "priv.perms-wide", Level: High, Category: CatSecurityWeakening,
			CertainWhen: "the file is a container runtime socket (docker.sock), which is root on the host",
			Message:     "Makes files writable by everyone or changes their owner outside the workspace",
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
					if isContainerSocket(t.abs) {
						// docs/policy.md: the docker socket is root on the host; opening it
						// to every user is privilege escalation for all of them.
						c.certainty = certaintySure
						if n == "chmod" {
							return "Makes the container runtime socket " + t.abs + " writable by every user (" + mode + "), which gives any local user root", true
						}
						return "Hands the container runtime socket " + t.abs + " to " + mode + ", which gives that user root", true
					}
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
		privDockerGroupRule(),
		{
			ID: "priv.accounts", Level: Critical, Category: CatPrivilegeEscalation,
			Message: "Changes user accounts or grants administrator rights",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				switch s.Name() {
				case "useradd", "adduser", "userdel", "deluser", "usermod", "groupadd", "groupmod", "gpasswd", "passwd", "chpasswd", "visudo", "vipw", "chsh":
					if dockerGroupAdd(s) {
						return "", false // priv.docker-group: docs/policy.md asks about it
					}
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
var privWrappers = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"sudo": true, "doas": true, "su": true, "pkexec": true, "run0": true, "runuser": true, "su -c": true}
}}

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
			if w, name, _ := strings.Cut(v, " "); !privWrappers.get()[v] && !privWrappers.get()[w] && !isShellName(w) && (w != "env" || codeVars.get()[name]) && w != "eval" {
				return true // reached through a program that is not a shell or a user switch
			}
		}
	}
	if isShellName(s.Name()) || privWrappers.get()[s.Name()] {
		return false
	}
	for _, e := range append(embeddedCommands(s), subcommandRuns(s)...) { // bundle exec sh, systemd-run -S (runsub.go)
		if f := strings.Fields(e); len(f) > 0 && isShellName(strings.Trim(f[0], "'\"")) {
			return true
		}
	}
	return false
}

// setuidMode reports a chmod or install mode that sets the setuid or setgid bit (u+s, g+s,
// u+xs, u=rwxs, 4755, 2755, 6755, 04755): a symbolic clause that adds or sets permissions
// including s, or an octal mode whose special digit has the 4 or 2 bit.
func setuidMode(m string) bool {
	for _, clause := range strings.Split(m, ",") {
		if i := strings.IndexAny(clause, "+="); i >= 0 {
			perms := clause[i+1:]
			if j := strings.IndexByte(perms, '-'); j >= 0 {
				perms = perms[:j]
			}
			if strings.ContainsRune(perms, 's') {
				return true
			}
		}
	}
	if len(m) == 5 && m[0] == '0' {
		m = m[1:]
	}
	return len(m) == 4 && isOctal(m) && (m[0] == '4' || m[0] == '2' || m[0] == '6')
}

// interactiveRootShell reports a request for a root shell with no command: sudo -i, sudo -s,
// sudo su [-] [root], su with no -c, or a shell run as root with no script, code or input.
// What the agent would type into it never reaches the reviewer.
func interactiveRootShell(s *Segment) bool {
	if s.PipeIn != nil || s.Stdin != "" || s.Dynamic {
		return false
	}
	for _, r := range s.Redirs {
		if strings.HasPrefix(r.Op, "<") {
			return false
		}
	}
	switch n := s.Name(); {
	case n == "sudo" || n == "doas":
		rest := skipOpts(s.Args[1:], sudoArgOpts.get())
		return len(rest) == 0 && s.hasFlag("is", "--login", "--shell") && !sudoTargetsOther(s)
	case n == "su":
		for _, a := range s.Args[1:] {
			switch {
			case a == "-" || a == "-l" || a == "--login" || a == "root" || a == "-p" || a == "-m":
			default:
				return false // another user, or an option this check does not know
			}
		}
		return true
	case isShellName(n):
		return s.Privileged && len(s.Args) == 1+len(shellOnlyFlags(s.Args[1:])) && !sudoTargetsOther(s)
	}
	return false
}

// shellOnlyFlags returns the leading options of a shell's argv that only shape an interactive
// shell (-i, -l, --login, -p, --norc, --noprofile).
func shellOnlyFlags(args []string) []string {
	for i, a := range args {
		switch a {
		case "-i", "-l", "--login", "-p", "--norc", "--noprofile", "-il", "-li":
		default:
			return args[:i]
		}
	}
	return args
}

// sudoTargetsOther reports sudo -u NAME for a user other than root: a shell as another
// unprivileged user is not the root shell the policy denies.
func sudoTargetsOther(s *Segment) bool {
	if s.Name() != "sudo" && s.Name() != "doas" {
		return false // the wrapper's own argv is gone; judged as root
	}
	u, ok := optValue(s.Args[1:], "-u", "--user")
	return ok && u != "root" && u != "0" && u != "#0"
}

// isContainerSocket reports the docker, podman or containerd socket.
func isContainerSocket(abs string) bool {
	for _, sock := range dockerSockets {
		if abs == sock {
			return true
		}
	}
	return strings.HasSuffix(abs, "/containerd/containerd.sock") || strings.HasSuffix(abs, "/.docker/run/docker.sock")
}

// dockerGroupAdd reports usermod -aG docker USER or gpasswd -a USER docker: adding a user to
// the docker group alone, which docs/policy.md asks about. Any other group in the list
// (sudo, wheel, admin) keeps it an account change.
func dockerGroupAdd(s *Segment) bool {
	switch s.Name() {
	case "usermod":
		g, ok := optValue(s.Args[1:], "-G", "--groups", "-aG")
		if !ok {
			for _, a := range s.Args[1:] {
				if strings.HasPrefix(a, "-aG") && len(a) > 3 {
					g, ok = a[3:], true
				}
			}
		}
		return ok && g == "docker" && s.hasFlag("a", "--append")
	case "gpasswd":
		p := s.positional(0, "-a", "--add")
		u, ok := optValue(s.Args[1:], "-a", "--add")
		return ok && u != "" && len(p) == 1 && p[0] == "docker"
	}
	return false
}

func privDockerGroupRule() *Rule {
	return &Rule{
		ID: "priv.docker-group", Level: Medium, Category: CatPrivilegeEscalation,
		Message: "Adds a user to the docker group, which lets them run containers as root without sudo",
		exec: func(c *execCtx, s *Segment) (string, bool) {
			if dockerGroupAdd(s) {
				return "Adds a user to the docker group (" + joinArgs(s.Args) + "), which lets them run containers as root without sudo", true
			}
			return "", false
		},
	}
}
