package riskmodel

import (
	"path"
	"strings"
)

// git clean -f run where the repository is the home directory (a dotfiles repository whose
// work tree is $HOME) or / deletes every file git does not track there: with -d and -x, all of
// home that is not a dotfile in the repository — documents, other projects, keys. docs/policy.md
// says $HOME and / are never a workspace and denies destroying home; in a project, git clean
// deletes build output and is judged by vcs.discard-work.

// gitCleanWholeTree returns the directory a forced git clean empties when that directory is
// the home directory, an ancestor of it, or /, and no pathspec narrows it to something
// smaller; "" otherwise.
func gitCleanWholeTree(c *execCtx, s *Segment) string {
	sub, rest := gitSub(s)
	if sub != "clean" || c.scope.CwdUnknown && !containsArg(s.Args, "-C") {
		return ""
	}
	seg := &Segment{Args: append([]string{"git"}, rest...)}
	if !seg.hasFlag("f", "--force") || seg.hasFlag("n", "--dry-run") {
		return ""
	}
	dir := "."
	for i := 1; i+1 < len(s.Args) && s.Args[i] != sub; i++ {
		if s.Args[i] == "-C" {
			dir = path.Join(dir, s.Args[i+1])
			if path.IsAbs(s.Args[i+1]) || strings.HasPrefix(s.Args[i+1], "~") {
				dir = s.Args[i+1]
			}
		}
	}
	t := c.target(dir)
	if t.abs == "" || !homeOrAbove(c, t.abs) {
		return ""
	}
	for _, p := range seg.positional(0, "-e", "--exclude") {
		if p == "--" {
			continue
		}
		pt := c.target(path.Join(dir, p))
		if path.IsAbs(p) || strings.HasPrefix(p, "~") {
			pt = c.target(p)
		}
		if pt.abs == "" || !homeOrAbove(c, pt.abs) {
			return "" // git clean -fd build/ in ~: only that directory
		}
	}
	return t.abs
}

// homeOrAbove reports the home directory, a directory above it, or /.
func homeOrAbove(c *execCtx, abs string) bool {
	home := strings.TrimRight(c.scope.Home, "/")
	abs = path.Clean(abs)
	return abs == "/" || home != "" && (abs == home || strings.HasPrefix(home, strings.TrimRight(abs, "/")+"/"))
}

func gitCleanHomeRules() []*Rule {
	return []*Rule{
		{
			ID: "vcs.clean-home", Level: Critical, Category: CatDataDeletion,
			Message: "Runs git clean -f where the work tree is the home directory or /, deleting every untracked file in it",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				dir := gitCleanWholeTree(c, s)
				if dir == "" {
					return "", false
				}
				return "Runs git clean -f in " + c.scope.Pretty(dir) + ", which is never a workspace: every file there that git does not track (documents, other projects, keys) is deleted for good", true
			},
		},
	}
}
