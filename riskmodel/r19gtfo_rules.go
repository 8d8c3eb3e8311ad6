package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Handing the user a system binary or the account database as root: sudo chown USER
// /usr/bin/bash, sudo setfacl -m u:USER:rwx /etc/shadow, sudo chgrp USER /etc/sudoers. The
// user can then replace what root runs or who may become root — privilege escalation,
// docs/policy.md's deny list (GTFOBins chown, setfacl, chgrp: "privilege-escalation" under
// sudo). Directories users are commonly given for package managers (/usr/local,
// /usr/lib/node_modules, /opt) are not in the list: those stay questions.

// ownershipTools are the commands that change who owns or may write a file, and the options
// whose value is not a path.
var ownershipTools = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"chown":   {"--from", "--reference"},
		"chgrp":   {"--reference"},
		"setfacl": {"-m", "--modify", "-M", "--modify-file", "-x", "--remove", "-X", "--remove-file", "--set", "--set-file"},
	}
}}

// systemBinaryDirs are the directories of the programs root and every user run.
var systemBinaryDirs = []string{"/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/libexec/", "/lib/", "/lib64/", "/usr/lib/x86_64-linux-gnu/", "/usr/lib64/"}

func r19GTFORules() []*Rule {
	return []*Rule{{
		ID: "priv.own-system", Level: Critical, Category: CatPrivilegeEscalation,
		Message: "Gives the user ownership or write access of a system binary or the account database, as root",
		exec: func(c *execCtx, s *Segment) (string, bool) {
			valued, ok := ownershipTools.get()[s.Name()]
			if !ok || !s.Privileged || sudoTargetsOther(s) {
				return "", false
			}
			if s.Name() == "setfacl" && !s.arg("-m", "--modify", "--set", "-M", "--modify-file", "--set-file") && !hasPrefixArg(s.Args[1:], "--modify=", "--set=") {
				return "", false // setfacl -x/-b removes entries
			}
			p := s.positional(0, valued...)
			if s.Name() != "setfacl" && len(p) > 0 {
				if o := strings.TrimLeft(p[0], ":"); o == "root" || o == "0" || strings.HasPrefix(o, "root:") || strings.HasPrefix(o, "0:") || o == "wheel" {
					return "", false // handing it back to root
				}
				p = p[1:] // chown OWNER FILE…, chgrp GROUP FILE…
			}
			for _, f := range p {
				t := c.target(f)
				abs := orStr(t.abs, f)
				if _, ok := c.inClass(catalog.Privilege, t); ok {
					return "Makes " + abs + " (who may become root) the user's as root", true
				}
				for _, d := range systemBinaryDirs {
					if strings.HasPrefix(abs, d) || abs+"/" == d {
						return "Makes " + abs + " (a system program) the user's as root", true
					}
				}
			}
			return "", false
		},
	}}
}

// hasPrefixArg reports an argument that begins with one of the prefixes.
func hasPrefixArg(args []string, prefixes ...string) bool {
	for _, a := range args {
		for _, p := range prefixes {
			if strings.HasPrefix(a, p) {
				return true
			}
		}
	}
	return false
}
