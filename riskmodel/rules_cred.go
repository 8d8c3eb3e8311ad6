package riskmodel

import (
	"path"
	"strings"
	"sync"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// credHomePaths are the literal leading parts of the catalogue's credential stores below a
// home directory, for callers that compare plain prefixes (container mounts). Computed on
// first use: loading the catalogue at package init would cost every hook process its decode,
// although most requests never compare a mount.
var credHomePaths = sync.OnceValue(func() []string { return catalog.Default().HomePrefixes(catalog.Credential) })

// isCredentialPath reports whether abs holds secrets: key files, token stores, browser
// profiles, .env files, cloud credentials — whatever the catalogue calls a credential store,
// below any user's home.
func isCredentialPath(c *execCtx, abs string) bool {
	return abs != "" && catalog.Default().Is(catalog.Credential, abs, c.scope.Home)
}

// rawPath returns an argument as an absolute path with its globs and braces kept
// ("~/.aws/*" → "/home/dev/.aws/*"), "" when it cannot be placed. Scope.Resolve cuts a glob
// back to its directory, which would lose what the glob can name.
func (c *execCtx) rawPath(arg string) string {
	p := c.scope.expandHome(catalog.FromWindows(arg)) // C:\Users\NAME\…, %APPDATA%\…

	if x := xdgPath(p); x != "" {
		// $XDG_STATE_HOME/guardian/… is guardian's state whatever the variable holds: it is
		// classified as if below the variable's default (~/.local/state/guardian/…).
		return x
	}
	p = wholeComponentSubst(p)
	switch {
	case p == "" || strings.ContainsAny(p, "`") || strings.Contains(p, "$(") || strings.HasPrefix(p, "$"):
		return ""
	case strings.HasPrefix(p, "~") || path.IsAbs(p):
		return p
	case c.scope.CwdUnknown:
		return ""
	}
	return path.Join(c.scope.Cwd, p)
}

// inClass returns the catalogue entry of class that a target falls in: judged on the
// argument as written (globs and braces included) and on the resolved path.
func (c *execCtx) inClass(class catalog.Class, t target) (*catalog.PathEntry, bool) {
	m := c.scope.memo
	if m == nil {
		return c.inClassCompute(class, t)
	}
	k := classKey{c.scope, class, t.arg, t.abs}
	if v, ok := m.class[k]; ok {
		return v.e, v.ok
	}
	e, ok := c.inClassCompute(class, t)
	if m.class == nil {
		m.class = map[classKey]classVal{}
	}
	m.class[k] = classVal{e, ok}
	return e, ok
}

func (c *execCtx) inClassCompute(class catalog.Class, t target) (*catalog.PathEntry, bool) {
	cat := catalog.Default()
	if raw := c.rawPath(t.arg); raw != "" && raw != t.abs {
		if e, ok := cat.Classify(class, raw, c.scope.Home); ok || HasGlob(t.arg) || strings.Contains(t.arg, "{") {
			return e, ok // a glob is judged on what it can name, not on the directory it resolves to
		}
	}
	if t.abs == "" {
		return nil, false
	}
	return cat.Classify(class, t.abs, c.scope.Home)
}

// credArg reports whether an argument names a credential store; recursive says the command
// reads directories recursively, so a directory holding a store counts too.
func (c *execCtx) credArg(arg string, recursive bool) (string, bool) {
	m := c.scope.memo
	if m == nil {
		return c.credArgCompute(arg, recursive)
	}
	k := credKey{c.scope, arg, recursive}
	if v, ok := m.cred[k]; ok {
		return v.p, v.ok
	}
	p, ok := c.credArgCompute(arg, recursive)
	if m.cred == nil {
		m.cred = map[credKey]credVal{}
	}
	m.cred[k] = credVal{p, ok}
	return p, ok
}

func (c *execCtx) credArgCompute(arg string, recursive bool) (string, bool) {
	t := c.target(arg)
	if _, ok := c.inClass(catalog.Credential, t); ok {
		return orStr(t.abs, arg), true
	}
	if recursive {
		if raw := orStr(c.rawPath(arg), t.abs); raw != "" {
			if _, ok := catalog.Default().Holds(catalog.Credential, raw, c.scope.Home); ok {
				return orStr(t.abs, arg), true
			}
		}
	}
	return "", false
}

func orStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// readsRecursively reports commands that read whole directory trees given as arguments.
func readsRecursively(s *Segment) bool {
	switch s.Name() {
	case "tar", "bsdtar", "zip", "7z", "7za", "rsync", "rclone", "restic", "borg", "rg", "ag", "ack":
		return true
	case "cp", "scp", "grep", "egrep", "zgrep", "chmod", "diff":
		return s.hasFlag("rR", "--recursive", "--archive") || s.Name() == "cp" && s.hasFlag("a")
	}
	return objectStoreTreeCopy(s)
}

// objectStoreTreeCopy reports the object-store CLIs' copies of a whole directory tree: aws s3
// sync and cp --recursive, gsutil and gcloud storage rsync and cp -r, azcopy --recursive,
// s3cmd sync and put -r, MinIO mc mirror and cp -r (each tool's reference). A credential
// store's directory given to one is read in full.
func objectStoreTreeCopy(s *Segment) bool {
	a, b := s.sub(0), s.sub(1)
	switch s.Name() {
	case "aws":
		return a == "s3" && (b == "sync" || (b == "cp" || b == "mv") && s.arg("--recursive"))
	case "gsutil":
		return a == "rsync" || (a == "cp" || a == "mv") && s.hasFlag("rR", "--recursive")
	case "gcloud":
		return a == "storage" && (b == "rsync" || (b == "cp" || b == "mv") && s.hasFlag("rR", "--recursive"))
	case "azcopy":
		return a == "sync" || s.arg("--recursive", "--recursive=true")
	case "s3cmd":
		return a == "sync" || a == "put" && s.hasFlag("r", "--recursive")
	case "mc":
		return a == "mirror" || a == "cp" && s.hasFlag("r", "--recursive")
	}
	return false
}

// nonReaders touch a path without reading its contents.
var nonReaders = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"ls": true, "stat": true, "file": true, "test": true, "[": true, "chmod": true, "chown": true, "chgrp": true,
		"du": true, "touch": true, "mkdir": true, "rm": true, "rmdir": true, "realpath": true, "readlink": true, "basename": true, "dirname": true,
		"ssh": true, "ssh-add": true, "ssh-copy-id": true, "find": true, "cd": true, "shred": true, "unlink": true, "ssh-keygen": true,
		"tree": true, "exa": true, "eza": true, "git": true, "echo": true, "tee": true}
}}

// outputFlags name the options whose value is a file the command writes.
var outputFlags = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-o": true, "-out": true, "-keyout": true, "--output": true, "-O": true, "--output-document": true,
		"--keyout": true, "-certout": true}
}}

// credReads returns the credential paths a segment reads.
func credReads(c *execCtx, s *Segment) []string {
	var out []string
	if !nonReaders.get()[s.Name()] {
		rec := readsRecursively(s)
		args := s.Args[min(1, len(s.Args)):]
		if s.Name() == "scp" || s.Name() == "rsync" || s.Name() == "sftp" {
			args = s.positional(0, "-i", "-P", "-o", "-F", "-e")
		}
		dest := copyDestInWorkspace(c, s)
		for i, a := range args {
			if i > 0 && outputFlags.get()[args[i-1]] && !(args[i-1] == "-O" && (s.Name() == "dos2unix" || s.Name() == "unix2dos")) {
				continue // a file the command writes (openssl -keyout, curl -o), not one it reads
			}
			if dest != "" && a == dest {
				continue // cp .env.example .env writes the project's .env from its template
			}
			if f := httpieFile(a); f != "" && isHTTPie(s.Name()) {
				a = f // http POST url field@file
			}
			// ImageMagick's text:/etc/shadow, label:@file, msl:script name the file they read.
			a = imageMagickOperand(s.Name(), a)
			a = sqliteURIPath(s.Name(), a) // sqlite3 "file:…/Login Data?immutable=1"
			a = strings.TrimPrefix(a, "@") // curl -d @file, -F x=@file
			if i := strings.Index(a, "=@"); i >= 0 {
				a = a[i+2:]
			}
			if strings.HasPrefix(a, "-") {
				// --input=~/.aws/credentials, -Dfile=$HOME/.ssh/id_rsa, --config-dir=~/.aws: a
				// credential store handed to the program as an option's value is read like a
				// plain argument, unless the program owns the store (cred_optvalue.go).
				if p, ok := optionCred(c, s, a, optionPath(a), rec); ok {
					out = append(out, p)
				}
				continue
			}
			if i > 0 && pathOption(args[i-1]) {
				if p, ok := optionCred(c, s, args[i-1], a, rec); ok {
					out = append(out, p)
				}
				continue
			}
			if p, ok := c.credArg(a, rec); ok {
				out = append(out, p)
			}
		}
	}
	for _, r := range s.Redirs {
		if r.Op == "<" || r.Op == "<>" {
			if p, ok := c.credArg(r.Target, false); ok {
				out = append(out, p)
			}
		}
	}
	for _, f := range append(toolOptionReads(s), stdinFileList(c, s)...) { // dd if=, xargs -a, socat FILE:, file:// URLs, cpio's list (toolfiles.go)
		if p, ok := c.credArg(f, false); ok && !containsStr(out, p) {
			out = append(out, p)
		}
	}
	if len(out) > 0 && envNamesOnly(s) {
		// cut -d= -f1 .env prints the variables' names, never their values. Only for NAME=value
		// files: cut passes a line without the delimiter whole, so a key file would print.
		kept := out[:0]
		for _, p := range out {
			if b := path.Base(p); !(strings.HasPrefix(b, ".env") || strings.HasSuffix(b, ".env")) {
				kept = append(kept, p)
			}
		}
		out = kept
	}
	return out
}

// secretCommand reports commands that print secrets from a store (keychain, password
// manager, cloud or cluster CLI tokens) into the transcript. Sources: each CLI's reference —
// gcloud auth, az account get-access-token, aws sts/ecr/secretsmanager/ssm, kubectl
// get/describe secret and create token, vault, 1Password op, Bitwarden bw, pass, macOS
// security(1), git-credential(1), gh auth token, heroku auth:token, npm token.
func secretCommand(s *Segment) (string, bool) {
	if what, ok := bulkSecretCommand(s); ok {
		return what, true
	}
	n, a, b := s.Name(), s.sub(0), s.sub(1)
	switch {
	case n == "security" && (strings.HasPrefix(a, "find-") && (s.hasFlag("wg") || a == "find-internet-password" && !s.hasFlag("", "--help")) || a == "dump-keychain" || a == "export"):
		return "Reads passwords from the macOS keychain", true
	case n == "gh" && a == "auth" && (b == "token" || b == "status" && s.hasFlag("t", "--show-token")):
		return "Prints the GitHub CLI's access token", true
	case n == "glab" && a == "auth" && b == "status" && s.hasFlag("t", "--show-token"), n == "glab" && a == "config" && b == "get" && s.arg("token"):
		return "Prints the GitLab CLI's access token", true
	case n == "git" && a == "credential" && (b == "fill" || b == "get"), n == "git" && strings.HasPrefix(a, "credential-") && b == "get":
		return "Asks git's credential helper for a stored password", true
	case n == "aws" && a == "configure" && b == "get" && strings.Contains(strings.ToLower(strings.Join(s.Args, " ")), "secret"),
		n == "aws" && a == "configure" && b == "export-credentials",
		n == "aws" && a == "secretsmanager" && b == "get-secret-value", n == "aws" && a == "ssm" && (b == "get-parameter" || b == "get-parameters") && s.arg("--with-decryption"),
		n == "aws" && a == "sts" && (b == "get-session-token" || b == "assume-role" || b == "get-federation-token" || b == "assume-role-with-web-identity"),
		n == "aws" && a == "ecr" && b == "get-login-password", n == "aws" && a == "codeartifact" && b == "get-authorization-token",
		n == "aws" && a == "iam" && b == "create-access-key":
		return "Reads AWS secrets or temporary credentials", true
	case n == "gcloud" && a == "auth" && (b == "print-access-token" || b == "print-identity-token" || b == "application-default" && s.arg("print-access-token")),
		n == "gcloud" && a == "secrets" && strings.Contains(strings.Join(s.Args, " "), "access"),
		n == "gcloud" && a == "iam" && b == "service-accounts" && s.arg("keys") && s.arg("create"):
		return "Prints Google Cloud credentials", true
	case n == "az" && a == "account" && b == "get-access-token":
		return "Prints an Azure access token", true
	case n == "az" && a == "keyvault" && (b == "secret" || b == "key" || b == "certificate") && s.arg("show", "download", "backup"),
		n == "az" && a == "storage" && b == "account" && s.arg("keys") && s.arg("list"):
		return "Reads a secret from Azure", true
	case n == "heroku" && (a == "config" || strings.HasPrefix(a, "config:get")), n == "vercel" && a == "env" && b == "pull",
		n == "doppler" && a == "secrets" && !s.arg("--only-names") && b != "names", n == "infisical" && (a == "export" || a == "secrets"), n == "fly" && a == "ssh" && strings.Contains(strings.Join(s.Args, " "), "printenv"):
		return "Prints an app's configured secrets with " + n, true
	case n == "heroku" && (a == "auth:token" || a == "authorizations:create"), n == "npm" && a == "token" && b == "create",
		n == "doctl" && a == "auth" && b == "token":
		return "Prints an access token with " + n + " " + a, true
	case (n == "kubectl" || n == "oc") && (a == "get" || a == "describe") && isSecretKind(b) && kubeSecretValuesShown(s, a):
		return "Reads Kubernetes secrets", true
	case (n == "kubectl" || n == "oc") && (a == "create" && b == "token" || a == "sa" && b == "get-token" || a == "whoami" && s.arg("--show-token")):
		return "Mints or prints a Kubernetes service-account token", true
	case (n == "kubectl" || n == "oc") && a == "config" && b == "view" && s.arg("--raw"):
		return "Prints the kubeconfig with its credentials", true
	case n == "vault" && (a == "read" || a == "kv" && b == "get" || a == "print" && b == "token" || a == "token" && b == "create"), n == "pass" && (a == "show" || a != "" && !strings.HasPrefix(a, "-") && a != "ls" && a != "find" && a != "init" && a != "git" && a != "generate" && a != "insert" && a != "edit" && a != "rm" && a != "mv" && a != "cp" && a != "grep"),
		n == "op" && (a == "read" || a == "item" && b == "get" || a == "inject"), n == "bw" && a == "get", n == "lpass" && a == "show", n == "gopass" && (a == "show" || a == "cat"),
		n == "keepassxc-cli" && a == "show":
		return "Reads a secret from a password manager", true
	case n == "gpg" && s.arg("--export-secret-keys", "--export-secret-subkeys"):
		return "Exports private GPG keys", true
	case n == "secret-tool" && a == "lookup", n == "keyring" && a == "get":
		return "Reads a password from the system keyring", true
	}
	return "", false
}

// kubeSecretValuesShown reports a kubectl get/describe of secrets whose output carries the
// values: get with -o yaml, json, jsonpath, go-template, custom-columns (anything but name or
// wide). Plain get lists names, types and key counts; describe shows keys and byte sizes
// (kubernetes.io/docs/concepts/configuration/secret, "kubectl describe secret … does not show
// the contents"), so neither reveals a value.
func kubeSecretValuesShown(s *Segment, verb string) bool {
	if verb == "describe" {
		return false
	}
	o, ok := optValue(s.Args[1:], "-o", "--output")
	if !ok {
		for _, a := range s.Args[1:] {
			if strings.HasPrefix(a, "-o") && len(a) > 2 && !strings.HasPrefix(a, "--") {
				o, ok = strings.TrimPrefix(a[2:], "="), true
			}
		}
	}
	return ok && o != "name" && o != "wide"
}

// secretValueRead reports a secretCommand match that certainly puts a stored secret's value in
// front of the agent with no need stated (no reason, or one that names nothing the command
// reads): docs/policy.md denies reading credential stores
// without need, and asks about one secret read for a stated reason. Not certain: a request
// that states a reason; sign-in flows whose token is handed to another program (aws ecr
// get-login-password | docker login, eval $(aws sts …)); commands that list names or mint new
// credentials (kubectl get secrets, kubectl describe, iam create-access-key); access tokens
// of the user's own cloud session, which API calls routinely need.
func secretValueRead(c *execCtx, s *Segment) bool {
	if reasonRelates(c.req.Justification, s.Args) {
		return false // a reason that names what is read (reason.go)
	}
	for _, o := range c.segs {
		if o.PipeIn != s {
			continue
		}
		switch o.Name() {
		case "base64", "cat", "tee", "pbcopy", "xclip", "xsel", "wl-copy", "head", "tail", "cut", "tr", "sed", "awk", "grep", "echo":
		case "jq", "yq":
			if strings.Contains(strings.Join(o.Args, " "), "keys") {
				return false // names only
			}
		default:
			return false // consumed by another program, which its own rules judge
		}
	}
	n, a := s.Name(), s.sub(0)
	switch {
	case n == "security", n == "gh", n == "glab", n == "git", n == "gpg", n == "secret-tool", n == "keyring",
		n == "op", n == "bw", n == "lpass", n == "gopass", n == "keepassxc-cli", n == "pass", n == "vault" && a != "token":
		return true
	case n == "aws":
		return a == "secretsmanager" || a == "ssm" || a == "configure"
	case n == "gcloud":
		return a == "secrets"
	case n == "az":
		return a == "keyvault" || a == "storage"
	case n == "kubectl" || n == "oc":
		if a == "config" {
			return true // config view --raw
		}
		if a != "get" {
			return false // describe shows sizes, create token mints one
		}
		o, _ := optValue(s.Args[1:], "-o", "--output")
		return o != "" && o != "name" && o != "wide"
	case n == "doppler", n == "infisical":
		return !s.arg("--only-names")
	case n == "heroku":
		return strings.HasPrefix(a, "config")
	}
	return false
}

// isSecretKind reports a kubectl resource word naming Secrets (secret, secrets, secret/x,
// secrets.v1, a list with secret in it: pods,secrets).
func isSecretKind(w string) bool {
	for _, k := range strings.Split(strings.ToLower(w), ",") {
		k, _, _ = strings.Cut(k, "/")
		k, _, _ = strings.Cut(k, ".")
		if k == "secret" || k == "secrets" {
			return true
		}
	}
	return false
}

// bulkSecretCommand reports commands that dump many secrets at once: every Kubernetes secret
// with its values, a whole password vault, every parameter under a path. Reading one secret
// may be a debugging step; a bulk dump has no routine reason (docs/policy.md: "bulk secret
// dumps" are denied).
func bulkSecretCommand(s *Segment) (string, bool) {
	if what, ok := secretBackendDump(s); ok {
		return what, true
	}
	n, a, b := s.Name(), s.sub(0), s.sub(1)
	switch {
	case (n == "kubectl" || n == "oc") && a == "get" && isSecretKind(b):
		values := false
		if o, ok := optValue(s.Args[1:], "-o", "--output"); ok {
			values = !strings.HasPrefix(o, "name") && o != "wide"
		} else if o, ok := s.argPrefix("-o=", "--output=", "-oyaml", "-ojson", "-ojsonpath", "-ogo-template"); ok {
			values = !strings.Contains(o, "name") && !strings.Contains(o, "wide")
		}
		named := s.sub(2) != "" || strings.Contains(b, "/")
		if values && (s.hasFlag("A", "--all-namespaces") || !named) {
			return "Dumps every Kubernetes secret with its values", true
		}
	case n == "aws" && a == "secretsmanager" && b == "batch-get-secret-value",
		n == "aws" && a == "ssm" && b == "get-parameters-by-path" && s.arg("--with-decryption"):
		return "Dumps many AWS secrets at once", true
	case n == "bw" && a == "export", n == "lpass" && a == "export", n == "op" && a == "export", n == "keepassxc-cli" && a == "export",
		n == "security" && a == "dump-keychain" && s.hasFlag("d"):
		return "Exports a whole password vault with its secrets", true
	case n == "doppler" && a == "secrets" && b == "download", n == "infisical" && a == "export", n == "vault" && a == "kv" && b == "export":
		return "Downloads every secret of a project", true
	case n == "ansible-vault" && (a == "view" || a == "decrypt"):
		// A vault file holds every secret of an inventory or role; view prints them all,
		// decrypt writes them all out in the clear (docs.ansible.com: ansible-vault).
		return "Decrypts a whole Ansible vault file (ansible-vault " + a + "), every secret in it", true
	}
	return "", false
}

var secretVarWords = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "PRIVATE_KEY", "CREDENTIAL", "ACCESS_KEY", "AUTH"}

func isSecretVar(name string) bool {
	u := strings.ToUpper(name)
	for _, w := range secretVarWords {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

// secretVarRefs returns the secret-looking variable names an unresolved word refers to.
func secretVarRefs(a string) []string {
	var out []string
	for i := 0; i < len(a); i++ {
		if a[i] != '$' {
			continue
		}
		j := i + 1
		if j < len(a) && a[j] == '{' {
			j++
		}
		k := j
		for k < len(a) && (a[k] == '_' || a[k] >= 'A' && a[k] <= 'Z' || a[k] >= 'a' && a[k] <= 'z' || a[k] >= '0' && a[k] <= '9') {
			k++
		}
		if k > j && isSecretVar(a[j:k]) {
			out = append(out, a[j:k])
		}
		i = k - 1
	}
	return out
}

// tokenBelongsTo reports whether a secret variable is named for the service a host belongs
// to (OPENAI_API_KEY → openai.com), judged on the registrable domain so that
// openai-proxy.example.top and api.github-status.io do not pass. A variable whose owner the
// catalogue names (GITHUB_TOKEN → github.com) belongs only to the catalogue's domains and to
// a self-hosted instance named for the service (gitlab.acme.internal); for any other the
// vendor prefix of its name must be the domain's own name, give or take a short affix
// (DATADOG_API_KEY → datadoghq.com), never a look-alike built from it (stripe-billing.io,
// githubstatus.io).
func tokenBelongsTo(v, host string) bool {
	cat := catalog.Default()
	if cat.TokenOwnedBy(v, host) {
		return true
	}
	labels := strings.Split(strings.ToLower(strings.TrimSuffix(host, ".")), ".")
	if len(labels) < 2 {
		return false
	}
	domain := labels[len(labels)-2]
	vendor := strings.ToLower(strings.SplitN(v, "_", 2)[0])
	for _, l := range labels[:len(labels)-2] {
		if l == vendor && len(vendor) >= 4 {
			return true // grafana.internal.example.io: a self-hosted instance of the service
		}
	}
	if cat.TokenOwnerKnown(v) {
		return false // the catalogue names where it belongs, and this is not there
	}
	if vendor == domain || len(vendor) >= 4 && shortAffix(domain, vendor) {
		return true
	}
	return tokenPrefixAlias(vendor) == domain
}

// tokenPrefixAlias is the vendor's registrable domain label for the short prefixes variables
// are commonly named with (CF_API_TOKEN is Cloudflare's, DD_API_KEY Datadog's, DO_TOKEN
// DigitalOcean's), "" for any other prefix. A switch rather than a map: nothing to build per
// call or at start-up.
func tokenPrefixAlias(prefix string) string {
	switch prefix {
	case "gh":
		return "github"
	case "gl":
		return "gitlab"
	case "aws":
		return "amazonaws"
	case "hf":
		return "huggingface"
	case "gcp", "google":
		return "googleapis"
	case "az":
		return "azure"
	case "cf":
		return "cloudflare"
	case "dd":
		return "datadoghq"
	case "do":
		return "digitalocean"
	case "sg":
		return "sendgrid"
	case "npm":
		return "npmjs"
	case "tf":
		return "terraform"
	}
	return ""
}

// shortAffix reports a domain label that is name with at most three letters or digits
// before or after it (datadoghq, getpostman): a vendor's own spelling, where a hyphenated or
// longer addition (github-status, stripebilling) is how look-alikes are built.
func shortAffix(label, name string) bool {
	i := strings.Index(label, name)
	if i < 0 {
		return false
	}
	rest := label[:i] + label[i+len(name):]
	if len(rest) > 3 {
		return false
	}
	for _, r := range rest {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// networkSink reports whether data reaching a segment (its stdin, its words) leaves the
// machine, and where: an upload, but also a GET whose URL or headers carry it, a DNS
// lookup of a name built from it, or a remote shell.
func networkSink(s *Segment) (dest string, ok bool) {
	if d, ok := sends(s); ok {
		return d, true
	}
	switch n := s.Name(); {
	case isFetcher(s), n == "http", n == "https", n == "xh":
		if us := urls(s); len(us) > 0 {
			return us[0].Hostname(), true
		}
		return "a remote host", true
	case dnsTools.get()[n], n == "ping", n == "traceroute":
		return "DNS servers (" + n + ")", true
	case n == "ssh", n == "git" && (s.sub(0) == "push" || s.sub(0) == "remote"):
		return "a remote host (" + n + ")", true
	}
	return "", false
}

// printsSecretVar reports echo/printf/printenv of a secret-looking variable.
func printsSecretVar(s *Segment) (string, bool) {
	switch s.Name() {
	case "printenv":
		for _, a := range s.Args[1:] {
			if isSecretVar(a) {
				return a, true
			}
		}
	case "echo", "printf":
		for _, a := range s.Args[1:] {
			if i := strings.Index(a, "$"); i >= 0 && isSecretVar(a[i+1:]) {
				return a[i:], true
			}
		}
	}
	return "", false
}

// dumpsEnv reports a command that prints the whole environment.
func dumpsEnv(s *Segment) bool {
	if ciEnvDump(s) {
		return true
	}
	switch s.Name() {
	case "env", "printenv":
		return len(s.Args) == 1
	case "export", "declare", "typeset":
		return len(s.Args) == 1 || len(s.Args) == 2 && (s.Args[1] == "-p" || s.Args[1] == "-x")
	case "set":
		return len(s.Args) == 1
	case "cat", "strings", "xxd":
		for _, a := range s.Args[1:] {
			if strings.HasPrefix(a, "/proc/") && strings.HasSuffix(a, "/environ") {
				return true
			}
		}
	}
	return false
}

// secretPattern reports a search pattern aimed at secret-looking variables: broader than
// isSecretVar, since a grep for "key" or "pass" is after API_KEY and DB_PASS.
func secretPattern(p string) bool {
	u := strings.ToUpper(p)
	for _, w := range []string{"TOKEN", "SECRET", "PASS", "KEY", "CRED", "AUTH"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

// pipeReader returns the segment that reads s's output through a pipe, nil when none does.
func pipeReader(c *execCtx, s *Segment) *Segment {
	for _, o := range c.segs {
		if o.PipeIn == s {
			return o
		}
	}
	return nil
}

// namesOnly reports a filter that keeps only the names of NAME=value lines: cut -d= -f1, sed
// deleting from the '=', awk -F= printing $1.
func namesOnly(s *Segment) bool {
	joined := strings.Join(s.Args, " ")
	switch s.Name() {
	case "cut":
		return strings.Contains(joined, "-d=") || strings.Contains(joined, "-d =") || strings.Contains(joined, "-d'='") && (strings.Contains(joined, "-f1") || strings.Contains(joined, "-f 1"))
	case "sed":
		return strings.Contains(joined, "s/=.*//")
	case "awk", "gawk":
		return strings.Contains(joined, "-F=") && strings.Contains(joined, "$1") && !strings.Contains(joined, "$2") && !strings.Contains(joined, "$0")
	}
	return false
}

// pipeNamesOnly reports whether anything further down s's pipe keeps only the names.
func pipeNamesOnly(c *execCtx, s *Segment) bool {
	for o := s; o != nil; o = pipeReader(c, o) {
		if namesOnly(o) {
			return true
		}
	}
	return false
}

func credRules() []*Rule {
	return []*Rule{
		{
			ID: "cred.exfiltrate", Level: Critical, Category: CatDataExfiltration,
			Message: "Reads credentials and sends them off the machine",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				dest, ok := networkSink(s)
				if !ok || isLocalHost(dest) {
					return "", false
				}
				if _, sending := sends(s); sending {
					if rs := credReads(c, s); len(rs) > 0 {
						return "Sends " + rs[0] + " to " + dest, true
					}
				}
				// Otherwise only data that reaches this command counts: through a pipe, a
				// substitution, a variable or a file the request wrote (flow.go).
				if us := urls(s); len(us) > 0 && tokenToOwnVendor(s.In, us[0].Hostname()) {
					return "", false // a cloud CLI's token sent to its own API (rules_r10exec.go)
				}
				if src := s.In.from(taintSecret); len(src) > 0 {
					return "Sends secrets read by `" + capText(joinArgs(src[0].Args)) + "` to " + dest, true
				}
				if s.In.has(taintSecret) {
					return "Sends credential material to " + dest, true
				}
				return "", false
			},
		},
		{
			ID: "cred.password-prompt", Level: High, Category: CatCredentialAccess,
			Message: "Shows a fake password dialog: a coding task never needs to collect the user's password in its own window",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				switch n := s.Name(); n {
				case "osascript":
					j := strings.ToLower(strings.Join(s.Args[1:], " ") + " " + s.Stdin)
					if strings.Contains(j, "hidden answer") || strings.Contains(j, "default answer") && strings.Contains(j, "password") {
						return "Asks for the user's password in an AppleScript dialog (osascript), which the script then reads", true
					}
				case "zenity", "kdialog", "yad":
					if s.arg("--password") || n == "zenity" && s.arg("--entry") && s.arg("--hide-text") {
						return "Asks for the user's password in a " + n + " dialog, which the command then prints", true
					}
				}
				return "", false
			},
		},
		{
			ID: "cred.token-exfil", Level: Critical, Category: CatDataExfiltration,
			Message: "Sends a secret token to a host it does not belong to",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if dnsTools.get()[s.Name()] {
					// A secret in a name looked up leaves through DNS, whatever the server.
					for _, a := range s.Args[1:] {
						if vs := secretVarRefs(a); len(vs) > 0 {
							return "Leaks $" + vs[0] + " in a DNS lookup with " + s.Name(), true
						}
					}
					return "", false
				}
				if !isFetcher(s) && s.Name() != "http" {
					return "", false
				}
				us := urls(s)
				for _, a := range s.Args[1:] {
					for _, v := range secretVarRefs(a) {
						for _, u := range us {
							h := u.Hostname()
							if c.trustedHost(h) || tokenBelongsTo(v, h) {
								continue
							}
							if tokenToOwnVendor(s.In, h) {
								// TOKEN=$(gcloud auth print-access-token); curl -H "…$TOKEN"
								// https://storage.googleapis.com/…: every secret reaching the
								// command is the vendor CLI's token, going to that vendor's API.
								continue
							}
							return "Sends $" + v + " to " + h + ", a host that secret does not belong to", true
						}
					}
				}
				return "", false
			},
		},
		{
			ID: "cred.metadata", Level: High, Category: CatCredentialAccess,
			Message: "Queries the cloud instance metadata service, which hands out credentials",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				for _, u := range urls(s) {
					if h := catalog.Default().Host(u.Hostname()); h.Class == catalog.HostMetadata {
						return "Queries the cloud metadata service at " + u.Hostname() + " (" + h.What + "), which hands out the machine's credentials", true
					}
				}
				return "", false
			},
		},
		{
			ID: "cred.local-service", Level: High, Category: CatCredentialAccess,
			Message: "Talks to a local control API (Docker, Vault, Chrome DevTools, Kubernetes, a metadata emulator) that hands out credentials, root or code execution",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !isFetcher(s) && s.Name() != "http" {
					return "", false
				}
				for _, u := range urls(s) {
					if svc, ok := catalog.Default().LoopbackService(u.Hostname(), u.Port()); ok {
						return "Talks to " + svc.What + " on " + u.Host + ", which is not a harmless local server", true
					}
				}
				return "", false
			},
		},
		{
			ID: "cred.read", Level: High, Category: CatCredentialAccess,
			CertainWhen: "the store lies outside the workspace (a key, cloud credentials, a token or browser store)",
			Message:     "Reads credential material",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if rs := credReads(c, s); len(rs) > 0 {
					// A .env inside the project is the project's own configuration: asked about.
					// A store of the user's (keys, cloud credentials, tokens) is denied.
					c.certainty = certaintyUnsure
					for _, p := range rs {
						if s.Name() == "mv" {
							break // moved aside, not read: asked about like other moves outside the workspace
						}
						if c.target(p).zone != ZoneWorkspace && !historyFile(p) {
							c.certainty = certaintySure
						}
					}
					return "Reads credential material (" + rs[0] + ")", true
				}
				return "", false
			},
		},
		{
			ID: "cred.secret-bulk", Level: Critical, Category: CatCredentialAccess,
			Message: "Dumps many secrets at once from a cluster, cloud or password manager",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				return bulkSecretCommand(s)
			},
		},
		{
			ID: "cred.secret-store", Level: High, Category: CatCredentialAccess,
			CertainWhen: "it prints a stored secret's value, or mints an administrator's credentials, with no reason stated that names what it reads",
			Message:     "Reads secrets from a keychain, password manager or cloud CLI",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				msg, ok := secretCommand(s)
				if ok && (tokenUsedByOwnVendor(c, s) || tokenToOwnLogin(c, s)) {
					return "", false // the vendor's own API call (rules_r10exec.go) or registry login (r16allow_tokens.go)
				}
				if ok && (secretValueRead(c, s) || adminCredentialMinted(c, s) || tokenPrintedBare(c, s)) {
					c.certainty = certaintySure
				}
				return msg, ok
			},
		},
		{
			ID: "cred.secret-var", Level: High, Category: CatCredentialAccess,
			Message: "Prints a secret held in an environment variable",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if v, ok := printsSecretVar(s); ok {
					return "Prints the secret " + v, true
				}
				return "", false
			},
		},
		{
			ID: "cred.hunt", Level: Medium, Category: CatCredentialAccess,
			Message: "Searches outside the workspace for key and credential files",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				var pats []string
				switch s.Name() {
				case "find", "fd", "locate", "mdfind", "plocate":
					if s.Name() == "find" {
						if v, ok := optValue(s.Args[1:], "-name", "-iname", "-path"); ok {
							pats = append(pats, v)
						}
						for _, r := range findRoots(s.Args) {
							if t := c.target(r); t.zone == ZoneWorkspace || t.zone == ZoneTemp {
								return "", false
							}
						}
					} else {
						pats = s.positional(0)
					}
				}
				for _, p := range pats {
					probe := path.Join(c.scope.Home, strings.NewReplacer("*", "x", "?", "x").Replace(strings.TrimPrefix(p, "/")))
					if isCredentialPath(c, probe) || strings.Contains(p, "id_") || strings.Contains(p, ".aws") || strings.Contains(p, "credentials") {
						return "Searches for credential files (" + p + ") outside the workspace", true
					}
				}
				return "", false
			},
		},
		{
			// A recursive search of the whole home directory (or of /) for key material reads
			// every credential store below it and prints what matches: a bulk secret hunt
			// (MITRE ATT&CK T1552.001, Credentials In Files; trufflehog-style scans).
			ID: "cred.secret-hunt", Level: High, Category: CatCredentialAccess,
			CertainWhen: "the pattern is a secret or key pattern and the matching lines are printed",
			Message:     "Searches the whole home directory or filesystem for secrets and keys",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				pats, roots, printed, ok := recursiveSearch(s)
				if !ok {
					return "", false
				}
				root := ""
				for _, r := range roots {
					if c.wholeTree(r) {
						root = r
						break
					}
				}
				if root == "" {
					return "", false
				}
				for _, p := range pats {
					if secretPattern(p) || keyMaterialPattern(p) {
						c.certainty = certaintyUnsure
						if printed || readsListedFiles(c, s) {
							c.certainty = certaintySure
						}
						return "Searches " + root + " recursively for secrets (" + capText(p) + ")", true
					}
				}
				return "", false
			},
		},
		{
			// docs/policy.md: "bulk secret dumps" are denied, while printing the *names* of
			// the environment's variables is routine. An environment dump filtered for
			// secret-looking names prints exactly the values worth stealing.
			ID: "cred.env-secrets", Level: High, Category: CatCredentialAccess,
			Message: "Prints the values of the environment's secrets (tokens, keys, passwords)",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !dumpsEnv(s) {
					return "", false
				}
				for o := pipeReader(c, s); o != nil; o = pipeReader(c, o) {
					if namesOnly(o) {
						return "", false
					}
					switch o.Name() {
					case "grep", "egrep", "rg":
						if hasArg(o.Args, "-c", "--count", "-q", "--quiet", "-l") {
							return "", false
						}
						for _, a := range o.Args[1:] {
							if !strings.HasPrefix(a, "-") && secretPattern(a) {
								if rest := pipeReader(c, o); rest != nil && (namesOnly(rest) || pipeNamesOnly(c, rest)) {
									return "", false
								}
								return "", true
							}
						}
					}
				}
				return "", false
			},
		},
		{
			ID: "cred.env-dump", Level: Medium, Category: CatCredentialAccess,
			Message: "Prints the whole environment, which usually holds tokens and keys",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !dumpsEnv(s) {
					return "", false
				}
				for _, o := range c.segs {
					if o.PipeIn == s && envNamesOnly(o) {
						return "", false // docs/policy.md: printing the names of variables is benign
					}
					if o.PipeIn == s && (o.Name() == "grep" || o.Name() == "rg") {
						if p := o.positional(0, "-e", "-m"); len(p) > 0 && !isSecretVar(strings.Trim(p[0], "^$'\"")) {
							return "", false // filtered to named variables
						}
					}
				}
				return "", true
			},
		},
	}
}

// envNamesOnly reports a filter that keeps only the name of each NAME=value line: cut -d=
// -f1, sed 's/=.*//', awk -F= '{print $1}'. What it passes on holds no value.
func envNamesOnly(o *Segment) bool {
	if len(o.Args) < 2 {
		return false // a bare redirection (zsh's `<file` prints it): no filter at all
	}
	args := strings.Join(o.Args[1:], " ")
	switch o.Name() {
	case "cut":
		d, _ := optValue(o.Args[1:], "-d", "--delimiter")
		f, _ := optValue(o.Args[1:], "-f", "--fields")
		if d == "" {
			for _, a := range o.Args[1:] {
				if strings.HasPrefix(a, "-d") && len(a) > 2 {
					d = a[2:]
				}
				if strings.HasPrefix(a, "-f") && len(a) > 2 {
					f = a[2:]
				}
			}
		}
		if f == "" {
			for _, a := range o.Args[1:] {
				if strings.HasPrefix(a, "-f") && len(a) > 2 {
					f = a[2:]
				}
			}
		}
		return d == "=" && f == "1"
	case "sed":
		return len(o.Args) == 2 && (o.Args[1] == "s/=.*//" || o.Args[1] == "s/=.*$//")
	case "awk", "gawk", "mawk":
		return (strings.HasPrefix(args, "-F= ") || strings.HasPrefix(args, "-F = ") || strings.HasPrefix(args, "-F '=' ")) &&
			strings.HasSuffix(args, "{print $1}") && !strings.Contains(args, "system") && !strings.Contains(args, "|")
	}
	return false
}

// keyMaterialPattern reports search patterns for key material or well-known token formats
// that secretPattern's words miss: PEM headers, AWS access key ids, GitHub and Slack tokens.
func keyMaterialPattern(p string) bool {
	return containsAny(p, "BEGIN", "PRIVATE", "AKIA", "ASIA", "ghp_", "gho_", "github_pat", "xox", "sk-", "sk_live", "glpat-", "npm_")
}

// grepValueOpts are the options of grep, rg, ag and ack that take the next word as a value.
var grepValueOpts = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-e": true, "--regexp": true, "-f": true, "--file": true, "-m": true, "--max-count": true,
		"-A": true, "-B": true, "-C": true, "--context": true, "--after-context": true, "--before-context": true, "-d": true,
		"--directories": true, "-D": true, "--devices": true, "--include": true, "--exclude": true, "--exclude-dir": true,
		"--label": true, "-g": true, "--glob": true, "--iglob": true, "-t": true, "--type": true, "-T": true, "--type-not": true,
		"--max-depth": true, "-M": true, "--max-columns": true, "-j": true, "--threads": true, "--ignore-dir": true, "-G": true,
		"--file-search-regex": true, "--color": false, "--colour": false}
}}

// recursiveSearch reads a recursive content search (grep -r, rg, ag, ack): its patterns, the
// directories it searches, and whether it prints the matching lines (not only file names or
// counts). ok is false for anything else, and for a grep that does not recurse.
func recursiveSearch(s *Segment) (pats, roots []string, printed, ok bool) {
	n := s.Name()
	perFile := false // a grep that find runs on each file below its roots (find -exec, | xargs)
	switch n {
	case "grep", "egrep", "fgrep", "zgrep":
		if !s.hasFlag("rR", "--recursive", "--dereference-recursive") && !hasArg(s.Args, "--directories=recurse") && !(hasArg(s.Args, "-d") && hasArg(s.Args, "recurse")) {
			perFile = true
		}
	case "rg", "ag", "ack", "ack-grep", "ugrep", "ug":
	default:
		return nil, nil, false, false
	}
	printed = !s.hasFlag("lLcq", "--files-with-matches", "--files-without-match", "--count", "--quiet", "--files", "--count-matches")
	explicit := false
	args := s.Args[1:]
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		if name == "-e" || name == "--regexp" || name == "-f" || name == "--file" {
			explicit = true
		}
		if hasVal {
			if name == "--regexp" {
				pats = append(pats, val)
			}
			continue
		}
		if n == "rg" && a == "-E" {
			i++ // rg -E is --encoding
			continue
		}
		if grepValueOpts.get()[a] && i+1 < len(args) {
			if a == "-e" || a == "--regexp" {
				pats = append(pats, args[i+1])
			}
			i++
			continue
		}
		// A short cluster ending in a value option (-rie PAT) takes the next word too.
		if len(a) > 2 && a[1] != '-' && strings.HasSuffix(a, "e") && i+1 < len(args) {
			explicit = true
			pats = append(pats, args[i+1])
			i++
		}
	}
	if explicit {
		roots = pos
	} else if len(pos) > 0 {
		pats = append(pats, pos[0])
		roots = pos[1:]
	}
	// find's placeholder ("/{}", "~/{}.env") stands for any file below the root find walks.
	kept := roots[:0]
	for _, r := range roots {
		if strings.Contains(r, "{}") {
			kept = append(kept, path.Dir(r))
		} else if !perFile {
			kept = append(kept, r)
		}
	}
	if len(kept) == 0 && perFile {
		return nil, nil, false, false
	}
	return pats, kept, printed, true
}

// wholeTree reports a directory that holds every credential store of a user: the home
// directory itself, the directory of all homes, or /.
func (c *execCtx) wholeTree(arg string) bool {
	t := c.target(arg)
	if t.abs == "" {
		return false
	}
	switch p := path.Clean(t.abs); {
	case p == "/", p == c.scope.Home, p == "/home", p == "/Users", p == "/root":
		return true
	case c.homeDepth(p) == 0:
		return true
	case (strings.HasPrefix(p, "/home/") || strings.HasPrefix(p, "/Users/")) && strings.Count(p, "/") == 2:
		return true // another user's home
	}
	return false
}

// readsListedFiles reports a file list handed on to xargs running a command that reads each
// file (grep -rl … | xargs cat). xargs leaves only the command it runs, with no pipe edge, so
// any later xargs-run reader counts.
func readsListedFiles(c *execCtx, s *Segment) bool {
	after := false
	for _, o := range c.segs {
		if o == s {
			after = true
			continue
		}
		if after && strings.HasPrefix(strings.TrimSpace(o.Text), "xargs") && !nonReaders.get()[o.Name()] && o.Name() != "echo" {
			return true
		}
	}
	return false
}
