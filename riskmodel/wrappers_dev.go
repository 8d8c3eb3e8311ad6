package riskmodel

import "strings"

// devWrappers are developer tools that run the command given as their arguments: build
// interceptors and compiler caches, file watchers and retry loops, profilers and record/replay
// debuggers, environment and version managers, secret injectors. Each is judged as the command
// it runs (tableWrappers), so `scan-build rm -rf ~` is the deletion it is and `ccache gcc -c
// x.c` the compile. Sources: the tldr pages (pages/common/NAME.md, pages/linux/NAME.md,
// pages/osx/arch.md) and each tool's --help.
func devWrappers() map[string]*wrapperSpec {
	return map[string]*wrapperSpec{
		// Static analysis and compilation database interceptors (tldr: scan-build, bear).
		"scan-build": {optArgs: opts("-o", "--use-cc", "--use-c++", "-enable-checker", "-disable-checker", "-analyzer-config",
			"--use-analyzer", "-maxloop", "--html-title", "-load-plugin", "--exclude")},
		"bear": {parse: parseBear},
		// Compiler caches and distributed compilers (tldr: ccache, sccache, distcc, icecc):
		// their own options (ccache -s, sccache --show-stats) come alone and run nothing.
		"ccache":  {optArgs: opts("-M", "--max-size", "-F", "--max-files", "-o", "--set-config", "-k", "--get-config", "-d", "--dir", "-X", "--recompress")},
		"sccache": {},
		"distcc":  {},
		"icecc":   {},
		// File watchers and retry loops (tldr: reflex, retry, timelimit, systemd-inhibit).
		"reflex": {optArgs: opts("-r", "--regex", "-R", "--inverse-regex", "-g", "--glob", "-G", "--inverse-glob", "-c", "--config", "-d", "--decoration")},
		"retry": {optArgs: opts("-t", "--times", "-d", "--delay", "-u", "--until", "-m", "--message", "-n", "--retries", "--min", "--max",
			"-b", "--backoff")},
		"timelimit":       {optArgs: opts("-t", "-T", "-s", "-S")},
		"systemd-inhibit": {optArgs: opts("--what", "--who", "--why", "--mode")},
		"cross-env":       {},
		// Job queues (tldr: tsp, nq): options alone list or manage the queue.
		"tsp": {optArgs: opts("-L", "-D", "-W", "-N"), noCmdFlags: "lrkKtcpiouUwhCS"},
		"nq":  {},
		// Profilers and record/replay debuggers (tldr: samply, rr).
		"samply": {parse: parseSubThenCommand("record", opts("-r", "--rate", "-d", "--duration", "-o", "--output", "--profile-name",
			"--iteration-count", "-p", "--pid", "-P", "--port", "--address"))},
		"rr": {parse: parseSubThenCommand("record", opts("-o", "--output-trace-dir", "-c", "--num-cpu-ticks", "-b", "--bind-to-cpu",
			"--env", "-v", "--disable-cpuid-features", "--syscall-buffer-sig", "-e"))},
		// Environments and version managers (tldr: conda run, direnv exec, mise exec, asdf,
		// pyenv, rbenv, nodenv exec; arch on macOS; runit's chpst, envdir, setlock).
		"conda":      {parse: parseSubThenCommand("run", opts("-n", "--name", "-p", "--prefix", "--cwd"))},
		"mamba":      {parse: parseSubThenCommand("run", opts("-n", "--name", "-p", "--prefix", "--cwd"))},
		"micromamba": {parse: parseSubThenCommand("run", opts("-n", "--name", "-p", "--prefix", "--cwd", "-a", "--attach"))},
		"direnv":     {parse: parseDirenvExec},
		"mise":       {parse: parseMiseExec},
		"asdf":       {parse: parseSubThenCommand("exec", nil)},
		"pyenv":      {parse: parseSubThenCommand("exec", nil)},
		"rbenv":      {parse: parseSubThenCommand("exec", nil)},
		"nodenv":     {parse: parseSubThenCommand("exec", nil)},
		"arch":       {optArgs: opts("-e", "-d", "-arch")},
		"chpst": {optArgs: opts("-u", "-U", "-b", "-e", "-/", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c", "-r", "-t"),
			privFlags: "u"},
		"envdir":       {operands: 1},
		"setlock":      {operands: 1},
		"with-contenv": {},
		// Nix shells run the command they are given in the project's environment; a flake or
		// channel named by URL is fetched code and keeps the use the wrapper's own.
		"nix":       {parse: parseNixCommand},
		"nix-shell": {parse: parseNixShell},
		// Secret injectors run a command with secrets in its environment (tldr: doppler, op,
		// infisical, aws-vault). The command is judged as run directly, but one that prints
		// the environment prints the secrets: that use stays the injector's own.
		"doppler":   secretRunner(parseSecretRun("run", opts("-p", "--project", "-c", "--config", "-t", "--token", "--name-transformer", "--mount", "--mount-format", "--mount-template", "--fallback", "--scope", "--api-host"))),
		"infisical": secretRunner(parseSecretRun("run", opts("--env", "--path", "--token", "--projectId", "--domain", "--tags"))),
		"op":        secretRunner(parseSecretRun("run", opts("--env-file", "--account", "--config", "--session"))),
		"aws-vault": secretRunner(parseAWSVaultExec),
	}
}

// parseSubThenCommand returns a parser for TOOL SUB [options] [--] COMMAND (samply record,
// conda run, mise exec): other subcommands run nothing.
func parseSubThenCommand(sub string, withArg map[string]bool) func([]string) ([]string, []string, bool) {
	return func(args []string) ([]string, []string, bool) {
		if len(args) == 0 || args[0] != sub {
			return nil, nil, false
		}
		r, _ := skipWithArgs(args[1:], withArg)
		return r, nil, len(r) > 0
	}
}

// parseBear reads bear [options] -- COMMAND (Bear 3) and bear [options] COMMAND (Bear 2);
// bear intercept runs the command too, bear citnames runs nothing.
func parseBear(args []string) ([]string, []string, bool) {
	if len(args) > 0 && args[0] == "citnames" {
		return nil, nil, false
	}
	if len(args) > 0 && args[0] == "intercept" {
		args = args[1:]
	}
	r, _ := skipWithArgs(args, opts("--output", "-o", "--config", "--library", "-l", "--cdb", "--include", "--exclude", "--use-cc", "--use-c++", "--verbose"))
	return r, nil, len(r) > 0
}

// parseMiseExec reads mise exec|x [TOOL@VERSION …] [options] -- COMMAND: with tools named,
// the command follows "--" (mise exec --help).
func parseMiseExec(args []string) ([]string, []string, bool) {
	if len(args) == 0 || args[0] != "exec" && args[0] != "x" {
		return nil, nil, false
	}
	for i, a := range args {
		if a == "--" {
			return args[i+1:], nil, i+1 < len(args)
		}
	}
	r, _ := skipWithArgs(args[1:], opts("-C", "--cd", "-E", "--env", "-j", "--jobs"))
	return r, nil, len(r) > 0
}

// parseDirenvExec reads direnv exec DIR COMMAND.
func parseDirenvExec(args []string) ([]string, []string, bool) {
	if len(args) < 3 || args[0] != "exec" {
		return nil, nil, false
	}
	return args[2:], nil, true
}

// parseNixCommand reads nix develop|shell [INSTALLABLES] [options] -c|--command COMMAND. An
// installable that names a flake elsewhere (github:o/r, https://…, a registry name like
// nixpkgs#x is the usual channel) or an -I/--override-input leaves the use to the rules that
// judge nix itself.
func parseNixCommand(args []string) ([]string, []string, bool) {
	if len(args) == 0 || args[0] != "develop" && args[0] != "shell" {
		return nil, nil, false
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" || a == "--command":
			if i+1 < len(args) {
				return args[i+1:], nil, true
			}
			return nil, nil, false
		case a == "-I" || a == "--override-input" || a == "--override-flake" || strings.Contains(a, "://") ||
			strings.HasPrefix(a, "github:") || strings.HasPrefix(a, "gitlab:") || strings.HasPrefix(a, "git+") || strings.HasPrefix(a, "tarball+"):
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// parseNixShell reads nix-shell [options] --run|--command CODE: the code runs in a shell.
func parseNixShell(args []string) ([]string, []string, bool) {
	for _, a := range args {
		if a == "-I" || strings.Contains(a, "://") {
			return nil, nil, false
		}
	}
	if code, ok := optValue(args, "--run", "--command"); ok {
		return nil, []string{code}, true
	}
	return nil, nil, false
}

// parseSecretRun returns a parser for TOOL run [options] [--] COMMAND and TOOL run
// --command CODE (doppler, infisical, op).
func parseSecretRun(sub string, withArg map[string]bool) func([]string) ([]string, []string, bool) {
	return func(args []string) ([]string, []string, bool) {
		if len(args) == 0 || args[0] != sub {
			return nil, nil, false
		}
		if code, ok := optValue(args[1:], "--command"); ok {
			return nil, []string{code}, true
		}
		r, _ := skipWithArgs(args[1:], withArg)
		return r, nil, len(r) > 0
	}
}

// parseAWSVaultExec reads aws-vault exec [options] PROFILE [--] COMMAND.
func parseAWSVaultExec(args []string) ([]string, []string, bool) {
	if len(args) == 0 || args[0] != "exec" {
		return nil, nil, false
	}
	r, _ := skipWithArgs(args[1:], opts("-d", "--duration", "-t", "--mfa-token", "-r", "--region", "--ec2-server"))
	if len(r) < 2 {
		return nil, nil, false
	}
	r = r[1:]
	if r[0] == "--" {
		r = r[1:]
	}
	return r, nil, len(r) > 0
}

// secretRunner is the wrapper spec of a secret injector whose runs parse finds: a command
// that prints the environment it was given (env, printenv, set, export -p) prints the
// secrets into the transcript, so that use is judged as the injector's own.
func secretRunner(parse func([]string) ([]string, []string, bool)) *wrapperSpec {
	return &wrapperSpec{parse: parse, self: func(args []string) bool {
		argv, codes, ok := parse(args)
		if !ok {
			return false
		}
		for _, c := range codes {
			if argvDumpsEnv(strings.Fields(c)) {
				return true
			}
		}
		return argvDumpsEnv(argv)
	}}
}

// argvDumpsEnv reports an argv that prints the whole environment.
func argvDumpsEnv(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	switch baseName(argv[0]) {
	case "env", "printenv", "set", "export", "declare", "typeset":
		return true
	}
	return false
}
