package riskmodel

import (
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Baseline rules for the command catalogue (catalog/commands.toml) and for copies from a
// remote machine. Baseline: they are consulted only for a command no risk rule matched, so an
// upload, a credential source or a write outside the workspace is judged by those rules.

// remoteSpec reports an scp/rsync/sftp operand on another machine: [user@]host:path (not a
// local path with a colon further on, not a URL).
func remoteSpec(w string) bool {
	i := strings.IndexByte(w, ':')
	return i > 0 && !strings.Contains(w[:i], "/") && !strings.Contains(w, "://") && !strings.HasPrefix(w, "-")
}

// untrustedURLArg returns the host of the first URL in s's arguments that is not a trusted
// host (loopback, the project's own, a vendor's), or "". A catalogue entry says what a tool
// does with the project's files; a build tool or a file writer handed another host's URL
// (a generator fetching a template, a compiler fetching a package, an archive tool unpacking a
// download) does something the entry does not describe, so such a use is judged as an
// unknown command's would be — cmd.unknown-risky, high — whether or not the entry says
// no_url. Read-only tools keep their URLs: fetching to print is base.net-read's routine.
func untrustedURLArg(c *execCtx, s *Segment) string {
	for _, a := range s.Args[1:] {
		if i := strings.Index(a, "://"); i > 0 {
			if u := hostOf(a[max(0, strings.LastIndexAny(a[:i], "=:@ /")+1):]); u != "" && !c.trustedHost(u) {
				return u
			}
		}
	}
	return ""
}

func catalogRules() []*Rule {
	return []*Rule{
		{
			ID: "base.catalog", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Runs a catalogued everyday tool",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				e, ok := catalog.DefaultCommands().Lookup(s.Name(), s.Args[min(1, len(s.Args)):])
				if !ok || s.Privileged || e.Class != catalog.CommandReadOnly && e.Class != catalog.CommandBuild {
					return "", false
				}
				if e.Class == catalog.CommandBuild && untrustedURLArg(c, s) != "" {
					return "", false // a build tool handed another host's URL: judged as unknown (no_url by default)
				}
				if _, ok := listensBeyondLoopback(s.Name(), s.Args[1:], false); ok {
					return "", false // a server told to serve the network (devserve.go)
				}
				if len(e.Env) > 0 && envProd(c, s) != "" {
					return "", false // RAILS_ENV=production rails console: the environment named by a variable
				}
				return "Runs " + s.Name() + ", which " + e.What, true
			},
		},
		{
			ID: "base.catalog-write", Baseline: true, Level: Medium, Category: CatNone, Contained: true,
			Message: "Runs a catalogued tool that writes files inside the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				e, ok := catalog.DefaultCommands().Lookup(s.Name(), s.Args[min(1, len(s.Args)):])
				if !ok || s.Privileged || e.Class != catalog.CommandWorkspaceWrite || untrustedURLArg(c, s) != "" {
					return "", false
				}
				if _, ok := listensBeyondLoopback(s.Name(), s.Args[1:], false); ok {
					return "", false // a server told to serve the network (devserve.go)
				}
				for i := 1; i < len(s.Args); i++ {
					a := s.Args[i]
					if slices.Contains(e.Values, a) {
						i++ // a pattern, a language, a name: not a path
						continue
					}
					if j := strings.IndexByte(a, '='); strings.HasPrefix(a, "-") && j > 0 {
						if slices.Contains(e.Values, a[:j]) {
							continue
						}
						a = a[j+1:]
					} else if strings.HasPrefix(a, "-") {
						continue
					}
					if a == "" || !strings.ContainsAny(a, "/~$") && !strings.HasPrefix(a, ".") {
						continue // a word, not a path: patterns, names, formats
					}
					if t := c.target(a); t.zone != ZoneWorkspace && t.zone != ZoneTemp && t.zone != ZoneDevNull {
						return "", false
					}
				}
				return "Runs " + s.Name() + ", which " + e.What + ", on paths inside the workspace", true
			},
		},
		{
			ID: "base.catalog-net", Baseline: true, Level: Low, Category: CatNetworkEgress,
			Message: "Runs a catalogued network client or server against this machine only",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				e, ok := catalog.DefaultCommands().Lookup(s.Name(), s.Args[min(1, len(s.Args)):])
				if !ok || s.Privileged || e.Class != catalog.CommandLocalNet {
					return "", false
				}
				hosts := argHosts(s.Args[1:])
				if bindsEveryInterface(s.Args[1:]) {
					return "", false // a listener on every interface serves the network (devserve.go)
				}
				for _, o := range e.AddressOptions() {
					v, ok := optValue(s.Args[1:], o)
					if hs := argHosts([]string{v}); ok && len(hs) == 1 {
						v = hs[0] // --bind 127.0.0.1:9000: the host of a host:port
					}
					if ok && (!isLocalHost(v) || e.LocalDefault && (v == "0.0.0.0" || v == "::" || v == "*")) {
						return "", false // told another address: another host, every interface, or one of the network's
					}
				}
				if len(hosts) == 0 && e.LocalDefault {
					return "Runs " + s.Name() + ", which " + e.What + ", on this machine's loopback (its default)", true
				}
				if len(hosts) == 0 {
					return "", false // where it goes cannot be seen
				}
				for _, h := range hosts {
					if !isLocalHost(h) || e.LocalDefault && (h == "0.0.0.0" || h == "::" || h == "*") {
						return "", false // a listener on every interface serves the network
					}
				}
				return "Runs " + s.Name() + ", which " + e.What + ", against " + hosts[0] + " on this machine", true
			},
		},
		{
			ID: "base.catalog-open", Baseline: true, Level: Low, Category: CatNone,
			Message: "Opens a web page in the browser or a project file in its app",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				e, ok := catalog.DefaultCommands().Lookup(s.Name(), s.Args[min(1, len(s.Args)):])
				if !ok || s.Privileged || e.Class != catalog.CommandOpener {
					return "", false
				}
				n := 0
				for i := 1; i < len(s.Args); i++ {
					a := s.Args[i]
					switch {
					case a == "-a" || a == "-b": // the app to open it with (open(1))
						i++
						continue
					case strings.HasPrefix(a, "-"):
						continue
					case strings.ContainsAny(a, "$`"):
						return "", false // a URL or path built at run time
					case strings.HasPrefix(a, "https://") || strings.HasPrefix(a, "http://"):
						n++
						continue
					}
					t := c.target(a)
					if t.zone != ZoneWorkspace || openRunsCode(a) {
						return "", false
					}
					n++
				}
				if n == 0 {
					return "", false
				}
				return "Runs " + s.Name() + ", which " + e.What, true
			},
		},
		{
			ID: "base.remote-fetch", Baseline: true, Level: Low, Category: CatNetworkEgress,
			Message: "Copies files from another machine into the workspace",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if n := s.Name(); n != "scp" && n != "rsync" || s.Privileged {
					return "", false
				}
				p := s.positional(0, "-P", "-i", "-F", "-o", "-l", "-c", "-J", "-S", "-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--port")
				if len(p) < 2 || !remoteSpec(p[0]) {
					return "", false
				}
				for _, src := range p[:len(p)-1] {
					if !remoteSpec(src) {
						return "", false
					}
				}
				dst := p[len(p)-1]
				if remoteSpec(dst) {
					return "", false
				}
				t := c.target(dst)
				if t.zone != ZoneWorkspace && t.zone != ZoneTemp {
					return "", false
				}
				host := p[0][:strings.IndexByte(p[0], ':')]
				return "Copies files from " + host + " into " + dst + " with " + s.Name(), true
			},
		},
	}
}

// openRunsCode reports a file that opening runs as a program or installs: an app bundle,
// a script Terminal runs (.command, .tool, .sh), an installer package or disk image, a
// Windows executable, a desktop entry.
func openRunsCode(p string) bool {
	p = strings.ToLower(strings.TrimSuffix(p, "/"))
	for _, ext := range []string{".app", ".command", ".tool", ".sh", ".bash", ".zsh", ".terminal", ".pkg", ".mpkg", ".dmg",
		".exe", ".msi", ".bat", ".cmd", ".ps1", ".desktop", ".jar", ".scpt", ".applescript", ".workflow", ".py", ".rb", ".pl", ".js"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

// argHosts returns the network addresses a command's arguments name: URL hosts, host:port
// operands (localhost:50051, 127.0.0.1:8080, [::1]:9000), bare IP addresses and localhost,
// and the same as --opt=value. A listen address with no host (":8080") is every interface
// and comes back as "0.0.0.0". Other words (subcommands, file names, gRPC method names) are
// not addresses.
func argHosts(args []string) []string {
	var out []string
	for _, a := range args {
		if i := strings.IndexByte(a, '='); strings.HasPrefix(a, "-") && i > 0 {
			a = a[i+1:]
		} else if strings.HasPrefix(a, "-") {
			continue
		}
		switch {
		case strings.Contains(a, "://"):
			// http://localhost@evil.example/ goes to evil.example: a URL with user info (or
			// one Go cannot parse) names no host these rules can vouch for.
			auth := a[strings.Index(a, "://")+3:]
			if i := strings.IndexAny(auth, "/?#"); i >= 0 {
				auth = auth[:i]
			}
			if u, err := url.Parse(a); err != nil || u.User != nil || strings.ContainsAny(auth, "@\\") {
				out = append(out, "?")
			} else if h := hostOf(a); h != "" {
				out = append(out, h)
			} else {
				out = append(out, "?")
			}
		case strings.HasPrefix(a, ":") && isDigits(a[1:]):
			out = append(out, "0.0.0.0")
		default:
			h, port, ok := strings.Cut(a, ":")
			if ok && isDigits(port) && h != "" {
				out = append(out, strings.Trim(h, "[]"))
			} else if ok && strings.HasPrefix(a, "[") {
				if j := strings.Index(a, "]:"); j > 0 && isDigits(a[j+2:]) {
					out = append(out, a[1:j])
				}
			} else if !ok && (a == "localhost" || net.ParseIP(a) != nil) {
				out = append(out, a)
			}
		}
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
