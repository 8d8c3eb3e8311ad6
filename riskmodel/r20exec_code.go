package riskmodel

import (
	"net"
	"path"
	"regexp"
	"strings"
)

// Code that acts on other machines or is itself the threat:
//
//   - Python that drives network devices through an automation library (netmiko, NAPALM,
//     Nornir, Scrapli, ncclient, PyEZ, pyeapi) and pushes configuration or device commands
//     to them is a production change on every device it loops over, asked about at high; a
//     wipe or reload of the devices (write erase, erase startup-config, reload, request system
//     zeroize, format flash) is destruction outside the workspace, denied. Read-only getters
//     (get_facts, show commands) are not matched.
//   - A program run from the place a malware case keeps its specimens (malware/, quarantine/,
//     specimens/, or samples/ inside a workspace whose path names malware or forensics work)
//     is untrusted code run on the analyst's host: docs/policy.md's "running code … without
//     review", denied. Static tools reading the same files are not matched.
//   - An exploit script (under exploits/ or poc/, or named for a CVE) pointed at a host that
//     is not this machine or a private address is an attack on a system the analysis cannot
//     show is the team's: asked about at high.
//
// Sources: netmiko's ConnectHandler API (send_config_set, send_config_from_file, save_config),
// NAPALM's load_merge_candidate/load_replace_candidate/commit_config, ncclient edit_config,
// Scrapli send_configs, Junos PyEZ Config.load/commit; Cisco IOS "write erase" and "reload".

// deviceLibs are the Python network-automation libraries, as imported.
var deviceLibs = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(?:from|import)\s+(?:netmiko|napalm|nornir|scrapli|ncclient|jnpr\.junos|pyeapi)\b`)
}}

// deviceChangeCalls are their calls that change a device's configuration.
var deviceChangeCalls = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:send_config_set|send_config_from_file|save_config|commit_config|load_merge_candidate|load_replace_candidate|edit_config|send_configs?|config_mode|commit|rollback)\s*\(`)
}}

// deviceDestroyWords are device commands that wipe or restart the device.
var deviceDestroyWords = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:write\s+erase|erase\s+(?:startup-config|nvram|/all)|reload\b|request\s+system\s+(?:zeroize|reboot|halt)|format\s+(?:flash|bootflash|disk)|delete\s+/force|factory-reset)`)
}}

// deviceSendCalls run a command string on a device; with a destroy word in it they wipe it.
var deviceSendCalls = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\bsend_command(?:_timing|_expect)?\s*\(|\bcli\s*\(|\brun_commands?\s*\(`)
}}

// malwareDirs are directory names that hold specimens wherever they are.
var malwareDirs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"malware": true, "malware-samples": true, "malware_samples": true, "quarantine": true, "quarantined": true,
		"specimens": true, "infected": true, "viruses": true, "droppers": true, "implants": true}
}}

// malwareWorkspaceWords in the workspace's path make its samples/ directory a specimen store.
var malwareWorkspaceWords = []string{"malware", "dfir", "forensic", "incident", "ransom", "threat-intel", "triage"}

// exploitScript matches a script path that is an exploit.
var exploitScript = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|/)(?:exploits?|pocs?|payloads)/|(?:^|/)(?:cve-\d{4}-\d{3,}|exploit)[^/]*$`)
}}

func r20CodeRules() []*Rule {
	return []*Rule{
		{
			ID: "net.device-config-push", Level: High, Category: CatFinancialOrProduction,
			CertainWhen: "the commands wipe or reload the devices (write erase, reload, zeroize, format flash)",
			Message:     "Runs code that pushes configuration or commands to network devices",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				code := segmentPython(s)
				if code == "" || !deviceLibs.get().MatchString(code) {
					return "", false
				}
				if deviceSendCalls.get().MatchString(code) || deviceChangeCalls.get().MatchString(code) {
					if m := deviceDestroyWords.get().FindString(code); m != "" {
						c.certainty = certaintySure // docs/policy.md: destruction outside the workspace
						return "Runs Python that sends `" + m + "` to network devices, which wipes or restarts them", true
					}
				}
				if m := deviceChangeCalls.get().FindString(code); m != "" {
					return "Runs Python that changes network devices' configuration (" + strings.TrimRight(m, "( ") + ")", true
				}
				return "", false
			},
		},
		{
			ID: "exec.malware-sample", Level: High, Category: CatRemoteCodeExecution, Certain: true,
			Message: "Runs a malware specimen on this machine",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				f := executedFile(s)
				if f == "" || s.Code {
					return "", false
				}
				t := c.target(f)
				if t.zone != ZoneWorkspace || t.abs == "" {
					return "", false
				}
				root := ""
				for _, w := range c.scope.Workspaces {
					if strings.HasPrefix(t.abs, w+"/") && len(w) > len(root) {
						root = w
					}
				}
				if root == "" {
					return "", false
				}
				rel := strings.TrimPrefix(t.abs, root+"/")
				dirs := strings.Split(path.Dir(rel), "/")
				for _, d := range dirs {
					l := strings.ToLower(d)
					if malwareDirs.get()[l] {
						return "Runs " + f + " from " + d + "/, where specimens are kept, on this machine rather than in a sandbox", true
					}
					if (l == "samples" || l == "sample") && malwareWorkspace(root) {
						return "Runs " + f + ", a sample of a malware case (" + root + "), on this machine rather than in a sandbox", true
					}
				}
				return "", false
			},
		},
		{
			ID: "exec.exploit-remote", Level: High, Category: CatRemoteCodeExecution,
			Message: "Runs an exploit script against another machine",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				f := executedFile(s)
				if f == "" || !exploitScript.get().MatchString(f) {
					return "", false
				}
				for _, a := range s.Args[1:] {
					h := exploitTargetHost(a)
					if h == "" || isLocalHost(h) || privateAddr(h) {
						continue
					}
					return "Runs the exploit " + f + " against " + h + ", which the analysis cannot show is the team's", true
				}
				return "", false
			},
		},
	}
}

// segmentPython returns the Python a segment runs inline (python3 -c, a heredoc to python3 -).
func segmentPython(s *Segment) string {
	if langOf(s.Name()) != "python" {
		return ""
	}
	if code, ok := inlineCode(s); ok {
		return code
	}
	if s.Stdin != "" && (len(s.Args) == 1 || len(s.Args) == 2 && s.Args[1] == "-") {
		return s.Stdin
	}
	return ""
}

// malwareWorkspace reports a workspace whose path names malware or forensics work.
func malwareWorkspace(root string) bool {
	l := strings.ToLower(root)
	for _, w := range malwareWorkspaceWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// exploitTargetHost returns the host an exploit argument names: a URL's host, a host:port,
// or a dotted name or address given as an option value; "" for anything else.
func exploitTargetHost(a string) string {
	if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
		a = v
	} else if strings.HasPrefix(a, "-") {
		return ""
	}
	if i := strings.Index(a, "://"); i >= 0 {
		a = a[i+3:]
	}
	a, _, _ = strings.Cut(a, "/")
	if h, _, err := net.SplitHostPort(a); err == nil {
		a = h
	}
	if net.ParseIP(a) != nil {
		return a
	}
	if strings.Count(a, ".") >= 1 && looksLikeHost(a) && !strings.ContainsAny(a, "*?$") {
		switch strings.ToLower(path.Ext(a)) {
		case ".py", ".txt", ".json", ".yaml", ".yml", ".sh", ".rb", ".go", ".c", ".bin", ".elf", ".exe", ".xml", ".html", ".log", ".pcap", ".csv":
			return ""
		}
		return a
	}
	return ""
}

// privateAddr reports an RFC 1918, link-local or unique-local address.
func privateAddr(h string) bool {
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLoopback())
}
