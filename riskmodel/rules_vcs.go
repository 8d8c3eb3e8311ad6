package riskmodel

import (
	"strings"
)

// gitGlobalOpts returns git's options before the subcommand that take a value (cliGlobalTable).
func gitGlobalOpts() []string { return cliGlobalIndex.get()["git"].opts }

// protectedBranches are branch names whose history others rely on.
var protectedBranches = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"main": true, "master": true, "trunk": true, "develop": true, "dev": true,
		"release": true, "production": true, "prod": true, "staging": true, "stable": true, "gh-pages": true}
}}

func isProtectedBranch(ref string) bool {
	ref = strings.TrimPrefix(ref, "+")
	if i := strings.LastIndexByte(ref, ':'); i >= 0 {
		ref = ref[i+1:]
	}
	ref = strings.TrimPrefix(ref, "refs/heads/")
	return protectedBranches.get()[ref] || strings.HasPrefix(ref, "release/") || strings.HasPrefix(ref, "release-")
}

// gitSub returns the git subcommand and its arguments (options included) after it.
func gitSub(s *Segment) (string, []string) {
	if s.Name() != "git" {
		return "", nil
	}
	args := s.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			for _, o := range gitGlobalOpts() {
				if a == o {
					i++
					break
				}
			}
			continue
		}
		return a, args[i+1:]
	}
	return "", nil
}

// pushInfo describes a git push.
type pushInfo struct {
	force, lease, mirror, del, dry bool
	remote                         string
	refs                           []string
}

func parsePush(rest []string) pushInfo {
	var p pushInfo
	var pos []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--force" || a == "-f" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "f"):
			p.force = true
			p.dry = p.dry || strings.Contains(a, "n")
		case strings.HasPrefix(a, "--force-with-lease") || a == "--force-if-includes":
			p.lease = true
		case a == "--mirror" || a == "--prune":
			p.mirror = true
		case a == "--delete" || a == "-d":
			p.del = true
		case a == "--dry-run" || a == "-n":
			p.dry = true
		case a == "--repo" || a == "-o" || a == "--push-option" || a == "--receive-pack" || a == "--exec":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) > 0 {
		p.remote = pos[0]
		p.refs = pos[1:]
	}
	for _, r := range p.refs {
		if strings.HasPrefix(r, "+") {
			p.force = true
		}
		if strings.HasPrefix(r, ":") {
			p.del = true
		}
	}
	return p
}

// featureBranchPush reports a push of one feature branch to origin, the remote the
// repository was cloned from: not forced, not a delete, no tags or every branch, a remote the
// request does not itself add or re-point, and a branch that is named — on the command line,
// or for HEAD as the branch the request itself created earlier (git checkout -b NAME, git
// switch -c NAME) — and is not a shared default or release branch.
func featureBranchPush(c *execCtx, s *Segment, p pushInfo) (string, bool) {
	if p.force || p.lease || p.del || p.mirror || p.remote != "origin" || len(p.refs) != 1 {
		return "", false
	}
	_, rest := gitSub(s)
	if pushAllRefs(rest) || containsArg(rest, "--tags") || containsArg(rest, "--follow-tags") {
		return "", false
	}
	if _, added := addedRemotes(c)["origin"]; added {
		return "", false
	}
	ref := p.refs[0]
	if src, dst, ok := strings.Cut(ref, ":"); ok {
		if src != dst && src != "HEAD" {
			return "", false
		}
		ref = dst
	}
	ref = strings.TrimPrefix(ref, "refs/heads/")
	if ref == "HEAD" || ref == "@" {
		ref = createdBranch(c, s)
	}
	if ref == "" || strings.HasPrefix(ref, "refs/") || strings.ContainsAny(ref, "$`*?[") || isProtectedBranch(ref) {
		return "", false
	}
	return ref, true
}

// createdBranch is the branch an earlier segment of the request created and switched to
// (git checkout -b NAME, git switch -c NAME), or "".
func createdBranch(c *execCtx, upto *Segment) string {
	name := ""
	for _, o := range c.segs {
		if o == upto {
			break
		}
		sub, rest := gitSub(o)
		if (sub == "checkout" || sub == "switch") && len(rest) >= 2 {
			switch rest[0] {
			case "-b", "-B", "-c", "-C", "--create", "--force-create":
				if sub == "checkout" && (rest[0] == "-c" || rest[0] == "-C" || rest[0] == "--create") {
					continue
				}
				name = rest[1]
			}
		}
	}
	return name
}

// gitPush parses a segment that is a real git push (not --dry-run).
func gitPush(s *Segment) (pushInfo, bool) {
	sub, rest := gitSub(s)
	if sub != "push" {
		return pushInfo{}, false
	}
	p := parsePush(rest)
	return p, !p.dry
}

// addedRemotes returns the remotes the request itself adds or re-points (git remote add x
// URL, git remote set-url x URL), with their URLs: a push to one of them sends the
// repository to a destination the request chose.
func addedRemotes(c *execCtx) map[string]string {
	out := map[string]string{}
	for _, o := range c.segs {
		sub, rest := gitSub(o)
		if sub != "remote" || len(rest) < 3 {
			continue
		}
		seg := &Segment{Args: append([]string{"git"}, rest[1:]...)}
		p := seg.positional(0, "-t", "-m", "--track", "--master")
		if (rest[0] == "add" || rest[0] == "set-url") && len(p) >= 2 {
			out[p[0]] = p[len(p)-1]
		}
	}
	return out
}

// pushAllRefs reports a push of every branch or the whole repository (--all, --mirror,
// refs/*:refs/*).
func pushAllRefs(rest []string) bool {
	for _, a := range rest {
		if a == "--all" || a == "--mirror" || a == "--branches" || strings.HasPrefix(a, "refs/*") || a == "*:*" || a == "+refs/*:refs/*" {
			return true
		}
	}
	return false
}

// ghVisibilityPublic reports gh/glab commands that make source public: a public repository
// created from local source, a visibility change to public, a public gist, an API call that
// sets private=false. Sources: cli.github.com/manual/gh_repo_create, gh_repo_edit,
// gh_gist_create; docs.github.com/rest/repos/repos#update-a-repository; glab repo create.
func ghVisibilityPublic(s *Segment) (string, bool) {
	n := s.Name()
	if n != "gh" && n != "glab" {
		return "", false
	}
	a, b := s.sub(0), s.sub(1)
	joined := strings.ToLower(strings.Join(s.Args, " "))
	switch {
	case a == "repo" && b == "create" && (s.arg("--public") || strings.Contains(joined, "--visibility public") || strings.Contains(joined, "--visibility=public")) &&
		(s.arg("--push") || s.hasFlag("s", "--source") || n == "glab"):
		return "Creates a public repository from local source with " + n + " repo create --public", true
	case a == "repo" && b == "edit" && (strings.Contains(joined, "--visibility public") || strings.Contains(joined, "--visibility=public")):
		return "Makes the repository public with " + n + " repo edit --visibility public", true
	case a == "gist" && b == "create" && s.hasFlag("p", "--public"), n == "glab" && a == "snippet" && b == "create" && strings.Contains(joined, "public"):
		return "Publishes files in a public gist", true
	case a == "api":
		for _, f := range []string{"private=false", "visibility=public", "\"private\":false", "\"private\": false", "\"visibility\":\"public\"", "\"visibility\": \"public\""} {
			if strings.Contains(joined, f) {
				return "Sets a repository public through the " + n + " API (" + f + ")", true
			}
		}
	}
	return "", false
}

// ghAdminChange reports gh/glab commands that weaken a repository's protection or hand out
// control: deleting branch protection or rulesets, adding an admin collaborator, forking into
// another owner, transferring the repository.
func ghAdminChange(s *Segment) (string, bool) {
	n := s.Name()
	if n != "gh" && n != "glab" {
		return "", false
	}
	a, b := s.sub(0), s.sub(1)
	joined := strings.ToLower(strings.Join(s.Args, " "))
	method, _ := optValue(s.Args[1:], "-X", "--method")
	method = strings.ToUpper(method)
	switch {
	case a == "api" && method == "DELETE" && (strings.Contains(joined, "/protection") || strings.Contains(joined, "/rulesets/")):
		return "Deletes branch protection or a ruleset, letting anyone push to the protected branch", true
	case a == "api" && (strings.Contains(joined, "/unprotect") || method == "DELETE" && (strings.Contains(joined, "/protected_branches/") || strings.Contains(joined, "/protected_tags/") || strings.Contains(joined, "/push_rule"))):
		// GitLab: PUT projects/:id/repository/branches/:b/unprotect, DELETE
		// projects/:id/protected_branches/:b (docs.gitlab.com/api/protected_branches/).
		return "Removes a GitLab branch or tag protection, letting anyone push to it", true
	case a == "api" && strings.Contains(joined, "/collaborators/") && (strings.Contains(joined, "permission=admin") || strings.Contains(joined, "permission=maintain")):
		return "Adds an admin collaborator to the repository", true
	case a == "api" && (strings.Contains(joined, "/transfer") || strings.Contains(joined, "new_owner=")):
		return "Transfers the repository to another owner", true
	case a == "repo" && b == "fork" && s.hasFlag("", "--org"):
		return "Forks the repository into another organisation", true
	case a == "repo" && b == "transfer":
		return "Transfers the repository to another owner", true
	case a == "api" && strings.Contains(joined, "/hooks") && (method == "POST" || method == "PATCH" || s.hasFlag("fF", "--field", "--raw-field")):
		return "Adds or changes a repository webhook, which sends every push to its URL", true
	}
	return "", false
}

func vcsRules() []*Rule {
	return []*Rule{
		{
			ID: "vcs.push.force-protected", Level: Critical, Category: CatDestructiveVCS,
			Message: "Force-pushes or deletes a shared branch, rewriting history others rely on",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				p, ok := gitPush(s)
				if !ok {
					return "", false
				}
				if p.mirror {
					return "Mirror-pushes to " + p.remote + ", overwriting and deleting every remote branch", true
				}
				for _, r := range p.refs {
					if isProtectedBranch(r) && (p.force || p.lease || p.del) {
						verb := "Force-pushes to"
						if p.del {
							verb = "Deletes"
						}
						return verb + " the shared branch " + strings.TrimLeft(r, "+:") + " on " + p.remote + ", rewriting history others rely on", true
					}
				}
				return "", false
			},
		},
		{
			ID: "vcs.push.exfil", Level: Critical, Category: CatDataExfiltration,
			Message: "Pushes the whole repository to a destination the request chooses",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				sub, rest := gitSub(s)
				p, ok := gitPush(s)
				if sub != "push" || !ok || !pushAllRefs(rest) {
					return "", false
				}
				added := addedRemotes(c)
				if u, ok := added[p.remote]; ok {
					return "Pushes every ref to " + p.remote + " (" + u + "), a remote this request adds", true
				}
				if h, ok := gitURLHost(p.remote); ok && !c.trustedHost(h) {
					return "Pushes every ref straight to " + h, true
				}
				if p.remote != "" && p.remote != "origin" && p.remote != "upstream" && !strings.Contains(p.remote, "/") {
					return "Pushes every ref to the remote " + p.remote + ", not the project's origin", true
				}
				return "", false
			},
		},
		{
			ID: "vcs.push.new-destination", Level: High, Category: CatDataExfiltration,
			Message: "Pushes to a URL or to a remote the request adds itself",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				p, ok := gitPush(s)
				if !ok {
					return "", false
				}
				if u, ok := addedRemotes(c)[p.remote]; ok {
					return "Pushes to " + p.remote + " (" + u + "), a remote this request adds", true
				}
				if h, ok := gitURLHost(p.remote); ok && !c.trustedHost(h) {
					return "Pushes straight to " + h + ", not a configured remote", true
				}
				return "", false
			},
		},
		{
			ID: "vcs.publish-source", Level: Critical, Category: CatDataExfiltration,
			Message: "Makes the repository's source public",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				return ghVisibilityPublic(s)
			},
		},
		{
			ID: "vcs.repo-control", Level: High, Category: CatSecurityWeakening,
			Message: "Weakens a repository's protection or hands control to someone else",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				return ghAdminChange(s)
			},
		},
		{
			ID: "vcs.push.force", Level: High, Category: CatDestructiveVCS,
			Message: "Force-pushes, replacing remote history",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				p, ok := gitPush(s)
				if !ok {
					return "", false
				}
				if !(p.force || p.lease || p.del) || p.mirror {
					return "", false
				}
				for _, r := range p.refs {
					if isProtectedBranch(r) {
						return "", false
					}
				}
				target := "the current branch"
				if len(p.refs) > 0 {
					target = strings.TrimLeft(p.refs[0], "+:")
				}
				if p.del {
					return "Deletes the remote branch " + target, true
				}
				return "Force-pushes " + target + ", replacing its remote history", true
			},
		},
		{
			// docs/policy.md denies "pushing directly to a shared default branch": the change
			// skips review and lands where everyone builds from. A refspec (HEAD:main,
			// feat:refs/heads/master) is judged by its destination, not its source.
			ID: "vcs.push.default-branch", Level: High, Category: CatDestructiveVCS,
			Message: "Pushes straight to a shared default branch, skipping review",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				p, ok := gitPush(s)
				// A URL is some other repository (a fork, a mirror): the destination rules
				// judge that; this one is about the project's own remotes.
				if !ok || p.force || p.lease || p.del || p.mirror || strings.Contains(p.remote, "://") || strings.Contains(p.remote, "@") {
					return "", false
				}
				for _, r := range p.refs {
					if isProtectedBranch(r) {
						where := "its remote"
						if p.remote != "" {
							where = p.remote
						}
						dst := strings.TrimPrefix(r, "+")
						if i := strings.LastIndexByte(dst, ':'); i >= 0 {
							dst = dst[i+1:]
						}
						return "Pushes straight to the shared branch " + strings.TrimPrefix(dst, "refs/heads/") + " on " + where + ", skipping review", true
					}
				}
				return "", false
			},
		},
		{
			// docs/policy.md's allow row: "push of a feature branch to the project's own
			// remote". Pushes of HEAD or of the current branch whose name the request does not
			// show, of tags, of every branch, or to another remote stay vcs.push (ask).
			ID: "vcs.push.feature-branch", Level: Low, Category: CatNetworkEgress,
			Message: "Pushes a feature branch to the project's own remote",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				p, ok := gitPush(s)
				if !ok {
					return "", false
				}
				if b, ok := featureBranchPush(c, s, p); ok {
					return "Pushes the feature branch " + b + " to " + p.remote, true
				}
				return "", false
			},
		},
		{
			ID: "vcs.push", Level: Medium, Category: CatNetworkEgress,
			Message: "Pushes commits to a remote repository, publishing them",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				p, ok := gitPush(s)
				if !ok {
					return "", false
				}
				if p.force || p.lease || p.del || p.mirror {
					return "", false
				}
				if _, ok := featureBranchPush(c, s, p); ok {
					return "", false
				}
				where := "its upstream"
				if p.remote != "" {
					where = p.remote
				}
				if len(p.refs) > 0 {
					return "Pushes " + strings.Join(p.refs, " ") + " to " + where, true
				}
				return "Pushes the current branch to " + where, true
			},
		},
		{
			// docs/policy.md's allow row and "scary-looking but benign": git clean -fdx in the
			// repo deletes regenerable artefacts.
			ID: "vcs.clean-artefacts", Level: Low, Category: CatNone,
			Message: "Deletes untracked and ignored files of the repository it runs in",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				sub, rest := gitSub(s)
				seg := &Segment{Args: append([]string{"git"}, rest...)}
				if sub != "clean" || !seg.hasFlag("f", "--force") || seg.hasFlag("n", "--dry-run") || !gitCleanInRepo(c, s) {
					return "", false
				}
				return "Deletes the untracked (build and generated) files of the repository in the workspace with git clean", true
			},
		},
		{
			ID: "vcs.discard-work", Level: Medium, Category: CatDestructiveVCS,
			Message: "Discards uncommitted changes or untracked files for good",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				sub, rest := gitSub(s)
				switch sub {
				case "reset":
					if containsArg(rest, "--hard") || containsArg(rest, "--merge") || containsArg(rest, "--keep") {
						return "Resets the working tree with git reset --hard, discarding uncommitted changes for good", true
					}
				case "clean":
					seg := &Segment{Args: append([]string{"git"}, rest...)}
					if seg.hasFlag("f", "--force") && !seg.hasFlag("n", "--dry-run") && !gitCleanInRepo(c, s) {
						return "Deletes untracked files with git clean, which git cannot recover", true
					}
				case "checkout", "restore":
					for i, a := range rest {
						if (a == "." || a == "--" && i+1 < len(rest) && rest[i+1] == ".") && !containsArg(rest, "--staged") {
							return "Discards every uncommitted change in the working tree", true
						}
					}
				case "stash":
					if len(rest) > 0 && rest[0] == "clear" {
						return "Drops every stash, losing the work saved in them", true
					}
				}
				return gitDiscardForm(sub, rest)
			},
		},
		{
			ID: "vcs.history-destroy", Level: High, Category: CatDestructiveVCS,
			Message: "Rewrites or prunes repository history beyond easy recovery",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				sub, rest := gitSub(s)
				switch sub {
				case "filter-branch", "filter-repo":
					return "Rewrites the repository's whole history with git " + sub, true
				case "reflog":
					if len(rest) > 0 && (rest[0] == "expire" || rest[0] == "delete") {
						return "Expires the reflog, removing the way to recover lost commits", true
					}
				case "gc":
					if a, ok := (&Segment{Args: append([]string{"git"}, rest...)}).argPrefix("--prune=now", "--prune=all"); ok {
						return "Prunes unreachable commits now (" + a + "), making lost work unrecoverable", true
					}
				case "update-ref":
					if containsArg(rest, "-d") {
						return "Deletes a ref directly with git update-ref", true
					}
				}
				return "", false
			},
		},
		{
			ID: "vcs.config-exec", Level: High, Category: CatPersistence,
			CertainWhen: "git is made to run a command (hooks outside the workspace, fsmonitor, a shell credential helper)",
			Message:     "Changes git configuration that makes git run other programs or send credentials",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				sub, rest := gitSub(s)
				if sub != "config" {
					return "", false
				}
				for i, a := range rest {
					k := strings.ToLower(a)
					if strings.HasPrefix(k, "core.hookspath") || strings.HasPrefix(k, "core.sshcommand") || strings.HasPrefix(k, "core.fsmonitor") ||
						strings.HasPrefix(k, "credential.") || strings.HasPrefix(k, "core.pager") || strings.HasPrefix(k, "core.editor") ||
						strings.HasPrefix(k, "filter.") || strings.HasPrefix(k, "diff.") && strings.HasSuffix(k, ".textconv") ||
						strings.HasPrefix(k, "alias.") && i+1 < len(rest) && strings.HasPrefix(rest[i+1], "!") {
						if i+1 < len(rest) {
							c.certainty = gitConfigExecCertainty(c, k, rest[i+1])
							return "Sets git " + a + ", which makes git run or hand credentials to another program", true
						}
					}
				}
				return "", false
			},
		},
		{
			ID: "vcs.config-insecure", Level: High, Category: CatSecurityWeakening,
			CertainWhen: "it is switched off globally (--global, --system)",
			Message:     "Turns off TLS verification for git",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if s.Name() != "git" {
					return "", false
				}
				joined := strings.ToLower(strings.Join(s.Args, " "))
				if strings.Contains(joined, "http.sslverify false") || strings.Contains(joined, "http.sslverify=false") || strings.Contains(joined, "http.sslverify 0") {
					if sub, _ := gitSub(s); sub == "config" && s.arg("--global", "--system") {
						c.certainty = certaintySure // policy: TLS verification off globally; one clone is asked about
					}
					return "Turns off TLS certificate checks for git, exposing fetches and pushes to interception", true
				}
				return "", false
			},
		},
		{
			ID: "vcs.config-global", Level: Medium, Category: CatSystemModification,
			Message: "Changes the user's global git configuration",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				sub, rest := gitSub(s)
				if sub == "remote" && len(rest) > 0 && rest[0] == "set-url" {
					return "Points the remote " + strings.Join(rest[1:], " ") + " elsewhere, redirecting future pushes", true
				}
				if sub != "config" || !(containsArg(rest, "--global") || containsArg(rest, "--system")) {
					return "", false
				}
				seg := &Segment{Args: append([]string{"git"}, rest...)}
				if seg.hasFlag("l", "--get", "--get-all", "--list", "--get-regexp", "--show-origin") {
					return "", false
				}
				if len(seg.positional(0)) < 2 {
					return "", false
				}
				return "Changes the global git configuration (" + joinArgs(rest) + ")", true
			},
		},
		{
			ID: "vcs.local-change", Level: Medium, Category: CatNone, Contained: true,
			Message: "Changes the local repository (commits, branches, merges), recoverable from the reflog",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				sub, rest := gitSub(s)
				switch sub {
				case "commit", "add", "rm", "mv", "checkout", "switch", "branch", "merge", "rebase", "cherry-pick", "revert", "stash", "tag", "restore", "reset", "am", "apply", "worktree", "submodule", "init", "notes", "bisect", "pull", "sparse-checkout", "lfs", "mergetool", "clean":
					if sub == "branch" && !(&Segment{Args: append([]string{"git"}, rest...)}).hasFlag("dDmMcC", "--delete", "--move", "--copy", "--set-upstream-to", "--unset-upstream") && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
						return "Creates the branch " + rest[0], true
					}
					if sub == "branch" && (len(rest) == 0 || !(&Segment{Args: append([]string{"git"}, rest...)}).hasFlag("dDmMcC", "--delete", "--move", "--copy", "--set-upstream-to", "--unset-upstream")) {
						return "", false
					}
					if sub == "stash" && len(rest) > 0 && (rest[0] == "list" || rest[0] == "show") {
						return "", false
					}
					if sub == "tag" && (len(rest) == 0 || rest[0] == "-l" || rest[0] == "--list") {
						return "", false
					}
					if sub == "pull" {
						return "Pulls and merges remote changes into the working tree", true
					}
					return "Runs git " + sub + ", changing the local repository", true
				}
				return "", false
			},
		},
		{
			ID: "vcs.gh-destructive", Level: High, Category: CatDataDeletion,
			CertainWhen: "it deletes a whole repository",
			Message:     "Deletes or archives a GitHub repository or release",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if s.Name() != "gh" && s.Name() != "glab" {
					return "", false
				}
				a, b := s.sub(0), s.sub(1)
				m, _ := optValue(s.Args[1:], "-X", "--method")
				if b == "delete" || b == "archive" || a == "api" && strings.EqualFold(m, "DELETE") {
					if a == "repo" && b == "delete" || a == "api" && wholeRepoPath(s) {
						c.certainty = certaintySure // policy: deleting repositories
					}
					return "Runs gh " + a + " " + b + ", deleting data on GitHub", true
				}
				return "", false
			},
		},
		{
			// docs/policy.md's allow row: "opening a PR or issue on the project's repo".
			ID: "vcs.gh-open", Level: Low, Category: CatNone,
			Message: "Opens a pull request or an issue",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				return ghOpen(c, s)
			},
		},
		{
			ID: "vcs.gh-write", Level: Medium, Category: CatNetworkEgress,
			Message: "Creates or changes something on GitHub in the user's name",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if s.Name() != "gh" && s.Name() != "glab" {
					return "", false
				}
				if _, ok := ghOpen(c, s); ok {
					return "", false
				}
				a, b := s.sub(0), s.sub(1)
				if a == "api" {
					m, _ := optValue(s.Args[1:], "-X", "--method")
					if m = strings.ToUpper(m); m == "POST" || m == "PATCH" || m == "PUT" || s.hasFlag("fF", "--field", "--raw-field", "--input") {
						return "Sends a write request to the GitHub API", true
					}
					return "", false
				}
				switch b {
				case "create", "comment", "merge", "close", "reopen", "edit", "review", "ready", "fork", "rename", "set", "upload", "transfer", "lock", "pin", "run", "rerun", "cancel", "enable", "disable", "sync":
					return "Runs gh " + a + " " + b + ", acting on GitHub in the user's name", true
				}
				return "", false
			},
		},
	}
}

// gitCleanInRepo reports a git clean that runs in the workspace's repository: the directory
// it runs in (after cd and git -C) lies inside the workspace, no pathspec leaves it, and it
// is not run as root.
func gitCleanInRepo(c *execCtx, s *Segment) bool {
	if s.Privileged {
		return false
	}
	dir := "."
	for i := 1; i+1 < len(s.Args); i++ {
		if s.Args[i] == "-C" {
			dir = s.Args[i+1]
		}
	}
	if t := c.target(dir); t.zone != ZoneWorkspace {
		return false
	}
	_, rest := gitSub(s)
	for _, p := range (&Segment{Args: append([]string{"git"}, rest...)}).positional(0, "-e", "--exclude") {
		if t := c.target(p); t.zone != ZoneWorkspace {
			return false
		}
	}
	return true
}

// ghOpen reports gh pr create, gh issue create or glab mr/issue create: opening a pull
// request or an issue, the allow row's bookkeeping. Not a pull request from another owner's
// fork (--head owner:branch), not a body read from outside the workspace, not a body or title
// linking to a host that is not a code host or tracker, not published to a web form
// (--web/--recover take input the analysis does not see).
func ghOpen(c *execCtx, s *Segment) (string, bool) {
	n := s.Name()
	if n != "gh" && n != "glab" || s.Privileged {
		return "", false
	}
	a, b := s.sub(0), s.sub(1)
	if b != "create" || !(a == "pr" || a == "issue" || n == "glab" && a == "mr") {
		return "", false
	}
	if h, ok := optValue(s.Args[1:], "-H", "--head", "--source-branch"); ok && strings.Contains(h, ":") {
		return "", false
	}
	if !ghRepoIsProjects(c, s) {
		return "", false // someone else's repository: a message to an external party (vcs.gh-write)
	}
	for _, f := range pkgOptValues(s.Args[1:], "-F", "--body-file", "--description-file", "-T", "--template", "--recover") {
		if f == "-" {
			continue
		}
		if t := c.target(f); t.zone != ZoneWorkspace && t.zone != ZoneTemp || isCredentialPath(c, t.abs) {
			return "", false
		}
	}
	for _, arg := range s.Args[1:] {
		if strings.ContainsAny(arg, "$`") {
			return "", false
		}
		for _, m := range mcpReBodyURLHost().FindAllStringSubmatch(arg, 8) {
			if !mcpHostOfService(strings.ToLower(m[1]), nil) {
				return "", false
			}
		}
	}
	what := map[string]string{"pr": "a pull request", "mr": "a merge request", "issue": "an issue"}[a]
	return "Opens " + what + " with " + n + " " + a + " create", true
}

// gitConfigExecCertainty says whether setting git config key k to v certainly makes git run a
// program nobody reviewed (docs/policy.md: git hooks paths and config keys that run programs):
// hooks outside the workspace, an fsmonitor or credential helper that is a shell command. A
// project's own hooks directory, an editor, a pager, an alias or a named credential helper
// (osxkeychain, manager, store) is everyday configuration: asked about.
func gitConfigExecCertainty(c *execCtx, k, v string) certainty {
	switch {
	case strings.HasPrefix(k, "core.hookspath"):
		if t := c.target(v); t.zone == ZoneWorkspace {
			return certaintyUnsure
		}
		return certaintySure
	case strings.HasPrefix(k, "core.fsmonitor"):
		if lv := strings.ToLower(v); lv == "true" || lv == "false" {
			return certaintyUnsure
		}
		return certaintySure
	case strings.HasPrefix(k, "credential.") && strings.HasPrefix(strings.TrimSpace(v), "!"):
		return certaintySure
	}
	return certaintyUnsure
}

// wholeRepoPath reports a gh/glab api call whose path names a whole repository or project
// (repos/OWNER/NAME, projects/ID), not something inside one.
func wholeRepoPath(s *Segment) bool {
	for _, a := range s.Args[1:] {
		p := strings.Trim(a, "/")
		if parts := strings.Split(p, "/"); parts[0] == "repos" && len(parts) == 3 || parts[0] == "projects" && len(parts) == 2 {
			return true
		}
	}
	return false
}
