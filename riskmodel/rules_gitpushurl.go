package riskmodel

import "strings"

// A remote's push URL (git-remote(1) set-url --push, git-config(1) remote.<name>.pushurl) is
// where every later `git push` of that remote sends the repository's source, while fetches
// still come from the original URL, so nothing looks different until the code is elsewhere.
// Pointing it at another host is redirecting source code, which docs/policy.md denies when
// the destination is not the project's own. The request does not say what the remote was, so
// a host the analysis cannot place is asked at high (no model's allow stands); a raw public
// IP, a paste or request-bin service or a look-alike host is not the project's for certain.
// A local path or this machine, and the `no_push` idiom that disables pushing, are routine.

// gitPushURLSet returns the push URL a git command sets for a remote, "" when none.
func gitPushURLSet(s *Segment) string {
	if s.Name() != "git" {
		return ""
	}
	sub, rest := gitSub(s)
	var pos []string
	push := false
	for _, a := range rest {
		switch {
		case a == "--push":
			push = true
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	switch sub {
	case "remote":
		// git remote set-url --push NAME NEWURL [OLDURL]
		if len(pos) >= 3 && pos[0] == "set-url" && push {
			return pos[2]
		}
	case "config":
		if len(pos) >= 2 {
			k := strings.ToLower(pos[0])
			if strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".pushurl") {
				return pos[1]
			}
		}
	}
	return ""
}

func gitPushURLRules() []*Rule {
	return []*Rule{
		{
			ID: "vcs.push-reroute", Level: High, Category: CatDataExfiltration,
			CertainWhen: "the new host is a raw public IP address, an anonymous paste or request-bin service, or a look-alike host",
			Message:     "Points a remote's push URL at another host, so later pushes send the source there",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				u := gitPushURLSet(s)
				host, _ := gitRemoteParts(u)
				if u == "" || host == "" || !strings.ContainsAny(u, "/:") || isLocalHost(host) {
					return "", false
				}
				if where := uncontrolledDest(&Segment{Args: []string{"git"}}, host); where != "" || len(segmentIntlHosts(&Segment{Args: []string{"git", host}})) > 0 {
					c.certainty = certaintySure
				}
				return "Sets the push URL of a remote to " + capText(u) + ": every later push of it sends the repository's source to " + host + " while fetches look unchanged", true
			},
		},
	}
}
