package riskmodel

import (
	"path"
	"strings"
)

// Read-only inspection under sudo. docs/policy.md's allow row holds "read-only inspection of
// local … resources that reveals no secret values", and listing the firewall (iptables -L,
// nft list ruleset), the sockets with their owners (ss -tlnp, lsof -i) or a routing daemon's
// table (birdc show route) needs root on most machines. priv.sudo rates every command run as
// root high; sudoReadOnly takes that finding back when the same rules, judging the command
// as if it were not privileged, find it a plain read and nothing else:
//
//   - no other risk rule matched it (a credential read, a write, a network send each keep
//     their own finding, and priv.sudo with it);
//   - the baseline rule that classifies it is a low read (base.read-only, base.cli-read, a
//     read-only catalogue entry);
//   - it is not a program that starts others or takes typed commands (shells, interpreters,
//     editors, pagers and the tools that open one, debuggers, terminal multiplexers), and no
//     option of it carries a command (find -exec, tcpdump -z, tar --to-command: the
//     embedded-command scan) — the GTFOBins escapes priv.sudo exists for;
//   - no option names a program, module, plugin, library or configuration to load
//     (iptables --modprobe=/tmp/x runs /tmp/x as root; sudoRunsOption), whatever tool it is;
//   - every path it names lies where root reads no one's secrets: the workspace, a temporary
//     directory, or the system's logs, programs and kernel views (/var/log, /usr, /proc,
//     /sys, /boot); under /etc, /opt, /srv and /var only commands that list names (ls, stat,
//     du) qualify; a read of /root, another home, /var/lib or a raw device stays a question.
//
// Anything else under sudo is judged as before.

// sudoNeverReadOnly are the programs that are never a plain read when run as root: they
// start other programs, take commands typed at them, or page their output through less
// (whose !cmd runs a shell as root).
var sudoNeverReadOnly = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{
		// pagers, editors and viewers with a shell escape
		"less", "more", "most", "pg", "man", "info", "vi", "vim", "nvim", "view", "vimdiff", "rvim", "ex", "ed",
		"nano", "pico", "emacs", "joe", "mc", "w3m", "lynx", "elinks", "links",
		// tools that page their output (git -p, journalctl, systemctl status) or run commands
		"git", "journalctl", "systemctl", "loginctl", "busctl", "coredumpctl", "hostnamectl", "timedatectl", "networkctl",
		"psql", "mysql", "mariadb", "sqlite3", "top", "htop", "atop", "watch", "script", "screen", "tmux", "expect",
		"gdb", "lldb", "strace", "ltrace", "perf", "bpftrace", "nmap", "tcpdump", "tshark", "dumpcap",
		"find", "xargs", "parallel", "env", "timeout", "nice", "ionice", "stdbuf", "chroot", "nsenter", "unshare", "setpriv",
		"crontab", "at", "docker", "podman", "kubectl", "ssh", "scp", "rsync", "socat", "nc", "ncat", "curl", "wget",
		"dd", "tee", "cp", "mv", "install", "awk", "gawk", "mawk", "sed", "perl", "python", "python3", "ruby", "node", "lua", "php",
	} {
		m[n] = true
	}
	return m
}}

// sudoReadablePrefixes are where a read as root reveals configuration, logs and kernel state
// rather than a person's or a service's data.
var sudoReadablePrefixes = []string{"/var/log", "/proc", "/sys", "/usr", "/boot", "/lib", "/lib64", "/bin", "/sbin", "/run/systemd"}

// sudoListablePrefixes are where a command that only lists names and sizes (sudoListers) may
// look as well: /etc's root-only files are the ones that hold secrets (wireguard keys,
// ipsec.secrets, a mysql maintenance password), so their contents are asked about, their
// names are not.
var sudoListablePrefixes = []string{"/etc", "/opt", "/srv", "/var"}

// sudoListers print names, sizes and attributes, never contents.
var sudoListers = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"ls": true, "stat": true, "du": true, "df": true, "tree": true, "namei": true,
		"getfacl": true, "lsattr": true, "file": true}
}}

// sudoUnreadable are places under those prefixes that hold memory or secrets.
var sudoUnreadable = []string{"/proc/kcore", "/etc/ssl/private", "/etc/shadow", "/etc/gshadow", "/etc/sudoers"}

// sudoReadOnly reports whether s, run as root, is a plain read the rules would allow unprivileged;
// base is the baseline finding that says so.
func (a *Analyzer) sudoReadOnly(c *execCtx, s *Segment, fs []Finding) (Finding, bool) {
	if !s.Privileged || s.Dynamic || s.Code || s.CodeOpaque || len(s.CodeEnv) > 0 || s.RunsWritten != "" {
		return Finding{}, false
	}
	for _, f := range fs {
		if f.RuleID != "priv.sudo" || f.Certain {
			return Finding{}, false
		}
	}
	n := s.Name()
	if n == "" || isShellName(n) || interpreters.get()[n] || privWrappers.get()[n] || sudoNeverReadOnly.get()[n] ||
		n == "sudo" || n == "su" || n == "doas" || n == "sudoedit" {
		return Finding{}, false
	}
	for _, v := range s.Via {
		if w, _, _ := strings.Cut(v, " "); w != "sudo" && w != "doas" && w != "bash" && w != "sh" {
			return Finding{}, false // reached through a wrapper that may change what runs
		}
	}
	if len(embeddedCommands(s)) > 0 || len(subcommandRuns(s)) > 0 || sudoRunsOption(s) {
		return Finding{}, false
	}
	for _, r := range s.Redirs {
		if r.Writes() {
			if t := c.target(r.Target); t.zone != ZoneWorkspace && t.zone != ZoneTemp && t.zone != ZoneDevNull {
				return Finding{}, false
			}
		}
	}
	if !sudoPathsReadable(c, s) {
		return Finding{}, false
	}
	if n == "dmesg" && s.hasFlag("H", "--human") {
		return Finding{}, false // dmesg -H pages through less
	}
	// The baseline rules judge the command as if it were not run as root (base.catalog
	// leaves privileged uses alone, which is what priv.sudo was for).
	plain := *s
	plain.Privileged = false
	base, matched := runRules(a.baseRules, c, &plain, true, nil)
	if !matched || len(base) != 1 || base[0].Level != Low || base[0].Category != CatReadOnly {
		return Finding{}, false
	}
	return base[0], true
}

// sudoPathsReadable reports whether every word of s that could name a file (its operands and
// the values of its options) lies in the workspace, a temporary directory or a system
// location root reads without touching anyone's data.
func sudoPathsReadable(c *execCtx, s *Segment) bool {
	for _, a := range s.Args[1:] {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
			a = v
		} else if strings.HasPrefix(a, "-") {
			continue
		}
		if a == "" {
			continue
		}
		t := c.target(a)
		switch {
		case t.zone == ZoneWorkspace || t.zone == ZoneTemp || t.zone == ZoneDevNull:
			continue
		case t.abs == "":
			return false
		}
		if !sudoReadablePath(t.abs, sudoListers.get()[s.Name()]) {
			return false
		}
	}
	return true
}

// sudoReadablePath reports whether root reading abs, which lies outside the workspace,
// shows configuration, logs or kernel state rather than secrets; lister says the command only
// lists names (sudoListers).
func sudoReadablePath(abs string, lister bool) bool {
	abs = path.Clean(abs)
	for _, p := range sudoUnreadable {
		if abs == p || strings.HasPrefix(abs, p+"/") || strings.HasPrefix(abs, p+".") {
			return false
		}
	}
	if strings.HasPrefix(abs, "/proc/") {
		// /proc/PID/{mem,environ,maps,…} belong to a process; /proc/net, /proc/meminfo do not.
		first, _, _ := strings.Cut(strings.TrimPrefix(abs, "/proc/"), "/")
		if first == "self" || first == "thread-self" || first != "" && strings.Trim(first, "0123456789") == "" {
			return false
		}
	}
	return underAny(abs, sudoReadablePrefixes) || lister && underAny(abs, sudoListablePrefixes)
}

// underAny reports whether abs is one of dirs or lies below one.
func underAny(abs string, dirs []string) bool {
	for _, p := range dirs {
		if abs == p || strings.HasPrefix(abs, p+"/") {
			return true
		}
	}
	return false
}

// sudoRunWords are the words of option names that hand a program something to run or load.
var sudoRunWords = []string{"exec", "command", "cmd", "program", "prog", "modprobe", "module", "pager", "editor",
	"shell", "script", "plugin", "helper", "hook", "load", "lib", "preload", "config", "conf", "rcfile", "init",
	"wrapper", "filter", "handler", "compress", "decompress"}

// sudoRunsOption reports an option of s whose name says it runs or loads something: the
// embedded-command scan knows the famous ones (tar --to-command, tcpdump -z); any tool's
// --modprobe=, --pager=, --config= or --plugin= may do the same as root, and a read needs none.
func sudoRunsOption(s *Segment) bool {
	switch s.Name() {
	case "iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy", "iptables-nft", "ip6tables-nft", "arptables", "ebtables":
		for _, a := range s.Args[1:] {
			if a == "-M" || strings.HasPrefix(a, "-M") && !strings.HasPrefix(a, "--") {
				return true // -M is --modprobe's short form (iptables(8))
			}
		}
	}
	for _, a := range s.Args[1:] {
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, _, _ := strings.Cut(strings.ToLower(strings.TrimLeft(a, "-")), "=")
		for _, w := range sudoRunWords {
			if strings.Contains(name, w) {
				return true
			}
		}
	}
	return false
}
