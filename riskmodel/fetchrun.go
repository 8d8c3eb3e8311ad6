package riskmodel

import (
	"net/url"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Running code straight from the network. docs/policy.md puts "running code fetched from the
// network … without review, from hosts that are not the vendor's own" on the deny list, and a
// vendor's own installer on the ask row. The shell spellings (curl … | sh, a file downloaded
// then run) are flows (flow.go, net.pipe-to-shell, net.download-exec); this file knows the
// runners that fetch and run in one command — deno run URL, bun URL, uv run URL, npx
// github:owner/repo, uvx --from git+https://…, pipx run --spec …, nix run github:… — and says
// whose code that is:
//
//   - a host the user trusts, or a vendor's documented installer (catalog/hosts.toml): the
//     vendor's own, asked (the ask row);
//   - a package registry or its CDN (deno.land, jsr.io, esm.sh, unpkg, PyPI): a published
//     package, asked like any package run at once (pkg.run-package);
//   - a repository on a code host whose owner is a vendor the catalogue names (the owners of
//     raw.githubusercontent.com installer paths): the vendor's own, asked;
//   - anything else — another owner's repository, a gist, any other host: certain (denied);
//   - a source only known at run time ($URL): not followed, asked at high.

// runnerRegistries are package registries and their CDNs, from which runners fetch published
// packages and modules. Sources: Deno docs, "Modules" (deno.land/std, deno.land/x) and
// "Examples" (docs.deno.com/examples, examples.deno.land); jsr.io docs; esm.sh, unpkg.com,
// jsdelivr.com, skypack.dev and jspm.org front pages (npm CDNs); npm Docs, "npm registry";
// Yarn docs; Python Packaging User Guide (pypi.org, files.pythonhosted.org).
var runnerRegistries = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"deno.land": true, "jsr.io": true, "docs.deno.com": true, "examples.deno.land": true,
		"esm.sh": true, "unpkg.com": true, "cdn.jsdelivr.net": true, "cdn.skypack.dev": true, "ga.jspm.io": true,
		"registry.npmjs.org": true, "registry.yarnpkg.com": true, "pypi.org": true, "files.pythonhosted.org": true}
}}

// codeHosts host many owners' repositories; the first path element is the owner. Sources:
// GitHub Docs (github.com, raw.githubusercontent.com, codeload.github.com, gist.github.com),
// GitLab Docs, Bitbucket Cloud docs, Codeberg docs, sourcehut manual.
var codeHosts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"github.com": true, "raw.githubusercontent.com": true, "codeload.github.com": true,
		"gitlab.com": true, "bitbucket.org": true, "codeberg.org": true, "git.sr.ht": true, "sr.ht": true}
}}

// gistHosts serve gists: one person's snippets, never a vendor's release.
var gistHosts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"gist.github.com": true, "gist.githubusercontent.com": true}
}}

// toolVendorOrgs are the code-host organisations of vendors whose tools agents run straight
// from the repository (uvx --from git+https://github.com/astral-sh/ruff, npx
// github:vercel/…): the vendor's own code, asked like a vendor installer rather than denied.
// Sources: each organisation's GitHub page, linked from the tool's own documentation
// (Astral: uv/Ruff docs; PSF/PyPA: packaging.python.org; Vercel, Microsoft, Google, Meta,
// Deno, Oven (Bun), Node.js, npm, pnpm, Yarn, Rust, Go, Astro, Svelte, Vite, Vue, Angular,
// Prettier, ESLint, Biome, Tailwind Labs, Anthropic, OpenAI, GitHub (github, cli, actions),
// AWS (aws, awslabs), HashiCorp, Kubernetes (kubernetes, kubernetes-sigs), Docker,
// Cloudflare, Netlify, Supabase, Prisma, Remix, Nuxt, the Model Context Protocol, JBang,
// NixOS, Determinate Systems). Lower case.
var toolVendorOrgs = []string{"astral-sh", "psf", "pypa", "python", "vercel", "microsoft", "google", "facebook", "denoland",
	"oven-sh", "nodejs", "npm", "pnpm", "yarnpkg", "rust-lang", "golang", "withastro", "sveltejs", "vitejs", "vuejs", "angular",
	"prettier", "eslint", "biomejs", "tailwindlabs", "anthropics", "openai", "github", "cli", "actions", "aws", "awslabs",
	"hashicorp", "kubernetes", "kubernetes-sigs", "docker", "cloudflare", "netlify", "supabase", "prisma", "remix-run", "nuxt",
	"modelcontextprotocol", "jbangdev", "nixos", "determinatesystems"}

// vendorOwners are the code-host owners whose repositories are the vendor's own: those whose
// installers the catalogue lists (raw.githubusercontent.com/Homebrew/install/, …/nvm-sh/nvm/)
// and toolVendorOrgs. Lower case.
var vendorOwners = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, o := range toolVendorOrgs {
		m[o] = true
	}
	for _, v := range catalog.Default().Vendors() {
		if !codeHosts.get()[v.Host] {
			continue
		}
		for _, p := range v.Paths {
			if o, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/"); o != "" {
				m[strings.ToLower(o)] = true
			}
		}
	}
	return m
}}

// codeSource is where a runner's source comes from: a URL, and the owner when it is a
// repository on a code host.
type codeSource struct {
	u     *url.URL
	host  string
	owner string
}

// parseCodeSource reads a runner's source: a URL (https://…, git+https://…, git://…,
// ssh://…), an scp-like git@host:owner/repo, a host shorthand (github:owner/repo,
// gitlab:…, bitbucket:…, gist:…, nix's sourcehut:~owner/repo) and, for npm-style runners,
// owner/repo (npm's GitHub shorthand). ok is false for a registry name or a local path.
func parseCodeSource(spec string, npmStyle bool) (codeSource, bool) {
	s := strings.TrimSpace(spec)
	if i := strings.Index(s, " @ "); i >= 0 { // PEP 508: "name @ https://…"
		s = strings.TrimSpace(s[i+3:])
	}
	if i := strings.Index(s, "@"); i > 0 && strings.Contains(s[i:], "://") && !strings.Contains(s[:i], "://") { // name@git+https://…
		s = s[i+1:]
	}
	l := strings.ToLower(s)
	for pre, host := range map[string]string{"github:": "github.com", "gitlab:": "gitlab.com", "bitbucket:": "bitbucket.org", "sourcehut:": "git.sr.ht", "gist:": "gist.github.com"} {
		if strings.HasPrefix(l, pre) {
			rest := strings.TrimPrefix(s[len(pre):], "~")
			owner, _, _ := strings.Cut(rest, "/")
			if host == "gist.github.com" {
				owner = ""
			}
			return codeSource{host: host, owner: owner}, true
		}
	}
	for _, pre := range []string{"git+", "hg+", "svn+", "bzr+"} {
		s = strings.TrimPrefix(s, pre)
	}
	if strings.HasPrefix(s, "git@") && !strings.Contains(s, "://") {
		if h, p, ok := strings.Cut(s[len("git@"):], ":"); ok {
			owner, _, _ := strings.Cut(p, "/")
			return codeSource{host: strings.ToLower(h), owner: owner}, true
		}
	}
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || u.Host == "" || u.Scheme == "file" {
			return codeSource{}, false
		}
		owner, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
		return codeSource{u: u, host: strings.ToLower(u.Hostname()), owner: strings.TrimPrefix(owner, "~")}, true
	}
	if npmStyle && strings.Count(s, "/") == 1 && !strings.HasPrefix(s, "@") && !pkgLocalPath(s) && !strings.Contains(s, ":") {
		owner, _, _ := strings.Cut(s, "/")
		return codeSource{host: "github.com", owner: owner}, true
	}
	return codeSource{}, false
}

// strangerCode says why code a runner fetches and runs at once is certainly not the vendor's
// own ("" when it may be: a trusted or vendor host, a registry, a vendor's repository, or a
// source only known at run time).
func (c *execCtx) strangerCode(spec string, npmStyle bool) string {
	if strings.ContainsAny(spec, "$`") || strings.Contains(spec, "…") {
		return ""
	}
	src, ok := parseCodeSource(spec, npmStyle)
	if !ok || src.host == "" {
		return ""
	}
	if c.trustedHost(src.host) || src.u != nil && isVendorInstaller(src.u) || runnerRegistries.get()[src.host] {
		return ""
	}
	const pol = " (docs/policy.md: running code fetched from the network without review, from hosts that are not the vendor's own)"
	switch {
	case gistHosts.get()[src.host]:
		return "it runs at once a gist, one person's snippet, not a vendor's release" + pol
	case codeHosts.get()[src.host]:
		if src.owner == "" || vendorOwners.get()[strings.ToLower(src.owner)] {
			return ""
		}
		return "it runs at once code from " + src.owner + "'s repository on " + src.host + ", not a vendor's own" + pol
	}
	return "it runs at once code from " + src.host + ", not a vendor's own host" + pol
}

// strangerRun is pkg.untrusted-source's condition for a runner that fetches a package from a
// URL or a repository and runs it at once (npx github:…, uvx --from git+…, pipx run --spec …,
// nix run github:…, deno run URL): certain when the source is no vendor's own. Installing
// from a fork (npm install github:…, pip install git+…) is the policy's ask row and is not
// matched here.
func strangerRun(c *execCtx, s *Segment) string {
	for cur, depth := s, 0; cur != nil && depth < 8; depth++ {
		if spec, _, tool, ok := pkgFetchRun(cur); ok {
			npm := !strings.HasPrefix(tool, "uv") && !strings.HasPrefix(tool, "pipx") && tool != "go run"
			if why := c.strangerCode(spec, npm); why != "" {
				return why
			}
		}
		if spec, _, ok := runtimeURLScript(cur); ok {
			if why := c.strangerCode(spec, false); why != "" {
				return why
			}
		}
		if cur.Name() == "nix" && (cur.sub(0) == "run" || cur.sub(0) == "shell") {
			for _, a := range cur.Args[2:] {
				if strings.HasPrefix(a, "-") {
					continue
				}
				if why := c.strangerCode(strings.SplitN(a, "#", 2)[0], false); why != "" {
					return why
				}
				break
			}
		}
		next, _, ok := pkgRunnerInner(cur)
		if !ok {
			break
		}
		cur = next
	}
	return ""
}

// untrustedSourceCertain is pkg.untrusted-source's condition: code from a raw public IP
// address, or fetched from another owner's host and run at once.
func untrustedSourceCertain(c *execCtx, s *Segment) string {
	if why := untrustedFromRawIP(c, s); why != "" {
		return why
	}
	if why := lookalikeIndex(s); why != "" {
		return why
	}
	return strangerRun(c, s)
}

// Options that take a separate value, by runtime, so the script operand is found after them.
// Sources: deno help run / serve / install (docs.deno.com, "CLI reference"); bun --help
// (bun.sh/docs/cli/run); uv help run (docs.astral.sh/uv/reference/cli/#uv-run).
var (
	denoValueOpts = []string{"-c", "--config", "--import-map", "--lock", "--cert", "--location", "--seed", "-L", "--log-level",
		"--ext", "--port", "--host", "--preload", "--require", "--env-file", "--inspect-wait", "-n", "--name", "--root"}
	bunValueOpts = []string{"--cwd", "-r", "--preload", "-c", "--config", "--env-file", "--tsconfig-override", "-d", "--define",
		"-l", "--loader", "--conditions", "--main-fields", "--extension-order", "--port", "-e", "--external"}
	uvRunValueOpts = []string{"--with", "--with-editable", "--with-requirements", "-p", "--python", "--directory", "--project",
		"--package", "--extra", "--group", "--only-group", "--no-group", "--index", "--default-index", "--index-url", "-i",
		"--extra-index-url", "-f", "--find-links", "--env-file", "--python-platform", "--script"}
)

// denoRunners are the deno subcommands whose operand is a script they run or install as a
// command; denoOther are the rest, which take no script to run.
var (
	denoRunners = table[map[string]bool]{build: func() map[string]bool {
		return map[string]bool{"run": true, "serve": true, "install": true, "i": true, "x": true}
	}}
	denoOther = table[map[string]bool]{build: func() map[string]bool {
		return map[string]bool{"add": true, "bench": true, "cache": true, "check": true, "clean": true, "compile": true, "completions": true,
			"coverage": true, "doc": true, "eval": true, "fmt": true, "info": true, "init": true, "jupyter": true, "lint": true, "lsp": true,
			"outdated": true, "publish": true, "remove": true, "repl": true, "task": true, "test": true, "types": true, "uninstall": true,
			"upgrade": true, "update": true, "approve-scripts": true, "deploy": true, "help": true}
	}}
)

// runtimeScript returns the script a JavaScript, Python or Java runtime runs (deno run
// main.ts, deno main.ts, bun run x.ts, bun x.ts, uv run script.py, jbang Hello.java): its
// first operand after the subcommand and the options, which may be a URL. verb names the
// command; ok is false when the command runs no script (deno task; bun run build is judged
// as the project's package script).
func runtimeScript(s *Segment) (script, verb string, ok bool) {
	n := s.Name()
	if len(s.Args) < 2 {
		return "", "", false
	}
	var opts []string
	args := s.Args[1:]
	switch n {
	case "deno":
		opts = denoValueOpts
		i := firstOperand(args, opts)
		if i < 0 {
			return "", "", false
		}
		switch sub := args[i]; {
		case denoRunners.get()[sub]:
			args, verb = args[i+1:], "deno "+sub
		case denoOther.get()[sub]:
			return "", "", false
		default:
			args, verb = args[i:], "deno"
		}
	case "bun":
		opts = bunValueOpts
		i := firstOperand(args, opts)
		if i < 0 {
			return "", "", false
		}
		if args[i] == "run" {
			args, verb = args[i+1:], "bun run"
		} else {
			args, verb = args[i:], "bun"
		}
	case "jbang":
		opts = ecoInterps.get()["jbang"].values
		i := firstOperand(args, opts)
		if i < 0 {
			return "", "", false
		}
		if args[i] == "run" {
			args, verb = args[i+1:], "jbang run"
		} else {
			args, verb = args[i:], "jbang"
		}
	case "uv":
		i := firstOperand(args, uvRunValueOpts)
		if i < 0 || args[i] != "run" {
			return "", "", false
		}
		opts, args, verb = uvRunValueOpts, args[i+1:], "uv run"
	default:
		return "", "", false
	}
	i := firstOperand(args, opts)
	if i < 0 {
		return "", "", false
	}
	return args[i], verb, true
}

// runtimeURLScript is runtimeScript when the script is a URL: code fetched and run at once.
func runtimeURLScript(s *Segment) (u, verb string, ok bool) {
	script, verb, ok := runtimeScript(s)
	if !ok {
		return "", "", false
	}
	l := strings.ToLower(script)
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
		return "", "", false
	}
	return script, verb, true
}

// firstOperand is the index of the first argument that is neither an option nor an option's
// value, -1 when there is none ("--" ends the options).
func firstOperand(args, valueOpts []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return i + 1
			}
			return -1
		case hasWord(valueOpts, a):
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			return i
		}
	}
	return -1
}

// hasPkgOp reports whether the package analysis found an op of kind k in the segment.
func hasPkgOp(c *execCtx, s *Segment, k pkgKind) bool {
	for _, o := range pkgOps(c, s) {
		if o.kind == k {
			return true
		}
	}
	return false
}

func fetchRunRules() []*Rule {
	return []*Rule{
		{
			// deno run URL, deno install URL, bun URL, uv run URL: the runtime downloads the
			// script and runs it in the same step, with nothing on disk to review first.
			ID: "net.run-url", Level: High, Category: CatRemoteCodeExecution,
			Message: "Downloads a script from a URL and runs it at once",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				u, verb, ok := runtimeURLScript(s)
				if !ok || hasPkgOp(c, s, pkgUntrusted) {
					return "", false // pkg.untrusted-source says it, with the same condition
				}
				msg := "Downloads " + capText(u) + " and runs it with " + verb + " without review"
				if why := c.strangerCode(u, false); why != "" {
					return msg + "; " + why, true
				}
				c.certainty = certaintyUnsure // a vendor's or registry's own script: asked
				return msg, true
			},
		},
	}
}

// runtimeFile is the script file deno or bun runs ("" for none): runtimeScript without its
// subcommand, and not a URL (fetched, not a file of the project) or a package script name
// (bun run build is the project's package.json script, judged as the tool's).
func runtimeFile(s *Segment) string {
	script, verb, ok := runtimeScript(s)
	if !ok || strings.Contains(script, "://") || strings.HasPrefix(script, "npm:") || strings.HasPrefix(script, "jsr:") {
		return ""
	}
	if script == "-" {
		return script
	}
	if strings.HasPrefix(verb, "bun") && !strings.ContainsAny(script, "./") {
		return "" // a package.json script or a package's bin
	}
	if verb == "deno install" || verb == "deno i" || verb == "deno x" {
		return ""
	}
	return script
}

// loadedCodeFiles are files a command loads and runs as code although they are not its
// script operand: Gradle's init script, build and settings files (docs.gradle.org,
// "Initialization Scripts", "Command-Line Interface"), java -jar's archive (java(1)), node's
// and ruby's preloaded modules (node --require/--import, ruby -r), an editor's extension
// package (code --install-extension x.vsix). A file this request
// downloaded and then hands to one of them is run as surely as sh x.sh.
func loadedCodeFiles(s *Segment) []string {
	var opts []string
	switch pkgNorm(s.Name()) {
	case "gradle":
		opts = []string{"-I", "--init-script", "-b", "--build-file", "-c", "--settings-file"}
	case "java":
		opts = []string{"-jar", "-javaagent"}
	case "node", "bun", "tsx":
		opts = []string{"-r", "--require", "--import", "--preload"}
	case "ruby":
		opts = []string{"-r"}
	case "code", "code-insiders", "codium", "vscodium", "cursor", "windsurf":
		// A .vsix handed to the editor is an extension it installs and then runs
		// (code.visualstudio.com/docs/editor/extension-marketplace, "Install from a VSIX").
		opts = []string{"--install-extension"}
	default:
		return nil
	}
	var out []string
	args := s.Args[1:]
	for i := 0; i < len(args); i++ {
		for _, o := range opts {
			switch a := args[i]; {
			case a == o && i+1 < len(args):
				out = append(out, args[i+1])
			case strings.HasPrefix(a, o+"=") || strings.HasPrefix(a, o+":"):
				out = append(out, a[len(o)+1:])
			case len(o) == 2 && strings.HasPrefix(a, o) && len(a) > 2 && o != "-c" && o != "-b":
				out = append(out, a[2:])
			}
		}
	}
	return out
}

// fetcherOutputs are the files downloaders other than curl and wget write: aria2c -o/--out
// (under -d/--dir), axel -o/--output, gdown -O/--output (aria2c(1), axel(1), gdown --help).
func fetcherOutputs(s *Segment) []string {
	args := s.Args[1:]
	var out string
	var ok bool
	switch s.Name() {
	case "aria2c":
		if out, ok = optValue(args, "-o", "--out"); ok {
			if d, ok := optValue(args, "-d", "--dir"); ok && !strings.HasPrefix(out, "/") {
				out = strings.TrimSuffix(d, "/") + "/" + out
			}
		}
	case "axel":
		out, ok = optValue(args, "-o", "--output")
	case "gdown":
		out, ok = optValue(args, "-O", "--output")
	}
	if !ok || out == "" || out == "-" {
		return nil
	}
	return []string{out}
}
