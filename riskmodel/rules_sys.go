package riskmodel

import (
	"strings"
)

func sysRules() []*Rule {
	return []*Rule{
		{
			ID: "sys.disk", Level: Critical, Category: CatDataDeletion,
			Message: "Formats or repartitions a disk",
			Match:   []string{"mkfs.ext4 /dev/sdb1", "sudo fdisk /dev/sda", "wipefs -a /dev/nvme0n1", "diskutil eraseDisk APFS X disk2", "parted /dev/sda rm 1"},
			NoMatch: []string{"df -h", "lsblk"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				n := s.Name()
				onFiles := len(s.positional(0)) > 0
				for _, t := range c.targets(s.positional(0, "-t", "-L", "-b", "-n", "-O")) {
					if t.zone != ZoneWorkspace && t.zone != ZoneTemp {
						onFiles = false
					}
				}
				if onFiles && (strings.HasPrefix(n, "mkfs") || n == "mkswap" || n == "parted" || n == "sfdisk" || n == "fdisk") {
					return "", false // an image file in the workspace, not a disk
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
			Match:   []string{":(){ :|:& };:", "bomb(){ bomb | bomb & }; bomb"},
			NoMatch: []string{"f(){ echo hi; }; f"},
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
			ID: "sys.security-off", Level: Critical, Category: CatSecurityWeakening,
			Message: "Turns off a system security control",
			Match:   []string{"sudo setenforce 0", "ufw disable", "iptables -F", "spctl --master-disable", "csrutil disable", "systemctl stop firewalld", "sysctl -w kernel.randomize_va_space=0", "sudo systemctl disable apparmor"},
			NoMatch: []string{"ufw status", "iptables -L", "getenforce"},
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
			Match:   []string{"sudo systemctl restart nginx", "systemctl enable --now myapp", "service postgresql stop", "launchctl load ~/Library/LaunchAgents/x.plist", "systemctl --user enable agent.service"},
			NoMatch: []string{"systemctl status nginx", "systemctl list-units", "launchctl list"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				n := s.Name()
				switch n {
				case "systemctl":
					switch s.sub(0) {
					case "status", "list-units", "list-unit-files", "is-active", "is-enabled", "is-failed", "show", "cat", "list-timers", "list-sockets", "help", "--version", "":
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
			Match:   []string{"crontab -e", "crontab mycron", "echo '* * * * * /tmp/x' | crontab -", "at now + 1 hour -f job.sh", "crontab -r", "systemd-run --user --on-calendar=hourly ./sync.sh"},
			NoMatch: []string{"crontab -l"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, v := range s.Via {
					if strings.HasPrefix(v, "scheduled by ") {
						return "Schedules `" + joinArgs(s.Args) + "` to run later and again (" + v + ")", true
					}
				}
				switch s.Name() {
				case "crontab":
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
			Match:   []string{"sudo reboot", "shutdown -h now", "poweroff", "init 0", "systemctl reboot"},
			NoMatch: []string{"uptime"},
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
			Match:   []string{"kill -9 -1", "kill -9 1", "pkill -9 -u root", "killall -9 sshd", "sudo killall systemd"},
			NoMatch: []string{"kill 12345", "pkill -f vite"},
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
			Match:   []string{"kill 12345", "pkill -f vite", "kill %1", "killall vite"},
			NoMatch: []string{"kill -9 -1", "kill -l"},
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
						if broadProcessNames[strings.ToLower(a)] {
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
			Match:   []string{"pkill -f node", "killall python3", "pkill java"},
			NoMatch: []string{"pkill -f vite", "kill 1234"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if s.Name() != "pkill" && s.Name() != "killall" {
					return "", false
				}
				for _, a := range s.positional(0, "-s", "-n", "-u", "-U", "-g", "-P", "-t") {
					if broadProcessNames[strings.ToLower(a)] {
						return "Stops every " + a + " process on the machine, including the user's own", true
					}
				}
				return "", false
			},
		},
		{
			ID: "sys.resource-hog", Level: High, Category: CatResourceExhaustion,
			Message: "Fills the disk or memory",
			Match:   []string{"dd if=/dev/zero of=/tmp/big bs=1G count=500", "yes > /dev/null & yes > /dev/null &", "fallocate -l 500G big.img", "stress --vm 64"},
			NoMatch: []string{"dd if=/dev/zero of=./test.img bs=1M count=10"},
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
var broadProcessNames = map[string]bool{"node": true, "python": true, "python3": true, "java": true, "ruby": true, "go": true, "bash": true,
	"sh": true, "zsh": true, "chrome": true, "firefox": true, "docker": true, "postgres": true, "mysqld": true, "redis-server": true,
	"nginx": true, "code": true, "electron": true, "ssh": true, "git": true, "npm": true, "php": true, "perl": true}

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
