package riskmodel

import (
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// A network engineer's and a security researcher's everyday reads of their own lab: a ping
// sweep, a port scan, an SNMP walk, a BMC's sensors or a throughput test against private
// addresses (RFC 1918, IPv6 unique-local, link-local). docs/policy.md allows read-only
// inspection of local resources; base.catalog-net vouches only for this machine's loopback,
// so these came out unknown (asked). A catalogue entry marked lab_net (catalog/commands*.toml)
// is routine when the addresses it names are all loopback or private, named as IP addresses,
// ranges or host:port — never by a host name, which could resolve anywhere — and at least one
// is named. An address on the internet, a host name, or a listener takes the use out (it is
// then judged as unknown, or by the rules that judge it).

// labAddrKind is what a command word says about where a lab tool goes.
type labAddrKind int

const (
	labWord    labAddrKind = iota // not an address: an option value, a port list, an OID, a MIB name
	labPrivate                    // a loopback or private address or range
	labOutside                    // an address or range on the internet, or a host name
)

// labWordKind classifies one argument (an option's value after '=' included).
func labWordKind(w string) labAddrKind {
	w = strings.Trim(w, `"'`)
	if w == "" || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "~") {
		return labWord
	}
	if strings.Contains(w, "://") {
		// Any scheme (ssh://, snmp://, https://): a URL with user info, or one that does not
		// parse, names no host these rules can vouch for.
		u, err := url.Parse(w)
		if err != nil || u.User != nil || u.Hostname() == "" || strings.ContainsAny(u.Host, "@\\") {
			return labOutside
		}
		return labHostKind(u.Hostname())
	}
	if strings.Contains(w, "::") && net.ParseIP(strings.Trim(w, "[]")) == nil && !strings.HasPrefix(w, "[") {
		return labWord // a MIB name (IF-MIB::ifOperStatus)
	}
	// udp:10.0.0.1:161, tcp6:[fd00::1]:161 (net-snmp transport specifiers).
	for _, p := range []string{"udp:", "tcp:", "udp6:", "tcp6:"} {
		if strings.HasPrefix(strings.ToLower(w), p) {
			w = w[len(p):]
		}
	}
	if strings.HasPrefix(w, "[") {
		if j := strings.IndexByte(w, ']'); j > 0 {
			w = w[1:j]
		}
	}
	if ip := net.ParseIP(w); ip != nil {
		return labIPKind(ip)
	}
	if _, n, err := net.ParseCIDR(w); err == nil {
		return labIPKind(n.IP)
	}
	if h, port, ok := strings.Cut(w, ":"); ok && isDigits(port) && h != "" {
		return labHostKind(h)
	}
	if ip := labRangeStart(w); ip != nil {
		return labIPKind(ip)
	}
	if labHostName(w) {
		return labHostKind(w)
	}
	return labWord
}

// labHostKind classifies a host: an IP address by its range, a name as outside unless it is
// this machine's loopback name.
func labHostKind(h string) labAddrKind {
	h = strings.Trim(h, "[]")
	if ip := net.ParseIP(h); ip != nil {
		return labIPKind(ip)
	}
	if isLocalHost(h) {
		return labPrivate
	}
	return labOutside
}

// labIPKind says whether an address is this machine's or a private network's.
func labIPKind(ip net.IP) labAddrKind {
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() {
		return labPrivate
	}
	return labOutside
}

// labRangeStart returns the first address of an nmap/fping octet range (10.0.0-3.1-254,
// 192.168.1.1-20), nil for any other word. An OID (1.3.6.1.2.1) has more than four parts.
func labRangeStart(w string) net.IP {
	parts := strings.Split(w, ".")
	if len(parts) != 4 {
		return nil
	}
	for i, p := range parts {
		if j := strings.IndexAny(p, "-,"); j >= 0 {
			p = p[:j]
		}
		if p == "*" {
			p = "0"
		}
		if !isDigits(p) {
			return nil
		}
		parts[i] = p
	}
	return net.ParseIP(strings.Join(parts, "."))
}

// labHostName reports a word shaped as a DNS name (letters, digits and hyphens in dotted
// labels, the last one alphabetic): scanme.example.org, lab-spine1.dc2.example.net.
func labHostName(w string) bool {
	if !strings.Contains(w, ".") || strings.HasSuffix(w, ".") {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return false
		}
	}
	last := w[strings.LastIndexByte(w, '.')+1:]
	for _, r := range last {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// labListens reports a throughput tool started as a server: it would serve the lab network.
func labListens(s *Segment) bool {
	switch s.Name() {
	case "iperf3", "iperf":
		return s.arg("-s", "--server", "-D", "--daemon")
	}
	return false
}

// labEvasion are nmap's options that hide the scanner or act beyond looking: raw stealth
// scans, decoys, spoofed sources, fragmentation, insane timing, scripts and OS probing
// (nmap.org/book/man-bypass-firewalls-ids.html, man-port-scanning-techniques.html). A scan
// that uses them is not a lab inspection.
var labEvasion = wordSet{words: "-sS -sA -sF -sN -sX -sW -sM -sI -sU -b -D -S -e -f --mtu --spoof-mac --data-length --data --data-string -g --source-port --badsum --ip-options --proxies -T5 -O --osscan-guess --script -sC -A --max-rate --min-rate"}

// labMaxHosts is the most addresses a lab use may name in one range: a lab network, not a
// sweep of a site (10.0.0.0/16 is sixty-five thousand hosts).
const labMaxHosts = 256

// labRangeSize is how many addresses a range names: a CIDR block or an octet range; 1 for
// any other word.
func labRangeSize(w string) float64 {
	if ip, n, err := net.ParseCIDR(w); err == nil {
		ones, bits := n.Mask.Size()
		if ip.To4() == nil && bits == 128 || bits == 32 {
			if bits-ones > 30 {
				return 1 << 30
			}
			return float64(uint64(1) << uint(bits-ones))
		}
	}
	parts := strings.Split(w, ".")
	if len(parts) != 4 {
		return 1
	}
	total := 1.0
	for _, p := range parts {
		count := 0.0
		for _, r := range strings.Split(p, ",") {
			lo, hi, isRange := strings.Cut(r, "-")
			switch {
			case r == "*" || r == "-":
				count += 256
			case isRange:
				a, errA := strconv.Atoi(lo)
				b, errB := strconv.Atoi(hi)
				if lo == "" {
					a, errA = 0, nil
				}
				if hi == "" {
					b, errB = 255, nil
				}
				if errA != nil || errB != nil || b < a {
					return 1
				}
				count += float64(b - a + 1)
			default:
				count++
			}
		}
		total *= count
	}
	return total
}

// labNetUse says what a lab_net catalogue entry does when every address it names is loopback
// or private, "" otherwise.
func labNetUse(s *Segment) string {
	if s.Privileged || len(s.Args) < 2 {
		return ""
	}
	e, ok := catalog.DefaultCommands().Lookup(s.Name(), s.Args[1:])
	if !ok || e.Class != catalog.CommandLocalNet || !e.LabNet || labListens(s) || bindsEveryInterface(s.Args[1:]) {
		return ""
	}
	first := ""
	for _, a := range s.Args[1:] {
		if strings.ContainsAny(a, "$`") {
			return "" // an address known only at run time
		}
		if s.Name() == "nmap" && (labEvasion.has(a) || labEvasion.has(strings.SplitN(a, "=", 2)[0])) {
			return "" // a stealth, spoofed or aggressive scan
		}
		if strings.HasPrefix(a, "-") {
			i := strings.IndexByte(a, '=')
			if i < 0 {
				continue
			}
			a = a[i+1:]
		}
		switch labWordKind(a) {
		case labOutside:
			return ""
		case labPrivate:
			if labRangeSize(a) > labMaxHosts {
				return "" // a sweep of a site, not a lab
			}
			if first == "" {
				first = a
			}
		}
	}
	if first == "" {
		return ""
	}
	return "Runs " + s.Name() + ", which " + e.What + ", against " + first + " on a private lab network"
}

// r20LabRules are the baseline rule for lab_net entries.
func r20LabRules() []*Rule {
	return []*Rule{
		{
			ID: "base.catalog-lab", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Runs a catalogued network diagnostic against private lab addresses only",
			exec: func(_ *execCtx, s *Segment) (string, bool) {
				m := labNetUse(s)
				return m, m != ""
			},
		},
	}
}
