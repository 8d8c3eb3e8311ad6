package riskmodel

import "strings"

// gcloudIAMOutside says why a gcloud add-iam-policy-binding grants to everyone or to a
// person's free mailbox (on any resource: a project, a bucket, an image, a snapshot, a
// secret), "" otherwise.
func gcloudIAMOutside(s *Segment) string {
	if s.Name() != "gcloud" {
		return ""
	}
	words := cloudCommandWords(s)
	if len(words) < 2 || words[len(words)-1] != "add-iam-policy-binding" && (len(words) < 3 || words[len(words)-2] != "add-iam-policy-binding") {
		return ""
	}
	m, _ := optValue(s.Args[1:], "--member")
	lm := strings.ToLower(m)
	switch {
	case lm == "allusers" || lm == "allauthenticatedusers":
		return "Runs gcloud " + strings.Join(words, " ") + ", which grants " + m + " access: anyone on the internet"
	case freeMailMember(lm) != "":
		return "Runs gcloud " + strings.Join(words, " ") + ", which grants " + m + " access: a personal mailbox outside the organisation"
	}
	return ""
}

// ghSecurityEndpoints are GitHub REST endpoints (the path's last words) whose DELETE switches
// a repository's security feature off (docs.github.com/rest/repos/repos: vulnerability
// alerts, automated security fixes, private vulnerability reporting; rest/repos/rules:
// rulesets).
var ghSecurityEndpoints = wordSet{words: `vulnerability-alerts automated-security-fixes private-vulnerability-reporting`}

// ghSecurityOff says why a gh api call switches a repository's security feature off, "".
func ghSecurityOff(s *Segment) string {
	if s.Name() != "gh" || len(s.Args) < 3 || s.Args[1] != "api" {
		return ""
	}
	method, _ := optValue(s.Args[2:], "-X", "--method")
	method = strings.ToUpper(method)
	var path string
	var fields []string
	args := s.Args[2:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || a == "-F" || a == "--field" || a == "--raw-field":
			if i+1 < len(args) {
				fields = append(fields, strings.ToLower(args[i+1]))
				i++
			}
		case strings.HasPrefix(a, "-"):
			if (a == "-X" || a == "--method" || a == "-H" || a == "--header" || a == "--input" || a == "-q" || a == "--jq" || a == "-t" || a == "--template" || a == "--hostname") && i+1 < len(args) {
				i++
			}
		case path == "":
			path = strings.Trim(a, "/")
		}
	}
	last := path[strings.LastIndexByte(path, '/')+1:]
	switch {
	case method == "DELETE" && ghSecurityEndpoints.has(last):
		return "Runs gh api -X DELETE " + path + ", which switches the repository's " + last + " off"
	case method == "DELETE" && strings.Contains(path, "/rulesets/"):
		return "Runs gh api -X DELETE " + path + ", which deletes a ruleset that protects branches"
	}
	for _, f := range fields {
		if strings.Contains(f, "security_and_analysis") && strings.HasSuffix(f, "=disabled") ||
			strings.HasSuffix(path, "code-scanning/default-setup") && f == "state=not-configured" {
			return "Runs gh api " + path + " with " + f + ", which switches a repository security feature off"
		}
	}
	return ""
}

func r16SecRules() []*Rule {
	return []*Rule{
		{
			ID: "cloud.security-off", Level: High, Category: CatSecurityWeakening, Certain: true,
			Message: "Switches a cloud or cluster security control off: encryption, MFA, TLS, a WAF, audit logging, backups, network or admission policy, or a security tool",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(s.Args) < 2 {
					return "", false
				}
				if why := r16RowMatch(r16SecOffRows.get(), s); why != "" {
					return why, true
				}
				if why := ghSecurityOff(s); why != "" {
					return why, true
				}
				if f, sure := cliFlagOff(s); f != "" {
					if !sure {
						c.certainty = certaintyUnsure // a log or a monitor switched off: may be routine
					}
					return "Runs " + s.Name() + " " + strings.Join(cloudCommandWords(s), " ") + " with " + capText(f) + ", which switches a security control off", true
				}
				if f, sure := httpAPISecurityOff(c, s); f != "" {
					if !sure {
						c.certainty = certaintyUnsure
					}
					return f, true
				}
				return kubeSecurityOffRule(c, s)
			},
		},
		{
			ID: "cloud.data-shared-out", Level: High, Category: CatDataExfiltration, Certain: true,
			Message: "Shares stored data outside: a snapshot or image with other accounts, a resource with everyone or a free mailbox, customer data into a bucket for outsiders",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(s.Args) < 2 {
					return "", false
				}
				if why := r16RowMatch(r16ExposeRows.get(), s); why != "" {
					return why, true
				}
				if why := gcloudIAMOutside(s); why != "" {
					return why, true
				}
				if why := signedLinkOut(s); why != "" {
					return why, true
				}
				why := regulatedToOutside(s)
				return why, why != ""
			},
		},
	}
}
