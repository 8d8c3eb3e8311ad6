package riskmodel

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// This file knows package managers and build tools: what installing, adding, publishing or
// building does to the machine. Every command is first reduced to one or more pkgOps (what it
// does), and each rule picks the ops of its kind, so one command can be both "installs
// globally" and "installs from an untrusted source".

// pkgKind says what a package-manager or build command does.
type pkgKind uint8

const (
	pkgProjectInstall pkgKind = iota + 1 // installs what the project already declares
	pkgAddDep                            // adds or upgrades named dependencies of the project
	pkgRemoveDep                         // removes dependencies from the project
	pkgGlobal                            // installs tools for the user, outside the workspace
	pkgUserTool                          // installs a named tool from its usual registry into the user's tool dirs
	pkgUntrusted                         // installs from a URL, a VCS or a non-default registry
	pkgSystem                            // changes the operating system's packages, or installs as root
	pkgUninstall                         // removes packages outside the workspace
	pkgPublish                           // publishes an artifact or deploys through a project script
	pkgRunPackage                        // downloads a package and runs it at once
	pkgBuild                             // builds, tests, lints or formats the project
	pkgQuery                             // inspects packages without changing anything
	pkgConfig                            // changes the package manager's user-wide configuration
	pkgInsecureConfig                    // persistently weakens where or how packages are fetched
	pkgInsecureFetch                     // fetches packages once with TLS or checksum checks off
	pkgRunPopular                        // runs a widely used registry package on workspace paths (rules_pkgrun.go)
)

type pkgOp = op[pkgKind]

// pkgRule builds the check of a rule that fires on the first op of its kind.
func pkgRule(k pkgKind) func(c *execCtx, s *Segment) (string, bool) { return opRule(k, pkgOps) }

func pkgRules() []*Rule {
	return []*Rule{
		{
			ID: "pkg.project-install", Level: Low, Category: CatNetworkEgress,
			Message: "Installs the project's declared dependencies",
			exec:    pkgRule(pkgProjectInstall),
		},
		{
			ID: "pkg.add-dependency", Level: Medium, Category: CatNetworkEgress, Contained: true,
			Message: "Adds or upgrades dependencies of the project",
			exec:    pkgRule(pkgAddDep),
		},
		{
			ID: "pkg.remove-dependency", Level: Medium, Category: CatNone, Contained: true,
			Message: "Removes dependencies from the project",
			exec:    pkgRule(pkgRemoveDep),
		},
		{
			ID: "pkg.global-install", Level: Medium, Category: CatSystemModification,
			Message: "Installs tools for the whole user account, outside the workspace",
			exec:    pkgRule(pkgGlobal),
		},
		{
			// docs/policy.md's allow row: installing from the usual registries into the
			// user's tool dirs (npm i -g, pip install --user, go install, rustup component add,
			// brew install) is routine. Sources off the registry, typosquats, sudo and system
			// Python are other rules and outrank this one.
			ID: "pkg.user-tool", Level: Low, Category: CatNone,
			Message: "Installs a named tool from its usual registry into the user's tool directories",
			exec:    pkgRule(pkgUserTool),
		},
		{
			ID: "pkg.untrusted-source", Level: High, Category: CatRemoteCodeExecution,
			Message: "Installs a package from a URL, a repository or a non-default registry instead of the package registry",
			exec:    pkgRule(pkgUntrusted),
		},
		{
			ID: "pkg.typosquat", Level: High, Category: CatRemoteCodeExecution,
			CertainWhen: "the name is documented malware, a lookalike or one slip from a popular name",
			Message:     "Installs a package whose name imitates a popular one (typosquat, lookalike or known malware)",
			exec:        pkgTyposquatCheck,
		},
		{
			ID: "pkg.system", Level: High, Category: CatSystemModification,
			Message: "Changes the operating system's packages",
			exec:    pkgRule(pkgSystem),
		},
		{
			ID: "pkg.uninstall", Level: Medium, Category: CatSystemModification,
			Message: "Uninstalls packages outside the workspace",
			exec:    pkgRule(pkgUninstall),
		},
		{
			ID: "pkg.publish", Level: High, Category: CatFinancialOrProduction,
			Message: "Publishes a package or image to a registry, or runs a project script that deploys",
			exec:    pkgRule(pkgPublish),
		},
		{
			ID: "pkg.run-package", Level: High, Category: CatRemoteCodeExecution,
			Message: "Downloads a package from a registry and runs it at once",
			exec:    pkgRule(pkgRunPackage),
		},
		{
			ID: "pkg.insecure-config", Level: High, Category: CatSecurityWeakening,
			Message: "Persistently weakens how packages are fetched (TLS off, checksum database off, untrusted registry)",
			exec:    pkgRule(pkgInsecureConfig),
		},
		{
			ID: "pkg.insecure-fetch", Level: Medium, Category: CatSecurityWeakening,
			Message: "Installs packages with TLS or checksum verification turned off for this run",
			exec:    pkgRule(pkgInsecureFetch),
		},
		{
			ID: "pkg.config", Level: Medium, Category: CatSystemModification,
			Message: "Changes a package manager's user-wide configuration",
			exec:    pkgRule(pkgConfig),
		},
		{
			ID: "pkg.build-test", Baseline: true, Level: Low, Category: CatNone,
			Message: "Runs the project's build, test, lint or format tool",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if _, ok := devServerExposed(s); ok {
					return "", false // a dev server told to serve the network (devserve.go)
				}
				for _, o := range pkgOps(c, s) {
					if o.kind == pkgBuild {
						return o.msg, true
					}
				}
				return "", false
			},
		},
		{
			ID: "pkg.query", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Lists or inspects packages without changing anything",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, o := range pkgOps(c, s) {
					if o.kind == pkgQuery {
						return o.msg, true
					}
				}
				return "", false
			},
		},
	}
}

// pkgOps says what a segment does as a package or build command. Runners (npx, bundle exec,
// poetry run, python -m, …) are looked through, each layer adding what it does itself.
func pkgOps(c *execCtx, s *Segment) []pkgOp {
	if c.pkgLast.seg == s && s != nil {
		return c.pkgLast.v
	}
	if ops, ok := c.pkgMemo[s]; ok {
		c.pkgLast = memoLast[[]pkgOp]{s, ops}
		return ops
	}
	ops := pkgOpsCompute(c, s)
	if c.pkgMemo == nil {
		c.pkgMemo = map[*Segment][]pkgOp{}
	}
	c.pkgMemo[s] = ops
	c.pkgLast = memoLast[[]pkgOp]{s, ops}
	return ops
}

func pkgOpsCompute(c *execCtx, s *Segment) []pkgOp {
	var ops []pkgOp
	cur := s
	for depth := 0; depth < 8; depth++ {
		ops = append(ops, pkgClassify(c, cur)...)
		next, _, ok := pkgRunnerInner(cur)
		if !ok {
			break
		}
		cur = next
	}
	ops = append(ops, pkgEnvFetchOps(c, s, ops)...)
	if s.Privileged {
		for i, o := range ops {
			switch o.kind {
			case pkgProjectInstall, pkgAddDep, pkgGlobal, pkgUserTool, pkgRemoveDep, pkgUninstall:
				ops[i] = pkgOp{pkgSystem, strings.TrimSuffix(o.msg, ".") + ", as root (sudo), so its install scripts run as root and it can overwrite system files"}
			}
		}
	}
	return ops
}

// pkgNorm maps a command name to the tool it is: pip3.11 → pip, gradlew → gradle.
func pkgNorm(name string) string {
	trimVer := func(n, base string) (string, bool) {
		if !strings.HasPrefix(n, base) {
			return "", false
		}
		rest := n[len(base):]
		if strings.Trim(rest, "0123456789.") == "" {
			return base, true
		}
		return "", false
	}
	if n, ok := trimVer(name, "pip"); ok {
		return n
	}
	if n, ok := trimVer(name, "python"); ok {
		return n
	}
	switch name {
	case "gradlew", "gradlew.bat":
		return "gradle"
	case "mvnw", "mvnw.cmd":
		return "mvn"
	case "pnpx":
		return "npx"
	case "bundler":
		return "bundle"
	case "py.test":
		return "pytest"
	case "gmake":
		return "make"
	case "bazelisk":
		return "bazel"
	case "mamba", "micromamba":
		return "conda"
	case "aptitude":
		return "apt-get"
	case "microdnf", "tdnf":
		return "dnf"
	case "yay", "paru":
		return "pacman"
	case "podman", "nerdctl", "finch":
		return "docker"
	case "tofu":
		return "terraform"
	}
	return name
}

// pkgWithArgs copies a segment with other arguments: the command a runner runs.
func pkgWithArgs(s *Segment, args []string) *Segment {
	n := *s
	n.Args = args
	return &n
}

// pkgSub returns the positional words of a segment (options and their values skipped).
func pkgSub(s *Segment, withArg ...string) []string {
	return s.positional(0, withArg...)
}

// pkgAfter returns the arguments after the first occurrence of word (options included).
func pkgAfter(args []string, word string) []string {
	for i, a := range args {
		if a == word {
			return args[i+1:]
		}
	}
	return nil
}

// pkgList shows package names for a message: "a, b and 3 more".
func pkgList(names []string) string {
	if len(names) == 0 {
		return "packages"
	}
	if len(names) <= 3 {
		return capText(strings.Join(names, ", "))
	}
	return capText(strings.Join(names[:3], ", ")) + " and " + strconv.Itoa(len(names)-3) + " more"
}

// pkgCmd shows the first n words of a command: "npm install -g".
func pkgCmd(s *Segment, n int) string {
	if n > len(s.Args) {
		n = len(s.Args)
	}
	a := append([]string{s.Name()}, s.Args[1:n]...)
	return strings.Join(a, " ")
}

// pkgDefaultRegistries are the public registries packages normally come from.
var pkgDefaultRegistries = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"registry.npmjs.org": true, "registry.yarnpkg.com": true, "registry.npmjs.com": true,
		"pypi.org": true, "pypi.python.org": true, "files.pythonhosted.org": true, "upload.pypi.org": true, "rubygems.org": true,
		"index.rubygems.org": true, "crates.io": true, "index.crates.io": true, "repo.maven.apache.org": true, "repo1.maven.org": true,
		"api.nuget.org": true, "proxy.golang.org": true, "sum.golang.org": true, "packagist.org": true, "repo.packagist.org": true,
		"hex.pm": true, "repo.hex.pm": true, "pub.dev": true, "jsr.io": true, "conda.anaconda.org": true, "repo.anaconda.com": true}
}}

// pkgDefaultHost reports whether a registry URL is a default public registry or trusted by
// the policy (an internal mirror).
func pkgDefaultHost(c *execCtx, raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return pkgDefaultRegistries.get()[h] || c.trustedHost(h)
}

func pkgHost(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Hostname()
	}
	return raw
}

// pkgVCSOrURL reports whether a package spec names a URL or a repository rather than a
// registry package, for pip, gem, cargo and generic specs.
func pkgVCSOrURL(spec string) bool {
	l := strings.ToLower(spec)
	if i := strings.Index(l, " @ "); i >= 0 { // PEP 508: "name @ https://…"
		l = strings.TrimSpace(l[i+3:])
	}
	if i := strings.Index(l, "@"); i > 0 && strings.Contains(l[i:], "://") { // name@git+https://…
		l = l[i+1:]
	}
	for _, p := range []string{"git+", "hg+", "svn+", "bzr+", "git://", "http://", "https://", "ssh://", "ftp://", "git@"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// pkgRegistryNames reports specs that all name packages on the registry: no local file or
// directory, no repository or URL.
func pkgRegistryNames(names []string) bool {
	for _, n := range names {
		if pkgLocalPath(n) || pkgVCSOrURL(n) || strings.HasSuffix(n, ".tgz") || strings.HasSuffix(n, ".tar.gz") {
			return false
		}
	}
	return len(names) > 0
}

// pkgLocalPath reports whether a spec names a local file or directory.
func pkgLocalPath(spec string) bool {
	return spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || strings.HasPrefix(spec, "/") ||
		strings.HasPrefix(spec, "~") || strings.HasPrefix(spec, "file:") || strings.HasSuffix(spec, ".whl") || strings.HasSuffix(spec, ".tgz") ||
		strings.HasSuffix(spec, ".tar.gz") || strings.HasSuffix(spec, ".zip") || strings.HasSuffix(spec, ".gem") || strings.HasSuffix(spec, ".deb") ||
		strings.HasSuffix(spec, ".rpm")
}

// pkgNpmSource describes where an npm-style spec comes from when it is not the registry:
// a git URL, a GitHub shorthand (user/repo), a tarball URL. Local paths are not untrusted.
func pkgNpmSource(spec string) (string, bool) {
	l := strings.ToLower(spec)
	if strings.HasPrefix(l, "@") && strings.Count(l, "/") == 1 && !strings.Contains(l, ":") {
		return "", false // @scope/name[@version]
	}
	for _, p := range []string{"github:", "gitlab:", "bitbucket:", "gist:", "git+", "git://", "git@", "ssh://", "http://", "https://"} {
		if strings.HasPrefix(l, p) {
			return spec, true
		}
	}
	if i := strings.Index(l, "@"); i > 0 {
		rest := l[i+1:]
		if strings.HasPrefix(rest, "npm:") {
			return "", false
		}
		for _, p := range []string{"github:", "git+", "http://", "https://", "git://"} {
			if strings.HasPrefix(rest, p) {
				return spec[i+1:], true
			}
		}
	}
	if pkgLocalPath(spec) || strings.HasPrefix(l, "link:") || strings.HasPrefix(l, "workspace:") {
		return "", false
	}
	if strings.Count(l, "/") == 1 && !strings.HasPrefix(l, "@") {
		return "the GitHub repository " + spec, true // npm's user/repo shorthand
	}
	return "", false
}

// pkgClassify says what one (already unwrapped) command does.
func pkgClassify(c *execCtx, s *Segment) []pkgOp {
	if len(s.Args) == 0 {
		return nil
	}
	name := pkgNorm(s.Name())
	switch name {
	case "npm", "yarn", "pnpm", "bun":
		return pkgNode(c, s, name)
	case "npx", "bunx":
		return pkgFetchRunOps(c, s)
	case "pip", "python", "python3":
		if name == "pip" {
			return pkgPip(c, s, s.Args[1:], s.Name())
		}
		return nil
	case "uv":
		return pkgUv(c, s)
	case "uvx":
		return pkgFetchRunOps(c, s)
	case "pipx":
		return pkgPipx(c, s)
	case "poetry", "pipenv", "pdm", "hatch", "rye":
		return pkgPyProject(c, s, name)
	case "conda":
		return pkgConda(c, s)
	case "go":
		return pkgGo(c, s)
	case "cargo", "rustup":
		return pkgRust(c, s, name)
	case "gem", "bundle", "composer":
		return pkgRubyPHP(c, s, name)
	case "mvn", "gradle", "sbt", "lein":
		return pkgJVM(c, s, name)
	case "dotnet", "nuget", "swift", "pod", "xcrun", "fastlane":
		return pkgDotnetApple(c, s, name)
	case "mix", "cabal", "stack", "dart", "flutter", "deno", "opam":
		return pkgOtherLangs(c, s, name)
	case "brew", "scoop": // scoop installs per user, like brew (r18win)
		return pkgBrew(c, s)
	case "apt", "apt-get", "apt-cache", "dpkg", "dpkg-query", "rpm", "yum", "dnf", "pacman", "apk", "zypper", "snap", "flatpak",
		"port", "emerge", "nix-env", "nix-channel", "add-apt-repository", "apt-add-repository", "apt-key", "xbps-install", "xbps-remove",
		"pkgin", "softwareupdate", "nix":
		return pkgSystemOps(c, s, name)
	case "twine", "flit", "goreleaser", "semantic-release", "release-it", "changeset", "lerna", "vsce", "ovsx", "jsr", "helm",
		"docker", "buildah", "oras", "crane", "skopeo", "eas", "expo", "maturin", "earthly":
		if ops := pkgPublishTools(c, s, name); ops != nil {
			return ops
		}
	}
	if ops := pkgTargetRunner(c, s, name); ops != nil {
		return ops
	}
	return pkgBuildTable(s, name)
}

// ---- node: npm, yarn, pnpm, bun ----

var pkgNodeValueOpts = []string{"--registry", "--prefix", "-w", "--workspace", "--tag", "--omit", "--include", "--cache", "--userconfig",
	"--globalconfig", "--location", "--loglevel", "--save-prefix", "--otp", "--access", "--scope", "-C", "--dir", "--filter", "-F", "--cwd"}

// pkgNodeBuiltins are the subcommands of yarn/pnpm/bun; any other word runs a script or a bin.
var pkgNodeBuiltins = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"install": true, "i": true, "add": true, "a": true, "ci": true, "remove": true, "rm": true,
		"uninstall": true, "un": true, "update": true, "up": true, "upgrade": true, "publish": true, "run": true, "test": true, "t": true,
		"exec": true, "dlx": true, "x": true, "create": true, "init": true, "info": true, "why": true, "list": true, "ls": true, "outdated": true,
		"audit": true, "config": true, "global": true, "link": true, "unlink": true, "pack": true, "npm": true, "set": true, "workspace": true,
		"workspaces": true, "plugin": true, "cache": true, "dedupe": true, "import": true, "licenses": true, "store": true, "root": true,
		"bin": true, "prune": true, "rebuild": true, "pm": true, "upgrade-interactive": true, "version": true, "node": true, "constraints": true,
		"explain": true, "patch": true, "patch-commit": true, "setup": true, "env": true, "help": true, "whoami": true, "login": true, "logout": true,
		"build": false, "start": false, "dev": false, "lint": false}
}}

func pkgNode(c *execCtx, s *Segment, tool string) []pkgOp {
	p := pkgSub(s, pkgNodeValueOpts...)
	global := s.hasFlag("g", "--global") || s.arg("--location=global")
	if loc, ok := optValue(s.Args[1:], "--location"); ok && loc == "global" {
		global = true
	}
	if len(p) == 0 {
		if tool == "yarn" {
			return []pkgOp{{pkgProjectInstall, "Installs the project's declared dependencies with yarn"}}
		}
		return nil
	}
	sub, rest := p[0], p[1:]
	if tool == "yarn" && sub == "global" && len(rest) > 0 {
		global, sub, rest = true, rest[0], rest[1:]
	}
	if tool == "yarn" && sub == "workspace" && len(rest) > 1 {
		return pkgNode(c, pkgWithArgs(s, append([]string{"yarn"}, rest[1:]...)), tool)
	}
	if tool == "yarn" && sub == "npm" && len(rest) > 0 {
		sub, rest = "npm-"+rest[0], rest[1:]
	}
	if tool == "bun" && sub == "pm" && len(rest) > 0 {
		sub, rest = "pm-"+rest[0], rest[1:]
	}
	cmd := tool + " " + sub
	dry := s.arg("--dry-run")
	var ops []pkgOp
	untrusted := func(names []string) {
		for _, n := range names {
			if src, ok := pkgNpmSource(n); ok {
				ops = append(ops, pkgOp{pkgUntrusted, "Installs a package from " + src + " with " + cmd + " instead of the npm registry; its install scripts run unreviewed"})
				return
			}
		}
		if r, ok := optValue(s.Args[1:], "--registry"); ok && !pkgDefaultHost(c, r) {
			ops = append(ops, pkgOp{pkgUntrusted, "Installs packages from the registry at " + pkgHost(r) + " with " + cmd + " instead of the npm registry"})
		}
	}
	insecure := func() {
		if s.arg("--strict-ssl=false", "--no-strict-ssl") {
			ops = append(ops, pkgOp{pkgInsecureFetch, "Runs " + cmd + " with TLS certificate checks off, so a network attacker could swap packages"})
		}
	}
	switch sub {
	case "install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add", "a",
		"ci", "clean-install", "ic", "install-clean", "isntall-clean", "install-test", "it", "install-ci-test", "cit":
		insecure()
		untrusted(rest)
		names := rest
		if sub == "ci" || sub == "clean-install" || sub == "ic" || sub == "install-clean" || sub == "isntall-clean" || sub == "cit" || sub == "install-ci-test" {
			names = nil
		}
		switch {
		case global && len(names) == 0:
			ops = append(ops, pkgOp{pkgGlobal, "Installs the current package globally with " + cmd + " -g"})
		case global && pkgRegistryNames(names):
			ops = append(ops, pkgOp{pkgUserTool, "Installs " + pkgList(names) + " globally with " + cmd + " -g, into the user's tool directory"})
		case len(names) == 0:
			ops = append(ops, pkgOp{pkgProjectInstall, "Installs the project's declared dependencies with " + cmd})
		case global:
			ops = append(ops, pkgOp{pkgGlobal, "Installs " + pkgList(names) + " globally with " + cmd + " -g, outside the workspace"})
		default:
			ops = append(ops, pkgOp{pkgAddDep, "Adds " + pkgList(names) + " to the project's dependencies with " + cmd})
		}
	case "update", "up", "upgrade", "udpate", "upgrade-interactive", "dedupe", "ddp", "prune", "rebuild", "rb", "shrinkwrap", "import":
		insecure()
		switch {
		case global:
			ops = append(ops, pkgOp{pkgGlobal, "Updates globally installed packages with " + cmd + " -g"})
		case len(rest) > 0 && (sub == "update" || sub == "up" || sub == "upgrade"):
			ops = append(ops, pkgOp{pkgAddDep, "Upgrades " + pkgList(rest) + " in the project with " + cmd})
		default:
			ops = append(ops, pkgOp{pkgProjectInstall, "Refreshes the project's installed dependencies with " + cmd})
		}
	case "uninstall", "unlink", "remove", "rm", "r", "un":
		if global {
			return []pkgOp{{pkgUninstall, "Uninstalls " + pkgList(rest) + " globally with " + cmd + " -g"}}
		}
		return []pkgOp{{pkgRemoveDep, "Removes " + pkgList(rest) + " from the project's dependencies with " + cmd}}
	case "link", "ln":
		if len(rest) == 0 || global {
			return []pkgOp{{pkgGlobal, "Links the current package into the global node_modules with " + cmd}}
		}
		return []pkgOp{{pkgAddDep, "Links " + pkgList(rest) + " into the project's node_modules"}}
	case "publish", "unpublish", "deprecate", "npm-publish", "owner", "dist-tag", "dist-tags", "access", "npm-tag":
		if dry {
			return []pkgOp{{pkgBuild, "Checks what " + cmd + " would publish (--dry-run)"}}
		}
		if (sub == "owner" || sub == "dist-tag" || sub == "dist-tags" || sub == "access" || sub == "npm-tag") &&
			(len(rest) == 0 || rest[0] == "ls" || rest[0] == "list" || rest[0] == "get") {
			return []pkgOp{{pkgQuery, "Shows the package's registry settings with " + joinArgs(s.Args)}}
		}
		return []pkgOp{{pkgPublish, "Publishes to the package registry with " + joinArgs(s.Args) + "; a release cannot be taken back quietly"}}
	case "audit":
		if len(rest) > 0 && rest[0] == "fix" {
			if s.arg("--force") {
				return []pkgOp{{pkgAddDep, "Upgrades the project's dependencies with " + cmd + " fix --force, possibly across major versions"}}
			}
			return []pkgOp{{pkgProjectInstall, "Upgrades vulnerable dependencies within their declared ranges with " + cmd + " fix"}}
		}
		return []pkgOp{{pkgQuery, "Checks the project's dependencies for known vulnerabilities with " + joinArgs(s.Args)}}
	case "config", "c", "set", "get":
		if tool == "yarn" && sub == "set" && len(rest) > 0 && rest[0] == "version" {
			return []pkgOp{{pkgProjectInstall, "Switches the project to another yarn release with " + joinArgs(s.Args)}}
		}
		return pkgNodeConfig(c, s, tool, sub, rest)
	case "exec", "x", "dlx", "create", "init", "innit", "pm-x":
		if (sub == "init" || sub == "innit") && (len(rest) == 0 || tool != "npm" && tool != "yarn" && tool != "pnpm" && tool != "bun") {
			return []pkgOp{{pkgBuild, "Creates a package.json with " + joinArgs(s.Args)}}
		}
		return pkgFetchRunOps(c, s)
	case "ls", "list", "la", "ll", "outdated", "view", "v", "info", "show", "search", "s", "se", "find", "why", "explain", "doctor",
		"prefix", "root", "bin", "whoami", "ping", "query", "sbom", "fund", "help", "licenses", "npm-info", "pm-ls", "pm-hash", "pm-bin",
		"pm-cache", "store", "workspaces", "-v", "--version", "constraints", "env":
		if sub == "store" && len(rest) > 0 && rest[0] == "prune" {
			return []pkgOp{{pkgBuild, "Prunes pnpm's package store"}}
		}
		return []pkgOp{{pkgQuery, "Inspects packages with " + joinArgs(s.Args)}}
	case "version":
		if len(rest) == 0 {
			return []pkgOp{{pkgQuery, "Shows versions with " + joinArgs(s.Args)}}
		}
		return []pkgOp{{pkgBuild, "Bumps the package version with " + joinArgs(s.Args)}}
	case "pack", "cache", "pkg", "set-script", "help-search", "patch", "patch-commit", "plugin":
		if sub == "plugin" && len(rest) > 0 && (rest[0] == "import" || rest[0] == "add") {
			return []pkgOp{{pkgAddDep, "Adds a yarn plugin to the project with " + joinArgs(s.Args)}}
		}
		return []pkgOp{{pkgBuild, "Runs " + joinArgs(s.Args) + " in the project"}}
	case "upgrade-self", "self-update":
		return []pkgOp{{pkgGlobal, "Upgrades " + tool + " itself"}}
	case "login", "logout", "adduser", "token", "profile", "team", "org", "hook", "star", "unstar", "stars", "edit", "docs", "home", "repo", "bugs":
		return nil
	}
	if tool == "bun" && sub == "upgrade" {
		return []pkgOp{{pkgGlobal, "Upgrades bun itself"}}
	}
	if len(ops) > 0 {
		return ops
	}
	// Scripts: npm run X / npm test / yarn X / pnpm X / bun run X.
	script := ""
	switch sub {
	case "run", "run-script", "rum", "urn":
		if len(rest) == 0 {
			return []pkgOp{{pkgQuery, "Lists the project's scripts with " + joinArgs(s.Args)}}
		}
		script = rest[0]
	case "test", "t", "tst", "start", "stop", "restart", "build", "dev", "lint":
		script = sub
	default:
		if tool == "npm" || pkgNodeBuiltins.get()[sub] {
			return nil
		}
		if pkgKnownBin(sub) {
			return nil // yarn eslint … runs the bin: judged through pkgRunnerInner
		}
		if tool == "bun" && strings.Contains(sub, ".") {
			return nil // bun file.ts runs a file: an interpreter
		}
		script = sub
	}
	if pkgDeployish(script) {
		return []pkgOp{{pkgPublish, "Runs the project's `" + script + "` script, which by its name deploys or publishes"}}
	}
	if tool == "bun" && sub == "run" && strings.Contains(script, ".") {
		return nil // bun run file.ts
	}
	return []pkgOp{{pkgBuild, "Runs the project's `" + script + "` script: " + joinArgs(s.Args)}}
}

// pkgNodeConfig judges npm/yarn/pnpm config changes.
func pkgNodeConfig(c *execCtx, s *Segment, tool, sub string, rest []string) []pkgOp {
	verb := sub
	if sub == "config" || sub == "c" {
		if len(rest) == 0 {
			return nil
		}
		verb, rest = rest[0], rest[1:]
	}
	switch verb {
	case "get", "list", "ls", "l":
		return []pkgOp{{pkgQuery, "Reads " + tool + "'s configuration"}}
	case "set", "delete", "rm", "unset", "edit", "fix":
	default:
		return nil
	}
	kv := strings.ToLower(strings.Join(rest, " "))
	kv = strings.ReplaceAll(kv, "=", " ")
	f := strings.Fields(kv)
	if len(f) >= 2 {
		key, val := f[0], f[1]
		switch {
		case (key == "strict-ssl" || key == "enablestrictssl" || key == "strict_ssl") && (val == "false" || val == "0"):
			return []pkgOp{{pkgInsecureConfig, "Turns off TLS certificate checks for every future " + tool + " install"}}
		case key == "registry" || strings.HasSuffix(key, ":registry") || key == "npmregistryserver":
			if strings.HasPrefix(val, "http://") {
				return []pkgOp{{pkgInsecureConfig, "Points " + tool + " at the unencrypted registry " + val + " for every future install"}}
			}
			if !pkgDefaultHost(c, val) {
				return []pkgOp{{pkgInsecureConfig, "Points " + tool + " at the registry " + pkgHost(val) + " for every future install, instead of the npm registry"}}
			}
		}
	}
	if s.arg("--location=project") {
		return []pkgOp{{pkgBuild, "Changes the project's " + tool + " configuration"}}
	}
	return []pkgOp{{pkgConfig, "Changes " + tool + "'s user configuration (" + capText(strings.Join(rest, " ")) + "), which applies to every project"}}
}

// ---- run-a-package: npx, pnpm dlx, yarn dlx, bunx, uvx, pipx run, go run pkg@v ----

// pkgNpxBins maps package names to the command they provide, where they differ.
var pkgNpxBins = table[map[string]string]{build: func() map[string]string {
	return map[string]string{"typescript": "tsc", "@angular/cli": "ng", "@biomejs/biome": "biome", "@playwright/test": "playwright",
		"aws-cdk": "cdk", "firebase-tools": "firebase", "netlify-cli": "netlify", "@nestjs/cli": "nest", "@vscode/vsce": "vsce",
		"@changesets/cli": "changeset", "@graphql-codegen/cli": "graphql-codegen", "sequelize-cli": "sequelize", "eas-cli": "eas",
		"@babel/cli": "babel", "@swc/cli": "swc", "@remix-run/dev": "remix", "@11ty/eleventy": "eleventy", "webpack-cli": "webpack",
		"@tailwindcss/cli": "tailwindcss", "@storybook/cli": "storybook", "@redocly/cli": "redocly", "@sveltejs/kit": "svelte-kit",
		"vercel": "vercel", "wrangler": "wrangler", "prisma": "prisma", "supabase": "supabase", "serverless": "serverless"}
}}

// pkgKnownProjectBins are tools usually installed as the project's own dev dependencies:
// npx/yarn/pnpm exec of them runs the project's copy rather than fetching a stranger's code.
var pkgKnownProjectBins = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"eslint": true, "prettier": true, "tsc": true, "jest": true, "vitest": true, "mocha": true,
		"ava": true, "playwright": true, "cypress": true, "vite": true, "webpack": true, "rollup": true, "esbuild": true, "parcel": true,
		"next": true, "nuxi": true, "nuxt": true, "astro": true, "svelte-kit": true, "svelte-check": true, "ng": true, "storybook": true,
		"turbo": true, "nx": true, "lerna": true, "ts-node": false, "tsx": false, "prisma": true, "drizzle-kit": true, "knip": true,
		"husky": true, "lint-staged": true, "stylelint": true, "biome": true, "oxlint": true, "tailwindcss": true, "postcss": true,
		"babel": true, "swc": true, "cdk": true, "vercel": true, "netlify": true, "wrangler": true, "firebase": true, "serverless": true,
		"sls": true, "typeorm": true, "sequelize": true, "knex": true, "supabase": true, "c8": true, "nyc": true, "depcheck": true,
		"changeset": true, "semantic-release": true, "release-it": true, "vsce": true, "ovsx": true, "markdownlint": true,
		"markdownlint-cli2": true, "cspell": true, "commitlint": true, "standard": true, "xo": true, "tsup": true, "unbuild": true,
		"vue-tsc": true, "vue-cli-service": true, "react-scripts": true, "gatsby": true, "remix": true, "node-gyp": true,
		"patch-package": true, "graphql-codegen": true, "eleventy": true, "redocly": true, "nest": true, "eas": true, "expo": true,
		"tsd": true, "api-extractor": true, "size-limit": true, "wdio": true, "karma": true, "detox": true, "cross-env": true, "dotenv": true,
		"concurrently": true, "vue-demi-fix": false, "openapi-typescript": true, "sort-package-json": true}
}}

// pkgKnownBin reports whether a command is a tool this package knows by name (build tools,
// project dev tools, cloud CLIs): yarn/pnpm/npx of it are looked through.
func pkgKnownBin(n string) bool {
	if pkgKnownProjectBins.get()[n] {
		return true
	}
	if _, ok := pkgBuildTools.get()[n]; ok {
		return true
	}
	return cloudKnownBins.get()[n]
}

// pkgSpecName strips the version from a package spec: eslint@8 → eslint, @a/b@1 → @a/b.
func pkgSpecName(spec string) string {
	at := strings.LastIndexByte(spec, '@')
	if at > 0 {
		spec = spec[:at]
	}
	if strings.HasPrefix(spec, "npm:") {
		spec = spec[4:]
	}
	return spec
}

// pkgBinOf is the command a package spec provides.
func pkgBinOf(spec string) string {
	n := pkgSpecName(spec)
	if b, ok := pkgNpxBins.get()[n]; ok {
		return b
	}
	if i := strings.LastIndexByte(n, '/'); i >= 0 && strings.HasPrefix(n, "@") {
		return n[i+1:]
	}
	return n
}

// pkgFetchRun parses the commands that fetch a package and run it: the package spec, the
// command that runs (its argv), and the tool used.
func pkgFetchRun(s *Segment) (spec string, inner []string, tool string, ok bool) {
	name := pkgNorm(s.Name())
	args := s.Args[1:]
	switch name {
	case "npx", "bunx", "uvx":
		tool = s.Name()
	case "npm":
		p := pkgSub(s, pkgNodeValueOpts...)
		if len(p) == 0 {
			return "", nil, "", false
		}
		switch p[0] {
		case "exec", "x":
			tool = "npm " + p[0]
			args = pkgAfter(args, p[0])
		case "init", "create", "innit":
			if len(p) < 2 {
				return "", nil, "", false
			}
			spec := pkgCreateSpec(p[1])
			return spec, append([]string{pkgBinOf(spec)}, p[2:]...), "npm " + p[0], true
		default:
			return "", nil, "", false
		}
	case "pnpm", "yarn", "bun":
		p := pkgSub(s, pkgNodeValueOpts...)
		if len(p) < 2 {
			return "", nil, "", false
		}
		switch p[0] {
		case "dlx", "x", "exec":
			if p[0] == "exec" && name != "pnpm" && name != "yarn" {
				return "", nil, "", false
			}
			tool = name + " " + p[0]
			args = pkgAfter(args, p[0])
		case "create":
			spec := pkgCreateSpec(p[1])
			return spec, append([]string{pkgBinOf(spec)}, p[2:]...), name + " create", true
		default:
			return "", nil, "", false
		}
	case "pipx":
		if s.sub(0) != "run" {
			return "", nil, "", false
		}
		tool = "pipx run"
		args = pkgAfter(args, "run")
	case "uv":
		p := pkgSub(s)
		if len(p) < 2 || p[0] != "tool" || p[1] != "run" {
			return "", nil, "", false
		}
		tool = "uv tool run"
		args = pkgAfter(args, "run")
	case "go":
		p := pkgSub(s, "-C", "-o", "-tags", "-ldflags", "-gcflags", "-mod", "-exec", "-p", "-toolexec", "-overlay", "-pgo")
		if len(p) >= 2 && p[0] == "run" && strings.Contains(p[1], "@") && !strings.HasPrefix(p[1], ".") {
			return p[1], append([]string{pkgBinOf(p[1])}, p[2:]...), "go run", true
		}
		return "", nil, "", false
	default:
		return "", nil, "", false
	}
	// Options of npx & co.: -p/--package PKG names the package; -c CMD a command string.
	var pkgs []string
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case (a == "-p" || a == "--package" || a == "--from" || a == "--with" || a == "--spec") && i+1 < len(args):
			pkgs = append(pkgs, args[i+1])
			i++
		case strings.HasPrefix(a, "--package=") || strings.HasPrefix(a, "--from="):
			pkgs = append(pkgs, a[strings.IndexByte(a, '=')+1:])
		case (a == "-c" || a == "--call") && i+1 < len(args):
			rest = append(rest, strings.Fields(args[i+1])...)
			i++
		case strings.HasPrefix(a, "-") && len(rest) == 0:
			if a == "--python" || a == "--node-options" || a == "--cache" || a == "--registry" || a == "--index-url" || a == "--pip-args" {
				i++
			}
		default:
			rest = append(rest, args[i:]...)
			i = len(args)
		}
	}
	if len(rest) == 0 && len(pkgs) == 0 {
		return "", nil, "", false
	}
	if len(pkgs) > 0 {
		if len(rest) == 0 {
			rest = []string{pkgBinOf(pkgs[0])}
		}
		return pkgs[0], append([]string{rest[0]}, rest[1:]...), tool, true
	}
	return rest[0], append([]string{pkgBinOf(rest[0])}, rest[1:]...), tool, true
}

// pkgCreateSpec is the package "npm init foo" runs: create-foo (or @scope/create).
func pkgCreateSpec(n string) string {
	n = pkgSpecName(n)
	if strings.HasPrefix(n, "@") {
		if i := strings.IndexByte(n, '/'); i > 0 {
			return n[:i+1] + "create-" + n[i+1:]
		}
		return n + "/create"
	}
	return "create-" + n
}

func pkgFetchRunOps(c *execCtx, s *Segment) []pkgOp {
	spec, inner, tool, ok := pkgFetchRun(s)
	if !ok || len(inner) == 0 {
		return nil
	}
	if src, bad := pkgNpmSource(spec); bad && tool != "go run" && !strings.HasPrefix(tool, "uv") && !strings.HasPrefix(tool, "pipx") {
		return []pkgOp{{pkgUntrusted, "Downloads and runs code from " + src + " with " + tool + ", outside any registry"}}
	}
	if pkgVCSOrURL(spec) {
		return []pkgOp{{pkgUntrusted, "Downloads and runs code from " + spec + " with " + tool + ", outside any registry"}}
	}
	bin := inner[0]
	if pkgKnownProjectBins.get()[bin] && !strings.Contains(tool, "dlx") && !strings.Contains(tool, "create") && !strings.HasPrefix(tool, "npm init") && tool != "go run" {
		return nil // the project's own tool: judged as what it runs
	}
	if strings.HasPrefix(tool, "uv") || strings.HasPrefix(tool, "pipx") {
		if _, ok := pkgBuildTools.get()[bin]; ok && bin != "pip" {
			return nil // uvx ruff, pipx run black: a well-known formatter or linter
		}
	}
	if op, ok := pkgRunKnown(c, spec, inner, tool); ok {
		return []pkgOp{op}
	}
	return []pkgOp{{pkgRunPackage, "Downloads " + pkgSpecName(spec) + " from its registry and runs it at once with " + tool +
		", so its code runs unreviewed with your permissions"}}
}

// pkgRunnerInner returns the command a runner runs: npx eslint → eslint, bundle exec rspec →
// rspec, poetry run pytest → pytest, python -m pytest → pytest, aws-vault exec prod -- aws … →
// aws …. hint carries an environment name picked up on the way (a profile, a dotenv file).
func pkgRunnerInner(s *Segment) (inner *Segment, hint string, ok bool) {
	if len(s.Args) < 2 {
		return nil, "", false
	}
	name := pkgNorm(s.Name())
	args := s.Args[1:]
	afterDashDash := func() []string {
		for i, a := range args {
			if a == "--" {
				return args[i+1:]
			}
		}
		return nil
	}
	skip := func(rest []string, withArg ...string) []string {
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			if rest[0] == "--" {
				return rest[1:]
			}
			took := false
			for _, w := range withArg {
				if rest[0] == w && len(rest) > 1 {
					rest = rest[2:]
					took = true
					break
				}
			}
			if !took {
				rest = rest[1:]
			}
		}
		return rest
	}
	var out []string
	if _, in, tool, fetch := pkgFetchRun(s); fetch {
		if tool == "go run" {
			return nil, "", false // the program's own arguments follow, not a command
		}
		return pkgWithArgs(s, in), "", len(in) > 0
	}
	switch name {
	case "npm", "pnpm", "yarn", "bun":
		p := pkgSub(s, pkgNodeValueOpts...)
		if len(p) > 0 && (name == "yarn" || name == "pnpm") && !pkgNodeBuiltins.get()[p[0]] && pkgKnownBin(p[0]) {
			out = pkgAfter(args, p[0])
			out = append([]string{p[0]}, out...)
		}
	case "bundle", "poetry", "pipenv", "pdm", "hatch", "rye", "uv", "pipx", "conda", "rustup", "asdf", "pyenv", "rbenv", "nodenv", "volta", "mise", "rtx", "fnm", "direnv":
		verb := map[string]string{"bundle": "exec", "rustup": "run", "asdf": "exec", "pyenv": "exec", "rbenv": "exec", "nodenv": "exec",
			"volta": "run", "mise": "exec", "rtx": "exec", "fnm": "exec", "direnv": "exec"}[name]
		if verb == "" {
			verb = "run"
		}
		first := skip(args, "-C", "--directory", "--project", "-p", "--python", "--with", "--env-file", "--package", "--extra", "--group", "-n", "--name", "--prefix", "--cwd")
		if (len(first) == 0 || first[0] != verb) && !(name == "mise" && s.sub(0) == "x") {
			return nil, "", false
		}
		rest := pkgAfter(args, verb)
		if name == "mise" && s.sub(0) == "x" {
			rest = pkgAfter(args, "x")
		}
		switch name {
		case "uv":
			rest = skip(rest, "--with", "--python", "-p", "--env-file", "--directory", "--project", "--package", "--extra", "--group", "--index", "--with-requirements", "--with-editable", "--only-group", "--no-group")
		case "conda":
			if v, ok := optValue(rest, "-n", "--name"); ok {
				hint = v
			}
			rest = skip(rest, "-n", "--name", "-p", "--prefix", "--cwd")
		case "rustup", "asdf", "direnv":
			rest = skip(rest)
			if len(rest) > 0 {
				rest = rest[1:] // the toolchain or directory
			}
		case "mise", "rtx", "fnm", "volta":
			if dd := pkgAfter(rest, "--"); dd != nil {
				rest = dd
			} else {
				rest = skip(rest)
			}
		default:
			rest = skip(rest)
		}
		if name == "hatch" && len(rest) > 0 {
			if _, cmd, ok := hatchEnvCommand(rest[0]); ok {
				rest = append([]string{cmd}, rest[1:]...) // hatch run test:pytest runs pytest in the test environment
			}
		}
		out = rest
	case "python", "python3":
		for i := 0; i < len(args); i++ {
			a := args[i]
			if a == "-m" && i+1 < len(args) {
				out = args[i+1:]
				break
			}
			if strings.HasPrefix(a, "-m") && len(a) > 2 {
				out = append([]string{a[2:]}, args[i+1:]...)
				break
			}
			if a == "-X" || a == "-W" {
				i++
				continue
			}
			if !strings.HasPrefix(a, "-") || a == "-c" || a == "-" {
				return nil, "", false
			}
		}
	case "dotenv", "dotenvx", "op", "doppler", "infisical", "chamber", "aws-vault", "with-contenv", "envchain", "sops", "cross-env", "teller", "summon":
		switch name {
		case "dotenv", "dotenvx":
			if v, ok := optValue(args, "-e", "-f", "--env-file"); ok {
				hint = v
			}
			if v, ok := optValue(args, "-c"); ok {
				hint += " " + v
			}
		case "doppler":
			if v, ok := optValue(args, "-c", "--config", "-e", "--environment"); ok {
				hint = v
			}
		case "infisical":
			if v, ok := optValue(args, "--env"); ok {
				hint = v
			}
		case "op":
			if v, ok := optValue(args, "--env-file"); ok {
				hint = v
			}
		case "aws-vault":
			if p := s.positional(0, "--duration", "-d", "--region", "--backend"); len(p) >= 2 && p[0] == "exec" {
				hint = p[1]
				out = pkgAfter(args, p[1])
				if len(out) > 0 && out[0] == "--" {
					out = out[1:]
				}
			}
		case "chamber":
			if p := s.positional(0); len(p) >= 2 && p[0] == "exec" {
				hint = strings.Join(p[1:], " ")
			}
		case "cross-env":
			rest := args
			for len(rest) > 0 && (isAssignWord(rest[0]) || strings.HasPrefix(rest[0], "-")) {
				if isAssignWord(rest[0]) {
					hint += " " + rest[0]
				}
				rest = rest[1:]
			}
			out = rest
		}
		if out == nil {
			out = afterDashDash()
		}
	default:
		return nil, "", false
	}
	if len(out) == 0 {
		return nil, "", false
	}
	return pkgWithArgs(s, out), strings.TrimSpace(hint), true
}

// ---- Python ----

var pkgPipValueOpts = []string{"-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url", "--extra-index-url",
	"-f", "--find-links", "--trusted-host", "-t", "--target", "--prefix", "--root", "--src", "--platform", "--python-version",
	"--implementation", "--abi", "--progress-bar", "--log", "--proxy", "--retries", "--timeout", "--exists-action", "--cert",
	"--client-cert", "--cache-dir", "--upgrade-strategy", "--no-binary", "--only-binary", "--config-settings", "-C", "--global-option",
	"--report", "-d", "--dest", "--python", "-p", "--index", "--default-index", "--index-strategy", "--keyring-provider", "--group",
	"--extra", "--resolution", "--prerelease", "--override", "--build-constraint", "--exclude-newer"}

// pkgPip judges pip (and uv pip) given the words after "pip".
func pkgPip(c *execCtx, s *Segment, words []string, tool string) []pkgOp {
	ps := pkgWithArgs(s, append([]string{"pip"}, words...))
	p := pkgSub(ps, pkgPipValueOpts...)
	if len(p) == 0 {
		return nil
	}
	sub, names := p[0], p[1:]
	cmd := tool + " " + sub
	switch sub {
	case "install", "download", "wheel", "sync":
		var ops []pkgOp
		reqs := pkgOptValues(words, "-r", "--requirement")
		edits := pkgOptValues(words, "-e", "--editable")
		for _, spec := range append(append([]string{}, names...), edits...) {
			if pkgVCSOrURL(spec) && !strings.HasPrefix(strings.ToLower(spec), "file:") {
				ops = append(ops, pkgOp{pkgUntrusted, "Installs " + capText(spec) + " with " + cmd + " straight from a repository or URL, not the package index; its build code runs at install"})
				break
			}
		}
		for _, ix := range pkgOptValues(words, "-i", "--index-url", "--extra-index-url", "--index", "--default-index") {
			if !pkgDefaultHost(c, ix) {
				what := "the package index at " + pkgHost(ix)
				if strings.Contains(strings.Join(words, " "), "--extra-index-url") {
					what += " (an extra index: a same-named package there can shadow the real one)"
				}
				ops = append(ops, pkgOp{pkgUntrusted, "Installs packages from " + what + " with " + cmd})
				break
			}
		}
		for _, fl := range pkgOptValues(words, "-f", "--find-links") {
			if strings.Contains(fl, "://") && !pkgDefaultHost(c, fl) {
				ops = append(ops, pkgOp{pkgUntrusted, "Installs packages found at " + pkgHost(fl) + " with " + cmd})
				break
			}
		}
		if th := pkgOptValues(words, "--trusted-host"); len(th) > 0 {
			ops = append(ops, pkgOp{pkgInsecureFetch, "Runs " + cmd + " with --trusted-host " + th[0] + ", which skips TLS checks for that host"})
		}
		if sub == "download" || sub == "wheel" {
			what := pkgList(names)
			if len(names) == 0 {
				what = "the project's requirements"
			}
			if sub == "wheel" {
				return append(ops, pkgOp{pkgBuild, "Builds wheels for " + what + " with " + cmd})
			}
			return append(ops, pkgOp{pkgProjectInstall, "Downloads " + what + " with " + cmd + " without installing them"})
		}
		outside := ""
		for _, d := range pkgOptValues(words, "-t", "--target", "--prefix", "--root") {
			if t := c.target(d); t.zone != ZoneWorkspace && t.zone != ZoneTemp {
				outside = d
			}
		}
		var registry, local []string
		for _, n := range append(append([]string{}, names...), edits...) {
			switch {
			case pkgLocalPath(n):
				local = append(local, n)
			case !pkgVCSOrURL(n):
				registry = append(registry, n)
			}
		}
		what := pkgList(registry)
		if len(registry) == 0 {
			what = "the project's requirements"
			if len(reqs) > 0 {
				what = "the requirements in " + reqs[0]
			} else if len(local) > 0 {
				what = "the project (" + strings.Join(local, " ") + ")"
			}
		}
		switch {
		case ps.arg("--user") && len(registry) > 0 && len(local)+len(reqs) == 0 && outside == "" && !ps.arg("--break-system-packages"):
			ops = append(ops, pkgOp{pkgUserTool, "Installs " + what + " for the user with " + cmd + " --user, from the package index"})
		case ps.arg("--user"):
			ops = append(ops, pkgOp{pkgGlobal, "Installs " + what + " for the whole user account with " + cmd + " --user, outside the project's environment"})
		case ps.arg("--break-system-packages"):
			ops = append(ops, pkgOp{pkgGlobal, "Installs " + what + " into the system Python with --break-system-packages, which can break OS tools"})
		case ps.arg("--system"):
			ops = append(ops, pkgOp{pkgGlobal, "Installs " + what + " into the system Python with " + cmd + " --system"})
		case outside != "":
			ops = append(ops, pkgOp{pkgGlobal, "Installs " + what + " into " + outside + ", outside the workspace"})
		case len(registry) > 0:
			ops = append(ops, pkgOp{pkgAddDep, "Installs " + what + " into the current Python environment with " + cmd})
		case len(reqs)+len(local) > 0 || len(ops) == 0 && sub == "sync":
			ops = append(ops, pkgOp{pkgProjectInstall, "Installs " + what + " with " + cmd})
		}
		return ops
	case "uninstall":
		return []pkgOp{{pkgUninstall, "Uninstalls " + pkgList(names) + " with " + cmd + " from an environment that may not be the project's"}}
	case "list", "show", "freeze", "check", "index", "inspect", "debug", "hash", "help", "search", "tree", "--version", "-V":
		return []pkgOp{{pkgQuery, "Inspects installed Python packages with " + joinArgs(append([]string{tool}, words...))}}
	case "cache":
		if len(names) > 0 && (names[0] == "purge" || names[0] == "remove") {
			return []pkgOp{{pkgBuild, "Clears pip's download cache"}}
		}
		return []pkgOp{{pkgQuery, "Inspects pip's cache"}}
	case "config":
		if len(names) == 0 {
			return nil
		}
		switch names[0] {
		case "list", "get", "debug":
			return []pkgOp{{pkgQuery, "Reads pip's configuration"}}
		case "set", "unset", "edit":
			kv := strings.ToLower(strings.Join(names[1:], " "))
			if strings.Contains(kv, "trusted-host") || strings.Contains(kv, "index-url") && strings.Contains(kv, "http://") {
				return []pkgOp{{pkgInsecureConfig, "Changes pip's configuration (" + capText(strings.Join(names[1:], " ")) + "), weakening where every future install comes from"}}
			}
			if strings.Contains(kv, "index-url") {
				for _, f := range names[1:] {
					if strings.Contains(f, "://") && !pkgDefaultHost(c, f) {
						return []pkgOp{{pkgInsecureConfig, "Points pip at the index " + pkgHost(f) + " for every future install"}}
					}
				}
			}
			return []pkgOp{{pkgConfig, "Changes pip's user configuration (" + capText(strings.Join(names[1:], " ")) + ")"}}
		}
	}
	return nil
}

// pkgOptValues returns every value of the named options ("-r a -r b", "--req=x").
func pkgOptValues(args []string, names ...string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		for _, n := range names {
			switch {
			case a == n && i+1 < len(args):
				out = append(out, args[i+1])
				i++
			case strings.HasPrefix(n, "--") && strings.HasPrefix(a, n+"="):
				out = append(out, a[len(n)+1:])
			case len(n) == 2 && n[0] == '-' && n[1] != '-' && strings.HasPrefix(a, n) && len(a) > 2 && a[2] != '-' && !strings.HasPrefix(a, "--"):
				out = append(out, a[2:])
			default:
				continue
			}
			break
		}
	}
	return out
}

func pkgUv(c *execCtx, s *Segment) []pkgOp {
	p := pkgSub(s, pkgPipValueOpts...)
	if len(p) == 0 {
		return nil
	}
	switch p[0] {
	case "pip":
		return pkgPip(c, s, pkgAfter(s.Args[1:], "pip"), "uv pip")
	case "sync", "lock":
		return []pkgOp{{pkgProjectInstall, "Installs the project's locked dependencies with uv " + p[0]}}
	case "add":
		return pkgPyAdd(c, s, "uv add", p[1:])
	case "remove":
		return []pkgOp{{pkgRemoveDep, "Removes " + pkgList(p[1:]) + " from the project with uv remove"}}
	case "tool":
		if len(p) < 2 {
			return nil
		}
		switch p[1] {
		case "install", "upgrade":
			if len(p) > 2 && pkgVCSOrURL(p[2]) {
				return []pkgOp{{pkgUntrusted, "Installs a tool from " + p[2] + " with uv tool install"}}
			}
			return []pkgOp{{pkgUserTool, "Installs " + pkgList(p[2:]) + " as a user-wide tool with uv tool " + p[1]}}
		case "uninstall":
			return []pkgOp{{pkgUninstall, "Uninstalls the user-wide tool " + pkgList(p[2:])}}
		case "list", "dir":
			return []pkgOp{{pkgQuery, "Lists uv's installed tools"}}
		case "run":
			return pkgFetchRunOps(c, s)
		}
	case "python":
		if len(p) > 1 && (p[1] == "install" || p[1] == "upgrade") {
			return []pkgOp{{pkgGlobal, "Installs a Python toolchain for the user with uv python " + p[1]}}
		}
		if len(p) > 1 && (p[1] == "list" || p[1] == "find" || p[1] == "dir") {
			return []pkgOp{{pkgQuery, "Lists Python installations"}}
		}
		if len(p) > 1 && p[1] == "pin" {
			return []pkgOp{{pkgBuild, "Pins the project's Python version"}}
		}
	case "self":
		return []pkgOp{{pkgGlobal, "Updates uv itself"}}
	case "tree", "version":
		if p[0] == "version" && len(p) > 1 {
			return []pkgOp{{pkgBuild, "Bumps the project version with uv version"}}
		}
		return []pkgOp{{pkgQuery, "Inspects the project's dependencies with " + joinArgs(s.Args)}}
	case "venv", "build", "init", "export", "format":
		return []pkgOp{{pkgBuild, "Runs " + joinArgs(s.Args) + " for the project"}}
	case "publish":
		if s.arg("--dry-run") {
			return []pkgOp{{pkgBuild, "Checks what uv publish would upload"}}
		}
		return []pkgOp{{pkgPublish, "Publishes the package to PyPI with uv publish"}}
	}
	return nil
}

func pkgPyAdd(c *execCtx, s *Segment, cmd string, names []string) []pkgOp {
	for _, n := range names {
		if pkgVCSOrURL(n) {
			return []pkgOp{{pkgUntrusted, "Adds " + capText(n) + " to the project with " + cmd + " straight from a repository or URL"}}
		}
	}
	for _, ix := range pkgOptValues(s.Args[1:], "--index", "--index-url", "--default-index", "--source") {
		if strings.Contains(ix, "://") && !pkgDefaultHost(c, ix) {
			return []pkgOp{{pkgUntrusted, "Adds packages from the index at " + pkgHost(ix) + " with " + cmd}}
		}
	}
	return []pkgOp{{pkgAddDep, "Adds " + pkgList(names) + " to the project's dependencies with " + cmd}}
}

func pkgPipx(c *execCtx, s *Segment) []pkgOp {
	p := pkgSub(s, "--python", "--pip-args", "--index-url", "--spec", "--suffix")
	if len(p) == 0 {
		return nil
	}
	switch p[0] {
	case "install", "inject", "upgrade", "upgrade-all", "reinstall", "reinstall-all", "ensurepath", "install-all", "upgrade-shared":
		for _, n := range p[1:] {
			if pkgVCSOrURL(n) {
				return []pkgOp{{pkgUntrusted, "Installs a tool from " + capText(n) + " with pipx, straight from a repository or URL"}}
			}
		}
		if p[0] == "ensurepath" {
			return []pkgOp{{pkgGlobal, "Adds pipx's directory to PATH in the shell startup files"}}
		}
		return []pkgOp{{pkgUserTool, "Installs " + pkgList(p[1:]) + " as user-wide tools with pipx " + p[0]}}
	case "uninstall", "uninstall-all", "uninject":
		return []pkgOp{{pkgUninstall, "Uninstalls user-wide tools with pipx " + p[0]}}
	case "list", "environment":
		return []pkgOp{{pkgQuery, "Lists pipx's installed tools"}}
	case "run":
		return pkgFetchRunOps(c, s)
	}
	return nil
}

func pkgPyProject(c *execCtx, s *Segment, tool string) []pkgOp {
	p := pkgSub(s, "-C", "--directory", "-P", "--project", "-G", "--group", "-E", "--extras", "--with", "--without", "--only", "-r", "--repository", "-u", "--username", "-p", "--password", "--source", "--python")
	if len(p) == 0 {
		if tool == "pipenv" {
			return nil
		}
		return nil
	}
	sub, rest := p[0], p[1:]
	cmd := tool + " " + sub
	switch sub {
	case "run":
		if op, ok := hatchScriptOp(tool, rest); ok {
			return []pkgOp{op}
		}
	case "install", "sync", "lock", "update", "upgrade":
		if tool == "pipenv" && sub == "install" && len(rest) > 0 {
			return pkgPyAdd(c, s, cmd, rest)
		}
		if (sub == "update" || sub == "upgrade") && len(rest) > 0 {
			return []pkgOp{{pkgAddDep, "Upgrades " + pkgList(rest) + " in the project with " + cmd}}
		}
		return []pkgOp{{pkgProjectInstall, "Installs the project's declared dependencies with " + cmd}}
	case "add":
		return pkgPyAdd(c, s, cmd, rest)
	case "remove", "uninstall":
		return []pkgOp{{pkgRemoveDep, "Removes " + pkgList(rest) + " from the project's dependencies with " + cmd}}
	case "publish":
		if s.arg("--dry-run") {
			return []pkgOp{{pkgBuild, "Checks what " + cmd + " would upload (--dry-run)"}}
		}
		return []pkgOp{{pkgPublish, "Publishes the package to a Python package index with " + joinArgs(s.Args)}}
	case "show", "check", "graph", "search", "about", "--version", "list", "info", "requirements", "verify", "--venv", "--where", "--py":
		return []pkgOp{{pkgQuery, "Inspects the project's dependencies with " + joinArgs(s.Args)}}
	case "env":
		if len(rest) > 0 && (rest[0] == "info" || rest[0] == "list") {
			return []pkgOp{{pkgQuery, "Shows the project's virtual environments"}}
		}
		if len(rest) > 0 && rest[0] == "use" {
			return []pkgOp{{pkgBuild, "Selects the Python for the project's virtual environment"}}
		}
		if len(rest) > 0 && rest[0] == "remove" {
			return []pkgOp{{pkgBuild, "Removes a virtual environment of the project, which " + tool + " can recreate"}}
		}
	case "build", "new", "init", "version", "export", "fmt", "test", "shell", "clean", "scripts":
		if sub == "version" && len(rest) == 0 {
			return []pkgOp{{pkgQuery, "Shows the project version"}}
		}
		return []pkgOp{{pkgBuild, "Runs " + joinArgs(s.Args) + " for the project"}}
	case "config":
		if s.hasFlag("", "--list") || len(rest) == 1 {
			return []pkgOp{{pkgQuery, "Reads " + tool + "'s configuration"}}
		}
		kv := strings.ToLower(strings.Join(rest, " "))
		if strings.Contains(kv, "cert") && strings.Contains(kv, "false") {
			return []pkgOp{{pkgInsecureConfig, "Turns off TLS certificate checks for a package source in " + tool + "'s configuration"}}
		}
		if s.arg("--local") {
			return []pkgOp{{pkgBuild, "Changes the project's " + tool + " configuration"}}
		}
		return []pkgOp{{pkgConfig, "Changes " + tool + "'s user configuration (" + capText(strings.Join(rest, " ")) + ")"}}
	case "self":
		return []pkgOp{{pkgGlobal, "Changes " + tool + " itself (" + joinArgs(s.Args) + ")"}}
	}
	return nil
}

func pkgConda(c *execCtx, s *Segment) []pkgOp {
	p := pkgSub(s, "-n", "--name", "-p", "--prefix", "-c", "--channel", "-f", "--file")
	if len(p) == 0 {
		return nil
	}
	tool := s.Name()
	switch p[0] {
	case "env":
		if len(p) < 2 {
			return nil
		}
		switch p[1] {
		case "create", "update":
			if _, ok := optValue(s.Args[1:], "-f", "--file"); ok || len(p) == 2 {
				return []pkgOp{{pkgProjectInstall, "Creates or updates the project's conda environment from its environment file with " + tool + " env " + p[1]}}
			}
			return []pkgOp{{pkgGlobal, "Creates a conda environment with " + joinArgs(s.Args)}}
		case "remove":
			return []pkgOp{{pkgUninstall, "Removes a whole conda environment with " + joinArgs(s.Args)}}
		case "list", "export", "config":
			return []pkgOp{{pkgQuery, "Inspects conda environments"}}
		}
	case "install", "update", "upgrade", "create":
		return []pkgOp{{pkgGlobal, "Installs " + pkgList(p[1:]) + " into a conda environment outside the workspace with " + tool + " " + p[0]}}
	case "remove", "uninstall":
		return []pkgOp{{pkgUninstall, "Removes packages from a conda environment with " + joinArgs(s.Args)}}
	case "list", "info", "search", "doctor", "compare", "notices":
		return []pkgOp{{pkgQuery, "Inspects conda packages"}}
	case "clean":
		return []pkgOp{{pkgBuild, "Cleans conda's caches"}}
	case "config":
		j := strings.ToLower(strings.Join(s.Args, " "))
		if s.arg("--show", "--show-sources", "--get", "--describe") {
			return []pkgOp{{pkgQuery, "Reads conda's configuration"}}
		}
		if strings.Contains(j, "ssl_verify false") || strings.Contains(j, "ssl_verify no") || strings.Contains(j, "ssl_verify 0") {
			return []pkgOp{{pkgInsecureConfig, "Turns off TLS certificate checks for every future conda install"}}
		}
		return []pkgOp{{pkgConfig, "Changes conda's user configuration (" + joinArgs(s.Args) + ")"}}
	}
	return nil
}

// ---- Go ----

var pkgGoBuildFlags = []string{"-C", "-o", "-tags", "-ldflags", "-gcflags", "-asmflags", "-mod", "-exec", "-p", "-toolexec", "-overlay",
	"-pgo", "-run", "-bench", "-count", "-timeout", "-coverprofile", "-covermode", "-coverpkg", "-cpu", "-parallel", "-skip", "-benchtime",
	"-blockprofile", "-cpuprofile", "-memprofile", "-mutexprofile", "-trace", "-outputdir", "-fuzz", "-fuzztime", "-shuffle", "-f", "-json=false"}

func pkgGo(c *execCtx, s *Segment) []pkgOp {
	p := pkgSub(s, pkgGoBuildFlags...)
	if len(p) == 0 {
		return nil
	}
	var ops []pkgOp
	switch p[0] {
	case "get":
		pk := p[1:]
		if len(pk) == 0 {
			if s.hasFlag("u") {
				return []pkgOp{{pkgAddDep, "Upgrades the module's dependencies with go get -u"}}
			}
			return []pkgOp{{pkgProjectInstall, "Resolves the module's dependencies with go get"}}
		}
		for _, x := range pk {
			if strings.HasSuffix(x, "@none") {
				return []pkgOp{{pkgRemoveDep, "Removes " + strings.TrimSuffix(x, "@none") + " from the module's dependencies"}}
			}
		}
		return []pkgOp{{pkgAddDep, "Adds " + pkgList(pk) + " to the module's dependencies with go get"}}
	case "install":
		pk := p[1:]
		remote := false
		for _, x := range pk {
			if strings.Contains(x, "@") {
				remote = true
			}
		}
		if remote {
			return []pkgOp{{pkgUserTool, "Installs " + pkgList(pk) + " into ~/go/bin with go install"}}
		}
		return []pkgOp{{pkgGlobal, "Installs the module's commands into ~/go/bin with go install, where they can shadow other programs"}}
	case "mod":
		if len(p) < 2 {
			return nil
		}
		switch p[1] {
		case "download", "tidy", "vendor":
			return []pkgOp{{pkgProjectInstall, "Downloads and records the module's declared dependencies with go mod " + p[1]}}
		case "graph", "why", "verify":
			return []pkgOp{{pkgQuery, "Inspects the module's dependencies with go mod " + p[1]}}
		case "init", "edit":
			if op, ok := goReplaceFork(s); ok {
				return []pkgOp{op}
			}
			return []pkgOp{{pkgBuild, "Edits the module's go.mod with go mod " + p[1]}}
		}
		return nil
	case "run":
		if ops := pkgFetchRunOps(c, s); ops != nil {
			return ops
		}
		return []pkgOp{{pkgBuild, "Builds and runs the project's code: " + joinArgs(s.Args)}}
	case "env":
		w := pkgOptValues(s.Args[1:], "-w")
		if len(w) == 0 && !s.arg("-w") && !s.arg("-u") {
			return []pkgOp{{pkgQuery, "Shows Go's environment settings"}}
		}
		all := append(w, p[1:]...)
		for _, kv := range all {
			k, v, _ := strings.Cut(kv, "=")
			if goInsecure(k, v) {
				return []pkgOp{{pkgInsecureConfig, "Sets " + kv + " for every future go command, turning off module authenticity checks"}}
			}
		}
		return []pkgOp{{pkgConfig, "Changes Go's user-wide settings with go env -w " + capText(strings.Join(all, " "))}}
	case "list", "version":
		return []pkgOp{{pkgQuery, "Inspects packages and modules with " + joinArgs(s.Args)}}
	case "build", "test", "vet", "fmt", "generate", "tool", "doc", "fix", "work", "clean", "help", "bug":
		ops = append(ops, pkgOp{pkgBuild, "Runs the project's build/test tool: " + joinArgs(s.Args)})
	}
	return ops
}

// goInsecure reports Go settings that turn off module authentication.
func goInsecure(k, v string) bool {
	switch k {
	case "GOSUMDB":
		return v == "off"
	case "GOINSECURE", "GONOSUMCHECK", "GONOSUMDB":
		return v != "" && k != "GONOSUMDB" || v == "*"
	case "GOFLAGS":
		return strings.Contains(v, "-insecure")
	case "GOPROXY":
		return strings.Contains(v, "http://")
	}
	return false
}

// pkgEnvFetchOps finds variables set for this request that turn off TLS or checksum checks
// for a package command (NODE_TLS_REJECT_UNAUTHORIZED=0 npm install). Prefix assignments are
// not in a segment's argv, so the request's own text is scanned; that errs on the side of
// asking.
func pkgEnvFetchOps(c *execCtx, s *Segment, ops []pkgOp) []pkgOp {
	fetches := false
	for _, o := range ops {
		switch o.kind {
		case pkgProjectInstall, pkgAddDep, pkgGlobal, pkgUserTool, pkgUntrusted, pkgRunPackage, pkgSystem, pkgRunPopular:
			fetches = true
		}
	}
	if !fetches {
		return nil
	}
	for _, kv := range requestAssigns(c, s) {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "NODE_TLS_REJECT_UNAUTHORIZED" && v == "0", k == "PIP_TRUSTED_HOST" && v != "", k == "GIT_SSL_NO_VERIFY" && v != "" && v != "0" && v != "false",
			k == "PYTHONHTTPSVERIFY" && v == "0", k == "NPM_CONFIG_STRICT_SSL" && v == "false", k == "npm_config_strict_ssl" && v == "false",
			k == "CARGO_HTTP_CHECK_REVOKE" && v == "false", k == "YARN_ENABLE_STRICT_SSL" && v == "false", goInsecure(k, v):
			return []pkgOp{{pkgInsecureFetch, "Runs " + pkgCmd(s, 3) + " with " + kv + ", which turns off TLS or checksum checks so a network attacker could swap packages"}}
		}
	}
	return nil
}

// requestAssigns returns NAME=value words that the request sets: the segment's own env
// prefix (kept in its text) and assignment words anywhere in the request's command.
func requestAssigns(c *execCtx, s *Segment) []string {
	var out []string
	assignWords(s.Text, func(f string) {
		if !slices.Contains(out, f) { // the text is capped (maxTextLen): a short list
			out = append(out, f)
		}
	})
	if c != nil && c.req != nil {
		own := len(out)
		for _, f := range c.requestAssignWords() {
			if !slices.Contains(out[:own], f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// requestAssignWords is the request's part of requestAssigns, distinct and in order,
// computed once per request: the rules that ask run for every segment.
func (c *execCtx) requestAssignWords() []string {
	if c.reqAssignsDone {
		return c.reqAssigns
	}
	var out []string
	seen := map[string]bool{}
	// Bounded: a huge request must not make this slow. Prefix assignments of real requests
	// sit near the start.
	budget := 2048
	for _, a := range c.req.Command {
		if budget <= 0 {
			break
		}
		if len(a) > budget {
			a = a[:budget]
		}
		budget -= len(a)
		assignWords(a, func(f string) {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		})
	}
	c.reqAssigns, c.reqAssignsDone = out, true
	return out
}

// assignWords calls yield for every NAME=value word of a shell text (quotes trimmed).
func assignWords(text string, yield func(string)) {
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '&' || r == '|' || r == '(' || r == ')'
	}) {
		if f = strings.Trim(f, `"'`); isAssignWord(f) {
			yield(f)
		}
	}
}

// ---- Rust ----

func pkgRust(c *execCtx, s *Segment, tool string) []pkgOp {
	if tool == "rustup" {
		p := pkgSub(s, "--toolchain", "--profile", "-c", "--component", "-t", "--target")
		if len(p) == 0 {
			return nil
		}
		switch p[0] {
		case "update", "install", "default", "set", "self", "target", "component", "toolchain", "override":
			if len(p) > 1 && (p[1] == "list" || p[1] == "show") {
				return []pkgOp{{pkgQuery, "Lists Rust toolchains or components"}}
			}
			if p[0] == "toolchain" && len(p) > 1 && (p[1] == "uninstall" || p[1] == "remove") {
				return []pkgOp{{pkgUninstall, "Uninstalls a Rust toolchain"}}
			}
			if (p[0] == "component" || p[0] == "target") && len(p) > 2 && p[1] == "add" || p[0] == "toolchain" && len(p) > 2 && p[1] == "install" {
				return []pkgOp{{pkgUserTool, "Adds to the user's Rust toolchains with " + joinArgs(s.Args)}}
			}
			return []pkgOp{{pkgGlobal, "Changes the user's Rust toolchains with " + joinArgs(s.Args)}}
		case "show", "which", "--version", "doc", "check":
			return []pkgOp{{pkgQuery, "Inspects the Rust toolchains with " + joinArgs(s.Args)}}
		case "uninstall":
			return []pkgOp{{pkgUninstall, "Uninstalls rustup and every Rust toolchain"}}
		}
		return nil
	}
	p := pkgSub(s, "-p", "--package", "--features", "-F", "--target", "--manifest-path", "--bin", "--example", "--test", "--bench",
		"-j", "--jobs", "--profile", "--target-dir", "--color", "-Z", "--config", "--git", "--branch", "--tag", "--rev", "--path",
		"--registry", "--index", "--root", "--version", "--vers", "--message-format", "--token", "--rename")
	if len(p) == 0 {
		return nil
	}
	sub, rest := p[0], p[1:]
	dry := s.arg("--dry-run")
	switch sub {
	case "add":
		if g, ok := optValue(s.Args[1:], "--git"); ok {
			return []pkgOp{{pkgUntrusted, "Adds a dependency from the repository " + g + " with cargo add instead of crates.io"}}
		}
		return []pkgOp{{pkgAddDep, "Adds " + pkgList(rest) + " to the crate's dependencies with cargo add"}}
	case "remove", "rm":
		return []pkgOp{{pkgRemoveDep, "Removes " + pkgList(rest) + " from the crate's dependencies"}}
	case "install", "binstall":
		var ops []pkgOp
		if g, ok := optValue(s.Args[1:], "--git"); ok {
			ops = append(ops, pkgOp{pkgUntrusted, "Builds and installs a tool from the repository " + g + " with cargo install instead of crates.io; its build script runs unreviewed"})
		}
		if r, ok := optValue(s.Args[1:], "--index"); ok && !pkgDefaultHost(c, r) {
			ops = append(ops, pkgOp{pkgUntrusted, "Installs a tool from the registry index at " + pkgHost(r)})
		}
		if _, ok := optValue(s.Args[1:], "--path"); ok || len(rest) == 0 {
			return append(ops, pkgOp{pkgGlobal, "Installs the crate's binaries into ~/.cargo/bin with cargo " + sub + ", outside the workspace"})
		}
		return append(ops, pkgOp{pkgUserTool, "Installs " + pkgList(rest) + " into ~/.cargo/bin with cargo " + sub})
	case "uninstall":
		return []pkgOp{{pkgUninstall, "Uninstalls " + pkgList(rest) + " from ~/.cargo/bin"}}
	case "publish", "yank", "owner":
		if dry || sub == "owner" && (s.hasFlag("l", "--list")) {
			return []pkgOp{{pkgBuild, "Checks the crate for publishing (" + joinArgs(s.Args) + ")"}}
		}
		return []pkgOp{{pkgPublish, "Publishes to crates.io with " + joinArgs(s.Args) + "; published versions cannot be deleted"}}
	case "fetch", "update", "generate-lockfile", "vendor":
		return []pkgOp{{pkgProjectInstall, "Downloads or updates the crate's declared dependencies with cargo " + sub}}
	case "tree", "metadata", "search", "pkgid", "verify-project", "version", "locate-project", "read-manifest", "info", "outdated",
		"audit", "deny", "--version", "-V", "--list", "help":
		return []pkgOp{{pkgQuery, "Inspects the crate's dependencies with " + joinArgs(s.Args)}}
	case "build", "b", "test", "t", "check", "c", "clippy", "fmt", "run", "r", "bench", "doc", "d", "clean", "new", "init", "fix",
		"nextest", "llvm-cov", "expand", "miri", "tarpaulin", "watch", "insta", "hack", "make", "criterion", "udeps", "machete", "semver-checks", "zigbuild":
		return []pkgOp{{pkgBuild, "Runs the project's build/test tool: " + joinArgs(s.Args)}}
	}
	return nil
}

// ---- Ruby and PHP ----

func pkgRubyPHP(c *execCtx, s *Segment, tool string) []pkgOp {
	p := pkgSub(s, "--source", "-s", "-v", "--version", "--gemfile", "--path", "--jobs", "-j", "--without", "--with", "-d", "--working-dir", "--install-dir", "-i", "--bindir", "--retry", "-k", "--key", "--host", "--otp")
	switch tool {
	case "gem":
		if len(p) == 0 {
			return nil
		}
		switch p[0] {
		case "install", "i", "update":
			var ops []pkgOp
			if src, ok := optValue(s.Args[1:], "--source", "--clear-sources"); ok && !pkgDefaultHost(c, src) {
				ops = append(ops, pkgOp{pkgUntrusted, "Installs gems from the source " + src + " instead of rubygems.org"})
			}
			if p[0] == "update" && s.arg("--system") {
				return append(ops, pkgOp{pkgGlobal, "Updates RubyGems itself with gem update --system"})
			}
			if s.arg("--user-install") && len(p) > 1 {
				return append(ops, pkgOp{pkgUserTool, "Installs " + pkgList(p[1:]) + " into the user's gem directory with gem " + p[0] + " --user-install"})
			}
			return append(ops, pkgOp{pkgGlobal, "Installs " + pkgList(p[1:]) + " for the whole Ruby installation with gem " + p[0] + ", outside the project's bundle"})
		case "uninstall", "cleanup":
			return []pkgOp{{pkgUninstall, "Uninstalls gems with " + joinArgs(s.Args)}}
		case "push", "yank", "owner":
			if p[0] == "owner" && len(p) <= 2 && !s.hasFlag("ar", "--add", "--remove") {
				return []pkgOp{{pkgQuery, "Lists a gem's owners"}}
			}
			return []pkgOp{{pkgPublish, "Publishes to rubygems.org with " + joinArgs(s.Args)}}
		case "build":
			return []pkgOp{{pkgBuild, "Builds a gem package with " + joinArgs(s.Args)}}
		case "list", "search", "info", "which", "env", "outdated", "contents", "specification", "spec", "query", "dependency", "help", "environment", "--version":
			return []pkgOp{{pkgQuery, "Inspects installed gems with " + joinArgs(s.Args)}}
		case "sources":
			if a, ok := optValue(s.Args[1:], "--add", "-a"); ok {
				if strings.HasPrefix(a, "http://") || !pkgDefaultHost(c, a) {
					return []pkgOp{{pkgInsecureConfig, "Adds " + a + " as a gem source for every future install"}}
				}
				return []pkgOp{{pkgConfig, "Adds a gem source"}}
			}
			if s.hasFlag("r", "--remove", "--clear-all") {
				return []pkgOp{{pkgConfig, "Changes the gem sources"}}
			}
			return []pkgOp{{pkgQuery, "Lists the gem sources"}}
		}
	case "bundle":
		if len(p) == 0 {
			return []pkgOp{{pkgProjectInstall, "Installs the project's declared gems with bundle install"}}
		}
		switch p[0] {
		case "install", "update", "lock", "cache", "package", "binstubs", "clean", "pristine":
			if s.arg("--system") {
				return []pkgOp{{pkgGlobal, "Installs the project's gems into the system gem directory with bundle install --system"}}
			}
			if p[0] == "update" && len(p) > 1 {
				return []pkgOp{{pkgAddDep, "Upgrades " + pkgList(p[1:]) + " in the project's bundle"}}
			}
			return []pkgOp{{pkgProjectInstall, "Installs the project's declared gems with bundle " + p[0]}}
		case "add":
			if g, ok := optValue(s.Args[1:], "--git", "--github"); ok {
				return []pkgOp{{pkgUntrusted, "Adds a gem from the repository " + g + " to the project's Gemfile"}}
			}
			return []pkgOp{{pkgAddDep, "Adds " + pkgList(p[1:]) + " to the project's Gemfile with bundle add"}}
		case "remove":
			return []pkgOp{{pkgRemoveDep, "Removes " + pkgList(p[1:]) + " from the project's Gemfile"}}
		case "list", "outdated", "show", "info", "check", "doctor", "platform", "licenses", "version", "audit", "viz", "help":
			return []pkgOp{{pkgQuery, "Inspects the project's bundle with " + joinArgs(s.Args)}}
		case "config":
			if len(p) < 2 || p[1] == "get" || p[1] == "list" {
				return []pkgOp{{pkgQuery, "Reads bundler's configuration"}}
			}
			j := strings.ToLower(strings.Join(s.Args, " "))
			if strings.Contains(j, "ssl_verify_mode 0") || strings.Contains(j, "ssl_verify_mode=0") {
				return []pkgOp{{pkgInsecureConfig, "Turns off TLS certificate checks for bundler"}}
			}
			if s.arg("--local") {
				return []pkgOp{{pkgBuild, "Changes the project's bundler configuration (" + capText(strings.Join(p[1:], " ")) + ")"}}
			}
			return []pkgOp{{pkgConfig, "Changes bundler's user configuration (" + capText(strings.Join(p[1:], " ")) + "), which applies to every project"}}
		case "init", "gem":
			return []pkgOp{{pkgBuild, "Runs " + joinArgs(s.Args)}}
		}
	case "composer":
		if len(p) == 0 {
			return nil
		}
		global := p[0] == "global"
		if global && len(p) > 1 {
			p = p[1:]
		}
		switch p[0] {
		case "install", "i", "update", "u", "upgrade", "reinstall", "dump-autoload", "dumpautoload":
			if global {
				return []pkgOp{{pkgGlobal, "Changes the user's global composer packages"}}
			}
			if (p[0] == "update" || p[0] == "u" || p[0] == "upgrade") && len(p) > 1 {
				return []pkgOp{{pkgAddDep, "Upgrades " + pkgList(p[1:]) + " in the project with composer " + p[0]}}
			}
			if p[0] == "dump-autoload" || p[0] == "dumpautoload" {
				return []pkgOp{{pkgBuild, "Regenerates composer's autoloader"}}
			}
			return []pkgOp{{pkgProjectInstall, "Installs the project's declared dependencies with composer " + p[0]}}
		case "require", "r":
			if global {
				return []pkgOp{{pkgGlobal, "Installs " + pkgList(p[1:]) + " globally with composer global require"}}
			}
			return []pkgOp{{pkgAddDep, "Adds " + pkgList(p[1:]) + " to the project with composer require"}}
		case "remove", "rm":
			if global {
				return []pkgOp{{pkgUninstall, "Removes globally installed composer packages"}}
			}
			return []pkgOp{{pkgRemoveDep, "Removes " + pkgList(p[1:]) + " from the project with composer remove"}}
		case "create-project":
			if len(p) > 1 {
				return []pkgOp{{pkgRunPackage, "Downloads " + p[1] + " and runs its install scripts with composer create-project"}}
			}
		case "show", "info", "outdated", "audit", "validate", "diagnose", "why", "depends", "why-not", "prohibits", "licenses", "search",
			"status", "check-platform-reqs", "fund", "suggests", "about", "--version", "list":
			return []pkgOp{{pkgQuery, "Inspects the project's PHP packages with " + joinArgs(s.Args)}}
		case "run-script", "run", "test", "exec":
			script := ""
			if len(p) > 1 {
				script = p[1]
			}
			if p[0] == "test" {
				script = "test"
			}
			if pkgDeployish(script) {
				return []pkgOp{{pkgPublish, "Runs the project's `" + script + "` script, which by its name deploys or publishes"}}
			}
			return []pkgOp{{pkgBuild, "Runs the project's composer script: " + joinArgs(s.Args)}}
		}
	}
	return nil
}

// ---- JVM ----

func pkgJVM(c *execCtx, s *Segment, tool string) []pkgOp {
	switch tool {
	case "mvn":
		goals := pkgSub(s, "-f", "--file", "-P", "--activate-profiles", "-pl", "--projects", "-s", "--settings", "-gs", "--global-settings",
			"-t", "--toolchains", "-l", "--log-file", "-rf", "--resume-from", "-T", "--threads", "-b", "--builder", "-D")
		return pkgTargets(s, tool, goals, func(g string) (pkgOp, bool) {
			l := strings.ToLower(g)
			base := l[strings.LastIndexByte(l, ':')+1:]
			switch {
			case strings.Contains(l, "flyway") || strings.Contains(l, "liquibase"):
				return pkgOp{}, false // databases: the db rules
			case base == "install":
				return pkgOp{pkgProjectInstall, "Builds the project and installs it into the local Maven repository with " + joinArgs(s.Args)}, true
			case strings.HasPrefix(l, "dependency:") && (base == "resolve" || base == "go-offline" || base == "copy-dependencies" || base == "resolve-plugins" || base == "get"):
				return pkgOp{pkgProjectInstall, "Downloads the project's declared dependencies with " + joinArgs(s.Args)}, true
			case strings.HasPrefix(l, "dependency:") || strings.HasPrefix(l, "help:") || strings.HasPrefix(l, "versions:display"):
				return pkgOp{pkgQuery, "Inspects the project's dependencies with " + joinArgs(s.Args)}, true
			case l == "jib:build" || strings.HasSuffix(l, ":push"):
				return pkgOp{pkgPublish, "Builds and pushes the project's image to a registry with " + joinArgs(s.Args)}, true
			}
			return pkgOp{}, false
		})
	case "gradle":
		if op, ok := gradleForeignScript(c, s); ok {
			return []pkgOp{op}
		}
		tasks := pkgSub(s, "-p", "--project-dir", "-b", "--build-file", "-c", "--settings-file", "-x", "--exclude-task", "--init-script", "-I",
			"--console", "--warning-mode", "--max-workers", "-g", "--gradle-user-home", "--include-build", "--priority")
		return pkgTargets(s, tool, tasks, func(t string) (pkgOp, bool) {
			l := strings.ToLower(t)
			base := l[strings.LastIndexByte(l, ':')+1:]
			switch {
			case strings.HasPrefix(base, "flyway") || strings.HasPrefix(base, "liquibase") || base == "dropall":
				return pkgOp{}, false
			case strings.Contains(base, "mavenlocal"):
				return pkgOp{pkgProjectInstall, "Builds the project and installs it into the local Maven repository"}, true
			case base == "jib":
				return pkgOp{pkgPublish, "Builds and pushes the project's image to a registry with gradle jib"}, true
			case base == "dependencies" || base == "dependencyinsight" || base == "dependencyupdates" || base == "projects" ||
				base == "tasks" || base == "properties" || base == "help" || base == "buildenvironment" || base == "outgoingvariants":
				return pkgOp{pkgQuery, "Inspects the build with " + joinArgs(s.Args)}, true
			}
			return pkgOp{}, false
		})
	case "sbt", "lein":
		return pkgTargets(s, tool, pkgSub(s), func(t string) (pkgOp, bool) {
			l := strings.ToLower(t)
			if strings.Contains(l, "publishlocal") || l == "install" {
				return pkgOp{pkgProjectInstall, "Builds the project and installs it into the local repository"}, true
			}
			return pkgOp{}, false
		})
	}
	return nil
}

// pkgTaskDryRun reports a task runner asked only to print or list what it would run: make
// -n/--dry-run/--just-print/--recon (GNU make manual, "Instead of Executing Recipes"), ninja
// -n, just --dry-run/--list/--summary/--show/--evaluate (just --help), task --dry/--list
// (taskfile.dev CLI). make still runs recipe lines marked '+' under -n; those are the
// project's own build lines, no riskier than running the build.
func pkgTaskDryRun(s *Segment, name string) bool {
	switch name {
	case "make", "gmake", "bmake":
		for _, a := range s.Args[1:] {
			if a == "--dry-run" || a == "--just-print" || a == "--recon" || a == "-n" ||
				len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], "nBksiw") == "" && strings.Contains(a, "n") {
				return true
			}
		}
	case "ninja":
		return s.arg("-n")
	case "just":
		return s.arg("--dry-run", "-n", "--list", "-l", "--summary", "--show", "-s", "--evaluate", "--dump", "--choose") && !s.arg("--shell", "--shell-command", "--command", "-c")
	case "task", "go-task":
		return s.arg("--dry", "-n", "--list", "-l", "--list-all", "-a", "--summary")
	}
	return false
}

// pkgTargets judges a build tool invoked with targets (make, gradle tasks, maven goals):
// special targets first, deploy-like names publish, the rest build.
func pkgTargets(s *Segment, tool string, targets []string, special func(string) (pkgOp, bool)) []pkgOp {
	var ops []pkgOp
	for _, t := range targets {
		if isAssignWord(t) {
			continue
		}
		if special != nil {
			if o, ok := special(t); ok {
				ops = append(ops, o)
				continue
			}
		}
		if pkgDeployish(t) {
			return []pkgOp{{pkgPublish, "Runs the `" + t + "` target of " + tool + ", which by its name deploys, publishes or releases"}}
		}
	}
	if len(ops) > 0 {
		return ops
	}
	return []pkgOp{{pkgBuild, "Runs the project's build/test tool: " + joinArgs(s.Args)}}
}

// pkgDeployish reports script or target names that by convention ship something: deploy,
// publish, release, upload, push.
func pkgDeployish(name string) bool {
	l := strings.ToLower(name)
	if l == "" {
		return false
	}
	if strings.Contains(l, "deploy") || strings.Contains(l, "publish") || strings.Contains(l, "upload") {
		return !strings.Contains(l, "mavenlocal") && !strings.Contains(l, "dry")
	}
	parts := strings.FieldsFunc(l, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	for i, p := range parts {
		if p == "push" || i == 0 && (p == "release" || p == "ship" || strings.HasPrefix(p, "release") && len(p) > 7 && !strings.Contains(p, "notes")) {
			return true
		}
	}
	return strings.HasSuffix(l, "push") && !strings.HasSuffix(l, "dry-push")
}

// ---- .NET, Swift, CocoaPods ----

func pkgDotnetApple(c *execCtx, s *Segment, tool string) []pkgOp {
	p := pkgSub(s, "-c", "--configuration", "-f", "--framework", "-r", "--runtime", "-o", "--output", "-v", "--verbosity", "-p", "--project",
		"-s", "--source", "-k", "--api-key", "--version", "-scheme", "-workspace", "-project", "-destination", "-sdk", "-target",
		"-derivedDataPath", "-archivePath", "--package-path", "--scratch-path")
	if len(p) == 0 {
		return nil
	}
	sub := p[0]
	switch tool {
	case "dotnet", "nuget":
		switch sub {
		case "restore":
			return []pkgOp{{pkgProjectInstall, "Restores the project's declared NuGet packages with dotnet restore"}}
		case "add":
			if len(p) > 2 && p[1] == "package" || len(p) > 3 && p[2] == "package" {
				return []pkgOp{{pkgAddDep, "Adds a NuGet package to the project with " + joinArgs(s.Args)}}
			}
			return []pkgOp{{pkgBuild, "Changes the project's references with " + joinArgs(s.Args)}}
		case "remove":
			return []pkgOp{{pkgRemoveDep, "Removes a reference from the project with " + joinArgs(s.Args)}}
		case "push", "delete":
			return []pkgOp{{pkgPublish, "Publishes to a NuGet feed with " + joinArgs(s.Args)}}
		case "nuget":
			if len(p) > 1 && (p[1] == "push" || p[1] == "delete") {
				return []pkgOp{{pkgPublish, "Publishes to a NuGet feed with " + joinArgs(s.Args)}}
			}
			if len(p) > 1 && (p[1] == "add" || p[1] == "update" || p[1] == "enable") {
				return []pkgOp{{pkgConfig, "Changes the NuGet package sources with " + joinArgs(s.Args)}}
			}
			return []pkgOp{{pkgQuery, "Inspects NuGet settings with " + joinArgs(s.Args)}}
		case "tool":
			if len(p) < 2 {
				return nil
			}
			global := s.hasFlag("g", "--global") || s.arg("--tool-path")
			switch p[1] {
			case "install", "update":
				if global {
					return []pkgOp{{pkgUserTool, "Installs a .NET tool for the whole user account with " + joinArgs(s.Args)}}
				}
				return []pkgOp{{pkgAddDep, "Adds a .NET tool to the project's tool manifest with " + joinArgs(s.Args)}}
			case "uninstall":
				if global {
					return []pkgOp{{pkgUninstall, "Uninstalls a user-wide .NET tool"}}
				}
				return []pkgOp{{pkgRemoveDep, "Removes a .NET tool from the project's manifest"}}
			case "restore":
				return []pkgOp{{pkgProjectInstall, "Restores the project's declared .NET tools"}}
			case "list", "search":
				return []pkgOp{{pkgQuery, "Lists .NET tools"}}
			}
		case "workload":
			if len(p) > 1 && (p[1] == "list" || p[1] == "search") {
				return []pkgOp{{pkgQuery, "Lists .NET workloads"}}
			}
			return []pkgOp{{pkgGlobal, "Changes the machine's .NET workloads with " + joinArgs(s.Args)}}
		case "list":
			return []pkgOp{{pkgQuery, "Lists the project's packages or references with " + joinArgs(s.Args)}}
		case "ef":
			return nil // databases: the db rules
		case "build", "test", "run", "format", "clean", "pack", "publish", "watch", "new", "msbuild", "vstest", "sln", "build-server", "dev-certs", "user-secrets":
			if sub == "user-secrets" || sub == "dev-certs" {
				return nil
			}
			return []pkgOp{{pkgBuild, "Runs the project's build/test tool: " + joinArgs(s.Args)}}
		}
	case "swift":
		if sub == "package" && len(p) > 1 {
			switch p[1] {
			case "resolve", "update", "fetch":
				return []pkgOp{{pkgProjectInstall, "Resolves the package's declared dependencies with swift package " + p[1]}}
			case "show-dependencies", "describe", "dump-package", "show-executables", "compute-checksum":
				return []pkgOp{{pkgQuery, "Inspects the package with swift package " + p[1]}}
			case "init", "clean", "reset", "purge-cache", "edit", "unedit", "generate-documentation", "plugin", "archive-source":
				return []pkgOp{{pkgBuild, "Runs swift package " + p[1] + " for the project"}}
			case "add-dependency":
				return []pkgOp{{pkgAddDep, "Adds a dependency to the package with " + joinArgs(s.Args)}}
			}
			return nil
		}
		switch sub {
		case "build", "test", "run", "format":
			return []pkgOp{{pkgBuild, "Runs the project's build/test tool: " + joinArgs(s.Args)}}
		}
	case "pod":
		switch sub {
		case "install", "update", "repo", "setup":
			if sub == "repo" && len(p) > 1 && (p[1] == "push" || p[1] == "add") {
				return []pkgOp{{pkgPublish, "Pushes a podspec to a spec repository with " + joinArgs(s.Args)}}
			}
			return []pkgOp{{pkgProjectInstall, "Installs the project's declared pods with pod " + sub}}
		case "trunk":
			if len(p) > 1 && (p[1] == "push" || p[1] == "delete" || p[1] == "deprecate" || p[1] == "add-owner" || p[1] == "remove-owner") {
				return []pkgOp{{pkgPublish, "Publishes to the CocoaPods trunk with " + joinArgs(s.Args)}}
			}
			return []pkgOp{{pkgQuery, "Inspects CocoaPods trunk with " + joinArgs(s.Args)}}
		case "search", "outdated", "env", "list", "spec", "ipc":
			return []pkgOp{{pkgQuery, "Inspects pods with " + joinArgs(s.Args)}}
		case "lib", "deintegrate", "cache", "init":
			return []pkgOp{{pkgBuild, "Runs " + joinArgs(s.Args) + " for the project"}}
		}
	case "xcrun":
		if sub == "altool" && s.arg("--upload-app", "--upload-package") {
			return []pkgOp{{pkgPublish, "Uploads an app build to App Store Connect with " + joinArgs(s.Args)}}
		}
	case "fastlane":
		lane := p[len(p)-1]
		if pkgDeployish(lane) || lane == "beta" || lane == "appstore" || lane == "production" || lane == "prod" || strings.Contains(lane, "store") {
			return []pkgOp{{pkgPublish, "Runs the fastlane lane `" + lane + "`, which by its name ships the app"}}
		}
		if lane == "test" || lane == "tests" || lane == "build" || lane == "lint" {
			return []pkgOp{{pkgBuild, "Runs the fastlane lane `" + lane + "`"}}
		}
	}
	return nil
}

// ---- other ecosystems ----

func pkgOtherLangs(c *execCtx, s *Segment, tool string) []pkgOp {
	p := pkgSub(s, "-e", "--env", "-o", "--output", "--config", "-c", "--import-map", "--lock", "--target")
	if len(p) == 0 {
		return nil
	}
	sub, rest := p[0], p[1:]
	switch tool {
	case "mix":
		switch {
		case sub == "deps.get" || sub == "deps.update" || sub == "deps.compile" || sub == "local.hex" || sub == "local.rebar":
			if sub == "deps.update" && len(rest) > 0 && rest[0] != "--all" {
				return []pkgOp{{pkgAddDep, "Upgrades " + pkgList(rest) + " in the project with mix deps.update"}}
			}
			return []pkgOp{{pkgProjectInstall, "Fetches the project's declared dependencies with mix " + sub}}
		case sub == "hex.publish" || sub == "hex.retire" || sub == "hex.owner" && len(rest) > 0 && rest[0] != "list":
			return []pkgOp{{pkgPublish, "Publishes to hex.pm with " + joinArgs(s.Args)}}
		case sub == "archive.install" || sub == "escript.install":
			return []pkgOp{{pkgGlobal, "Installs " + pkgList(rest) + " for the user with mix " + sub}}
		case strings.HasPrefix(sub, "ecto.") || strings.HasPrefix(sub, "phx.gen.release"):
			return nil // databases: the db rules
		case sub == "deps" || sub == "deps.tree" || sub == "hex.outdated" || sub == "hex.info" || sub == "hex.search" || sub == "help" || sub == "hex.audit":
			return []pkgOp{{pkgQuery, "Inspects the project's dependencies with " + joinArgs(s.Args)}}
		}
		return pkgTargets(s, tool, []string{sub}, nil)
	case "cabal", "stack":
		switch sub {
		case "update":
			return []pkgOp{{pkgProjectInstall, "Refreshes the package index with " + tool + " update"}}
		case "install":
			if s.arg("--only-dependencies") || s.arg("--dependencies-only") {
				return []pkgOp{{pkgProjectInstall, "Installs the project's declared dependencies with " + joinArgs(s.Args)}}
			}
			return []pkgOp{{pkgGlobal, "Installs " + pkgList(rest) + " into the user's bin directory with " + tool + " install"}}
		case "upload":
			return []pkgOp{{pkgPublish, "Publishes to Hackage with " + joinArgs(s.Args)}}
		case "list", "info", "outdated", "ls", "path", "query":
			return []pkgOp{{pkgQuery, "Inspects Haskell packages with " + joinArgs(s.Args)}}
		case "build", "test", "run", "bench", "repl", "ghci", "haddock", "configure", "clean", "check", "sdist", "freeze", "exec", "setup", "new", "init":
			return []pkgOp{{pkgBuild, "Runs the project's build/test tool: " + joinArgs(s.Args)}}
		}
	case "dart", "flutter":
		if sub == "pub" && len(rest) > 0 {
			switch rest[0] {
			case "get", "upgrade", "downgrade", "cache":
				if rest[0] == "upgrade" && len(rest) > 1 && !strings.HasPrefix(rest[1], "-") {
					return []pkgOp{{pkgAddDep, "Upgrades " + pkgList(rest[1:]) + " in the project"}}
				}
				return []pkgOp{{pkgProjectInstall, "Fetches the project's declared packages with " + tool + " pub " + rest[0]}}
			case "add":
				return []pkgOp{{pkgAddDep, "Adds " + pkgList(rest[1:]) + " to the project with " + tool + " pub add"}}
			case "remove":
				return []pkgOp{{pkgRemoveDep, "Removes " + pkgList(rest[1:]) + " from the project"}}
			case "publish", "lish":
				if s.arg("--dry-run", "-n") {
					return []pkgOp{{pkgBuild, "Checks what would be published to pub.dev"}}
				}
				return []pkgOp{{pkgPublish, "Publishes the package to pub.dev with " + joinArgs(s.Args)}}
			case "global":
				if len(rest) > 1 && rest[1] == "activate" {
					return []pkgOp{{pkgGlobal, "Installs a Dart tool for the user with " + joinArgs(s.Args)}}
				}
				if len(rest) > 1 && rest[1] == "deactivate" {
					return []pkgOp{{pkgUninstall, "Uninstalls a user-wide Dart tool"}}
				}
				return []pkgOp{{pkgQuery, "Lists user-wide Dart tools"}}
			case "outdated", "deps":
				return []pkgOp{{pkgQuery, "Inspects the project's packages with " + joinArgs(s.Args)}}
			}
			return nil
		}
		switch sub {
		case "upgrade", "channel", "precache":
			if sub == "channel" && len(rest) == 0 {
				return []pkgOp{{pkgQuery, "Shows the Flutter channel"}}
			}
			return []pkgOp{{pkgGlobal, "Changes the installed Flutter SDK with " + joinArgs(s.Args)}}
		case "build", "test", "analyze", "run", "format", "doctor", "create", "clean", "gen-l10n", "compile", "fix", "doc", "devices", "--version":
			if sub == "doctor" || sub == "devices" || sub == "--version" {
				return []pkgOp{{pkgQuery, "Inspects the toolchain with " + joinArgs(s.Args)}}
			}
			return []pkgOp{{pkgBuild, "Runs the project's build/test tool: " + joinArgs(s.Args)}}
		}
	case "deno":
		switch sub {
		case "install", "i":
			if s.hasFlag("g", "--global") {
				for _, r := range rest {
					if strings.HasPrefix(r, "http://") || strings.HasPrefix(r, "https://") {
						return []pkgOp{{pkgUntrusted, "Installs a script from " + r + " as a global command with deno install"}}
					}
				}
				return []pkgOp{{pkgGlobal, "Installs " + pkgList(rest) + " as a global command with deno install -g"}}
			}
			if len(rest) > 0 {
				return []pkgOp{{pkgAddDep, "Adds " + pkgList(rest) + " to the project with deno install"}}
			}
			return []pkgOp{{pkgProjectInstall, "Installs the project's declared dependencies with deno install"}}
		case "add":
			return []pkgOp{{pkgAddDep, "Adds " + pkgList(rest) + " to the project with deno add"}}
		case "remove":
			return []pkgOp{{pkgRemoveDep, "Removes " + pkgList(rest) + " from the project"}}
		case "uninstall":
			return []pkgOp{{pkgUninstall, "Uninstalls a global deno command"}}
		case "publish":
			if s.arg("--dry-run") {
				return []pkgOp{{pkgBuild, "Checks what deno publish would upload"}}
			}
			return []pkgOp{{pkgPublish, "Publishes the package to JSR with deno publish"}}
		case "run", "x":
			if len(rest) > 0 {
				r := rest[0]
				if strings.HasPrefix(r, "http://") || strings.HasPrefix(r, "https://") {
					return []pkgOp{{pkgUntrusted, "Downloads a script from " + r + " and runs it with deno"}}
				}
				if strings.HasPrefix(r, "npm:") || strings.HasPrefix(r, "jsr:") {
					return []pkgOp{{pkgRunPackage, "Downloads " + r + " from the registry and runs it at once with deno " + sub}}
				}
			}
			return nil
		case "upgrade":
			return []pkgOp{{pkgGlobal, "Upgrades deno itself"}}
		case "test", "fmt", "lint", "check", "task", "bench", "doc", "compile", "info", "coverage", "init", "outdated":
			if sub == "task" && len(rest) > 0 && pkgDeployish(rest[0]) {
				return []pkgOp{{pkgPublish, "Runs the project's `" + rest[0] + "` task, which by its name deploys or publishes"}}
			}
			return []pkgOp{{pkgBuild, "Runs the project's build/test tool: " + joinArgs(s.Args)}}
		}
	case "opam":
		switch sub {
		case "install":
			// opam install . --deps-only (or ./pkg.opam): the dependencies the project's own
			// opam files declare, from the configured repository, like cabal's
			// --only-dependencies.
			if s.arg("--deps-only") && len(rest) > 0 && !slices.ContainsFunc(rest, func(a string) bool {
				return !strings.HasPrefix(a, "-") && a != "." && a != "./" && !(strings.HasPrefix(a, "./") && strings.HasSuffix(a, ".opam") && !strings.Contains(a[2:], "/"))
			}) {
				return []pkgOp{{pkgProjectInstall, "Installs the project's declared dependencies with " + joinArgs(s.Args)}}
			}
			return []pkgOp{{pkgGlobal, "Changes the user's OCaml packages with " + joinArgs(s.Args)}}
		case "switch":
			if len(rest) > 0 && (rest[0] == "list" || rest[0] == "show") {
				return []pkgOp{{pkgQuery, "Inspects OCaml switches with " + joinArgs(s.Args)}}
			}
			return []pkgOp{{pkgGlobal, "Changes the user's OCaml packages with " + joinArgs(s.Args)}}
		case "upgrade", "pin", "init", "update":
			return []pkgOp{{pkgGlobal, "Changes the user's OCaml packages with " + joinArgs(s.Args)}}
		case "remove", "uninstall":
			return []pkgOp{{pkgUninstall, "Removes OCaml packages with " + joinArgs(s.Args)}}
		case "list", "show", "search", "info", "env", "config", "var":
			return []pkgOp{{pkgQuery, "Inspects OCaml packages with " + joinArgs(s.Args)}}
		}
	}
	return nil
}

// ---- Homebrew (user-level, not the OS's package manager) ----

// brewCoreNames reports an install of named formulae or casks from Homebrew's own taps: no
// tap-qualified name (owner/tap/formula adds a third-party tap on the fly), no local file
// or URL, no build from HEAD. docs/policy.md lists brew install as routine.
func brewCoreNames(sub string, rest []string) bool {
	if sub != "install" && sub != "reinstall" && sub != "upgrade" {
		return false
	}
	n := 0
	for _, a := range rest {
		switch {
		case a == "--HEAD" || a == "--build-from-source" || a == "-s" || strings.HasPrefix(a, "--formula=") || strings.HasPrefix(a, "--cask="):
			return false
		case strings.HasPrefix(a, "-"):
		case strings.ContainsAny(a, "/:\\$~") || strings.HasSuffix(a, ".rb"):
			return false
		default:
			n++
		}
	}
	return n > 0
}

func pkgBrew(c *execCtx, s *Segment) []pkgOp {
	p := pkgSub(s)
	if len(p) == 0 {
		return nil
	}
	sub, rest := p[0], p[1:]
	switch sub {
	case "install", "reinstall", "upgrade", "tap", "link", "pin", "unpin", "bundle", "extract", "postinstall":
		if sub == "bundle" && len(rest) > 0 && (rest[0] == "check" || rest[0] == "list" || rest[0] == "dump") {
			return []pkgOp{{pkgQuery, "Checks the Brewfile with " + joinArgs(s.Args)}}
		}
		if sub == "tap" && len(rest) == 0 {
			return []pkgOp{{pkgQuery, "Lists Homebrew taps"}}
		}
		if sub == "tap" {
			return []pkgOp{{pkgGlobal, "Adds the third-party Homebrew tap " + rest[0] + ", whose formulae can then be installed"}}
		}
		if sub == "upgrade" && len(rest) == 0 {
			return []pkgOp{{pkgGlobal, "Upgrades every Homebrew package on the machine with brew upgrade"}}
		}
		if u := brewURLFormula(rest); u != "" {
			return []pkgOp{{pkgUntrusted, "Installs the formula or cask at " + u + " with brew " + sub + " instead of Homebrew's own; its install code runs unreviewed"}}
		}
		if brewCoreNames(sub, rest) && !s.arg("--HEAD", "--build-from-source", "-s") {
			return []pkgOp{{pkgUserTool, "Installs " + pkgList(rest) + " with brew " + sub + " from Homebrew's own formulae"}}
		}
		return []pkgOp{{pkgGlobal, "Installs " + pkgList(rest) + " machine-wide with brew " + sub + ", outside the workspace"}}
	case "uninstall", "remove", "rm", "untap", "autoremove", "cleanup", "unlink":
		return []pkgOp{{pkgUninstall, "Removes Homebrew packages with " + joinArgs(s.Args)}}
	case "services":
		if len(rest) > 0 && (rest[0] == "start" || rest[0] == "restart" || rest[0] == "run" || rest[0] == "stop" || rest[0] == "kill") {
			return []pkgOp{{pkgGlobal, "Starts or stops " + pkgList(rest[1:]) + " as a background service with " + joinArgs(s.Args)}}
		}
		return []pkgOp{{pkgQuery, "Lists Homebrew services"}}
	case "update":
		return []pkgOp{{pkgProjectInstall, "Refreshes Homebrew's package index with brew update"}}
	case "list", "ls", "info", "search", "outdated", "deps", "uses", "leaves", "config", "doctor", "desc", "cat", "log", "home",
		"--version", "--prefix", "--cellar", "--cache", "--repository", "--env", "tap-info", "shellenv", "commands", "formulae",
		"casks", "missing", "options", "livecheck", "fetch", "which-formula", "--caskroom", "abv":
		return []pkgOp{{pkgQuery, "Inspects Homebrew packages with " + joinArgs(s.Args)}}
	}
	return nil
}

// ---- the operating system's package managers ----

func pkgSystemOps(c *execCtx, s *Segment, tool string) []pkgOp {
	p := pkgSub(s, "-o", "-c", "-t", "--target-release", "--default-release", "--root", "--repo", "--enablerepo", "--disablerepo",
		"--installroot", "--releasever", "--setopt", "-A", "--attr", "--profile", "--channel")
	sub := ""
	if len(p) > 0 {
		sub = p[0]
	}
	rest := []string{}
	if len(p) > 1 {
		rest = p[1:]
	}
	sys := func(verb string) []pkgOp {
		what := pkgList(rest)
		if len(rest) == 0 {
			what = "the system's packages"
		}
		return []pkgOp{{pkgSystem, verb + " " + what + " system-wide with " + tool + " " + sub}}
	}
	query := []pkgOp{{pkgQuery, "Queries the system's packages with " + joinArgs(s.Args)}}
	simulate := s.arg("-s", "--simulate", "--dry-run", "--just-print", "--no-act", "--recon", "--assume-no", "--print-uris")
	switch tool {
	case "apt", "apt-get":
		switch sub {
		case "install", "reinstall", "build-dep", "satisfy":
			if simulate {
				return query
			}
			for _, r := range rest {
				if strings.HasSuffix(r, ".deb") {
					return []pkgOp{{pkgSystem, "Installs the package file " + r + " system-wide; its maintainer scripts run as root"}}
				}
			}
			return sys("Installs")
		case "remove", "purge", "autoremove", "autopurge":
			if simulate {
				return query
			}
			return sys("Removes")
		case "upgrade", "full-upgrade", "dist-upgrade":
			if simulate {
				return query
			}
			return []pkgOp{{pkgSystem, "Upgrades every package on the system with " + tool + " " + sub}}
		case "update":
			return []pkgOp{{pkgGlobal, "Refreshes the system's package index with " + tool + " update"}}
		case "list", "search", "show", "policy", "depends", "rdepends", "changelog", "showsrc", "check", "moo", "help", "":
			return query
		case "download", "source":
			return []pkgOp{{pkgProjectInstall, "Downloads package files into the current directory with " + tool + " " + sub}}
		case "clean", "autoclean":
			return []pkgOp{{pkgGlobal, "Clears apt's package cache"}}
		case "edit-sources", "mark", "hold", "unhold":
			return []pkgOp{{pkgSystem, "Changes the system's package configuration with " + joinArgs(s.Args)}}
		}
	case "apt-cache", "dpkg-query":
		return query
	case "add-apt-repository", "apt-add-repository", "apt-key":
		if tool == "apt-key" && (sub == "list" || sub == "finger" || sub == "export") {
			return query
		}
		return []pkgOp{{pkgSystem, "Adds a package source or signing key to the system with " + joinArgs(s.Args) + ", trusting whatever it serves"}}
	case "dpkg":
		if s.hasFlag("irPa", "--install", "--remove", "--purge", "--configure", "--unpack", "--set-selections", "--clear-selections", "--add-architecture") {
			if s.hasFlag("i", "--install", "--unpack") {
				return []pkgOp{{pkgSystem, "Installs the package file " + pkgList(p) + " system-wide with dpkg; its maintainer scripts run as root"}}
			}
			return []pkgOp{{pkgSystem, "Changes the system's packages with " + joinArgs(s.Args)}}
		}
		return query
	case "rpm":
		if s.hasFlag("iUFe", "--install", "--upgrade", "--freshen", "--erase", "--import", "--reinstall") && !s.hasFlag("q", "--query") {
			return []pkgOp{{pkgSystem, "Changes the system's packages with " + joinArgs(s.Args)}}
		}
		return query
	case "yum", "dnf":
		switch sub {
		case "install", "reinstall", "localinstall", "groupinstall", "downgrade", "swap", "update", "upgrade", "distro-sync", "group",
			"module", "config-manager", "copr", "upgrade-minimal", "builddep":
			if (sub == "group" || sub == "module") && len(rest) > 0 && (rest[0] == "list" || rest[0] == "info" || rest[0] == "summary") {
				return query
			}
			if s.arg("--assumeno") {
				return query
			}
			return sys("Installs or upgrades")
		case "remove", "erase", "autoremove", "groupremove":
			return sys("Removes")
		case "makecache", "clean":
			return []pkgOp{{pkgGlobal, "Refreshes the system's package metadata with " + tool + " " + sub}}
		case "list", "info", "search", "provides", "whatprovides", "repolist", "history", "check-update", "deplist", "repoquery",
			"updateinfo", "--version", "help", "":
			return query
		}
	case "pacman":
		letters := ""
		for _, a := range s.Args[1:] {
			switch {
			case a == "--sync":
				letters += "S"
			case a == "--remove":
				letters += "R"
			case a == "--upgrade":
				letters += "U"
			case a == "--query":
				letters += "Q"
			case a == "--search":
				letters += "s"
			case a == "--info":
				letters += "i"
			case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
				letters += a[1:]
			}
		}
		main := ""
		if i := strings.IndexAny(letters, "DFQRSTUV"); i >= 0 {
			main = letters[i : i+1]
		}
		switch main {
		case "Q", "F", "T", "V":
			return query
		case "R":
			return []pkgOp{{pkgSystem, "Removes " + pkgList(p) + " system-wide with " + joinArgs(s.Args)}}
		case "S":
			if strings.ContainsAny(letters, "silgp") && !strings.ContainsAny(letters, "yu") {
				return query
			}
			if strings.Contains(letters, "c") && len(p) == 0 {
				return []pkgOp{{pkgGlobal, "Clears pacman's package cache"}}
			}
			if len(p) == 0 {
				return []pkgOp{{pkgSystem, "Upgrades every package on the system with " + joinArgs(s.Args)}}
			}
			return []pkgOp{{pkgSystem, "Installs " + pkgList(p) + " system-wide with " + joinArgs(s.Args)}}
		case "U", "D":
			return []pkgOp{{pkgSystem, "Changes the system's packages with " + joinArgs(s.Args)}}
		}
		return nil
	case "apk":
		switch sub {
		case "add", "fix", "upgrade":
			return sys("Installs or upgrades")
		case "del":
			return sys("Removes")
		case "update":
			return []pkgOp{{pkgGlobal, "Refreshes the system's package index with apk update"}}
		case "info", "search", "list", "policy", "version", "dot", "stats", "audit":
			return query
		}
	case "zypper":
		switch sub {
		case "install", "in", "update", "up", "dist-upgrade", "dup", "patch", "addrepo", "ar", "removerepo", "rr", "modifyrepo", "mr", "si", "source-install":
			return sys("Installs or changes")
		case "remove", "rm":
			return sys("Removes")
		case "refresh", "ref":
			return []pkgOp{{pkgGlobal, "Refreshes the system's package index with zypper refresh"}}
		case "search", "se", "info", "if", "lr", "repos", "ls", "services", "packages", "pa", "patterns", "products", "patches", "list-updates", "lu", "lp", "wp", "what-provides":
			return query
		}
	case "snap", "flatpak":
		switch sub {
		case "install", "refresh", "revert", "update", "connect", "disconnect", "remote-add", "enable", "disable", "set", "switch":
			return sys("Installs or changes")
		case "remove", "uninstall", "remote-delete":
			return sys("Removes")
		case "list", "find", "info", "connections", "services", "changes", "version", "known", "search", "remotes", "remote-ls", "history", "ps", "":
			return query
		}
	case "port":
		switch sub {
		case "install", "upgrade", "selfupdate", "activate", "sync":
			return sys("Installs or upgrades")
		case "uninstall", "deactivate", "reclaim":
			return sys("Removes")
		case "installed", "search", "info", "deps", "contents", "outdated", "list", "echo", "provides", "variants", "version", "":
			return query
		}
	case "emerge":
		if s.arg("-s", "--search", "-S", "--searchdesc", "-p", "--pretend", "--info", "-h", "--help", "--version", "-V") {
			return query
		}
		if s.arg("--sync") {
			return []pkgOp{{pkgGlobal, "Refreshes the Portage tree with emerge --sync"}}
		}
		if s.arg("-C", "--unmerge", "--depclean", "-c") {
			return []pkgOp{{pkgSystem, "Removes " + pkgList(p) + " system-wide with emerge"}}
		}
		return []pkgOp{{pkgSystem, "Builds and installs " + pkgList(p) + " system-wide with emerge"}}
	case "nix-env":
		if s.hasFlag("q", "--query") {
			return query
		}
		if s.hasFlag("ieur", "--install", "--uninstall", "--upgrade", "--set", "--rollback", "--switch-generation", "--delete-generations", "--set-flag") {
			return []pkgOp{{pkgSystem, "Changes the installed Nix packages with " + joinArgs(s.Args)}}
		}
		return nil
	case "nix-channel":
		if s.arg("--list") {
			return query
		}
		return []pkgOp{{pkgSystem, "Changes the Nix channels with " + joinArgs(s.Args)}}
	case "nix":
		switch sub {
		case "profile":
			if len(rest) > 0 && (rest[0] == "list" || rest[0] == "history" || rest[0] == "diff-closures") {
				return query
			}
			return []pkgOp{{pkgSystem, "Changes the installed Nix packages with " + joinArgs(s.Args)}}
		case "run", "shell":
			if len(rest) > 0 && strings.Contains(rest[0], "#") || len(rest) > 0 && (strings.HasPrefix(rest[0], "github:") || strings.Contains(rest[0], "://")) {
				if strings.HasPrefix(rest[0], "nixpkgs#") {
					return []pkgOp{{pkgRunPackage, "Downloads " + rest[0] + " and runs it with nix " + sub}}
				}
				return []pkgOp{{pkgUntrusted, "Downloads and runs " + rest[0] + " with nix " + sub + ", outside the default package set"}}
			}
		case "build", "develop", "flake", "fmt", "eval", "log", "search", "why-depends", "path-info", "store", "repl", "print-dev-env":
			if sub == "search" || sub == "why-depends" || sub == "path-info" {
				return query
			}
			return []pkgOp{{pkgBuild, "Runs the project's build tool: " + joinArgs(s.Args)}}
		}
		return nil
	case "xbps-install", "pkgin", "softwareupdate":
		if tool == "softwareupdate" && s.arg("-l", "--list", "--history") {
			return query
		}
		return []pkgOp{{pkgSystem, "Changes the system's packages with " + joinArgs(s.Args)}}
	case "xbps-remove":
		return []pkgOp{{pkgSystem, "Removes system packages with " + joinArgs(s.Args)}}
	}
	return nil
}

// ---- publishing tools ----

func pkgPublishTools(c *execCtx, s *Segment, tool string) []pkgOp {
	p := pkgSub(s, "-t", "--tag", "-f", "--file", "--platform", "-r", "--repository", "--repository-url", "--config", "--build-arg", "--target",
		"-o", "--output", "--cache-from", "--cache-to", "--secret", "--ssh", "--label", "--builder", "--progress", "-u", "--username", "-p", "--password",
		"--context", "-H", "--host", "--log-level", "-l", "--project-name", "--profile", "--env-file", "--project-directory", "--ansi")
	dry := s.arg("--dry-run", "--snapshot", "--skip=publish", "--skip-publish", "--no-publish") && tool != "docker"
	pub := func(what string) []pkgOp {
		if dry {
			return []pkgOp{{pkgBuild, "Checks what " + joinArgs(s.Args) + " would publish"}}
		}
		return []pkgOp{{pkgPublish, what}}
	}
	sub := ""
	if len(p) > 0 {
		sub = p[0]
	}
	switch tool {
	case "twine":
		if sub == "upload" || sub == "register" {
			return pub("Uploads distributions to a Python package index with " + joinArgs(s.Args))
		}
		if sub == "check" {
			return []pkgOp{{pkgBuild, "Checks the distributions with twine check"}}
		}
	case "flit", "maturin":
		if sub == "publish" || sub == "upload" {
			return pub("Publishes the package to PyPI with " + joinArgs(s.Args))
		}
		if sub == "build" || sub == "develop" || sub == "install" {
			return []pkgOp{{pkgBuild, "Runs the project's build tool: " + joinArgs(s.Args)}}
		}
	case "goreleaser":
		if sub == "release" || sub == "" {
			return pub("Builds and publishes a release with goreleaser (artifacts, images, changelog)")
		}
		return []pkgOp{{pkgBuild, "Runs goreleaser " + sub}}
	case "semantic-release", "release-it":
		return pub("Cuts and publishes a release with " + tool)
	case "changeset":
		if sub == "publish" {
			return pub("Publishes the changed packages with changeset publish")
		}
		return []pkgOp{{pkgBuild, "Runs changeset " + sub}}
	case "lerna":
		if sub == "publish" {
			return pub("Publishes the workspace packages with lerna publish")
		}
		if sub == "run" && len(p) > 1 && pkgDeployish(p[1]) {
			return pub("Runs the `" + p[1] + "` script in every package, which by its name deploys or publishes")
		}
		return []pkgOp{{pkgBuild, "Runs the project's build tool: " + joinArgs(s.Args)}}
	case "vsce", "ovsx", "jsr":
		if sub == "publish" || sub == "unpublish" {
			return pub("Publishes an extension or package with " + joinArgs(s.Args))
		}
		return []pkgOp{{pkgBuild, "Runs " + joinArgs(s.Args)}}
	case "helm":
		if sub == "push" || sub == "cm-push" {
			return pub("Pushes a chart to a chart registry with " + joinArgs(s.Args))
		}
		if sub == "package" {
			return []pkgOp{{pkgBuild, "Packages the chart with helm package"}}
		}
		if (sub == "dependency" || sub == "dep") && len(p) > 1 && (p[1] == "update" || p[1] == "build" || p[1] == "up") {
			return []pkgOp{{pkgProjectInstall, "Downloads the chart's declared dependencies with helm dependency " + p[1]}}
		}
		if sub == "repo" && len(p) > 1 && p[1] == "update" {
			return []pkgOp{{pkgProjectInstall, "Refreshes the configured chart repositories with helm repo update"}}
		}
		if sub == "plugin" && len(p) > 1 && p[1] == "install" {
			if len(p) > 2 && strings.Contains(p[2], "://") {
				return []pkgOp{{pkgUntrusted, "Installs a helm plugin from " + p[2] + "; plugins run with your permissions"}}
			}
			return []pkgOp{{pkgGlobal, "Installs a helm plugin for the user"}}
		}
		return nil
	case "docker", "buildah":
		return pkgDocker(c, s, p)
	case "oras", "crane", "skopeo":
		if sub == "push" || sub == "copy" || sub == "cp" || sub == "tag" || sub == "attach" || sub == "mutate" || sub == "append" || sub == "delete" {
			return pub("Pushes to a container registry with " + joinArgs(s.Args))
		}
		return []pkgOp{{pkgQuery, "Inspects a container registry with " + joinArgs(s.Args)}}
	case "eas", "expo":
		if sub == "submit" || sub == "update" || sub == "publish" || sub == "build" && s.arg("--auto-submit") {
			return pub("Ships the app (store submission or over-the-air update) with " + joinArgs(s.Args))
		}
		if sub == "build" || sub == "start" || sub == "export" || sub == "prebuild" || sub == "lint" || sub == "run:ios" || sub == "run:android" {
			return []pkgOp{{pkgBuild, "Runs the project's build tool: " + joinArgs(s.Args)}}
		}
		if sub == "install" {
			return []pkgOp{{pkgAddDep, "Adds " + pkgList(p[1:]) + " to the project with expo install"}}
		}
	case "earthly":
		if s.arg("--push") {
			return pub("Builds and pushes images or artifacts with earthly --push")
		}
		return []pkgOp{{pkgBuild, "Runs the project's build tool: " + joinArgs(s.Args)}}
	}
	return nil
}

// pkgDocker judges the docker commands that build or push images; the rest (running,
// inspecting, removing containers) is the container rules' business.
func pkgDocker(c *execCtx, s *Segment, p []string) []pkgOp {
	if len(p) == 0 {
		return nil
	}
	sub, rest := p[0], p[1:]
	if (sub == "image" || sub == "buildx" || sub == "builder" || sub == "compose" || sub == "manifest") && len(rest) > 0 {
		sub = sub + " " + rest[0]
	}
	if s.Name() == "docker-compose" || s.Name() == "podman-compose" {
		sub = "compose " + p[0]
	}
	push := s.arg("--push") || containsArg(s.Args, "type=registry") || containsArg(s.Args, "push=true")
	switch sub {
	case "build", "buildx build", "image build", "builder build", "compose build", "buildx bake", "bud", "buildx b":
		if push {
			return []pkgOp{{pkgPublish, "Builds and pushes an image to a registry with " + joinArgs(s.Args)}}
		}
		return []pkgOp{{pkgBuild, "Builds a container image from the project: " + joinArgs(s.Args)}}
	case "push", "image push", "compose push", "manifest push", "buildx imagetools":
		if sub == "buildx imagetools" && (len(rest) < 2 || rest[1] != "create") {
			return []pkgOp{{pkgQuery, "Inspects an image in a registry"}}
		}
		target := ""
		if q := pkgSub(s); len(q) > 0 {
			target = q[len(q)-1]
		}
		return []pkgOp{{pkgPublish, "Pushes the image " + target + " to a container registry with " + s.Name() + " " + sub}}
	}
	return nil
}

// ---- build tools with targets: make, just, task, rake, … ----

func pkgTargetRunner(c *execCtx, s *Segment, name string) []pkgOp {
	switch name {
	case "make", "just", "task", "ant", "ninja", "mage", "invoke", "inv", "gulp", "grunt", "rake", "cake", "nx", "turbo", "bazel", "meson", "cmake", "scons":
	default:
		return nil
	}
	var targets []string
	switch name {
	case "make":
		targets = pkgSub(s, "-C", "--directory", "-f", "--file", "--makefile", "-l", "--load-average", "-o", "--old-file", "-W", "--what-if", "-I", "--include-dir", "--jobs")
	case "ninja":
		targets = pkgSub(s, "-C", "-f", "-j", "-k", "-l", "-t", "-d", "-w")
	case "rake":
		targets = pkgSub(s, "-f", "--rakefile", "-I", "--libdir", "-r", "--require", "-R", "--rakelibdir", "-C", "--directory")
		for _, t := range targets {
			if strings.HasPrefix(t, "db:") {
				return nil // databases: the db rules
			}
		}
	case "cmake":
		if s.arg("--install") {
			if pre, ok := optValue(s.Args[1:], "--prefix"); ok {
				if t := c.target(pre); t.zone == ZoneWorkspace || t.zone == ZoneTemp {
					return []pkgOp{{pkgBuild, "Installs the build into " + pre + " inside the workspace"}}
				}
			}
			return []pkgOp{{pkgGlobal, "Installs the build with cmake --install, by default under /usr/local, outside the workspace"}}
		}
		return []pkgOp{{pkgBuild, "Runs the project's build tool: " + joinArgs(s.Args)}}
	case "meson":
		if s.sub(0) == "install" {
			return []pkgOp{{pkgGlobal, "Installs the build with meson install, outside the workspace"}}
		}
		return []pkgOp{{pkgBuild, "Runs the project's build tool: " + joinArgs(s.Args)}}
	case "bazel":
		p := pkgSub(s, "--config", "-c", "--compilation_mode", "--output_base", "--bazelrc")
		if len(p) == 0 {
			return nil
		}
		switch p[0] {
		case "build", "test", "query", "cquery", "aquery", "info", "clean", "fetch", "sync", "coverage", "mod", "version", "help", "shutdown", "print_action", "dump":
			return []pkgOp{{pkgBuild, "Runs the project's build tool: " + joinArgs(s.Args)}}
		case "run":
			// The label's package counts as well as its name: //deploy:prod deploys, and a
			// target named for production acts there.
			if len(p) > 1 && (pkgDeployish(p[1]) || catalog.ProductionLike(p[1][strings.LastIndexAny(p[1], "/:")+1:])) {
				return []pkgOp{{pkgPublish, "Runs the Bazel target " + p[1] + ", which by its name deploys, publishes or pushes"}}
			}
			return []pkgOp{{pkgBuild, "Builds and runs a project target: " + joinArgs(s.Args)}}
		}
		return nil
	case "nx", "turbo":
		targets = pkgSub(s, "--filter", "-F", "--configuration", "-c", "--projects", "-p", "--target", "-t", "--base", "--head", "--parallel", "--concurrency")
		if len(targets) > 0 && (targets[0] == "run" || targets[0] == "run-many" || targets[0] == "affected" || targets[0] == "exec") {
			targets = targets[1:]
		}
		if t, ok := optValue(s.Args[1:], "--target", "-t"); ok {
			targets = append(targets, t)
		}
		var ts []string
		for _, t := range targets {
			ts = append(ts, strings.Split(t, ",")...)
		}
		targets = ts
	default:
		targets = pkgSub(s, "-f", "--file", "--justfile", "-d", "--dir", "--working-directory", "-t", "--taskfile", "--buildfile", "-buildfile")
	}
	if pkgTaskDryRun(s, name) {
		return []pkgOp{{pkgQuery, "Prints what " + joinArgs(s.Args) + " would run, without running it"}}
	}
	if name == "make" || name == "ninja" {
		inside := false
		for _, t := range targets {
			if k, v, ok := strings.Cut(t, "="); ok && (k == "DESTDIR" || k == "PREFIX" || k == "prefix" || k == "INSTALL_DIR") {
				if z := c.target(v).zone; z == ZoneWorkspace || z == ZoneTemp {
					inside = true
				}
			}
		}
		for _, t := range targets {
			if t == "install" || t == "uninstall" || strings.HasPrefix(t, "install-") {
				if inside {
					return []pkgOp{{pkgBuild, "Runs " + joinArgs(s.Args) + ", installing into a directory inside the workspace"}}
				}
				if t == "uninstall" {
					return []pkgOp{{pkgUninstall, "Runs " + name + " uninstall, removing files the project installed outside the workspace"}}
				}
				return []pkgOp{{pkgGlobal, "Runs " + name + " " + t + ", which usually copies files outside the workspace (/usr/local, ~/.local)"}}
			}
		}
	}
	return pkgTargets(s, name, targets, nil)
}

// ---- the table of build, test, lint and format tools ----

// pkgBuildTools maps a command to the subcommands (its first positional word) that build,
// test, lint or format the project; "*" allows any arguments, "" the bare command.
var pkgBuildTools = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"gofmt": {"*"}, "goimports": {"*"}, "golangci-lint": {"*"}, "staticcheck": {"*"}, "govulncheck": {"*"}, "gosec": {"*"}, "revive": {"*"},
		"gotestsum": {"*"}, "ginkgo": {"*"}, "mockgen": {"*"}, "stringer": {"*"}, "templ": {"generate", "fmt"}, "sqlc": {"generate", "vet", "compile", "diff"},
		"buf": {"lint", "build", "generate", "format", "breaking", "ls-files", "dep"}, "protoc": {"*"}, "air": {"*"},
		"rustc": {"*"}, "rustfmt": {"*"}, "wasm-pack": {"build", "test", "pack"},
		"gcc": {"*"}, "g++": {"*"}, "clang": {"*"}, "clang++": {"*"}, "cc": {"*"}, "c++": {"*"}, "ld": {"*"}, "javac": {"*"}, "kotlinc": {"*"},
		"scalac": {"*"}, "swiftc": {"*"}, "tsc": {"*"}, "zig": {"build", "test", "fmt", "run", "cc", "c++"}, "configure": {"*"}, "autoreconf": {"*"},
		"pytest": {"*"}, "tox": {"*"}, "nox": {"*"}, "ruff": {"*"}, "black": {"*"}, "isort": {"*"}, "flake8": {"*"}, "pylint": {"*"}, "mypy": {"*"},
		"pyright": {"*"}, "basedpyright": {"*"}, "bandit": {"*"}, "coverage": {"*"}, "pyflakes": {"*"}, "pycodestyle": {"*"}, "pydocstyle": {"*"},
		"autopep8": {"*"}, "yapf": {"*"}, "unittest": {"*"}, "doctest": {"*"}, "behave": {"*"}, "sphinx-build": {"*"}, "venv": {"*"},
		"virtualenv": {"*"}, "serial.tools.miniterm": {"*"}, "serial.tools.list_ports": {"*"}, "build": {"*"}, "compileall": {"*"}, "pip-compile": {"*"}, "pyupgrade": {"*"}, "vulture": {"*"}, "radon": {"*"},
		"mkdocs": {"build", "serve", "new"}, "pre-commit": {"run", "install", "validate-config", "validate-manifest", "clean", "gc", ""},
		"eslint": {"*"}, "prettier": {"*"}, "jest": {"*"}, "vitest": {"*"}, "mocha": {"*"}, "ava": {"*"}, "tap": {"*"}, "karma": {"*"},
		"stylelint": {"*"}, "biome": {"*"}, "oxlint": {"*"}, "dprint": {"*"}, "webpack": {"*"}, "rollup": {"*"}, "esbuild": {"*"}, "parcel": {"*"},
		"vite": {"build", "dev", "serve", "preview", "optimize", ""}, "next": {"build", "dev", "lint", "start", "info", "telemetry"},
		"nuxi": {"build", "dev", "generate", "preview", "prepare", "typecheck", "analyze", "info"}, "nuxt": {"build", "dev", "generate", "preview", "prepare", "typecheck"},
		"astro": {"build", "dev", "check", "preview", "sync"}, "svelte-kit": {"sync"}, "svelte-check": {"*"}, "vue-tsc": {"*"},
		"ng":        {"build", "test", "serve", "lint", "e2e", "generate", "g", "extract-i18n", "version", "analytics", "cache", "new", "update"},
		"storybook": {"dev", "build"}, "playwright": {"test", "show-report", "show-trace", "codegen", "install"}, "cypress": {"run", "open", "verify", "info"},
		"wdio": {"*"}, "detox": {"build", "test"}, "tsup": {"*"}, "unbuild": {"*"}, "c8": {"*"}, "nyc": {"*"}, "knip": {"*"}, "depcheck": {"*"},
		"lint-staged": {"*"}, "husky": {"*"}, "tailwindcss": {"*"}, "postcss": {"*"}, "babel": {"*"}, "swc": {"*"}, "markdownlint": {"*"},
		"markdownlint-cli2": {"*"}, "cspell": {"*"}, "commitlint": {"*"}, "standard": {"*"}, "xo": {"*"}, "react-scripts": {"build", "test", "start"},
		"vue-cli-service": {"build", "serve", "lint", "test:unit"}, "gatsby": {"build", "develop", "serve", "clean"}, "remix": {"build", "dev"},
		"node-gyp": {"*"}, "patch-package": {"*"}, "graphql-codegen": {"*"}, "eleventy": {"*"}, "redocly": {"lint", "bundle", "build-docs", "preview-docs"},
		"nest": {"build", "start", "generate", "g", "info"}, "tsd": {"*"}, "api-extractor": {"*"}, "size-limit": {"*"}, "openapi-typescript": {"*"},
		"sort-package-json": {"*"}, "prisma": {"generate", "format", "validate", "version", "init", "studio", "--version"},
		"drizzle-kit": {"generate", "check", "introspect", "pull", "studio", "up"},
		"rspec":       {"*"}, "rubocop": {"*"}, "standardrb": {"*"}, "erb_lint": {"*"}, "erblint": {"*"}, "brakeman": {"*"}, "reek": {"*"}, "steep": {"*"}, "sorbet": {"*"},
		"rails":   {"test", "t", "server", "s", "routes", "generate", "g", "assets:precompile", "assets:clean", "zeitwerk:check", "about", "stats", "new", "test:system", "notes"},
		"phpunit": {"*"}, "pest": {"*"}, "phpstan": {"*"}, "psalm": {"*"}, "php-cs-fixer": {"*"}, "phpcs": {"*"}, "phpcbf": {"*"}, "rector": {"*"},
		"xcodebuild": {"*"}, "swiftlint": {"*"}, "swiftformat": {"*"}, "ktlint": {"*"}, "detekt": {"*"}, "ghc": {"*"}, "dune": {"build", "test", "exec", "fmt", "runtest", "clean"},
		"terraform": {"fmt"}, "tflint": {"*"}, "tfsec": {"*"}, "checkov": {"*"}, "trivy": {"fs", "config", "repo", "image", "sbom"},
		"shellcheck": {"*"}, "shfmt": {"*"}, "hadolint": {"*"}, "yamllint": {"*"}, "actionlint": {"*"}, "codespell": {"*"}, "vale": {"*"}, "typos": {"*"},
		"clang-format": {"*"}, "clang-tidy": {"*"}, "cppcheck": {"*"}, "sqlfluff": {"lint", "fix", "format", "parse"}, "ansible-lint": {"*"},
		"kustomize": {"build", "edit", "cfg"}, "hugo": {"", "build", "server", "new", "version"}, "jekyll": {"build", "serve", "b", "s", "new", "doctor"},
		"zola": {"build", "serve", "check"}, "vercel": {"dev", "build"}, "netlify": {"dev", "build"}, "wrangler": {"dev", "types"},
		"firebase": {"emulators:start", "emulators:exec", "serve"}, "sam": {"build", "validate", "local"}, "supabase": {"start", "stop", "status", "gen", "init"},
		"tauri": {"dev", "build", "info"}, "electron-builder": {"*"}, "molecule": {"test", "lint", "syntax"}, "cdk": {"synth", "init", "doctor"},
	}
}}

// pkgBuildTable judges commands from the build-tool table.
func pkgBuildTable(s *Segment, name string) []pkgOp {
	if name == "serverless" || name == "sls" {
		if p := pkgSub(s, "-f", "--function", "-s", "--stage", "-r", "--region", "-p", "--path", "-d", "--data"); len(p) > 0 &&
			(p[0] == "offline" || p[0] == "package" || p[0] == "print" || len(p) > 1 && p[0] == "invoke" && p[1] == "local") {
			return []pkgOp{{pkgBuild, "Runs the service locally or packages it without deploying: " + joinArgs(s.Args)}}
		}
		return nil
	}
	subs, ok := pkgBuildTools.get()[name]
	if !ok {
		return nil
	}
	sub := ""
	if p := pkgSub(s); len(p) > 0 {
		sub = p[0]
	}
	for _, w := range subs {
		if w == "*" || w == sub {
			if name == "electron-builder" && s.arg("always", "onTag", "onTagOrDraft") {
				return []pkgOp{{pkgPublish, "Builds and publishes the app with electron-builder --publish"}}
			}
			return []pkgOp{{pkgBuild, "Runs the project's build/test tool: " + joinArgs(s.Args)}}
		}
	}
	if name == "mkdocs" && sub == "gh-deploy" || name == "hugo" && sub == "deploy" {
		return []pkgOp{{pkgPublish, "Publishes the site with " + joinArgs(s.Args)}}
	}
	return nil
}
