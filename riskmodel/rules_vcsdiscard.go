package riskmodel

import "strings"

// The forms of git that throw away work which exists nowhere else, beyond `reset --hard`,
// `checkout -- .` and `stash clear` (docs/policy.md asks about "discarding uncommitted work
// (git reset --hard, git checkout -- ., git stash drop)"). Each is a question for the human,
// not a contained local change: git cannot bring the lost edits back. The routine neighbours
// stay vcs.local-change: a plain branch switch (git refuses to overwrite local edits), unstaging
// (restore --staged), stash push and pop, branch -d (git refuses an unmerged branch).
// Sources: git-checkout(1) -f and "git checkout [<tree-ish>] -- <pathspec>", git-restore(1)
// (--worktree is the default; --staged alone touches only the index), git-switch(1)
// --discard-changes, git-branch(1) -D ("--delete --force": "allow deleting the branch
// irrespective of its merged status"), git-stash(1) drop.

// gitDiscardForm reports a git subcommand that discards uncommitted (or unmerged) work.
func gitDiscardForm(sub string, rest []string) (string, bool) {
	switch sub {
	case "checkout", "switch", "restore", "branch", "stash":
	default:
		return "", false // every other command, git or not: nothing to build a segment for
	}
	seg := &Segment{Args: append([]string{"git"}, rest...)}
	paths := func() []string {
		for i, a := range rest {
			if a == "--" {
				return rest[i+1:]
			}
		}
		return nil
	}
	switch sub {
	case "checkout":
		if seg.hasFlag("f", "--force") {
			return "Switches with git checkout --force, throwing away uncommitted changes", true
		}
		if p := paths(); len(p) > 0 {
			return "Overwrites the uncommitted changes in " + strings.Join(p, " ") + " with git checkout", true
		}
	case "switch":
		if seg.hasFlag("f", "--force", "--discard-changes") {
			return "Switches branches with git switch --discard-changes, throwing away uncommitted changes", true
		}
	case "restore":
		if seg.hasFlag("S", "--staged") && !seg.hasFlag("W", "--worktree") {
			return "", false // unstages only: the working tree keeps its changes
		}
		if p := seg.positional(0, "-s", "--source", "--pathspec-from-file"); len(p) > 0 || seg.hasFlag("", "--pathspec-from-file") {
			return "Overwrites the uncommitted changes in " + strings.Join(p, " ") + " with git restore", true
		}
	case "branch":
		del := seg.hasFlag("d", "--delete")
		if seg.hasFlag("D") || del && seg.hasFlag("f", "--force") {
			return "Deletes a branch with git branch -D whatever its merge status, losing commits that are on no other branch", true
		}
	case "stash":
		if len(rest) > 0 && rest[0] == "drop" {
			return "Drops a stash with git stash drop, losing the work saved in it", true
		}
	}
	return "", false
}
