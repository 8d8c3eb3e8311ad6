package riskmodel

import "strings"

// Umbrella tools that take their operation one level down. Several vendor servers expose one
// tool per area and a nested request object ({"selectSchema": {"operation": "delete-project",
// "params": {…}}} in Netlify's MCP server; {"request": {"action": "delete", …}} elsewhere),
// so the verb that says what the call does is not a top-level argument. Such a nested verb is
// read like a top-level one (and so like a tool named for it) when the tool's own name says
// nothing and no top-level verb argument exists. Arrays are left out: their "op" entries are
// the steps of a patch (RFC 6902), not the call's action.

// mcpR14NestedVerbKeys are the verb argument names read below the top level.
var mcpR14NestedVerbKeys = wordSet{words: `action operation verb subcommand`}

// nestedVerbArgs returns the verb arguments nested two or three levels down of a tool whose
// name carries no action, each naming a known action.
func (c *mcpCtx) nestedVerbArgs() []mcpArg {
	if act, _ := mcpClassifyWords(c.toolWords); act != mcpActUnknown && !c.umbrella {
		return nil
	}
	var out []mcpArg
	for _, a := range c.args {
		v := strings.TrimSpace(a.val)
		if !a.str || a.depth < 2 || a.depth > 3 || !mcpR14NestedVerbKeys.has(a.nkey) || strings.Contains(a.path, "[") ||
			v == "" || len(v) > 80 || strings.ContainsAny(v, " \t\n|;&<>$`") {
			continue
		}
		if act, _ := mcpClassifyWords(mcpSplitWords(v)); act != mcpActUnknown {
			out = append(out, a)
		}
	}
	return out
}
