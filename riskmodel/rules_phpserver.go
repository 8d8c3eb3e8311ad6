package riskmodel

import "strings"

// PHP's command line (php(1), php.net/manual/en/features.commandline.options.php): which
// argument is the script it runs, and its built-in web server (`php -S ADDR:PORT [-t DOCROOT]
// [ROUTER]`, php.net/manual/en/features.commandline.webserver.php), a development server that
// is routine on this machine's loopback like any other (docs/policy.md: loopback-only servers).

// phpValueOpts are php's options that take a separate value that is not the script.
var phpValueOpts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-S": true, "-t": true, "-c": true, "-d": true, "-z": true}
}}

// phpCodeOpts take PHP code (-r, and the per-line -B, -R, -F, -E): no script file runs.
var phpCodeOpts = table[map[string]bool]{build: func() map[string]bool { return map[string]bool{"-r": true, "-B": true, "-R": true, "-E": true} }}

// phpScript returns the file php runs: -f FILE, else the first operand after the options
// (under -S, the router script; under -l, the file it checks, judged as if run). "" when php
// runs code from its arguments or no file.
func phpScript(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1]
			}
			return ""
		case phpCodeOpts.get()[a], a == "-a", a == "--interactive":
			return ""
		case a == "-f" || a == "-F":
			if i+1 < len(args) {
				return args[i+1]
			}
			return ""
		case phpValueOpts.get()[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// phpServerAddr returns the address of `php -S ADDR`.
func phpServerAddr(s *Segment) (string, bool) {
	if s.Name() != "php" {
		return "", false
	}
	return optValue(s.Args[1:], "-S")
}

func phpServerRules() []*Rule {
	return []*Rule{{
		ID: "base.php-server", Baseline: true, Level: Low, Category: CatNone,
		Message: "Runs PHP's built-in development server on this machine's loopback",
		exec: func(c *execCtx, s *Segment) (string, bool) {
			addr, ok := phpServerAddr(s)
			if !ok || s.Privileged || s.Code {
				return "", false
			}
			hosts := argHosts([]string{addr})
			if len(hosts) != 1 || hosts[0] == "0.0.0.0" || hosts[0] == "::" || !isLocalHost(hosts[0]) {
				return "", false // every interface, or an address of the network
			}
			if t, ok := optValue(s.Args[1:], "-t"); ok && c.target(t).zone != ZoneWorkspace {
				return "", false // serves a directory outside the project
			}
			if r := phpScript(s.Args[1:]); r != "" && c.target(r).zone != ZoneWorkspace {
				return "", false
			}
			return "Serves the project with PHP's built-in server on " + addr + ", reachable from this machine alone", true
		},
	}}
}
