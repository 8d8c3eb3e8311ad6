package riskmodel

import (
	"path"
	"regexp"
	"strings"
)

// Some commands exist to print a well-known location: `python3 -m site --user-site` (Python
// docs: the site module's command line), `python3 -c 'import site;
// print(site.getusersitepackages())'`, `git rev-parse --git-dir` (git-rev-parse(1)), `go env
// GOPATH`, `systemd-path user-configuration` (systemd-path(1)). What they print is known in
// shape — ~/.local/lib/pythonX.Y/site-packages on Linux, the minor version being whatever is
// installed — so a path built on one ("$(python3 -m site --user-site)/x.pth",
// "$(git rev-parse --git-dir)/hooks/pre-commit") names a file in that place: a Python startup
// hook, a git hook. The query is read as data (the table below), never run; a query whose
// answer depends on things the analysis cannot know (npm's prefix, Homebrew's) stays
// unresolved.

var rePythonName = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`^python(?:[23](?:\.\d+)?)?$`) }}

// rePySiteQuery matches a one-line Python program that only imports site or sysconfig and
// prints one of their location queries; the group names the query.
var rePySiteQuery = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:import\s+(?:site|sysconfig)(?:\s*,\s*(?:site|sysconfig))*|from\s+(?:site|sysconfig)\s+import\s+[\w, ]+)\s*[;\n]\s*print\s*\(\s*` +
		`(?:site\.|sysconfig\.)?(getusersitepackages\(\)|USER_SITE|getuserbase\(\)|USER_BASE|getsitepackages\(\)\s*\[\s*-?\d+\s*\]|get_paths\(\)\s*\[\s*['"](?:pure|plat)lib['"]\s*\]|get_path\(\s*['"](?:pure|plat)lib['"]\s*\))\s*\)\s*;?\s*$`)
}}

// pythonSiteDir computes what a Python segment prints when it only asks the site module (or
// sysconfig) where packages live.
func pythonSiteDir(s *Segment, sc *Scope) (string, bool) {
	args := s.Args
	if !rePythonName.get().MatchString(s.Name()) || sc.Home == "" {
		return "", false
	}
	userSite := path.Join(sc.Home, ".local/lib/python3.$_/site-packages")
	if len(args) == 4 && args[1] == "-m" && args[2] == "site" {
		switch args[3] {
		case "--user-site":
			return userSite, true
		case "--user-base":
			return path.Join(sc.Home, ".local"), true
		}
		return "", false
	}
	code, ok := inlineCode(s)
	if !ok {
		return "", false
	}
	m := rePySiteQuery.get().FindStringSubmatch(code)
	if m == nil {
		return "", false
	}
	switch q := m[1]; {
	case q == "getusersitepackages()" || q == "USER_SITE":
		return userSite, true
	case q == "getuserbase()" || q == "USER_BASE":
		return path.Join(sc.Home, ".local"), true
	default:
		// getsitepackages()[i], sysconfig purelib/platlib: the interpreter's own site-packages
		// (a virtual environment's when one is active; either way a startup-hook location).
		return "/usr/local/lib/python3.$_/site-packages", true
	}
}

// wellKnownDir computes what a location query other than Python's prints.
func wellKnownDir(s *Segment, sc *Scope) (string, bool) {
	args := s.Args
	switch s.Name() {
	case "git":
		if len(args) < 3 || args[1] != "rev-parse" || sc.CwdUnknown || sc.Cwd == "" {
			return "", false
		}
		switch args[2] {
		case "--git-dir", "--absolute-git-dir", "--git-common-dir":
			if len(args) == 3 {
				return path.Join(sc.Cwd, ".git"), true
			}
		case "--git-path":
			if len(args) == 4 && !strings.Contains(args[3], "..") {
				return path.Join(sc.Cwd, ".git", args[3]), true
			}
		}
	case "go":
		if len(args) == 3 && args[1] == "env" && args[2] == "GOPATH" && sc.Home != "" {
			return path.Join(sc.Home, "go"), true
		}
	case "systemd-path":
		if len(args) != 2 || sc.Home == "" {
			return "", false
		}
		if rel, ok := map[string]string{
			"user": "", "user-configuration": ".config", "user-shared": ".local/share",
			"user-binaries": ".local/bin", "user-state-cache": ".cache",
		}[args[1]]; ok {
			return path.Join(sc.Home, rel), true
		}
		if args[1] == "system-configuration" {
			return "/etc", true
		}
	}
	return "", false
}
