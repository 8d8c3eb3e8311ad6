package riskmodel

import (
	"strings"
)

func sysRules() []*Rule {
	return []*Rule{
		{
			ID: "sys.disk", Level: Critical, Category: CatDataDeletion,
			Message: "Formats or repartitions a disk",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				n := s.Name()
				if strings.HasPrefix(n, "mkfs") || n == "mkswap" || n == "parted" || n == "sfdisk" || n == "fdisk" {
					onFiles := len(s.positional(0)) > 0
					for _, t := range c.targets(s.positional(0, "-t", "-L", "-b", "-n", "-O")) {
						if t.zone != ZoneWorkspace && t.zone != ZoneTemp {
							onFiles = false
						}
					}
					if onFiles {
						return "", false // an image file in the workspace, not a disk
					}
				}
				switch {
				case strings.HasPrefix(n, "mkfs"), n == "fdisk" && !s.hasFlag("l", "--list"), n == "sfdisk", n == "parted" && !s.arg("print", "-l"),
					n == "wipefs", n == "gdisk", n == "sgdisk", n == "cfdisk", n == "mkswap", n == "blkdiscard",
					n == "diskutil" && (strings.HasPrefix(s.sub(0), "erase") || s.sub(0) == "partitionDisk" || s.sub(0) == "zeroDisk" || s.sub(0) == "randomDisk"):
					return "Runs " + n + ", which destroys the data on a disk", true
				}
				return "", false
			},
		},
		{
			ID: "sys.fork-bomb", Level: Critical, Category: CatResourceExhaustion,
			Message: "Starts a fork bomb that exhausts the machine",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, v := range s.Via {
					if strings.HasPrefix(v, "function ") && strings.TrimPrefix(v, "function ") == s.Name() && (s.PipeIn != nil && s.PipeIn.Name() == s.Name()) {
						return "Defines a function that pipes into itself in the background: a fork bomb", true
					}
				}
				return "", false
			},
		},
		{
			ID: "sys.runaway", Level: Critical, Category: CatResourceExhaustion,
			Message: "Starts processes or requests without end (a fork bomb, a request flood, a disk-filling loop)",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(c.segs) == 0 || s != c.segs[0] {
					return "", false // judged once per request
				}
				if why := runawayIn(c.req.Command); why != "" {
					return "The command " + why, true
				}
				return "", false
			},
		},
		{
			ID: "sys.disk-fill", Level: Critical, Category: CatResourceExhaustion,
			Message: "Writes an endless or enormous stream into a file, filling the disk",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(s.Args) == 0 {
					return "", false
				}
				n := s.Name()
				switch n {
				case "fallocate", "truncate", "mkfile":
					l, ok := optValue(s.Args[1:], "-l", "--length", "-s", "--size")
					if n == "mkfile" && len(s.positional(0)) > 0 {
						l, ok = s.positional(0)[0], true
					}
					limit := int64(diskFillBytes)
					if n == "truncate" {
						limit = 100 << 30 // a sparse file: only far past any disk is it a fill
					}
					if ok && byteSize(strings.TrimPrefix(l, "+")) >= limit {
						return "Allocates a " + l + " file", true
					}
					return "", false
				case "dd":
					var bs, count, of, in string
					for _, a := range s.Args[1:] {
						switch {
						case strings.HasPrefix(a, "bs="):
							bs = a[3:]
						case strings.HasPrefix(a, "count="):
							count = a[6:]
						case strings.HasPrefix(a, "of="):
							of = a[3:]
						case strings.HasPrefix(a, "if="):
							in = a[3:]
						}
					}
					endlessIn := in == "/dev/zero" || in == "/dev/urandom" || in == "/dev/random"
					if of == "" || strings.HasPrefix(of, "/dev/") {
						return "", false // a device is sys.disk's; stdout is judged where it goes
					}
					if endlessIn && count == "" || byteSize(bs)*byteSize(count) >= diskFillBytes {
						return "Writes " + map[bool]string{true: "without end", false: "50 GiB or more"}[count == ""] + " from " + in + " into " + of + " with dd", true
					}
					return "", false
				}
				if !writesFile(s) {
					return "", false
				}
				if n == "yes" {
					return "Writes yes's endless output into a file", true
				}
				endless := false
				for _, a := range s.Args[1:] {
					if a == "/dev/zero" || a == "/dev/urandom" || a == "/dev/random" {
						endless = true
					}
				}
				if !endless && (n == "head" || n == "tail") && endlessPipeIn(s) {
					if v, ok := optValue(s.Args[1:], "-c", "--bytes"); ok && byteSize(v) >= diskFillBytes {
						return "Writes " + v + " of an endless stream into a file with " + n, true
					}
				}
				if !endless {
					return "", false
				}
				if n == "head" || n == "tail" {
					if v, ok := optValue(s.Args[1:], "-c", "--bytes"); ok && byteSize(v) < 20<<30 {
						return "", false
					}
					if v, ok := optValue(s.Args[1:], "-n", "--lines"); ok && byteSize(v) < 1<<20 && !containsArg(s.Args, "/dev/zero") {
						return "", false
					}
				}
				return "Copies the endless stream of a random or zero device into a file with " + n, true
			},
		},
		{
			ID: "sys.miner", Level: Critical, Category: CatResourceExhaustion,
			Message: "Runs a cryptocurrency miner",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(s.Args) == 0 {
					return "", false
				}
				if minerNames.get()[strings.ToLower(s.Name())] {
					return "Runs " + s.Name() + ", a cryptocurrency miner", true
				}
				if img, ok := minerImage(s); ok {
					return "Starts the image " + img + ", a cryptocurrency miner, with " + s.Name(), true
				}
				for _, a := range s.Args[1:] {
					if strings.HasPrefix(a, "stratum+tcp://") || strings.HasPrefix(a, "stratum+ssl://") || strings.HasPrefix(a, "stratum://") {
						return "Connects to a mining pool (" + a + ")", true
					}
					if h := miningPoolHost(a); h != "" && !isFetcher(s) {
						return "Connects to the mining pool " + h, true
					}
				}
				return "", false
			},
		},
		{
			ID: "sys.windows-abuse", Level: Critical, Category: CatSecurityWeakening,
			Message: "Uses a Windows system tool to dump credentials, persist, or turn off protection",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(s.Args) == 0 {
					return "", false
				}
				n := strings.TrimSuffix(strings.ToLower(s.Name()), ".exe")
				if !windowsTools.get()[n] {
					return "", false
				}
				// Backslashes differ with quoting (HKLM\SAM unquoted is HKLMSAM): compare without.
				text := strings.ReplaceAll(strings.ToLower(strings.Join(s.Args[1:], " ")), `\`, "")
				for _, w := range windowsAbuse {
					if (w.tool == n || w.tool == "*" && (n == "powershell" || n == "pwsh" || n == "cmd")) && allIn(text, w.needs...) {
						return w.why + " (" + capText(joinArgs(s.Args)) + ")", true
					}
				}
				return "", false
			},
		},
		{
			ID: "sys.security-off", Level: Critical, Category: CatSecurityWeakening,
			Message: "Turns off a system security control",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				n := s.Name()
				j := strings.Join(s.Args, " ")
				switch {
				case n == "setenforce" && s.arg("0", "Permissive", "permissive"),
					n == "ufw" && s.arg("disable", "reset"),
					(n == "iptables" || n == "ip6tables") && (s.hasFlag("FX", "--flush", "--delete-chain") || strings.Contains(j, "-P INPUT ACCEPT")),
					n == "nft" && s.arg("flush"),
					n == "spctl" && s.arg("--master-disable", "--global-disable"),
					n == "csrutil" && s.arg("disable"),
					n == "sysctl" && strings.Contains(j, "randomize_va_space=0"),
					(n == "systemctl" || n == "service") && (s.arg("stop", "disable", "mask")) && containsAny(j, "firewalld", "ufw", "apparmor", "auditd", "selinux", "fail2ban", "clamav", "falcon", "osquery"),
					n == "defaults" && strings.Contains(j, "com.apple.LaunchServices") && strings.Contains(j, "LSQuarantine"),
					n == "xattr" && strings.Contains(j, "com.apple.quarantine") && s.hasFlag("dcr") && strings.Contains(j, "/Applications"):
					return "Turns off a security control (" + capText(j) + ")", true
				}
				return "", false
			},
		},
		{
			ID: "sys.service", Level: High, Category: CatSystemModification,
			Message: "Starts, stops or changes a system service",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				n := s.Name()
				switch n {
				case "systemctl":
					switch s.sub(0) {
					case "status", "list-units", "list-unit-files", "is-active", "is-enabled", "is-failed", "show", "cat", "list-timers", "list-sockets", "list-dependencies", "list-jobs", "list-paths", "list-automounts", "list-machines", "get-default", "is-system-running", "show-environment", "help", "--version", "":
						return "", false
					}
					return "Runs systemctl " + s.sub(0) + " " + s.sub(1) + ", changing a system service", true
				case "service":
					if s.sub(1) == "status" || s.sub(0) == "--status-all" {
						return "", false
					}
					return "Runs service " + s.sub(0) + " " + s.sub(1), true
				case "launchctl":
					switch s.sub(0) {
					case "list", "print", "print-disabled", "help", "version", "blame":
						return "", false
					}
					return "Runs launchctl " + s.sub(0) + ", changing a launch agent or daemon", true
				case "update-rc.d", "chkconfig", "rc-update", "sv", "initctl":
					return "Changes which services start at boot", true
				}
				return "", false
			},
		},
		{
			ID: "sys.persistence", Level: High, Category: CatPersistence,
			Message: "Schedules commands to run later or at every boot",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, v := range s.Via {
					if strings.HasPrefix(v, "scheduled by ") {
						return "Schedules `" + joinArgs(s.Args) + "` to run later and again (" + v + ")", true
					}
				}
				switch s.Name() {
				case "crontab", "scrontab": // scrontab: Slurm's crontab, run by slurmctld on the cluster (scrontab(1))
					if s.hasFlag("l") && !s.hasFlag("er") {
						return "", false
					}
					if s.hasFlag("r") {
						return "Removes the user's crontab", true
					}
					return "Installs or edits a crontab, scheduling commands to run repeatedly", true
				case "at", "batch":
					if s.hasFlag("lr") {
						return "", false
					}
					return "Schedules a command with " + s.Name(), true
				}
				return "", false
			},
		},
		{
			ID: "sys.power", Level: High, Category: CatSystemModification,
			Message: "Shuts down or reboots the machine",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				switch s.Name() {
				case "reboot", "shutdown", "poweroff", "halt":
					return "Runs " + s.Name() + ", stopping the machine and everything on it", true
				case "init", "telinit":
					return "Changes the run level with " + s.Name(), s.sub(0) == "0" || s.sub(0) == "6"
				case "systemctl":
					return "Runs systemctl " + s.sub(0), s.arg("reboot", "poweroff", "halt", "kexec", "suspend", "hibernate")
				}
				return "", false
			},
		},
		{
			ID: "sys.kill-all", Level: Critical, Category: CatResourceExhaustion,
			Message: "Kills every process or a critical system process",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				switch s.Name() {
				case "kill":
					for _, a := range s.positional(0, "-s", "-n") {
						if a == "1" || a == "-1" || a == "0" {
							return "Sends a kill signal to " + map[string]string{"1": "init (PID 1)", "-1": "every process", "0": "the whole process group"}[a], true
						}
					}
					if s.arg("-1") && len(s.Args) >= 3 {
						return "Sends a kill signal to every process", true
					}
				case "killall", "pkill":
					for _, a := range s.Args[1:] {
						switch strings.ToLower(a) {
						case "sshd", "systemd", "init", "launchd", "kernel_task", "windowserver", "loginwindow", "dockerd", "containerd", "root", "xorg", "gnome-shell":
							return "Kills " + a + " processes, which the system depends on", true
						}
					}
				}
				return "", false
			},
		},
		{
			ID: "sys.kill", Level: Medium, Category: CatNone, Contained: true,
			Message: "Stops a running process",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				switch s.Name() {
				case "kill", "pkill", "killall":
					if s.hasFlag("l", "--list") && s.Name() == "kill" {
						return "", false
					}
					for _, a := range s.positional(0, "-s", "-n") {
						if a == "1" || a == "-1" || a == "0" {
							return "", false // sys.kill-all
						}
					}
					if s.arg("-1") && len(s.Args) >= 3 {
						return "", false
					}
					for _, a := range s.positional(0, "-s", "-n", "-u", "-U", "-g", "-P", "-t") {
						if broadProcessNames.get()[strings.ToLower(a)] {
							return "", false // sys.kill-broad
						}
					}
					return "Stops processes with " + joinArgs(s.Args), true
				}
				return "", false
			},
		},
		{
			ID: "sys.kill-broad", Level: Medium, Category: CatNone,
			Message: "Stops every process of a common program, including ones the agent did not start",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if s.Name() != "pkill" && s.Name() != "killall" {
					return "", false
				}
				for _, a := range s.positional(0, "-s", "-n", "-u", "-U", "-g", "-P", "-t") {
					if broadProcessNames.get()[strings.ToLower(a)] {
						return "Stops every " + a + " process on the machine, including the user's own", true
					}
				}
				return "", false
			},
		},
		{
			ID: "sys.resource-hog", Level: High, Category: CatResourceExhaustion,
			Message: "Fills the disk or memory",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				switch s.Name() {
				case "dd":
					var bs, count string
					for _, a := range s.Args[1:] {
						if strings.HasPrefix(a, "bs=") {
							bs = a[3:]
						}
						if strings.HasPrefix(a, "count=") {
							count = a[6:]
						}
					}
					if size := byteSize(bs) * byteSize(count); size > 20<<30 || count == "" && s.arg("if=/dev/zero", "if=/dev/urandom") && !hasWriteToDevNull(s) && !strings.Contains(strings.Join(s.Args, " "), "of=/dev/") {
						return "Writes an unbounded or very large amount of data with dd", true
					}
				case "fallocate", "truncate":
					if l, ok := optValue(s.Args[1:], "-l", "--length", "-s", "--size"); ok && byteSize(l) > 20<<30 {
						return "Allocates a " + l + " file", true
					}
				case "yes":
					return "Runs yes, which produces output without end", len(s.Redirs) > 0 && s.PipeIn == nil
				case "stress", "stress-ng":
					return "Runs a stress test that loads the whole machine", true
				}
				return "", false
			},
		},
	}
}

// broadProcessNames are programs many unrelated processes run as.
var broadProcessNames = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"node": true, "python": true, "python3": true, "java": true, "ruby": true, "go": true, "bash": true,
		"sh": true, "zsh": true, "chrome": true, "firefox": true, "docker": true, "postgres": true, "mysqld": true, "redis-server": true,
		"nginx": true, "code": true, "electron": true, "ssh": true, "git": true, "npm": true, "php": true, "perl": true}
}}

func hasWriteToDevNull(s *Segment) bool {
	for _, a := range s.Args {
		if a == "of=/dev/null" {
			return true
		}
	}
	return false
}

// byteSize parses dd/fallocate sizes ("1M", "500G", "10k", "1024"); unknown → 1.
func byteSize(v string) int64 {
	if v == "" {
		return 1
	}
	mult := int64(1)
	switch strings.ToUpper(v[len(v)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	case "T":
		mult = 1 << 40
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	var n int64
	for _, ch := range v {
		if ch < '0' || ch > '9' {
			return 1
		}
		n = n*10 + int64(ch-'0')
		if n > 1<<40 {
			return 1 << 50
		}
	}
	return n * mult
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// writesFile reports a segment whose output is redirected into a file (not a device).
func writesFile(s *Segment) bool {
	for _, r := range s.Redirs {
		if r.Writes() && !strings.HasPrefix(r.Target, "/dev/") {
			return true
		}
	}
	return false
}

// minerNames are cryptocurrency miners (their projects' own names).
var minerNames = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"xmrig": true, "xmrig-cuda": true, "cpuminer": true, "cpuminer-multi": true, "minerd": true, "ethminer": true,
		"t-rex": true, "nbminer": true, "lolminer": true, "phoenixminer": true, "xmr-stak": true, "xmr-stak-rx": true, "cgminer": true,
		"bfgminer": true, "gminer": true, "teamredminer": true, "nanominer": true, "srbminer-multi": true}
}}

// miningPools are the domains of public cryptocurrency mining pools (xmrig's and the pools'
// own setup pages, miningpoolstats.stream): a program pointed at one mines, whatever it is
// called.
var miningPools = table[map[string]bool]{build: func() map[string]bool {
	return buildWordSet("minexmr.com supportxmr.com nanopool.org moneroocean.stream hashvault.pro c3pool.com c3pool.org " +
		"2miners.com f2pool.com ethermine.org nicehash.com unmineable.com herominers.com xmrpool.eu dwarfpool.com " +
		"viabtc.com antpool.com slushpool.com braiins.com poolin.com flypool.org miningpoolhub.com kryptex.network " +
		"woolypooly.com zpool.ca prohashing.com minergate.com p2pool.io xmrfast.com monerohash.com herominers.net")
}}

// miningPoolHost returns the host of a word naming a mining pool (pool.supportxmr.com:443,
// stratum+ssl://xmr.2miners.com:12222, -o=gulf.moneroocean.stream:10128), or "".
func miningPoolHost(a string) string {
	if strings.IndexByte(a, '.') < 0 {
		return "" // most words: no host in them
	}
	if i := strings.IndexByte(a, '='); i >= 0 && strings.HasPrefix(a, "-") {
		a = a[i+1:]
	}
	if i := strings.Index(a, "://"); i >= 0 {
		if sch := strings.ToLower(a[:i]); sch == "http" || sch == "https" {
			return "" // a pool's web page or API (stats, payouts) is read, not mined
		}
		a = a[i+3:]
	}
	if i := strings.LastIndexByte(a, '@'); i >= 0 {
		a = a[i+1:]
	}
	if i := strings.IndexAny(a, ":/?"); i >= 0 {
		a = a[:i]
	}
	h := strings.ToLower(a)
	d := h // the last two labels: every pool above is registered at that depth
	if i := strings.LastIndexByte(h, '.'); i > 0 {
		if j := strings.LastIndexByte(h[:i], '.'); j >= 0 {
			d = h[j+1:]
		}
	}
	if miningPools.get()[d] {
		return h
	}
	return ""
}

// windowsAbuse are LOLBAS uses of Windows tools (https://lolbas-project.github.io): the tool,
// the words its arguments must all contain (lower case), and what that does. "*" matches
// PowerShell and cmd command lines.
var windowsAbuse = []struct {
	tool  string
	needs []string
	why   string
}{
	{"reg", []string{"save", `hklm\sam`}, "Dumps the SAM password hashes"},
	{"reg", []string{"save", `hklm\security`}, "Dumps the LSA secrets"},
	{"reg", []string{"save", `hklm\system`}, "Dumps the SYSTEM hive with the boot key"},
	{"reg", []string{"add", `currentversion\run`}, "Adds a program to run at every logon"},
	{"reg", []string{"add", "winlogon"}, "Changes what runs at logon"},
	{"reg", []string{"add", "image file execution options"}, "Hijacks a program's start (IFEO debugger)"},
	{"rundll32", []string{"comsvcs", "minidump"}, "Dumps a process's memory (LSASS credentials)"},
	{"procdump", []string{"lsass"}, "Dumps LSASS memory with its credentials"},
	{"schtasks", []string{"/create"}, "Creates a scheduled task"},
	{"vssadmin", []string{"delete", "shadows"}, "Deletes the volume shadow copies (backups)"},
	{"wmic", []string{"shadowcopy", "delete"}, "Deletes the volume shadow copies (backups)"},
	{"wbadmin", []string{"delete"}, "Deletes Windows backups"},
	{"bcdedit", []string{"recoveryenabled", "no"}, "Turns off Windows recovery"},
	{"wevtutil", []string{"cl"}, "Clears a Windows event log"},
	{"netsh", []string{"firewall", "off"}, "Turns off the Windows firewall"},
	{"netsh", []string{"advfirewall", "state off"}, "Turns off the Windows firewall"},
	{"regsvr32", []string{"/i:http"}, "Runs a scriptlet downloaded from the network (Squiblydoo)"},
	{"mshta", []string{"http"}, "Runs an HTML application downloaded from the network"},
	{"certutil", []string{"-urlcache"}, "Downloads a file with certutil"},
	{"certutil", []string{"-decode"}, "Decodes a hidden payload with certutil"},
	{"bitsadmin", []string{"/transfer"}, "Downloads a file with bitsadmin"},
	{"*", []string{"set-mppreference", "-disable"}, "Turns off Windows Defender protection"},
	{"*", []string{"add-mppreference", "-exclusion"}, "Excludes paths from Windows Defender"},
	{"*", []string{"set-netfirewallprofile", "false"}, "Turns off the Windows firewall"},
	{"*", []string{"set-executionpolicy", "unrestricted"}, "Allows any PowerShell script to run"},
	{"*", []string{"register-scheduledtask"}, "Creates a scheduled task"},
	{"*", []string{"new-itemproperty", `currentversion\run`}, "Adds a program to run at every logon"},
	{"*", []string{"set-itemproperty", `currentversion\run`}, "Adds a program to run at every logon"},
	{"*", []string{"lsass"}, "Touches LSASS, the process that holds credentials"},
	{"*", []string{"vssadmin", "delete", "shadows"}, "Deletes the volume shadow copies (backups)"},
}

// windowsTools are the names windowsAbuse applies to.
var windowsTools = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{"powershell": true, "pwsh": true, "cmd": true}
	for _, w := range windowsAbuse {
		m[w.tool] = true
	}
	return m
}}

func allIn(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, strings.ReplaceAll(x, `\`, "")) {
			return false
		}
	}
	return true
}
