package riskmodel

import "strings"

// A cloud CLI's own flag that switches a control off, whatever the command: the CLIs spell
// the off switch the same way across hundreds of commands (gcloud's --no-enable-logging,
// --no-shielded-secure-boot, az's --https-only false, --enable-purge-protection false,
// doctl's and oci's --x=false), so one table of the controls' words reads them all where the
// command tables (r16sec_cloud.go) have no row. The flag's words must name a control;
// negations of an allow ("--no-allow-unauthenticated", "--no-public-ip") tighten and are
// left alone, and TLS verification of the CLI's own call (--no-verify-ssl) is the one-off
// bypass other rules judge.

// r16FlagSureWords name a control in a flag; off, it is on the deny list.
var r16FlagSureWords = wordSet{words: `audit auditing encryption encrypted mfa ssl tls https firewall waf backup backups protection
	versioning retention shielded secure integrity vulnerability scanning binauthz defender threat detection pitr cmek
	kms rotation immutability lock`}

// r16FlagUnsureWords name a control whose off switch may be routine.
var r16FlagUnsureWords = wordSet{words: `logging logs monitoring alerting`}

// r16FlagSkipWords make a flag something else: the CLI's own call, or a negated allowance.
var r16FlagSkipWords = wordSet{words: `verify allow public unauthenticated insecure paginate cli color prompt wait dry run output`}

// r16FlagCLIs are the cloud CLIs whose flags are read.
var r16FlagCLIs = wordSet{words: `aws gcloud az doctl oci ibmcloud hcloud linode-cli flyctl fly scw exo vultr-cli upcloud civo`}

// cliFlagOff returns a flag of a cloud CLI call that switches a control off, and whether that
// is certain; "" when none does.
func cliFlagOff(s *Segment) (string, bool) {
	if !r16FlagCLIs.has(s.Name()) {
		return "", false
	}
	args := s.Args[1:]
	for i, a := range args {
		if !strings.HasPrefix(a, "--") || len(a) < 5 {
			continue
		}
		flag, val, hasVal := strings.Cut(a[2:], "=")
		flag = strings.ToLower(flag)
		words := strings.Split(flag, "-")
		neg := false
		switch {
		case strings.HasPrefix(flag, "no-"):
			neg, words = true, words[1:]
		case strings.HasPrefix(flag, "disable-"):
			neg, words = true, words[1:]
		}
		if mcpAnyWord(words, r16FlagSkipWords.get()) || mcpAnyWord(words, mcpWordSet("no disable disabled skip")) {
			continue
		}
		sure := mcpAnyWord(words, r16FlagSureWords.get())
		if !sure && !mcpAnyWord(words, r16FlagUnsureWords.get()) {
			continue
		}
		if neg {
			if hasVal {
				continue
			}
			return a, sure
		}
		if !hasVal && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			val = args[i+1]
		}
		switch strings.ToLower(strings.Trim(val, `"'`)) {
		case "false", "off", "disabled", "disable", "none", "0":
			return strings.TrimSpace(a + " " + orStrIf(!hasVal, val)), sure
		}
	}
	return "", false
}
