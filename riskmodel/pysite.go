package riskmodel

import (
	"path"
	"regexp"
)

// `python3 -m site --user-site` prints the user's site-packages directory and `--user-base`
// the base above it (Python docs: the site module's command line). Their output is known in
// shape — ~/.local/lib/pythonX.Y/site-packages on Linux, the minor version being whatever
// is installed — so a path built on it ("$(python3 -m site --user-site)/x.pth") is a file in
// site-packages, where a .pth line starting with import runs at every Python start.

var rePythonName = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`^python(?:[23](?:\.\d+)?)?$`) }}

// pythonSiteDir computes what a `python -m site --user-site|--user-base` segment prints.
func pythonSiteDir(s *Segment, sc *Scope) (string, bool) {
	args := s.Args
	if len(args) != 4 || !rePythonName.get().MatchString(s.Name()) || args[1] != "-m" || args[2] != "site" || sc.Home == "" {
		return "", false
	}
	switch args[3] {
	case "--user-site":
		return path.Join(sc.Home, ".local/lib/python3.$_/site-packages"), true
	case "--user-base":
		return path.Join(sc.Home, ".local"), true
	}
	return "", false
}
