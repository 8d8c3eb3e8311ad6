package riskmodel

import (
	"fmt"
	"html"
	"path"
	"regexp"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Files that run, written through an MCP tool (filesystem write_file/edit_file, GitHub
// create_or_update_file/push_files, GitLab's file tools). A project file that a tool executes
// later — a CI workflow, a git hook, a package manifest's lifecycle scripts, a Makefile
// recipe, an MSBuild Exec task — is code the agent writes now and nobody reviews before it
// runs (on the next push, commit, install or build). Its text is judged by the exec analysis
// of the commands it holds: a step that pipes another owner's download into a shell is remote
// code execution, denied as the same command would be (docs/policy.md: "downloading and
// executing remote scripts"). A build file that points the package manager at a repository
// whose host imitates a registry (repo1.maven-central.org, registry.npmjs-mirror.org) is a
// look-alike domain, on the policy's deny list. Ordinary script and build edits stay
// allowed: only these established effects decide.

// r18RunShape says how a run file's text holds commands.
type r18RunShape uint8

const (
	r18ShapeShell   r18RunShape = iota + 1 // the whole text is a shell script (git hooks)
	r18ShapeCI                             // YAML steps: run:, script:, command: bodies
	r18ShapeRecipes                        // a Makefile: indented recipe lines
	r18ShapeScripts                        // package.json/composer.json: the scripts' values
	r18ShapeBuild                          // build and package-manager settings: Exec tasks, repository URLs
)

// r18RunFile says whether a written path is a file a tool runs, what it is and how its text
// holds commands. Sources: docs.github.com (workflows), docs.gitlab.com (.gitlab-ci.yml),
// git-scm.com/docs/githooks, typicode.github.io/husky, lefthook docs (lefthook.yml run:),
// shopify.dev CLI hooks, docs.npmjs.com/cli/using-npm/scripts (install, prepare lifecycle),
// getcomposer.org/doc/articles/scripts.md, GNU make, learn.microsoft.com (MSBuild Exec task,
// Directory.Build.props), docs.gradle.org (repositories, Exec), maven.apache.org (pom
// repositories), pip.pypa.io (pip.conf index-url), docs.npmjs.com (.npmrc registry).
func r18RunFile(p string) (what string, shape r18RunShape, ok bool) {
	p = strings.ReplaceAll(p, `\`, "/")
	full := "/" + strings.TrimPrefix(p, "/")
	base := path.Base(p)
	lower := strings.ToLower(base)
	switch {
	case mcpCIFile(p):
		return "the CI pipeline", r18ShapeCI, true
	case lower == "lefthook.yml" || lower == "lefthook.yaml" || lower == ".lefthook.yml" || lower == "lefthook-local.yml":
		return "the lefthook git-hook configuration", r18ShapeCI, true
	case strings.Contains(full, "/.git/hooks/") || strings.Contains(full, "/.githooks/") ||
		strings.Contains(full, "/.husky/") || strings.Contains(full, "/.shopify/hooks/"):
		if strings.HasSuffix(lower, ".sample") {
			return "", 0, false
		}
		return "a git hook", r18ShapeShell, true
	case base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(lower, ".mk"):
		return "the Makefile", r18ShapeRecipes, true
	case lower == "package.json":
		return "the package manifest's scripts", r18ShapeScripts, true
	case lower == "composer.json":
		return "the Composer manifest's scripts", r18ShapeScripts, true
	case lower == "build.gradle" || lower == "build.gradle.kts" || lower == "settings.gradle" || lower == "settings.gradle.kts" ||
		lower == "init.gradle" || lower == "init.gradle.kts" || lower == "pom.xml" || lower == "settings.xml" ||
		strings.HasSuffix(lower, ".csproj") || strings.HasSuffix(lower, ".fsproj") || strings.HasSuffix(lower, ".vbproj") ||
		lower == "directory.build.props" || lower == "directory.build.targets" || lower == "nuget.config" ||
		lower == "setup.py" || lower == ".npmrc" || lower == ".yarnrc" || lower == ".yarnrc.yml" || lower == "pip.conf" || lower == "pip.ini" ||
		lower == ".pypirc" || lower == "gemfile" || lower == ".bunfig.toml" || lower == "bunfig.toml":
		return "the build configuration", r18ShapeBuild, true
	}
	return "", 0, false
}

// r18ScriptValue finds a manifest's script entries: "name": "command" pairs of a JSON object
// (package.json and composer.json keep their scripts as such pairs; a composer script may
// also be a list of commands, whose items are quoted strings of their own).
var r18ScriptValue = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`"((?:pre|post)?[A-Za-z0-9:_\-.]+)"\s*:\s*"((?:[^"\\]|\\.)*)"`)
}}

// r18ScriptsBlock finds the scripts object of a manifest (its text up to the closing brace).
var r18ScriptsBlock = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`"scripts"\s*:\s*\{[^{}]*\}`)
}}

// r18ExecCommand finds MSBuild Exec tasks' commands and Gradle/Maven exec command lines.
var r18ExecCommand = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)<Exec\b[^>]*\bCommand\s*=\s*"([^"]*)"|<executable>([^<]*)</executable>|\bcommandLine\s*\(?\s*((?:"[^"\n]*"\s*,?\s*)+)`)
}}

// r18URL finds URLs in a build file (repository declarations, index-url, registry=).
var r18URL = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`https?://[^\s"'<>)\]},]+`)
}}

// r18RegistryWords are the registrable labels of package registries: a domain that joins one
// to another word (maven-central.org, npmjs-registry.com) and is not the registry's own
// imitates it. The catalogue's ImitatedName covers its known hosts' spellings; these add the
// registries whose domains a repository declaration names.
var r18RegistryWords = wordSet{words: `maven mavencentral npmjs npm pypi pythonhosted nuget gradle gradleplugins rubygems packagist
	jitpack crates sonatype jcenter yarnpkg`}

// r18JoinWords are the words joined to a registry's name to make a domain pass for its
// infrastructure (maven-central, npmjs-mirror, pypi-downloads).
var r18JoinWords = wordSet{words: `central repo repo1 repo2 repository repositories mirror mirrors registry cdn proxy cache dl download downloads
	packages pkg pkgs plugins plugin official secure snapshots releases release artifacts dist files static index api`}

// r18JSONUnescape undoes a JSON string's escapes that matter to a shell command.
func r18JSONUnescape(s string) string {
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n", `\t`, "\t", `\/`, "/").Replace(s)
}

// r18Bodies returns the shell commands a run file's text holds.
func r18Bodies(shape r18RunShape, content string) []string {
	switch shape {
	case r18ShapeShell:
		return []string{content}
	case r18ShapeCI:
		var out []string
		for _, b := range mcpCIRunBodies(content) {
			out = append(out, mcpCIShell(b))
		}
		return out
	case r18ShapeRecipes:
		if s := indentedLines(content); strings.TrimSpace(s) != "" {
			return []string{s}
		}
	case r18ShapeScripts:
		text := content
		if m := r18ScriptsBlock.get().FindString(content); m != "" {
			text = m
		} else if i := strings.Index(content, `"scripts"`); i >= 0 {
			text = content[i:] // an edit's fragment: the block opens here and closes elsewhere
		} else if strings.HasPrefix(strings.TrimSpace(content), "{") {
			return nil // a whole manifest without scripts
		}
		var out []string
		for _, m := range r18ScriptValue.get().FindAllStringSubmatch(text, 64) {
			out = append(out, r18JSONUnescape(m[2]))
		}
		return out
	case r18ShapeBuild:
		var out []string
		for _, m := range r18ExecCommand.get().FindAllStringSubmatch(content, 16) {
			switch {
			case m[1] != "":
				out = append(out, html.UnescapeString(m[1]))
			case m[2] != "":
				out = append(out, strings.TrimSpace(html.UnescapeString(m[2])))
			case m[3] != "":
				var words []string
				for _, w := range strings.Split(m[3], ",") {
					if w = strings.Trim(strings.TrimSpace(w), `"`); w != "" {
						words = append(words, w)
					}
				}
				if len(words) >= 3 && (words[1] == "-c" || strings.EqualFold(words[1], "/c")) {
					out = append(out, words[2])
				} else {
					out = append(out, strings.Join(words, " "))
				}
			}
		}
		return out
	}
	return nil
}

// r18LookalikeRepo returns a URL in a build file whose host imitates a package registry, and
// what it imitates.
func r18LookalikeRepo(content string, build bool) (string, string) {
	cat := catalog.Default()
	for _, u := range r18URL.get().FindAllString(content, 32) {
		h := remoteHostOf(u)
		if h == "" {
			continue
		}
		if of, ok := cat.Lookalike(h); ok {
			return u, of
		}
		if of, ok := cat.ImitatedName(h, nil); ok {
			return u, of
		}
		label, _ := catalog.RegistrableLabel(h)
		words := strings.FieldsFunc(label, func(r rune) bool { return r == '-' || r == '_' })
		if len(words) < 2 {
			continue
		}
		if !build {
			continue
		}
		reg, joined := "", false
		for _, w := range words {
			switch {
			case r18RegistryWords.has(w):
				reg = w
			case r18JoinWords.has(w):
				joined = true
			}
		}
		if reg != "" && joined {
			return u, reg + "'s registry"
		}
	}
	return "", ""
}

// runFileRemoteCode finds a written run file whose commands the exec analysis finds running
// remote code or sending data out (critical or certain), or whose repository declaration
// names a look-alike registry host.
func (c *mcpCtx) runFileRemoteCode() string {
	for _, w := range c.writes() {
		what, shape, ok := r18RunFile(w.path)
		if !ok {
			continue
		}
		if shape == r18ShapeBuild || shape == r18ShapeScripts {
			if u, of := r18LookalikeRepo(w.content, shape == r18ShapeBuild); u != "" {
				return fmt.Sprintf("%s, which writes %s (%s) naming %s, whose host imitates %s: the next build installs whatever that host serves",
					c.call(), what, mcpCleanText(w.path, 80), mcpCleanText(u, 80), mcpCleanText(of, 40))
			}
		}
		if c.execShell == nil {
			continue
		}
		for _, body := range r18Bodies(shape, w.content) {
			if strings.TrimSpace(body) == "" {
				continue
			}
			for _, f := range c.execShell(body) {
				if f.Category != CatRemoteCodeExecution && f.Category != CatDataExfiltration {
					continue
				}
				if f.Level >= Critical || f.Level >= High && f.Certain {
					return fmt.Sprintf("%s, which writes %s (%s) with `%s`, run later by its tool unreviewed: %s", c.call(), what,
						mcpCleanText(w.path, 80), mcpCleanText(body, 60), strings.TrimSuffix(mcpCleanText(f.Message, 120), "."))
				}
			}
		}
	}
	return ""
}

// r18FilesRules are the rules of the r18 run-file writes.
func r18FilesRules() []*Rule {
	return []*Rule{
		{ID: "mcp.runfile-remote-code", Kind: KindMCP, Level: High, Category: CatRemoteCodeExecution, Certain: true,
			Message: "Writes a file a tool runs later (CI workflow, git hook, manifest scripts, Makefile, build file) whose commands run remote code or send data out, or whose repository is a look-alike registry host",
			mcp:     mcpWhich((*mcpCtx).runFileRemoteCode)},
	}
}
