package riskmodel

// Service knowledge for MCP calls: what a Kubernetes, GitHub/GitLab, mail/chat or browser call
// does, judged by its effect (docs/policy.md) rather than by its read/write verb. A list of
// Secrets is a "read", yet it is credential access; making a repository public is an "update",
// yet it publishes source; an email with a customer export attached is a "send", yet to a
// personal webmail address it is exfiltration. The knowledge lives in the tables below; the
// rules at the end of the file only combine it with the facts mcpCtx collected.
//
// Sources for the tool shapes modelled here:
//   - containers/kubernetes-mcp-server (resources_list, resources_get, resources_create_or_update,
//     resources_delete, pods_*) and Flux159/mcp-server-kubernetes (kubectl_get, kubectl_describe,
//     kubectl_delete, kubectl_apply, kubectl_create with resourceType/name/namespace/output/
//     allNamespaces/manifest);
//   - github/github-mcp-server (create_repository {private}, fork_repository {organization},
//     push_files, delete_file …) and the GitLab MCP servers (visibility, access_level);
//   - GongRzhe/Gmail-MCP-Server send_email {to, cc, bcc, attachments}, Slack and Outlook servers;
//   - microsoft/playwright-mcp (browser_navigate {url}, browser_evaluate {function}, browser_type),
//     puppeteer (puppeteer_navigate, puppeteer_evaluate {script}), chrome-devtools-mcp.

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// mcpSoftDestroyVerbs are destructive-sounding verbs of unknown tools that end, revoke or lose
// something without necessarily deleting a container: they are rated like delete
// (mcp.destroy-verb, high) but do not make a "delete the whole repository" of archive_repository.
var mcpSoftDestroyVerbs = wordSet{words: `void cancel archive rotate disable evict invalidate expire obliterate scrub zap
	clobber discard retire shutdown deregister unregister decommission deactivate unprotect`}

// mcpHardDestroyVerbs are verbs added to the destroy class that name outright destruction.
var mcpHardDestroyVerbs = wordSet{words: `obliterate scrub zap clobber discard annihilate`}

// mcpKubeWords mark a Kubernetes server or tool.
var mcpKubeWords = wordSet{words: `kubernetes k8s kubectl kube openshift oc eks gke aks`}

// mcpKubeKindKeys hold the resource kind of a Kubernetes call.
var mcpKubeKindKeys = []string{"kind", "resourcetype", "resourcekind", "resource", "type", "resources"}

// mcpKubeMetaOutputs are output formats that show no Secret data (kubectl get -o name/wide).
var mcpKubeMetaOutputs = wordSet{words: `name wide table`}

// mcpKubeManifestRisk finds pod specs that escape the container: host namespaces, privileged
// mode, added kernel capabilities (manifests as YAML or JSON text).
var mcpKubeManifestRisk = lazyRegexp(`(?i)["']?\b(hostPID|hostNetwork|hostIPC|privileged|allowPrivilegeEscalation)["']?\s*[:=]\s*["']?true\b|\badd\s*:\s*\[?\s*["']?(SYS_ADMIN|ALL|SYS_PTRACE|SYS_MODULE)\b`)

// mcpHostPathRe finds the path of a hostPath volume ("hostPath:\n  path: /").
var mcpHostPathRe = lazyRegexp(`(?is)hostPath["']?\s*:\s*\{?\s*(?:type\s*:\s*\S+\s*)?["']?path["']?\s*:\s*["']?(/[^\s"',}]*)`)

// mcpSensitiveHostPaths are host paths whose mount hands the container the host.
var mcpSensitiveHostPaths = wordSet{words: `/ /etc /root /home /proc /sys /dev /boot /var/run/docker.sock /run/docker.sock
	/var/run /run /var/lib/kubelet /run/containerd/containerd.sock /var/run/containerd/containerd.sock /var/lib/docker`}

// mcpForgeWords mark a code-hosting server.
var mcpForgeWords = wordSet{words: `github gitlab bitbucket gitea forgejo codeberg gh`}

// mcpAdminPermissions are collaborator permissions that hand over the repository.
var mcpAdminPermissions = wordSet{words: `admin administrator owner 50`}
var mcpMaintainPermissions = wordSet{words: `maintain maintainer 40`}

// mcpWebmailDomains are personal mailbox providers: never the project's own domain.
var mcpWebmailDomains = wordSet{words: `gmail.com googlemail.com outlook.com hotmail.com hotmail.co.uk live.com msn.com
	yahoo.com yahoo.co.uk ymail.com icloud.com me.com mac.com aol.com proton.me protonmail.com protonmail.ch pm.me
	gmx.com gmx.de gmx.net web.de mail.com yandex.ru yandex.com mail.ru zoho.com tutanota.com tuta.io tutamail.com
	fastmail.com hey.com qq.com 163.com 126.com inbox.com hushmail.com mailfence.com`}

// mcpRecipientKeys hold the recipients of a message; mcpSenderKeys its sender.
var mcpRecipientKeys = wordSet{words: `to cc bcc recipient recipients torecipients ccrecipients bccrecipients toaddress
	toaddresses emails email sendto`}
var mcpSenderKeys = wordSet{words: `from sender fromaddress fromemail`}

var mcpEmailRe = lazyRegexp(`(?i)[a-z0-9._%+\-]+@([a-z0-9\-]+(?:\.[a-z0-9\-]+)+)`)

// mcpDataFileRe recognises file names of customer data, exports, dumps, credentials and source
// (base name, lower-case).
var mcpDataFileRe = []struct {
	re   func() *regexp.Regexp
	what string
}{
	{lazyRegexp(`(^|[^a-z])(customers?|clients?|users?|members?|patients?|employees?|contacts?|subscribers?|accounts?|leads?|orders?|payroll|salar(y|ies)|crm|pii|gdpr|ssn)([^a-z]|$)`), "customer data"},
	{lazyRegexp(`(^|[^a-z])(export|exports|dump|dumps|backup|backups|bak|snapshot|leak)([^a-z]|$)|\.(sql|dump|bak|db|sqlite3?|mdb|parquet|jsonl|ndjson|csv|tsv|xlsx?)(\.gz|\.zip|\.bz2|\.xz)?$`), "a data export or dump"},
	{lazyRegexp(`(^|/)\.env(\.|$)|\.(pem|key|p12|pfx|kdbx|ovpn)$|id_(rsa|ed25519|ecdsa|dsa)$|credentials|secrets?\.|kubeconfig|\.npmrc|\.pgpass|\.netrc`), "credentials"},
	{lazyRegexp(`(^|[^a-z])(src|source|sources|repo|repository|codebase|monorepo)([^a-z]|$).*\.(zip|tar|tgz|gz|bz2|xz|7z|bundle)$|\.bundle$|\.(go|py|ts|tsx|js|jsx|java|kt|rb|rs|c|cc|cpp|h|cs|swift|php|scala)$`), "source code"},
}

// mcpURLSecretKeys are query keys whose values are secrets when sent to another host.
var mcpURLSecretKeys = lazyRegexp(`(?i)(^|[_\-.])(aws|token|tok|secret|secrets|key|apikey|api_key|access_key|password|passwd|pwd|pass|session|sess|sid|cookie|cookies|auth|credential|credentials|creds|jwt|bearer|private|ssh)([_\-.]|$)|^(k|c|d|data|exfil|leak|loot)$`)

// mcpURLDestroySegments are last path segments of a URL whose GET performs an action.
var mcpURLDestroySegments = wordSet{words: `delete remove destroy cancel void refund purge wipe reset revoke terminate
	uninstall unsubscribe deactivate close-account erase`}

// mcpJSObfuscatedURL finds URLs a script builds at run time: protocol-relative strings,
// atob/fromCharCode/unescape decoding, concatenated scheme parts.
var mcpJSObfuscatedURL = lazyRegexp(`(?i)["'\x60]//[a-z0-9\-]+(\.[a-z0-9\-]+)+|\batob\s*\(|fromCharCode|\bunescape\s*\(|decodeURIComponent\s*\(\s*["'\x60]%|["'\x60]\s*\+\s*["'\x60]|["'\x60]h["'\x60]?\s*\+|\.join\s*\(\s*["'\x60]{2}\s*\)|\.reverse\s*\(\s*\)`)

func (c *mcpCtx) kube() bool {
	return mcpAnyWord(c.serverWords, mcpKubeWords.get()) || mcpAnyWord(c.toolWords, mcpKubeWords.get())
}

func (c *mcpCtx) forge() bool {
	return mcpAnyWord(c.serverWords, mcpForgeWords.get())
}

// kubeKindWords returns the words of the resource kind(s) a Kubernetes call names.
func (c *mcpCtx) kubeKindWords() []string {
	var out []string
	for _, k := range mcpKubeKindKeys {
		if a, ok := c.top(k); ok && len(a.val) < 200 && !strings.Contains(a.val, "\n") {
			out = append(out, mcpSplitWords(a.val)...)
		}
	}
	return append(out, c.objWords...)
}

// kubeSecretRead reports a Kubernetes call that returns Secret objects with their data, and
// why it counts as bulk ("" when one named Secret in a non-production context).
func (c *mcpCtx) kubeSecretRead() (hit bool, bulk string) {
	if !c.kube() || c.shell != nil || c.act > mcpActRead || mcpContains(c.actWords, "describe") || mcpContains(c.actWords, "explain") {
		return false, ""
	}
	if !mcpAnyWord(c.kubeKindWords(), mcpWordSet("secret secrets")) || c.kubeSummaryList() {
		return false, ""
	}
	out := ""
	if a, ok := c.top("output", "o", "format"); ok {
		o := strings.ToLower(strings.TrimSpace(a.val))
		if mcpKubeMetaOutputs.has(o) {
			return false, ""
		}
		if o == "yaml" || o == "json" || strings.Contains(o, ".data") || strings.Contains(o, "data.") {
			out = "as " + o
		}
	}
	name, _ := c.top("name", "secretname", "resourcename")
	switch {
	case c.truthy("allnamespaces") || c.truthy("all") || c.truthy("a"):
		return true, "across all namespaces"
	case mcpAnyWord(c.actWords, mcpWordSet("list ls")) || strings.TrimSpace(name.val) == "":
		return true, "every Secret in scope, with its data"
	case out != "":
		return true, out
	case c.prodHint != "":
		return true, "in production (" + c.prodHint + ")"
	}
	return true, ""
}

// kubeBulkDelete reports a Kubernetes delete of everything of a kind (--all, all namespaces,
// no name and no selector).
func (c *mcpCtx) kubeBulkDelete() string {
	if !c.kube() || c.act != mcpActDestroy || c.shell != nil {
		return ""
	}
	switch {
	case c.truthy("all"):
		return "--all"
	case c.truthy("allnamespaces"):
		return "in all namespaces"
	}
	if _, ok := c.top("name", "names", "resourcename"); ok {
		return ""
	}
	if _, ok := c.top("labelselector", "selector", "l", "fieldselector"); ok {
		return ""
	}
	for _, a := range c.args {
		if a.depth == 2 && (a.nkey == "names" || a.nkey == "name") {
			return ""
		}
	}
	if len(c.kubeKindWords()) > 0 {
		return "every object of the kind (no name or selector)"
	}
	return ""
}

// privilegedWorkload finds a container or pod spec that escapes to the host.
func (c *mcpCtx) privilegedWorkload() string {
	container := c.kube() || mcpAnyWord(append(append([]string{}, c.serverWords...), c.toolWords...),
		mcpWordSet("docker podman container containers pod pods compose nerdctl"))
	if !container || c.act < mcpActWrite && c.act != mcpActUnknown {
		return ""
	}
	for _, a := range c.args {
		switch {
		case !a.str && a.val == "true" && mcpWordSet("privileged hostpid hostnetwork hostipc")[a.nkey]:
			return a.key + ": true"
		case a.str && mcpWordSet("networkmode pidmode ipcmode network pid ipc")[a.nkey] && strings.EqualFold(a.val, "host"):
			return a.key + "=host"
		case a.str && len(a.val) > 10:
			t := mcpClip(a.val, 256<<10)
			if m := mcpKubeManifestRisk().FindString(t); m != "" {
				return strings.TrimSpace(m)
			}
			for _, m := range mcpHostPathRe().FindAllStringSubmatch(t, 8) {
				if p := path.Clean(m[1]); mcpSensitiveHostPaths.has(p) {
					return "hostPath " + p
				}
			}
		}
	}
	return c.hostMount()
}

// hostMount finds a volume that binds a sensitive host path (docker volumes/binds/mounts).
func (c *mcpCtx) hostMount() string {
	var walk func(key string, v any, depth int) string
	check := func(src string) string {
		src = strings.TrimSpace(src)
		if i := strings.Index(src, ":"); i > 0 {
			src = src[:i]
		}
		if strings.HasPrefix(src, "/") && mcpSensitiveHostPaths.has(path.Clean(src)) {
			return "mounts the host's " + path.Clean(src)
		}
		return ""
	}
	walk = func(key string, v any, depth int) string {
		if depth > 6 {
			return ""
		}
		vol := mcpWordSet("volumes volume binds bind mounts mount hostconfig")[mcpNormKey(key)]
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if vol {
					if r := check(k); r != "" {
						return r
					}
				}
				if nk := mcpNormKey(k); vol && mcpWordSet("source src hostpath host")[nk] {
					if s, ok := e.(string); ok {
						if r := check(s); r != "" {
							return r
						}
					}
				}
				if r := walk(k, e, depth+1); r != "" {
					return r
				}
			}
		case []any:
			for _, e := range x {
				if s, ok := e.(string); ok && vol {
					if r := check(s); r != "" {
						return r
					}
				}
				if r := walk(key, e, depth+1); r != "" {
					return r
				}
			}
		case string:
			if vol {
				return check(x)
			}
		}
		return ""
	}
	if c.req.Arguments == nil {
		return ""
	}
	return walk("", map[string]any(c.req.Arguments), 0)
}

// forgeEscalation names a change that publishes a repository or hands it over, and whether
// it is certain: visibility made public, a fork into another owner, an admin collaborator.
func (c *mcpCtx) forgeEscalation() (string, bool) {
	if !c.forge() || c.act < mcpActWrite {
		return "", false
	}
	creating := mcpContains(c.actWords, "create") || mcpContains(c.actWords, "new")
	for _, a := range c.args {
		if a.depth != 1 {
			continue
		}
		switch {
		case a.nkey == "private" && a.val == "false", a.nkey == "visibility" && strings.EqualFold(strings.TrimSpace(a.val), "public"),
			a.nkey == "public" && a.val == "true":
			if creating {
				return "creates a public repository", false // an empty new repository publishes nothing yet
			}
			return "makes the repository public, publishing its source", true
		}
	}
	if mcpContains(c.actWords, "fork") {
		owner, _ := c.top("owner", "namespace")
		for _, k := range []string{"organization", "org", "targetowner", "targetnamespace", "namespace", "destination", "owner"} {
			if k == "owner" || k == "namespace" && owner.nkey == "namespace" {
				continue
			}
			if t, ok := c.top(k); ok && strings.TrimSpace(t.val) != "" && !strings.EqualFold(t.val, owner.val) {
				// An unofficial fork is the policy's ask row; one into an owner named as a copy
				// (a mirror, a backup) is the source carried off (mcp_r10_asks.go).
				return fmt.Sprintf("forks the repository into %s, another owner", mcpCleanText(t.val, 40)), forkOwnerNamedAsCopy(t.val, owner.val, c.topValue("repo", "repository", "name"))
			}
		}
	}
	if mcpAnyWord(c.actWords, mcpWordSet("collaborator collaborators member members permission permissions team teams access role roles")) {
		for _, k := range []string{"permission", "role", "accesslevel", "access", "permissions"} {
			for _, a := range c.args {
				if a.nkey != k || a.depth > 2 {
					continue
				}
				v := strings.ToLower(strings.TrimSpace(a.val))
				if mcpAdminPermissions.has(v) {
					return fmt.Sprintf("grants %s permission on the repository", mcpCleanText(a.val, 20)), true
				}
				if mcpMaintainPermissions.has(v) {
					return fmt.Sprintf("grants %s permission on the repository", mcpCleanText(a.val, 20)), false
				}
			}
		}
	}
	return "", false
}

// forgeProtectionOff reports a call that deletes or disables branch protection or rulesets.
func (c *mcpCtx) forgeProtectionOff() bool {
	if !c.forge() || c.act < mcpActWrite {
		return false
	}
	prot := mcpAnyWord(c.actWords, mcpWordSet("protection protections ruleset rulesets rule rules protected unprotect"))
	if !prot {
		return false
	}
	if c.act == mcpActDestroy || mcpAnyWord(c.actWords, mcpWordSet("disable remove unprotect")) {
		return true
	}
	for _, a := range c.args {
		if a.depth == 1 && (a.nkey == "enforcement" && strings.EqualFold(a.val, "disabled") || a.nkey == "enabled" && a.val == "false") {
			return true
		}
	}
	return false
}

// messageDataExfil finds a message that carries customer data, an export, a dump, credentials
// or source to a recipient outside the sender's organisation (a personal webmail domain, or a
// domain other than the sender's). With no sender named, a recipient whose domain the user
// has not configured as trusted is not known to be the team's: source code or credentials
// sent there are certain (no coding task mails them to a person; the project's code host is
// how code is shared), customer data and exports are asked about (sure is false).
func (c *mcpCtx) messageDataExfil() (why string, sure bool) {
	if !c.sends || c.httpSend || c.browser {
		return "", false
	}
	senderDomain := ""
	var external []string
	known := false // some recipient is outside for certain: a webmail domain, or not the sender's
	for _, a := range c.args {
		if !a.str {
			continue
		}
		if mcpSenderKeys.has(a.nkey) && a.depth <= 3 {
			if m := mcpEmailRe().FindStringSubmatch(a.val); m != nil {
				senderDomain = strings.ToLower(m[1])
			}
		}
	}
	for _, a := range c.args {
		if !a.str || !(mcpRecipientKeys.has(a.nkey) || a.nkey == "address" && strings.Contains(strings.ToLower(a.path), "recipient")) {
			continue
		}
		for _, m := range mcpEmailRe().FindAllStringSubmatch(mcpClip(a.val, 4096), 32) {
			d := strings.ToLower(m[1])
			switch {
			case mcpWebmailDomains.has(d) || senderDomain != "" && d != senderDomain && !strings.HasSuffix(d, "."+senderDomain):
				external, known = append(external, m[0]), true
			case senderDomain == "" && !c.trustedHost(d):
				// docs/policy.md: data to any host that is not the project's own.
				external = append(external, m[0])
			}
		}
	}
	if len(external) == 0 {
		return "", false
	}
	what, file := "", ""
	for _, a := range c.args {
		if !a.str || len(a.val) > 4096 {
			continue
		}
		p := strings.ToLower(a.path)
		if !(strings.Contains(p, "attach") || mcpWordSet("file files filename filepath path paths")[a.nkey]) {
			continue
		}
		base := strings.ToLower(path.Base(strings.TrimSpace(a.val)))
		for _, d := range mcpDataFileRe {
			if d.re().MatchString(base) || d.what == "credentials" && d.re().MatchString(strings.ToLower(a.val)) {
				what, file = d.what, path.Base(strings.TrimSpace(a.val))
				break
			}
		}
		if what == "" {
			if src := c.sourceArchive(a.val); src != "" { // mcp_r12_message.go
				what, file = "source code", src+": "+path.Base(strings.TrimSpace(a.val))
			}
		}
		if what != "" {
			break
		}
	}
	if what == "" {
		// A body that is itself a table of people: three or more e-mail addresses on lines
		// with separators.
		for _, a := range c.args {
			if a.str && mcpBodyKeys.has(a.nkey) && len(mcpEmailRe().FindAllString(mcpClip(a.val, 64<<10), 4)) >= 3 &&
				strings.Count(a.val, "\n") >= 2 && strings.ContainsAny(a.val, ",;\t|") {
				what, file = "customer data", "the message body"
				break
			}
		}
	}
	if what == "" {
		for _, a := range c.args {
			if a.str && mcpBodyKeys.has(a.nkey) && looksLikeSourceCode(mcpClip(a.val, 64<<10)) {
				what, file = "source code", "the message body"
				break
			}
		}
	}
	if what == "" {
		return "", false
	}
	where := "outside the sender's organisation"
	if !known {
		where = "an address whose domain is not known to be the team's own"
	}
	sure = known || what == "source code" || what == "credentials"
	return fmt.Sprintf("which sends %s (%s) to %s, %s", what, mcpCleanText(file, 60), mcpCleanText(external[0], 60), where), sure
}

// browserURL is a destination of a browser call, protocol-relative ones included.
type browserURL struct {
	raw  string
	host string
	u    *url.URL
}

// browserURLs lists the non-local, untrusted destinations of a browser or fetch call.
func (c *mcpCtx) browserURLs() []browserURL {
	var out []browserURL
	for _, a := range c.args {
		if !a.str || !mcpUrlKeys.has(a.nkey) {
			continue
		}
		raw := strings.TrimSpace(a.val)
		s := raw
		if strings.HasPrefix(s, "//") {
			s = "https:" + s
		}
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			continue
		}
		h := strings.ToLower(u.Hostname())
		if isLocalHost(h) || c.trustedHost(h) {
			continue
		}
		out = append(out, browserURL{raw: raw, host: h, u: u})
	}
	return out
}

// urlSecret finds a secret carried by a URL: a key-shaped value anywhere in it once decoded, or
// a query value under a secret-sounding key. certain is false for short values under such keys.
func urlSecret(u *url.URL) (what string, certain bool) {
	dec, err := url.PathUnescape(u.RawPath + u.Path)
	if err != nil {
		dec = u.Path
	}
	if ms := FindSecrets(dec); len(ms) > 0 {
		return ms[0].Kind + " in the path", true
	}
	for k, vs := range u.Query() {
		for _, v := range vs {
			if ms := FindSecrets(v); len(ms) > 0 {
				return ms[0].Kind + " in ?" + k, true
			}
			if d, ok := decodeB64(v); ok && len(v) >= 12 && mostlyPrintable(d) && (len(FindSecrets(d)) > 0 || looksLikeCredentialBlob(d)) {
				return "encoded credentials in ?" + k, true
			}
			if !mcpURLSecretKeys().MatchString(k) || secIsPlaceholder(v) || len(v) < 4 {
				continue
			}
			if len(v) >= 12 || looksLikeCredentialBlob(k+"="+v) {
				return "a " + k + " value in the query", true
			}
			return "a " + k + " value in the query", false
		}
	}
	if u.Fragment != "" {
		if ms := FindSecrets(u.Fragment); len(ms) > 0 {
			return ms[0].Kind + " in the fragment", true
		}
	}
	return "", false
}

func (c *mcpCtx) browserish() bool {
	return c.browser || mcpAnyWord(c.serverWords, mcpWordSet("devtools chrome cdp"))
}

// ---------------------------------------------------------------------------------------------
// Rules.

func mcpServiceRules() []*Rule {
	return []*Rule{
		{ID: "mcp.k8s-secret-read", Kind: KindMCP, Level: High, Category: CatCredentialAccess,
			CertainWhen: "the read is bulk (a list, no name, all namespaces), or one Secret's data is read (-o yaml/json, a production context) with no reason stated that names it",
			Message:     "Reads Kubernetes Secret objects, whose data are credentials",
			mcp: func(c *mcpCtx) (string, bool) {
				hit, bulk := c.kubeSecretRead()
				if !hit {
					return "", false
				}
				if bulk != "" && (c.kubeSecretListed() || !reasonRelates(mcpStatedReason(c.req.Message), c.argValues())) {
					c.certainty = certaintySure // policy: Kubernetes secrets, bulk secret dumps
					return fmt.Sprintf("%s, which reads Kubernetes Secrets %s into the agent's context: their data are credentials", c.call(), bulk), true
				}
				return fmt.Sprintf("%s, which reads a Kubernetes Secret's data (credentials) into the agent's context%s", c.call(), c.prodSuffix()), true
			}},
		{ID: "mcp.k8s-bulk-delete", Kind: KindMCP, Level: High, Category: CatFinancialOrProduction,
			Message: "Deletes every Kubernetes object of a kind (--all, all namespaces, no name)",
			mcp: func(c *mcpCtx) (string, bool) {
				if why := c.kubeBulkDelete(); why != "" {
					return fmt.Sprintf("%s, which deletes %s %s", c.call(), c.object("objects"), why), true
				}
				return "", false
			}},
		{ID: "mcp.privileged-workload", Kind: KindMCP, Level: High, Category: CatPrivilegeEscalation,
			Message: "Starts a privileged pod or container, or one that shares the host's namespaces or filesystem",
			mcp: func(c *mcpCtx) (string, bool) {
				if why := c.privilegedWorkload(); why != "" {
					return fmt.Sprintf("%s, which starts a workload with %s: it can take over the host", c.call(), mcpCleanText(why, 60)), true
				}
				return "", false
			}},
		{ID: "mcp.repo-exposure", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "an existing repository is made public, forked to an owner named as a copy (a mirror, a backup) or after the repository, or given an admin",
			Message:     "Publishes a repository or hands it to someone else (public visibility, fork to another owner, admin access)",
			mcp: func(c *mcpCtx) (string, bool) {
				why, sure := c.forgeEscalation()
				if why == "" {
					return "", false
				}
				if sure {
					c.certainty = certaintySure // policy: source code to a host or owner that is not the project's own
				}
				return fmt.Sprintf("%s, which %s", c.call(), why), true
			}},
		{ID: "mcp.branch-protection-off", Kind: KindMCP, Level: High, Category: CatSecurityWeakening,
			Message: "Deletes or disables branch protection or a repository ruleset",
			mcp: func(c *mcpCtx) (string, bool) {
				if c.forgeProtectionOff() {
					return fmt.Sprintf("%s, which removes branch protection or a ruleset: the review gate a shared branch relies on", c.call()), true
				}
				return "", false
			}},
		{ID: "mcp.message-data-exfil", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the recipient is outside for certain (webmail, not the sender's domain), or the data is source code or credentials",
			Message:     "Sends customer data, an export, a dump, credentials or source to an outside recipient",
			mcp: func(c *mcpCtx) (string, bool) {
				if why, sure := c.messageDataExfil(); why != "" {
					if sure {
						c.certainty = certaintySure
					}
					return fmt.Sprintf("%s, %s", c.call(), why), true
				}
				return "", false
			}},
		{ID: "mcp.browser-url-secret", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the value is key-shaped, long, or decodes to credentials",
			Message:     "Opens a URL that carries a secret to another host",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.browserish() || len(c.secrets) > 0 && c.sends {
					return "", false // mcp.secret-exfil
				}
				for _, u := range c.browserURLs() {
					if what, sure := urlSecret(u.u); what != "" {
						if sure {
							c.certainty = certaintySure
						}
						return fmt.Sprintf("%s, which opens a URL carrying %s to %s", c.call(), what, mcpCleanText(u.host, 60)), true
					}
				}
				return "", false
			}},
		{ID: "mcp.browser-script-hidden-dest", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			CertainWhen: "the script also reads cookies, storage or tokens",
			Message:     "Runs a browser script that sends data to a URL it hides (protocol-relative, decoded or concatenated)",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.browserish() {
					return "", false
				}
				for _, a := range c.args {
					if !a.str || !mcpScriptKeys.has(a.nkey) {
						continue
					}
					js := mcpClip(a.val, 64<<10)
					if !mcpReNetCall().MatchString(js) || !mcpJSObfuscatedURL().MatchString(js) {
						continue
					}
					if mcpReSensitiveJS().MatchString(js) {
						c.certainty = certaintySure
						return fmt.Sprintf("%s, whose script sends %s to a URL it builds at run time", c.call(), strings.ToLower(mcpReSensitiveJS().FindString(js))), true
					}
					return fmt.Sprintf("%s, whose script makes requests to a URL it builds at run time", c.call()), true
				}
				return "", false
			}},
		{ID: "mcp.browser-secret-typed", Kind: KindMCP, Level: High, Category: CatDataExfiltration,
			Message: "Types a key or token (not a login password) into a web page",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.browserish() || len(c.secrets) == 0 || !mcpAnyWord(c.toolWords, mcpWordSet("type fill insert paste press")) || c.passwordEntry() != "" {
					return "", false
				}
				for _, s := range c.secrets {
					if !strings.Contains(strings.ToLower(s.kind), "password") {
						return fmt.Sprintf("%s, which types %s into the page: the site receives it", c.call(), s.kind), true
					}
				}
				return "", false
			}},
		{ID: "mcp.browser-action-url", Kind: KindMCP, Level: High, Category: CatDataDeletion,
			Message: "Opens a URL whose path performs a destructive action (…/cancel, …/delete)",
			mcp: func(c *mcpCtx) (string, bool) {
				if !c.browserish() || c.act > mcpActRead {
					return "", false
				}
				for _, u := range c.browserURLs() {
					segs := strings.Split(strings.Trim(u.u.Path, "/"), "/")
					if last := strings.ToLower(segs[len(segs)-1]); mcpURLDestroySegments.has(last) && len(segs) > 1 {
						return fmt.Sprintf("%s, which opens %s: visiting it may %s something in a logged-in session", c.call(), mcpCleanText(u.raw, 100), last), true
					}
				}
				return "", false
			}},
	}
}
