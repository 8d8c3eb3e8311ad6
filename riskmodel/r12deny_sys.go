package riskmodel

import (
	"slices"
	"strings"
)

// securityModuleSwitch is one way of switching a host's security module, audit trail,
// firewall or malware protection off, as the tool's manual documents it. docs/policy.md
// denies "disabling security controls" outright; sys.security-off holds the first ones
// found, this table the rest, so that adding one is a row, not a case.
type securityModuleSwitch struct {
	tools []string // the program names
	// any: one of these arguments must be present (empty: every use of the tool switches
	// something off); joined: a fragment of the joined arguments, tested case-insensitively.
	any    []string
	joined []string
	why    string
	source string // the manual that documents the switch
}

// securityModuleSwitches are the switches. Sources: the Ubuntu/Debian manual pages of the
// AppArmor utilities, audit and pf; Microsoft's Defender documentation; Apple's.
var securityModuleSwitches = table[[]securityModuleSwitch]{build: func() []securityModuleSwitch {
	return []securityModuleSwitch{
		{tools: []string{"aa-disable"}, why: "disables an AppArmor profile, so the program runs unconfined", source: "aa-disable(8)"},
		{tools: []string{"aa-complain"}, why: "puts an AppArmor profile in complain mode: violations are logged, not blocked", source: "aa-complain(8)"},
		{tools: []string{"apparmor_parser"}, any: []string{"-R", "--remove", "-C", "--complain"}, why: "removes an AppArmor profile from the kernel or loads it in complain mode", source: "apparmor_parser(8)"},
		{tools: []string{"auditctl"}, any: []string{"-D"}, why: "deletes every audit rule, so nothing is recorded", source: "auditctl(8)"},
		{tools: []string{"auditctl"}, joined: []string{"-e 0", "-e0"}, why: "switches the kernel audit system off", source: "auditctl(8)"},
		{tools: []string{"semanage"}, joined: []string{"permissive -a", "permissive --add"}, why: "makes an SELinux domain permissive: its violations are no longer blocked", source: "semanage-permissive(8)"},
		{tools: []string{"pfctl"}, any: []string{"-d"}, why: "disables the pf packet filter", source: "pfctl(8)"},
		{tools: []string{"pfctl"}, joined: []string{"-f all", "-fall", "-f rules"}, why: "flushes the pf firewall rules", source: "pfctl(8)"},
		{tools: []string{"firewall-cmd"}, joined: []string{"--set-default-zone=trusted", "--set-default-zone trusted"}, why: "makes firewalld accept every connection (the trusted zone)", source: "firewall-cmd(1), firewalld.zones(5)"},
		{tools: []string{"netsh"}, joined: []string{"state off"}, why: "switches the Windows firewall off", source: "netsh advfirewall (Microsoft Learn)"},
		{tools: []string{"mdatp"}, joined: []string{"real-time-protection --value disabled", "real_time_protection_enabled false"}, why: "switches Microsoft Defender's real-time protection off", source: "Microsoft Defender for Endpoint on Linux/macOS: mdatp config"},
		{tools: []string{"pwsh", "powershell", "powershell.exe", "pwsh.exe"}, joined: []string{"-disablerealtimemonitoring", "-disablebehaviormonitoring", "-disableioavprotection", "-disablescriptscanning", "-disableintrusionpreventionsystem"}, why: "switches Microsoft Defender's protection off", source: "Set-MpPreference (Microsoft Learn)"},
		{tools: []string{"launchctl"}, joined: []string{"com.apple.xprotect", "com.apple.mrt"}, why: "stops macOS's XProtect malware scanner", source: "launchctl(1); Apple Platform Security: XProtect"},
	}
}}

// securityAgents are services whose stopping removes a host protection: firewalls, audit,
// mandatory access control, endpoint security agents (sys.security-off covers the first few).
var securityAgents = table[[]string]{build: func() []string {
	return []string{"nftables", "netfilter-persistent", "iptables", "ip6tables", "mdatp", "wdavdaemon", "sentinelone",
		"sentinelagent", "falcon-sensor", "wazuh-agent", "elastic-agent", "falco", "tetragon", "aide", "auditd", "apparmor",
		"firewalld", "ufw", "selinux", "osqueryd", "clamav-daemon", "clamav-freshclam", "cylancesvc", "sophos-spl"}
}}

// securityModuleOff returns why a segment switches a security module off, or "".
func securityModuleOff(s *Segment) string {
	if len(s.Args) < 2 {
		return "" // aa-disable alone names no profile and changes nothing
	}
	n := s.Name()
	joined := strings.ToLower(strings.Join(s.Args[1:], " "))
	for _, w := range securityModuleSwitches.get() {
		if !slices.Contains(w.tools, n) {
			continue
		}
		if len(w.any) > 0 && !s.arg(w.any...) {
			continue
		}
		if len(w.joined) > 0 && !containsAny(joined, w.joined...) {
			continue
		}
		return w.why + " (" + w.source + ")"
	}
	if (n == "systemctl" || n == "service") && s.arg("stop", "disable", "mask", "kill") {
		for _, a := range s.Args[1:] {
			unit := strings.TrimSuffix(a, ".service")
			if slices.Contains(securityAgents.get(), unit) {
				return "stops the " + unit + " service, a host protection"
			}
		}
	}
	return ""
}

func r12SysRules() []*Rule {
	return []*Rule{
		{
			ID: "sys.security-module-off", Level: Critical, Category: CatSecurityWeakening,
			Message: "Switches off a security module, the audit trail, a firewall or malware protection",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if why := securityModuleOff(s); why != "" {
					return capText(joinArgs(s.Args)) + " " + why, true
				}
				return "", false
			},
		},
	}
}
