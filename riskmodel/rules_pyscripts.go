package riskmodel

import "strings"

// Hatch runs the scripts a project declares in its own configuration
// ([tool.hatch.envs.ENV.scripts] in pyproject.toml or hatch.toml) as `hatch run ENV:SCRIPT`:
// the project's own task, like `npm run test`. When SCRIPT is not a declared script Hatch runs
// it as a command inside the environment, so a known tool (`hatch run test:pytest`) is judged
// as that tool (pkgRunnerInner strips the environment), and a name given further arguments is
// left to the rules for what it runs. Source: hatch.pypa.io/latest/environment/ (Scripts;
// "hatch run ENV:SCRIPT").

// hatchEnvCommand splits hatch's ENV:COMMAND form ("test:cov" → "test", "cov").
func hatchEnvCommand(w string) (env, cmd string, ok bool) {
	env, cmd, ok = strings.Cut(w, ":")
	if !ok || env == "" || cmd == "" || strings.ContainsAny(w, "/\\$`=") || strings.HasPrefix(w, "-") {
		return "", "", false
	}
	return env, cmd, true
}

// hatchScriptOp judges `hatch run ENV:SCRIPT` with nothing after the script but options: the
// project's own script, a build step unless its name says it deploys or publishes. rest is
// what follows `run` (positional words).
func hatchScriptOp(tool string, rest []string) (pkgOp, bool) {
	if tool != "hatch" || len(rest) != 1 {
		return pkgOp{}, false
	}
	env, script, ok := hatchEnvCommand(rest[0])
	if !ok || pkgKnownBin(script) || systemCommandName(script) {
		return pkgOp{}, false
	}
	if pkgDeployish(script) || pkgDeployish(env) {
		return pkgOp{pkgPublish, "Runs the project's hatch script `" + script + "` (environment " + env + "), which by its name deploys or publishes"}, true
	}
	return pkgOp{pkgBuild, "Runs the project's hatch script `" + script + "` in its " + env + " environment"}, true
}

// systemCommandName reports a name that is a command of the system or a tool guardian judges
// elsewhere: as a hatch "script" it would be that command, run with no arguments.
func systemCommandName(n string) bool {
	if shells.get()[n] || interpreters.get()[n] || readOnly.get()[n] || workspaceWriters.get()[n] || fetchers.get()[n] || netReaders.get()[n] || shellBuiltins.get()[n] ||
		privWrappers.get()[n] || cloudKnownBins.get()[n] {
		return true
	}
	switch n {
	case "rm", "rmdir", "dd", "shred", "shutdown", "reboot", "halt", "poweroff", "init", "telinit", "systemctl", "service", "launchctl",
		"kill", "killall", "pkill", "crontab", "at", "mkfs", "fdisk", "mount", "umount", "chmod", "chown", "nc", "ncat", "socat", "ssh", "scp":
		return true
	}
	return false
}
