package riskmodel

import (
	"net"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Deny-list effects done through tools the other rules do not know, judged by the shape of
// their arguments rather than by the tool's name:
//
//   - pkg.plugin-url: a plugin, extension, add-on or toolchain install whose argument is a URL
//     to code on a raw public IP or a host named after the tool itself with another word
//     (gems.vagrant-plugins.xyz for vagrant): code fetched from another owner's host
//     (docs/policy.md: running code fetched from hosts that are not the vendor's own).
//   - cred.exfiltrate-host: secrets (a credential file, an environment dump, shell history)
//     reaching ANY command whose arguments name a public host or address: kcat -b IP:9092,
//     whois -h IP, fluent-bit -p host=…, a broker or server option. A network client the rules
//     know is cred.exfiltrate's; this covers the rest.
//   - secrets.store-off: a secret store's audit log switched off, a whole secrets engine or
//     every version of a secret deleted (vault audit disable, vault secrets disable, vault kv
//     metadata delete at a mount's root).
//   - cred.decrypt-dump: a production secrets file decrypted to the transcript (sops -d
//     prod.yaml): a bulk secret dump.
//   - vm.host-mount: a VM tool mounting the host's / or home into a machine the agent runs as
//     root (limactl --set .mounts, --mount /:w, multipass mount /, colima --mount).

// installWords are the argument words of a command that installs code to be run.
var installWords = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"install": true, "add": true, "plugin": true, "plugins": true, "extension": true,
		"extensions": true, "addon": true, "addons": true, "add-on": true, "toolchain": true, "toolchains": true, "upgrade": true, "update": true}
}}

// codeArchiveExts are the endings of a URL path that names code to install.
var codeArchiveExts = []string{".zip", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".tar", ".gem", ".whl", ".jar",
	".vsix", ".xpi", ".crx", ".nupkg", ".deb", ".rpm", ".apk", ".pkg", ".dmg", ".msi", ".exe", ".so", ".dylib", ".dll", ".sh", ".py", ".js", ".bin", ".run", ".AppImage"}

// pluginSourceOpt reports an option whose value names where code comes from.
func pluginSourceOpt(name string) bool {
	l := strings.ToLower(strings.TrimLeft(name, "-"))
	for _, w := range []string{"plugin", "source", "url", "repo", "tool", "package", "pkg", "addon", "extension", "from", "archive", "download", "registry", "server"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// pluginInstallURLs returns the URLs an install of a plugin, extension or toolchain fetches
// code from: an archive URL anywhere, or any URL given to a source-like option.
func pluginInstallURLs(s *Segment) []string {
	if len(s.Args) < 3 {
		return nil
	}
	verb := false
	for _, a := range s.Args[1:] {
		if !strings.HasPrefix(a, "-") && installWords.get()[strings.ToLower(a)] {
			verb = true
		}
	}
	if !verb {
		return nil
	}
	var out []string
	args := s.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		opt := ""
		if strings.HasPrefix(a, "-") {
			name, val, eq := strings.Cut(a, "=")
			if !eq {
				if i+1 < len(args) && strings.Contains(args[i+1], "://") {
					opt, a = name, args[i+1]
					i++
				} else {
					continue
				}
			} else {
				opt, a = name, val
			}
		}
		if !strings.Contains(a, "://") {
			continue
		}
		u := strings.ToLower(strings.SplitN(strings.SplitN(a, "?", 2)[0], "#", 2)[0])
		archive := false
		for _, e := range codeArchiveExts {
			if strings.HasSuffix(u, strings.ToLower(e)) {
				archive = true
			}
		}
		if indexFlags.get()[opt] && !archive {
			continue // an extra package index: asked about (docs/policy.md), pkg rules' own
		}
		if archive || opt != "" && pluginSourceOpt(opt) {
			out = append(out, a)
		}
	}
	return out
}

// knownOrVendorHost reports a host the catalogue lists as a code host, registry or vendor.
func knownOrVendorHost(h string) bool {
	for _, k := range catalog.Default().KnownHosts() {
		if h == k.Host || strings.HasSuffix(h, "."+k.Host) {
			return true
		}
	}
	for _, v := range catalog.Default().Vendors() {
		if h == v.Host || strings.HasSuffix(h, "."+v.Host) {
			return true
		}
	}
	return false
}

// registrableLabelOf returns the label of a host under its public suffix (vagrant-plugins of
// gems.vagrant-plugins.xyz), with a two-label suffix such as co.uk accounted for.
func registrableLabelOf(h string) string {
	parts := strings.Split(strings.TrimSuffix(h, "."), ".")
	if len(parts) < 2 {
		return ""
	}
	i := len(parts) - 2
	if len(parts) >= 3 && len(parts[len(parts)-1]) == 2 {
		switch parts[i] {
		case "co", "com", "org", "net", "ac", "gov", "edu":
			i--
		}
	}
	return parts[i]
}

// publicHostIP returns the address a URL's host spells when it is a public one.
func publicHostIP(h string) net.IP {
	ip := net.ParseIP(strings.Trim(h, "[]"))
	if ip == nil || ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() {
		return nil
	}
	return ip
}

// strangerCodeHost says why code from host h, installed by tool, is from another owner's
// host: a raw public address, a look-alike of a registry or vendor, or the tool's own name
// joined with another word on a host the catalogue does not know. "" when it cannot say.
func strangerCodeHost(h, tool string, names []string) string {
	h = strings.ToLower(h)
	if ip := publicHostIP(h); ip != nil {
		return "the code comes from the raw IP address " + ip.String() + ", no vendor's own host"
	}
	if knownOrVendorHost(h) {
		return ""
	}
	if of, ok := catalog.Default().ImitatedName(h, names); ok {
		return "the host " + h + " imitates " + of + " (a look-alike domain)"
	}
	label := registrableLabelOf(h)
	t := strings.ToLower(strings.TrimSuffix(strings.SplitN(tool, "-", 2)[0], ".py"))
	if len(t) >= 4 && label != t {
		for _, w := range strings.FieldsFunc(label, func(r rune) bool { return r == '-' || r == '_' }) {
			if w == t {
				return "the host " + h + " joins the tool's name " + t + " with another word: not " + t + "'s own"
			}
		}
	}
	return ""
}

// strangerPluginSource is pkg.plugin-url's certainty: a source on another owner's host.
func strangerPluginSource(c *execCtx, s *Segment) string {
	names := []string{s.Name()}
	for _, a := range s.Args[1:] {
		if !strings.HasPrefix(a, "-") && !strings.Contains(a, "://") {
			names = append(names, strings.FieldsFunc(a, func(r rune) bool { return r == '-' || r == '_' || r == '@' || r == '/' })...)
		}
	}
	for _, u := range pluginInstallURLs(s) {
		h := hostOf(u)
		if h == "" || c.trustedHost(h) {
			continue
		}
		if why := strangerCodeHost(h, s.Name(), names); why != "" {
			return why + " (docs/policy.md)"
		}
	}
	return ""
}

// hostShaped reports a word that names a public network host: an address, or a dotted name
// whose last label is alphabetic and not a file extension.
func hostShaped(w string) (string, bool) {
	w = strings.Trim(w, `"'`)
	if i := strings.Index(w, "://"); i > 0 {
		h := hostOf(w)
		return h, h != ""
	}
	if i := strings.Index(w, "@"); i >= 0 {
		w = w[i+1:] // user@host
	}
	h := w
	if host, port, err := net.SplitHostPort(w); err == nil && isNumber(port) {
		h = host
	}
	if strings.ContainsAny(h, "/ =,;:") || h == "" {
		return "", false
	}
	if net.ParseIP(h) != nil {
		return h, strings.Count(h, ".") == 3 || strings.Contains(h, ":")
	}
	parts := strings.Split(h, ".")
	if len(parts) < 2 {
		return "", false
	}
	tld := strings.ToLower(parts[len(parts)-1])
	if len(tld) < 2 || len(tld) > 24 || fileExtWords.get()[tld] {
		return "", false
	}
	for _, r := range tld {
		if r < 'a' || r > 'z' {
			return "", false
		}
	}
	return strings.ToLower(h), true
}

// fileExtWords are endings that make a dotted word a file name rather than a host.
var fileExtWords = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"txt": true, "json": true, "yaml": true, "yml": true, "md": true, "py": true, "go": true, "js": true,
		"ts": true, "sh": true, "env": true, "log": true, "csv": true, "html": true, "xml": true, "toml": true, "ini": true, "conf": true,
		"cfg": true, "lock": true, "gz": true, "zip": true, "tar": true, "pem": true, "key": true, "crt": true, "so": true, "c": true, "h": true,
		"rs": true, "rb": true, "java": true, "class": true, "jar": true, "sql": true, "db": true, "bak": true, "tmp": true, "out": true,
		"bin": true, "dat": true, "txz": true, "tgz": true, "xz": true, "bz2": true, "pdf": true, "png": true, "jpg": true, "svg": true,
		"local": true, "internal": true, "lan": true, "example": true, "test": true, "invalid": true, "localhost": true, "cluster": true,
		"svc": true, "elf": true, "hex": true, "img": true, "iso": true, "pub": true, "asc": true, "gpg": true, "age": true, "enc": true,
		"properties": true, "gradle": true, "kts": true, "tf": true, "tfvars": true, "hcl": true, "proto": true, "pb": true, "lua": true,
		"php": true, "pl": true, "r": true, "swift": true, "kt": true, "cs": true, "cpp": true, "hpp": true, "mjs": true, "cjs": true,
		"tsx": true, "jsx": true, "vue": true, "css": true, "scss": true, "map": true, "wasm": true, "whl": true, "gem": true, "deb": true,
		"rpm": true, "dmg": true, "exe": true, "dll": true, "dylib": true, "a": true, "o": true, "ko": true, "ipynb": true, "parquet": true}
}}

// destOptWords are option and key names whose value is where a command connects.
var destOptWords = []string{"host", "server", "broker", "brokers", "bootstrap-server", "bootstrap", "endpoint", "url", "uri", "addr",
	"address", "remote", "dest", "destination", "target", "upstream", "collector", "sink", "output", "to"}

func destOptName(n string) bool {
	n = strings.ToLower(strings.TrimLeft(n, "-"))
	if len(n) == 1 {
		return n == "h" || n == "b" || n == "s"
	}
	for _, w := range destOptWords {
		if n == w || strings.HasSuffix(n, "-"+w) || strings.HasSuffix(n, "_"+w) || strings.HasSuffix(n, "."+w) {
			return true
		}
	}
	return false
}

// remoteDest returns the first public host a command's arguments send to: a URL, HOST:PORT,
// a bare public address, or the value of a destination option or key (--host H, -b H:P,
// host=H). Loopback, private and the user's trusted hosts do not count.
func remoteDest(c *execCtx, s *Segment) string {
	args := s.Args[1:]
	ok := func(h string) bool {
		if h == "" || isLocalHost(h) || c.trustedHost(h) {
			return false
		}
		if ip := net.ParseIP(h); ip != nil {
			return publicHostIP(h) != nil
		}
		return catalog.Default().Host(h).Class == catalog.HostPublic
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			name, val, eq := strings.Cut(a, "=")
			if !eq && destOptName(name) && i+1 < len(args) {
				val = args[i+1]
				i++
			} else if !eq || !destOptName(name) {
				continue
			}
			if h, shaped := hostShaped(val); shaped && ok(h) {
				return h
			}
			continue
		}
		if k, v, eq := strings.Cut(a, "="); eq && !strings.Contains(k, "://") {
			if destOptName(k) {
				if h, shaped := hostShaped(v); shaped && ok(h) {
					return h
				}
			}
			continue
		}
		if strings.Contains(a, "://") || strings.Contains(a, ":") || net.ParseIP(a) != nil {
			if h, shaped := hostShaped(a); shaped && ok(h) {
				return h
			}
		}
	}
	return ""
}

// credentialArgs returns the credential files a command names in option values and key=value
// words (fluent-bit -p path=~/.bash_history, --file=~/.aws/credentials), which the read rules
// do not see as paths.
func credentialArgs(c *execCtx, s *Segment) []string {
	var out []string
	for _, a := range s.Args[1:] {
		v := a
		if i := strings.IndexByte(a, '='); i > 0 {
			v = a[i+1:]
		} else if strings.HasPrefix(a, "-") {
			continue
		}
		v = strings.TrimPrefix(v, "@")
		if v == "" || !strings.ContainsAny(v, "/~.") {
			continue
		}
		if t := c.target(v); t.abs != "" && isCredentialPath(c, t.abs) {
			out = append(out, c.where(t))
		}
	}
	return out
}

// ciEnvDump reports a command that prints every variable of a CI job, the service manager
// or every process, secrets included (Buildkite agent docs: buildkite-agent env dump;
// systemctl(1) show-environment; launchctl(1) export; ps(1) e).
func ciEnvDump(s *Segment) bool {
	n, a, b := s.Name(), s.sub(0), s.sub(1)
	switch {
	case n == "buildkite-agent" && a == "env" && (b == "dump" || b == ""),
		n == "systemctl" && a == "show-environment",
		n == "launchctl" && a == "export":
		return true
	case n == "ps":
		for _, x := range s.Args[1:] {
			if !strings.HasPrefix(x, "-") && strings.Contains(x, "e") && strings.ContainsAny(x, "wx") {
				return true // ps eww, ps auxe: every process's environment
			}
		}
	}
	return false
}

// vaultVerb returns vault's subcommand words: "audit disable", "secrets disable", "kv
// metadata delete", with the operand that follows.
func vaultVerb(s *Segment) (verb, operand string) {
	var words []string
	for _, a := range s.Args[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		words = append(words, a)
	}
	for _, n := range []int{3, 2} {
		if len(words) >= n {
			v := strings.Join(words[:n], " ")
			switch v {
			case "kv metadata delete", "audit disable", "secrets disable", "auth disable", "kv destroy", "kv delete", "operator seal",
				"audit-disable", "secrets move", "policy delete", "namespace delete":
				if len(words) > n {
					operand = words[n]
				}
				return v, operand
			}
		}
	}
	return "", ""
}

// vaultMountRoot reports a KV path that is a whole mount (secret, secret/) or names it by
// -mount with no path under it.
func vaultMountRoot(s *Segment, operand string) bool {
	if m, ok := optValue(s.Args[1:], "-mount", "--mount"); ok && m != "" {
		return operand == "" || operand == "/"
	}
	for _, a := range s.Args[1:] {
		if strings.HasPrefix(a, "-mount=") {
			return operand == "" || operand == "/"
		}
	}
	return operand != "" && !strings.Contains(strings.Trim(operand, "/"), "/")
}

// prodWords in a file name mark production secrets.
func prodSecretFile(p string) bool {
	l := strings.ToLower(p)
	for _, w := range []string{"prod", "production", "live", "prd"} {
		for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '/' || r == '.' || r == '-' || r == '_' }) {
			if part == w {
				return true
			}
		}
	}
	return false
}

// sopsDecrypt returns the file sops -d (sops decrypt) decrypts.
func sopsDecrypt(s *Segment) (string, bool) {
	if s.Name() != "sops" {
		return "", false
	}
	dec := s.sub(0) == "decrypt" || s.arg("-d", "--decrypt")
	if !dec {
		return "", false
	}
	var file string
	skip := map[string]bool{"--output": true, "--extract": true, "--input-type": true, "--output-type": true, "--config": true, "--age": true, "--kms": true, "--pgp": true, "--gcp-kms": true, "--azure-kv": true, "--hc-vault-transit": true}
	for i := 1; i < len(s.Args); i++ {
		a := s.Args[i]
		if skip[a] {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") && a != "decrypt" {
			file = a
		}
	}
	return file, file != ""
}

// printedToTranscript reports a segment whose output nothing consumes: no pipe reader, no
// redirection, not substituted into another command.
func printedToTranscript(c *execCtx, s *Segment) bool {
	for _, r := range s.Redirs {
		if r.Writes() {
			return false
		}
	}
	for _, v := range s.Via {
		if v == "$(…)" || v == "<(…)" {
			return false
		}
	}
	for _, o := range c.segs {
		if o.PipeIn == s {
			return false
		}
	}
	return true
}

// vmHostMount returns the host directory a VM tool mounts into its machine when that is the
// host's root or the home directory, with whether the mount is writable.
func vmHostMount(c *execCtx, s *Segment) (string, bool) {
	if len(s.Args) < 3 {
		return "", false
	}
	n := s.Name()
	whole := func(p string) bool {
		p = strings.Trim(p, `"'`)
		if p == "/" || p == "~" || p == "~/" || p == "$HOME" || p == "${HOME}" {
			return true
		}
		t := c.target(p)
		return t.abs == "/" || c.scope.Home != "" && strings.TrimSuffix(t.abs, "/") == strings.TrimSuffix(c.scope.Home, "/")
	}
	switch n {
	case "limactl", "lima", "colima":
		for i, a := range s.Args[1:] {
			val := ""
			switch {
			case (a == "--set" || a == "--mount" || a == "-m" || a == "-V") && i+2 < len(s.Args):
				val = s.Args[i+2]
			case strings.HasPrefix(a, "--set=") || strings.HasPrefix(a, "--mount="):
				val = a[strings.IndexByte(a, '=')+1:]
			default:
				continue
			}
			if strings.Contains(val, ".mounts") || strings.Contains(val, "location") {
				for _, m := range reLimaLocation().FindAllStringSubmatch(val, 8) {
					if whole(m[1]) {
						return m[1], strings.Contains(strings.ReplaceAll(val, " ", ""), `"writable":true`) || strings.Contains(val, "writable: true")
					}
				}
				continue
			}
			src, mode, _ := strings.Cut(val, ":")
			if whole(src) {
				return src, mode == "w" || n == "colima" && mode != "ro"
			}
		}
	case "multipass":
		if s.sub(0) == "mount" {
			if p := s.positional(1); len(p) > 0 && whole(p[0]) {
				return p[0], true // multipass mounts are writable (multipass mount --help)
			}
		}
	case "podman":
		if s.sub(0) == "machine" && (s.sub(1) == "init" || s.sub(1) == "set") {
			if v, ok := optValue(s.Args[1:], "-v", "--volume"); ok {
				src, _, _ := strings.Cut(v, ":")
				if whole(src) {
					return src, !strings.HasSuffix(v, ":ro")
				}
			}
		}
	}
	return "", false
}

func r10ExecRules() []*Rule {
	return []*Rule{
		{
			ID: "pkg.plugin-url", Level: High, Category: CatRemoteCodeExecution,
			Message: "Installs a plugin, extension or toolchain from a URL: code that will run, from a host that may not be the tool's vendor",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, u := range pluginInstallURLs(s) {
					if h := hostOf(u); h != "" && !c.trustedHost(h) && !isLocalHost(h) && !knownOrVendorHost(h) {
						return "Installs code for " + quoteName(s.Name()) + " from " + capText(u), true
					}
					if publicHostIP(hostOf(u)) != nil {
						return "Installs code for " + quoteName(s.Name()) + " from " + capText(u), true
					}
				}
				return "", false
			},
		},
		{
			ID: "cred.exfiltrate-host", Level: High, Category: CatDataExfiltration,
			Message: "Sends secrets to a remote host through a command that connects there",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(s.Args) < 2 {
					return "", false
				}
				if _, known := networkSink(s); known {
					return "", false // cred.exfiltrate's
				}
				if loginFedByOwnToken(s) {
					return "", false // the vendor's token to the vendor's registry (r16allow_tokens.go)
				}
				rs := credentialArgs(c, s)
				if len(rs) == 0 && !s.In.has(taintSecret) {
					return "", false // nothing secret to send: where it connects does not matter
				}
				dest := remoteDest(c, s)
				if dest == "" {
					return "", false
				}
				if len(rs) > 0 {
					return quoteName(s.Name()) + " reads " + rs[0] + " and sends it to " + dest, true
				}
				if src := s.In.from(taintSecret); len(src) > 0 {
					return "Sends secrets read by `" + capText(joinArgs(src[0].Args)) + "` to " + dest + " with " + quoteName(s.Name()), true
				}
				if s.In.has(taintSecret) {
					return "Sends credential material to " + dest + " with " + quoteName(s.Name()), true
				}
				return "", false
			},
		},
		{
			ID: "secrets.store-off", Level: High, Category: CatSecurityWeakening,
			Message: "Switches off a secret store's audit log or deletes a whole secrets engine",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if s.Name() != "vault" && s.Name() != "bao" {
					return "", false
				}
				verb, op := vaultVerb(s)
				switch verb {
				case "audit disable":
					return "Disables the Vault audit device " + op + ": secret reads stop being recorded", true
				case "secrets disable":
					return "Disables the Vault secrets engine at " + op + ", deleting every secret stored under it", true
				case "kv metadata delete", "kv destroy":
					if vaultMountRoot(s, op) {
						return "Deletes every version of the secrets at " + op + ", a whole KV mount", true
					}
					return "Permanently deletes every version of the secret " + op, true
				case "auth disable":
					return "Disables the Vault auth method " + op + ", locking out everyone who logs in with it", true
				case "operator seal":
					return "Seals Vault: every application reading secrets fails until it is unsealed", true
				}
				return "", false
			},
		},
		{
			ID: "cred.decrypt-dump", Level: High, Category: CatCredentialAccess,
			Message: "Decrypts a production secrets file",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				f, ok := sopsDecrypt(s)
				if !ok || !prodSecretFile(f) {
					return "", false
				}
				return "Decrypts the production secrets file " + f + " with sops", true
			},
		},
		{
			ID: "cred.token-own-api", Level: Low, Category: CatNone,
			Message: "Gets a cloud CLI's access token for a request to that vendor's own API",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if tokenUsedByOwnVendor(c, s) {
					return "Gets the " + s.Name() + " access token for a request to " + s.Name() + "'s own API, not printed", true
				}
				return "", false
			},
		},
		{
			ID: "vm.host-mount", Level: High, Category: CatPrivilegeEscalation,
			Message: "Mounts the host's root or home directory into a virtual machine",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if p, _ := vmHostMount(c, s); p != "" {
					return "Mounts " + p + " of the host into a " + s.Name() + " machine, where its root user can read and change it", true
				}
				return "", false
			},
		},
	}
}

// r10ExecCertainty are the certainty conditions of the rules above (certainty.go rows).

// vaultSecurityOff is secrets.store-off's certainty: the audit log off, a whole engine or
// mount deleted.
func vaultSecurityOff(c *execCtx, s *Segment) string {
	verb, op := vaultVerb(s)
	switch verb {
	case "audit disable":
		return "a secret store's audit logging switched off (docs/policy.md: disabling security controls)"
	case "secrets disable":
		return "a whole secrets engine deleted (docs/policy.md: destruction of data the user never mentioned)"
	case "kv metadata delete", "kv destroy":
		if vaultMountRoot(s, op) {
			return "every secret of a KV mount deleted (docs/policy.md: destruction of data the user never mentioned)"
		}
	}
	return ""
}

// prodSecretsPrinted is cred.decrypt-dump's certainty: the whole file printed into the
// transcript, with no reason stated that names it.
func prodSecretsPrinted(c *execCtx, s *Segment) string {
	if reasonRelates(c.req.Justification, s.Args) || s.arg("--extract") {
		return ""
	}
	for _, a := range s.Args {
		if strings.HasPrefix(a, "--extract=") {
			return ""
		}
	}
	if printedToTranscript(c, s) {
		return "every production secret of the file printed into the transcript (docs/policy.md: bulk secret dumps)"
	}
	return ""
}

// writableHostMount is vm.host-mount's certainty: the mount is writable.
func writableHostMount(c *execCtx, s *Segment) string {
	if p, w := vmHostMount(c, s); p != "" && w {
		return "the host's " + p + " is mounted writable into a machine the agent controls as root (docs/policy.md: privilege escalation)"
	}
	return ""
}

// tokenVendorDomains are the API domains each cloud CLI's access token is made for: a token
// printed by the CLI and sent in a request to one of them is the CLI's own use, not a leak
// (Google Cloud: gcloud auth print-access-token, "Authenticate for using REST"; Azure CLI: az
// account get-access-token; AWS STS; GitHub CLI: gh auth token).
var tokenVendorDomains = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"gcloud": {"googleapis.com", "run.app", "cloudfunctions.net", "appspot.com"},
		"az":     {"azure.com", "azure.net", "microsoft.com", "windows.net", "microsoftonline.com", "azurecr.io"},
		"aws":    {"amazonaws.com", "aws.amazon.com"},
		"gh":     {"github.com", "githubusercontent.com"},
		"glab":   {"gitlab.com"},
		"doctl":  {"digitalocean.com"},
	}
}}

// accessTokenPrinter reports a cloud CLI command that prints a short-lived access token of
// the logged-in user (not a stored secret's value).
func accessTokenPrinter(s *Segment) bool {
	n, a, b := s.Name(), s.sub(0), s.sub(1)
	switch {
	case n == "gcloud" && a == "auth" && (b == "print-access-token" || b == "print-identity-token" || b == "application-default" && s.arg("print-access-token")),
		n == "az" && a == "account" && b == "get-access-token",
		n == "aws" && a == "sts" && b == "get-session-token",
		n == "gh" && a == "auth" && b == "token",
		n == "glab" && a == "auth" && b == "token":
		return true
	}
	return cliTokenOf(s) != nil // r16allow_tokens.go
}

// vendorBound reports a destination host of the vendor a token printer belongs to.
func vendorBound(printer *Segment, host string) bool {
	host = strings.ToLower(host)
	if t := cliTokenOf(printer); t != nil && t.tokenDomain(host) {
		return true // r16allow_tokens.go
	}
	for _, d := range tokenVendorDomains.get()[printer.Name()] {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// tokenToOwnVendor reports secret taint that comes only from access-token printers and goes to
// their own vendor's API host.
func tokenToOwnVendor(in taint, dest string) bool {
	src := in.from(taintSecret)
	if len(src) == 0 {
		return false
	}
	for _, p := range src {
		if !accessTokenPrinter(p) || !vendorBound(p, dest) {
			return false
		}
	}
	return true
}

// tokenUsedByOwnVendor reports an access-token printer whose every consumer is a request to
// the vendor's own API: curl -H "Authorization: Bearer $(gcloud auth print-access-token)"
// https://run.googleapis.com/… is how the vendor documents calling its REST API.
func tokenUsedByOwnVendor(c *execCtx, s *Segment) bool {
	if !accessTokenPrinter(s) {
		return false
	}
	used := false
	for _, o := range c.segs {
		if o == s || o.PipeIn != nil && o.PipeIn != s && segIn(o.PipeIn.Out.from(taintSecret), s) {
			continue // downstream of a consumer (… | jq): that consumer is judged
		}
		fed := o.PipeIn == s || segIn(o.In.from(taintSecret), s)
		if !fed {
			continue
		}
		dest, ok := networkSink(o)
		if !ok {
			return false
		}
		us := urls(o)
		if len(us) > 0 {
			dest = us[0].Hostname()
		}
		if !vendorBound(s, dest) {
			return false
		}
		used = true
	}
	return used
}

// tokenPrintedBare is cred.secret-store's certainty for access tokens: printed into the
// transcript with nothing consuming it and no reason stated that names it.
func tokenPrintedBare(c *execCtx, s *Segment) bool {
	return accessTokenPrinter(s) && printedToTranscript(c, s) && !reasonRelates(c.req.Justification, s.Args)
}

// pruneEveryVolume reports a prune that deletes the volumes of every project on the engine:
// docker system prune --volumes (every unused anonymous volume) and docker volume prune
// --all (every unused volume, named ones included) (docs.docker.com: docker system prune,
// docker volume prune). Other projects' databases live in those volumes.
func pruneEveryVolume(s *Segment) string {
	if n := s.Name(); n != "docker" && n != "podman" || len(s.Args) < 3 {
		return ""
	}
	j := " " + strings.Join(s.Args[1:], " ") + " "
	switch {
	case strings.Contains(j, " system prune ") && strings.Contains(j, " --volumes"):
		return "it deletes every unused volume on the engine, other projects' data included (docs/policy.md: deleting volumes)"
	case strings.Contains(j, " volume prune ") && (s.arg("--all") || s.hasFlag("a") || strings.Contains(j, "all=true")):
		return "it deletes every unused volume on the engine, named ones included (docs/policy.md: deleting volumes)"
	}
	return ""
}

// historyFile reports a shell or REPL history file (catalog/paths.toml, shell-history): it
// may hold secrets typed on a command line, so sending it anywhere is exfiltration, but
// reading it is usually looking for an earlier command: asked about, not denied.
func historyFile(p string) bool {
	b := baseName(p)
	return strings.HasSuffix(b, "_history") || b == ".history" || b == ".dbshell" || b == ".lesshst" || strings.HasSuffix(b, "_repl_history")
}

func segIn(ss []*Segment, s *Segment) bool {
	for _, o := range ss {
		if o == s {
			return true
		}
	}
	return false
}

// infraClients are clients of the project's own infrastructure — clusters, registries,
// databases, deploy platforms — to which handing a secret is how it is used (a cluster's
// secret created from .env, a password to log in with): asked about, not denied, since the
// host may well be the project's own.
var infraClients = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"kubectl": true, "oc": true, "helm": true, "docker": true, "podman": true, "nerdctl": true, "gh": true,
		"glab": true, "vercel": true, "netlify": true, "heroku": true, "fly": true, "flyctl": true, "aws": true, "gcloud": true,
		"az": true, "terraform": true, "tofu": true, "vault": true, "psql": true, "mysql": true, "mariadb": true, "mongosh": true,
		"mongo": true, "redis-cli": true, "skopeo": true, "crane": true, "oras": true, "argocd": true, "doctl": true, "railway": true}
}}

// authOpts are options whose value is the credential a client logs in with.
func authOpt(name string) bool {
	n := strings.ToLower(strings.TrimLeft(name, "-"))
	switch n {
	case "a", "p", "password", "pass", "passwd", "token", "auth", "api-key", "apikey", "secret", "password-stdin", "key":
		return true
	}
	return strings.HasSuffix(n, "-password") || strings.HasSuffix(n, "-token") || strings.HasSuffix(n, ".password")
}

// exfilHostCertain is cred.exfiltrate-host's certainty: the secret is sent as data (piped in,
// read from a file option, put in an operand) by a command that is not a client of the
// project's own infrastructure, rather than handed over as the password it logs in with.
func exfilHostCertain(c *execCtx, s *Segment) string {
	if infraClients.get()[s.Name()] {
		return ""
	}
	if s.PipeIn == nil && len(credentialArgs(c, s)) == 0 {
		// Only substitutions carry the secret: data unless each tainted word is an auth
		// option's value.
		data := false
		for i := 1; i < len(s.Args); i++ {
			a := s.Args[i]
			if !strings.Contains(a, "$(") && !strings.Contains(a, "`") && !strings.Contains(a, "$") {
				continue
			}
			name, _, eq := strings.Cut(s.Args[i-1]+"=", "=")
			if eq && strings.HasPrefix(s.Args[i-1], "-") && authOpt(name) {
				continue
			}
			if n, _, ok := strings.Cut(a, "="); ok && authOpt(n) {
				continue
			}
			data = true
		}
		if !data && !strings.Contains(s.Text, "$(") {
			data = true // the taint came another way (a variable, a file the request wrote)
		}
		if !data {
			return ""
		}
	}
	return "secrets sent as data to a host that is not shown to be the project's own (docs/policy.md)"
}
