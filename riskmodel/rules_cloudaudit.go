package riskmodel

import "strings"

// The audit and detection controls of Google Cloud and Azure, next to AWS's (awsControlOff):
// deleting a log sink or a diagnostic setting stops the audit log from reaching where the
// security team reads it; disabling Security Command Center or Defender stops detection.
// docs/policy.md denies "cloud audit logging" switched off whatever the reason. Sources: the
// gcloud reference (cloud.google.com/sdk/gcloud/reference/logging/sinks/delete, …/logging/
// buckets/delete, …/scc) and the az reference (learn.microsoft.com/cli/azure/monitor/
// diagnostic-settings, …/monitor/log-profiles, …/security/pricing).

// gcloudControlOff are gcloud command paths (the words after gcloud, without a release
// track) that switch off an audit or detection control.
var gcloudControlOff = table[map[string]string]{build: func() map[string]string {
	return map[string]string{
		"logging sinks delete":                     "deletes a log sink, so the audit log stops reaching its destination",
		"logging buckets delete":                   "deletes a log bucket and the audit logs kept in it",
		"logging buckets update":                   "",
		"logging settings update":                  "",
		"logging sinks update":                     "",
		"scc notifications delete":                 "deletes a Security Command Center notification",
		"scc settings services disable":            "disables a Security Command Center detection service",
		"access-context-manager perimeters delete": "deletes a VPC Service Controls perimeter",
	}
}}

// azControlOff are az command paths that switch off an audit or detection control.
var azControlOff = table[map[string]string]{build: func() map[string]string {
	return map[string]string{
		"monitor diagnostic-settings delete":              "deletes a diagnostic setting, so the resource's audit logs stop being collected",
		"monitor log-profiles delete":                     "deletes the subscription's activity log profile",
		"monitor diagnostic-settings subscription delete": "deletes the subscription's activity log export",
		"security auto-provisioning-setting update":       "",
		"sql server audit-policy update":                  "",
		"storage logging off":                             "switches storage analytics logging off",
	}
}}

// gcpAzureCertainHarm says what a gcloud or az segment certainly does that the policy denies
// (an audit or detection control switched off), or "".
func gcpAzureCertainHarm(s *Segment) string {
	var table map[string]string
	var skip map[string]bool
	switch s.Name() {
	case "gcloud":
		table, skip = gcloudControlOff.get(), map[string]bool{"alpha": true, "beta": true}
	case "az":
		table = azControlOff.get()
	default:
		return ""
	}
	var words []string
	for _, a := range s.Args[1:] {
		if strings.HasPrefix(a, "-") {
			break
		}
		if !skip[a] {
			words = append(words, a)
		}
	}
	for n := len(words); n >= 2; n-- {
		key := strings.Join(words[:n], " ")
		why, ok := table[key]
		if !ok {
			continue
		}
		if why == "" {
			why = controlOffByFlags(s, key)
		}
		if why == "" {
			return ""
		}
		return "Runs " + s.Name() + " " + key + ", which " + why
	}
	return ""
}

// controlOffByFlags says what an update command switches off through its flags, "" when it
// switches nothing off.
func controlOffByFlags(s *Segment, key string) string {
	j := strings.ToLower(strings.Join(s.Args, " "))
	switch {
	case strings.HasPrefix(key, "logging sinks update") && strings.Contains(j, "--disabled"):
		return "disables a log sink, so the audit log stops reaching its destination"
	case key == "security auto-provisioning-setting update" && strings.Contains(j, "off"):
		return "switches off Defender's automatic agent provisioning"
	case key == "sql server audit-policy update" && (strings.Contains(j, "--state disabled") || strings.Contains(j, "--state=disabled")):
		return "disables the database server's auditing"
	}
	return ""
}
