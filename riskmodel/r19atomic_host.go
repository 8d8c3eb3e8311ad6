package riskmodel

import (
	"path"
	"slices"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// hostHarm is one documented harmful use of a Linux, FreeBSD or macOS program: the program
// names (as Segment.Name reads them), the subcommand or argument one of which must be present
// (empty: any use), fragments the joined arguments must all contain (lower case), and what
// it does. Each row is on docs/policy.md's deny list with the effect known from the words
// alone, so the rule that holds it denies outright. It is winHarm's counterpart for the hosts
// an agent most often runs on.
type hostHarm struct {
	names []string
	any   []string
	needs []string
	cat   Category
	why   string
}

// securityDaemonLabels are fragments of the launchd labels and plist names of endpoint
// protection, network filters and DNS protection on macOS: unloading one switches that
// protection off. Sources: the vendors' uninstall and troubleshooting guides (Carbon Black,
// CrowdStrike Falcon, Objective-See LuLu/BlockBlock, Little Snitch, Cisco Umbrella/OpenDNS,
// SentinelOne, Sophos, Jamf Protect, Microsoft Defender, Google Santa, osquery, Elastic).
var securityDaemonLabels = []string{"carbonblack", "crowdstrike", "falcond", "littlesnitch", "obdev", "opendns", "umbrella",
	"sentinelone", "sophos", "jamf.protect", "jamfprotect", "microsoft.wdav", "microsoft.dlp", "santa", "objective-see", "lulu",
	"blockblock", "osquery", "elastic.endpoint", "cylance", "tanium", "eset", "malwarebytes", "xprotect", "com.apple.mrt"}

// loggingServices are the services whose stopping ends the system's record of what happens:
// syslog daemons, the journal, audit, and FreeBSD's and macOS's packet filters (a firewall
// stopped is a control off). Matched as a unit name, with or without .service.
var loggingServices = []string{"rsyslog", "syslog", "syslogd", "syslog-ng", "systemd-journald", "journald", "auditd",
	"pf", "pflog", "ipfw", "cbdaemon", "cb-psc-sensor", "cbagentd", "falcon-sensor", "auditbeat", "filebeat", "td-agent", "fluent-bit", "newsyslog"}

// credentialDumpers are programs and scripts whose only job is to pull stored passwords,
// hashes or tickets out of a host: LaZagne, MimiPenguin, pypykatz, linikatz, 3snake,
// swap_digger, firefox_decrypt, impacket's secretsdump. Matched on the program's name and on
// the script an interpreter is given (python3 laZagne.py all, bash mimipenguin.sh).
var credentialDumpers = []string{"lazagne", "mimipenguin", "pypykatz", "linikatz", "3snake", "swap_digger", "firefox_decrypt",
	"secretsdump", "secretsdump.py", "mimikatz", "dumpcreds", "keychaindump", "chainbreaker", "truffleproc"}

// knownRootkitModules are kernel modules published as rootkits (Diamorphine, Reptile,
// Suterusu, adore-ng, KoviD, Singularity); loading one hides processes, files and itself.
var knownRootkitModules = []string{"diamorphine", "reptile", "suterusu", "adore-ng", "adore", "kovid", "singularity", "rkduck", "nuk3gh0st"}

// hostHarms are the rows. Sources: the tools' manuals (pw(8), dsenableroot(8), ufw(8),
// iptables(8), tmutil(8), log(1), launchctl(1), kickstart (Apple Remote Desktop), sysrc(8),
// mount(8), insmod(8)) and Atomic Red Team's Linux/macOS tests for the techniques they serve
// (T1136.001, T1078.003, T1562.001/.004/.012, T1070.002, T1490, T1021.005, T1564.013,
// T1014, T1547.006, T1003).
var hostHarms = table[[]hostHarm]{build: func() []hostHarm {
	return []hostHarm{
		{[]string{"pw"}, []string{"useradd", "adduser", "usermod", "groupadd", "groupmod", "lock", "unlock"}, nil, CatPrivilegeEscalation,
			"creates or changes a local account or group (FreeBSD pw)"},
		{[]string{"dsenableroot"}, nil, nil, CatPrivilegeEscalation, "enables or changes the macOS root account"},
		{[]string{"kickstart"}, []string{"-activate"}, nil, CatSecurityWeakening,
			"turns on Apple Remote Desktop, opening the machine to remote control"},
		{[]string{"defaults"}, []string{"write"}, []string{"com.apple.loginwindow", "loginhook"}, CatPersistence,
			"sets a login hook, a script run as root at every login"},
		{[]string{"defaults"}, []string{"write"}, []string{"com.apple.loginwindow", "logouthook"}, CatPersistence,
			"sets a logout hook, a script run as root at every logout"},
		{[]string{"launchctl"}, []string{"submit"}, nil, CatPersistence,
			"submits a job launchd keeps running and restarts (launchctl submit)"},
		{[]string{"ufw"}, []string{"logging"}, []string{"off"}, CatSecurityWeakening, "switches the firewall's logging off"},
		{[]string{"tmutil"}, []string{"disable"}, nil, CatSecurityWeakening, "switches Time Machine backups off"},
		{[]string{"tmutil"}, []string{"delete", "deletelocalsnapshots", "thinlocalsnapshots"}, nil, CatDataDeletion, "deletes Time Machine backups"},
		{[]string{"log"}, []string{"erase"}, nil, CatSecurityWeakening, "erases macOS's unified log"},
		{[]string{"journalctl"}, nil, []string{"--vacuum-time=0"}, CatSecurityWeakening, "deletes every archived journal file"},
		{[]string{"journalctl"}, nil, []string{"--vacuum-time=1s"}, CatSecurityWeakening, "deletes every archived journal file"},
		{[]string{"sysrc"}, nil, []string{"syslogd_enable=no"}, CatSecurityWeakening, "stops syslogd from starting at boot"},
		{[]string{"sysrc"}, nil, []string{"pf_enable=no"}, CatSecurityWeakening, "stops the pf firewall from starting at boot"},
		{[]string{"sysrc"}, nil, []string{"auditd_enable=no"}, CatSecurityWeakening, "stops auditd from starting at boot"},
	}
}}

// hostHarmOf returns the row a segment matches.
func hostHarmOf(s *Segment) (hostHarm, bool) {
	if len(s.Args) == 0 {
		return hostHarm{}, false
	}
	n := s.Name()
	joined := strings.ToLower(strings.Join(s.Args[1:], " "))
	for _, h := range hostHarms.get() {
		if !slices.Contains(h.names, n) {
			continue
		}
		if len(h.any) > 0 && !s.arg(h.any...) {
			continue
		}
		if allIn(joined, h.needs...) {
			return h, true
		}
	}
	return hostHarm{}, false
}

// protectionStopped says why a segment switches a protection off that is named in its
// arguments rather than by its program: a security vendor's launchd job unloaded, a logging
// service or packet filter stopped, a firewall rule that blocked traffic deleted.
func protectionStopped(s *Segment) string {
	n := s.Name()
	joined := strings.ToLower(strings.Join(s.Args[min(1, len(s.Args)):], " "))
	switch n {
	case "launchctl":
		if s.arg("unload", "bootout", "remove", "disable", "kill", "stop") && containsAny(joined, securityDaemonLabels...) {
			return "unloads a security agent's launchd job"
		}
	case "systemctl", "service", "chkconfig", "rc-service", "rc-update", "update-rc.d":
		if !s.arg("stop", "disable", "mask", "kill", "off", "onestop", "del", "remove") {
			return ""
		}
		for _, a := range s.Args[1:] {
			if slices.Contains(loggingServices, strings.TrimSuffix(a, ".service")) {
				return "stops " + a + ", the system's logging, audit trail or packet filter"
			}
		}
	case "iptables", "ip6tables":
		if s.hasFlag("D", "--delete") && containsAny(joined, "-j drop", "-j reject", "--jump drop", "--jump reject") {
			return "deletes a firewall rule that blocked traffic"
		}
	case "ufw":
		if s.arg("delete") && containsAny(joined, "deny", "reject", "limit") {
			return "deletes a firewall rule that blocked traffic"
		}
	}
	return ""
}

// toolScriptName is the name a segment runs by: the program, or for an interpreter the
// script it is given (python3 laZagne.py → lazagne), lower case and without its extension.
func toolScriptName(s *Segment) string {
	n := strings.ToLower(s.Name())
	switch {
	case n == "sh" || n == "bash" || n == "dash" || n == "zsh" || n == "perl" || n == "ruby" || n == "node" ||
		strings.HasPrefix(n, "python") || n == "swift":
		p := s.positional(0)
		if len(p) == 0 {
			return ""
		}
		n = strings.ToLower(path.Base(p[0]))
	}
	for _, ext := range []string{".py", ".sh", ".pl", ".rb", ".js", ".exe", ".swift"} {
		n = strings.TrimSuffix(n, ext)
	}
	return n
}

// kernelModuleLoad says why loading a kernel module is certain: the module is a file outside
// the system's module tree (insmod /tmp/x.ko: code nobody packaged runs in the kernel), or one
// published as a rootkit.
func kernelModuleLoad(c *execCtx, s *Segment) string {
	switch s.Name() {
	case "insmod", "kldload", "kextload":
		for _, p := range s.positional(0) {
			t := c.target(p)
			if t.abs != "" && (strings.HasPrefix(t.abs, "/lib/modules/") || strings.HasPrefix(t.abs, "/usr/lib/modules/") ||
				strings.HasPrefix(t.abs, "/boot/") || strings.HasPrefix(t.abs, "/System/Library/Extensions/") || strings.HasPrefix(t.abs, "/Library/Extensions/")) {
				continue
			}
			if strings.Contains(p, "/") || strings.HasSuffix(p, ".ko") {
				return "loads the kernel module " + p + " from outside the system's module tree"
			}
		}
	case "modprobe":
		for _, p := range s.positional(0, "-C", "--config", "-d", "--dirname", "-S", "--set-version") {
			if slices.Contains(knownRootkitModules, strings.ToLower(p)) {
				return "loads " + p + ", a published kernel rootkit"
			}
		}
	}
	return ""
}

// procHidden says why a mount is certain: it bind-mounts over a /proc/PID entry, which hides
// that process from ps and top (ATT&CK T1564.013, Bind Mounts).
func procHidden(s *Segment) string {
	if s.Name() != "mount" || !(s.hasFlag("B", "--bind", "--rbind") || strings.Contains(strings.Join(s.Args, " "), "bind")) {
		return ""
	}
	p := s.positional(0, "-o", "-t", "--options", "--types")
	if len(p) == 0 {
		return ""
	}
	if d := p[len(p)-1]; strings.HasPrefix(d, "/proc/") {
		return "bind-mounts over " + d + ", hiding a process from ps and top"
	}
	return ""
}

// stratusTactics maps the tactic in a Stratus Red Team technique ID (aws.credential-access.…,
// k8s.persistence.…) to the category of its effect; detonating one of these carries out that
// attack against the cloud account or cluster the CLI is logged in to. Discovery and
// execution techniques are not listed: those stay asked about.
var stratusTactics = table[map[string]Category]{build: func() map[string]Category {
	return map[string]Category{
		"credential-access": CatCredentialAccess, "defense-evasion": CatSecurityWeakening, "persistence": CatPersistence,
		"exfiltration": CatDataExfiltration, "impact": CatDataDeletion, "privilege-escalation": CatPrivilegeEscalation,
		"lateral-movement": CatPrivilegeEscalation, "initial-access": CatCredentialAccess,
	}
}}

// stratusAttack returns the category and technique a `stratus detonate` runs, ok false when
// it is not one of stratusTactics.
func stratusAttack(s *Segment) (Category, string, bool) {
	if s.Name() != "stratus" || s.sub(0) != "detonate" {
		return "", "", false
	}
	for _, t := range s.positional(1) {
		parts := strings.Split(strings.ToLower(t), ".")
		if len(parts) >= 3 {
			if cat, ok := stratusTactics.get()[parts[1]]; ok {
				return cat, t, true
			}
		}
	}
	return "", "", false
}

// unitFromPath says why a systemctl call is certain persistence: it links or enables a unit
// file given by path from outside systemd's own directories (systemctl link /tmp/x.service),
// registering with the system manager a unit that root then starts (ATT&CK T1543.002).
// sys.service-persist covers unit files already in those directories.
func unitFromPath(c *execCtx, s *Segment) string {
	for _, p := range systemdEnables(s) {
		t := c.target(p)
		if e, ok := c.inClass(catalog.Persistence, t); ok && e.ID == "systemd" {
			continue
		}
		return "registers the unit file " + p + " with systemd from outside its unit directories"
	}
	return ""
}

// editors are the terminal text editors; given a file on the command line they open it to
// be changed.
var editors = []string{"vi", "vim", "nvim", "nano", "pico", "ee", "emacs", "mg", "micro", "joe", "jed", "ne", "mcedit", "vis", "kak", "hx", "helix"}

// editorOnProtected says why an editor run is certain: it opens for editing a file whose
// change docs/policy.md denies, the sudoers or PAM files, a startup file, a security
// control's configuration (sudo vim /etc/sudoers; ATT&CK T1548.003).
func editorOnProtected(c *execCtx, s *Segment) (string, Category) {
	if !slices.Contains(editors, s.Name()) {
		return "", ""
	}
	classes := []struct {
		class catalog.Class
		cat   Category
	}{{catalog.Privilege, CatPrivilegeEscalation}, {catalog.Persistence, CatPersistence}, {catalog.SecurityControl, CatSecurityWeakening}}
	for _, p := range s.positional(0, "-c", "--cmd", "-u", "-S", "-i", "-T", "-t", "-q", "-w", "-W", "-s", "--eval", "-l", "--load") {
		if strings.HasPrefix(p, "+") {
			continue
		}
		t := c.target(p)
		for _, k := range classes {
			if e, ok := c.inClass(k.class, t); ok {
				return "opens " + p + " (" + e.What + ") in " + s.Name() + " to edit it", k.cat
			}
		}
	}
	return "", ""
}

func r19AtomicHostRules() []*Rule {
	table := func(id string, cat Category, msg string) *Rule {
		return &Rule{
			ID: id, Level: Critical, Category: cat, Message: msg,
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if h, ok := hostHarmOf(s); ok && h.cat == cat {
					return capText(joinArgs(s.Args)) + " " + h.why, true
				}
				if why, ec := editorOnProtected(c, s); why != "" && ec == cat {
					return capText(joinArgs(s.Args)) + " " + why, true
				}
				if cat == CatPersistence {
					if why := unitFromPath(c, s); why != "" {
						return capText(joinArgs(s.Args)) + " " + why, true
					}
				}
				if sc, tech, ok := stratusAttack(s); ok && sc == cat {
					return "Detonates the Stratus Red Team attack " + tech + " against the account the CLI is logged in to", true
				}
				return "", false
			},
		}
	}
	return []*Rule{
		table("host.account", CatPrivilegeEscalation, "Creates, unlocks or elevates a local account on a Unix host"),
		table("host.persistence", CatPersistence, "Installs something a Unix host runs on its own (login hook, kept-alive job)"),
		table("host.backup-delete", CatDataDeletion, "Deletes a Unix host's backups, or detonates a cloud attack that destroys data"),
		table("host.cloud-exfil", CatDataExfiltration, "Detonates a cloud attack that copies data out of the account"),
		{
			ID: "host.protection-off", Level: Critical, Category: CatSecurityWeakening,
			Message: "Switches off logging, a firewall, backups or a security agent on a Unix host",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if h, ok := hostHarmOf(s); ok && h.cat == CatSecurityWeakening {
					return capText(joinArgs(s.Args)) + " " + h.why, true
				}
				if why, ec := editorOnProtected(c, s); why != "" && ec == CatSecurityWeakening {
					return capText(joinArgs(s.Args)) + " " + why, true
				}
				if why := protectionStopped(s); why != "" {
					return capText(joinArgs(s.Args)) + " " + why, true
				}
				if cat, tech, ok := stratusAttack(s); ok && cat == CatSecurityWeakening {
					return "Detonates the Stratus Red Team attack " + tech + ", switching off the account's logging or protection", true
				}
				return "", false
			},
		},
		{
			ID: "host.credential-dump", Level: Critical, Category: CatCredentialAccess,
			Message: "Runs a tool whose job is to dump stored passwords or hashes, or opens the user's browser sessions to remote debugging",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if why := browserSessionExposed(s); why != "" {
					return capText(joinArgs(s.Args)) + " " + why, true
				}
				if n := toolScriptName(s); n != "" && slices.Contains(credentialDumpers, n) {
					return "Runs " + n + ", a tool that dumps stored passwords, hashes or browser logins", true
				}
				if cat, tech, ok := stratusAttack(s); ok && cat == CatCredentialAccess {
					return "Detonates the Stratus Red Team attack " + tech + ", reading the account's credentials", true
				}
				return "", false
			},
		},
		{
			ID: "host.kernel-implant", Level: Critical, Category: CatPersistence,
			Message: "Loads a kernel module nobody packaged, or hides a process",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if why := kernelModuleLoad(c, s); why != "" {
					return capText(joinArgs(s.Args)) + " " + why, true
				}
				if why := procHidden(s); why != "" {
					return capText(joinArgs(s.Args)) + " " + why, true
				}
				return "", false
			},
		},
	}
}

// homeRootRead returns the whole-home directory a recursive reader is given, "" when none:
// the home directory itself, every user's home (/home, /Users, /home/*, /Users/*), or /,
// also when an unset variable leaves "$HOME/$USERNAME" as home itself. A copy or archive of
// one carries every credential store under it (SSH and GPG keys, cloud logins, browser
// profiles, keychains): ATT&CK T1560.001 (Archive via Utility), T1074 (Data Staged).
func homeRootRead(c *execCtx, s *Segment) string {
	switch s.Name() {
	case "tar", "bsdtar", "gtar", "zip", "7z", "7za", "rsync", "cp", "scp", "ditto", "rclone", "pax", "cpio":
		if !readsRecursively(s) && s.Name() != "ditto" && s.Name() != "pax" {
			return ""
		}
	default:
		if !objectStoreTreeCopy(s) {
			return "" // grep -r, rg: they print matching lines, not the files
		}
	}
	written := map[string]bool{}
	for _, t := range writeTargets(c, s) {
		written[t.arg] = true
	}
	for _, p := range s.positional(0, "-f", "--file", "-C", "--directory", "-X", "--exclude-from", "-T", "--files-from", "-x", "-i", "-e", "--exclude", "--include", "--filter", "-p", "--password") {
		if written[p] || strings.Contains(p, "://") || strings.Contains(p, ":") && !strings.HasPrefix(p, "/") {
			continue
		}
		if root, _ := emptyVarRoot(c, s, p); root != "" {
			return p + " (" + root + " once the unset variable is empty)"
		}
		switch strings.TrimSuffix(p, "/") {
		case "/home/*", "/Users/*", "/home", "/Users", "":
			return p
		}
		t := c.target(p)
		if t.abs != "" && (t.abs == c.scope.Home || t.abs == "/" || t.abs == "/home" || t.abs == "/Users" || t.abs == "/root") {
			return p
		}
	}
	return ""
}

// homeArchiveSent says why a whole-home copy is certain: its output is piped to a program
// that sends it to another machine (tar czf - ~ | ssh host 'cat > h.tgz'), which puts every
// credential store under home on a host that is not the project's own (docs/policy.md:
// sending secrets or credentials to any host that is not the project's own).
func homeArchiveSent(c *execCtx, s *Segment) string {
	for _, seg := range c.segs {
		for in := seg.PipeIn; in != nil; in = in.PipeIn {
			if in != s {
				continue
			}
			switch seg.Name() {
			case "ssh", "nc", "ncat", "netcat", "socat", "curl", "wget", "scp", "sftp", "aws", "gsutil", "rclone", "telnet":
				return "its output is sent to another machine with " + seg.Name() + " (docs/policy.md: sending credentials to a host that is not the project's own)"
			}
		}
	}
	return ""
}

func r19HomeArchiveRules() []*Rule {
	return []*Rule{{
		ID: "cred.home-archive", Level: High, Category: CatCredentialAccess,
		CertainWhen: "the copy is piped to a program that sends it to another machine",
		Message:     "Copies or archives a whole home directory, with every credential store under it",
		exec: func(c *execCtx, s *Segment) (string, bool) {
			if root := homeRootRead(c, s); root != "" {
				return "Runs " + s.Name() + " over " + root + ", reading every SSH key, cloud login and browser profile under it", true
			}
			return "", false
		},
	}}
}

// histfileWords are the spellings of the variable bash and zsh keep the history file's path
// in (bash(1) HISTFILE, zshparam(1) HISTFILE).
var histfileWords = []string{"$HISTFILE", "${HISTFILE}", `"$HISTFILE"`, `"${HISTFILE}"`}

// histfileWiped says why a segment empties or deletes the file $HISTFILE names: whatever the
// variable holds, the command history goes (ATT&CK T1070.003, Clear Command History).
func histfileWiped(s *Segment) string {
	for _, r := range s.Redirs {
		if (r.Op == ">" || r.Op == ">|" || r.Op == "&>") && slices.Contains(histfileWords, r.Target) {
			return "empties $HISTFILE, the shell's command history"
		}
	}
	switch s.Name() {
	case "rm", "shred", "truncate", "unlink", "srm":
		for _, a := range s.Args[1:] {
			if slices.Contains(histfileWords, a) {
				return "deletes or empties $HISTFILE, the shell's command history"
			}
		}
	case "ln":
		if p := s.positional(0); len(p) == 2 && p[0] == "/dev/null" && slices.Contains(histfileWords, p[1]) {
			return "links $HISTFILE to /dev/null, so the command history is no longer kept"
		}
	}
	return ""
}

func r19HistoryRules() []*Rule {
	return []*Rule{{
		ID: "host.history-wipe", Level: Critical, Category: CatSecurityWeakening,
		Message: "Empties or deletes the shell's command history through $HISTFILE",
		exec: func(c *execCtx, s *Segment) (string, bool) {
			if why := histfileWiped(s); why != "" {
				return capText(joinArgs(s.Args)) + " " + why, true
			}
			return "", false
		},
	}}
}

// chromiumBrowsers are the program names of Chromium-family browsers on Linux and macOS
// (the macOS app's executable is named like the app).
var chromiumBrowsers = []string{"google-chrome", "google-chrome-stable", "google-chrome-beta", "chrome", "chromium", "chromium-browser",
	"google chrome", "google chrome canary", "chromium", "msedge", "microsoft-edge", "microsoft edge", "brave", "brave-browser",
	"brave browser", "opera", "vivaldi"}

// browserSessionExposed says why starting a browser is certain credential access: it opens a
// remote-debugging port (or pipe) on the user's own profile (no --user-data-dir, not
// headless), through which any local program reads every logged-in session's cookies
// (ATT&CK T1539 Steal Web Session Cookie; T1185). `open -a "Google Chrome" --args …` counts.
// A test browser on a throwaway profile (Playwright, Puppeteer, --headless) does not.
func browserSessionExposed(s *Segment) string {
	args := s.Args
	name := strings.ToLower(s.Name())
	if name == "open" {
		app, ok := optValue(s.Args[1:], "-a")
		if !ok {
			return ""
		}
		name = strings.ToLower(strings.TrimSuffix(path.Base(app), ".app"))
	}
	if !slices.Contains(chromiumBrowsers, name) {
		return ""
	}
	debug := false
	for _, a := range args[1:] {
		switch {
		case strings.HasPrefix(a, "--user-data-dir"), strings.HasPrefix(a, "--headless"):
			return ""
		case strings.HasPrefix(a, "--remote-debugging-port"), strings.HasPrefix(a, "--remote-debugging-pipe"):
			debug = true
		}
	}
	if !debug {
		return ""
	}
	return "starts " + name + " with remote debugging on the user's own profile, exposing every logged-in session's cookies"
}
