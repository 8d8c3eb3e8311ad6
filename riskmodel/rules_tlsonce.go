package riskmodel

import "strings"

// A one-off TLS-verification bypass — one command told to skip certificate checks — is asked
// about (docs/policy.md's ask list); switching verification off for everything that follows
// (git config http.sslVerify false, a package manager's strict-ssl off) is on the deny side
// and judged by vcs.config-insecure and pkg.insecure-config. curl -k and wget
// --no-check-certificate have net.insecure-tls; this rule covers the same one-off bypass in
// the other spellings: a CLI's flag, an environment variable set for one process, inline code.
// Sources: kubectl(1) global options (--insecure-skip-tls-verify), helm, oc, argocd
// (--insecure-skip-tls-verify), AWS CLI global options (--no-verify-ssl), podman/skopeo/buildah
// (--tls-verify=false), Node.js docs (NODE_TLS_REJECT_UNAUTHORIZED, tls rejectUnauthorized),
// git(1) GIT_SSL_NO_VERIFY, Python PEP 476 (PYTHONHTTPSVERIFY=0,
// ssl._create_unverified_context), requests docs (verify=False).

// tlsBypassFlag reports an argument that turns off certificate checks for this command.
func tlsBypassFlag(a string) bool {
	l := strings.ToLower(a)
	if !strings.HasPrefix(l, "-") {
		return false
	}
	name, val, hasVal := strings.Cut(l, "=")
	switch {
	case strings.HasSuffix(name, "insecure-skip-tls-verify"), strings.HasSuffix(name, "skip-tls-verify"), name == "--no-verify-ssl",
		name == "--insecure-skip-verify":
		return !hasVal || val == "true" || val == "1"
	case name == "--tls-verify", name == "--tlsverify", name == "--verify-ssl", name == "--ssl-verify":
		return hasVal && (val == "false" || val == "0")
	}
	return false
}

// tlsBypassEnv reports a variable assignment that turns off certificate checks for the
// programs it reaches.
func tlsBypassEnv(kv string) bool {
	k, v, _ := strings.Cut(kv, "=")
	switch k {
	case "NODE_TLS_REJECT_UNAUTHORIZED", "PYTHONHTTPSVERIFY":
		return v == "0"
	case "GIT_SSL_NO_VERIFY":
		return v != "" && v != "0" && v != "false"
	}
	return false
}

// tlsBypassCode are fragments of inline code that skip certificate checks for its requests.
var tlsBypassCode = []string{"verify=False", "verify = False", "rejectUnauthorized: false", "rejectUnauthorized:false",
	"_create_unverified_context", "CERT_NONE", "InsecureSkipVerify: true", "VERIFY_NONE", "verify_mode = OpenSSL::SSL::VERIFY_NONE"}

func tlsOnceRules() []*Rule {
	return []*Rule{{
		ID: "net.tls-bypass-once", Level: Medium, Category: CatSecurityWeakening,
		Message: "Skips TLS certificate checks for one command",
		exec: func(c *execCtx, s *Segment) (string, bool) {
			why := ""
			for _, a := range s.Args[min(1, len(s.Args)):] {
				if tlsBypassFlag(a) {
					why = "with " + a
					break
				}
			}
			if why == "" && !readOnly.get()[s.Name()] && !shellBuiltins.get()[s.Name()] {
				for _, kv := range requestAssigns(c, s) {
					if tlsBypassEnv(kv) {
						why = "with " + kv + " set for it"
						break
					}
				}
			}
			if why == "" && s.Code {
				code := strings.Join(s.Args, " ")
				for _, f := range tlsBypassCode {
					if strings.Contains(code, f) {
						why = "whose code turns certificate checks off (" + f + ")"
						break
					}
				}
			}
			if why == "" {
				return "", false
			}
			var hosts []string
			for _, u := range urls(s) {
				hosts = append(hosts, u.Hostname())
			}
			if s.CodeFacts != nil {
				hosts = append(hosts, s.CodeFacts.Hosts...)
			}
			if len(hosts) > 0 && c.allHostsLocal(hosts) {
				return "", false // this machine's own server with a self-signed certificate
			}
			return "Runs " + s.Name() + " " + why + ", so whoever sits between it and the server can read and change the traffic", true
		},
	}}
}
