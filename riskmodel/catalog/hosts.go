package catalog

import (
	"encoding/binary"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// HostClass says what a host is, as far as approval goes.
type HostClass uint8

// The host classes.
const (
	// HostPublic is any host not otherwise classified: the network at large.
	HostPublic HostClass = iota
	// HostLoopback is this machine (127.0.0.0/8, ::1, localhost, 0.0.0.0).
	HostLoopback
	// HostPrivate is a private, link-local or shared address range.
	HostPrivate
	// HostMetadata is a cloud instance metadata service.
	HostMetadata
	// HostRebinding is a wildcard-DNS name that resolves to an address spelled in it: it
	// may name loopback today and anything tomorrow, so it is never local.
	HostRebinding
)

var hostClassNames = [...]string{"public", "loopback", "private", "metadata", "rebinding"}

func (c HostClass) String() string {
	if int(c) < len(hostClassNames) {
		return hostClassNames[c]
	}
	return "unknown"
}

type metadataHost struct {
	Host   string `toml:"host" json:"host,omitempty"`
	What   string `toml:"what" json:"what,omitempty"`
	Source string `toml:"source" json:"source,omitempty"`
}

type loopbackName struct {
	Name   string `toml:"name" json:"name,omitempty"`
	Source string `toml:"source" json:"source,omitempty"`
}

type rebindingSuffix struct {
	Suffix string `toml:"suffix" json:"suffix,omitempty"`
	Source string `toml:"source" json:"source,omitempty"`
}

// Vendor is a host that serves a vendor's documented installer.
type Vendor struct {
	Host string `toml:"host" json:"host,omitempty"`
	// Paths, when given, are the path prefixes the vendor publishes under; other paths on the
	// host are someone else's.
	Paths  []string `toml:"paths" json:"paths,omitempty"`
	Source string   `toml:"source" json:"source,omitempty"`
}

// Service is a sensitive service that listens on a loopback port.
type Service struct {
	Port   int    `toml:"port" json:"port,omitempty"`
	What   string `toml:"what" json:"what,omitempty"`
	Source string `toml:"source" json:"source,omitempty"`
}

type hostData struct {
	Metadata     []metadataHost    `toml:"metadata" json:"metadata,omitempty"`
	LoopbackName []loopbackName    `toml:"loopback_name" json:"loopback_name,omitempty"`
	Rebinding    []rebindingSuffix `toml:"rebinding" json:"rebinding,omitempty"`
	Vendor       []Vendor          `toml:"vendor" json:"vendor,omitempty"`
	Service      []Service         `toml:"service" json:"service,omitempty"`
	Known        []KnownHost       `toml:"known" json:"known,omitempty"`
	Confusable   []confusable      `toml:"confusable" json:"confusable,omitempty"`
	Token        []TokenOwner      `toml:"token" json:"token,omitempty"`

	metaIPs   []net.IP
	metaNames map[string]string
	skeleton  map[rune]string // look-alike character → the ASCII it imitates
}

func (h *hostData) validate() error {
	h.metaNames = map[string]string{}
	for _, m := range h.Metadata {
		if m.Host == "" || m.What == "" || m.Source == "" {
			return fmt.Errorf("metadata %q: host, what and source are required", m.Host)
		}
		if ip := net.ParseIP(m.Host); ip != nil {
			h.metaIPs = append(h.metaIPs, ip)
		} else {
			h.metaNames[strings.ToLower(m.Host)] = m.What
		}
	}
	for _, l := range h.LoopbackName {
		if l.Name == "" || l.Source == "" || l.Name != strings.ToLower(l.Name) {
			return fmt.Errorf("loopback_name %q: a lower-case name and a source are required", l.Name)
		}
	}
	for _, r := range h.Rebinding {
		if r.Suffix == "" || r.Source == "" || strings.HasPrefix(r.Suffix, ".") {
			return fmt.Errorf("rebinding %q: a suffix without a leading dot and a source are required", r.Suffix)
		}
	}
	for _, v := range h.Vendor {
		if v.Host == "" || v.Source == "" || strings.ContainsAny(v.Host, "/*") {
			return fmt.Errorf("vendor %q: an exact host and a source are required", v.Host)
		}
		for _, p := range v.Paths {
			if !strings.HasPrefix(p, "/") {
				return fmt.Errorf("vendor %q: path %q must start with /", v.Host, p)
			}
		}
	}
	for _, s := range h.Service {
		if s.Port <= 0 || s.Port > 65535 || s.What == "" || s.Source == "" {
			return fmt.Errorf("service %d: a port, what and source are required", s.Port)
		}
	}
	if err := validateTokenOwners(h.Token); err != nil {
		return err
	}
	return h.validateLookalikes()
}

// HostInfo is what the catalogue knows about a host.
type HostInfo struct {
	Class HostClass
	// IP is the address the host spells, if it spells one (in any notation).
	IP net.IP
	// What describes a metadata service.
	What string
}

// CanonicalHost lower-cases a host and removes brackets, an IPv6 zone and a trailing dot.
func CanonicalHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = strings.TrimPrefix(h, "[")
	if i := strings.IndexByte(h, ']'); i >= 0 {
		h = h[:i]
	}
	if i := strings.IndexByte(h, '%'); i >= 0 && strings.Contains(h, ":") {
		h = h[:i]
	}
	return strings.TrimSuffix(h, ".")
}

// ParseIP parses an address in any spelling a resolver accepts: dotted decimal, the
// inet_aton forms (2130706433, 0x7f000001, 0177.0.0.1, 127.1), IPv6, IPv4-mapped and NAT64
// IPv6. It returns nil for a name.
func ParseIP(h string) net.IP {
	h = CanonicalHost(h)
	if h == "" {
		return nil
	}
	if ip := net.ParseIP(h); ip != nil {
		if v4 := ip.To4(); v4 != nil {
			return v4
		}
		// NAT64 (64:ff9b::/96) embeds an IPv4 address in its last four bytes.
		if ip[0] == 0 && ip[1] == 0x64 && ip[2] == 0xff && ip[3] == 0x9b {
			return net.IPv4(ip[12], ip[13], ip[14], ip[15]).To4()
		}
		return ip
	}
	return parseInetAton(h)
}

// parseInetAton implements inet_aton(3): one to four parts, each decimal, octal (leading 0)
// or hex (0x); the last part fills the remaining bytes.
func parseInetAton(h string) net.IP {
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return nil
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		if p == "" {
			return nil
		}
		base := 10
		switch {
		case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		v, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return nil
		}
		vals[i] = v
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return nil
		}
		n |= v << (24 - 8*uint(i))
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*uint(5-len(vals))) {
		return nil
	}
	n |= last
	ip := make(net.IP, 4)
	binary.BigEndian.PutUint32(ip, uint32(n))
	return ip
}

var privateNets = func() []*net.IPNet {
	var out []*net.IPNet
	for _, c := range []string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16", "fc00::/7", "fe80::/10"} {
		_, n, _ := net.ParseCIDR(c)
		out = append(out, n)
	}
	return out
}()

// Host classifies a host name or address.
func (c *Catalog) Host(h string) HostInfo {
	h = CanonicalHost(h)
	if ip := ParseIP(h); ip != nil {
		return c.classifyIP(ip)
	}
	if w, ok := c.hosts.metaNames[h]; ok {
		return HostInfo{Class: HostMetadata, What: w}
	}
	for _, r := range c.hosts.Rebinding {
		if h == r.Suffix || strings.HasSuffix(h, "."+r.Suffix) {
			// The name resolves to the address it spells: a metadata address is metadata.
			if ip := embeddedIP(strings.TrimSuffix(h, r.Suffix)); ip != nil {
				if info := c.classifyIP(ip); info.Class == HostMetadata {
					return info
				}
			}
			return HostInfo{Class: HostRebinding}
		}
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return HostInfo{Class: HostLoopback}
	}
	for _, l := range c.hosts.LoopbackName {
		if h == l.Name {
			return HostInfo{Class: HostLoopback}
		}
	}
	return HostInfo{Class: HostPublic}
}

func (c *Catalog) classifyIP(ip net.IP) HostInfo {
	for _, m := range c.hosts.metaIPs {
		if m.Equal(ip) {
			return HostInfo{Class: HostMetadata, IP: ip, What: c.metaWhat(m)}
		}
	}
	if ip.IsLoopback() || ip.IsUnspecified() {
		return HostInfo{Class: HostLoopback, IP: ip}
	}
	for _, n := range privateNets {
		if n.Contains(ip) {
			return HostInfo{Class: HostPrivate, IP: ip}
		}
	}
	return HostInfo{Class: HostPublic, IP: ip}
}

func (c *Catalog) metaWhat(ip net.IP) string {
	for _, m := range c.hosts.Metadata {
		if p := net.ParseIP(m.Host); p != nil && p.Equal(ip) {
			return m.What
		}
	}
	return "a cloud metadata service"
}

// embeddedIP reads the address a wildcard-DNS name spells before its suffix:
// "a.169.254.169.254.", "169-254-169-254.", "a9fea9fe.".
func embeddedIP(prefix string) net.IP {
	prefix = strings.TrimSuffix(prefix, ".")
	labels := strings.Split(prefix, ".")
	if len(labels) >= 4 {
		if ip := net.ParseIP(strings.Join(labels[len(labels)-4:], ".")); ip != nil {
			return ip.To4()
		}
	}
	last := labels[len(labels)-1]
	if i := strings.LastIndexByte(last, '-'); i >= 0 && strings.Count(last, "-") >= 3 {
		dashed := strings.Split(last, "-")
		if ip := net.ParseIP(strings.Join(dashed[len(dashed)-4:], ".")); ip != nil {
			return ip.To4()
		}
	}
	if len(last) == 8 {
		if v, err := strconv.ParseUint(last, 16, 32); err == nil {
			ip := make(net.IP, 4)
			binary.BigEndian.PutUint32(ip, uint32(v))
			return ip
		}
	}
	return nil
}

// IsLoopback reports whether h names this machine. Wildcard-DNS names never do.
func (c *Catalog) IsLoopback(h string) bool { return c.Host(h).Class == HostLoopback }

// IsMetadata reports whether h is a cloud metadata service, in any spelling.
func (c *Catalog) IsMetadata(h string) bool { return c.Host(h).Class == HostMetadata }

// LoopbackService returns the sensitive service listening on a loopback host's port, if any:
// a call to it is not a harmless local call. port is the URL's port ("" for none).
func (c *Catalog) LoopbackService(h, port string) (Service, bool) {
	if port == "" || !c.IsLoopback(h) {
		return Service{}, false
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return Service{}, false
	}
	for _, s := range c.hosts.Service {
		if s.Port == p {
			return s, true
		}
	}
	return Service{}, false
}

// Vendor reports whether u is a vendor's documented installer: its exact host, and one of
// the vendor's paths where the vendor publishes under a path.
func (c *Catalog) Vendor(u *url.URL) (Vendor, bool) {
	if u == nil {
		return Vendor{}, false
	}
	if u.Scheme != "" && u.Scheme != "https" && u.Scheme != "http" {
		return Vendor{}, false
	}
	if u.User != nil {
		return Vendor{}, false // https://astral.sh@evil.example/ is evil.example
	}
	if International(u.Hostname()) {
		return Vendor{}, false // ѕh.rustup.rs, xn--…: not the vendor, whatever it looks like
	}
	h := CanonicalHost(u.Hostname())
	for _, v := range c.hosts.Vendor {
		if h != v.Host {
			continue
		}
		if len(v.Paths) == 0 {
			return v, true
		}
		p := u.EscapedPath()
		if strings.Contains(p, "/../") || strings.HasSuffix(p, "/..") || strings.Contains(strings.ToLower(p), "%2e") || strings.Contains(strings.ToLower(p), "%2f") {
			return Vendor{}, false
		}
		for _, pre := range v.Paths {
			if strings.HasPrefix(u.Path, pre) || u.Path == strings.TrimSuffix(pre, "/") {
				return v, true
			}
		}
	}
	return Vendor{}, false
}

// Services lists the sensitive loopback services, for listing.
func (c *Catalog) Services() []Service { return append([]Service(nil), c.hosts.Service...) }

// Vendors lists the vendor installer hosts, for listing.
func (c *Catalog) Vendors() []Vendor { return append([]Vendor(nil), c.hosts.Vendor...) }
