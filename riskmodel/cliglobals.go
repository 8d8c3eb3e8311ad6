package riskmodel

import (
	"slices"
	"strings"
)

// cliGlobal lists, for one CLI (or one command group of it, "docker compose"), the options
// that take a value in the next word. Subcommand dispatch must skip those values, or
// `kubectl -n prod get secret x` reads "prod" as the subcommand and every rule that keys on
// "get secret" misses it. Only value-taking options belong here: a boolean listed by mistake
// would swallow the subcommand.
type cliGlobal struct {
	// cmd is the command name, or the name and a subcommand path ("docker compose").
	cmd string
	// opts are the options that consume the next word (the "--opt=value" spelling is one
	// word and needs no entry).
	opts []string
	// anywhere is set for CLIs that accept these options after the subcommand too (cobra's
	// persistent flags, aws/gcloud/az global parameters); otherwise only before the next
	// subcommand word.
	anywhere bool
	// source is the CLI's own reference the entry was taken from.
	source string
}

// cliGlobalTable is the data. Aliases (oc for kubectl, podman for docker) are listed as
// their own entries so that each names its source.
var cliGlobalTable = []cliGlobal{
	{cmd: "kubectl", anywhere: true, source: "https://kubernetes.io/docs/reference/kubectl/kubectl/ (options inherited by every command); -l/--selector, -o and -c/--container are per-command but take a value wherever they appear (-f is not listed: it is --follow in logs)",
		opts: []string{"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--as", "--as-group", "--as-uid", "--cluster", "--user",
			"--token", "--certificate-authority", "--client-certificate", "--client-key", "--tls-server-name", "--request-timeout", "--cache-dir",
			"--log-file", "-v", "--v", "--vmodule", "-l", "--selector", "--field-selector", "-o", "--output", "-c", "--container"}},
	{cmd: "oc", anywhere: true, source: "https://docs.openshift.com/container-platform/latest/cli_reference/openshift_cli/developer-cli-commands.html (kubectl's global options)",
		opts: []string{"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--as", "--as-group", "--cluster", "--user", "--token",
			"--certificate-authority", "--client-certificate", "--client-key", "--request-timeout", "-l", "--selector", "-o", "--output", "-c", "--container"}},
	{cmd: "helm", anywhere: true, source: "https://helm.sh/docs/helm/helm/ (options inherited from parent commands)",
		opts: []string{"-n", "--namespace", "--kube-context", "--kubeconfig", "--kube-apiserver", "--kube-as-user", "--kube-as-group", "--kube-token",
			"--kube-ca-file", "--kube-tls-server-name", "--registry-config", "--repository-cache", "--repository-config", "--burst-limit", "--qps"}},
	{cmd: "aws", anywhere: true, source: "https://docs.aws.amazon.com/cli/latest/reference/ (global options)",
		opts: []string{"--profile", "--region", "--endpoint-url", "--output", "--query", "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout",
			"--cli-binary-format", "--color"}},
	{cmd: "gcloud", anywhere: true, source: "https://cloud.google.com/sdk/gcloud/reference (gcloud wide flags)",
		opts: []string{"--project", "--account", "--configuration", "--impersonate-service-account", "--format", "--billing-project", "--verbosity",
			"--flags-file", "--flatten", "--trace-token", "--access-token-file", "--region", "--zone"}},
	{cmd: "az", anywhere: true, source: "https://learn.microsoft.com/en-us/cli/azure/reference-index (global parameters); -g is every resource command's group",
		opts: []string{"--subscription", "-o", "--output", "--query", "-g", "--resource-group"}},
	{cmd: "docker", source: "https://docs.docker.com/reference/cli/docker/ (global options, before the subcommand)",
		opts: []string{"-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"}},
	{cmd: "podman", source: "https://docs.podman.io/en/latest/markdown/podman.1.html (global options)",
		opts: []string{"--url", "--connection", "-c", "--root", "--runroot", "--storage-driver", "--log-level", "--cgroup-manager", "--identity"}},
	{cmd: "docker compose", source: "https://docs.docker.com/reference/cli/docker/compose/ (options of docker compose)",
		opts: []string{"-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory", "--ansi", "--parallel", "--progress"}},
	{cmd: "docker-compose", source: "https://docs.docker.com/reference/cli/docker/compose/ (options of docker compose)",
		opts: []string{"-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory", "--ansi", "--parallel", "--progress"}},
	{cmd: "git", source: "https://git-scm.com/docs/git (options before the command)",
		opts: []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix", "--list-cmds"}},
	{cmd: "gh", anywhere: true, source: "https://cli.github.com/manual/gh_repo (inherited flag -R/--repo); https://cli.github.com/manual/gh_api (--hostname)",
		opts: []string{"-R", "--repo", "--hostname"}},
	{cmd: "glab", anywhere: true, source: "https://gitlab.com/gitlab-org/cli/-/blob/main/docs/source/mr/list.md (inherited flag -R/--repo)",
		opts: []string{"-R", "--repo"}},
	{cmd: "terraform", source: "https://developer.hashicorp.com/terraform/cli/commands#switching-working-directory-with-chdir (-chdir=DIR is one word)",
		opts: []string{"-chdir"}},
	{cmd: "tofu", source: "https://opentofu.org/docs/cli/commands/ (-chdir=DIR)", opts: []string{"-chdir"}},
	{cmd: "npm", anywhere: true, source: "https://docs.npmjs.com/cli/v10/using-npm/config (prefix -C, workspace -w, userconfig)",
		opts: []string{"--prefix", "-C", "--workspace", "-w", "--userconfig", "--registry", "--cache"}},
	{cmd: "pnpm", anywhere: true, source: "https://pnpm.io/pnpm-cli#options (-C/--dir, --filter/-F); pnpm's -w is a boolean and is not listed",
		opts: []string{"-C", "--dir", "--filter", "-F", "--filter-prod", "--workspace-dir", "--config"}},
	{cmd: "yarn", anywhere: true, source: "https://classic.yarnpkg.com/en/docs/cli/ (--cwd); https://yarnpkg.com/cli/workspace", opts: []string{"--cwd"}},
	{cmd: "cargo", anywhere: true, source: "https://doc.rust-lang.org/cargo/commands/cargo.html (options: --manifest-path, -Z, --config, -C, --color)",
		opts: []string{"--manifest-path", "-Z", "--config", "-C", "--color", "--target-dir", "-p", "--package"}},
	{cmd: "go", source: "https://pkg.go.dev/cmd/go (go -C dir must be first)", opts: []string{"-C"}},
	{cmd: "doctl", anywhere: true, source: "https://docs.digitalocean.com/reference/doctl/reference/ (global flags)",
		opts: []string{"--context", "-t", "--access-token", "-u", "--api-url", "-c", "--config", "-o", "--output"}},
	{cmd: "heroku", anywhere: true, source: "https://devcenter.heroku.com/articles/heroku-cli-commands (-a/--app, -r/--remote on app commands)",
		opts: []string{"-a", "--app", "-r", "--remote"}},
	{cmd: "fly", anywhere: true, source: "https://fly.io/docs/flyctl/ (-a/--app, -t/--access-token, -c/--config)", opts: []string{"-a", "--app", "-t", "--access-token", "-c", "--config"}},
	{cmd: "flyctl", anywhere: true, source: "https://fly.io/docs/flyctl/ (-a/--app, -t/--access-token, -c/--config)", opts: []string{"-a", "--app", "-t", "--access-token", "-c", "--config"}},
	{cmd: "vault", anywhere: true, source: "https://developer.hashicorp.com/vault/docs/commands#flags (-address, -namespace, -format)",
		opts: []string{"-address", "-namespace", "-ns", "-format", "-mount"}},
	{cmd: "op", anywhere: true, source: "https://developer.1password.com/docs/cli/reference/ (global flags --account, --config, --session, --format)",
		opts: []string{"--account", "--config", "--session", "--format", "--vault", "--encoding"}},
	{cmd: "systemctl", anywhere: true, source: "https://www.freedesktop.org/software/systemd/man/latest/systemctl.html (options that take a value; --user/--system/--no-pager are booleans)",
		opts: []string{"-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property", "-n", "--lines", "-o", "--output", "--state",
			"--root", "--image", "-s", "--signal", "--kill-whom", "--kill-value", "--job-mode", "--what", "--timestamp", "--boot-loader-entry",
			"--boot-loader-menu", "--reboot-argument", "--drop-in", "--when", "--check-inhibitors", "--preset-mode", "--message"}},
	{cmd: "bw", anywhere: true, source: "https://bitwarden.com/help/cli/ (--session)", opts: []string{"--session"}},
}

// cliGlobalIndex maps a command (or "cmd sub") to its entry.
var cliGlobalIndex = table[map[string]*cliGlobal]{build: func() map[string]*cliGlobal {
	m := make(map[string]*cliGlobal, len(cliGlobalTable))
	for i := range cliGlobalTable {
		m[cliGlobalTable[i].cmd] = &cliGlobalTable[i]
	}
	return m
}}

// cliGroupNames holds the commands that have command-group entries ("docker" for "docker
// compose"). Only for those does the scanner build the subcommand path and look it up: the
// path's string concatenations were most of the allocations of a typical review, which asks
// for a segment's positional words a few dozen times.
var cliGroupNames = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, g := range cliGlobalTable {
		if name, _, ok := strings.Cut(g.cmd, " "); ok {
			m[name] = true
		}
	}
	return m
}}

// takes reports whether option a of this entry consumes the next word.
func (g *cliGlobal) takes(a string) bool {
	if g == nil {
		return false
	}
	for _, o := range g.opts {
		if a == o {
			return true
		}
	}
	return false
}

// cliOptScanner follows a command line word by word and says which option words consume the
// next word, for the CLI's own table (the caller checks its own extra options). It is a
// value, kept on the caller's stack: a review builds one for every positional-word query.
type cliOptScanner struct {
	name   string
	groups bool       // name has command-group entries, so path is followed (cliGroupNames)
	path   string     // subcommand words seen so far, space-joined (only when groups)
	level  *cliGlobal // options of the group just entered, until its next subcommand word
	// anywhere holds the distinct entries entered whose options apply after their
	// subcommand too: the first ones inline, any further in more.
	anywhere [2]*cliGlobal
	nAny     int
	more     []*cliGlobal
}

func newCLIOptScanner(name string) cliOptScanner {
	sc := cliOptScanner{name: name, groups: cliGroupNames.get()[name]}
	sc.enter(cliGlobalIndex.get()[name])
	return sc
}

func (sc *cliOptScanner) enter(g *cliGlobal) {
	sc.level = g
	if g == nil || !g.anywhere {
		return
	}
	for _, h := range sc.anywhere[:sc.nAny] {
		if h == g {
			return
		}
	}
	if slices.Contains(sc.more, g) {
		return
	}
	if sc.nAny < len(sc.anywhere) {
		sc.anywhere[sc.nAny] = g
		sc.nAny++
		return
	}
	sc.more = append(sc.more, g)
}

// takesValue reports whether option word a consumes the next word here.
func (sc *cliOptScanner) takesValue(a string) bool {
	if sc.level.takes(a) {
		return true
	}
	for _, g := range sc.anywhere[:sc.nAny] {
		if g.takes(a) {
			return true
		}
	}
	for _, g := range sc.more {
		if g.takes(a) {
			return true
		}
	}
	return false
}

// positional records a non-option word: it may enter a command group with its own options.
func (sc *cliOptScanner) positional(w string) {
	sc.level = nil
	if !sc.groups {
		return // no "name sub" entry exists, so no path can name one
	}
	if sc.path == "" {
		sc.path = w
	} else if strings.Count(sc.path, " ") < 3 {
		sc.path += " " + w
	}
	if g := cliGlobalIndex.get()[sc.name+" "+sc.path]; g != nil {
		sc.enter(g)
	}
}
