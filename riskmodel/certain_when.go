package riskmodel

import (
	"net"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// The conditions under which a match of a contextual rule is certain after all (home
// searched for files to delete, TLS checks off for every future install, every branch
// force-pushed, a git setting that runs something hidden): the certainty table
// (certainty.go) names them per rule; their code lives here.

// certainOutsideDeletion says why a deletion outside the workspace is certainly on the deny
// list: it searches the whole home directory or filesystem (find ~ … -delete, find / -exec
// rm), or what it deletes is the user's data that nothing recreates — a document store,
// another project (in a folder of projects, or beside the workspace), a backup.
func certainOutsideDeletion(c *execCtx, s *Segment) string {
	ts, rec, ok := deletion(s)
	if !ok {
		return ""
	}
	for _, t := range c.targets(ts) {
		if t.abs == "" || t.zone == ZoneWorkspace || t.zone == ZoneTemp {
			continue
		}
		if dir := path.Dir(t.abs); strings.Contains(path.Base(t.abs), "{}") && (dir == c.scope.Home || dir == "/") {
			return "it deletes matching files anywhere under " + dir + " (docs/policy.md: destruction outside the workspace)"
		}
		if isRegenerable(t.abs) || inHomeCache(c, t.abs) || s.Name() == "rsync" {
			// Build output and caches, even in another project, are asked about; so is a
			// mirror (rsync --delete) into a named directory, which deletes only what the
			// source lacks.
			continue
		}
		if e, ok := c.inClass(catalog.UserData, t); ok {
			return "it deletes " + e.What + " (docs/policy.md: data outside the workspace the user never mentioned)"
		}
		if rec && c.besideWorkspace(t.abs) {
			return "it deletes " + t.abs + ", a directory beside the workspace: another project (docs/policy.md: other projects)"
		}
	}
	return ""
}

// besideWorkspace reports a directory that shares the workspace root's parent: the
// project's siblings, which are other projects, not the workspace.
func (c *execCtx) besideWorkspace(abs string) bool {
	for _, w := range c.scope.Workspaces {
		if abs != w && path.Dir(abs) == path.Dir(w) && path.Dir(w) != "/" && path.Dir(w) != c.scope.Home {
			return true
		}
	}
	return false
}

// globalTLSOff reports a package manager told to skip TLS checks in the user's own
// configuration, which every later install of every project reads: pip's trusted-host (its
// global. and user configuration), npm/pnpm/yarn strict-ssl, conda ssl_verify, bundler's
// ssl_verify_mode under --global. The same setting in the project's own file is asked about.
func globalTLSOff(c *execCtx, s *Segment) string {
	var args []string
	for _, a := range s.Args[1:] {
		args = append(args, strings.ToLower(strings.ReplaceAll(a, "=", " ")))
	}
	j := " " + strings.Join(args, " ") + " "
	project := strings.Contains(j, " --location project ") || strings.Contains(j, " --site ") || strings.Contains(j, " --env ") ||
		strings.Contains(j, " --local ") || strings.Contains(j, " --file ")
	if project {
		return ""
	}
	switch n := s.Name(); {
	case (n == "pip" || n == "pip3" || n == "python" || n == "python3") && strings.Contains(j, " config ") && strings.Contains(j, "trusted-host"):
		return "pip trusts hosts without TLS checks in the user's configuration, for every later install"
	case (n == "npm" || n == "pnpm" || n == "yarn") && strings.Contains(j, " strict-ssl ") && (strings.Contains(j, " false ") || strings.Contains(j, " 0 ")):
		return n + " stops checking TLS certificates in the user's configuration, for every later install"
	case n == "yarn" && strings.Contains(j, " enablestrictssl false ") && (strings.Contains(j, " -h ") || strings.Contains(j, " --home ")):
		return "yarn stops checking TLS certificates in the user's configuration, for every later install"
	case n == "conda" && strings.Contains(j, " ssl_verify ") && (strings.Contains(j, " false ") || strings.Contains(j, " no ")):
		return "conda stops checking TLS certificates for every later install"
	case n == "bundle" && strings.Contains(j, " --global ") && strings.Contains(j, "ssl_verify_mode 0"):
		return "bundler stops checking TLS certificates for every later install"
	}
	return ""
}

// untrustedFromRawIP reports an install whose source URL is a raw public IP address: code
// from a host that is not any vendor's own (docs/policy.md), where a project's servers have
// names.
func untrustedFromRawIP(c *execCtx, s *Segment) string {
	args := s.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if indexFlags.get()[a] {
			i++ // an extra package index is asked about (docs/policy.md), wherever it is
			continue
		}
		if k, _, ok := strings.Cut(a, "="); ok && indexFlags.get()[k] || !strings.Contains(a, "://") {
			continue
		}
		if j := strings.Index(a, " @ "); j >= 0 {
			a = strings.TrimSpace(a[j+3:])
		}
		if ip := net.ParseIP(pkgHost(strings.TrimPrefix(a, "git+"))); ip != nil && !ip.IsPrivate() && !ip.IsLoopback() && !ip.IsLinkLocalUnicast() && !ip.IsUnspecified() {
			return "the code comes from the raw IP address " + ip.String() + ", no vendor's own host (docs/policy.md)"
		}
	}
	return ""
}

// indexFlags name a package index or a page of links rather than the package itself.
var indexFlags = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-i": true, "--index-url": true, "--extra-index-url": true, "-f": true, "--find-links": true,
		"--trusted-host": true, "--index": true, "--default-index": true, "--registry": true, "--source": true, "--index-strategy": true}
}}

// forcePushEverything reports a force-push of every branch (which includes the shared
// default branch: docs/policy.md denies force-pushing it), or a delete fed by xargs from the
// repository's own list of remote branches, filtered by nothing that keeps the default
// branch out: every branch on the remote is deleted.
func forcePushEverything(c *execCtx, s *Segment) string {
	p, ok := gitPush(s)
	if !ok {
		return ""
	}
	_, rest := gitSub(s)
	if (p.force || p.lease) && pushAllRefs(rest) {
		return "every branch is force-pushed, the shared default branch included (docs/policy.md)"
	}
	if !p.del || !viaXargs(s) || len(p.refs) != 1 || !strings.Contains(p.refs[0], "each input line") {
		return ""
	}
	lists, keeps := false, false
	for in := xargsFeed(c, s); in != nil; in = in.PipeIn {
		sub, r := gitSub(in)
		switch {
		case sub == "branch" && (containsArg(r, "-r") || containsArg(r, "--remotes") || containsArg(r, "-a") || containsArg(r, "--all")),
			sub == "for-each-ref" && strings.Contains(strings.Join(r, " "), "refs/remotes"),
			sub == "ls-remote":
			lists = true
		case in.Name() == "grep" || in.Name() == "egrep" || in.Name() == "rg":
			for _, a := range in.Args[1:] {
				for b := range protectedBranches.get() {
					if strings.Contains(a, b) {
						keeps = true
					}
				}
			}
			if !in.hasFlag("v", "--invert-match") {
				keeps = true // a positive filter picks some branches, not all
			}
		}
	}
	if lists && !keeps {
		return "it deletes every branch the remote has, the shared default branch included (docs/policy.md)"
	}
	return ""
}

// xargsFeed is the command whose output feeds the xargs that runs s: the segment before s
// in the request, run through the same wrappers as the xargs itself, nil when there is none.
func xargsFeed(c *execCtx, s *Segment) *Segment {
	for i, o := range c.segs {
		if o != s || i == 0 {
			continue
		}
		prev := c.segs[i-1]
		if len(prev.Via) == len(s.Via)-1 && strings.Join(prev.Via, "\x00")+"\x00xargs" == strings.Join(s.Via, "\x00") {
			return prev
		}
	}
	return nil
}

func viaXargs(s *Segment) bool {
	for _, v := range s.Via {
		if v == "xargs" {
			return true
		}
	}
	return false
}

// reHiddenProgram is a value of a git setting that runs a program in a way nobody sees: it
// fetches code, runs something from a dot directory or a temporary directory, or starts it in
// the background (nohup, setsid, a trailing &).
var reHiddenProgram = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:curl|wget|nc|ncat)\b|https?://|(?:^|[\s'"=/])~?/?(?:[\w.-]+/)*\.[\w-]+/[\w.-]+|(?:^|[\s'"])/(?:tmp|var/tmp|dev/shm)/|\bnohup\b|\bsetsid\b|&\s*(?:[;'"]|less|more|$)|\bbase64\s+(?:-d|--decode)\b`)
}}

// gitConfigRunsHidden reports a git setting that makes git run a program (core.pager,
// core.editor, core.sshCommand, core.fsmonitor, an alias starting with !) whose value runs
// something fetched, hidden or in the background: every later git command starts it.
func gitConfigRunsHidden(c *execCtx, s *Segment) string {
	sub, rest := gitSub(s)
	if sub != "config" {
		return ""
	}
	for i, a := range rest {
		k := strings.ToLower(a)
		if i+1 >= len(rest) {
			break
		}
		v := rest[i+1]
		if !(strings.HasPrefix(k, "core.pager") || strings.HasPrefix(k, "core.editor") || strings.HasPrefix(k, "core.sshcommand") ||
			strings.HasPrefix(k, "core.fsmonitor") || strings.HasPrefix(k, "alias.") && strings.HasPrefix(v, "!") || strings.HasPrefix(k, "pager.") ||
			gitProgramKey(k)) {
			continue
		}
		if m := reHiddenProgram.get().FindString(v); m != "" {
			return "the program it runs fetches code, hides or runs in the background (" + strings.TrimSpace(m) + "), at every later git command (docs/policy.md: git config keys that run programs)"
		}
	}
	return ""
}

// stressUnbounded reports a stress test that takes (nearly) all memory or has no time limit.
func stressUnbounded(c *execCtx, s *Segment) string {
	if why := yesUnbounded(s); why != "" {
		return why
	}
	if n := s.Name(); n != "stress" && n != "stress-ng" {
		return ""
	}
	if v, ok := optValue(s.Args[1:], "--vm-bytes", "--bigheap-bytes", "--malloc-bytes", "--memrate-bytes"); ok && strings.HasSuffix(v, "%") {
		if pct, err := strconv.Atoi(strings.TrimSuffix(v, "%")); err == nil && pct >= 95 {
			return "it takes " + v + " of the machine's memory (docs/policy.md: resource exhaustion)"
		}
	}
	t, ok := optValue(s.Args[1:], "--timeout", "-t")
	if !ok || t == "0" || t == "0s" {
		return "it runs without a time limit (docs/policy.md: resource exhaustion)"
	}
	return ""
}

// reBulkDelete is code that deletes every row of a table: an ActiveRecord model's delete_all
// or destroy_all with no condition, Django's objects.all().delete(), Laravel's truncate, SQL
// TRUNCATE or DROP TABLE.
var reBulkDelete = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\b[A-Z][\w:]*(?:\.(?:all|unscoped))?\.(?:delete_all|destroy_all)\b|\.objects(?:\.all\(\))?\.delete\(\)|::(?:truncate|query\(\)->delete)\(\)|(?i:\btruncate\s+(?:table\s+)?\w|\bdrop\s+table\b|\bdrop_table\b)`)
}}

// bulkDeleteCode returns the part of code that deletes a whole table, "" when none does.
func bulkDeleteCode(code string) string {
	return reBulkDelete.get().FindString(code)
}

// lookWords are the verbs of a reason that only looks; leadWords are what may come before a
// reason's verb ("just checking", "I'm going to verify").
var (
	lookWords = &wordSet{words: "check checking checks verify verifying confirm confirming look looking inspect inspecting view viewing show showing list listing read reading format formatting lint linting tidy tidying review reviewing browse browsing print printing peek see seeing"}
	leadWords = &wordSet{words: "just only quickly simply first please i im i'm we we're am are is let me us going gonna to want wants need needs trying try the a an agent now ok okay so"}
	// changeArgs are the words of a command that certainly changes what it names.
	changeArgs = &wordSet{words: "create apply delete destroy refund refunds payout payouts transfer transfers charge charges deploy cancel update scale rollout patch set put remove rm drop migrate release promote import terminate stop restart reboot replace"}
)

// changesByItsWords reports a command one of whose words is a verb that changes what it names
// (stripe payouts create, terraform apply, kubectl delete).
func changesByItsWords(s *Segment) bool {
	for _, a := range s.Args[1:] {
		if changeArgs.has(strings.ToLower(a)) {
			return true
		}
	}
	return false
}

// reasonOnlyLooks says why a stated reason does not cover a change: its verb says it only
// looks (checking, verifying, listing, formatting). docs/policy.md counts a mismatch between
// the justification and the command for the deny side; no reason at all is not a mismatch.
func reasonOnlyLooks(reason string) string {
	for _, w := range strings.FieldsFunc(strings.ToLower(reason), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r == '\'') }) {
		if leadWords.has(w) {
			continue
		}
		if !lookWords.has(w) {
			return ""
		}
		return "the stated reason (" + capText(strings.TrimSpace(reason)) + ") only looks, while the action changes something (docs/policy.md: a mismatch between the justification and the command)"
	}
	return ""
}

// rsyncDeleteDest is the local destination of an rsync that deletes there (--delete and its
// variants), "" when it deletes nothing or the destination is another machine.
func rsyncDeleteDest(s *Segment) string {
	del := false
	for _, a := range s.Args[1:] {
		if a == "--del" || strings.HasPrefix(a, "--delete") {
			del = true
		}
	}
	if !del {
		return ""
	}
	p := s.positional(0, "-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--exclude-from", "--include-from", "--files-from",
		"--backup-dir", "--suffix", "--chmod", "--chown", "--log-file", "--password-file", "--port", "--timeout", "--bwlimit", "--rsync-path",
		"--max-size", "--min-size", "--partial-dir", "--temp-dir", "-T", "--compare-dest", "--copy-dest", "--link-dest", "--out-format", "--info", "--debug")
	if len(p) < 2 {
		return ""
	}
	dst := p[len(p)-1]
	if i := strings.IndexByte(dst, ':'); i >= 0 && !strings.Contains(dst[:i], "/") || strings.Contains(dst, "::") {
		return "" // host:path, rsync://host/module
	}
	return dst
}
