package riskmodel

import "strings"

// A force-push without a refspec pushes the current branch (git-push(1): "When the command
// line does not specify what to push ... the current branch is pushed to the corresponding
// upstream branch", push.default=simple since Git 2.0; HEAD as a refspec is the same). When
// the request itself switched to a shared default branch before it (git checkout main, git
// switch develop, git checkout -B main REV), the push is a force-push of that branch:
// docs/policy.md's deny row "force-pushing ... to a shared default branch", the same effect
// vcs.push.force-protected denies when the branch is spelled out. A branch the analysis cannot
// name (git checkout -, a detached HEAD, another directory) leaves the push to vcs.push.force.

// checkedOutBranch returns the branch the request's own commands leave checked out before
// upto, and whether they name one: the last git checkout/switch (or git branch -m) that moves
// HEAD decides; one that moves it somewhere unnamed, or a cd to another directory, makes it
// unknown.
func checkedOutBranch(c *execCtx, upto *Segment) (string, bool) {
	name, known := "", false
	for _, o := range c.segs {
		if o == upto {
			break
		}
		switch o.Name() {
		case "cd", "pushd", "popd":
			name, known = "", false
			continue
		}
		sub, rest := gitSub(o)
		if sub == "" {
			continue
		}
		if gitOtherRepo(o) {
			if sub == "checkout" || sub == "switch" || sub == "branch" {
				name, known = "", false
			}
			continue
		}
		switch sub {
		case "checkout", "switch":
			if n, k, moves := switchTarget(sub, rest); moves {
				name, known = n, k
			}
		case "branch":
			// git branch -m NEW / -M NEW renames the current branch.
			if len(rest) == 2 && (rest[0] == "-m" || rest[0] == "-M" || rest[0] == "--move") {
				name, known = rest[1], true
			}
		}
	}
	return name, known
}

// gitOtherRepo reports a git command pointed at another repository (-C DIR, --git-dir,
// --work-tree) before its subcommand.
func gitOtherRepo(s *Segment) bool {
	for _, a := range s.Args[1:] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
		if a == "-C" || strings.HasPrefix(a, "--git-dir") || strings.HasPrefix(a, "--work-tree") {
			return true
		}
	}
	return false
}

// switchTarget reads a git checkout or git switch: the branch it leaves checked out, whether
// that branch is named, and whether the command moves HEAD at all (git checkout REV -- FILE
// and git checkout FILE... restore files and leave HEAD where it was).
func switchTarget(sub string, rest []string) (name string, known, moves bool) {
	var pos []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			if sub == "checkout" {
				if name != "" {
					return name, true, true // git checkout -b NAME -- START
				}
				return "", false, false // git checkout [REV] -- FILE...
			}
		case a == "-b" || a == "-B" || a == "--orphan" ||
			sub == "switch" && (a == "-c" || a == "-C" || a == "--create" || a == "--force-create"):
			if i+1 < len(rest) {
				name = rest[i+1]
				i++
			}
		case a == "-t" || a == "--track":
			if i+1 < len(rest) && !strings.HasPrefix(rest[i+1], "-") {
				if name == "" {
					_, b, _ := strings.Cut(rest[i+1], "/")
					name = b
				}
				i++
			}
		case a == "-":
			return "", false, true // the previous branch, whatever it was
		case a == "-d" || a == "--detach":
			return "", false, true
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	if name != "" {
		return name, true, true
	}
	switch {
	case len(pos) != 1:
		return "", false, false
	case pos[0] == "-" || strings.HasPrefix(pos[0], "@{") || strings.ContainsAny(pos[0], "$`*?[~^"):
		return "", false, true
	}
	return pos[0], true, true
}

// forcePushOfCurrent reports a force-push whose refspec is the current branch: none at all,
// or HEAD.
func forcePushOfCurrent(s *Segment) bool {
	p, ok := gitPush(s)
	if !ok || !(p.force || p.lease) || p.del || p.mirror || gitOtherRepo(s) {
		return false
	}
	if strings.Contains(p.remote, "://") || strings.Contains(p.remote, "@") {
		return false // another repository: the destination rules judge it
	}
	_, rest := gitSub(s)
	if pushAllRefs(rest) || containsArg(rest, "--tags") {
		return false
	}
	switch len(p.refs) {
	case 0:
		return true
	case 1:
		switch strings.TrimPrefix(p.refs[0], "+") {
		case "HEAD", "@", "HEAD:HEAD":
			return true
		}
	}
	return false
}

func r12VCSRules() []*Rule {
	return []*Rule{
		{
			ID: "vcs.push.force-current-default", Level: Critical, Category: CatDestructiveVCS,
			Message: "Force-pushes the shared default branch the request checked out, rewriting history others rely on",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !forcePushOfCurrent(s) {
					return "", false
				}
				b, known := checkedOutBranch(c, s)
				if !known || !isProtectedBranch(b) {
					return "", false
				}
				return "Force-pushes " + b + ", the shared branch the request checked out, rewriting the history others rely on", true
			},
		},
	}
}
