package riskmodel

import (
	"path"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// regenerable names directories and files that builds recreate: deleting them inside the
// workspace is routine clean-up.
var regenerable = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"node_modules": true, "dist": true, "build": true, "target": true, "out": true, ".next": true, ".nuxt": true,
		"coverage": true, "__pycache__": true, ".pytest_cache": true, ".mypy_cache": true, ".ruff_cache": true,
		".cache": true, ".venv": true, "venv": true, ".tox": true, ".gradle": true, "tmp": true, ".turbo": true,
		".parcel-cache": true, ".eslintcache": true, "bin": true, "obj": true, ".terraform": true,
		"site": true, "_site": true, ".svelte-kit": true, ".angular": true, ".output": true, "htmlcov": true,
		".nyc_output": true, "storybook-static": true, ".docusaurus": true, "logs": true,
	}
}}

var regenerableExt = []string{".pyc", ".pyo", ".o", ".a", ".so", ".class", ".log", ".tmp", ".test", ".out", ".egg-info", ".orig", ".rej", ".bak"}

func isRegenerable(abs string) bool {
	base := path.Base(abs)
	if regenerable.get()[base] {
		return true
	}
	for _, e := range regenerableExt {
		if strings.HasSuffix(base, e) {
			return true
		}
	}
	for _, part := range strings.Split(abs, "/") {
		if part == "node_modules" || part == "__pycache__" || part == ".cache" {
			return true
		}
	}
	return false
}

// deletion returns what a segment deletes: rm, rmdir, unlink, shred, find -delete, trash,
// git rm is handled by the vcs rules. recursive is true for tree deletions.
func deletion(s *Segment) (targets []string, recursive bool, ok bool) {
	switch s.Name() {
	case "rm":
		return s.positional(0), s.hasFlag("rR", "--recursive"), true
	case "rmdir", "unlink", "trash", "trash-put", "gio":
		if s.Name() == "gio" && s.sub(0) != "trash" && s.sub(0) != "remove" {
			return nil, false, false
		}
		return s.positional(0), false, true
	case "shred", "srm", "wipe":
		return s.positional(0, "-n", "-s", "--iterations", "--size"), s.hasFlag("r", "--recursive"), true
	case "rsync":
		// rsync --delete removes whatever below the destination the source lacks: with an
		// empty source, everything. A remote destination (host:path) is not this machine's.
		if dst := rsyncDeleteDest(s); dst != "" {
			return []string{strings.TrimSuffix(dst, "/") + "/{}"}, true, true
		}
	case "find":
		if s.arg("-delete") {
			// find deletes what it matches below its roots, not the roots themselves.
			var ts []string
			for _, r := range findRoots(s.Args) {
				ts = append(ts, findPlaceholder(s.Args, r))
			}
			// A filtered find deletes some files below its roots, not the trees.
			return ts, !findFiltered(s.Args), true
		}
	}
	return nil, false, false
}

func fsRules() []*Rule {
	return []*Rule{
		{
			ID: "fs.rm.vital", Level: Critical, Category: CatDataDeletion,
			Message: "Recursively deletes a vital directory (/, the home directory, a system directory or a parent of the workspace)",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts, rec, ok := deletion(s)
				if !ok {
					return "", false
				}
				for _, t := range c.targets(ts) {
					vital := t.zone == ZoneVital
					if rec && t.zone == ZoneHome && c.homeDepth(t.abs) == 1 {
						vital = true // a top-level folder of home: ~/Documents, ~/.ssh, ~/src
					}
					if rec && t.zone == ZoneSystem && strings.Count(t.abs, "/") <= 3 && !isTempRoot(t.abs) {
						vital = true // /var/lib/postgresql, /etc/nginx, /usr/local/bin
					}
					if vital && (rec || t.abs == "/" || t.zone == ZoneVital && isTopLevelSystem(t.abs)) {
						return "Recursively deletes " + c.where(t), true
					}
					if isCriticalSystemFile(t.abs) {
						return "Deletes " + t.abs + ", " + criticalFileWhat(t.abs), true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.rm.outside", Level: High, Category: CatDataDeletion,
			Message: "Deletes files outside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts, rec, ok := deletion(s)
				if !ok {
					return "", false
				}
				for _, t := range c.targets(ts) {
					if t.zone == ZoneHome && rec && c.homeDepth(t.abs) == 1 || t.zone == ZoneHome && inHomeCache(c, t.abs) {
						continue // fs.rm.vital, fs.rm.cache
					}
					if t.zone == ZoneSystem && rec && strings.Count(t.abs, "/") <= 3 && !isTempRoot(t.abs) || isCriticalSystemFile(t.abs) {
						continue
					}
					switch t.zone {
					case ZoneHome, ZoneSystem, ZoneUnknown:
						verb := "Deletes "
						if rec {
							verb = "Recursively deletes "
						}
						return verb + c.where(t), true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.rm.workspace-root", Level: High, Category: CatDataDeletion,
			Message: "Recursively deletes the whole workspace or its version history",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts, rec, ok := deletion(s)
				if !ok || !rec {
					return "", false
				}
				for _, t := range c.targets(ts) {
					if t.abs != "" && c.scope.IsWorkspaceRoot(t.abs) {
						return "Recursively deletes " + t.abs + " (the whole workspace)", true
					}
					if t.zone == ZoneWorkspace && path.Base(t.abs) == ".git" {
						return "Deletes the repository's history (" + t.arg + ")", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.rm.workspace-tree", Level: Medium, Category: CatDataDeletion,
			Message: "Recursively deletes a source directory inside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts, rec, ok := deletion(s)
				if !ok || !rec || s.Name() == "find" || s.Name() == "rsync" {
					return "", false
				}
				for _, t := range c.targets(ts) {
					if t.zone == ZoneWorkspace && !c.scope.IsWorkspaceRoot(t.abs) && !isRegenerable(t.abs) && path.Base(t.abs) != ".git" && !HasGlob(t.arg) {
						return "Recursively deletes " + c.where(t), true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.rm.workspace", Level: Medium, Category: CatDataDeletion, Contained: true,
			Message: "Deletes files inside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts, rec, ok := deletion(s)
				if !ok {
					return "", false
				}
				all, temp := len(ts) > 0, false
				for _, t := range c.targets(ts) {
					if t.zone != ZoneWorkspace && t.zone != ZoneTemp || rec && c.scope.IsWorkspaceRoot(t.abs) {
						all = false
					}
					temp = temp || t.zone == ZoneTemp
				}
				if !all {
					return "", false
				}
				where := "inside the workspace"
				if temp {
					where = "inside the workspace or a temporary directory"
				}
				if regen(c, ts) {
					return "Deletes build output or caches (" + joinArgs(ts) + ") " + where + ", which a build recreates", true
				}
				return "Deletes " + joinArgs(ts) + " " + where, true
			},
		},
		{
			// docs/policy.md asks about "deleting caches or build dirs outside the workspace":
			// they come back, but a human decides whether to pay for the rebuild and whether
			// something else shares them. Not contained, so the default mapping asks.
			ID: "fs.rm.cache", Level: Medium, Category: CatDataDeletion,
			Message: "Deletes tool caches or build directories outside the workspace, which their tools recreate",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts, rec, ok := deletion(s)
				if !ok || len(ts) == 0 {
					return "", false
				}
				outside := false
				for _, t := range c.targets(ts) {
					if !(t.zone == ZoneHome && inHomeCache(c, t.abs)) && t.zone != ZoneWorkspace && t.zone != ZoneTemp {
						return "", false
					}
					outside = outside || t.zone == ZoneHome || t.zone == ZoneTemp && rec && (tempCacheDir(t.abs, t.arg) || tempProjectDir(c.scope, t.abs))
				}
				if !outside {
					return "", false // inside the workspace, or scratch files in a temporary directory: fs.rm.workspace
				}
				return "Deletes caches or build directories outside the workspace (" + joinArgs(ts) + "), which their tools download or build again", true
			},
		},
		{
			ID: "fs.write.authorized-keys", Level: Critical, Category: CatPersistence,
			Message: "Writes to SSH authorized_keys or sshd config, granting remote login",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if e, ok := c.inClass(catalog.Persistence, t); ok && e.ID == "ssh.authorized-keys" {
						return "Writes " + orStr(t.abs, t.arg) + ", granting remote login to whoever holds the key", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.startup", Level: Critical, Category: CatPersistence,
			Message: "Changes a shell startup file, an autostart location or a tool's startup file, so code runs unattended later",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if e, ok := c.inClass(catalog.Persistence, t); ok && e.Severity == "" && e.ID != "ssh.authorized-keys" {
						return "Changes " + orStr(t.abs, t.arg) + " (" + e.What + "), which runs unattended later", true
					}
				}
				return "", false
			},
		},
		{
			// Writing a credential store is tampering with the user's credentials: replacing
			// ~/.aws/credentials or ~/.netrc destroys what the user kept there (docs/policy.md
			// denies destroying data in home that is not a cache); adding an entry swaps in
			// credentials the user never chose, which a person should decide (asked, high so
			// that no model's allow stands). Stores that are also startup files (.npmrc,
			// .ssh/config) are persistence and judged by fs.write.startup; the project's own
			// .env inside the workspace is routine.
			ID: "fs.write.credential", Level: High, Category: CatCredentialAccess,
			CertainWhen: "it truncates the store and writes it anew (> or tee), destroying the credentials the user kept there",
			Message:     "Writes a credential store outside the workspace (keys, cloud credentials, .netrc, tokens)",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if t.zone == ZoneWorkspace || t.zone == ZoneTemp || t.zone == ZoneDevNull || c.specialWrite(t) {
						continue
					}
					e, ok := c.inClass(catalog.Credential, t)
					if !ok {
						continue
					}
					if !overwrites(s, t.arg) {
						// An append, or a copy or move whose destination may not exist yet
						// (mv ~/.ssh/config ~/.ssh/config.bak): asked.
						return "Writes " + orStr(t.abs, t.arg) + " (" + e.What + "), changing the credentials the user's tools use", true
					}
					c.certainty = certaintySure
					return "Replaces " + orStr(t.abs, t.arg) + " (" + e.What + "), destroying the credentials kept there", true
				}
				return "", false
			},
		},
		{
			ID: "fs.write.git-hook", Level: High, Category: CatPersistence,
			CertainWhen: "it writes the repository's own hooks directory (.git/hooks), which nobody reviews, or hooks outside the workspace (a hooks template or global hooks directory in home, copied into or run for every repository)",
			Message:     "Writes a git hook, which git runs on its own at the next commit, checkout or push",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if e, ok := c.inClass(catalog.Persistence, t); ok && e.Severity == "high" {
						// .git/hooks is outside version control; a hook manager's tracked
						// directory (.husky) is the project's own, reviewed file: asked about.
						if strings.Contains(orStr(t.abs, t.arg), ".git/hooks/") || t.zone != ZoneWorkspace {
							c.certainty = certaintySure
						}
						return "Changes " + orStr(t.abs, t.arg) + " (" + e.What + "), which runs on its own later", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.autorun", Level: High, Category: CatPersistence,
			CertainWhen: "what runs by itself fetches or runs remote code, or the file preloads a library",
			Message:     "Writes a project file a tool runs by itself (an editor task on folder open, a package lifecycle script, a pre-commit hook)",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				// Only a command that writes a file (or sets a package script) can plant one;
				// writeTargets is memoised per segment, so this is the cheap test.
				if n := s.Name(); len(writeTargets(c, s)) == 0 && n != "npm" && n != "pnpm" && n != "yarn" && n != "bun" {
					return "", false
				}
				// Then only content that asks for an unattended run matters; an ordinary build
				// task or launch configuration is routine project work.
				body := s.Stdin + " " + strings.Join(s.Args, " ")
				if s.PipeIn != nil {
					body += " " + s.PipeIn.Stdin + " " + strings.Join(s.PipeIn.Args, " ")
				}
				if msg, ok := toolAutorunWrite(c, s, body); ok {
					return msg, true
				}
				folderOpen := mcpReFolderOpenTask.MatchString(body)
				loader := mcpReLoaderEnv.FindString(body)
				if !folderOpen && loader == "" {
					return "", false
				}
				for _, t := range writeTargets(c, s) {
					what, ok := mcpEditorStartupFile(orStr(t.abs, t.arg))
					if !ok {
						continue
					}
					if loader != "" {
						c.certainty = certaintySure
						return "Writes " + orStr(t.abs, t.arg) + " (" + what + ") with " + loader + ": every program started from it loads code it names", true
					}
					if m := mcpReRemoteCode.FindString(body); m != "" {
						c.certainty = certaintySure
						return "Writes " + orStr(t.abs, t.arg) + " (" + what + ") with a task that runs on opening the folder and fetches or runs remote code (" + m + ")", true
					}
					return "Writes " + orStr(t.abs, t.arg) + " (" + what + ") with a task that runs by itself whenever the folder is opened", true
				}
				return "", false
			},
		},
		{
			ID: "fs.write.agent-config", Level: Critical, Category: CatSecurityWeakening,
			Message: "Changes the permission or approval settings of a coding agent or of guardian",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts := writeTargets(c, s)
				if del, _, ok := deletion(s); ok {
					ts = append(ts, c.targets(del)...)
				}
				for _, t := range ts {
					if e, ok := c.inClass(catalog.AgentConfig, t); ok {
						return "Changes " + orStr(t.abs, t.arg) + " (" + e.What + "), which decides what a coding agent may do without asking", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.agent-bypass", Level: Critical, Category: CatSecurityWeakening,
			Message: "Switches a coding agent's approvals off",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				// The cheap test first: only a segment that names a bypass setting can match,
				// so the scan of the request's write targets is rare.
				j := strings.Join(s.Args, " ")
				key := ""
				for _, k := range []string{"bypassPermissions", "dangerously", "approval_policy = \"never\"", "approval_policy=\"never\"", "danger-full-access", "Bash(*)", "full-auto"} {
					if strings.Contains(j, k) {
						key = k
						break
					}
				}
				if key == "" {
					return "", false
				}
				for _, o := range c.segs {
					for _, t := range writeTargets(c, o) {
						if _, ok := c.inClass(catalog.AgentConfig, t); ok {
							return "Writes " + key + " into a coding agent's settings, so it stops asking before it acts", true
						}
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.priv-files", Level: Critical, Category: CatPrivilegeEscalation,
			Message: "Writes the system's account or sudo configuration",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if _, ok := c.inClass(catalog.Privilege, t); ok {
						return "Writes " + orStr(t.abs, t.arg) + ", which controls who can become root", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.security-config", Level: Critical, Category: CatSecurityWeakening,
			Message: "Writes the configuration of a security control (firewall, SELinux/AppArmor, audit, trust store)",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if e, ok := c.inClass(catalog.SecurityControl, t); ok {
						return "Writes " + orStr(t.abs, t.arg) + " (" + e.What + "), switching a protection off or around", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.device", Level: Critical, Category: CatDataDeletion,
			Message: "Writes directly to a disk device, destroying its filesystem",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if isBlockDevice(t.abs) {
						return "Writes raw data to " + t.abs + ", destroying what is on that disk", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.system", Level: High, Category: CatSystemModification,
			Message: "Writes files in a system location",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if (t.zone == ZoneSystem || t.zone == ZoneVital) && !isBlockDevice(t.abs) && !c.specialWrite(t) {
						return "Writes " + t.abs + ", a system location", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.home", Level: Medium, Category: CatSystemModification,
			Message: "Writes files in the home directory, outside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if t.zone == ZoneHome && !c.specialWrite(t) {
						return "Writes " + c.where(t), true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.unknown", Level: Medium, Category: CatNone,
			Message: "Writes to a file whose location cannot be resolved",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if d, ok := stampedNameDir(c, s, t); ok && (d.zone == ZoneWorkspace || d.zone == ZoneTemp) {
						continue // /tmp/coverage-$(date +%s).tgz: a new file in a known directory
					}
					if t.zone == ZoneUnknown {
						return "Writes to " + c.where(t), true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.move-outside", Level: High, Category: CatDataDeletion,
			Message: "Moves files away from a location outside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if s.Name() != "mv" {
					return "", false
				}
				p := s.positional(0, "-t", "--target-directory", "-S", "--suffix")
				if len(p) < 2 {
					return "", false
				}
				for _, t := range c.targets(p[:len(p)-1]) {
					if t.zone == ZoneHome || t.zone == ZoneSystem || t.zone == ZoneVital || t.zone == ZoneUnknown {
						return "Moves " + c.where(t) + " away", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.truncate", Level: Medium, Category: CatDataDeletion, Contained: true,
			Message: "Empties files inside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts := truncTargets(c, s)
				if len(ts) == 0 {
					return "", false
				}
				for _, t := range ts {
					if t.zone != ZoneWorkspace && t.zone != ZoneTemp && t.zone != ZoneDevNull {
						return "", false
					}
				}
				return "Empties " + ts[0].arg + " inside the workspace", true
			},
		},
		{
			ID: "fs.truncate.outside", Level: High, Category: CatDataDeletion,
			Message: "Empties or overwrites files outside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range truncTargets(c, s) {
					if t.zone == ZoneHome || t.zone == ZoneSystem || t.zone == ZoneVital || t.zone == ZoneUnknown {
						return "Empties " + c.where(t), true
					}
				}
				return "", false
			},
		},
	}
}

func regen(c *execCtx, ts []string) bool {
	for _, t := range c.targets(ts) {
		if t.zone == ZoneTemp {
			continue
		}
		if !isRegenerable(t.abs) {
			return false
		}
	}
	return true
}

// writeTargetsCompute returns the files a segment writes: output redirections and the
// destination arguments of writing commands. writeTargets keeps the answer.
func writeTargetsCompute(c *execCtx, s *Segment) []target {
	var out []target
	for _, r := range s.Redirs {
		if r.Writes() && r.Target != "" {
			out = append(out, c.target(r.Target))
		}
	}
	var dests []string
	switch s.Name() {
	case "cp", "install", "ln", "rsync", "ditto":
		if d, ok := optValue(s.Args[1:], "-t", "--target-directory"); ok {
			dests = append(dests, d)
		} else if p := s.positional(0, "-S", "--suffix", "-m", "--mode", "-o", "-g", "--owner", "--group", "-e", "--exclude", "--include", "--filter"); len(p) >= 2 {
			if s.Name() != "rsync" || !strings.Contains(p[len(p)-1], ":") {
				dests = append(dests, p[len(p)-1])
			}
		}
	case "mv":
		if d, ok := optValue(s.Args[1:], "-t", "--target-directory"); ok {
			dests = append(dests, d)
		} else if p := s.positional(0, "-S", "--suffix"); len(p) >= 2 {
			dests = append(dests, p[len(p)-1])
		}
	case "exiftool", "mogrify", "pngquant", "optipng", "jpegoptim", "svgo", "prettier", "black", "gofmt", "rustfmt", "clang-format", "xmllint":
		// In-place tools: what they are given is what they rewrite (with their write flag).
		if s.Name() == "xmllint" && !s.arg("--output", "-o") || s.Name() == "prettier" && !s.hasFlag("w", "--write") ||
			s.Name() == "gofmt" && !s.hasFlag("w") || s.Name() == "clang-format" && !s.hasFlag("i") {
			break
		}
		dests = s.positional(0, "-o", "--output", "--ext", "-tagsFromFile", "-TagsFromFile", "--config")
	case "tee", "touch", "mkdir", "mkfifo", "mknod", "sponge", "dos2unix", "unix2dos", "ed", "ex":
		if (s.Name() == "dos2unix" || s.Name() == "unix2dos") && s.hasFlag("O", "--to-stdout") {
			break // -O prints the converted file instead of rewriting it (GTFOBins dos2unix file-read)
		}
		dests = s.positional(0, "-m", "--mode", "-d", "-r", "-t", "--date", "--reference")
	case "patch":
		if o, ok := optValue(s.Args[1:], "-o", "--output"); ok {
			dests = append(dests, o)
		} else if p := s.positional(0, "-p", "-d", "-i", "--input", "-F", "-D", "-B", "-z", "-V", "-r", "--directory", "--strip"); len(p) > 0 {
			dests = append(dests, p[0])
		}
	case "yq":
		if s.hasFlag("i", "--inplace") {
			if p := s.positional(0, "-o", "--output-format", "-p", "--input-format"); len(p) > 1 {
				dests = p[1:]
			}
		}
	case "scp":
		if p := s.positional(0, "-i", "-P", "-o", "-F", "-l", "-J", "-c", "-S"); len(p) >= 2 && !isRemoteSpec(p[len(p)-1]) {
			dests = append(dests, p[len(p)-1])
		}
	case "sed", "perl", "ruby", "gsed":
		if s.hasFlag("i", "--in-place") || hasInPlace(s) {
			p := s.positional(0, "-e", "-f", "--expression", "--file")
			if !s.hasFlag("ef", "--expression", "--file") && len(p) > 0 {
				p = p[1:] // the script
			}
			dests = p
		}
	case "dd":
		for _, a := range s.Args[1:] {
			if strings.HasPrefix(a, "of=") {
				dests = append(dests, a[3:])
			}
		}
	case "curl", "wget":
		if o, ok := optValue(s.Args[1:], "-o", "--output", "-O", "--output-document"); ok && !(s.Name() == "curl" && o == "-") && !strings.HasPrefix(o, "http") {
			if !(s.Name() == "curl" && (o == "" || strings.HasPrefix(o, "-"))) {
				dests = append(dests, o)
			}
		}
		if d, ok := optValue(s.Args[1:], "-P", "--directory-prefix", "--output-dir"); ok {
			dests = append(dests, d)
		}
	case "tar", "unzip", "bsdtar":
		if d, ok := optValue(s.Args[1:], "-C", "--directory", "-d"); ok {
			dests = append(dests, d)
		} else if f, ok := tarCreatedArchive(s); ok && s.Name() != "unzip" {
			dests = append(dests, f)
		}
	case "git":
		if s.sub(0, gitGlobalOpts()...) == "clone" {
			p := s.positional(0, gitGlobalOpts()...)
			if len(p) >= 3 {
				dests = append(dests, p[2])
			}
		}
	case "ssh-keygen":
		if f, ok := optValue(s.Args[1:], "-f"); ok && !s.hasFlag("lyF") {
			dests = append(dests, f)
		}
	case "sqlite3", "sqlite", "duckdb", "sqlcipher":
		dests = sqliteWrites(s)
	default:
		dests = catalogOutputs(s)
	}
	dests = append(dests, toolOptionWrites(s)...) // iconv -o, strace -o, script FILE, sed w (toolfiles.go)
	out = append(out, optionWriteTargets(c, s, dests)...)
	for _, d := range dests {
		if d == "-" || d == "" {
			continue
		}
		t := c.target(d)
		if t.zone == ZoneUnknown && d == "$(…)" && listsWorkspacePaths(c, s) {
			t.zone = ZoneWorkspace // sed -i … $(git ls-files '*.md'): the repository's own files
		}
		out = append(out, t)
	}
	// Copying into a directory writes the sources' names there: cp x.pth site-packages/.
	switch s.Name() {
	case "cp", "mv", "install", "ln", "rsync", "scp", "ditto":
		if len(dests) == 1 && strings.HasSuffix(dests[0], "/") {
			p := s.positional(0, "-S", "--suffix", "-m", "--mode", "-o", "-g", "--owner", "--group", "-e", "--exclude", "--include", "--filter", "-t", "--target-directory", "-i", "-P", "-F")
			for i, src := range p {
				if i == len(p)-1 && src == dests[0] || src == "" || strings.HasSuffix(src, "/") {
					continue
				}
				out = append(out, c.target(dests[0]+path.Base(src)))
			}
		}
	}
	return out
}

// listsWorkspacePaths reports a segment whose substituted words all come from commands that
// print paths of the workspace, relative to a directory inside it: git ls-files, git diff
// --name-only, git grep -l, rg -l / --files, grep -rl, fd, find with relative start points.
// Their output names the project's own files, so an in-place edit of it stays in the
// workspace. Any other feed (cat list.txt, echo, a pipeline) leaves the targets unknown.
func listsWorkspacePaths(c *execCtx, s *Segment) bool {
	if len(s.Feeds) == 0 || c.target(".").zone != ZoneWorkspace {
		return false
	}
	for _, f := range s.Feeds {
		if f.PipeIn != nil || f.Dynamic || f.Privileged {
			return false
		}
		args := f.Args[1:]
		relative := func(ps []string) bool {
			for _, p := range ps {
				if t := c.target(p); t.zone != ZoneWorkspace || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.Contains(p, "..") {
					return false
				}
			}
			return true
		}
		switch f.Name() {
		case "git":
			sub, rest := gitSub(f)
			switch {
			case sub == "ls-files", sub == "diff" && (containsArg(rest, "--name-only") || containsArg(rest, "--name-status")),
				sub == "grep" && (containsArg(rest, "-l") || containsArg(rest, "--files-with-matches") || containsArg(rest, "--name-only")):
				if containsArg(f.Args, "-C") || containsArg(rest, "--full-name") && !c.scope.IsWorkspaceRoot(c.target(".").abs) {
					return false
				}
			default:
				return false
			}
		case "rg", "grep", "ag":
			if !f.hasFlag("l", "--files-with-matches", "--files") {
				return false
			}
			if p := f.positional(0, "-e", "-g", "--glob", "-t", "--type", "-T", "--type-not", "--include", "--exclude", "-m", "--max-count"); len(p) > 1 && !relative(p[1:]) {
				return false
			}
		case "fd", "fdfind", "find":
			var starts []string
			for _, a := range args {
				if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "(") || a == "!" {
					break
				}
				starts = append(starts, a)
			}
			if f.Name() != "find" && len(starts) > 1 {
				starts = starts[1:] // fd PATTERN [PATH…]
			} else if f.Name() != "find" {
				starts = nil
			}
			if containsArg(args, "-L") || containsArg(args, "--follow") || !relative(starts) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func hasInPlace(s *Segment) bool {
	for _, a := range s.Args[1:] {
		if strings.HasPrefix(a, "-i") || a == "-pi" || strings.HasPrefix(a, "-pi") {
			return true
		}
	}
	return false
}

// truncTargets returns files a segment empties: truncate -s 0, "> file" with no command,
// ": > file", "cat /dev/null > file".
func truncTargets(c *execCtx, s *Segment) []target {
	var out []target
	if s.Name() == "truncate" {
		return c.targets(s.positional(0, "-s", "--size", "-r", "--reference"))
	}
	n := s.Name()
	if n == "" || n == ":" || n == "true" || (n == "cat" && s.arg("/dev/null")) || (n == "echo" && len(s.Args) == 1) {
		for _, r := range s.Redirs {
			if (r.Op == ">" || r.Op == ">|" || r.Op == "&>") && (r.Fd == "" || r.Fd == "1") {
				if t := c.target(r.Target); t.zone != ZoneDevNull {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// specialWrite reports a write target that a more specific rule judges: persistence, agent
// configuration, privilege or security-control files.
func (c *execCtx) specialWrite(t target) bool {
	for _, cl := range []catalog.Class{catalog.Persistence, catalog.AgentConfig, catalog.Privilege, catalog.SecurityControl} {
		if _, ok := c.inClass(cl, t); ok {
			return true
		}
	}
	return false
}

// homeCaches are directories under home that hold only downloaded or generated caches, which
// the tools that own them recreate.
var homeCaches = []string{".cache", "Library/Caches", ".npm/_cacache", ".npm/_npx", ".cargo/registry/cache", ".cargo/git/checkouts",
	"Library/Developer/Xcode/DerivedData", ".gradle/caches", ".m2/repository", ".pnpm-store", ".yarn/berry/cache", "go/pkg/mod/cache",
	".bun/install/cache", ".deno/deps", ".nuget/packages", ".ivy2/cache", ".sbt/boot", ".rustup/downloads", ".rustup/tmp", ".expo", ".nx/cache"}

// inHomeCache reports whether abs is a cache directory in home or lies below one; the
// catch-all roots (~/.cache, ~/Library/Caches) count only below, as some apps keep state there.
func inHomeCache(c *execCtx, abs string) bool {
	for _, p := range homeCaches {
		dir := path.Join(c.scope.Home, p)
		if strings.HasPrefix(abs, dir+"/") || abs == dir && p != ".cache" && p != "Library/Caches" {
			return true
		}
	}
	return false
}

func isTempRoot(abs string) bool {
	return abs == "/tmp" || abs == "/var/tmp" || abs == "/private/tmp" || abs == "/dev/shm"
}

// isCriticalSystemFile names files whose loss stops the machine from booting or anyone from
// logging in.
func isCriticalSystemFile(abs string) bool {
	return abs != "" && catalog.Default().Is(catalog.SystemCritical, abs, "")
}

func isBlockDevice(abs string) bool {
	for _, p := range []string{"/dev/sd", "/dev/nvme", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/mmcblk", "/dev/disk", "/dev/rdisk", "/dev/md", "/dev/dm-", "/dev/mapper/", "/dev/loop"} {
		if strings.HasPrefix(abs, p) {
			return true
		}
	}
	return false
}

// isStartupPath reports a persistence location of the catalogue, for any user's home.
func isStartupPath(sc *Scope, abs string) bool {
	return abs != "" && catalog.Default().Is(catalog.Persistence, abs, sc.Home)
}

// npmLifecycleScripts are the package.json scripts a package manager runs by itself on
// install, pack or publish (npm docs: scripts, "Life Cycle Scripts").
var npmLifecycleScripts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"preinstall": true, "install": true, "postinstall": true, "prepare": true,
		"prepublish": true, "prepublishOnly": true, "prepack": true, "postpack": true, "dependencies": true}
}}

// toolAutorunWrite finds content that fetches or runs remote code written where a tool runs it
// by itself: a package.json lifecycle script (npm/pnpm pkg set scripts.postinstall=…), a
// pre-commit hook definition (.pre-commit-config.yaml, run on every commit). An ordinary
// script or hook is project work; one that runs what a server sends is remote code made
// persistent.
func toolAutorunWrite(c *execCtx, s *Segment, body string) (string, bool) {
	remote := mcpReRemoteCode.FindString(body)
	if remote == "" {
		return "", false
	}
	if n := s.Name(); (n == "npm" || n == "pnpm" || n == "yarn" || n == "bun") && s.sub(0) == "pkg" && s.sub(1) == "set" {
		for _, a := range s.Args[3:] {
			k, v, ok := strings.Cut(a, "=")
			if ok && strings.HasPrefix(k, "scripts.") && npmLifecycleScripts.get()[strings.TrimPrefix(k, "scripts.")] && mcpReRemoteCode.MatchString(v) {
				c.certainty = certaintySure
				return "Sets the package's " + strings.TrimPrefix(k, "scripts.") + " script, which the package manager runs by itself, to code that fetches or runs remote code (" + remote + ")", true
			}
		}
	}
	for _, t := range writeTargets(c, s) {
		if b := path.Base(orStr(t.abs, t.arg)); b == ".pre-commit-config.yaml" || b == ".pre-commit-config.yml" || b == "lefthook.yml" || b == ".lefthook.yml" {
			c.certainty = certaintySure
			return "Writes " + orStr(t.abs, t.arg) + " (hooks run on every commit) with a hook that fetches or runs remote code (" + remote + ")", true
		}
	}
	return "", false
}

// overwrites reports whether a segment truncates arg and writes it anew (> or tee without
// -a), so what the file held before is lost.
func overwrites(s *Segment, arg string) bool {
	for _, r := range s.Redirs {
		if r.Target == arg && r.Writes() {
			return r.Op != ">>" && r.Op != "&>>"
		}
	}
	return s.Name() == "tee" && !s.hasFlag("a", "--append")
}
