package riskmodel

import "strings"

// An unknown program's words can still say that it turns a protection off or powers
// machines down: `amtool silence add alertname=~.+`, `edrctl --disable-sensor`, `ipmitool
// chassis power off`, `racadm serveraction powerdown`. The program cannot be seen doing it, so
// the request is not denied, but it is judged high (ask) rather than medium: a model must not
// be the one to wave through switching off the controls docs/policy.md puts on its deny list,
// or a production machine's power.

// controlNouns name security and monitoring controls (docs/policy.md's deny list: firewall,
// SELinux/AppArmor, auditd, Defender, audit logging) and the agents and alerting that do
// their work.
var controlNouns = table[map[string]bool]{build: func() map[string]bool {
	return buildWordSet("audit auditd auditing firewall firewalld iptables nftables alert alerts alerting alarm alarms " +
		"alertname monitor monitors monitoring edr xdr defender antivirus av selinux apparmor sensor siem waf mfa 2fa " +
		"protection guardduty cloudtrail falco osquery wazuh crowdstrike falcon sentinelone gatekeeper sip " +
		"tamper realtime ids ips snort suricata zeek sentinel")
}}

// controlOffVerbs switch a control off, quieten it or take it away.
var controlOffVerbs = table[map[string]bool]{build: func() map[string]bool {
	return buildWordSet("disable disabled deactivate stop silence silences mute suppress pause bypass off unload " +
		"uninstall remove delete kill unregister deregister expire")
}}

// powerWords power a machine down or cycle it.
var powerWords = table[map[string]bool]{build: func() map[string]bool {
	return buildWordSet("poweroff powerdown powercycle hardreset shutdown halt graceshutdown")
}}

// unknownControlRisk returns why an unknown program's words switch a control off or power a
// machine down, and the category, or "".
func unknownControlRisk(s *Segment) (string, Category) {
	var noun, verb, power string
	prevPower := false
	// The program's own name can name the control (wazuh-control, sentinelctl, falconctl).
	for _, w := range strings.FieldsFunc(strings.ToLower(s.Name()), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		for _, suf := range []string{"ctl", "cli", "adm", "d"} {
			if t := strings.TrimSuffix(w, suf); t != w && controlNouns.get()[t] {
				w = t
				break
			}
		}
		if controlNouns.get()[w] {
			noun = w
		}
	}
	for _, a := range s.Args[1:] {
		for _, w := range strings.FieldsFunc(strings.ToLower(a), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		}) {
			switch {
			case controlNouns.get()[w] && noun == "":
				noun = w
			case controlOffVerbs.get()[w] && verb == "":
				verb = w
			}
			if powerWords.get()[w] || prevPower && (w == "off" || w == "cycle" || w == "reset" || w == "down") {
				power = a
			}
			prevPower = w == "power"
		}
	}
	switch {
	case noun != "" && verb != "":
		return "that reads as switching " + noun + " off (" + verb + ")", CatSecurityWeakening
	case power != "":
		return "that reads as powering a machine down (" + power + ")", CatFinancialOrProduction
	}
	return "", CatNone
}
