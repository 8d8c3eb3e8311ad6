package riskmodel

import "strings"

// Every hosted-platform CLI has a verb that prints the signed-in user's token: it exists so
// that scripts can hand the token to another program (`aws ecr get-login-password | docker
// login --password-stdin …`, `curl -H "Authorization: Bearer $(gcloud auth print-access-token)"
// https://…googleapis.com/…`). Printed bare into the transcript it is a credential read with no
// use (docs/policy.md: reading credential stores without need, credential_access); handed to
// the vendor's own registry login or API it is the documented sign-in. cliTokenTable is that
// knowledge as data, one row per verb, with the domains the token is for, each from the CLI's
// own reference.

// cliToken is one token-printing verb of one CLI.
type cliToken struct {
	names []string // the CLI's names (fly and flyctl)
	// words are the subcommand words, matched against the segment's positional words in
	// order; "" matches nothing more (the verb itself is enough).
	words []string
	// flags: one of these must be present (oc whoami -t); none: the verb alone prints.
	flags []string
	// domains are the hosts (and their subdomains) the token is made for: the vendor's API
	// and its container registry.
	domains []string
	source  string
}

var cliTokenTable = table[[]cliToken]{build: func() []cliToken {
	aws := []string{"amazonaws.com", "aws.amazon.com", "amazonaws.com.cn"}
	gcp := []string{"googleapis.com", "run.app", "cloudfunctions.net", "appspot.com", "gcr.io", "pkg.dev"}
	azure := []string{"azure.com", "azure.net", "microsoft.com", "windows.net", "microsoftonline.com", "azurecr.io"}
	gh := []string{"github.com", "githubusercontent.com", "ghcr.io", "docker.pkg.github.com"}
	return []cliToken{
		{names: []string{"gh"}, words: []string{"auth", "token"}, domains: gh, source: "cli.github.com/manual/gh_auth_token"},
		{names: []string{"glab"}, words: []string{"auth", "token"}, domains: []string{"gitlab.com", "registry.gitlab.com"}, source: "gitlab.com/gitlab-org/cli docs/source/auth"},
		{names: []string{"fly", "flyctl"}, words: []string{"auth", "token"}, domains: []string{"fly.io", "registry.fly.io", "machines.dev"}, source: "fly.io/docs/flyctl/auth-token/"},
		{names: []string{"fly", "flyctl"}, words: []string{"tokens", "create"}, domains: []string{"fly.io", "registry.fly.io", "machines.dev"}, source: "fly.io/docs/flyctl/tokens-create/"},
		{names: []string{"doctl"}, words: []string{"auth", "token"}, domains: []string{"digitalocean.com", "registry.digitalocean.com"}, source: "docs.digitalocean.com/reference/doctl/reference/auth/token/"},
		{names: []string{"doctl"}, words: []string{"registry", "docker-config"}, domains: []string{"digitalocean.com", "registry.digitalocean.com"}, source: "docs.digitalocean.com/reference/doctl/reference/registry/docker-config/"},
		{names: []string{"heroku"}, words: []string{"auth:token"}, domains: []string{"heroku.com", "registry.heroku.com"}, source: "devcenter.heroku.com/articles/heroku-cli-commands#heroku-auth-token"},
		{names: []string{"gcloud"}, words: []string{"auth", "print-access-token"}, domains: gcp, source: "cloud.google.com/sdk/gcloud/reference/auth/print-access-token"},
		{names: []string{"gcloud"}, words: []string{"auth", "print-identity-token"}, domains: gcp, source: "cloud.google.com/sdk/gcloud/reference/auth/print-identity-token"},
		{names: []string{"gcloud"}, words: []string{"auth", "application-default", "print-access-token"}, domains: gcp, source: "cloud.google.com/sdk/gcloud/reference/auth/application-default/print-access-token"},
		{names: []string{"gcloud"}, words: []string{"config", "config-helper"}, domains: gcp, source: "cloud.google.com/sdk/gcloud/reference/config/config-helper (prints credential.access_token)"},
		{names: []string{"gcloud"}, words: []string{"sql", "generate-login-token"}, domains: gcp, source: "cloud.google.com/sdk/gcloud/reference/sql/generate-login-token"},
		{names: []string{"az"}, words: []string{"account", "get-access-token"}, domains: azure, source: "learn.microsoft.com/cli/azure/account#az-account-get-access-token"},
		{names: []string{"az"}, words: []string{"acr", "login"}, flags: []string{"--expose-token", "-t"}, domains: azure, source: "learn.microsoft.com/cli/azure/acr#az-acr-login (--expose-token)"},
		{names: []string{"az"}, words: []string{"acr", "credential", "show"}, domains: azure, source: "learn.microsoft.com/cli/azure/acr/credential#az-acr-credential-show"},
		{names: []string{"aws"}, words: []string{"ecr", "get-login-password"}, domains: aws, source: "docs.aws.amazon.com/cli/latest/reference/ecr/get-login-password.html"},
		{names: []string{"aws"}, words: []string{"ecr-public", "get-login-password"}, domains: []string{"public.ecr.aws", "amazonaws.com"}, source: "docs.aws.amazon.com/cli/latest/reference/ecr-public/get-login-password.html"},
		{names: []string{"aws"}, words: []string{"codeartifact", "get-authorization-token"}, domains: aws, source: "docs.aws.amazon.com/cli/latest/reference/codeartifact/get-authorization-token.html"},
		{names: []string{"aws"}, words: []string{"sts", "get-session-token"}, domains: aws, source: "docs.aws.amazon.com/cli/latest/reference/sts/get-session-token.html"},
		{names: []string{"aws"}, words: []string{"eks", "get-token"}, domains: aws, source: "docs.aws.amazon.com/cli/latest/reference/eks/get-token.html"},
		{names: []string{"aws"}, words: []string{"rds", "generate-db-auth-token"}, domains: aws, source: "docs.aws.amazon.com/cli/latest/reference/rds/generate-db-auth-token.html"},
		{names: []string{"aws"}, words: []string{"configure", "export-credentials"}, domains: aws, source: "docs.aws.amazon.com/cli/latest/reference/configure/export-credentials.html"},
		{names: []string{"aws"}, words: []string{"sso", "get-role-credentials"}, domains: aws, source: "docs.aws.amazon.com/cli/latest/reference/sso/get-role-credentials.html"},
		{names: []string{"oc"}, words: []string{"whoami"}, flags: []string{"-t", "--show-token"}, domains: []string{"openshift.com", "openshiftapps.com"}, source: "docs.openshift.com: oc whoami --show-token"},
		{names: []string{"databricks"}, words: []string{"auth", "token"}, domains: []string{"cloud.databricks.com", "azuredatabricks.net", "gcp.databricks.com"}, source: "docs.databricks.com/dev-tools/cli/auth-commands"},
		{names: []string{"cf"}, words: []string{"oauth-token"}, domains: nil, source: "cli.cloudfoundry.org/en-US/v8/oauth-token.html"},
		{names: []string{"ibmcloud"}, words: []string{"iam", "oauth-tokens"}, domains: []string{"cloud.ibm.com", "icr.io"}, source: "cloud.ibm.com/docs/cli?topic=cli-ibmcloud_commands_iam#ibmcloud_iam_oauth_tokens"},
		{names: []string{"firebase"}, words: []string{"login:ci"}, domains: []string{"googleapis.com", "firebaseio.com"}, source: "firebase.google.com/docs/cli#cli-ci-systems"},
		{names: []string{"npm"}, words: []string{"token", "create"}, domains: []string{"registry.npmjs.org", "npmjs.com"}, source: "docs.npmjs.com/cli/commands/npm-token"},
		{names: []string{"vault"}, words: []string{"print", "token"}, domains: nil, source: "developer.hashicorp.com/vault/docs/commands/print"},
		{names: []string{"docker-credential-desktop", "docker-credential-osxkeychain", "docker-credential-wincred", "docker-credential-pass",
			"docker-credential-secretservice", "docker-credential-ecr-login", "docker-credential-gcr", "docker-credential-gcloud", "docker-credential-acr-env"},
			words: []string{"get"}, domains: nil, source: "github.com/docker/docker-credential-helpers (get reads a server's secret from stdin's URL)"},
	}
}}

// cliTokenOf returns the row of cliTokenTable that s runs, nil when none.
func cliTokenOf(s *Segment) *cliToken {
	if len(s.Args) < 2 {
		return nil
	}
	n := s.Name()
	rows := cliTokenTable.get()
	for i := range rows {
		r := &rows[i]
		if !containsStr(r.names, n) {
			continue
		}
		ok := true
		for j, w := range r.words {
			if s.sub(j) != w {
				ok = false
				break
			}
		}
		if ok && (len(r.flags) == 0 || s.arg(r.flags...)) {
			return r
		}
	}
	return nil
}

// tokenDomain reports a host that one of the token's domains covers.
func (t *cliToken) tokenDomain(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, d := range t.domains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// registryLogins are the commands that sign in to a container or artifact registry reading
// the password from standard input (docs.docker.com: docker login --password-stdin; podman
// login, buildah login, skopeo login, nerdctl login; helm.sh: helm registry login; oras.land:
// oras login; crane auth login), keyed by name with the subcommand words before the host.
var registryLogins = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"docker": {"login"}, "podman": {"login"}, "buildah": {"login"}, "skopeo": {"login"}, "nerdctl": {"login"},
		"helm": {"registry", "login"}, "oras": {"login"}, "crane": {"auth", "login"}, "finch": {"login"},
	}
}}

// registryLoginHost returns the registry host a registry login signs in to ("docker.io" when
// none is named) and whether s is a registry login reading its password from stdin.
func registryLoginHost(s *Segment) (string, bool) {
	words, ok := registryLogins.get()[s.Name()]
	if !ok || !s.arg("--password-stdin") {
		return "", false
	}
	for i, w := range words {
		if s.sub(i) != w {
			return "", false
		}
	}
	host := s.sub(len(words), "-u", "--username", "-p", "--password", "--authfile", "--cert-dir", "--registry-config")
	if host == "" {
		return "docker.io", true
	}
	if h := hostOf(host); h != "" {
		return h, true
	}
	host, _, _ = strings.Cut(host, "/")
	return strings.ToLower(host), true
}

// tokenToOwnLogin reports a token printer whose only consumer is the vendor's own registry
// login reading it from stdin: `aws ecr get-login-password | docker login --username AWS
// --password-stdin 123.dkr.ecr.eu-west-1.amazonaws.com` is how AWS documents signing in.
func tokenToOwnLogin(c *execCtx, s *Segment) bool {
	t := cliTokenOf(s)
	if t == nil || len(t.domains) == 0 {
		return false
	}
	for _, r := range s.Redirs {
		if r.Writes() {
			return false
		}
	}
	fed := false
	for _, o := range c.segs {
		if o.PipeIn != s {
			continue
		}
		host, ok := registryLoginHost(o)
		if !ok || !t.tokenDomain(host) {
			return false
		}
		fed = true
	}
	return fed
}

// loginFedByOwnToken reports a registry login whose stdin is a token printer of the
// registry's own vendor (the other half of tokenToOwnLogin).
func loginFedByOwnToken(s *Segment) bool {
	host, ok := registryLoginHost(s)
	if !ok || s.PipeIn == nil {
		return false
	}
	t := cliTokenOf(s.PipeIn)
	return t != nil && t.tokenDomain(host)
}

// configSecretKeys are the words of a configuration key that holds a credential: npm's
// //registry/:_authToken and _auth, yarn's npmAuthToken, pip's password, git's
// http.<url>.extraheader (where actions/checkout keeps the job's GITHUB_TOKEN),
// composer's github-oauth, poetry's http-basic (each tool's config reference).
var configSecretKeys = []string{"authtoken", "_auth", "password", "token", "secret", "extraheader", "github-oauth", "gitlab-token", "http-basic", "bearer"}

// configSecretGet returns the key a config getter prints when the key holds a credential:
// npm|pnpm|yarn config get KEY, pip config get KEY, git config [--get|--get-all] KEY,
// composer config KEY, poetry config KEY. "" when s prints none.
func configSecretGet(s *Segment) string {
	var key string
	switch n := s.Name(); {
	case (n == "npm" || n == "pnpm" || n == "yarn" || n == "pip" || n == "pip3" || n == "bun") && s.sub(0) == "config" && s.sub(1) == "get":
		key = s.sub(2)
	case n == "git" && s.sub(0) == "config":
		// git config KEY (one word) gets it, as do --get, --get-all and `git config get KEY`.
		if s.arg("--unset", "--unset-all", "--add", "--replace-all", "--remove-section", "--rename-section", "--edit", "-e", "--list", "-l") {
			return ""
		}
		var pos []string
		for _, a := range s.Args[2:] {
			if !strings.HasPrefix(a, "-") {
				pos = append(pos, a)
			}
		}
		switch {
		case len(pos) > 1 && pos[0] == "get":
			key = pos[1]
		case len(pos) > 0 && s.arg("--get", "--get-all", "--get-regexp"), len(pos) == 1:
			key = pos[0]
		}
	case (n == "composer" || n == "poetry") && s.sub(0) == "config" && s.sub(1) != "" && s.sub(2) == "":
		key = s.sub(1)
	}
	l := strings.ToLower(key)
	if l == "" {
		return ""
	}
	for _, w := range configSecretKeys {
		if strings.Contains(l, w) {
			return key
		}
	}
	return ""
}

func r16TokenRules() []*Rule {
	return []*Rule{
		{
			ID: "cred.cli-token", Level: High, Category: CatCredentialAccess,
			CertainWhen: "the token is printed into the transcript with no reason stated that names it",
			Message:     "Prints the signed-in user's access token of a platform CLI",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if k := configSecretGet(s); k != "" {
					if printedToTranscript(c, s) && !reasonRelates(c.req.Justification, s.Args) {
						c.certainty = certaintySure
					}
					return "Prints the credential stored under " + k + " in " + s.Name() + "'s configuration", true
				}
				t := cliTokenOf(s)
				if t == nil || tokenToOwnLogin(c, s) || tokenUsedByOwnVendor(c, s) {
					return "", false
				}
				if _, ok := secretCommand(s); ok {
					return "", false // cred.secret-store's finding
				}
				if printedToTranscript(c, s) && !reasonRelates(c.req.Justification, s.Args) {
					c.certainty = certaintySure
				}
				return "Prints the access token of " + s.Name() + " (" + strings.Join(t.words, " ") + "), a credential of the signed-in user", true
			},
		},
		{
			ID: "cred.vendor-login", Baseline: true, Level: Low, Category: CatNone,
			Message: "Signs in to a registry with a token its own vendor's CLI printed",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if tokenToOwnLogin(c, s) {
					return "Prints the token of " + s.Name() + " for its own registry's login, which reads it from stdin", true
				}
				if !loginFedByOwnToken(s) {
					return "", false
				}
				return "Signs in to " + func() string { h, _ := registryLoginHost(s); return h }() + " with the token " + s.PipeIn.Name() + " printed for it", true
			},
		},
	}
}
