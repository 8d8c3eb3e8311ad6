package riskmodel

import (
	"strings"
)

// readOnly are commands that only read and print. Commands that can also write (sed -i, find
// -delete, awk system()) are caught by risk rules first, which is why these are baseline.
var readOnly = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"ls": true, "cat": true, "head": true, "tail": true, "less": true, "more": true, "wc": true, "grep": true, "egrep": true, "fgrep": true,
		"rg": true, "ag": true, "ack": true, "find": true, "fd": true, "tree": true, "stat": true, "file": true, "du": true, "df": true, "pwd": true,
		"echo": true, "printf": true, "which": true, "whereis": true, "type": true, "date": true, "uname": true, "whoami": true, "id": true,
		"hostname": true, "ps": true, "pgrep": true, "uptime": true, "free": true, "sort": true, "uniq": true, "cut": true, "tr": true, "jq": true,
		"yq": true, "diff": true, "cmp": true, "md5sum": true, "sha1sum": true, "sha256sum": true, "shasum": true, "md5": true, "basename": true,
		"dirname": true, "realpath": true, "readlink": true, "true": true, "false": true, "test": true, "[": true, "sleep": true, "seq": true,
		"xxd": true, "od": true, "hexdump": true, "strings": true, "column": true, "tac": true, "nl": true, "fold": true, "fmt": true, "paste": true,
		"join": true, "comm": true, "lsof": true, "netstat": true, "ss": true, "top": true, "htop": true, "lsblk": true,
		"locale": true, "groups": true, "getent": true, "nproc": true, "lscpu": true, "sw_vers": true, "arch": true, "tty": true, "man": true,
		"help": true, "cal": true, "bc": true, "expr": true, "awk": true, "gawk": true, "sed": true, "zcat": true, "bat": true, "exa": true,
		"eza": true, "base64": true, "openssl": true, "ssh-keygen": true, "printenv": true,
		"history": true, "env": true, "jobs": true, "wait": true, "getconf": true, "ulimit": true, "vmstat": true, "iostat": true, "dmesg": true,
		"journalctl": true, "lsusb": true, "lspci": true, "ldd": true, "nm": true, "objdump": true, "otool": true, "size": true, "identify": true,
		"pdfinfo": true, "mdls": true, "say": true, "clear": true, "tput": true, "stty": true, "watch": true,
		"time": true, "command": true, "hash": true, "read": true, "shasum256": true, "cksum": true, "b2sum": true, "numfmt": true, "iconv": true,
		"csvlook": true, "glow": true, "delta": true, "difft": true, "colordiff": true,
	}
}}

// shellBuiltins change only the shell's own state.
var shellBuiltins = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"cd": true, "pushd": true, "popd": true, "export": true, "unset": true, "set": true, "shopt": true,
		"alias": true, "unalias": true, "local": true, "declare": true, "typeset": true, "readonly": true, "exit": true,
		"return": true, ":": true, "shift": true, "trap": true, "umask": true, "setopt": true, "nvm": true, "deactivate": true,
		"break": true, "continue": true, "let": true, "getopts": true, "disown": true, "fg": true, "bg": true, "builtin": true}
}}

// netReaders are network tools that only look something up or download to stdout/workspace.
var netReaders = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"curl": true, "wget": true, "http": true, "https": true, "xh": true, "dig": true, "nslookup": true,
		"host": true, "ping": true, "ping6": true, "traceroute": true, "tracepath": true, "mtr": true, "whois": true, "ssh-keyscan": true,
		"nc": true, "ncat": true, "netcat": true, "aria2c": true, "fetch": true}
}}

// workspaceWriters change files; baseline-classified when every target is in the workspace or
// a temporary directory (the fs.write rules catch the rest).
var workspaceWriters = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"mkdir": true, "touch": true, "cp": true, "mv": true, "ln": true, "tee": true, "sed": true, "install": true, "tar": true, "unzip": true, "zip": true, "gzip": true, "gunzip": true, "bzip2": true, "xz": true,
		"unxz": true, "7z": true, "rsync": true, "patch": true, "chmod": true, "truncate": true, "dd": true, "split": true, "csplit": true,
		"ditto": true, "convert": true, "magick": true, "ffmpeg": true, "pandoc": true, "protoc": true, "sqlite3": true,
		"mktemp": true, "ssh-keygen": true, "openssl": true, "gpg": true, "code": true, "vim": true, "nano": true, "emacs": true,
		"vi": true, "ed": true, "sort": true, "source": true, ".": true, "ex": true, "tidy": true,
		"prettier": true, "gofmt": true, "goimports": true, "rustfmt": true, "black": true, "exiftool": true, "mogrify": true,
		"pngquant": true, "optipng": true, "jpegoptim": true, "svgo": true, "clang-format": true, "xmllint": true, "cmake": true}
}}

// cliReads maps a CLI to the subcommands (first one or two words) that only read. A "*"
// second level accepts any noun: gh pr list, gh issue view.
var cliReads = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"gh":           {"* list", "* view", "* status", "* diff", "* checks", "* watch", "status", "search *", "browse", "auth status", "api", "repo view", "run view", "run list", "release list", "release view", "workflow list", "workflow view", "label list", "gist view", "gist list", "pr checkout"},
		"glab":         {"* list", "* view", "* status", "* diff", "mr checkout", "ci view", "ci status", "api"},
		"crontab":      {"-l"},
		"scrontab":     {"-l"}, // Slurm's per-user crontab (scrontab(1))
		"systemctl":    {"status", "list-units", "list-unit-files", "is-active", "is-enabled", "is-failed", "show", "cat", "list-timers", "list-dependencies", "list-jobs", "list-paths", "list-automounts", "list-machines", "get-default", "is-system-running"},
		"launchctl":    {"list", "print", "print-disabled", "blame"},
		"brew":         {"list", "info", "search", "outdated", "doctor", "config", "deps", "uses", "leaves", "--prefix", "--version", "home"},
		"npm":          {"view", "ls", "list", "outdated", "config", "whoami", "ping", "explain", "why", "fund", "help", "search", "info", "doctor", "root", "prefix", "bin"},
		"pip":          {"list", "show", "freeze", "check", "config", "debug", "index", "inspect", "help", "search"},
		"pip3":         {"list", "show", "freeze", "check", "config", "debug", "index", "inspect", "help"},
		"xcode-select": {"-p", "--print-path", "-v", "--version"},
		"defaults":     {"read", "read-type", "domains", "find"},
		"security":     {"find-certificate", "find-identity", "list-keychains", "default-keychain", "show-keychain-info", "verify-cert"},
		"ufw":          {"status"},
		"iptables":     {"-L", "-S", "--list", "--list-rules"},
		"apt":          {"list", "search", "show", "policy", "depends", "rdepends"},
		"apt-cache":    {"*"},
		"dpkg":         {"-l", "-L", "-s", "--list", "--status", "-S"},
		"rpm":          {"-q", "-qa", "-qi", "-ql"},
		"snap":         {"list", "info", "find"},
		"service":      {"--status-all"},
		"docker":       {"version", "info"},
		"sw_vers":      {"*"},
		"mdfind":       {"*"},
		"open":         {"-R"},
		"ssh-add":      {"-l", "-L"},
		"gpg":          {"--list-keys", "-k", "--list-secret-keys", "--fingerprint", "--verify"},
		"openssl":      {"version", "x509", "s_client", "rand", "dgst", "req -text", "verify", "ciphers"},
		"tmux":         {"ls", "list-sessions", "capture-pane"},
	}
}}

// cliRead reports whether a segment is a read-only subcommand of a known CLI.
func cliRead(s *Segment) bool {
	subs, ok := cliReads.get()[s.Name()]
	if !ok || len(s.Args) < 2 {
		return false
	}
	w1, w2 := s.Args[1], ""
	if len(s.Args) > 2 {
		w2 = s.Args[2]
	}
	if cliGlobalIndex.get()[s.Name()] != nil { // gh -R o/r pr list: judge the subcommand, not the option
		p := append(s.positional(0), "", "")
		w1, w2 = p[0], p[1]
	}
	if (s.Name() == "gh" || s.Name() == "glab") && w1 == "api" {
		return !s.hasFlag("fFX", "--field", "--raw-field", "--method", "--input")
	}
	for _, sub := range subs {
		a, b, two := strings.Cut(sub, " ")
		switch {
		case sub == "*":
			return true
		case !two && a == w1:
			return true
		case two && (a == "*" || a == w1) && (b == "*" || b == w2):
			return true
		}
	}
	return false
}

// versionProbe reports a command asked only for its version or help.
func versionProbe(s *Segment) bool {
	if len(s.Args) != 2 || strings.Contains(s.Args[0], "$") {
		return false
	}
	switch s.Args[1] {
	case "--version", "-V", "-v", "version", "--help", "-h", "help", "-version":
		return true
	}
	return false
}

func baselineRules() []*Rule {
	return []*Rule{
		{
			ID: "base.cli-read", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Runs a read-only subcommand of a known tool",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if versionProbe(s) {
					return "Prints the version or help of " + s.Name(), true
				}
				if p := s.positional(0, "-i", "-p", "-o", "-F"); s.Name() == "ssh" && s.hasFlag("T") && len(p) == 1 && strings.HasPrefix(p[0], "git@") {
					return "Checks SSH access to a git host (" + p[0] + ")", true
				}
				if (s.Name() == "python3" || s.Name() == "python") && s.arg("http.server") {
					if b, ok := optValue(s.Args[1:], "--bind", "-b"); ok && b != "0.0.0.0" && isLocalHost(b) {
						return "Serves files on " + b + " only, reachable from this machine alone", true
					}
				}
				if cliRead(s) {
					return "Runs " + joinArgs(s.Args) + " (read-only)", true
				}
				return "", false
			},
		},
		{
			ID: "base.perms-tighten", Baseline: true, Level: Low, Category: CatNone,
			Message: "Tightens file permissions",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if s.Name() != "chmod" {
					return "", false
				}
				p := s.positional(0)
				if len(p) < 2 {
					return "", false
				}
				m := p[0]
				// Only modes that leave group and others at most read access, or symbolic
				// removals; a recursive change could loosen files it was not meant for.
				tight := isOctal(m) && len(m) == 3 && strings.Trim(m[1:], "04") == "" ||
					strings.Contains(m, "-") && !strings.Contains(m, "+") && !strings.Contains(m, "=")
				if !tight || s.hasFlag("R", "--recursive") {
					return "", false
				}
				return "Tightens the permissions of " + strings.Join(p[1:], " ") + " (" + m + ")", true
			},
		},
		{
			ID: "base.git-read", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Inspects the repository with git",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				sub, _ := gitSub(s)
				switch sub {
				case "status", "log", "diff", "show", "branch", "remote", "rev-parse", "ls-files", "ls-tree", "blame", "grep", "describe",
					"shortlog", "tag", "stash", "reflog", "fetch", "cat-file", "rev-list", "config", "help", "version", "--version", "whatchanged",
					"name-rev", "merge-base", "show-ref", "for-each-ref", "count-objects", "fsck", "check-ignore", "ls-remote", "var", "gc",
					"range-diff", "difftool", "format-patch", "archive", "bundle", "verify-commit", "verify-tag", "instaweb", "maintenance", "clone", "lfs", "push":
					if sub == "push" {
						return "Shows what git push would send (--dry-run)", true
					}
					if sub == "fetch" || sub == "clone" || sub == "ls-remote" {
						return "Downloads from a remote repository with git " + sub, true
					}
					return "Inspects the repository with git " + sub, true
				case "":
					return "Runs git", len(s.Args) >= 1 && s.Name() == "git"
				}
				return "", false
			},
		},
		{
			ID: "base.workspace-write", Baseline: true, Level: Medium, Category: CatNone, Contained: true,
			Message: "Creates or changes files inside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				n := s.Name()
				if !workspaceWriters.get()[n] && !strings.HasPrefix(n, "mkfs") {
					return "", false
				}
				ts := writeTargets(c, s)
				if n == "chmod" {
					if p := s.positional(0); len(p) > 1 {
						ts = c.targets(p[1:])
					}
				}
				if len(ts) == 0 && readOnly.get()[n] {
					return "", false // sed without -i, sort without -o: a read
				}
				for _, t := range ts {
					if d, ok := stampedNameDir(c, s, t); ok {
						t = d // /tmp/coverage-$(date +%s).tgz: a new file in /tmp
					}
					if t.zone != ZoneWorkspace && t.zone != ZoneTemp && t.zone != ZoneDevNull {
						return "", false
					}
				}
				if len(ts) > 0 {
					return "Runs " + n + " on " + ts[0].arg + " inside the workspace", true
				}
				return "Runs " + n + " inside the workspace", true
			},
		},
		{
			ID: "base.read-only", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Runs a read-only command",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				n := s.Name()
				if !readOnly.get()[n] {
					return "", false
				}
				for _, r := range s.Redirs {
					if r.Writes() {
						if t := c.target(r.Target); t.zone != ZoneWorkspace && t.zone != ZoneTemp && t.zone != ZoneDevNull {
							return "", false
						}
						return "Runs " + n + " and writes its output to " + r.Target + " inside the workspace", true
					}
				}
				if (n == "sed" || n == "awk" || n == "gawk") && strings.Contains(strings.Join(s.Args, " "), "system(") {
					return "", false
				}
				return describeRead(c, s), true
			},
		},
		{
			ID: "base.shell-state", Baseline: true, Level: Low, Category: CatNone,
			Message: "Changes only the shell's own state (directory, variables)",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if shellBuiltins.get()[s.Name()] {
					return "Runs the shell builtin " + s.Name(), true
				}
				if len(s.Args) == 0 && len(s.Redirs) == 0 {
					return "Sets shell variables", true
				}
				return "", false
			},
		},
		{
			ID: "base.redirect", Baseline: true, Level: Low, Category: CatNone,
			Message: "Redirects output inside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(s.Args) > 0 {
					return "", false
				}
				for _, r := range s.Redirs {
					if r.Writes() {
						if t := c.target(r.Target); t.zone != ZoneWorkspace && t.zone != ZoneTemp && t.zone != ZoneDevNull {
							return "", false
						}
					}
				}
				return "Redirects output to " + s.Redirs[0].Target, len(s.Redirs) > 0
			},
		},
		{
			ID: "base.net-read", Baseline: true, Level: Low, Category: CatNetworkEgress,
			Message: "Downloads or looks up something on the network without sending local data",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !netReaders.get()[s.Name()] {
					return "", false
				}
				for _, t := range writeTargets(c, s) {
					if t.zone != ZoneWorkspace && t.zone != ZoneTemp && t.zone != ZoneDevNull {
						return "", false
					}
				}
				if h := describeHosts([]*Segment{s}); h != "the network" {
					return "Fetches data from " + h + " with " + s.Name(), true
				}
				return "Runs the network tool " + s.Name(), true
			},
		},
	}
}

// describeRead writes a summary for a read-only command: what it reads, and where.
func describeRead(c *execCtx, s *Segment) string {
	p := s.positional(0)
	if len(p) == 0 {
		return "Runs " + joinArgs(s.Args) + " (read-only)"
	}
	t := c.target(p[len(p)-1])
	switch t.zone {
	case ZoneWorkspace:
		return "Runs " + joinArgs(s.Args) + " (read-only, inside the workspace)"
	case ZoneUnknown:
		return "Runs " + joinArgs(s.Args) + " (read-only)"
	}
	return "Runs " + joinArgs(s.Args) + " (read-only)"
}

// unknownFindings judges a command no rule knows. A plain unknown binary with ordinary
// arguments is medium (the policy: ask without a model, a model may decide). But its
// arguments can say what it will do whatever the binary is: code to run, a URL to fetch, a
// credential file, a recursive delete outside the workspace, a destructive verb. Those are
// judged on that effect, at high, so a model cannot wave them through.
func unknownFindings(c *execCtx, s *Segment) []Finding {
	base := unknownFinding(s)
	if why, cat := unknownArgRisk(c, s); why != "" {
		return []Finding{{RuleID: "cmd.unknown-risky", Segment: s.Text, Level: High, Category: cat,
			Message: "Runs " + quoteName(s.Name()) + ", a command guardian does not know, " + why}}
	}
	return []Finding{base}
}

// destructiveWords are argument words (split on - _ = : /) that announce destruction.
var destructiveWords = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"wipe": true, "destroy": true, "purge": true, "nuke": true, "erase": true, "obliterate": true,
		"shred": true, "drop": true, "truncate": true, "annihilate": true, "scorch": true, "factory": true, "teardown": true}
}}

// urlOpeners hand a URL to the desktop's browser.
var urlOpeners = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"open": true, "xdg-open": true, "wslview": true, "gio": true, "sensible-browser": true, "start": true}
}}

// codeMarkers in an argument mean it carries code for something to run.
var codeMarkers = []string{"$(", "`", "| sh", "|sh", "| bash", "|bash", "/dev/tcp/", "base64 -d", "base64 --decode", "eval ", "exec(", "system(", "os.system", "child_process", "; rm ", "&& rm ", "curl ", "wget "}

func unknownArgRisk(c *execCtx, s *Segment) (string, Category) {
	if len(s.Args) < 2 {
		return "", CatNone
	}
	recursive := false
	for _, a := range s.Args[1:] {
		if a == "-r" || a == "-rf" || a == "-fr" || a == "-R" || a == "--recursive" || a == "--all" {
			recursive = true
		}
	}
	for _, a := range s.Args[1:] {
		if containsAny(a, codeMarkers...) {
			return "with code in its arguments (" + capText(a) + ")", CatRemoteCodeExecution
		}
		if i := strings.Index(a, "://"); i > 0 {
			if u := hostOf(a[max(0, strings.LastIndexAny(a[:i], "=:@ /")+1):]); u != "" && !c.trustedHost(u) && !urlOpeners.get()[s.Name()] {
				return "with a URL to " + u + " (what it fetches or sends cannot be seen)", CatNetworkEgress
			}
		}
		if strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
			for _, w := range strings.FieldsFunc(strings.ToLower(a), func(r rune) bool { return r == '-' || r == '_' }) {
				if destructiveWords.get()[w] || w == "format" && formatsDevice(s.Args[1:]) {
					return "with the destructive option " + a, CatDataDeletion
				}
			}
		}
		if strings.HasPrefix(a, "-") {
			if i := strings.IndexByte(a, '='); i > 0 {
				a = a[i+1:]
			} else {
				continue
			}
		}
		if a == "" || !(strings.ContainsAny(a, "/~.") || strings.HasPrefix(a, "$")) {
			continue
		}
		t := c.target(a)
		if t.abs != "" && isCredentialPath(c, t.abs) {
			return "on the credential file " + c.where(t), CatCredentialAccess
		}
		if recursive && (t.zone == ZoneVital || t.abs == c.scope.Home) {
			return "recursively on " + c.where(t), CatDataDeletion
		}
	}
	if why := unknownBulkDelete(s); why != "" {
		return why, CatDataDeletion
	}
	if why, cat := unknownControlRisk(s); why != "" {
		return why, cat
	}
	// A destructive verb as the first word: "frobnicate wipe prod".
	if sub := strings.ToLower(s.Args[1]); destructiveWords.get()[sub] || sub == "format" && formatsDevice(s.Args[2:]) {
		return "with the destructive verb " + sub, CatDataDeletion
	}
	return "", CatNone
}
