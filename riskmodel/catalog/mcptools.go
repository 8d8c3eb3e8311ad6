package catalog

import (
	"bytes"
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"unicode"

	"github.com/pelletier/go-toml/v2"
)

// MCP tools whose effect their names do not tell, as data with the server's source: the
// reasoning scratchpad of sequential-thinking, a tool that suggests commands without running
// them, a code generator that only reads a schema. An entry only says what the tool is when
// no risk rule matched the call: a secret in the arguments, a URL data is sent to, a local
// path written or deleted are judged by those rules first, whatever the entry says.

//go:embed mcptools.toml
var mcpToolsTOML []byte

// MCPToolClass is what a catalogued MCP tool does.
type MCPToolClass string

// The MCP tool classes.
const (
	// MCPToolNoEffect computes an answer from its arguments and changes nothing: its
	// arguments are prose for the tool, not commands, SQL or code to run.
	MCPToolNoEffect MCPToolClass = "no_effect"
	// MCPToolReadOnly reads from the service (a schema, console messages, documentation) and
	// changes nothing.
	MCPToolReadOnly MCPToolClass = "read_only"
	// MCPToolWorkItem moves the project's own work along on a code host or tracker (asks for
	// a review of a pull request): routine under the same conditions as filing an issue on
	// the project's own repository.
	MCPToolWorkItem MCPToolClass = "work_item"
)

var mcpToolClasses = map[MCPToolClass]bool{MCPToolNoEffect: true, MCPToolReadOnly: true, MCPToolWorkItem: true}

// MCPTool is one catalogued MCP tool.
type MCPTool struct {
	// Tools are the tool's names as its servers publish them ("sequentialthinking"); they
	// are matched ignoring case, "_", "-", "." and spaces.
	Tools []string `toml:"tools" json:"tools"`
	// Servers, when given, are words one of which the server's configured name must contain
	// ("git", "supabase"): the tool name alone is too common to say what it does.
	Servers []string     `toml:"servers" json:"servers,omitempty"`
	Class   MCPToolClass `toml:"class" json:"class"`
	What    string       `toml:"what" json:"what"`
	Source  string       `toml:"source" json:"source"`
}

// MCPTools is the MCP tool catalogue.
type MCPTools struct {
	Tool   []MCPTool `toml:"tool"`
	byName map[string][]*MCPTool
}

// DefaultMCPTools is the embedded MCP tool catalogue, parsed and validated once.
var DefaultMCPTools = sync.OnceValue(func() *MCPTools {
	c, err := loadMCPTools(mcpToolsTOML)
	if err != nil {
		panic("catalog: " + err.Error())
	}
	return c
})

func loadMCPTools(data []byte) (*MCPTools, error) {
	var c MCPTools
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("mcptools.toml: %w", err)
	}
	c.byName = map[string][]*MCPTool{}
	for i := range c.Tool {
		e := &c.Tool[i]
		switch {
		case len(e.Tools) == 0:
			return nil, fmt.Errorf("mcptools.toml: entry %d: tools is required", i+1)
		case !mcpToolClasses[e.Class]:
			return nil, fmt.Errorf("mcptools.toml: tool %q: class %q is not no_effect, read_only or work_item", e.Tools[0], e.Class)
		case e.What == "" || e.Source == "":
			return nil, fmt.Errorf("mcptools.toml: tool %q: what and source are required", e.Tools[0])
		}
		for _, s := range e.Servers {
			if s == "" || s != strings.ToLower(s) || strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
				return nil, fmt.Errorf("mcptools.toml: tool %q: server word %q must be one lower-case word", e.Tools[0], s)
			}
		}
		for _, name := range e.Tools {
			k := NormMCPName(name)
			if k == "" {
				return nil, fmt.Errorf("mcptools.toml: tool %q: empty name", name)
			}
			c.byName[k] = append(c.byName[k], e)
		}
	}
	return &c, nil
}

// NormMCPName is how tool names are compared: lower-case, without "_", "-", "." and spaces.
func NormMCPName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r == '_' || r == '-' || r == '.' || r == ' ' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Lookup returns the entry for tool on a server whose name split into words is serverWords.
func (c *MCPTools) Lookup(serverWords []string, tool string) (*MCPTool, bool) {
	for _, e := range c.byName[NormMCPName(tool)] {
		if len(e.Servers) == 0 {
			return e, true
		}
		for _, s := range e.Servers {
			for _, w := range serverWords {
				if w == s {
					return e, true
				}
			}
		}
	}
	return nil, false
}

// All lists the catalogue, for listing.
func (c *MCPTools) All() []MCPTool { return append([]MCPTool(nil), c.Tool...) }
