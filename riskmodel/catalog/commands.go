package catalog

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// Everyday commands the rules would otherwise call unknown, as data with the public
// reference each entry was taken from (mostly the tldr pages). An entry only says what a
// command is when no risk rule matched it: a catalogued read-only tool whose arguments read a
// credential, send data or write outside the workspace is judged by those rules first.

// The catalogue is commands.toml followed by every commands_*.toml in name order: the
// breadth files (one per public source or group of tools, e.g. the tldr pages) are kept apart
// so each can be reviewed and grown without touching the hand-written entries. One loader
// reads them as one file, so a name listed in two of them is the same error as in one.
//
//go:embed commands*.toml
var commandFiles embed.FS

// commandsTOML is the whole catalogue, its files joined on first use (a hook process that
// never looks a command up does not copy it).
var commandsTOML = sync.OnceValue(func() []byte { return joinCommandFiles(commandFiles) })

// joinCommandFiles concatenates the embedded catalogue files, commands.toml first and the
// others in name order, each ending in a newline.
func joinCommandFiles(fsys embed.FS) []byte {
	names, err := fs.Glob(fsys, "commands_*.toml")
	if err != nil {
		panic("catalog: " + err.Error())
	}
	sort.Strings(names)
	names = append([]string{"commands.toml"}, names...)
	// Every hook process joins the files on its first lookup: size the result once and read
	// each file straight into it (ReadFile and a growing append copied the ~400 KB three
	// times over, a third of a millisecond of the hook's start).
	files := make([]fs.File, len(names))
	total := 0
	for i, n := range names {
		f, err := fsys.Open(n)
		if err != nil {
			panic("catalog: " + err.Error())
		}
		st, err := f.Stat()
		if err != nil {
			panic("catalog: " + err.Error())
		}
		files[i] = f
		total += int(st.Size()) + 1
	}
	out := make([]byte, 0, total)
	for i, f := range files {
		st, _ := f.Stat()
		n := int(st.Size())
		if _, err := io.ReadFull(f, out[len(out):len(out)+n]); err != nil {
			panic("catalog: " + names[i] + ": " + err.Error())
		}
		out = out[:len(out)+n]
		f.Close()
		if n > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
	}
	return out
}

// CommandClass is what a catalogued command does.
type CommandClass string

// The command classes.
const (
	// CommandReadOnly inspects and prints: linters and scanners that report, viewers, listings.
	CommandReadOnly CommandClass = "read_only"
	// CommandBuild builds, tests, formats or generates code inside the project.
	CommandBuild CommandClass = "build"
	// CommandWorkspaceWrite writes files: routine (contained) when every path it is given
	// lies inside the workspace or a temporary directory, otherwise not covered.
	CommandWorkspaceWrite CommandClass = "workspace_write"
	// CommandLocalNet talks to, or serves on, network addresses named in its arguments
	// (load generators, gRPC and WebSocket clients, port scanners): routine when every address
	// it names is this machine's loopback, otherwise not covered (judged as unknown, where a
	// URL to another host is high).
	CommandLocalNet CommandClass = "local_net"
	// CommandOpener hands a web URL to the browser or a project file to its desktop app:
	// routine for http(s) URLs and for files inside the workspace that are not programs or
	// installers.
	CommandOpener CommandClass = "opener"
	// CommandTunnel opens a tunnel, relay or listener that makes a local service or this
	// machine reachable from elsewhere (a public relay, a reverse port forward, a SOCKS
	// proxy for a remote peer, a shared terminal): docs/policy.md's deny list. Args and
	// Local narrow which uses do that.
	CommandTunnel CommandClass = "tunnel"
	// CommandCodingAgent is a coding agent's command line (codex, claude, gemini, …). Args
	// are the options that run it with its approvals or sandbox switched off, which
	// docs/policy.md puts on the deny list ("the agent's own approval or sandbox settings"):
	// an agent that starts another without them has left its own control. Other uses are not
	// covered (they stay unknown).
	CommandCodingAgent CommandClass = "coding_agent"
)

// commandClasses are the valid classes.
var commandClasses = map[CommandClass]bool{CommandReadOnly: true, CommandBuild: true, CommandWorkspaceWrite: true,
	CommandLocalNet: true, CommandOpener: true, CommandTunnel: true, CommandCodingAgent: true}

// Command is one catalogued command.
type Command struct {
	Name  string       `toml:"name" json:"name"`
	Class CommandClass `toml:"class" json:"class"`
	// Subcommands, when given, are the only leading words (after the name) the class holds
	// for: "simctl list" covers `xcrun simctl list devices`; other uses stay unknown. "" is
	// the bare command with no arguments at all (xmake alone builds). A word ending in '*'
	// matches every word it begins ("--master local*" covers local[4] and local[*]; "*" alone
	// any one word, an option's value: "--app * run").
	Subcommands []string `toml:"subcommands" json:"subcommands,omitempty"`
	// Globals are the options a CLI takes before its subcommand that consume the next word
	// (restic -r REPO, borg --remote-path PATH): with them set, the subcommands are also
	// matched after the leading options, so `restic -r /srv/repo check` is the entry's
	// "check". Every other leading option word is skipped alone (restic --no-lock snapshots).
	Globals []string `toml:"globals" json:"globals,omitempty"`
	// Exclude are arguments that take a use out of the entry wherever they appear, given
	// alone or as --opt=value: mkcert's -install changes the system trust store, ip's add
	// and del change the network. One ending in '=' excludes only the --opt=value form
	// (latexmk's -xelatex is a flag, -xelatex=CMD names the program it runs).
	Exclude []string `toml:"exclude" json:"exclude,omitempty"`
	// Values are options whose value is a word, not a path (ast-grep's --pattern, a
	// generator's -g LANGUAGE): a workspace writer's paths are checked without them.
	Values []string `toml:"values" json:"values,omitempty"`
	// Env are options that name the environment the command acts on (dbt's --target,
	// Symfony's --env): a value that names production or staging takes the use out of the
	// entry, so acting there stays a question (docs/policy.md: production and staging changes
	// are asked about).
	Env []string `toml:"env" json:"env,omitempty"`
	// NoURL takes a use that names a URL (an argument with "://") out of the entry: a build
	// tool or runtime that can fetch and run what a URL names (scala-cli run URL, jbang URL,
	// zef install https://…) is everyday only on the project's own files and the usual
	// registry, so such a use is judged as unknown, where a URL to another host is high.
	NoURL bool `toml:"no_url" json:"no_url,omitempty"`
	// LocalDefault says the command, named no address, listens on or talks to this machine's
	// loopback only (jupyter lab binds localhost unless told --ip); for local_net entries.
	LocalDefault bool `toml:"local_default" json:"local_default,omitempty"`
	// HostOptions are the options whose value is the address a local_net entry listens on
	// or talks to, when they are not the usual long ones (--ip, --host, --bind, …; see
	// Command.AddressOptions): flask run -h, gunicorn -b, redis-benchmark -h, zola serve -i.
	// A value there that is not this machine's loopback — or, for a local_default listener,
	// that is every interface — takes the use out of the entry. Short options are named
	// per entry because -h, -b and -i mean help, batch or input to most other tools.
	HostOptions []string `toml:"host_options" json:"host_options,omitempty"`
	// LabNet says a local_net entry is also routine against private lab addresses (RFC 1918,
	// IPv6 unique-local, link-local), named as IP addresses or ranges and never by a host
	// name: a scan, ping, SNMP walk or BMC read of the user's own lab network is read-only
	// inspection (riskmodel/r20cat_lab.go). Addresses on the internet stay not covered.
	LabNet bool `toml:"lab_net" json:"lab_net,omitempty"`
	// Args, when given, are arguments one of which a use must have to be in the entry:
	// "TCP-LISTEN:" (ending in ':' or '=') is a prefix, "-L" an option given alone, as
	// -Lvalue or --opt=value, or inside a bundle of one-letter options (-fNL), anything else
	// an exact word. Case is ignored. socat is a tunnel only when it listens; gost only with -L.
	Args []string `toml:"args" json:"args,omitempty"`
	// Local are argument fragments that keep a use on this machine's loopback
	// (bind=127.0.0.1): such a use exposes nothing.
	Local []string `toml:"local" json:"local,omitempty"`
	// Packages are the names a package runner (npx, bunx, uvx, pipx run) fetches the
	// command by, scope and version dropped (@anthropic-ai/claude-code → claude-code).
	Packages []string `toml:"packages" json:"packages,omitempty"`
	What     string   `toml:"what" json:"what"`
	Source   string   `toml:"source" json:"source"`

	// Outputs are options whose value is a file or directory a workspace writer writes
	// (pandoc -o, asciidoctor -D), and WritesLast says its last operand is (magick IN OUT,
	// ffmpeg -i IN OUT): the file rules judge those writes as they judge cp's destination,
	// so a document rendered into ~/.bashrc is a startup-file write, not a routine render.
	Outputs    []string `toml:"outputs" json:"outputs,omitempty"`
	WritesLast bool     `toml:"writes_last" json:"writes_last,omitempty"`

	subWords [][]string // Subcommands split into words, once
}

// Commands is the command catalogue.
type Commands struct {
	Command []Command `toml:"command"`
	// byName holds each name's entries; a name has more than one when its subcommands
	// differ in class (jupyter nbconvert builds, jupyter lab serves).
	byName map[string][]*Command
	// byPkg holds the entries by the package names runners fetch them by (Packages).
	byPkg map[string]*Command

	// index, when set, is a catalogue read name by name (indexCommands): Lookup decodes the
	// entries of the name it is asked about, and All the whole file.
	index *commandIndex
}

// DefaultCommands is the embedded command catalogue. A review looks up a few names in it
// (every shell command's name, for the tunnel and remote rules), and decoding all of
// commands.toml through go-toml's reflection cost a hook process ~270 KB and a few hundred
// microseconds before its first answer, so the catalogue is indexed by name and a name's
// entries decoded, and validated together by the same loader, when a lookup asks for it.
// TestDefaultCommandsIndexed checks the index answers as the whole file decoded does.
var DefaultCommands = sync.OnceValue(func() *Commands { return &Commands{index: indexCommands(commandsTOML())} })

// commandIndex locates the entries of a command catalogue by name without decoding them.
type commandIndex struct {
	data    []byte
	entries map[string][][2]int // name → its [[command]] tables, as offsets in data
	decoded sync.Map            // name → []*Command, names decoded so far
	all     func() *Commands    // the whole catalogue, decoded once
}

// indexCommands indexes data, a catalogue whose entries are [[command]] tables each with a
// line name = "…". The tables are found by their header lines and the names by their key
// lines; a name's entries are decoded from their own lines, by the loader of the whole file.
//
// Every hook process builds this index for its first command, so it jumps from header to
// header and from a header to its name line with bytes.Index instead of reading the ~1,500
// lines one by one (a tenth of the time). TestIndexCommandsByLine checks it against the
// line-by-line reading.
func indexCommands(data []byte) *commandIndex {
	x := &commandIndex{data: data, entries: make(map[string][][2]int, bytes.Count(data, []byte("\n[[command]]\n")))}
	x.all = sync.OnceValue(func() *Commands {
		c, err := loadCommands(data)
		if err != nil {
			panic("catalog: " + err.Error())
		}
		return c
	})
	var headers []int // the offsets of the header lines
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte("[[command]]"))
		if i < 0 {
			break
		}
		i += off
		ls, le := lineAt(data, i)
		if bytes.Equal(bytes.TrimSpace(data[ls:le]), []byte("[[command]]")) {
			headers = append(headers, ls)
		}
		off = le
	}
	// Each name's spans are a one-element window of one array (a name listed twice grows
	// its own copy): one allocation for all, rather than one per name — some 1,800 of them
	// in every hook process since the tldr breadth files.
	spans := make([][2]int, len(headers))
	for k, start := range headers {
		end := len(data)
		if k+1 < len(headers) {
			end = headers[k+1]
		}
		if name := entryName(data[start:end]); name != "" {
			spans[k] = [2]int{start, end}
			if prev, ok := x.entries[name]; ok {
				x.entries[name] = append(prev, spans[k])
			} else {
				x.entries[name] = spans[k : k+1 : k+1]
			}
		}
	}
	return x
}

// lineAt returns the bounds of the line holding data[i], its newline included.
func lineAt(data []byte, i int) (start, end int) {
	start = bytes.LastIndexByte(data[:i], '\n') + 1
	end = len(data)
	if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
		end = i + j + 1
	}
	return start, end
}

// entryName returns the name of the [[command]] table in entry (its header line first): the
// value of its first line name = "…" that unquotes, or "".
func entryName(entry []byte) string {
	const key = "\nname = \""
	for off := 0; ; {
		i := bytes.Index(entry[off:], []byte(key))
		if i < 0 {
			return ""
		}
		i += off + 1 // the line's start
		_, le := lineAt(entry, i)
		if n, err := strconv.Unquote(string(bytes.TrimSpace(entry[i+len("name = ") : le]))); err == nil && n != "" {
			return n
		}
		off = le - 1
	}
}

// lookup returns the entries named name, decoding them on first use.
func (x *commandIndex) lookup(name string) []*Command {
	if es, ok := x.decoded.Load(name); ok {
		return es.([]*Command)
	}
	spans, ok := x.entries[name]
	if !ok {
		return nil
	}
	var doc []byte
	for _, sp := range spans {
		doc = append(doc, x.data[sp[0]:sp[1]]...)
	}
	c, err := loadCommands(doc)
	if err != nil || len(c.byName[name]) != len(spans) {
		panic(fmt.Sprintf("catalog: commands.toml: entries of %q: %v", name, err))
	}
	es, _ := x.decoded.LoadOrStore(name, c.byName[name])
	return es.([]*Command)
}

func loadCommands(data []byte) (*Commands, error) {
	var c Commands
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("commands.toml: %w", err)
	}
	c.byName = map[string][]*Command{}
	for i := range c.Command {
		e := &c.Command[i]
		switch {
		case e.Name == "" || strings.ContainsAny(e.Name, "/ "):
			return nil, fmt.Errorf("commands.toml: command %q: a bare command name is required", e.Name)
		case !commandClasses[e.Class]:
			return nil, fmt.Errorf("commands.toml: command %q: class %q is not read_only, build, workspace_write, local_net, opener, tunnel or coding_agent", e.Name, e.Class)
		case len(e.Local) > 0 && e.Class != CommandTunnel:
			return nil, fmt.Errorf("commands.toml: command %q: local is for class tunnel", e.Name)
		case len(e.Args) > 0 && e.Class != CommandTunnel && e.Class != CommandCodingAgent:
			return nil, fmt.Errorf("commands.toml: command %q: args are for classes tunnel and coding_agent", e.Name)
		case e.Class == CommandCodingAgent && len(e.Args) == 0:
			return nil, fmt.Errorf("commands.toml: command %q: a coding_agent entry needs the args that switch its approvals or sandbox off", e.Name)
		case e.What == "" || e.Source == "":
			return nil, fmt.Errorf("commands.toml: command %q: what and source are required", e.Name)
		case len(c.byName[e.Name]) > 0 && (len(e.Subcommands) == 0 || len(c.byName[e.Name][0].Subcommands) == 0):
			return nil, fmt.Errorf("commands.toml: command %q is listed twice; a name listed more than once needs subcommands in every entry", e.Name)
		case (len(e.Outputs) > 0 || e.WritesLast) && e.Class != CommandWorkspaceWrite:
			return nil, fmt.Errorf("commands.toml: command %q: outputs and writes_last are for workspace_write entries", e.Name)
		case len(e.Globals) > 0 && len(e.Subcommands) == 0:
			return nil, fmt.Errorf("commands.toml: command %q: globals are for entries with subcommands", e.Name)
		case e.LocalDefault && e.Class != CommandLocalNet:
			return nil, fmt.Errorf("commands.toml: command %q: local_default is for local_net entries", e.Name)
		case len(e.HostOptions) > 0 && e.Class != CommandLocalNet:
			return nil, fmt.Errorf("commands.toml: command %q: host_options are for local_net entries", e.Name)
		case e.LabNet && e.Class != CommandLocalNet:
			return nil, fmt.Errorf("commands.toml: command %q: lab_net is for local_net entries", e.Name)
		}
		for _, sub := range e.Subcommands {
			e.subWords = append(e.subWords, strings.Fields(sub))
		}
		c.byName[e.Name] = append(c.byName[e.Name], e)
	}
	c.byPkg = map[string]*Command{}
	for i := range c.Command {
		e := &c.Command[i]
		for _, p := range e.Packages {
			if p == "" || strings.ContainsAny(p, "/@ ") || len(c.byName[p]) > 0 || c.byPkg[p] != nil {
				return nil, fmt.Errorf("commands.toml: command %q: package %q must be a bare name listed once and not a command's", e.Name, p)
			}
			c.byPkg[p] = e
		}
	}
	return &c, nil
}

// Lookup returns the entry for the command name whose leading arguments (args, after the
// name) it covers.
func (c *Commands) Lookup(name string, args []string) (*Command, bool) {
	es := c.byName[name]
	if c.index != nil {
		es = c.index.lookup(name)
	}
	for _, e := range es {
		if e.covers(args) {
			return e, true
		}
	}
	return nil, false
}

// LookupPackage is Lookup for the name a package runner fetches a command by (an entry's
// Packages, or its name).
func (c *Commands) LookupPackage(pkg string, args []string) (*Command, bool) {
	if c.index != nil {
		// Packages are not indexed by name: a runner's package (rare beside everyday
		// commands) costs the whole catalogue's decode, once.
		c = c.index.all()
	}
	if e := c.byPkg[pkg]; e != nil {
		if e.covers(args) {
			return e, true
		}
		return nil, false
	}
	return c.Lookup(pkg, args)
}

func (e *Command) covers(args []string) bool {
	for i, a := range args {
		if e.NoURL && strings.Contains(a, "://") {
			return false
		}
		for _, x := range e.Exclude {
			if a == x || strings.HasPrefix(a, x) && strings.HasPrefix(a[len(x):], "=") ||
				strings.HasSuffix(x, "=") && strings.HasPrefix(a, x) || inFlagBundle(a, x) {
				return false
			}
		}
		for _, x := range e.Env {
			v, ok := "", false
			switch {
			case a == x && i+1 < len(args):
				v, ok = args[i+1], true
			case strings.HasPrefix(a, x+"="):
				v, ok = a[len(x)+1:], true
			}
			if ok && ProductionLike(v) {
				return false
			}
		}
	}
	if len(e.Subcommands) == 0 {
		return true
	}
	if e.coversSub(args) {
		return true
	}
	if len(e.Globals) == 0 {
		return false
	}
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") && len(args[i]) > 1 {
		if slices.Contains(e.Globals, args[i]) {
			i++ // the option's value
		}
		i++
	}
	return i > 0 && i < len(args) && e.coversSub(args[i:])
}

// coversSub reports whether args begin with one of the entry's subcommands.
func (e *Command) coversSub(args []string) bool {
	for _, words := range e.subWords {
		if len(words) == 0 {
			if len(args) == 0 {
				return true // "": the bare command
			}
			continue
		}
		if len(args) < len(words) {
			continue
		}
		ok := true
		for i, w := range words {
			if args[i] != w && !(strings.HasSuffix(w, "*") && strings.HasPrefix(args[i], w[:len(w)-1])) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// inFlagBundle reports a one-letter option x (-d) given inside a bundle of one-letter options
// (-rdN, -Me): fdupes -rdN deletes as surely as fdupes -r -d -N. A single-dash word of up to
// five letters and digits is read as a bundle; a longer one (-version, -delete) is an option
// of its own. Reading a short single-dash option as a bundle can only take a use out of an
// entry, never put one in.
func inFlagBundle(a, x string) bool {
	if len(x) != 2 || x[0] != '-' || x[1] == '-' || len(a) < 3 || len(a) > 6 || a[0] != '-' || a[1] == '-' {
		return false
	}
	for i := 1; i < len(a); i++ {
		if c := a[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return strings.IndexByte(a[1:], x[1]) >= 0
}

// ProductionLike reports an environment name that is production or staging: one of the
// words prod, production, prd, live, staging, stage, stg, preprod or uat, alone or joined to others by
// punctuation (prod-eu, us_production, staging2). A shared environment is never routine to
// change unasked.
func ProductionLike(v string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	}) {
		switch w {
		case "prod", "production", "prd", "live", "staging", "stage", "stg", "preprod", "preproduction", "uat":
			return true
		}
	}
	return false
}

// Opens reports whether the arguments of a use of a tunnel entry make it open the tunnel:
// one of Args is there (when the entry has Args) and none of Local is.
func (e *Command) Opens(args []string) bool {
	if e.Class != CommandTunnel {
		return false
	}
	for _, a := range args {
		l := strings.ToLower(a)
		for _, x := range e.Local {
			if strings.Contains(l, strings.ToLower(x)) {
				return false
			}
		}
	}
	if len(e.Args) == 0 {
		return true
	}
	for _, a := range args {
		for _, x := range e.Args {
			if argMatches(a, x) {
				return true
			}
		}
	}
	return false
}

// Unsandboxed reports whether the arguments of a use of a coding_agent entry run the agent
// with its approvals or sandbox switched off (one of Args is there).
func (e *Command) Unsandboxed(args []string) (string, bool) {
	if e.Class != CommandCodingAgent {
		return "", false
	}
	for _, a := range args {
		for _, x := range e.Args {
			if argMatches(a, x) {
				return a, true
			}
		}
	}
	return "", false
}

// argMatches reports whether argument a is the use that pattern x (an Args entry) names.
func argMatches(a, x string) bool {
	la, lx := strings.ToLower(a), strings.ToLower(x)
	switch {
	case strings.HasSuffix(x, ":") || strings.HasSuffix(x, "="):
		return strings.HasPrefix(la, lx)
	case strings.HasPrefix(x, "--"):
		return la == lx || strings.HasPrefix(la, lx+"=")
	case len(x) == 2 && x[0] == '-':
		if strings.HasPrefix(a, x) {
			return true // -L, -L:8080, -L=:8080
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			return false
		}
		for _, r := range a[1:] {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return false
			}
		}
		return strings.ContainsRune(a[1:], rune(x[1])) // -fNL
	}
	return la == lx
}

// All lists the catalogue, for listing.
func (c *Commands) All() []Command {
	if c.index != nil {
		c = c.index.all()
	}
	return append([]Command(nil), c.Command...)
}

// defaultAddressOptions are the long options a listener or client is told its address with,
// across the servers and clients the catalogue lists (uvicorn and flask --host, gunicorn
// --bind, jupyter --ip, …).
var defaultAddressOptions = []string{"--ip", "--host", "--hostname", "--bind", "--listen", "--address", "--addr", "--interface",
	"--ServerApp.ip", "--NotebookApp.ip"}

// AddressOptions returns the options whose value is the address the entry listens on or
// talks to: its HostOptions, or the usual long ones.
func (e *Command) AddressOptions() []string {
	if len(e.HostOptions) > 0 {
		return e.HostOptions
	}
	return defaultAddressOptions
}
