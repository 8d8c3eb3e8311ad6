package riskmodel

// Files that build, test and task tools execute.
//
// A test runner, a build tool or a task runner is routine on the project's own files, but it
// is an interpreter in disguise: pytest imports conftest.py and every test module it collects,
// cargo compiles and runs build.rs, rake evaluates the Rakefile, jupyter nbconvert --execute
// runs a notebook's cells. A request that downloads or writes such a file and then runs the
// tool runs that file's code, and is judged as if it had handed the file to the interpreter:
// fetched from another owner's host it is net.download-exec, written with known content it is
// the inline-code analysis of that content. Files the request does not write stay the
// project's own (plain `pytest` is routine), and a file the request only edits in place
// (sed -i) keeps being the project's.
//
// runTools is that knowledge as data, one entry per tool, each sourced from the tool's own
// documentation of what it executes.

import (
	"path"
	"slices"
	"strings"
)

// runTool says which files one tool executes.
type runTool struct {
	// subs are the subcommands that run the files (the first positional word); none: any.
	subs []string
	// needFlags: one of these flags must be present (nbconvert runs cells only with --execute).
	needFlags []string
	// operands are the extensions of operand files the tool runs (pytest test_x.py).
	operands []string
	// fileOpts are options whose value is a file the tool runs (locust -f FILE).
	fileOpts []string
	// implicit are project files the tool runs without being named: a base name or a
	// dir/base tail, with path.Match wildcards, and how their content is read.
	implicit []runFile
	// lang is how an operand's content is read when its extension does not say.
	lang string
}

// runFile is a file pattern and the language its content is read as.
type runFile struct {
	pattern string
	lang    string
}

// Languages of run files besides those of the inline-code analysis (python, node, ruby, …).
const (
	runLangNotebook = "notebook" // Jupyter JSON: the code cells are Python
	runLangShell    = "shell"    // a shell script (.envrc)
	runLangRecipes  = "recipes"  // indented recipe lines are shell commands (justfile)
	runLangTox      = "tox"      // commands = … lines of tox.ini
	runLangTaskfile = "taskfile" // cmds: entries of Taskfile.yml
	runLangGoGen    = "gogenerate"
)

// runTools: what each tool executes, from its documentation.
var runTools = table[map[string]*runTool]{build: func() map[string]*runTool {
	pyTests := []runFile{{"conftest.py", "python"}, {"test_*.py", "python"}, {"*_test.py", "python"}}
	jsTests := []runFile{{"*.test.*", "node"}, {"*.spec.*", "node"}, {"__tests__/*", "node"}}
	jsExts := []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"}
	gradleCfg := []runFile{{"build.gradle", "groovy"}, {"settings.gradle", "groovy"}, {"init.gradle", "groovy"},
		{"build.gradle.kts", "kotlin"}, {"settings.gradle.kts", "kotlin"}, {"buildSrc/*", "kotlin"}}
	pytest := &runTool{
		// docs.pytest.org, "Test discovery" and "conftest.py: local per-directory plugins":
		// pytest imports the test modules it is given or collects, and every conftest.py.
		operands: []string{".py"}, implicit: pyTests, lang: "python",
	}
	gradle := &runTool{implicit: gradleCfg}                  // docs.gradle.org: build and settings scripts run on every build
	mvn := &runTool{implicit: []runFile{{"pom.xml", "xml"}}} // maven.apache.org: plugins in pom.xml (exec, antrun) run commands
	return map[string]*runTool{
		"pytest": pytest, "py.test": pytest,
		// docs.locust.io: locust imports the locustfile (-f, default locustfile.py).
		"locust": {fileOpts: []string{"-f", "--locustfile"}, operands: []string{".py"}, implicit: []runFile{{"locustfile.py", "python"}}, lang: "python"},
		// nbconvert.readthedocs.io: --execute runs the notebook's cells; `jupyter execute` always does.
		"jupyter-nbconvert": {needFlags: []string{"--execute"}, operands: []string{".ipynb"}, lang: runLangNotebook},
		"jupyter-execute":   {operands: []string{".ipynb"}, lang: runLangNotebook},
		// papermill.readthedocs.io: executes the input notebook.
		"papermill": {operands: []string{".ipynb"}, lang: runLangNotebook},
		// ipython.readthedocs.io: `ipython FILE` runs a script or notebook, magics included.
		"ipython": {operands: []string{".ipy", ".ipynb", ".py"}, lang: runLangNotebook},
		// behave.readthedocs.io: imports features/steps/*.py and features/environment.py.
		"behave": {implicit: []runFile{{"steps/*.py", "python"}, {"environment.py", "python"}}},
		// robotframework.org user guide: test data files run keywords, libraries are Python.
		"robot": {operands: []string{".robot", ".resource", ".py"}, lang: "robot"},
		// grafana.com/docs/k6: `k6 run script.js` runs the script.
		"k6": {subs: []string{"run", "cloud"}, operands: jsExts, lang: "node"},
		// artillery.io/docs: the scenario file and the processor JS it names run.
		"artillery": {subs: []string{"run", "run-test", "run-lambda", "run-fargate"}, operands: append([]string{".yml", ".yaml", ".json"}, jsExts...), lang: "node"},
		// learning.postman.com newman: a collection's pre-request and test scripts run.
		"newman": {subs: []string{"run"}, operands: []string{".json"}, lang: "node"},
		// mochajs.org, jestjs.io, vitest.dev: the spec files given or found are imported.
		"mocha":  {operands: jsExts, implicit: append([]runFile{{".mocharc.js", "node"}, {"test/*", "node"}}, jsTests...), lang: "node"},
		"jest":   {operands: jsExts, implicit: append([]runFile{{"jest.config.*", "node"}}, jsTests...), lang: "node"},
		"vitest": {operands: jsExts, implicit: append([]runFile{{"vitest.config.*", "node"}, {"vite.config.*", "node"}}, jsTests...), lang: "node"},
		// docs.deno.com `deno test`, bun.sh/docs/cli/test: test files given or matched.
		"deno": {subs: []string{"test", "bench"}, operands: jsExts, implicit: append([]runFile{{"*_test.*", "node"}}, jsTests...), lang: "node"},
		"bun":  {subs: []string{"test"}, operands: jsExts, implicit: append([]runFile{{"*_test.*", "node"}}, jsTests...), lang: "node"},
		// docs.phpunit.de, rspec.info: the test files given or found, and their bootstrap.
		"phpunit": {operands: []string{".php"}, implicit: []runFile{{"*Test.php", "php"}, {"bootstrap.php", "php"}}, lang: "php"},
		"rspec":   {operands: []string{".rb"}, implicit: []runFile{{"*_spec.rb", "ruby"}, {"spec_helper.rb", "ruby"}, {"rails_helper.rb", "ruby"}}, lang: "ruby"},
		// nox.thea.codes: runs noxfile.py (or -f FILE); tox.wiki: runs tox.ini's commands and
		// builds the package (setup.py).
		"nox": {fileOpts: []string{"-f", "--noxfile"}, implicit: []runFile{{"noxfile.py", "python"}}, lang: "python"},
		"tox": {implicit: []runFile{{"tox.ini", runLangTox}, {"setup.py", "python"}}},
		// docs.pyinvoke.org: imports tasks.py. ruby.github.io/rake: evaluates the Rakefile.
		"invoke": {implicit: []runFile{{"tasks.py", "python"}}},
		"inv":    {implicit: []runFile{{"tasks.py", "python"}}},
		"rake":   {fileOpts: []string{"-f", "--rakefile"}, implicit: []runFile{{"Rakefile", "ruby"}, {"rakefile", "ruby"}, {"Rakefile.rb", "ruby"}, {"*.rake", "ruby"}}, lang: "ruby"},
		// just.systems manual: recipes are shell lines. taskfile.dev: cmds run in a shell.
		"just":   {fileOpts: []string{"-f", "--justfile"}, implicit: []runFile{{"justfile", runLangRecipes}, {"Justfile", runLangRecipes}, {".justfile", runLangRecipes}}, lang: runLangRecipes},
		"task":   {fileOpts: []string{"-t", "--taskfile"}, implicit: []runFile{{"Taskfile.yml", runLangTaskfile}, {"Taskfile.yaml", runLangTaskfile}, {"taskfile.yml", runLangTaskfile}, {"taskfile.yaml", runLangTaskfile}}, lang: runLangTaskfile},
		"gradle": gradle, "gradlew": gradle,
		"mvn": mvn, "mvnw": mvn,
		// cmake.org: execute_process() in CMakeLists.txt and included .cmake files runs at configure.
		"cmake": {implicit: []runFile{{"CMakeLists.txt", "cmake"}, {"*.cmake", "cmake"}}},
		// doc.rust-lang.org/cargo: build.rs is compiled and run before the package builds;
		// run, test and bench also run the crate's own code.
		"cargo": {subs: []string{"build", "b", "check", "c", "run", "r", "test", "t", "bench", "clippy", "doc", "install"},
			implicit: []runFile{{"build.rs", "rust"}}},
		// pkg.go.dev/cmd/go: `go test` compiles and runs *_test.go; `go generate` runs the
		// commands of //go:generate lines.
		"go-test":     {implicit: []runFile{{"*_test.go", "go"}}},
		"go-generate": {implicit: []runFile{{"*.go", runLangGoGen}}},
		// pip.pypa.io: installing a local project runs its setup.py build backend.
		"pip-install": {implicit: []runFile{{"setup.py", "python"}}},
		// direnv.net: `direnv allow` authorises .envrc, which then runs in every shell entering the dir.
		"direnv": {subs: []string{"allow"}, implicit: []runFile{{".envrc", runLangShell}}},
	}
}}

// runToolOf returns the entry for a segment's tool, with the words after the tool (and
// after a subcommand folded into the key: jupyter nbconvert, go test, pip install).
func runToolOf(s *Segment) (*runTool, []string) {
	n := strings.TrimSuffix(s.Name(), ".exe")
	args := s.Args[1:]
	switch n {
	case "jupyter", "go", "pip", "pip3":
		if len(args) == 0 {
			return nil, nil
		}
		sub := args[0]
		if n == "pip3" {
			n = "pip"
		}
		if n == "pip" && sub == "install" && !installsLocalProject(args[1:]) {
			return nil, nil
		}
		n, args = n+"-"+sub, args[1:]
	case "python", "python3":
		// python -m pytest: the module runs as the tool would.
		if len(args) >= 2 && args[0] == "-m" {
			n, args = args[1], args[2:]
		}
	}
	t := runTools.get()[n]
	if t == nil {
		// npx jest, uv run pytest, poetry run rake: the tool the runner starts.
		if inner, _, ok := pkgRunnerInner(s); ok && inner != nil && len(inner.Args) > 0 && inner.Name() != s.Name() {
			return runToolOf(inner)
		}
		return nil, nil
	}
	if len(t.subs) > 0 {
		if len(args) == 0 || !slices.Contains(t.subs, args[0]) {
			return nil, nil
		}
		args = args[1:]
	}
	if len(t.needFlags) > 0 && !slices.ContainsFunc(args, func(a string) bool {
		return slices.ContainsFunc(t.needFlags, func(f string) bool { return a == f || strings.HasPrefix(a, f+"=") })
	}) {
		return nil, nil
	}
	return t, args
}

// installsLocalProject reports pip install arguments that name a local project (., ./x, -e .).
func installsLocalProject(args []string) bool {
	for _, a := range args {
		if a == "." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") || a == ".[dev]" || strings.HasPrefix(a, ".[") {
			return true
		}
	}
	return false
}

// runToolFiles returns the files a tool segment executes, each with the language its content
// is read as: the operands and option values it runs, and the files this request wrote that
// the tool runs implicitly (written lists the absolute paths the request wrote, sorted; it is
// asked only for a tool that runs files implicitly).
func runToolFiles(s *Segment, sc *Scope, written func() []string) (files []string, langs map[string]string) {
	t, args := runToolOf(s)
	if t == nil {
		return nil, nil
	}
	langs = map[string]string{}
	add := func(f, lang string) {
		if _, dup := langs[f]; !dup {
			files = append(files, f)
		}
		langs[f] = lang
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if v, ok := optionFile(args, i, t.fileOpts); ok {
			add(v, t.langFor(v))
			if !strings.Contains(a, "=") {
				i++
			}
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if f, _, _ := strings.Cut(a, "::"); slices.ContainsFunc(t.operands, func(e string) bool { return strings.HasSuffix(f, e) }) {
			add(f, t.langFor(f)) // pytest tests/test_a.py::test_x
		}
	}
	if len(t.implicit) == 0 {
		return files, langs
	}
	for _, abs := range written() {
		if !isAncestor(sc.Cwd, abs) && abs != sc.Cwd {
			continue
		}
		for _, p := range t.implicit {
			if matchTail(p.pattern, abs) {
				add(abs, p.lang)
				break
			}
		}
	}
	for _, p := range t.implicit {
		if !strings.ContainsAny(p.pattern, "*?[/") {
			add(p.pattern, p.lang) // at the project root, where a clone's files are followed too
		}
	}
	return files, langs
}

// optionFile returns the value of a file option at args[i] (-f F, -fF, --file=F).
func optionFile(args []string, i int, opts []string) (string, bool) {
	a := args[i]
	for _, o := range opts {
		switch {
		case a == o && i+1 < len(args):
			return args[i+1], true
		case strings.HasPrefix(a, o+"="):
			return a[len(o)+1:], true
		}
	}
	return "", false
}

// langFor is the language of a file the tool runs, by extension first.
func (t *runTool) langFor(f string) string {
	switch path.Ext(f) {
	case ".py":
		return "python"
	case ".ipynb":
		return runLangNotebook
	case ".rb":
		return "ruby"
	case ".php":
		return "php"
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx":
		return "node"
	}
	return t.lang
}

// matchTail reports whether the last path elements of abs match pattern (a base name or a
// dir/base tail, with path.Match wildcards).
func matchTail(pattern, abs string) bool {
	n := strings.Count(pattern, "/") + 1
	parts := strings.Split(abs, "/")
	if len(parts) < n {
		return false
	}
	ok, _ := path.Match(pattern, strings.Join(parts[len(parts)-n:], "/"))
	return ok
}

// runFileCode returns the code a run file of the given language holds, and the language to
// analyse it as ("shell" for command lines).
func runFileCode(lang, content string) (code, as string) {
	switch lang {
	case runLangNotebook:
		return notebookPython(content), "python" // its shell cells: notebookShell
	case runLangShell:
		return content, runLangShell
	case runLangRecipes:
		return indentedLines(content), runLangShell
	case runLangTox:
		return toxCommands(content), runLangShell
	case runLangTaskfile:
		return taskfileCommands(content), runLangShell
	case runLangGoGen:
		return goGenerateCommands(content), runLangShell
	}
	return content, lang
}

// indentedLines returns the indented lines of a recipe file (a justfile's recipe bodies) as
// one shell script, without the @ and - prefixes.
func indentedLines(content string) string {
	var b strings.Builder
	for _, line := range strings.Split(content, "\n") {
		if line == "" || (line[0] != ' ' && line[0] != '\t') {
			continue
		}
		b.WriteString(strings.TrimLeft(strings.TrimSpace(line), "@-"))
		b.WriteByte('\n')
	}
	return b.String()
}

// toxCommands returns the commands, commands_pre and commands_post of a tox.ini, one a line.
func toxCommands(content string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(content, "\n") {
		trim := strings.TrimSpace(line)
		if k, v, ok := strings.Cut(trim, "="); ok && line != "" && line[0] != ' ' && line[0] != '\t' {
			k = strings.TrimSpace(k)
			in = k == "commands" || k == "commands_pre" || k == "commands_post"
			if in && strings.TrimSpace(v) != "" {
				b.WriteString(strings.TrimPrefix(strings.TrimSpace(v), "- "))
				b.WriteByte('\n')
			}
			continue
		}
		if in && trim != "" && (line[0] == ' ' || line[0] == '\t') {
			b.WriteString(strings.TrimPrefix(trim, "- "))
			b.WriteByte('\n')
			continue
		}
		if trim == "" || strings.HasPrefix(trim, "[") {
			in = false
		}
	}
	return b.String()
}

// taskfileCommands returns the cmds of a Taskfile.yml, one a line: list entries under a
// cmds: key and cmd: values.
func taskfileCommands(content string) string {
	var b strings.Builder
	cmdsIndent := -1
	for _, line := range strings.Split(content, "\n") {
		trim := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if trim == "" || strings.HasPrefix(trim, "#") {
			continue
		}
		if cmdsIndent >= 0 && indent <= cmdsIndent {
			cmdsIndent = -1
		}
		switch {
		case trim == "cmds:":
			cmdsIndent = indent
			continue
		case cmdsIndent >= 0 && strings.HasPrefix(trim, "- "):
			trim = strings.TrimSpace(trim[2:])
		case !strings.HasPrefix(trim, "cmd:"):
			continue
		}
		if v, ok := strings.CutPrefix(trim, "cmd:"); ok {
			trim = strings.TrimSpace(v)
		}
		if f := strings.Fields(trim); len(f) > 0 && strings.HasSuffix(f[0], ":") {
			continue // task: other, defer: …: a mapping, not a command
		}
		b.WriteString(unquoteYAML(trim))
		b.WriteByte('\n')
	}
	return b.String()
}

func unquoteYAML(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// goGenerateCommands returns the commands of a Go file's //go:generate lines.
func goGenerateCommands(content string) string {
	var b strings.Builder
	for _, line := range strings.Split(content, "\n") {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "//go:generate "); ok {
			b.WriteString(cmd)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// runToolFiles returns the files seg's tool executes (runTools) and their languages.
func (x *extractor) runToolFiles(seg *Segment) ([]string, map[string]string) {
	if len(seg.Args) == 0 {
		return nil, nil
	}
	// Every segment asks, and few are tools that run files implicitly: the request's written
	// files are listed and sorted only for those (a request that wrote thousands of files
	// sorted them for every later command).
	return runToolFiles(seg, x.scope, func() []string {
		written := make([]string, 0, len(x.files))
		for abs := range x.files {
			written = append(written, abs)
		}
		slices.Sort(written)
		return written
	})
}

// runToolCode judges the known content of a file a build or test tool runs: command lines as
// a script of the shell, code as the inline-code analysis of its language reads it.
func (x *extractor) runToolCode(seg *Segment, lang, content string, ctx, inner walkCtx) {
	code, as := runFileCode(lang, content)
	if lang == runLangNotebook {
		if sh := notebookShell(content); sh != "" {
			x.script(sh, inner) // !cmd lines and %%bash cells (r17b_notebook.go)
		}
	}
	if as == runLangShell {
		x.script(code, inner)
		return
	}
	if buildLangs.get()[as] {
		// CMake's execute_process, Rust's Command, Gradle's exec, Maven's exec plugin: the
		// inline analysis does not read these languages, so the command lines quoted in them
		// are judged as the shell would run them.
		for _, lit := range commandLiterals(code) {
			x.script(lit, inner)
		}
		return
	}
	facts, _ := x.inspectCode(as, code, ctx)
	seg.Code = true
	if seg.CodeFacts == nil {
		seg.CodeFacts = facts
	}
	seg.CodeOpaque = seg.CodeOpaque || facts.Opaque != ""
}

// buildLangs are the languages of build files the inline-code analysis does not read.
var buildLangs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"cmake": true, "rust": true, "go": true, "groovy": true, "kotlin": true, "xml": true, "robot": true}
}}

// commandLiterals returns the quoted strings of code that read as shell command lines: those
// with a pipe, a list operator or a substitution, and those whose first word is a shell, an
// interpreter or a downloader.
func commandLiterals(code string) []string {
	var out []string
	for i := 0; i < len(code) && len(out) < 64; i++ {
		q := code[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(code) && code[j] != q && code[j] != '\n' {
			if code[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(code) || code[j] != q {
			continue
		}
		lit := unescapeCodeString(code[i+1 : j])
		i = j
		f := strings.Fields(lit)
		if len(f) == 0 {
			continue
		}
		first := baseName(f[0])
		if strings.Contains(lit, "|") || strings.Contains(lit, "&&") || strings.Contains(lit, ";") || strings.Contains(lit, "$(") ||
			len(f) > 1 && (shells.get()[first] || interpreters.get()[first] || fetchers.get()[first]) {
			out = append(out, lit)
		}
	}
	return out
}
