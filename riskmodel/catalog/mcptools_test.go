package catalog

import "testing"

func TestMCPToolsLookup(t *testing.T) {
	c := DefaultMCPTools()
	for _, tc := range []struct {
		server []string
		tool   string
		class  MCPToolClass // "" = not catalogued
	}{
		{[]string{"sequential", "thinking"}, "sequentialthinking", MCPToolNoEffect},
		{[]string{"anything"}, "Sequential-Thinking", MCPToolNoEffect},
		{[]string{"aws", "api"}, "suggest_aws_commands", MCPToolNoEffect},
		{[]string{"ops"}, "suggest_aws_commands", ""}, // the server must be AWS's
		{[]string{"supabase"}, "generate_typescript_types", MCPToolReadOnly},
		{[]string{"github"}, "request_copilot_review", MCPToolWorkItem},
		{[]string{"github"}, "delete_repository", ""},
	} {
		e, ok := c.Lookup(tc.server, tc.tool)
		switch {
		case tc.class == "" && ok:
			t.Errorf("%v/%s: catalogued as %s, want not catalogued", tc.server, tc.tool, e.Class)
		case tc.class != "" && (!ok || e.Class != tc.class):
			t.Errorf("%v/%s: got %v %v, want %s", tc.server, tc.tool, e, ok, tc.class)
		}
	}
}

func TestMCPToolsValidate(t *testing.T) {
	for name, data := range map[string]string{
		"no tools":     "[[tool]]\nclass = \"read_only\"\nwhat = \"w\"\nsource = \"s\"\n",
		"bad class":    "[[tool]]\ntools = [\"x\"]\nclass = \"routine\"\nwhat = \"w\"\nsource = \"s\"\n",
		"no source":    "[[tool]]\ntools = [\"x\"]\nclass = \"read_only\"\nwhat = \"w\"\n",
		"server words": "[[tool]]\ntools = [\"x\"]\nservers = [\"Git-Hub\"]\nclass = \"read_only\"\nwhat = \"w\"\nsource = \"s\"\n",
		"unknown key":  "[[tool]]\ntools = [\"x\"]\nclass = \"read_only\"\nwhat = \"w\"\nsource = \"s\"\nlevel = \"low\"\n",
	} {
		if _, err := loadMCPTools([]byte(data)); err == nil {
			t.Errorf("%s: loaded, want an error", name)
		}
	}
}
