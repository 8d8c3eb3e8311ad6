package mcp

import (
	"net/url"
	"path"
	"regexp"
	"strings"
)

// An upstream given without a name is named after what it is, not after how it is started:
// `npx -y @modelcontextprotocol/server-github` is "github", as the example config's
// github/... rules expect, never "npx". In order:
//
//  1. the name it was given (--name, or name in [[mcp.upstream]]);
//  2. the serverInfo.name it reports in initialize, normalised (ServerName);
//  3. the package a launcher runs — npx, bunx, pnpm dlx, yarn dlx, uvx, uv tool run, pipx
//     run, docker or podman run — or else the program's base name, or the URL's host
//     (DefaultName).

// ServerName normalises a server's self-reported name (serverInfo.name) into an upstream
// name: lower case, an npm scope, a version and the words "mcp" and "server" at either end
// dropped, so "github-mcp-server", "@modelcontextprotocol/server-github" and "GitHub MCP
// Server" are all "github" ("@posthog/mcp": "posthog"). "" when nothing meaningful is left
// ("mcp-server", "server").
func ServerName(info string) string {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(info)), "/")
	for i := len(parts) - 1; i >= 0; i-- { // a scope or an image path: its last meaningful part
		if n := nameWords(strings.TrimPrefix(parts[i], "@")); n != "" {
			return n
		}
	}
	return ""
}

// nameWords is one segment of a name without the words "mcp" and "server" at either end.
func nameWords(n string) string {
	n = nameSeps.ReplaceAllString(n, "-")
	for changed := true; changed; {
		changed = false
		for _, affix := range []string{"mcp-server", "server-mcp", "mcp", "server"} {
			switch {
			case n == affix:
				n, changed = "", true
			case strings.HasPrefix(n, affix+"-"):
				n, changed = strings.TrimPrefix(n, affix+"-"), true
			case strings.HasSuffix(n, "-"+affix):
				n, changed = strings.TrimSuffix(n, "-"+affix), true
			}
		}
	}
	return cleanName(n)
}

// nameSeps are the runs of characters that separate the words of a name.
var nameSeps = regexp.MustCompile(`[\s_.]+`)

// nameBad are the runs of characters an upstream name may not hold.
var nameBad = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// cleanName makes n a valid upstream name (guardian.CheckMCPUpstreamName), "" if nothing is
// left of it.
func cleanName(n string) string {
	n = strings.TrimLeft(nameBad.ReplaceAllString(n, "-"), "._-")
	if len(n) > 64 {
		n = n[:64]
	}
	return strings.TrimRight(n, "._-")
}

// DefaultName is the name of an upstream given without one when the server's own name says
// nothing (see ServerName): the package a launcher runs, normalised like a server name
// (npx -y @modelcontextprotocol/server-github: "github"; uvx mcp-server-fetch: "fetch";
// docker run -i --rm ghcr.io/github/github-mcp-server: "github"), else the base name of the
// program, else the host of the URL, else "upstream".
func DefaultName(command []string, rawURL string) string {
	n := ""
	switch {
	case len(command) > 0:
		if pkg := launchedPackage(command); pkg != "" {
			n = ServerName(pkg)
		}
		if n == "" {
			n = cleanName(path.Base(command[0]))
		}
	case rawURL != "":
		if u, err := url.Parse(rawURL); err == nil {
			n = cleanName(u.Hostname())
		}
	}
	if n == "" || n == "." || n == "/" {
		n = "upstream"
	}
	return n
}

// launcher is how a package runner finds the package in its arguments.
type launcher struct {
	sub       []string        // words after the program before the package (pnpm dlx, uv tool run)
	valueOpts map[string]bool // options that take the next argument as their value
	boolOpts  map[string]bool // for docker: options that take none (every other option does)
	pkgOpts   map[string]bool // options whose value is the package itself (npx --package)
}

var launchers = map[string]launcher{
	"npx":  {valueOpts: set("--cache", "--userconfig", "-w", "--workspace", "--registry"), pkgOpts: set("-p", "--package")},
	"bunx": {valueOpts: set("--bun-version"), pkgOpts: set("-p", "--package")},
	"pnpm": {sub: []string{"dlx"}, valueOpts: set("-C", "--dir", "--reporter"), pkgOpts: set("--package")},
	"yarn": {sub: []string{"dlx"}, pkgOpts: set("-p", "--package")},
	"uvx":  {valueOpts: set("--with", "--with-requirements", "--python", "-p", "--index", "--index-url", "--extra-index-url", "--cache-dir", "--directory"), pkgOpts: set("--from")},
	"uv":   {sub: []string{"tool", "run"}, valueOpts: set("--with", "--with-requirements", "--python", "-p", "--index", "--index-url", "--extra-index-url", "--cache-dir", "--directory"), pkgOpts: set("--from")},
	"pipx": {sub: []string{"run"}, valueOpts: set("--python", "--pip-args", "--index-url"), pkgOpts: set("--spec")},
	"docker": {sub: []string{"run"}, boolOpts: set("-i", "-t", "-it", "-ti", "-d", "--rm", "--init", "--interactive", "--tty",
		"--privileged", "--read-only", "--detach", "-P", "--publish-all", "-q", "--quiet", "--no-healthcheck", "--sig-proxy")},
	"podman": {sub: []string{"run"}, boolOpts: set("-i", "-t", "-it", "-ti", "-d", "--rm", "--init", "--interactive", "--tty",
		"--privileged", "--read-only", "--detach", "-P", "--publish-all", "-q", "--quiet", "--no-healthcheck", "--sig-proxy", "--replace")},
}

func set(s ...string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, k := range s {
		m[k] = true
	}
	return m
}

// launchedPackage is the package (or image) a launcher command runs, without its version or
// tag; "" when command is not a known launcher or names none.
func launchedPackage(command []string) string {
	l, ok := launchers[path.Base(command[0])]
	if !ok {
		return ""
	}
	args := command[1:]
	for _, w := range l.sub {
		if len(args) == 0 || args[0] != w {
			return ""
		}
		args = args[1:]
	}
	image := l.boolOpts != nil
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				return bareName(args[i+1], image)
			}
			return ""
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return bareName(a, image)
		}
		opt, val, hasVal := strings.Cut(a, "=")
		switch {
		case l.pkgOpts[opt] && hasVal:
			return bareName(val, image)
		case l.pkgOpts[opt] && i+1 < len(args):
			return bareName(args[i+1], image)
		case hasVal:
		case image && !l.boolOpts[opt]:
			i++ // docker's options take a value unless known not to
		case l.valueOpts[opt]:
			i++
		}
	}
	return ""
}

// bareName drops a package's version (name@1.2, name==1.2) or an image's registry, tag and
// digest.
func bareName(p string, image bool) string {
	if image {
		p, _, _ = strings.Cut(p, "@")
		if i := strings.LastIndex(p, "/"); i >= 0 {
			p = p[i+1:]
		}
		p, _, _ = strings.Cut(p, ":")
		return p
	}
	if i := strings.LastIndex(p, "@"); i > 0 { // not the @ of a scope
		p = p[:i]
	}
	for _, sep := range []string{"==", ">=", "<=", "~=", "["} {
		p, _, _ = strings.Cut(p, sep)
	}
	return p
}

// namedBy says where the upstream's name came from, for the log.
func (u *upstream) namedBy() string {
	switch {
	case u.spec.Name != "":
		return "given"
	case u.name == ServerName(u.info.Name):
		return "serverInfo"
	}
	return "command"
}
