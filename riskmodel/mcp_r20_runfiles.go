package riskmodel

import (
	"fmt"
	"regexp"
	"strings"
)

// Run files written through MCP whose commands destroy. r18 judged a CI workflow, git hook,
// Makefile or manifest script written through a tool (filesystem, GitHub, GitLab) by the
// remote code and exfiltration its commands hold; a step that deletes data, breaks the host or
// exhausts it ran unjudged and the write came out as routine team work. Such a file runs later,
// unreviewed, with the same effect as the command itself: the exec analysis's destructive
// findings decide too. A CI pipeline counts only on a self-hosted runner: a hosted runner is a
// fresh virtual machine thrown away after the job, and deleting its preinstalled tools to free
// disk space is routine (docs.github.com: "About self-hosted runners" — a self-hosted runner
// keeps its state and reaches the organisation's own machines and file systems).

// r20SelfHostedRe finds a workflow job that runs on a self-hosted runner (GitHub's runs-on
// label; the label list form included).
var r20SelfHostedRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*runs-on\s*:\s*(?:\[[^\]\n]*)?["']?self-hosted\b|^\s*-\s*["']?self-hosted["']?\s*$`)
}}

// runFileDestructive finds a written run file whose commands the exec analysis finds deleting
// data, breaking the system or exhausting it (critical, or high and certain).
func (c *mcpCtx) runFileDestructive() string { return c.runFileHarm(true) }

// runFileRisky finds a written run file whose commands the exec analysis finds possibly
// destructive (high, not certain: a delete outside the workspace): the write is asked at high,
// as the command would be, instead of passing as routine team work.
func (c *mcpCtx) runFileRisky() string {
	if c.runFileHarm(true) != "" {
		return ""
	}
	return c.runFileHarm(false)
}

// runFileHarm finds a destructive finding in a written run file's commands: critical or high
// and certain when sure, high otherwise.
func (c *mcpCtx) runFileHarm(sure bool) string {
	if c.execShellAt == nil {
		return ""
	}
	for _, w := range c.writes() {
		what, shape, ok := r18RunFile(w.path)
		if !ok || shape == r18ShapeBuild {
			continue
		}
		if shape == r18ShapeCI && mcpCIFile(w.path) && !r20SelfHostedRe.get().MatchString(w.content) {
			continue
		}
		for _, body := range r18Bodies(shape, w.content) {
			if strings.TrimSpace(body) == "" {
				continue
			}
			for _, f := range c.execShellAt(body, r20RunFileRoot(w.path)) {
				switch f.Category {
				case CatDataDeletion, CatSystemModification, CatResourceExhaustion:
				default:
					continue
				}
				if f.Level >= Critical || f.Level >= High && (f.Certain || !sure) {
					return fmt.Sprintf("it writes %s (%s) with `%s`, run later by its tool unreviewed: %s", what,
						mcpCleanText(w.path, 80), mcpCleanText(body, 60), strings.TrimSuffix(mcpCleanText(f.Message, 120), "."))
				}
			}
		}
	}
	return ""
}

// r20RunFileRoot is the directory a run file's commands start in: its project's root for a
// local file (the directory holding .github, .git/hooks, .husky or the Makefile), and a
// checkout's directory on a runner for a file a code host's tool writes by a relative path.
func r20RunFileRoot(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if !strings.HasPrefix(p, "/") && !(len(p) > 2 && p[1] == ':') {
		return "/home/runner/work/checkout"
	}
	for _, m := range []string{"/.github/", "/.gitlab/", "/.git/hooks/", "/.githooks/", "/.husky/", "/.shopify/", "/.circleci/", "/.buildkite/"} {
		if i := strings.Index(p, m); i > 0 {
			return p[:i]
		}
	}
	if i := strings.LastIndex(p, "/"); i > 0 {
		return p[:i]
	}
	return "/"
}

func mcpR20RunFileRules() []*Rule {
	return []*Rule{
		{ID: "mcp.runfile-destructive", Kind: KindMCP, Level: Critical, Category: CatDataDeletion, Certain: true,
			Message: "Writes a file a tool runs later (a workflow on a self-hosted runner, a git hook, a Makefile, manifest scripts) whose commands delete data, break the system or exhaust it",
			mcp:     mcpWhich((*mcpCtx).runFileDestructive)},
		{ID: "mcp.runfile-risky", Kind: KindMCP, Level: High, Category: CatDataDeletion,
			Message: "Writes a file a tool runs later whose commands may delete data outside the workspace or break the system",
			mcp:     mcpWhich((*mcpCtx).runFileRisky)},
	}
}
