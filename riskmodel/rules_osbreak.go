package riskmodel

import (
	"path"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// osBreakRules hold what docs/policy.md calls breaking the OS ("replacing the system python"):
// a file the machine needs to boot, log anyone in or run its own tools (the catalogue's
// system-critical class: /etc/passwd, /usr/bin/python3, /proc/sysrq-trigger) is overwritten,
// relinked or moved away, the system interpreter is switched, or a package the distribution
// cannot work without is removed. The effect is known and on the deny list, so the match is
// certain; deleting such a file outright is fs.rm.vital's.
func osBreakRules() []*Rule {
	return []*Rule{
		{
			ID: "sys.break-os", Level: High, Category: CatSystemModification,
			Message: "Replaces, moves away or uninstalls something the operating system needs to run",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if e := systemCriticalEntry(t.abs); e != "" && !isBlockDevice(t.abs) {
						return "Overwrites " + t.abs + " (" + e + ")", true
					}
				}
				if s.Name() == "mv" {
					if p := s.positional(0, "-t", "--target-directory", "-S", "--suffix"); len(p) >= 2 {
						for _, t := range c.targets(p[:len(p)-1]) {
							if e := systemCriticalEntry(t.abs); e != "" {
								return "Moves " + t.abs + " away (" + e + ")", true
							}
						}
					}
				}
				if msg := switchesSystemInterpreter(s); msg != "" {
					return msg, true
				}
				if pkg := removesEssentialPackage(s); pkg != "" {
					return "Uninstalls " + pkg + ", a package the operating system needs (its tools and package manager stop working)", true
				}
				return "", false
			},
		},
	}
}

// systemCriticalEntry describes abs when the catalogue calls it system-critical, "" otherwise.
func systemCriticalEntry(abs string) string {
	if !isCriticalSystemFile(abs) {
		return ""
	}
	return criticalFileWhat(abs)
}

// systemInterpreterNames are the alternatives names of the interpreters the distribution's
// own tools run (apt, dnf, lsb_release, add-apt-repository are Python or Perl).
var systemInterpreterNames = table[map[string]bool]{build: func() map[string]bool { return map[string]bool{"python": true, "python3": true, "perl": true} }}

// switchesSystemInterpreter reports update-alternatives (or Debian's alternatives) pointing
// the system's python or perl at another program: --install of a system interpreter's link,
// or --set/--config/--remove-all/--auto of its name.
func switchesSystemInterpreter(s *Segment) string {
	if n := s.Name(); n != "update-alternatives" && n != "alternatives" {
		return ""
	}
	args := s.Args[1:]
	for i, a := range args {
		if i+1 >= len(args) {
			break
		}
		next := args[i+1]
		switch a {
		case "--install":
			if isCriticalSystemFile(next) && strings.Contains(criticalFileWhat(next), "interpreter") ||
				i+2 < len(args) && systemInterpreterNames.get()[args[i+2]] {
				return "Points " + next + " at another program with update-alternatives, replacing the system's " + path.Base(next)
			}
		case "--set", "--config", "--remove-all", "--auto":
			if systemInterpreterNames.get()[next] {
				return "Switches the system's " + next + " with update-alternatives " + a
			}
		}
	}
	return ""
}

// essentialPackages are packages a Debian, Fedora, Arch or Alpine system cannot lose and keep
// working: the base interpreters, libc, init, the package managers and sudo itself.
var essentialPackages = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"python3": true, "python3-minimal": true, "libpython3-stdlib": true, "python3-libs": true, "python": true,
		"perl-base": true, "perl": true, "bash": true, "dash": true, "coreutils": true, "libc6": true, "libc-bin": true,
		"glibc": true, "musl": true, "systemd": true, "systemd-sysv": true, "init": true, "dpkg": true, "apt": true,
		"rpm": true, "dnf": true, "yum": true, "pacman": true, "apk-tools": true, "sudo": true, "login": true, "passwd": true,
		"util-linux": true, "base-files": true, "busybox": true,
	}
}}

// removesEssentialPackage returns the first essential package a package manager is told to
// remove ("" if none).
func removesEssentialPackage(s *Segment) string {
	var names []string
	switch s.Name() {
	case "apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper":
		switch s.sub(0, "-o", "-c", "-t") {
		case "remove", "purge", "autoremove", "erase", "rm", "autopurge":
			p := s.positional(0, "-o", "-c", "-t")
			names = p[1:]
		}
	case "apk":
		if s.sub(0) == "del" {
			names = s.positional(0)[1:]
		}
	case "pacman":
		for _, a := range s.Args[1:] {
			if strings.HasPrefix(a, "-R") || a == "--remove" {
				names = s.positional(0)
				break
			}
		}
	case "dpkg", "rpm":
		if s.hasFlag("rPe", "--remove", "--purge", "--erase") {
			names = s.positional(0)
		}
	}
	for _, n := range names {
		base, _, _ := strings.Cut(n, ":") // python3:amd64
		base = strings.TrimRight(base, "*")
		if essentialPackages.get()[base] || strings.HasPrefix(base, "python3.") && !strings.Contains(base, "-") {
			return base
		}
	}
	return ""
}

// criticalFileWhat is the catalogue's description of a system-critical file.
func criticalFileWhat(abs string) string {
	if e, ok := catalog.Default().Classify(catalog.SystemCritical, abs, ""); ok && e.What != "" {
		return e.What
	}
	return "a file the system needs to boot or let anyone log in"
}
