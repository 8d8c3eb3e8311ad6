package riskmodel

import (
	"net"
	"path"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// The conditions under which a write, deletion or permission change outside the workspace is
// certainly on docs/policy.md's deny list, named per rule in the certainty table
// (certainty.go): a system program or library replaced (breaking the OS, or a trojan in
// place of it); a package registry's or vendor's domain pointed at another address in
// /etc/hosts (the next install or API call goes to whoever holds that address); the system's
// logs or the shell's history erased (the audit trail, ATT&CK T1070.002/T1070.003);
// system files made writable by every user (any local user can then change what root runs).
// Caches, temp dirs, a new tool in /usr/local/bin, a local name in /etc/hosts and a config
// file in /etc stay asked (docs/policy.md: system-level installs, caches outside the
// workspace).

// systemCodeDirs hold the programs and libraries the OS runs; /usr/local and /opt, where users
// install their own tools (go.dev/doc/install removes and unpacks /usr/local/go), are not among
// them.
var systemCodeDirs = []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib32",
	"/usr/lib64", "/usr/libexec", "/System/Library", "/usr/libexec"}

// inSystemCode reports a path under one of systemCodeDirs.
func inSystemCode(abs string) bool {
	for _, d := range systemCodeDirs {
		if strings.HasPrefix(abs, d+"/") {
			return true
		}
	}
	return false
}

// systemProgramOverwrite says why a write into the system's program or library directories
// is certain: the file is a shared library (libc, libpam, libssl …), or a program the
// catalogue of commands knows (ls, sshd, sudo, python3): the write replaces what every user
// and root run. A new name there (a tool the user installs) is asked about.
func systemProgramOverwrite(c *execCtx, s *Segment) string {
	for _, t := range writeTargets(c, s) {
		if t.abs == "" || !inSystemCode(t.abs) {
			continue
		}
		base := path.Base(t.abs)
		if strings.Contains(base, ".so") || strings.HasSuffix(base, ".dylib") {
			return "it replaces the system library " + t.abs + ", which every program loading it runs (docs/policy.md: breaking the OS)"
		}
		if _, ok := catalog.DefaultCommands().Lookup(base, nil); ok || readOnly.get()[base] || coreSystemPrograms.has(base) {
			return "it replaces the system program " + t.abs + " (docs/policy.md: breaking the OS, replacing system programs)"
		}
	}
	return ""
}

// coreSystemPrograms are the programs a trojan replaces (ATT&CK T1554, rootkits' ls, ps,
// netstat, sshd, login) and those every script runs; with the read-only commands guardian
// knows, a write over one of them in a system directory replaces it.
var coreSystemPrograms = &wordSet{words: "sshd ssh scp sftp sudo su login passwd bash sh dash zsh ksh fish python python3 perl ruby node " +
	"cron crond systemd init systemctl mount umount apt apt-get dpkg yum dnf rpm pip pip3 chmod chown cp mv rm ln tar gzip curl wget git " +
	"env awk sed find kill top netstat ss lsof who w id whoami last ping ps ls cat grep openssl gpg useradd usermod visudo crontab"}

// reHostsLine finds an address followed by names, as /etc/hosts has them.
var reHostsLine = lazyRegexp(`(?i)\b((?:\d{1,3}\.){3}\d{1,3}|[0-9a-f]{0,4}:[0-9a-f:.]+)[ \t]+((?:[a-z0-9-]+\.)+[a-z]{2,})`)

// redirectableDomains are registries, code hosts and vendors' APIs: pointed elsewhere in
// /etc/hosts, packages, code or credentials go to whoever holds the new address. Matched on
// the name and its subdomains.
var redirectableDomains = []string{"npmjs.org", "npmjs.com", "yarnpkg.com", "pypi.org", "pythonhosted.org", "golang.org", "crates.io",
	"rubygems.org", "maven.org", "apache.org", "gradle.org", "nuget.org", "packagist.org", "docker.io", "docker.com", "ghcr.io", "quay.io",
	"github.com", "githubusercontent.com", "gitlab.com", "bitbucket.org", "debian.org", "ubuntu.com", "alpinelinux.org", "fedoraproject.org",
	"brew.sh", "rustup.rs", "rust-lang.org", "nodejs.org", "stripe.com", "paypal.com", "amazonaws.com", "googleapis.com", "google.com",
	"microsoftonline.com", "azure.com", "windows.net", "okta.com", "auth0.com", "openai.com", "anthropic.com", "slack.com", "sentry.io",
	"cloudflare.com", "hashicorp.com", "releases.hashicorp.com", "pkg.go.dev", "anaconda.org", "conda.io", "jsdelivr.net", "unpkg.com"}

func redirectable(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, d := range redirectableDomains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// hostsRedirect says why a write to /etc/hosts is certain: it points a registry's, code
// host's or vendor's domain at an address that is not this machine. A local name
// (api.local.test → 127.0.0.1) is asked about.
func hostsRedirect(c *execCtx, s *Segment) string {
	hosts := false
	for _, t := range writeTargets(c, s) {
		if t.abs == "/etc/hosts" || t.abs == "/private/etc/hosts" {
			hosts = true
		}
	}
	if !hosts {
		return ""
	}
	body := s.Stdin + " " + strings.Join(s.Args, " ")
	for in := s.PipeIn; in != nil; in = in.PipeIn {
		body += " " + in.Stdin + " " + strings.Join(in.Args, " ")
	}
	for _, m := range reHostsLine().FindAllStringSubmatch(strings.ReplaceAll(body, `\t`, " "), -1) {
		ip := net.ParseIP(m[1])
		if ip == nil || ip.IsLoopback() || ip.IsUnspecified() || !redirectable(m[2]) {
			continue
		}
		return "it points " + m[2] + " at " + ip.String() + " in /etc/hosts, so what goes to that domain goes elsewhere (docs/policy.md: look-alike domains, sending to hosts that are not the vendor's)"
	}
	return ""
}

// historyFiles are shells' and tools' command histories.
var historyFiles = &wordSet{words: ".bash_history .zsh_history .sh_history .history .python_history .mysql_history .psql_history .node_repl_history .lesshst"}

// logWipe says why emptying or deleting a file is certain: it is the system's logs (under
// /var/log: auth, wtmp, audit) or a shell's history, the record of what was done.
func logWipe(c *execCtx, targets []string) string {
	for _, t := range c.targets(targets) {
		if t.abs == "" {
			continue
		}
		if strings.HasPrefix(t.abs, "/var/log/") || t.abs == "/var/log" {
			return "it erases " + t.abs + ", the system's logs (docs/policy.md: disabling auditd and audit logging)"
		}
		if historyFiles.has(path.Base(t.abs)) {
			return "it erases " + t.abs + ", the command history (docs/policy.md: disabling audit logging)"
		}
	}
	return ""
}

// certainOutsideDeletionOrLogs is certainOutsideDeletion, and a deletion of the system's
// programs and libraries (/usr/lib/…/libc.so.6, /usr/bin/python3), a service's data under
// /var/lib (postgresql, docker), the system's logs or a shell history (shred -u
// /var/log/wtmp). /usr/local and /opt, where users install their own tools, are not the
// system's (go.dev/doc/install: rm -rf /usr/local/go before unpacking a new Go).
func certainOutsideDeletionOrLogs(c *execCtx, s *Segment) string {
	if why := certainOutsideDeletion(c, s); why != "" {
		return why
	}
	ts, _, ok := deletion(s)
	if !ok {
		return ""
	}
	for _, t := range c.targets(ts) {
		if t.abs == "" || isRegenerable(t.abs) {
			continue
		}
		if inSystemCode(t.abs) {
			return "it deletes " + t.abs + ", part of the system's programs and libraries (docs/policy.md: breaking the OS, system dirs)"
		}
		if svc := serviceDataDir(t.abs); svc != "" {
			return "it deletes " + t.abs + ", the data of " + svc + " (docs/policy.md: destruction outside the workspace, system dirs)"
		}
	}
	return logWipe(c, ts)
}

// serviceDataDirs are the directories under /var/lib where services keep their data:
// databases, container engines, the package manager's own record. /var/lib/apt/lists, which
// images clean after an install, is a cache and not among them.
var serviceDataDirs = &wordSet{words: "postgresql pgsql mysql mariadb mongodb redis docker containerd elasticsearch opensearch cassandra " +
	"influxdb etcd rabbitmq kafka zookeeper grafana prometheus jenkins gitlab clickhouse neo4j couchdb minio kubelet dpkg rpm libvirt"}

// serviceDataDir names the service whose data dir abs is in, "" when none.
func serviceDataDir(abs string) string {
	rest, ok := strings.CutPrefix(abs, "/var/lib/")
	if !ok {
		return ""
	}
	svc, _, _ := strings.Cut(rest, "/")
	if serviceDataDirs.has(svc) {
		return svc
	}
	return ""
}

// truncatedLogs is logWipe for a file emptied in place (truncate -s 0, : >, cat /dev/null >).
func truncatedLogs(c *execCtx, s *Segment) string {
	var ts []string
	for _, t := range writeTargets(c, s) {
		ts = append(ts, t.arg)
	}
	if s.Name() == "truncate" || s.Name() == "shred" {
		ts = append(ts, s.positional(0, "-s", "--size", "-r", "--reference", "-n", "--iterations")...)
	}
	if why := containerLogsTruncated(c, s); why != "" {
		return why
	}
	return logWipe(c, ts)
}

// worldWritableSystem says why a permission change is certain: it makes a system location
// (outside home, the workspace and temp dirs) writable by every user, so any local account
// can change what root and the services run. The home directory (chmod -R 777 ~) is the
// user's own and is asked about.
func worldWritableSystem(c *execCtx, s *Segment) string {
	if s.Name() != "chmod" {
		return ""
	}
	p := s.positional(0, "--reference")
	if len(p) < 2 || !worldWritable(p[0]) {
		return ""
	}
	for _, t := range c.targets(p[1:]) {
		if t.abs != "" && systemControlled(t.abs) {
			return "it makes " + t.abs + ", a system location, writable by every user (docs/policy.md: privilege escalation, breaking the OS)"
		}
	}
	return ""
}

// systemControlDirs hold what root and the services read and run: configuration, programs,
// libraries, boot files, service state. /srv, /opt and /tmp hold data and the user's own
// installs; home is the user's own.
var systemControlDirs = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/var", "/System", "/Library", "/private/etc"}

func systemControlled(abs string) bool {
	if strings.HasPrefix(abs, "/var/tmp") {
		return false
	}
	for _, d := range systemControlDirs {
		if abs == d || strings.HasPrefix(abs, d+"/") {
			return true
		}
	}
	return false
}

// systemWriteCertain joins fs.write.system's conditions.
func systemWriteCertain(c *execCtx, s *Segment) string {
	if why := hostsRedirect(c, s); why != "" {
		return why
	}
	if why := logClobber(c, s); why != "" {
		return why
	}
	return systemProgramOverwrite(c, s)
}
