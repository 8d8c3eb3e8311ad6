package riskmodel

// The policy applier: protected paths and the user's own rules, applied in one place with one
// semantics to a command of an exec request and to an MCP call alike. The level→decision
// mapping is the other half of the policy and is applied by finish (verdict.go), also once for
// both kinds.
//
// What the applier sees is a policyUnit: what one command (or one call) does — the words it
// runs, the directories it works in, the paths it names and the paths it changes — not how it
// was spelled. A user rule can therefore say "git in a repository under ~/src" or "cat, grep,
// jq touching only paths in the workspace" and mean it for a hook's shell command, a command
// inside `bash -c`, and (for the path conditions) an MCP filesystem call.

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
)

// PlaceWorkspace is the word that stands for the request's workspace roots in a user rule's
// PathsWithin.
const PlaceWorkspace = "workspace"

// policyUnit is what the policy applier judges: one command of an exec request (after
// unwrapping) or one MCP call. Its path facts are computed only when a rule or a protected
// path asks for them, so a policy without either costs nothing per request.
type policyUnit struct {
	kind  Kind
	label string
	scope *Scope

	// exec
	seg *Segment
	ctx *execCtx

	// mcp: "server/tool" and, for a call with a verb argument, "server/tool:verb", lower-case.
	subjects []string
	mcp      *mcpCtx

	facts *unitFacts
}

// unitFacts are a unit's effects on paths.
type unitFacts struct {
	// named are the local paths the unit names, whatever it does with them (reads included);
	// "" for a word that cannot be placed (a variable, a remote location, a flag value the
	// analysis cannot split).
	named []string
	// changed are the absolute paths the unit writes, deletes or changes permissions of.
	changed []string
	// opaque is set when the unit runs code whose paths cannot be seen (inline interpreter
	// code, a file the request wrote, a shell command handed to an MCP tool).
	opaque bool
	// dirs are the directories the unit works in ("" unknown): the cwd after cd, and for git
	// also -C, --git-dir and --work-tree.
	dirs []string
}

func (u *policyUnit) paths() *unitFacts {
	if u.facts != nil {
		return u.facts
	}
	if u.kind == KindMCP {
		u.facts = mcpFacts(u.mcp)
	} else {
		u.facts = execFacts(u.ctx, u.seg)
	}
	return u.facts
}

func mcpFacts(c *mcpCtx) *unitFacts {
	f := &unitFacts{opaque: c.shell != nil || c.code != ""}
	for _, p := range c.paths {
		f.named = append(f.named, p.abs)
		if p.writes() && p.abs != "" {
			f.changed = append(f.changed, p.abs)
		}
	}
	for _, u := range c.urls {
		if !u.local {
			f.named = append(f.named, "") // a remote destination is not a local path
		}
	}
	return f
}

func execFacts(c *execCtx, s *Segment) *unitFacts {
	f := &unitFacts{opaque: s.Code || s.CodeOpaque || s.RunsWritten != "" || !s.Parsed || s.Dynamic}
	place := func(w string) string {
		if remoteWord(w) {
			return ""
		}
		abs, ok := c.scope.Resolve(w)
		if !ok {
			return ""
		}
		return abs
	}
	for _, a := range s.Args[1:] {
		w := a
		if strings.HasPrefix(w, "-") && w != "-" {
			if i := strings.IndexByte(w, '='); i >= 0 {
				w = w[i+1:]
				if !strings.ContainsAny(w, "/~") {
					continue
				}
			} else if strings.ContainsAny(w, "/~") {
				f.named = append(f.named, "") // -I/usr/include, -o~/x: a path glued to a flag
				continue
			} else {
				continue
			}
		}
		if w == "" || w == "-" {
			continue
		}
		f.named = append(f.named, place(w))
	}
	for _, r := range s.Redirs {
		switch {
		case r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<":
			continue
		case r.Target == "" || r.Target[0] == '&' || r.Target == "-":
			continue
		}
		f.named = append(f.named, place(r.Target))
	}
	ts, _, _ := deletion(s)
	all := append(c.targets(ts), writeTargets(c, s)...)
	switch s.Name() {
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
		all = append(all, c.targets(s.positional(0))...)
	}
	for _, t := range all {
		f.changed = append(f.changed, t.abs)
	}
	f.dirs = execDirs(c.scope, s, c.req)
	return f
}

// remoteWord reports a word that names a place on another machine: a URL, or scp/rsync's
// [user@]host:path.
func remoteWord(w string) bool {
	if strings.Contains(w, "://") {
		return true
	}
	i := strings.IndexByte(w, ':')
	return i > 0 && !strings.Contains(w[:i], "/")
}

// execDirs are the directories a command works in: its cwd, and for git the repository it is
// pointed at (-C, --git-dir, --work-tree). GIT_DIR or GIT_WORK_TREE set for it makes the
// repository unknown (anywhere in the request: the analysis does not follow exports into
// every command).
func execDirs(sc *Scope, s *Segment, req *ExecRequest) []string {
	cwd := sc.Cwd
	if sc.CwdUnknown {
		cwd = ""
	}
	dirs := []string{cwd}
	if s.Name() != "git" {
		return dirs
	}
	for _, w := range req.Command {
		if strings.Contains(w, "GIT_DIR") || strings.Contains(w, "GIT_WORK_TREE") {
			return append(dirs, "")
		}
	}
	at := func(w string) string {
		if cwd == "" && !path.IsAbs(w) && !strings.HasPrefix(w, "~") {
			return ""
		}
		abs, ok := sc.withCwd(cwd, cwd != "").Resolve(w)
		if !ok {
			return ""
		}
		return abs
	}
	args := s.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case a == "-C":
			cwd = at(next())
			dirs = append(dirs, cwd)
		case a == "--git-dir" || a == "--work-tree":
			dirs = append(dirs, at(next()))
		case strings.HasPrefix(a, "--git-dir=") || strings.HasPrefix(a, "--work-tree="):
			dirs = append(dirs, at(a[strings.IndexByte(a, '=')+1:]))
		case a == "-c" || a == "--namespace" || a == "--exec-path":
			next()
		case strings.HasPrefix(a, "-"):
		default:
			return dirs // the subcommand: what follows is its own arguments
		}
	}
	return dirs
}

// validate checks a user rule for the mistakes the config loader cannot see. The config
// loader (guardian/config.go) reports the same problems with file, line and column.
func (r UserRule) validate() error {
	if r.Decision < Allow || r.Decision > Deny {
		return errors.New("decision must be allow, ask or deny")
	}
	text := 0
	for _, set := range []bool{len(r.Prefix) > 0, r.Glob != "", r.Regex != nil} {
		if set {
			text++
		}
	}
	for _, p := range r.PathsWithin {
		if err := checkPlace(p); err != nil {
			return fmt.Errorf("paths_within: %w", err)
		}
	}
	if r.Kind == KindMCP {
		switch {
		case r.Glob == "" || len(r.Prefix) > 0 || r.Regex != nil:
			return errors.New("an mcp rule needs exactly a glob over server/tool")
		case len(r.Commands) > 0 || len(r.CwdUnder) > 0:
			return errors.New("commands and cwd_under apply to exec rules only")
		}
		return nil
	}
	if text > 1 {
		return errors.New("a rule takes at most one of prefix, glob, regex")
	}
	if text == 0 && len(r.Commands) == 0 {
		return errors.New("an exec rule needs commands, or one of prefix, glob, regex, to say which commands it covers")
	}
	for _, n := range r.Commands {
		if n == "" || strings.ContainsAny(n, "/ \t") {
			return fmt.Errorf("command %q must be a bare command name such as \"git\"", n)
		}
	}
	for _, d := range r.CwdUnder {
		if !path.IsAbs(d) && d != "~" && !strings.HasPrefix(d, "~/") {
			return fmt.Errorf("cwd_under %q must be an absolute or ~/-relative directory", d)
		}
	}
	return nil
}

// checkPlace accepts "workspace" and absolute or ~/-relative path globs.
func checkPlace(p string) error {
	switch {
	case p == PlaceWorkspace:
		return nil
	case p == "/" || p == "~" || p == "~/":
		return fmt.Errorf("%q would cover every path; name the directories you mean", p)
	case path.IsAbs(p), strings.HasPrefix(p, "~/"):
		for _, el := range strings.Split(p, "/") {
			if _, err := path.Match(el, ""); err != nil {
				return fmt.Errorf("bad glob pattern %q", p)
			}
		}
		return nil
	}
	return fmt.Errorf("%q is neither %q nor an absolute or ~/-relative path", p, PlaceWorkspace)
}

// matches reports whether the rule covers the unit. Every condition the rule sets must hold.
func (r *UserRule) matches(u *policyUnit) bool {
	if r.Kind != u.kind && !(r.Kind == "" && u.kind == KindExec) {
		return false
	}
	if u.kind == KindMCP {
		if r.Glob == "" {
			return false
		}
		g := strings.ToLower(r.Glob)
		if !slices.ContainsFunc(u.subjects, func(s string) bool { return WildcardMatch(g, s) }) {
			return false
		}
	} else {
		args := u.seg.Args
		if len(args) == 0 {
			return false
		}
		if (len(r.Prefix) > 0 || r.Glob != "" || r.Regex != nil) && !r.matchesArgs(args) {
			return false
		}
		if len(r.Commands) > 0 && !slices.Contains(r.Commands, baseName(args[0])) {
			return false
		}
		if len(r.CwdUnder) > 0 {
			for _, d := range u.paths().dirs {
				if d == "" || !r.under(u.scope, r.CwdUnder, d) {
					return false
				}
			}
		}
	}
	if len(r.PathsWithin) > 0 {
		f := u.paths()
		if f.opaque {
			return false
		}
		for _, p := range f.named {
			if p == "" || !r.under(u.scope, r.PathsWithin, p) {
				return false
			}
		}
	}
	return true
}

// under reports whether abs lies in one of places ("workspace" or path globs that also cover
// what is below them).
func (r *UserRule) under(sc *Scope, places []string, abs string) bool {
	for _, p := range places {
		if p == PlaceWorkspace {
			if sc.Zone(abs) == ZoneWorkspace {
				return true
			}
			continue
		}
		if MatchPathGlob(sc.expandHome(p), abs, true) {
			return true
		}
	}
	return false
}

// matchesArgs reports whether an exec rule's text pattern (prefix, glob or regex) matches a
// command's argv.
func (r *UserRule) matchesArgs(args []string) bool {
	switch {
	case len(r.Prefix) > 0:
		if len(args) < len(r.Prefix) {
			return false
		}
		for i, p := range r.Prefix {
			a := args[i]
			if i == 0 {
				a = baseName(a)
				p = baseName(p)
			}
			if a != p {
				return false
			}
		}
		return true
	case r.Glob != "":
		return WildcardMatch(r.Glob, strings.Join(args, " "))
	case r.Regex != nil:
		return r.Regex.MatchString(strings.Join(args, " "))
	}
	return false
}

func baseName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// overridable reports whether a user allow rule may lower a finding: not one the policy
// already decided (another user rule, a protected path, an exec command inside an MCP call,
// judged by exec rules), and never one the built-in rules deny because they are sure —
// critical findings and certain high ones (docs/policy.md: certain harm is denied).
func overridable(f *Finding) bool {
	return f.Decision == 0 && f.Level < Critical && !(f.Level == High && f.Certain)
}

// applyPolicy applies protected paths and the user rules to one unit's findings and returns
// them, with the id of the allow rule that changed a decision ("" if none).
//
// Protected paths: a unit that changes one gets a critical finding (denied; no rule or model
// can allow it); one that only names one gets a high finding decided ask (the human decides,
// no model can allow it).
//
// User rules, most restrictive first whatever their order: a deny or ask rule adds a finding
// with that decision, rated at least high so that no model can turn it into allow; an allow
// rule lowers the unit's other findings to allow, except those overridable refuses.
func (a *Analyzer) applyPolicy(u *policyUnit, fs []Finding) ([]Finding, string) {
	if len(u.scope.Protected) > 0 {
		f := u.paths()
		hit := ""
		for _, p := range f.changed {
			if p != "" && u.scope.IsProtected(p) {
				hit = p
				break
			}
		}
		if hit != "" {
			fs = append(fs, Finding{RuleID: "policy.protected", Segment: u.label, Level: Critical, Category: CatDataDeletion,
				Decision: Deny, Message: fmt.Sprintf("Changes %s, which your policy protects", hit)})
		} else {
			for _, p := range f.named {
				if p != "" && u.scope.IsProtected(p) {
					fs = append(fs, Finding{RuleID: "policy.protected-read", Segment: u.label, Level: High, Category: CatReadOnly,
						Decision: Ask, Message: fmt.Sprintf("Reads %s, which your policy protects", p)})
					break
				}
			}
		}
	}
	if len(a.policy.Rules) == 0 {
		return fs, ""
	}
	var allow *UserRule
	worst := Finding{Level: Low, Category: CatNone}
	for _, f := range fs {
		if f.Level > worst.Level || worst.Message == "" {
			worst = f
		}
	}
	for i := range a.policy.Rules {
		r := &a.policy.Rules[i]
		if !r.matches(u) {
			continue
		}
		switch r.Decision {
		case Deny, Ask:
			verb := "denied"
			if r.Decision == Ask {
				verb = "held for the human"
			}
			base := strings.TrimSuffix(worst.Message, ".")
			if base == "" {
				base = "Runs " + quoteName(u.label)
			}
			reason := ""
			if r.Reason != "" {
				reason = ": " + mcpCleanText(r.Reason, 200)
			}
			fs = append(fs, Finding{RuleID: r.ID, Segment: u.label, Level: max(High, worst.Level), Category: worst.Category,
				Decision: r.Decision, Message: fmt.Sprintf("%s; %s by your rule %s%s", base, verb, r.ID, reason)})
		case Allow:
			if allow == nil {
				allow = r
			}
		}
	}
	if allow == nil {
		return fs, ""
	}
	m := a.policy.mappingFor(u.kind)
	used := ""
	for i := range fs {
		f := &fs[i]
		if !overridable(f) || m.Decide(f.Level, f.Contained, f.Certain) == Allow {
			continue
		}
		f.Decision = Allow
		f.Message = strings.TrimSuffix(f.Message, ".") + " (allowed by your rule " + allow.ID + ")"
		used = allow.ID
	}
	return fs, used
}

// isUserRule reports whether id names one of the policy's user rules.
func (a *Analyzer) isUserRule(id string) bool {
	for _, r := range a.policy.Rules {
		if r.ID == id {
			return true
		}
	}
	return false
}
