package catalog

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func TestLoadValidates(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range c.Entries("") {
		if e.Source == "" {
			t.Errorf("%s: no source", e.ID)
		}
	}
	bad := []struct{ name, paths, hosts string }{
		{"unknown class", "[[path]]\nid=\"x\"\nclass=\"nope\"\nwhat=\"x\"\nsource=\"s\"\nhome=[\".x\"]\n", ""},
		{"no source", "[[path]]\nid=\"x\"\nclass=\"credential\"\nwhat=\"x\"\nhome=[\".x\"]\n", ""},
		{"absolute home", "[[path]]\nid=\"x\"\nclass=\"credential\"\nwhat=\"x\"\nsource=\"s\"\nhome=[\"/x\"]\n", ""},
		{"relative abs", "[[path]]\nid=\"x\"\nclass=\"credential\"\nwhat=\"x\"\nsource=\"s\"\nabs=[\"x\"]\n", ""},
		{"slash in base", "[[path]]\nid=\"x\"\nclass=\"credential\"\nwhat=\"x\"\nsource=\"s\"\nbase=[\"a/b\"]\n", ""},
		{"unknown field", "[[path]]\nid=\"x\"\nclass=\"credential\"\nwhat=\"x\"\nsource=\"s\"\nhome=[\".x\"]\nhomes=[\".y\"]\n", ""},
		{"duplicate id", "[[path]]\nid=\"x\"\nclass=\"credential\"\nwhat=\"x\"\nsource=\"s\"\nhome=[\".x\"]\n[[path]]\nid=\"x\"\nclass=\"credential\"\nwhat=\"x\"\nsource=\"s\"\nhome=[\".y\"]\n", ""},
		{"vendor wildcard", "", "[[vendor]]\nhost=\"*.evil\"\nsource=\"s\"\n"},
		{"vendor relative path", "", "[[vendor]]\nhost=\"a.example\"\npaths=[\"x\"]\nsource=\"s\"\n"},
		{"service port", "", "[[service]]\nport=0\nwhat=\"x\"\nsource=\"s\"\n"},
	}
	for _, b := range bad {
		if _, err := load([]byte(b.paths), []byte(b.hosts)); err == nil {
			t.Errorf("%s: loaded without error", b.name)
		}
	}
}

// homes are the spellings of a home directory that every home pattern must hold for.
var homes = []string{"~", "/home/dev", "/home/alice", "/Users/bob", "/root", "/mnt/c/Users/carol", "/proc/self/root/home/dev",
	"~alice", "$HOME", "${HOME}", "/var/home/erin", "/private/var/root"}

func TestPathClassesAcrossHomes(t *testing.T) {
	c := Default()
	cases := []struct {
		class Class
		rel   string // below a home
		want  bool
	}{
		{Credential, ".ssh/id_rsa", true},
		{Credential, ".ssh/id_ed25519_sk", true},
		{Credential, ".ssh/deploy_key", true},
		{Credential, ".ssh/id_rsa.pub", false},
		{Credential, ".ssh/known_hosts", false},
		{Credential, ".ssh/config", false},
		{Credential, ".ssh", true},
		{Credential, ".aws/credentials", true},
		{Credential, ".aws/sso/cache/abc.json", true},
		{Credential, ".kube/config", true},
		{Credential, ".kube/config-prod", true},
		{Credential, ".config/gcloud/credentials.db", true},
		{Credential, ".config/gcloud/configurations/config_default", false},
		{Credential, ".azure/msal_token_cache.json", true},
		{Credential, ".config/doctl/config.yaml", true},
		{Credential, ".netrc", true},
		{Credential, ".pgpass", true},
		{Credential, ".my.cnf", true},
		{Credential, ".config/git/credentials", true},
		{Credential, ".git-credentials", true},
		{Credential, ".docker/config.json", true},
		{Credential, ".npmrc", true},
		{Credential, ".pypirc", true},
		{Credential, ".claude/.credentials.json", true},
		{Credential, ".codex/auth.json", true},
		{Credential, ".config/rclone/rclone.conf", true},
		{Credential, ".s3cfg", true},
		{Credential, ".config/github-copilot/hosts.json", true},
		{Credential, ".config/gh/hosts.yml", true},
		{Credential, ".config/stripe/config.toml", true},
		{Credential, ".config/containers/auth.json", true},
		{Credential, ".config/microsoft-edge/Default/Login Data", true},
		{Credential, "snap/chromium/common/chromium/Default/Cookies", true},
		{Credential, ".var/app/org.mozilla.firefox/.mozilla/firefox/x.default/logins.json", true},
		{Credential, "Library/Keychains/login.keychain-db", true},
		{Credential, ".gnupg/private-keys-v1.d/AB.key", true},
		{Credential, ".gnupg/gpg.conf", false},
		{Credential, "project/.env", true},
		{Credential, "project/.env.example", false},
		{Credential, "project/src/main.go", false},
		{Credential, ".bashrc", false},
		{AgentConfig, ".claude/settings.json", true},
		{AgentConfig, ".claude/settings.local.json", true},
		{AgentConfig, "project/.claude/settings.local.json", true},
		{AgentConfig, ".claude.json", true},
		{AgentConfig, "project/.mcp.json", true},
		{AgentConfig, ".codex/config.toml", true},
		{AgentConfig, "project/.codex/hooks.json", true},
		{AgentConfig, "project/.cursor/permissions.json", true},
		{AgentConfig, "project/.vscode/mcp.json", true},
		{AgentConfig, "project/.vscode/tasks.json", false},
		{AgentConfig, "project/.vscode/settings.json", false},
		{AgentConfig, ".gemini/settings.json", true},
		{AgentConfig, ".config/guardian/config.toml", true},
		{AgentConfig, "project/.guardian.toml", true},
		{AgentConfig, "project/.claude/agents/reviewer.md", false},
		{Persistence, ".bashrc", true},
		{Persistence, ".bash_aliases", true},
		{Persistence, ".bashrc.d/10-path.sh", true},
		{Persistence, ".oh-my-zsh/custom/evil.zsh", true},
		{Persistence, ".config/fish/conf.d/x.fish", true},
		{Persistence, ".vimrc", true},
		{Persistence, ".tmux.conf", true},
		{Persistence, ".gitconfig", true},
		{Persistence, ".npmrc", true},
		{Persistence, ".local/lib/python3.12/site-packages/evil.pth", true},
		{Persistence, ".config/environment.d/10-x.conf", true},
		{Persistence, ".config/autostart/x.desktop", true},
		{Persistence, ".local/share/applications/x.desktop", true},
		{Persistence, ".config/systemd/user/x.service", true},
		{Persistence, "Library/LaunchAgents/com.x.plist", true},
		{Persistence, ".ssh/authorized_keys", true},
		{Persistence, "project/.git/hooks/pre-commit", true},
		{Persistence, "project/.git/hooks/pre-commit.sample", false},
		{Persistence, "project/src/rc.go", false},
		{Persistence, "notes/.bashrc-ideas.md", false},
	}
	for _, tc := range cases {
		for _, h := range homes {
			p := h + "/" + tc.rel
			if got := c.Is(tc.class, p, "/home/dev"); got != tc.want {
				t.Errorf("Is(%s, %q) = %v, want %v", tc.class, p, got, tc.want)
			}
		}
	}
}

func TestPathSpellings(t *testing.T) {
	c := Default()
	cases := []struct {
		class Class
		p     string
		want  bool
	}{
		{Credential, "~/.aws/*", true},
		{Credential, "~/.s*/id_*", true},
		{Credential, "~/.ssh/*", true},
		{Credential, "~/.ssh/*.pub", false},
		{Credential, "~/.aws/{credentials,config}", true},
		{Credential, "~/.{aws,ssh}/x", true},
		{Credential, "~/{notes,docs}.txt", false},
		{Credential, "~/*", false},
		{Credential, "/home/*/.ssh/id_rsa", true},
		{Credential, "/etc/shadow", true},
		{Credential, "/private/etc/shadow", true},
		{Credential, "/etc/ssh/ssh_host_dsa_key", true},
		{Credential, "/etc/ssh/ssh_host_ed25519_key.pub", false},
		{Credential, "/proc/1234/mem", true},
		{Credential, "/proc/self/environ", true},
		{Credential, "/proc/self/root/etc/shadow", true},
		{Credential, "/proc/1/root/root/.ssh/id_rsa", true},
		{Credential, "/run/secrets/db", true},
		{Credential, "/etc/passwd", false},
		{Credential, "/home/dev/project/certs/server.pem", true},
		{Credential, "/home/dev/project/*", false},
		{Credential, "/home/dev/project/*.pem", true},
		{Credential, "/home/dev/project/.env*", true},
		{Credential, "/home/dev/project/certs/server-key.pem", true},
		{Credential, "/home/dev/project/tls.key", true},
		{Credential, "/home/dev/project/cert.pem", false},
		{Credential, "/home/dev/project/../.aws/credentials", true},
		{AgentConfig, "/etc/claude-code/managed-settings.json", true},
		{AgentConfig, "/home/dev/project/*", false},
		{AgentConfig, "/home/dev/project/.claude/*", true},
		{AgentConfig, "/home/dev/project/*.json", false},
		{Credential, "/home/dev/project/com.acme.billing.*", false},
		{Credential, "/etc/*", true},
		{Persistence, "/etc/profile.d/x.sh", true},
		{Persistence, "/etc/ld.so.preload", true},
		{Persistence, "/var/spool/cron/crontabs/root", true},
		{Persistence, "/usr/lib/python3/dist-packages/x.pth", true},
		{Persistence, "/Library/LaunchDaemons/x.plist", true},
		{Persistence, "/etc/hosts", false},
		{Privilege, "/etc/sudoers.d/dev", true},
		{Privilege, "/etc/pam.d/sshd", true},
		{SecurityControl, "/etc/selinux/config", true},
		{SecurityControl, "/etc/audit/rules.d/x.rules", true},
		{SecurityControl, "/etc/ufw/ufw.conf", true},
		{SecurityControl, "/usr/local/share/ca-certificates/x.crt", true},
		{SecurityControl, "/etc/nginx/nginx.conf", false},
	}
	for _, tc := range cases {
		if got := c.Is(tc.class, tc.p, "/home/dev"); got != tc.want {
			t.Errorf("Is(%s, %q) = %v, want %v", tc.class, tc.p, got, tc.want)
		}
	}
}

func TestHolds(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		p    string
		want bool
	}{
		{"~/.config", true}, {"/home/alice/.aws", true}, {"~/Library", true}, {"~", false}, {"/", false}, {"~/src", false}, {"~/.config/nvim", false},
	} {
		if _, got := c.Holds(Credential, tc.p, "/home/dev"); got != tc.want {
			t.Errorf("Holds(%q) = %v, want %v", tc.p, got, tc.want)
		}
	}
}

func TestHostClasses(t *testing.T) {
	c := Default()
	cases := []struct {
		host string
		want HostClass
	}{
		{"localhost", HostLoopback}, {"LOCALHOST.", HostLoopback}, {"app.localhost", HostLoopback}, {"127.0.0.1", HostLoopback},
		{"127.1", HostLoopback}, {"2130706433", HostLoopback}, {"0x7f000001", HostLoopback}, {"0177.0.0.1", HostLoopback},
		{"0x7f.0.0.1", HostLoopback}, {"[::1]", HostLoopback}, {"::ffff:127.0.0.1", HostLoopback}, {"[::ffff:7f00:1]", HostLoopback},
		{"0.0.0.0", HostLoopback}, {"0", HostLoopback}, {"127.0.0.1.", HostLoopback}, {"host.docker.internal", HostLoopback},
		{"127.attacker.example", HostPublic}, {"localhost.evil.example", HostPublic},
		{"169.254.169.254", HostMetadata}, {"2852039166", HostMetadata}, {"0xa9fea9fe", HostMetadata}, {"0251.0376.0251.0376", HostMetadata},
		{"169.254.43518", HostMetadata}, {"[::ffff:169.254.169.254]", HostMetadata}, {"[::ffff:a9fe:a9fe]", HostMetadata}, {"[64:ff9b::a9fe:a9fe]", HostMetadata},
		{"169.254.169.254.", HostMetadata}, {"fd00:ec2::254", HostMetadata}, {"[fd00:ec2::254]", HostMetadata}, {"metadata.google.internal", HostMetadata},
		{"metadata.google.internal.", HostMetadata}, {"METADATA", HostMetadata}, {"instance-data", HostMetadata}, {"100.100.100.200", HostMetadata},
		{"169.254.170.2", HostMetadata}, {"169.254.169.254.nip.io", HostMetadata}, {"a9fea9fe.nip.io", HostMetadata}, {"x-169-254-169-254.sslip.io", HostMetadata},
		{"127.0.0.1.nip.io", HostRebinding}, {"app.localtest.me", HostRebinding}, {"localtest.me", HostRebinding}, {"x.lvh.me", HostRebinding},
		{"10.1.2.3", HostPrivate}, {"192.168.0.10", HostPrivate}, {"172.20.0.1", HostPrivate}, {"169.254.1.1", HostPrivate}, {"fd12::1", HostPrivate},
		{"8.8.8.8", HostPublic}, {"example.com", HostPublic}, {"nip.io.evil.example", HostPublic},
	}
	for _, tc := range cases {
		if got := c.Host(tc.host).Class; got != tc.want {
			t.Errorf("Host(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}

func TestLoopbackService(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		host, port string
		want       bool
	}{
		{"localhost", "2375", true}, {"127.0.0.1", "8200", true}, {"[::1]", "9222", true}, {"0x7f000001", "6443", true}, {"localhost", "10250", true},
		{"127.0.0.1", "2379", true}, {"localhost", "3000", false}, {"localhost", "", false}, {"example.com", "2375", false}, {"127.0.0.1.nip.io", "2375", false},
	} {
		if _, got := c.LoopbackService(tc.host, tc.port); got != tc.want {
			t.Errorf("LoopbackService(%q, %q) = %v, want %v", tc.host, tc.port, got, tc.want)
		}
	}
}

func TestVendor(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		u    string
		want bool
	}{
		{"https://sh.rustup.rs", true}, {"https://astral.sh/uv/install.sh", true}, {"https://deno.land/install.sh", true},
		{"https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh", true}, {"https://get.docker.com/", true},
		{"https://astral.sh.evil.example/uv/install.sh", false}, {"https://evil.astral.sh/uv/install.sh", false}, {"https://astral.sh/x/evil.sh", false},
		{"https://deno.land/x/evil/mod.sh", false}, {"https://raw.githubusercontent.com/evil/install/main/i.sh", false},
		{"https://raw.githubusercontent.com/Homebrew/install/../../evil/x", false}, {"https://sh.rustup.rs@evil.example/", false},
		{"https://SH.RUSTUP.RS./", true}, {"ftp://sh.rustup.rs/", false},
	} {
		u, err := url.Parse(tc.u)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := c.Vendor(u); got != tc.want {
			t.Errorf("Vendor(%q) = %v, want %v", tc.u, got, tc.want)
		}
	}
}

func TestExpandBraces(t *testing.T) {
	for in, want := range map[string]string{
		"~/.aws/{credentials,config}": "~/.aws/credentials ~/.aws/config",
		"{a,b}{1,2}":                  "a1 a2 b1 b2",
		"x{a,{b,c}}y":                 "xay xby xcy",
		"${HOME}/x":                   "${HOME}/x",
		"{solo}":                      "{solo}",
		"plain":                       "plain",
	} {
		if got := strings.Join(ExpandBraces(in, 64), " "); got != want {
			t.Errorf("ExpandBraces(%q) = %q, want %q", in, got, want)
		}
	}
	if n := len(ExpandBraces("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", 64)); n != 64 {
		t.Errorf("expansion not capped: %d", n)
	}
}

func TestGlobIntersect(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"id_*", "*", true}, {"id_*", "id_rsa", true}, {"*.pem", "*key*", true}, {"credentials", "cred*", true}, {"credentials", "c?edentials", true},
		{"config", "*.json", false}, {"id_*", "*.pub", true}, {".ssh", "*", false}, {".ssh", ".s*", true}, {"abc", "a[bx]c", true},
	} {
		if got := segIntersects(tc.a, tc.b); got != tc.want {
			t.Errorf("segIntersects(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestCommandsExclude: an excluded argument takes a use out of its entry wherever it appears,
// alone or as --opt=value; other uses keep the entry.
func TestCommandsExclude(t *testing.T) {
	c, err := loadCommands([]byte(`
[[command]]
name = "mkcert"
class = "workspace_write"
exclude = ["-install", "--mode"]
what = "makes certificates"
source = "test"
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"localhost", "127.0.0.1"}, true},
		{[]string{"-install"}, false},
		{[]string{"localhost", "-install"}, false},
		{[]string{"--mode=x", "localhost"}, false},
		{[]string{"-installer"}, true},
	} {
		if _, ok := c.Lookup("mkcert", tc.args); ok != tc.ok {
			t.Errorf("Lookup(mkcert %v) = %v, want %v", tc.args, ok, tc.ok)
		}
	}
	// A one-letter option is excluded inside a bundle of one-letter options too.
	d, err := loadCommands([]byte("[[command]]\nname = \"fdupes\"\nclass = \"read_only\"\nexclude = [\"-d\", \"-N\"]\nwhat = \"w\"\nsource = \"s\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"-r", "photos"}, true},
		{[]string{"-rdN", "photos"}, false},
		{[]string{"-rd", "photos"}, false},
		{[]string{"-Nr", "photos"}, false},
		{[]string{"-r", "-d", "photos"}, false},
		{[]string{"-rS", "photos"}, true},
		{[]string{"-delete-me", "photos"}, true}, // not a bundle: not letters only
		{[]string{"--dry", "photos"}, true},
	} {
		if _, ok := d.Lookup("fdupes", tc.args); ok != tc.ok {
			t.Errorf("Lookup(fdupes %v) = %v, want %v", tc.args, ok, tc.ok)
		}
	}
	if _, err := loadCommands([]byte("[[command]]\nname = \"x\"\nclass = \"network\"\nwhat = \"w\"\nsource = \"s\"\n")); err == nil {
		t.Error("an unknown class loads")
	}
	for _, e := range DefaultCommands().All() {
		if !commandClasses[e.Class] {
			t.Errorf("%s: class %q", e.Name, e.Class)
		}
	}
}

// TestHoldsIndexAgrees checks Holds' index (classIndex.mayHold) against a scan of every
// entry: every directory above each catalogued pattern, in each spelling, and a few that
// hold nothing must get the same answer and the same entry.
func TestHoldsIndexAgrees(t *testing.T) {
	c := Default()
	var paths []string
	for _, e := range c.paths {
		for _, p := range e.Home {
			segs := strings.Split(strings.TrimPrefix(p, "~/"), "/")
			for i := 1; i <= len(segs); i++ {
				d := strings.Join(segs[:i], "/")
				paths = append(paths, "~/"+d, "/home/alice/"+d, "$HOME/"+d, "/Users/bob/"+d+"/")
			}
		}
		for _, p := range e.Abs {
			segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
			for i := 1; i <= len(segs); i++ {
				paths = append(paths, "/"+strings.Join(segs[:i], "/"), "/private/"+strings.Join(segs[:i], "/"))
			}
		}
	}
	paths = append(paths, "~", "/", "~/src", "/home/dev/project/src", "/tmp/x", "~/.c*", "/e*", "~/{.ssh,src}", "/{etc,var}", "~/*/x", "relative/dir")
	for _, cl := range []Class{Credential, AgentConfig, Persistence, Privilege, SecurityControl, SystemCritical} {
		for _, p := range paths {
			got, gok := c.Holds(cl, p, "/home/dev")
			want, wok := holdsScan(c, cl, p, "/home/dev")
			if gok != wok || got != want {
				t.Errorf("Holds(%s, %q) = %v %v, scan says %v %v", cl, p, entryID(got), gok, entryID(want), wok)
			}
		}
	}
}

// holdsScan is Holds without the index.
func holdsScan(c *Catalog, class Class, p, home string) (*PathEntry, bool) {
	if !pathLike(p) {
		return nil, false
	}
	for _, w := range ExpandBraces(p, 64) {
		ps, ok := Normalize(w, home)
		if !ok {
			continue
		}
		for _, e := range c.byClass[class] {
			if e.below(ps) {
				return e, true
			}
		}
	}
	return nil, false
}

func entryID(e *PathEntry) string {
	if e == nil {
		return "<nil>"
	}
	return e.ID
}

// TestDefaultCommandsIndexed checks that the embedded command catalogue read name by name
// (DefaultCommands, indexCommands) answers as the whole file decoded does: the same names,
// each name's entries identical and in order, and no name the file lacks.
func TestDefaultCommandsIndexed(t *testing.T) {
	whole, err := loadCommands(commandsTOML())
	if err != nil {
		t.Fatal(err)
	}
	idx := DefaultCommands()
	if len(idx.index.entries) != len(whole.byName) {
		t.Errorf("index holds %d names, the file %d", len(idx.index.entries), len(whole.byName))
	}
	for name, want := range whole.byName {
		if got := idx.index.lookup(name); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: indexed entries %+v, whole-file entries %+v", name, got, want)
		}
	}
	for _, name := range []string{"", "git", "command", "name", "[[command]]"} {
		if _, ok := idx.Lookup(name, nil); ok != (whole.byName[name] != nil) {
			t.Errorf("Lookup(%q) = %v, whole file %v", name, ok, whole.byName[name] != nil)
		}
	}
	if got := idx.All(); !reflect.DeepEqual(got, whole.Command) {
		t.Errorf("All() differs from the whole file")
	}
}
