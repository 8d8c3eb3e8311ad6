package riskmodel

import (
	"strconv"
	"strings"
)

// The destructive uses of the r18 persona's tools (catalog/commands_r18.toml holds their
// routine ones): fastlane match's nuke, a Shopify store's theme deleted, WP-CLI acting on a
// production site through --ssh/--http/@alias, a load generator aimed at another host at
// flood scale, and a Unity package imported from a download.

// fastlaneMatchNuke reports `fastlane match nuke TYPE` (also `fastlane match_nuke`): it
// revokes every signing certificate and deletes every provisioning profile of that type in
// the developer account, for the whole team. Source: docs.fastlane.tools/actions/match_nuke.
func fastlaneMatchNuke(s *Segment) string {
	if s.Name() != "fastlane" {
		return ""
	}
	a, b := s.sub(0), s.sub(1)
	if a == "match_nuke" || a == "match" && b == "nuke" {
		return "Revokes every signing certificate and deletes every provisioning profile of the team's Apple developer account (fastlane match nuke)"
	}
	return ""
}

// shopifyThemeDelete reports `shopify theme delete` of themes named by id or name on a store
// that is not a development store: the theme, its customisations and its history are gone.
// Deleting the developer's own development theme (-d/--development) stays as it was.
// Source: shopify.dev/docs/api/shopify-cli/theme/theme-delete.
func shopifyThemeDelete(s *Segment) string {
	if s.Name() != "shopify" || s.sub(0) != "theme" || s.sub(1) != "delete" {
		return ""
	}
	if s.hasFlag("d", "--development") {
		return ""
	}
	store, _ := optValue(s.Args[1:], "-s", "--store")
	if devStoreName(store) {
		return ""
	}
	return "Deletes themes of the Shopify store " + store + " (shopify theme delete)"
}

// devStoreName reports a store name that says it is for development or testing.
func devStoreName(store string) bool {
	st := strings.ToLower(store)
	for _, w := range []string{"dev", "staging", "stage", "test", "sandbox", "demo"} {
		if strings.Contains(st, w) {
			return true
		}
	}
	return false
}

// wpRemoteTarget returns where a WP-CLI command runs when it is not this machine: --ssh=,
// --http= or an @alias (wp-cli.yml aliases name other environments; @local is not one).
func wpRemoteTarget(s *Segment) string {
	for _, a := range s.Args[1:] {
		switch {
		case strings.HasPrefix(a, "--ssh=") || strings.HasPrefix(a, "--http="):
			return a[strings.IndexByte(a, '=')+1:]
		case a == "--ssh" || a == "--http":
			if v, ok := optValue(s.Args[1:], a); ok {
				return v
			}
		case strings.HasPrefix(a, "@") && a != "@local" && len(a) > 1:
			return a
		}
	}
	return ""
}

// wpSecurityPlugin reports the wordpress.org slugs of security plugins: firewalls, malware
// scanners, login hardening and two-factor authentication. Sources: wordpress.org/plugins/
// (tag "security"), the plugins' own slugs.
func wpSecurityPlugin(slug string) bool {
	s := strings.ToLower(slug)
	switch s {
	case "wordfence", "wordfence-login-security", "sucuri-scanner", "better-wp-security", "ithemes-security-pro",
		"solid-security", "all-in-one-wp-security-and-firewall", "wp-cerber", "bulletproof-security", "ninjafirewall",
		"wp-simple-firewall", "defender-security", "malcare-security", "security-ninja", "secupress", "patchstack",
		"two-factor", "wp-2fa", "miniorange-2-factor-authentication", "google-authenticator", "limit-login-attempts-reloaded",
		"loginizer", "wps-hide-login", "jetpack-protect", "cleantalk-spam-protect", "anti-malware-security-and-brute-force-firewall":
		return true
	}
	return strings.Contains(s, "firewall") || strings.Contains(s, "wordfence") || strings.Contains(s, "security") && !strings.Contains(s, "headers")
}

// wpRemoteDestroy reports WP-CLI run against a remote site that destroys its data or its
// defences: the database reset, dropped or emptied, an administrator account created or
// granted, a security plugin switched off or removed. Source:
// developer.wordpress.org/cli/commands/ (db reset/drop/clean, user create/set-role/add-role,
// super-admin add, plugin deactivate/uninstall/delete), make.wordpress.org/cli/handbook/
// guides/running-commands-remotely/.
func wpRemoteDestroy(s *Segment) string {
	if s.Name() != "wp" {
		return ""
	}
	where := wpRemoteTarget(s)
	if where == "" {
		return ""
	}
	words := s.subWords()
	if len(words) > 0 && strings.HasPrefix(words[0], "@") {
		words = words[1:]
	}
	if len(words) < 2 {
		return ""
	}
	a, b := words[0], words[1]
	switch {
	case a == "db" && (b == "reset" || b == "drop" || b == "clean"):
		return "Erases the database of the WordPress site at " + where + " (wp db " + b + ")"
	case a == "site" && (b == "empty" || b == "delete"):
		return "Empties or deletes the WordPress site at " + where + " (wp site " + b + ")"
	case a == "super-admin" && b == "add":
		return "Grants network super-admin on the WordPress site at " + where
	case a == "user" && (b == "create" || b == "add-role" || b == "set-role" || b == "update" || b == "add-cap"):
		for _, w := range s.Args[1:] {
			lw := strings.ToLower(w)
			if lw == "administrator" || strings.HasSuffix(lw, "=administrator") || lw == "manage_options" || lw == "promote_users" || lw == "edit_users" {
				return "Creates or promotes an administrator on the WordPress site at " + where
			}
		}
	case a == "plugin" && (b == "deactivate" || b == "uninstall" || b == "delete" || b == "toggle"):
		for _, w := range words[2:] {
			if wpSecurityPlugin(w) {
				return "Switches off the security plugin " + w + " on the WordPress site at " + where
			}
		}
	}
	return ""
}

// loadFloodLimits are the request count and concurrency from which a load generator is a
// flood rather than a test: a million requests, or a thousand connections at once, is far
// beyond a smoke or capacity check of a small site and is how HTTP floods are run.
const (
	loadFloodRequests    = 1_000_000
	loadFloodConcurrency = 1000
)

// loadFlood reports a load generator aimed at a host that is not this machine at flood
// scale. Sources: httpd.apache.org/docs/current/programs/ab.html (-n, -c), github.com/rakyll/hey
// (-n, -c), github.com/wg/wrk (-c, -t), siege(1) (-c, -r), github.com/hatoo/oha (-n, -c),
// github.com/codesenberg/bombardier (-n, -c), github.com/mcollina/autocannon (-c, -a),
// nghttp2.org h2load (-n, -c), k6.io/docs (--vus, -u).
func loadFlood(s *Segment) string {
	var reqOpts, concOpts []string
	switch s.Name() {
	case "ab", "hey", "oha", "bombardier", "h2load":
		reqOpts, concOpts = []string{"-n", "--requests"}, []string{"-c", "--clients", "--connections"}
	case "wrk", "wrk2":
		concOpts = []string{"-c", "--connections"}
	case "siege":
		reqOpts, concOpts = []string{"-r", "--reps"}, []string{"-c", "--concurrent"}
	case "autocannon":
		reqOpts, concOpts = []string{"-a", "--amount"}, []string{"-c", "--connections"}
	case "k6":
		concOpts = []string{"-u", "--vus"}
	default:
		return ""
	}
	host := ""
	for _, a := range s.Args[1:] {
		if h := hostOf(a); h != "" {
			host = h
			break
		}
	}
	if host == "" && s.Name() != "k6" || host != "" && isLocalHost(host) {
		return ""
	}
	n := loadCount(s, reqOpts)
	k := loadCount(s, concOpts)
	if n < loadFloodRequests && k < loadFloodConcurrency {
		return ""
	}
	if host == "" {
		host = "the hosts its script names"
	}
	return "Floods " + host + " with " + strconv.FormatInt(max(n, k), 10) + " requests or connections (" + s.Name() + ")"
}

// loadCount is the largest number given to one of opts (-n 5000000, -c=2000, 10k).
func loadCount(s *Segment, opts []string) int64 {
	var best int64
	for _, o := range opts {
		v, ok := optValue(s.Args[1:], o)
		if !ok {
			continue
		}
		v = strings.ToLower(strings.TrimSpace(v))
		mult := int64(1)
		switch {
		case strings.HasSuffix(v, "k"):
			mult, v = 1000, strings.TrimSuffix(v, "k")
		case strings.HasSuffix(v, "m"):
			mult, v = 1_000_000, strings.TrimSuffix(v, "m")
		}
		if n, err := strconv.ParseInt(strings.ReplaceAll(v, "_", ""), 10, 64); err == nil && n*mult > best {
			best = n * mult
		}
	}
	return best
}

// unityUntrustedImport reports the Unity editor importing a .unitypackage from a download
// or temporary directory, or one whose name says it is cracked or pirated: importing runs
// the editor scripts the package carries ([InitializeOnLoad], AssetPostprocessor), so it is
// code from an unreviewed source. Source: docs.unity3d.com/Manual/EditorCommandLineArguments.html
// (-importPackage), docs.unity3d.com/ScriptReference/InitializeOnLoadAttribute.html.
func unityUntrustedImport(c *execCtx, s *Segment) string {
	n := strings.TrimSuffix(s.Name(), ".exe")
	if n != "Unity" && n != "unity" && n != "Unity Editor" {
		return ""
	}
	p, ok := optValue(s.Args[1:], "-importPackage")
	if !ok || p == "" {
		return ""
	}
	lp := strings.ToLower(p)
	for _, w := range []string{"crack", "nulled", "warez", "keygen", "pirat", "leaked", "free_pro", "freepro"} {
		if strings.Contains(lp, w) {
			return "Imports the Unity package " + p + ", whose name says it is cracked or pirated; its editor scripts run on import"
		}
	}
	t := c.target(p)
	if t.zone == ZoneTemp || strings.Contains(lp, "/downloads/") || strings.Contains(lp, `\downloads\`) {
		return "Imports the Unity package " + p + " from a download or temporary directory; its editor scripts run on import"
	}
	return ""
}

// r18CatRules are the exec rules of the r18 catalogue classes (r18cat_tools.go).
func r18CatRules() []*Rule {
	one := func(f func(*Segment) string) func(*execCtx, *Segment) (string, bool) {
		return func(_ *execCtx, s *Segment) (string, bool) {
			m := f(s)
			return m, m != ""
		}
	}
	return []*Rule{
		{ID: "app.signing-nuke", Level: High, Category: CatDataDeletion, Certain: true,
			Message: "Revokes the team's signing certificates and deletes its provisioning profiles",
			exec:    one(fastlaneMatchNuke)},
		{ID: "prod.store-theme-delete", Level: High, Category: CatFinancialOrProduction, Certain: true,
			Message: "Deletes themes of a live Shopify store",
			exec:    one(shopifyThemeDelete)},
		{ID: "prod.wp-remote-destroy", Level: High, Category: CatFinancialOrProduction, Certain: true,
			Message: "Erases a remote WordPress site's data, adds an administrator there or switches off its security plugin",
			exec:    one(wpRemoteDestroy)},
		{ID: "net.load-flood", Level: High, Category: CatResourceExhaustion, Certain: true,
			Message: "Floods another host with requests from a load generator",
			exec:    one(loadFlood)},
		{ID: "pkg.unity-untrusted-import", Level: High, Category: CatRemoteCodeExecution, Certain: true,
			Message: "Imports a Unity package from a download or a cracked source, running its editor scripts",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				m := unityUntrustedImport(c, s)
				return m, m != ""
			}},
	}
}
