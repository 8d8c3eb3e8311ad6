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
				why := regulatedToOutside(s)
				return why, why != ""
			},
		},
	}
}
