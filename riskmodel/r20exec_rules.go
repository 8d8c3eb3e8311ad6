package riskmodel

import (
	"encoding/json"
	"net/url"
	"path"
	"strings"
)

// Deny-list effects reached through an HTTP API instead of the tool's own CLI:
//
//   - the container runtime's socket driven with curl (curl --unix-socket
//     /var/run/docker.sock -d '{"HostConfig":{"Privileged":true,"Binds":["/:/mnt"]}}'
//     http://localhost/containers/create) is `docker run --privileged -v /:/mnt`, the
//     privileged container docs/policy.md denies; other writes through the socket are root on
//     the host with nothing the analysis can see, so they are asked about at high;
//   - the admin delete APIs of metrics and log stores (Prometheus, Thanos, Mimir and
//     VictoriaMetrics /api/v1/admin/tsdb/delete_series, Loki /loki/api/v1/delete, InfluxDB
//     /api/v2/delete) with a selector that matches every series or stream: bulk deletion of
//     data the user never mentioned, denied; a narrower selector on another machine is a
//     production change, asked about at high;
//   - gh pr merge --admin, which merges past the branch protection's required reviews and
//     checks (GitHub CLI manual: "--admin: Use administrator privileges to merge a pull
//     request that does not meet requirements"): disabling branch protection for one merge.
//
// Sources: Docker Engine API reference (ContainerCreate, HostConfig.Privileged, Binds,
// Mounts, PidMode, CapAdd); Prometheus "TSDB Admin APIs"; Grafana Loki "Log entry deletion";
// InfluxDB v2 "Delete data"; VictoriaMetrics "How to delete time series"; cli.github.com
// gh pr merge.

func r20ExecRules() []*Rule {
	return []*Rule{
		{
			ID: "container.socket-api", Level: High, Category: CatPrivilegeEscalation,
			CertainWhen: "the request creates a container or exec that is privileged, shares the host's PID namespace, adds a dangerous capability or mounts the host's root, a system directory or the runtime socket",
			Message:     "Sends a write to the container runtime's socket, which is root on the host",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				sock := runtimeSocketClient(c, s)
				if sock == "" {
					return "", false
				}
				body, bodyOK := optValue(s.Args[1:], apiBodyOptions...)
				method := strings.ToUpper(httpMethod(s))
				if method == "" && bodyOK {
					method = "POST"
				}
				if method == "" || method == "GET" || method == "HEAD" {
					return "", false // listing containers, images, events: a read
				}
				target := ""
				for _, u := range urls(s) {
					target = u.Path
					break
				}
				if why := privilegedContainerBody(c, body); why != "" {
					c.certainty = certaintySure // docs/policy.md: privileged containers, the docker socket mounting the host
					return "Creates a container through " + sock + " that " + why + ", which is root on the host", true
				}
				return "Sends " + method + " " + capText(orStr(target, "a request")) + " to " + sock + ", which acts as root on the host", true
			},
		},
		{
			ID: "net.observability-delete", Level: High, Category: CatDataDeletion,
			CertainWhen: "the selector matches every series or stream",
			Message:     "Deletes stored metrics or logs through a store's admin API",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				api, host, selectors := observabilityDelete(s)
				if api == "" {
					return "", false
				}
				local := isLocalHost(hostOnly(host))
				for _, sel := range selectors {
					if selectorMatchesAll(sel) {
						if !local {
							c.certainty = certaintySure // docs/policy.md: bulk deletion of data the user never mentioned
						}
						return "Deletes every series or stream matching " + capText(sel) + " from " + host + " (" + api + ")", true
					}
				}
				if len(selectors) == 0 && api == "influxdb delete" {
					return "Deletes data from " + host + " (" + api + ") with a predicate the analysis cannot see", true
				}
				if local {
					return "", false // one series of a local store: judged by the other rules
				}
				return "Deletes stored data from " + host + " (" + api + ")", true
			},
		},
		{
			ID: "vcs.merge-admin-bypass", Level: High, Category: CatSecurityWeakening,
			Message: "Merges a pull request past branch protection with administrator rights",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if s.Name() != "gh" {
					return "", false
				}
				p := s.positional(0, "-R", "--repo", "-b", "--body", "-t", "--subject", "-F", "--body-file", "--match-head-commit", "-A", "--author-email")
				if len(p) < 2 || p[0] != "pr" || p[1] != "merge" || !s.arg("--admin") {
					return "", false
				}
				return "Runs gh pr merge --admin, which merges without the reviews and checks branch protection requires", true
			},
		},
	}
}

// runtimeSocketClient returns the container runtime socket an HTTP client segment talks to
// (curl --unix-socket, xh --unix-socket), "" if none.
func runtimeSocketClient(c *execCtx, s *Segment) string {
	if s.Name() != "curl" && s.Name() != "xh" {
		return ""
	}
	v, ok := optValue(s.Args[1:], "--unix-socket", "--abstract-unix-socket")
	if !ok {
		return ""
	}
	t := c.target(v)
	if abs := orStr(t.abs, v); isContainerSocket(path.Clean(abs)) || strings.HasSuffix(abs, "/docker.sock") || strings.HasSuffix(abs, "/podman.sock") {
		return abs
	}
	return ""
}

// privilegedContainerBody says what in a Docker or Podman create/exec body gives the
// container the host; "" when nothing does or the body cannot be read (a file, a variable).
func privilegedContainerBody(c *execCtx, body string) string {
	body = strings.TrimSpace(body)
	if !strings.HasPrefix(body, "{") {
		return ""
	}
	var v map[string]any
	if json.Unmarshal([]byte(body), &v) != nil {
		// Not JSON the analysis can read: look for the words themselves.
		flat := strings.ToLower(strings.Join(strings.Fields(body), ""))
		if strings.Contains(flat, `"privileged":true`) {
			return "is privileged"
		}
		return ""
	}
	hc, _ := v["HostConfig"].(map[string]any)
	if hc == nil {
		hc = v // podman's libpod create and exec bodies keep the settings at the top
	}
	if b, _ := hc["Privileged"].(bool); b {
		return "is privileged"
	}
	if b, _ := v["Privileged"].(bool); b {
		return "is privileged"
	}
	if pm, _ := hc["PidMode"].(string); pm == "host" {
		return "shares the host's PID namespace"
	}
	for _, key := range []string{"CapAdd", "cap_add"} {
		caps, _ := hc[key].([]any)
		for _, x := range caps {
			if cs, _ := x.(string); dangerousCaps.get()[strings.TrimPrefix(strings.ToUpper(cs), "CAP_")] {
				return "adds the " + cs + " capability"
			}
		}
	}
	var sources []string
	if binds, _ := hc["Binds"].([]any); binds != nil {
		for _, x := range binds {
			if b, _ := x.(string); b != "" {
				src, _, _ := strings.Cut(b, ":")
				sources = append(sources, src)
			}
		}
	}
	for _, key := range []string{"Mounts", "mounts"} {
		ms, _ := hc[key].([]any)
		for _, x := range ms {
			if m, _ := x.(map[string]any); m != nil {
				if src, _ := m["Source"].(string); src != "" {
					sources = append(sources, src)
				} else if src, _ := m["source"].(string); src != "" {
					sources = append(sources, src)
				}
			}
		}
	}
	for _, src := range sources {
		if !strings.HasPrefix(src, "/") {
			continue // a named volume
		}
		src = path.Clean(src)
		if src == "/" || isContainerSocket(src) {
			return "mounts " + src + " from the host"
		}
		if t := c.target(src); t.zone == ZoneSystem || t.zone == ZoneVital {
			return "mounts the host's " + src
		}
	}
	return ""
}

// observabilityDeleteAPIs are the admin delete endpoints of metrics and log stores, by the
// end of their URL path.
var observabilityDeleteAPIs = []struct{ suffix, name string }{
	{"/api/v1/admin/tsdb/delete_series", "Prometheus TSDB delete_series"},
	{"/loki/api/v1/delete", "Loki log deletion"},
	{"/api/v2/delete", "influxdb delete"},
}

// observabilityDelete returns the admin delete API an HTTP client segment calls, the host it
// calls it on, and the series or stream selectors it names (in the URL's match[] or query
// parameters, or in -d/--data-urlencode form fields); "" when the segment is no such call.
func observabilityDelete(s *Segment) (api, host string, selectors []string) {
	switch s.Name() {
	case "curl", "wget", "http", "https", "xh":
	default:
		return "", "", nil
	}
	for _, a := range s.Args[1:] {
		raw := a
		if i := strings.Index(raw, "://"); i >= 0 {
			raw = raw[i+3:]
		} else if strings.HasPrefix(raw, "-") {
			continue
		}
		h, rest, ok := strings.Cut(raw, "/")
		if !ok {
			continue
		}
		p, query, _ := strings.Cut("/"+rest, "?")
		for _, e := range observabilityDeleteAPIs {
			if strings.HasSuffix(strings.TrimSuffix(p, "/"), e.suffix) {
				api, host = e.name, h
				selectors = append(selectors, querySelectors(query)...)
			}
		}
	}
	if api == "" {
		return "", "", nil
	}
	for i, a := range s.Args {
		if i+1 < len(s.Args) && (a == "-d" || a == "--data" || a == "--data-urlencode" || a == "--data-raw" || a == "--data-binary") {
			selectors = append(selectors, querySelectors(s.Args[i+1])...)
		}
	}
	if s.Name() == "http" || s.Name() == "https" || s.Name() == "xh" {
		for _, a := range s.Args[1:] {
			if k, v, ok := strings.Cut(a, "=="); ok && (k == "match[]" || k == "query") {
				selectors = append(selectors, v)
			}
		}
	}
	return api, host, selectors
}

// querySelectors returns the match[] and query values of a query string or form body.
func querySelectors(q string) []string {
	var out []string
	for _, kv := range strings.Split(q, "&") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if k, err := url.PathUnescape(k); err == nil && (k == "match[]" || k == "match" || k == "query" || k == "predicate") {
			if d, err := url.PathUnescape(v); err == nil {
				v = d
			}
			out = append(out, v)
		}
	}
	return out
}

// selectorMatchesAll reports a PromQL/LogQL series selector whose every matcher accepts any
// value ({__name__=~".+"}, {job=~".*"}, {}): it selects every series or stream there is.
func selectorMatchesAll(sel string) bool {
	sel = strings.TrimSpace(sel)
	open, close := strings.IndexByte(sel, '{'), strings.LastIndexByte(sel, '}')
	if open < 0 || close < open {
		return false
	}
	if strings.TrimSpace(sel[:open]) != "" {
		return false // a metric name narrows it
	}
	inner := strings.TrimSpace(sel[open+1 : close])
	if inner == "" {
		return true
	}
	for _, m := range strings.Split(inner, ",") {
		_, re, ok := strings.Cut(m, "=~")
		if !ok {
			return false
		}
		re = strings.Trim(strings.TrimSpace(re), "\"'`")
		if re != ".+" && re != ".*" && re != ".+?" && re != "(.*)" && re != "(.+)" {
			return false
		}
	}
	return true
}

// hostOnly drops the port from host:port.
func hostOnly(h string) string {
	if i := strings.LastIndexByte(h, ':'); i > 0 && !strings.Contains(h[i:], "]") {
		return h[:i]
	}
	return h
}
