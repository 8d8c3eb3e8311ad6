package riskmodel

import (
	"fmt"
	"path"
	"strings"
)

// regenerable names directories and files that builds recreate: deleting them inside the
// workspace is routine clean-up.
var regenerable = map[string]bool{
	"node_modules": true, "dist": true, "build": true, "target": true, "out": true, ".next": true, ".nuxt": true,
	"coverage": true, "__pycache__": true, ".pytest_cache": true, ".mypy_cache": true, ".ruff_cache": true,
	".cache": true, ".venv": true, "venv": true, ".tox": true, ".gradle": true, "tmp": true, ".turbo": true,
	".parcel-cache": true, ".eslintcache": true, "bin": true, "obj": true, ".terraform": true,
	"site": true, "_site": true, ".svelte-kit": true, ".angular": true, ".output": true, "htmlcov": true,
	".nyc_output": true, "storybook-static": true, ".docusaurus": true, "logs": true,
}

var regenerableExt = []string{".pyc", ".pyo", ".o", ".a", ".so", ".class", ".log", ".tmp", ".test", ".out", ".egg-info", ".orig", ".rej", ".bak"}

func isRegenerable(abs string) bool {
	base := path.Base(abs)
	if regenerable[base] {
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
			Match:   []string{"rm -rf ~/", "rm -rf /", "sudo rm -rf /var/lib", "rm -rf $HOME", "rm -fr ~/*", "rm -rf ..", "find ~ -delete", "rm -rf --no-preserve-root /", "rm -r ~/Documents", "\\rm -rf ~"},
			NoMatch: []string{"rm -rf build", "rm -rf ~/project/build", "rm -rf /tmp/x", "rm ~/notes.txt"},
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
						return "Deletes " + t.abs + ", which the system needs to boot or log in", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.rm.outside", Level: High, Category: CatDataDeletion,
			Message: "Deletes files outside the workspace",
			Match:   []string{"rm ~/notes.txt", "rm -rf ~/.config/app", "rm -rf $TARGET", "rm /etc/hosts.bak", "rm -rf ~/projects/other/build"},
			NoMatch: []string{"rm build/x.o", "rm -rf /tmp/scratch", "rm -rf ~/"},
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
			Match:   []string{"rm -rf .", "rm -rf \"$(pwd)\"", "rm -rf .git", "rm -rf ./*", "rm -rf *"},
			NoMatch: []string{"rm -rf build", "rm -rf src/old"},
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
			Match:   []string{"rm -rf src/legacy", "rm -r docs"},
			NoMatch: []string{"rm -rf node_modules", "rm -rf build dist", "rm src/a.go", "rm -rf ."},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts, rec, ok := deletion(s)
				if !ok || !rec || s.Name() == "find" {
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
			Match:   []string{"rm src/old.go", "rm -f *.orig", "find . -name '*.pyc' -delete", "rm -rf node_modules", "rm -rf /tmp/build-123"},
			NoMatch: []string{"rm -rf ~/"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts, rec, ok := deletion(s)
				if !ok {
					return "", false
				}
				all := len(ts) > 0
				for _, t := range c.targets(ts) {
					if t.zone != ZoneWorkspace && t.zone != ZoneTemp || rec && c.scope.IsWorkspaceRoot(t.abs) {
						all = false
					}
				}
				if !all {
					return "", false
				}
				if regen(c, ts) {
					return "Deletes build output or caches (" + joinArgs(ts) + ") inside the workspace, which a build recreates", true
				}
				return "Deletes " + joinArgs(ts) + " inside the workspace", true
			},
		},
		{
			ID: "fs.rm.cache", Level: Medium, Category: CatDataDeletion, Contained: true,
			Message: "Deletes tool caches in the home directory, which their tools recreate",
			Match:   []string{"rm -rf ~/.cache/pip", "rm -rf ~/Library/Caches/Homebrew/downloads/*", "rm -rf ~/.npm/_cacache", "rm -rf ~/Library/Developer/Xcode/DerivedData/*"},
			NoMatch: []string{"rm -rf ~/.cache", "rm -rf ~/Library", "rm -rf ~/.ssh"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts, _, ok := deletion(s)
				if !ok || len(ts) == 0 {
					return "", false
				}
				for _, t := range c.targets(ts) {
					if !(t.zone == ZoneHome && inHomeCache(c, t.abs)) && t.zone != ZoneWorkspace && t.zone != ZoneTemp {
						return "", false
					}
				}
				return "Deletes caches (" + joinArgs(ts) + ") that their tools download or build again", true
			},
		},
		{
			ID: "fs.write.authorized-keys", Level: Critical, Category: CatPersistence,
			Message: "Writes to SSH authorized_keys or sshd config, granting remote login",
			Match:   []string{"echo ssh-rsa AAAA >> ~/.ssh/authorized_keys", "cp key.pub /root/.ssh/authorized_keys", "tee -a ~/.ssh/authorized_keys"},
			NoMatch: []string{"cat ~/.ssh/authorized_keys"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if strings.HasSuffix(t.abs, "/.ssh/authorized_keys") || strings.HasSuffix(t.abs, "/.ssh/authorized_keys2") || strings.HasPrefix(t.abs, "/etc/ssh/sshd_config") {
						return "Writes " + t.abs + ", granting remote login to whoever holds the key", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.startup", Level: High, Category: CatPersistence,
			Message: "Changes a shell startup file or an autostart location, so code runs in every future session",
			Match:   []string{"echo 'export PATH=$PATH:~/bin' >> ~/.bashrc", "cp agent.plist ~/Library/LaunchAgents/", "tee -a ~/.zshrc", "sed -i 's/a/b/' ~/.profile", "cp hook.sh .git/hooks/pre-commit"},
			NoMatch: []string{"cat ~/.bashrc", "echo hi >> notes.txt"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if isStartupFile(c, t.abs) {
						return "Changes " + t.abs + ", which runs at every login or shell start", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.agent-config", Level: High, Category: CatSecurityWeakening,
			Message: "Changes the permission or approval settings of a coding agent or of guardian",
			Match:   []string{"jq '.permissions.allow += [\"Bash(npm test:*)\"]' .claude/settings.json > t && mv t .claude/settings.json", "echo 'approval_policy = \"never\"' >> ~/.codex/config.toml", "rm .guardian.toml", "cp x.toml ~/.config/guardian/config.toml"},
			NoMatch: []string{"cat .claude/settings.json", "cp config.toml ./config/app.toml"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				ts := writeTargets(c, s)
				if del, _, ok := deletion(s); ok {
					ts = append(ts, c.targets(del)...)
				}
				for _, t := range ts {
					if isAgentConfig(t.abs) {
						return "Changes " + t.abs + ", which decides what a coding agent may do without asking", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.agent-bypass", Level: Critical, Category: CatSecurityWeakening,
			Message: "Switches a coding agent's approvals off",
			Match:   []string{"jq '.permissions.defaultMode=\"bypassPermissions\"' .claude/settings.json > /tmp/s && mv /tmp/s .claude/settings.json", "echo 'approval_policy = \"never\"' >> ~/.codex/config.toml"},
			NoMatch: []string{"grep bypassPermissions docs/*.md", "cat ~/.codex/config.toml"},
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
						if isAgentConfig(t.abs) {
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
			Match:   []string{"echo 'dev ALL=(ALL) NOPASSWD:ALL' | sudo tee /etc/sudoers.d/dev", "echo x >> /etc/passwd", "sudo cp shadow /etc/shadow"},
			NoMatch: []string{"cat /etc/passwd"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					switch {
					case t.abs == "/etc/sudoers" || strings.HasPrefix(t.abs, "/etc/sudoers.d"), t.abs == "/etc/passwd", t.abs == "/etc/shadow",
						t.abs == "/etc/group", t.abs == "/etc/gshadow", strings.HasPrefix(t.abs, "/etc/pam.d"), t.abs == "/etc/doas.conf":
						return "Writes " + t.abs + ", which controls who can become root", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.device", Level: Critical, Category: CatDataDeletion,
			Message: "Writes directly to a disk device, destroying its filesystem",
			Match:   []string{"dd if=/dev/zero of=/dev/sda bs=1M", "cat image.iso > /dev/sdb", "sudo dd if=x.img of=/dev/nvme0n1"},
			NoMatch: []string{"dd if=/dev/zero of=./test.img bs=1M count=10", "echo hi > /dev/null"},
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
			Match:   []string{"echo '127.0.0.1 x' | sudo tee -a /etc/hosts", "cp app /usr/local/bin/app", "sed -i 's/x/y/' /etc/nginx/nginx.conf"},
			NoMatch: []string{"cp app ./bin/app", "cat /etc/hosts"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if (t.zone == ZoneSystem || t.zone == ZoneVital) && !isBlockDevice(t.abs) && !isPrivFile(t.abs) && !strings.HasPrefix(t.abs, "/etc/ssh/sshd_config") {
						return "Writes " + t.abs + ", a system location", true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.home", Level: Medium, Category: CatSystemModification,
			Message: "Writes files in the home directory, outside the workspace",
			Match:   []string{"echo registry=x > ~/.npmrc", "cp config.json ~/.config/app/config.json", "mv build/app ~/bin/app"},
			NoMatch: []string{"echo x > out.txt", "echo x > /tmp/x", "echo x >> ~/.bashrc"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
					if t.zone == ZoneHome && !isStartupFile(c, t.abs) && !strings.Contains(t.abs, "/.ssh/authorized_keys") {
						return "Writes " + c.where(t), true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.write.unknown", Level: Medium, Category: CatNone,
			Message: "Writes to a file whose location cannot be resolved",
			Match:   []string{"echo x > $OUT", "cp a.txt \"$DEST\""},
			NoMatch: []string{"echo x > out.txt"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range writeTargets(c, s) {
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
			Match:   []string{"mv ~/Documents /tmp/trash", "mv /etc/hosts /tmp/"},
			NoMatch: []string{"mv a.txt b.txt", "mv /tmp/x.tgz ."},
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
			Match:   []string{"truncate -s 0 ./logs/app.log", ": > logs/app.log"},
			NoMatch: []string{"truncate -s 0 ~/important.db"},
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
			Match:   []string{"truncate -s 0 ~/important.db", "> ~/.zsh_history"},
			NoMatch: []string{"truncate -s 0 ./logs/app.log"},
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, t := range truncTargets(c, s) {
					if t.zone == ZoneHome || t.zone == ZoneSystem || t.zone == ZoneVital || t.zone == ZoneUnknown {
						return "Empties " + c.where(t), true
					}
				}
				return "", false
			},
		},
		{
			ID: "fs.protected", Level: Critical, Category: CatDataDeletion,
			Message:    "Changes a path the policy protects",
			PolicyOnly: true,
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(c.scope.Protected) == 0 {
					return "", false
				}
				ts, _, _ := deletion(s)
				all := append(c.targets(ts), writeTargets(c, s)...)
				if n := s.Name(); n == "chmod" || n == "chown" || n == "chgrp" || n == "chattr" || n == "setfacl" {
					all = append(all, c.targets(s.positional(0))...)
				}
				for _, t := range all {
					if t.abs != "" && c.scope.IsProtected(t.abs) {
						return fmt.Sprintf("Changes %s, which your policy protects", t.abs), true
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

// writeTargets returns the files a segment writes: output redirections and the destination
// arguments of writing commands.
func writeTargets(c *execCtx, s *Segment) []target {
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
	case "tee", "touch", "mkdir", "mkfifo", "mknod":
		dests = s.positional(0, "-m", "--mode", "-d", "-r", "-t", "--date", "--reference")
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
		} else if f, ok := optValue(s.Args[1:], "-f", "--file"); ok && (s.hasFlag("c", "--create") || s.hasFlag("r", "--append")) {
			dests = append(dests, f)
		}
	case "git":
		if s.sub(0, gitGlobalOpts...) == "clone" {
			p := s.positional(0, gitGlobalOpts...)
			if len(p) >= 3 {
				dests = append(dests, p[2])
			}
		}
	case "ssh-keygen":
		if f, ok := optValue(s.Args[1:], "-f"); ok && !s.hasFlag("lyF") {
			dests = append(dests, f)
		}
	}
	for _, d := range dests {
		if d == "-" || d == "" {
			continue
		}
		out = append(out, c.target(d))
	}
	return out
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

// isAgentConfig names files that decide what a coding agent (or guardian itself) may do
// without asking.
func isAgentConfig(abs string) bool {
	for _, p := range []string{"/.claude/settings.json", "/.claude/settings.local.json", "/.codex/config.toml", "/.codex/hooks.json",
		"/.config/guardian/", "/.guardian.toml", "/.gemini/settings.json", "/.cursor/cli-config.json", "/.cursor/permissions.json"} {
		if strings.HasSuffix(abs, strings.TrimSuffix(p, "/")) || strings.Contains(abs, p) && strings.HasSuffix(p, "/") {
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
	return isPrivFile(abs) || abs == "/etc/fstab" || abs == "/etc/hostname" || abs == "/etc/resolv.conf" || strings.HasPrefix(abs, "/boot/") ||
		strings.HasPrefix(abs, "/etc/ssh/") || strings.HasPrefix(abs, "/etc/systemd/") || abs == "/etc/nsswitch.conf" || strings.HasPrefix(abs, "/lib/modules")
}

func isBlockDevice(abs string) bool {
	for _, p := range []string{"/dev/sd", "/dev/nvme", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/mmcblk", "/dev/disk", "/dev/rdisk", "/dev/md", "/dev/dm-", "/dev/mapper/", "/dev/loop"} {
		if strings.HasPrefix(abs, p) {
			return true
		}
	}
	return false
}

func isPrivFile(abs string) bool {
	return abs == "/etc/sudoers" || strings.HasPrefix(abs, "/etc/sudoers.d") || abs == "/etc/passwd" || abs == "/etc/shadow" ||
		abs == "/etc/group" || abs == "/etc/gshadow" || strings.HasPrefix(abs, "/etc/pam.d") || abs == "/etc/doas.conf"
}

var startupFiles = []string{".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin",
	".config/fish/config.fish", ".config/fish/conf.d", ".config/autostart", "Library/LaunchAgents", ".config/systemd/user",
	".xprofile", ".xinitrc", ".inputrc", ".bash_logout", ".kshrc", ".cshrc", ".tcshrc", ".pam_environment", ".ssh/rc", ".ssh/config",
	".gitconfig", ".config/git/config", ".npmrc", ".pip/pip.conf", ".config/pip/pip.conf"}

// isStartupFile reports whether abs is read at login/shell start or changes how tools run
// (rc files, autostart and launch agents, git/npm/pip config that can point to code).
func isStartupFile(c *execCtx, abs string) bool { return isStartupPath(c.scope, abs) }

func isStartupPath(sc *Scope, abs string) bool {
	if strings.Contains(abs, "/.git/hooks/") || strings.Contains(abs, "/.husky/") && !strings.HasSuffix(abs, "/.husky/_") {
		return true // git runs these on its own, on the next checkout, commit or push
	}
	for _, f := range startupFiles {
		p := path.Join(sc.Home, f)
		if abs == p || strings.HasPrefix(abs, p+"/") {
			return f != ".npmrc" && f != ".pip/pip.conf" && f != ".config/pip/pip.conf" && f != ".gitconfig" && f != ".config/git/config"
		}
	}
	for _, p := range []string{"/etc/profile", "/etc/bash.bashrc", "/etc/zshrc", "/etc/zsh/", "/etc/profile.d/", "/etc/cron", "/etc/systemd/system/",
		"/etc/init.d/", "/Library/LaunchAgents/", "/Library/LaunchDaemons/", "/etc/rc.local", "/var/spool/cron", "/etc/environment", "/etc/ld.so.preload"} {
		if abs == strings.TrimSuffix(p, "/") || strings.HasPrefix(abs, p) {
			return true
		}
	}
	return false
}
