package catalog

import (
	"bytes"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// Everyday commands the rules would otherwise call unknown, as data with the public
// reference each entry was taken from (mostly the tldr pages). An entry only says what a
// command is when no risk rule matched it: a catalogued read-only tool whose arguments read a
// credential, send data or write outside the workspace is judged by those rules first.

//go:embed commands.toml
var commandsTOML []byte

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
)

// commandClasses are the valid classes.
var commandClasses = map[CommandClass]bool{CommandReadOnly: true, CommandBuild: true, CommandWorkspaceWrite: true,
	CommandLocalNet: true, CommandOpener: true, CommandTunnel: true}

// Command is one catalogued command.
type Command struct {
	Name  string       `toml:"name" json:"name"`
	Class CommandClass `toml:"class" json:"class"`
	// Subcommands, when given, are the only leading words (after the name) the class holds
	// for: "simctl list" covers `xcrun simctl list devices`; other uses stay unknown.
	Subcommands []string `toml:"subcommands" json:"subcommands,omitempty"`
	// Exclude are arguments that take a use out of the entry wherever they appear, given
	// alone or as --opt=value: mkcert's -install changes the system trust store, ip's add
	// and del change the network.
	Exclude []string `toml:"exclude" json:"exclude,omitempty"`
	// Args, when given, are arguments one of which a use must have to be in the entry:
	// "TCP-LISTEN:" (ending in ':' or '=') is a prefix, "-L" an option given alone, as
	// -Lvalue or --opt=value, or inside a bundle of one-letter options (-fNL), anything else
	// an exact word. Case is ignored. socat is a tunnel only when it listens; gost only with -L.
	Args []string `toml:"args" json:"args,omitempty"`
	// Local are argument fragments that keep a use on this machine's loopback
	// (bind=127.0.0.1): such a use exposes nothing.
	Local  []string `toml:"local" json:"local,omitempty"`
	What   string   `toml:"what" json:"what"`
	Source string   `toml:"source" json:"source"`

	subWords [][]string // Subcommands split into words, once
}

// Commands is the command catalogue.
type Commands struct {
	Command []Command `toml:"command"`
	byName  map[string]*Command

	// index, when set, is a catalogue read entry by entry (indexCommands): Lookup decodes
	// the one entry it needs, and All the whole file.
	index *commandIndex
}

// DefaultCommands is the embedded command catalogue. A review looks up a few names in it
// (every shell command's name, for the tunnel and remote rules), and decoding all of
// commands.toml (~140 entries through go-toml's reflection) cost a hook process ~270 KB and
// a few hundred microseconds before its first answer, so the catalogue is indexed by name and
// an entry decoded, validated the same way, when a lookup finds it.
// TestDefaultCommandsIndexed checks the index answers as the whole file parsed does.
var DefaultCommands = sync.OnceValue(func() *Commands { return &Commands{index: indexCommands(commandsTOML)} })

// commandIndex locates each entry of a command catalogue by name without decoding it.
type commandIndex struct {
	data    []byte
	entries map[string][2]int // name → the entry's [[command]] table, as offsets in data
	decoded sync.Map          // name → *Command, entries decoded so far
	all     func() *Commands  // the whole catalogue, decoded once
}

// indexCommands indexes data, a catalogue whose entries are [[command]] tables each with a
// line name = "…". The tables are found by their header lines and the names by their
// key lines; an entry is decoded from its own lines, by the loader that reads the whole file.
func indexCommands(data []byte) *commandIndex {
	x := &commandIndex{data: data, entries: make(map[string][2]int, bytes.Count(data, []byte("\n[[command]]\n")))}
	x.all = sync.OnceValue(func() *Commands {
		c, err := loadCommands(data)
		if err != nil {
			panic("catalog: " + err.Error())
		}
		return c
	})
	start, name := -1, ""
	end := func(at int) {
		if start >= 0 && name != "" {
			x.entries[name] = [2]int{start, at}
		}
	}
	for off := 0; off < len(data); {
		line := data[off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		switch {
		case bytes.Equal(bytes.TrimSpace(line), []byte("[[command]]")):
			end(off)
			start, name = off, ""
		case start >= 0 && name == "" && bytes.HasPrefix(line, []byte(`name = "`)):
			if n, err := strconv.Unquote(string(bytes.TrimSpace(line[len("name = "):]))); err == nil {
				name = n
			}
		}
		off += len(line)
	}
	end(len(data))
	return x
}

// lookup returns the entry named name, decoding it on first use.
func (x *commandIndex) lookup(name string) *Command {
	if e, ok := x.decoded.Load(name); ok {
		return e.(*Command)
	}
	span, ok := x.entries[name]
	if !ok {
		return nil
	}
	c, err := loadCommands(x.data[span[0]:span[1]])
	if err != nil || len(c.Command) != 1 {
		panic(fmt.Sprintf("catalog: commands.toml: entry %q: %v", name, err))
	}
	e, _ := x.decoded.LoadOrStore(name, &c.Command[0])
	return e.(*Command)
}

func loadCommands(data []byte) (*Commands, error) {
	var c Commands
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("commands.toml: %w", err)
	}
	c.byName = map[string]*Command{}
	for i := range c.Command {
		e := &c.Command[i]
		switch {
		case e.Name == "" || strings.ContainsAny(e.Name, "/ "):
			return nil, fmt.Errorf("commands.toml: command %q: a bare command name is required", e.Name)
		case !commandClasses[e.Class]:
			return nil, fmt.Errorf("commands.toml: command %q: class %q is not read_only, build, workspace_write, local_net or opener", e.Name, e.Class)
		case (len(e.Args) > 0 || len(e.Local) > 0) && e.Class != CommandTunnel:
			return nil, fmt.Errorf("commands.toml: command %q: args and local are for class tunnel", e.Name)
		case e.What == "" || e.Source == "":
			return nil, fmt.Errorf("commands.toml: command %q: what and source are required", e.Name)
		case c.byName[e.Name] != nil:
			return nil, fmt.Errorf("commands.toml: command %q is listed twice", e.Name)
		}
		for _, sub := range e.Subcommands {
			e.subWords = append(e.subWords, strings.Fields(sub))
		}
		c.byName[e.Name] = e
	}
	return &c, nil
}

// Lookup returns the entry for the command name whose leading arguments (args, after the
// name) it covers.
func (c *Commands) Lookup(name string, args []string) (*Command, bool) {
	var e *Command
	if c.index != nil {
		e = c.index.lookup(name)
	} else {
		e = c.byName[name]
	}
	if e == nil {
		return nil, false
	}
	for _, a := range args {
		for _, x := range e.Exclude {
			if a == x || strings.HasPrefix(a, x) && strings.HasPrefix(a[len(x):], "=") {
				return nil, false
			}
		}
	}
	if len(e.Subcommands) == 0 {
		return e, true
	}
	for _, words := range e.subWords {
		if len(args) < len(words) {
			continue
		}
		ok := true
		for i, w := range words {
			if args[i] != w {
				ok = false
				break
			}
		}
		if ok {
			return e, true
		}
	}
	return nil, false
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
