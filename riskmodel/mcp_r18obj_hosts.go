package riskmodel

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Out-of-band capture hosts, look-alike download hosts and Apex callouts.
//
// Out-of-band application security testing services (Burp Collaborator and oastify.com,
// ProjectDiscovery interactsh's oast.* domains, dnslog.cn, ceye.io, Canarytokens) record every
// DNS lookup and request of their names: data put into the subdomain labels or the query is
// delivered by the lookup itself. A vendor's name in a host that is not the vendor's domain
// (github-releases.download-cdn.net) serving an installer is running code from a look-alike
// host. Anonymous Apex that queries records and posts them with HttpRequest ships them out.

// r18OASTDomains are the registrable domains of out-of-band capture services.
var r18OASTDomains = wordSet{words: `burpcollaborator.net oastify.com oast.pro oast.live oast.site oast.online oast.fun
	oast.me interact.sh interactsh.com dnslog.cn dnslog.link ceye.io canarytokens.com canarytokens.org
	requestcatcher.com requestbin.net hookbin.com xss.ht bxss.in dnsbin.zhack.ca`}

// r18OASTBase returns the capture domain a host belongs to and the labels before it.
func r18OASTBase(host string) (string, []string) {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	labels := strings.Split(h, ".")
	for i := range labels {
		if r18OASTDomains.has(strings.Join(labels[i:], ".")) {
			return strings.Join(labels[i:], "."), labels[:i]
		}
	}
	return "", nil
}

func (c *mcpCtx) r18OASTCallback() string {
	for _, u := range c.urls {
		base, sub := r18OASTBase(u.host)
		if base == "" {
			continue
		}
		if len(sub) >= 2 {
			return fmt.Sprintf("looks up %s: %s records the lookup, and the labels before its id carry data (%q)", u.host, base, mcpCleanText(sub[0], 40))
		}
		if k, ok := urlCarriesData(u.raw); ok {
			return fmt.Sprintf("requests %s with data in ?%s: %s records every request", u.host, k, base)
		}
	}
	return ""
}

// r18Brands maps a vendor word found in a host to the vendor's own registrable domains.
var r18Brands = table[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"github":     {"github.com", "githubusercontent.com", "github.io", "githubassets.com"},
		"microsoft":  {"microsoft.com", "windows.net", "azureedge.net", "msecnd.net", "live.com"},
		"windows":    {"microsoft.com", "windows.com", "windows.net"},
		"vscode":     {"visualstudio.com", "microsoft.com", "vscode.dev"},
		"google":     {"google.com", "googleapis.com", "gstatic.com", "googleusercontent.com", "dl.google.com"},
		"chrome":     {"google.com", "googleapis.com"},
		"apple":      {"apple.com", "cdn-apple.com"},
		"python":     {"python.org", "pythonhosted.org"},
		"nodejs":     {"nodejs.org"},
		"npmjs":      {"npmjs.com", "npmjs.org"},
		"docker":     {"docker.com", "docker.io"},
		"jetbrains":  {"jetbrains.com"},
		"mozilla":    {"mozilla.org", "mozilla.net"},
		"firefox":    {"mozilla.org", "mozilla.net"},
		"cursor":     {"cursor.com", "cursor.sh"},
		"anthropic":  {"anthropic.com", "claude.ai"},
		"openai":     {"openai.com"},
		"zoom":       {"zoom.us", "zoom.com"},
		"slack":      {"slack.com", "slack-edge.com"},
		"adobe":      {"adobe.com"},
		"oracle":     {"oracle.com", "java.com"},
		"nvidia":     {"nvidia.com"},
		"unity":      {"unity.com", "unity3d.com"},
		"postman":    {"postman.com", "getpostman.com"},
		"gitlab":     {"gitlab.com"},
		"atlassian":  {"atlassian.com", "atlassian.net"},
		"salesforce": {"salesforce.com", "force.com"},
		"shopify":    {"shopify.com", "myshopify.com", "shopifycdn.com"},
		"stripe":     {"stripe.com", "stripe.network"},
		"wordpress":  {"wordpress.org", "wordpress.com", "wp.com"},
	}
}}

// r18ExecExt are file endings of programs and installers.
var r18ExecExt = wordSet{words: `exe msi msix appx dmg pkg app sh ps1 bat cmd scr vbs jar deb rpm appimage run bin apk`}

// r18RegistrableDomain returns the last two labels of a host (three under a two-letter
// second-level suffix like co.uk).
func r18RegistrableDomain(h string) string {
	labels := strings.Split(strings.ToLower(strings.TrimSuffix(h, ".")), ".")
	n := 2
	if len(labels) >= 3 && len(labels[len(labels)-1]) == 2 && mcpWordSet("co com net org ac gov")[labels[len(labels)-2]] {
		n = 3
	}
	if len(labels) < n {
		return strings.Join(labels, ".")
	}
	return strings.Join(labels[len(labels)-n:], ".")
}

func (c *mcpCtx) r18LookalikeDownload() string {
	for _, u := range c.urls {
		if u.local || u.trust {
			continue
		}
		p, err := url.Parse(u.raw)
		if err != nil {
			continue
		}
		name := p.Path[strings.LastIndexByte(p.Path, '/')+1:]
		dot := strings.LastIndexByte(name, '.')
		if dot < 0 || !r18ExecExt.has(strings.ToLower(name[dot+1:])) {
			continue
		}
		reg := r18RegistrableDomain(u.host)
		for _, w := range strings.FieldsFunc(strings.ToLower(u.host), func(r rune) bool { return r == '.' || r == '-' || r == '_' }) {
			own, ok := r18Brands.get()[w]
			if !ok {
				continue
			}
			mine := false
			for _, d := range own {
				if reg == d || strings.HasSuffix(strings.ToLower(u.host), "."+d) {
					mine = true
				}
			}
			if !mine {
				return fmt.Sprintf("downloads %s from %s, named for %s but not %s's own domain (%s): running it runs whoever registered %s",
					mcpCleanText(name, 40), u.host, w, w, own[0], reg)
			}
		}
	}
	return ""
}

var (
	r18ApexCalloutRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bnew\s+HttpRequest\b|\bnew\s+Http\s*\(\s*\)\s*\.\s*send\b|\.setEndpoint\s*\(`)
	}}
	r18ApexQueryRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\[\s*SELECT\b|\bDatabase\s*\.\s*query\b|\bDatabase\s*\.\s*getQueryLocator\b`)
	}}
	r18ApexEndRe = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(?i)setEndpoint\s*\(\s*['"]([^'"]+)['"]`) }}
)

func (c *mcpCtx) r18ApexCallout() string {
	if !mcpAnyWord(append(append([]string{}, c.serverWords...), c.toolWords...), mcpWordSet("salesforce sfdx sf apex anonymous")) {
		return ""
	}
	for _, a := range c.args {
		if !a.str || !r18ApexCalloutRe.get().MatchString(a.val) || !r18ApexQueryRe.get().MatchString(a.val) {
			continue
		}
		end := ""
		if m := r18ApexEndRe.get().FindStringSubmatch(a.val); m != nil {
			end = m[1]
		}
		if strings.HasPrefix(strings.ToLower(end), "callout:") {
			continue // a Named Credential the org's admin set up
		}
		if u, err := url.Parse(end); err == nil && u.Host != "" {
			reg := r18RegistrableDomain(u.Hostname())
			if reg == "salesforce.com" || reg == "force.com" || c.trustedHost(u.Hostname()) {
				continue
			}
			return fmt.Sprintf("queries records in anonymous Apex and sends them to %s with HttpRequest", u.Host)
		}
		return "queries records in anonymous Apex and sends them out with HttpRequest"
	}
	return ""
}
