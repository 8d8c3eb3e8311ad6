package riskmodel

import (
	"encoding/json"
	"net/url"
	"strings"
)

// A security setting switched off through a vendor's HTTP API rather than its CLI or MCP
// server: `curl -X PATCH https://api.cloudflare.com/client/v4/zones/Z/settings/ssl --data
// '{"value":"off"}'` is the same change as Cloudflare's MCP zone_settings_edit {"setting":
// "ssl", "value": "off"}. The request is read as the MCP call it amounts to — the host as the
// server, the URL's path as the tool, the JSON body as the arguments, the path's last word as
// the setting a bare {"value": …} sets — and judged by securitySettingOff, so one vocabulary
// of controls serves both.

// apiBodyOptions are curl's and wget's options whose value is the request body.
var apiBodyOptions = []string{"-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--json", "--body-data"}

// httpAPISecurityOff says which setting an HTTP API write switches off and whether that is
// certain; "" when the segment is not such a write.
func httpAPISecurityOff(c *execCtx, s *Segment) (string, bool) {
	if s.Name() != "curl" && s.Name() != "wget" {
		return "", false
	}
	body, ok := optValue(s.Args[1:], apiBodyOptions...)
	body = strings.TrimSpace(body)
	if !ok || !strings.HasPrefix(body, "{") {
		return "", false
	}
	method := strings.ToUpper(httpMethod(s))
	if method != "" && method != "PATCH" && method != "PUT" && method != "POST" {
		return "", false
	}
	var u *url.URL
	for _, x := range urls(s) {
		if h := x.Hostname(); h != "" && !isLocalHost(h) {
			u = x
			break
		}
	}
	if u == nil {
		return "", false
	}
	var args map[string]any
	if json.Unmarshal([]byte(body), &args) != nil {
		return "", false
	}
	var path []string
	for _, p := range strings.Split(strings.Trim(u.Path, "/"), "/") {
		if p != "" && !apiIDLike(p) {
			path = append(path, p)
		}
	}
	if len(path) == 0 {
		return "", false
	}
	if _, named := args["setting"]; !named {
		if _, valued := args["value"]; valued {
			args["setting"] = path[len(path)-1]
		}
	}
	if len(path) > 3 {
		path = path[len(path)-3:]
	}
	req := &MCPRequest{Server: u.Hostname(), Tool: "update_" + strings.Join(path, "_"), Arguments: args}
	mc := (&Analyzer{policy: *c.pol}).newMCPCtx(req)
	f, sure := securitySettingOff(mc)
	if f == "" {
		return "", false
	}
	return "Sends " + method + " " + capText(u.Host+u.Path) + " with " + f + ", which switches a security control off", sure
}

// apiIDLike reports a URL path word that is an identifier (a zone id, an account number, a
// version like v4), not a resource or setting name.
func apiIDLike(p string) bool {
	if len(p) <= 3 && strings.HasPrefix(p, "v") {
		return true // v1, v4
	}
	digits := 0
	for _, r := range p {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	return digits > 0 && (digits*3 >= len(p) || len(p) >= 16)
}
