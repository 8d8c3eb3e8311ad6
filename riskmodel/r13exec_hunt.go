package riskmodel

import (
	"path"
	"slices"
	"strings"
)

// A key hunt whose results are dumped. cred.hunt asks about a search outside the workspace
// for key and credential files: listing their names reveals where secrets lie but not the
// secrets. Feeding what it finds to a command that prints, packs or copies the files (find
// … | xargs cat, find … -exec cat {} +, cat $(find …), find … | tar -T - …) reads every
// store it matches: credential access outright (MITRE ATT&CK T1552.001 and T1552.004,
// Credentials In Files and Private Keys; GTFOBins find -exec, xargs).

// huntDumpers are the commands that print, encode, pack or copy the files named to them.
var huntDumpers = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"cat": true, "tac": true, "head": true, "tail": true, "more": true, "less": true, "strings": true, "xxd": true, "hexdump": true,
		"od": true, "base64": true, "base32": true, "basenc": true, "nl": true, "paste": true, "sed": true, "awk": true,
		"tar": true, "bsdtar": true, "zip": true, "7z": true, "7za": true, "cpio": true, "pax": true, "gzip": true, "cp": true, "scp": true,
		"rsync": true, "rclone": true, "curl": true, "wget": true, "nc": true, "ncat": true, "socat": true, "gpg": true, "sqlite3": true,
		"jq": true, "yq": true, "bat": true, "batcat": true, "type": true, "Get-Content": true, "gc": true, "cut": true, "sort": true, "uniq": true,
	}
}}

// huntWords are parts of a search pattern that name key or credential files.
var huntWords = []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".pem", ".key", ".kdbx", ".kdb", ".p12", ".pfx", ".jks", ".keystore", ".ppk",
	"credentials", ".aws", ".env", ".netrc", ".git-credentials", ".npmrc", ".pypirc", "secrets.json", "wallet.dat", ".gnupg", "secring", "kubeconfig", ".kube"}

// huntPatterns returns the name patterns of a file search (find's -name, -iname, -path,
// -ipath, -wholename, -regex; fd's and locate's pattern), and the roots it searches.
func huntPatterns(s *Segment) (pats, roots []string) {
	switch s.Name() {
	case "find", "gfind", "bfs":
		args := s.Args
		for i := 1; i+1 < len(args); i++ {
			switch args[i] {
			case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
				pats = append(pats, args[i+1])
				i++
			case "-exec", "-execdir", "-ok", "-okdir":
				i = len(args) // the patterns come before the action
			}
		}
		return pats, findRoots(args)
	case "fd", "fdfind":
		ps := s.positional(0, "-e", "--extension", "-t", "--type", "-d", "--max-depth", "-E", "--exclude", "-x", "--exec", "-X", "--exec-batch", "-j", "--threads", "-S", "--size", "-g")
		if v, ok := optValue(s.Args[1:], "-e", "--extension"); ok {
			pats = append(pats, "*."+v)
		}
		if len(ps) > 0 {
			pats = append(pats, ps[0])
		}
		if len(ps) > 1 {
			roots = ps[1:]
		} else {
			roots = []string{"."}
		}
		return pats, roots
	case "locate", "plocate", "mlocate", "mdfind":
		return s.positional(0), []string{"/"}
	}
	return nil, nil
}

// credentialHunt reports a file search outside the workspace whose patterns name key or
// credential files, with the pattern that does.
func credentialHunt(c *execCtx, s *Segment) (string, bool) {
	pats, roots := huntPatterns(s)
	if len(pats) == 0 {
		return "", false
	}
	outside := false
	for _, r := range roots {
		if t := c.target(r); t.zone != ZoneWorkspace && t.zone != ZoneTemp && broadHuntRoot(c, t.abs) {
			outside = true
		}
	}
	if !outside {
		return "", false
	}
	for _, p := range pats {
		l := strings.ToLower(p)
		for _, w := range huntWords {
			if strings.Contains(l, w) {
				return p, true
			}
		}
		probe := path.Join(c.scope.Home, strings.NewReplacer("*", "x", "?", "x").Replace(strings.TrimPrefix(p, "/")))
		if isCredentialPath(c, probe) {
			return p, true
		}
	}
	return "", false
}

// broadHuntRoot reports a search root that holds other people's or the user's stores rather
// than one project: /, a home or the directory of homes, a hidden directory of a home
// (~/.config, ~/.ssh), or a system tree. A search of one other project (~/src/app) for its
// *.pem files stays cred.hunt's question.
func broadHuntRoot(c *execCtx, abs string) bool {
	if abs == "" {
		return true // cannot be placed: "$HOME", a variable
	}
	home := c.scope.Home
	switch {
	case abs == "/" || abs == home || isAncestor(abs, home):
		return true
	case strings.HasPrefix(abs, home+"/."):
		return true
	}
	segs := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	switch segs[0] {
	case "home", "Users":
		return len(segs) <= 2 || strings.HasPrefix(segs[2], ".")
	case "root":
		return len(segs) == 1 || strings.HasPrefix(segs[1], ".")
	case "etc", "var", "opt", "srv", "mnt", "media", "Volumes", "private", "usr", "data", "backup", "backups":
		return true
	}
	return false
}

// findActionDumps reports find's -exec/-execdir/-ok action running a dumper on what it finds.
func findActionDumps(s *Segment) (string, bool) {
	for i, a := range s.Args {
		if (a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir") && i+1 < len(s.Args) {
			if n := path.Base(s.Args[i+1]); huntDumpers.get()[n] {
				return n, true
			}
		}
		if (a == "-x" || a == "--exec" || a == "-X" || a == "--exec-batch") && i+1 < len(s.Args) && (s.Name() == "fd" || s.Name() == "fdfind") {
			if n := path.Base(s.Args[i+1]); huntDumpers.get()[n] {
				return n, true
			}
		}
	}
	return "", false
}

// readsNameList reports a command that reads the names of the files to pack from its
// standard input (tar -T -, cpio -o, zip -@, rsync --files-from=-).
func readsNameList(s *Segment) bool {
	switch s.Name() {
	case "cpio":
		return s.hasFlag("o", "--create")
	case "zip":
		return slices.Contains(s.Args, "-@")
	case "tar", "bsdtar", "rsync":
		for i, a := range s.Args {
			if (a == "-T" || a == "--files-from") && i+1 < len(s.Args) && s.Args[i+1] == "-" || a == "--files-from=-" || a == "-T-" {
				return true
			}
		}
	}
	return false
}

// huntDump reports a credential hunt whose results reach a dumper.
func huntDump(c *execCtx, s *Segment) (string, bool) {
	if p, ok := credentialHunt(c, s); ok {
		if n, ok := findActionDumps(s); ok {
			return "Searches for credential files (" + p + ") and runs " + n + " on every match", true
		}
		if n, ok := xargsDumpOf(c, s); ok {
			return "Searches for credential files (" + p + ") and hands every match to " + n, true
		}
	}
	if s.Name() == "xargs" && s.PipeIn != nil {
		if n := xargsCommand(s.Args); huntDumpers.get()[n] {
			if p, ok := credentialHunt(c, s.PipeIn); ok {
				return "Searches for credential files (" + p + ") and hands every match to " + n, true
			}
		}
	}
	if !huntDumpers.get()[s.Name()] {
		return "", false
	}
	if in := s.PipeIn; in != nil && (slices.Contains(s.Via, "xargs") || readsNameList(s)) {
		if p, ok := credentialHunt(c, in); ok {
			return "Searches for credential files (" + p + ") and hands every match to " + s.Name(), true
		}
	}
	for _, f := range s.Feeds {
		if p, ok := credentialHunt(c, f); ok {
			return "Searches for credential files (" + p + ") and hands every match to " + s.Name(), true
		}
	}
	return "", false
}

// xargsDumpOf finds the dumper that xargs runs on the hunt's results. The unwrapper gives
// the command xargs runs the name find would print (findPlaceholder), or an unknown line
// for another search, as its argument, and no pipe: that argument links it to the hunt.
func xargsDumpOf(c *execCtx, hunt *Segment) (string, bool) {
	marks := []string{"${each input line}"}
	if hunt.Name() == "find" {
		root := "."
		if roots := findRoots(hunt.Args); len(roots) > 0 {
			root = roots[0]
		}
		marks = []string{findPlaceholder(hunt.Args, root)}
	}
	for _, o := range c.segs {
		if o == hunt || !slices.Contains(o.Via, "xargs") || !huntDumpers.get()[o.Name()] {
			continue
		}
		for _, a := range o.Args[1:] {
			for _, m := range marks {
				if strings.Contains(a, m) {
					return o.Name(), true
				}
			}
		}
	}
	return "", false
}

// xargsCommand is the name of the command xargs runs: its first word after xargs's options.
func xargsCommand(args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-I" || a == "-n" || a == "-P" || a == "-d" || a == "-L" || a == "-s" || a == "-E" || a == "-a" || a == "-l":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return path.Base(a)
		}
	}
	return "echo" // xargs with no command runs echo
}

func r13ExecRules() []*Rule {
	return []*Rule{
		{
			ID: "cred.hunt-dump", Level: Critical, Category: CatCredentialAccess,
			Message: "Hunts for key and credential files outside the workspace and prints, packs or copies what it finds",
			exec:    huntDump,
		},
	}
}
