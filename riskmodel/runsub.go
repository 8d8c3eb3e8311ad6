package riskmodel

import (
	"path"
	"regexp"
	"strings"
)

// Tools whose subcommand starts the program named after it — bundle exec CMD, cabal exec --
// CMD, npm exec CMD, poetry run CMD, codex sandbox linux CMD, systemd-run CMD — and tools that
// start a shell of their own (script with no -c, systemd-run -S, run-parts matching a shell's
// name in /bin). GTFOBins lists each as a "shell" function; under sudo the program they start
// runs as root, so a shell started that way is the root shell escape rootShellEscape denies.
// Sources: GTFOBins bundle, bundler, cabal, npm, yarn, pnpm, poetry, uv, pipenv, codex,
// systemd-run, run-parts, script (github.com/GTFOBins/GTFOBins.github.io at 7382261e); each
// tool's manual for the subcommand.

// runSubcommands are, per tool, the subcommand words after which the program to run follows.
var runSubcommands = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"bundle": {"exec"}, "bundler": {"exec"}, "cabal": {"exec", "run"}, "stack": {"exec"},
		"npm": {"exec", "x"}, "pnpm": {"exec", "dlx"}, "yarn": {"exec", "dlx"}, "bun": {"x"},
		"poetry": {"run"}, "uv": {"run"}, "pipenv": {"run"}, "pdm": {"run"}, "hatch": {"run"}, "rye": {"run"},
		"codex":  {"sandbox linux", "sandbox macos", "sandbox landlock", "sandbox seatbelt", "debug landlock", "debug seatbelt"},
		"dotnet": {"exec"}, "mix": {"run"}, "conda": {"run"}, "pixi": {"run"},
	}
}}

// subcommandRuns returns the command lines a segment's tool starts through its run
// subcommand, or the shell it opens by itself.
func subcommandRuns(s *Segment) []string {
	if len(s.Args) < 2 {
		if s.Name() == "script" {
			return []string{"sh"} // script with no -c records an interactive $SHELL
		}
		return nil
	}
	args := s.Args[1:]
	switch s.Name() {
	case "script":
		if _, ok := optValue(args, "-c", "--command"); !ok {
			return []string{"sh"}
		}
		return nil
	case "systemd-run":
		if s.hasFlag("S", "--shell") {
			return []string{"sh"}
		}
		if p := s.positional(0, "-p", "--property", "-u", "--unit", "-E", "--setenv", "--uid", "--gid", "-M", "--machine", "-H", "--host",
			"--on-active", "--on-boot", "--on-calendar", "--on-unit-active", "--on-startup", "--description", "--slice", "--working-directory", "--nice", "--timer-property"); len(p) > 0 {
			return []string{shellJoin(p)}
		}
		return nil
	case "run-parts":
		// run-parts --regex RE DIR runs every program of DIR whose name matches RE.
		if re, ok := optValue(args, "--regex"); ok {
			if p := s.positional(0, "--regex", "-u", "--umask", "--arg", "-a"); len(p) > 0 {
				if rx, err := regexp.Compile(re); err == nil {
					for _, sh := range [...]string{"sh", "bash", "dash", "zsh", "ksh"} {
						if rx.MatchString(sh) && (p[len(p)-1] == "/bin" || p[len(p)-1] == "/usr/bin" || p[len(p)-1] == "/bin/" || p[len(p)-1] == "/usr/bin/") {
							return []string{path.Join(p[len(p)-1], sh)}
						}
					}
				}
			}
		}
		return nil
	}
	if s.Name() == "sed" || s.Name() == "gsed" {
		// sed's e command runs the rest of its line (GTFOBins sed shell: sed -n '1e exec sh').
		var out []string
		for _, sc := range sedScripts(args) {
			if exec, _ := sedEffects(sc); exec {
				out = append(out, sedECommands(sc)...)
			}
		}
		return out
	}
	subs := runSubcommands.get()[s.Name()]
	if len(subs) == 0 {
		return nil
	}
	for _, sub := range subs {
		words := strings.Fields(sub)
		i := 0
		// Leading options before the subcommand (cabal --project-file=x exec).
		for i < len(args) && strings.HasPrefix(args[i], "-") {
			i++
		}
		if i+len(words) > len(args) || strings.Join(args[i:i+len(words)], " ") != sub {
			continue
		}
		rest := args[i+len(words):]
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") && rest[0] != "--" {
			if strings.Contains(rest[0], "=") || len(rest) == 1 {
				rest = rest[1:]
				continue
			}
			rest = rest[1:] // an option of the runner (its value, if any, is taken for the program only when nothing else follows)
		}
		if len(rest) > 0 && rest[0] == "--" {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			return []string{shellJoin(rest)}
		}
	}
	return nil
}

// sedECommands returns the command lines of a sed script's e commands: each line or
// ;-separated command that is an optional address (a number, $ or /re/) then e and a command.
func sedECommands(script string) []string {
	var out []string
	for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' || r == '{' || r == '}' }) {
		l := strings.TrimLeft(line, " \t0123456789$")
		if strings.HasPrefix(l, "/") {
			if k := strings.IndexByte(l[1:], '/'); k >= 0 {
				l = l[k+2:]
			}
		}
		l = strings.TrimLeft(l, " \t")
		if strings.HasPrefix(l, "e ") || strings.HasPrefix(l, "e\t") {
			cmd := strings.TrimSpace(l[2:])
			if rest, ok := strings.CutPrefix(cmd, "exec "); ok {
				cmd = strings.TrimSpace(rest) // e exec sh: the shell replaces sed's child shell
			}
			if cmd != "" {
				out = append(out, cmd)
			}
		}
	}
	return out
}
