package riskmodel

import "strings"

// A development server is routine while it serves this machine only: docs/policy.md allows
// "loopback-only servers". Told to listen on every interface (0.0.0.0, ::, a bare --host) or
// on one of the network's addresses it serves the project to the LAN, which the dev sets ask
// about like `python3 -m http.server` (its default is every interface). The build-tool table
// (pkgBuildTools) lists the serve subcommands as builds — zola serve, hugo server, jekyll
// serve, mkdocs serve, rails server — so pkg.build-test would call `zola serve --interface
// 0.0.0.0` routine; devServerExposed takes such a use out of it (it is then unknown: asked).

// devServerHostOptions are the options each dev server of the build-tool table is told its
// listen address with, beside the usual long ones (catalog's AddressOptions): from each
// tool's CLI reference (zola serve -i/--interface, jekyll serve -H/--host, mkdocs serve
// -a/--dev-addr, rails server -b/--binding, next dev -H/--hostname, gatsby develop -H/--host,
// storybook dev -h/--host, firebase serve -o/--host, vercel dev -l/--listen, wrangler dev
// --ip, hugo server --bind). Short options are per tool: -h, -i and -b mean other things
// elsewhere.
var devServerHostOptions = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"zola": {"-i", "--interface"}, "jekyll": {"-H", "--host"}, "mkdocs": {"-a", "--dev-addr"}, "rails": {"-b", "--binding"},
		"next": {"-H", "--hostname"}, "gatsby": {"-H", "--host"}, "storybook": {"-h", "--host"}, "firebase": {"-o", "--host"},
		"vercel": {"-l", "--listen"}, "wrangler": {"--ip"}, "hugo": {"--bind"}, "ng": {"--host"}, "vite": {"--host"},
		"astro": {"--host"}, "nuxi": {"--host"}, "nuxt": {"--host"}, "vue-cli-service": {"--host"}, "sam": {"--host"},
		"remix": {"--host"}, "netlify": {"--host"}, "redocly": {"--host", "-h"}, "prisma": {"--hostname"},
		"drizzle-kit": {"--host"}, "react-scripts": {"--host"}, "eleventy": {"--host"},
	}
}}

// bareHostListensAll are the dev servers whose --host given without a value listens on every
// address (Vite and Astro CLI references: "--host [host] … listen on all addresses, including
// LAN and public addresses").
var bareHostListensAll = &wordSet{words: "vite astro"}

// devServerExposed returns the address a dev server of the build-tool table (or one a runner
// starts: npx vite) is told to listen on when that is not this machine's loopback only.
func devServerExposed(s *Segment) (string, bool) {
	cur := s
	for depth := 0; cur != nil && depth < 8; depth++ {
		name := pkgNorm(cur.Name())
		if _, ok := pkgBuildTools.get()[name]; ok {
			if a, ok := listensBeyondLoopback(name, cur.Args[min(1, len(cur.Args)):], true); ok {
				return a, true
			}
		}
		next, _, ok := pkgRunnerInner(cur)
		if !ok {
			break
		}
		cur = next
	}
	return "", false
}

// listensBeyondLoopback reads a dev server's address options: a value that is every
// interface or not a loopback address, or a bare --host where that means every address.
// generic adds the usual long options to the tool's own (devServerHostOptions): right for the
// build-tool table's servers, not for any catalogued tool, where --ip or --address may name
// what it looks up (mmdblookup --ip 8.8.8.8) rather than where it listens.
func listensBeyondLoopback(name string, args []string, generic bool) (string, bool) {
	opts := devServerHostOptions.get()[name]
	if generic {
		opts = append(append([]string(nil), opts...), "--host", "--hostname", "--bind", "--listen", "--address", "--addr", "--ip", "--interface")
	}
	if bindsEveryInterface(args) {
		return "every interface", true
	}
	for i, a := range args {
		if a == "--host" && bareHostListensAll.has(name) && (i+1 == len(args) || strings.HasPrefix(args[i+1], "-")) {
			return "every address (--host)", true
		}
	}
	for _, o := range opts {
		v, ok := optValue(args, o)
		if !ok || strings.HasPrefix(v, "-") {
			continue
		}
		h := v
		if hs := argHosts([]string{v}); len(hs) == 1 {
			h = hs[0] // 0.0.0.0:8000, [::]:3000: the host of a host:port
		}
		if !isLocalHost(h) || h == "0.0.0.0" || h == "::" || h == "*" || h == "0" {
			return v, true
		}
	}
	return "", false
}

// bindsEveryInterface reports an argument that is a listen address on every interface: a
// bare 0.0.0.0 or [::], alone or as host:port, or 0.0.0.0, ::, [::] or * as an option's
// --opt=value — not inside a URL, where 0.0.0.0 is a client's odd spelling of this machine:
// miniserve -i 0.0.0.0, iperf3 -s -B 0.0.0.0. Whatever the entry's default, a server told
// that serves the network. A bare :: or * is left alone: pants' target spec "::", a glob.
func bindsEveryInterface(args []string) bool {
	for _, a := range args {
		opt := false
		if i := strings.IndexByte(a, '='); strings.HasPrefix(a, "-") && i > 0 {
			a, opt = a[i+1:], true
		}
		if strings.Contains(a, "://") {
			continue
		}
		h := a
		if j := strings.LastIndexByte(a, ':'); j > 0 && isDigits(a[j+1:]) && (!strings.Contains(a[:j], ":") || strings.HasSuffix(a[:j], "]")) {
			h = a[:j] // 0.0.0.0:8000, [::]:8000
		}
		switch h {
		case "0.0.0.0", "[::]":
			return true
		case "::", "*":
			if opt {
				return true
			}
		}
	}
	return false
}
