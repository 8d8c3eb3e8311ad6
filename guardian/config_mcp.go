package guardian

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// MCPConfig is the [mcp] table: the upstream MCP servers guardian mcp-proxy serves when it is
// started without a command or URL of its own. Only the user config may set it — a repository
// must not be able to start programs, or to put servers of its choosing in front of the agent.
type MCPConfig struct {
	// Upstreams are the [[mcp.upstream]] tables, in file order.
	Upstreams []MCPUpstream
}

// MCPUpstream is one [[mcp.upstream]] table: an MCP server reached over stdio (Command) or
// streamable HTTP (URL).
type MCPUpstream struct {
	// Name identifies the server: the prefix of its tools (NAME__tool) when there are
	// several, the server of its reviewed calls, and in logs. See CheckMCPUpstreamName.
	Name string
	// Command is the argv of a stdio server, started as a subprocess of the proxy.
	Command []string
	// Env is added to the subprocess's environment.
	Env map[string]string
	// URL is the endpoint of a streamable-HTTP server.
	URL string
	// BearerTokenEnv names the environment variable whose value is sent to URL as
	// "Authorization: Bearer <value>". The token itself is never written in a config file.
	BearerTokenEnv string
	// Gate reviews every tools/call to this server before it is forwarded.
	Gate bool
	// Protocol pins the MCP protocol version spoken to the server ("" negotiates).
	Protocol string
	// Workspace is the project the server works on: absolute or ~/-relative directories (as
	// written; the proxy expands ~ with the home). It is the workspace of the reviews of this
	// server's requests, beside the host's roots — the operator's word on where the agent may
	// change files freely, where a request would otherwise have none.
	Workspace []string
}

// EnvList returns Env as sorted KEY=VALUE entries, the form a subprocess's environment takes.
func (u MCPUpstream) EnvList() []string {
	out := make([]string, 0, len(u.Env))
	for k, v := range u.Env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// mcpProtocolVersions are the MCP protocol versions mcp-go (which the proxy speaks) knows,
// newest first: mcp-go's ValidProtocolVersions, copied so that this package, and every hook
// process that links it, does not link mcp-go's types and the JSON-schema package under them
// (docs/hooks.md, "What a hook call costs"). TestMCPProtocolVersions keeps the copy current.
var mcpProtocolVersions = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

var mcpNameRE = lazyRegexp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// CheckMCPUpstreamName says what is wrong with an upstream's name, if anything. A name becomes
// part of tool names (NAME__tool), which MCP limits to letters, digits, ".", "_" and "-".
func CheckMCPUpstreamName(name string) error {
	if !mcpNameRE().MatchString(name) {
		return fmt.Errorf("upstream name %q: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return nil
}

var mcpSchema = []schemaKey{
	{"mcp", "a table: [mcp]"},
	{"mcp.upstream", "[[mcp.upstream]] tables"},
	{"mcp.upstream.name", `a string such as "github" (letters, digits, '.', '_', '-')`},
	{"mcp.upstream.command", `a list of strings: the server's argv, e.g. ["npx", "-y", "@modelcontextprotocol/server-github"]`},
	{"mcp.upstream.env", `a table of strings, e.g. { GITHUB_TOOLBOX = "repos" }`},
	{"mcp.upstream.url", `a string holding an http(s) URL, e.g. "http://127.0.0.1:8080/mcp"`},
	{"mcp.upstream.bearer_token_env", `a string naming an environment variable, e.g. "LINEAR_TOKEN"`},
	{"mcp.upstream.gate", "a boolean: true or false"},
	{"mcp.upstream.protocol", `a string naming an MCP protocol version, e.g. "2025-11-25"`},
	{"mcp.upstream.workspace", `a list of strings: absolute or ~/-relative directories, e.g. ["~/src/app"]`},
}

type fileMCP struct {
	Upstreams []fileMCPUpstream `toml:"upstream"`
}

type fileMCPUpstream struct {
	Name           *string           `toml:"name"`
	Command        []string          `toml:"command"`
	Env            map[string]string `toml:"env"`
	URL            *string           `toml:"url"`
	BearerTokenEnv *string           `toml:"bearer_token_env"`
	Gate           *bool             `toml:"gate"`
	Protocol       *string           `toml:"protocol"`
	Workspace      []cfgWorkspace    `toml:"workspace"`
}

// validateMCP checks the [[mcp.upstream]] tables and fills pf.mcp.
func (pf *parsedFile) validateMCP() {
	if pf.fc.MCP == nil {
		return
	}
	if pos, ok := pf.ix.plainTables["mcp.upstream"]; ok {
		pf.probs = append(pf.probs, ConfigProblem{File: pf.path, Line: pos.line, Column: pos.col, Key: "mcp.upstream",
			Message: `key "mcp.upstream": [mcp.upstream] defines a single table; write [[mcp.upstream]] (double brackets) before each server`})
		return
	}
	names := map[string]string{} // name → index path of its first use
	for i, f := range pf.fc.MCP.Upstreams {
		up := fmt.Sprintf("mcp.upstream[%d]", i)
		u := MCPUpstream{Command: f.Command, Env: f.Env}
		switch {
		case f.Name == nil:
			pf.add(up, `[[mcp.upstream]] needs name = "<name>" (it prefixes the server's tools: NAME__tool), e.g. name = "github"`)
		case CheckMCPUpstreamName(*f.Name) != nil:
			pf.addAt(up+".name", pf.ix.valuePos(up+".name"), CheckMCPUpstreamName(*f.Name).Error())
		case names[*f.Name] != "":
			pf.add(up+".name", fmt.Sprintf("duplicate upstream name %q (first used on line %d); give each server its own name", *f.Name, pf.ix.find(names[*f.Name]).line))
		default:
			names[*f.Name] = up + ".name"
			u.Name = *f.Name
		}
		hasCmd, hasURL := pf.ix.has(up+".command"), f.URL != nil
		switch {
		case hasCmd && hasURL:
			pf.add(up+".url", "a server is reached by command or by url, not both; remove one")
		case !hasCmd && !hasURL:
			pf.add(up, `[[mcp.upstream]] needs command = ["program", "arg", …] (a stdio server) or url = "http://…/mcp" (a streamable-HTTP server)`)
		case hasCmd && (len(f.Command) == 0 || strings.TrimSpace(f.Command[0]) == ""):
			pf.add(up+".command", `the command's program is missing; write the server's argv, e.g. command = ["npx", "-y", "@modelcontextprotocol/server-github"]`)
		case hasURL:
			if err := CheckMCPURL(*f.URL); err != nil {
				pf.addAt(up+".url", pf.ix.valuePos(up+".url"), err.Error())
			} else {
				u.URL = *f.URL
			}
		}
		keys := make([]string, 0, len(f.Env))
		for k := range f.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !envNameRE().MatchString(k) {
				pf.add(up+".env", fmt.Sprintf("environment variable name %q: use letters, digits and _, not starting with a digit", k))
			}
		}
		if len(f.Env) > 0 && hasURL {
			pf.add(up+".env", "env applies to a command (a subprocess); an HTTP server gets no environment from guardian — remove env")
		}
		if f.BearerTokenEnv != nil {
			switch {
			case !hasURL:
				pf.add(up+".bearer_token_env", "bearer_token_env applies to a url; a command's server takes its secrets from env")
			case !envNameRE().MatchString(*f.BearerTokenEnv):
				pf.addAt(up+".bearer_token_env", pf.ix.valuePos(up+".bearer_token_env"), `bearer_token_env must be the NAME of the environment variable holding the token (letters, digits, _), e.g. "LINEAR_TOKEN", not the token itself; if you pasted a token here, remove it and rotate it`)
			default:
				u.BearerTokenEnv = *f.BearerTokenEnv
			}
		}
		if f.Gate != nil {
			u.Gate = *f.Gate
		}
		if f.Protocol != nil {
			if !slices.Contains(mcpProtocolVersions, *f.Protocol) {
				pf.addAt(up+".protocol", pf.ix.valuePos(up+".protocol"), fmt.Sprintf("unknown MCP protocol version %q; use one of %s, or remove protocol to negotiate", *f.Protocol, strings.Join(mcpProtocolVersions, ", ")))
			} else {
				u.Protocol = *f.Protocol
			}
		}
		for _, w := range f.Workspace {
			u.Workspace = append(u.Workspace, w.v)
		}
		pf.mcp.Upstreams = append(pf.mcp.Upstreams, u)
	}
}

// CheckMCPURL says what is wrong with the URL of a streamable-HTTP MCP server, if anything:
// it must be absolute, http or https, with a host and without credentials (a token belongs in
// an environment variable, not in a URL that ends up in configs and logs).
func CheckMCPURL(s string) error {
	return checkHTTPURL(s, "URL", "the server's endpoint", "http://127.0.0.1:8080/mcp", "name the variable holding the token with bearer_token_env")
}

// clone returns a copy of c sharing nothing with it.
func (c MCPConfig) clone() MCPConfig {
	out := MCPConfig{Upstreams: make([]MCPUpstream, len(c.Upstreams))}
	for i, u := range c.Upstreams {
		u.Command = slices.Clone(u.Command)
		u.Workspace = slices.Clone(u.Workspace)
		if u.Env != nil {
			env := make(map[string]string, len(u.Env))
			for k, v := range u.Env {
				env[k] = v
			}
			u.Env = env
		}
		out.Upstreams[i] = u
	}
	if c.Upstreams == nil {
		out.Upstreams = nil
	}
	return out
}

// refuseProjectMCP reports an [mcp] table in a project file, trusted or not: the servers
// guardian starts and puts in front of the agent are the user's to choose, never the
// repository's.
func (c Config) refuseProjectMCP(pf *parsedFile) {
	if pf.fc.MCP == nil {
		return
	}
	where := "mcp"
	if len(pf.fc.MCP.Upstreams) > 0 {
		where = "mcp.upstream[0]" // its [[mcp.upstream]] header
	}
	pf.addAt("mcp", pf.ix.find(where), fmt.Sprintf("[mcp] starts MCP servers and puts them in front of the agent, so only the user config may set it (a repository, trusted or not, must not choose what runs); set it in %s", c.userConfigPath()))
}
