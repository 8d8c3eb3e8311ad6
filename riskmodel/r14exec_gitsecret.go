package riskmodel

import "strings"

// Credential files committed and pushed. `git add -f .env` forces an ignored file into the
// index: the .gitignore entry was the project saying the file must not leave the machine. A
// commit then a push in the same request sends the secret to the remote, where every clone
// and fork keeps it: docs/policy.md "sending secrets, credentials … to any host" (GitHub
// docs "Removing sensitive data from a repository"; MITRE ATT&CK T1552.001). Committed but
// not pushed, the secret is still on this machine: high, asked (history rewriting can undo
// it). What counts as a credential file is the path catalogue's credential classes.

// stagedSecret returns the first credential file a git add before upto stages.
func stagedSecret(c *execCtx, upto *Segment) string {
	for _, o := range c.segs {
		if o == upto {
			break
		}
		sub, rest := gitSub(o)
		if sub != "add" && sub != "stage" {
			continue
		}
		for _, a := range rest {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if p := c.rawPath(a); p != "" && isCredentialPath(c, p) {
				return a
			}
		}
	}
	return ""
}

// gitSubBefore reports a segment of the request before upto that git runs as sub.
func gitSubBefore(c *execCtx, upto *Segment, sub string) bool {
	for _, o := range c.segs {
		if o == upto {
			return false
		}
		if s, _ := gitSub(o); s == sub {
			return true
		}
	}
	return false
}

func r14GitSecretRules() []*Rule {
	return []*Rule{
		{
			ID: "vcs.push-secret", Level: High, Category: CatDataExfiltration, Certain: true,
			Message: "Commits a credential file and pushes it to the remote",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if sub, _ := gitSub(s); sub != "push" || !gitSubBefore(c, s, "commit") {
					return "", false
				}
				if f := stagedSecret(c, s); f != "" {
					return "Stages " + f + ", a credential file, commits it and pushes it: the secret reaches the remote and every clone of it", true
				}
				return "", false
			},
		},
		{
			ID: "vcs.commit-secret", Level: High, Category: CatDataExfiltration,
			Message: "Commits a credential file to the repository's history",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if sub, _ := gitSub(s); sub != "commit" {
					return "", false
				}
				for _, o := range c.segs {
					if sub, _ := gitSub(o); sub == "push" {
						return "", false // vcs.push-secret's
					}
				}
				if f := stagedSecret(c, s); f != "" {
					return "Stages " + f + ", a credential file, and commits it: the secret is in the history, one push from the remote", true
				}
				return "", false
			},
		},
	}
}
