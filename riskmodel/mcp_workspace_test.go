package riskmodel

import (
	"slices"
	"testing"
)

// TestMCPDeclaredWorkspace: the workspace a request declares (the host's roots, the configured
// project) decides what counts as inside it; the call's own arguments cannot widen it, and
// "/", the home directory and relative paths never count.
func TestMCPDeclaredWorkspace(t *testing.T) {
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	const write = `"server":"filesystem","tool":"write_file","arguments":{"path":"/home/dev/proj/src/x.go","content":"package x"}`
	runMCPCases(t, a, []mcpCase{
		{"inside the declared workspace", `{"workspace":["/home/dev/proj"],` + write + `}`,
			Allow, Medium, CatNone, []string{"mcp.fs-write"}, []string{"mcp.fs-write-outside"}},
		{"another project declared", `{"workspace":["/home/dev/other"],` + write + `}`,
			Ask, 0, "", []string{"mcp.fs-write-outside"}, []string{"mcp.fs-write"}},
		{"one of several roots", `{"workspace":["/home/dev/other","/home/dev/proj/"],` + write + `}`,
			Allow, Medium, CatNone, []string{"mcp.fs-write"}, nil},
		{"a cwd argument does not widen a declared workspace",
			`{"workspace":["/home/dev/other"],"server":"filesystem","tool":"write_file","arguments":{"cwd":"/home/dev/proj","path":"/home/dev/proj/src/x.go","content":"package x"}}`,
			Ask, 0, "", []string{"mcp.fs-write-outside"}, []string{"mcp.fs-write"}},
		{"relative paths resolve against the first root, not a cwd argument",
			`{"workspace":["/home/dev/other"],"server":"filesystem","tool":"write_file","arguments":{"cwd":"/home/dev/proj","path":"../proj/src/x.go","content":"package x"}}`,
			Ask, 0, "", []string{"mcp.fs-write-outside"}, []string{"mcp.fs-write"}},
		{"/ is never a workspace", `{"workspace":["/"],` + write + `}`,
			Ask, 0, "", []string{"mcp.fs-write-outside"}, []string{"mcp.fs-write"}},
		{"home is never a workspace", `{"workspace":["/home/dev"],` + write + `}`,
			Ask, 0, "", []string{"mcp.fs-write-outside"}, []string{"mcp.fs-write"}},
		{"a relative root is ignored", `{"workspace":["proj","src"],` + write + `}`,
			Ask, 0, "", []string{"mcp.fs-write-outside"}, []string{"mcp.fs-write"}},
		{"dropped roots leave the valid one", `{"workspace":["/","/home/dev","proj","/home/dev/proj"],` + write + `}`,
			Allow, Medium, CatNone, []string{"mcp.fs-write"}, nil},
		{"a Windows root: a write inside it",
			`{"workspace":["C:\\Users\\dev\\source\\repos\\Shop"],"server":"filesystem","tool":"write_file","arguments":{"path":"C:\\Users\\dev\\source\\repos\\Shop\\src\\Cart.cs","content":"class Cart {}"}}`,
			Allow, Medium, CatNone, []string{"mcp.fs-write"}, []string{"mcp.fs-write-outside"}},
		{"a Windows root: a write in another project",
			`{"workspace":["C:\\Users\\dev\\source\\repos\\Shop"],"server":"filesystem","tool":"write_file","arguments":{"path":"C:\\Users\\dev\\source\\repos\\Other\\x.cs","content":"class X {}"}}`,
			Ask, 0, "", []string{"mcp.fs-write-outside"}, []string{"mcp.fs-write"}},
		{"a Windows drive root is never a workspace", `{"workspace":["C:\\"],` + write + `}`,
			Ask, 0, "", []string{"mcp.fs-write-outside"}, []string{"mcp.fs-write"}},
		{"deleting the declared root is not routine",
			`{"workspace":["/home/dev/proj"],"server":"filesystem","tool":"delete_directory","arguments":{"path":"/home/dev/proj","recursive":true}}`,
			Ask, High, CatDataDeletion, nil, []string{"mcp.fs-write"}},
	})
}

// TestMCPDeclaredWorkspaceScope: the scope a declared workspace builds — exactly its valid
// directories (then the policy's own), the first as the cwd, the home from the workspace when
// the policy names none — and the argument-based guess only when nothing is declared.
func TestMCPDeclaredWorkspaceScope(t *testing.T) {
	cases := []struct {
		name       string
		policy     Policy
		req        string
		cwd        string
		workspaces []string
		home       string
	}{
		{"declared", Policy{}, `{"workspace":["/home/dev/proj"],"tool":"write_file","arguments":{"path":"/home/eve/x/y"}}`,
			"/home/dev/proj", []string{"/home/dev/proj"}, "/home/dev"},
		{"declared beside the policy's", Policy{Home: "/home/dev", Workspaces: []string{"~/shared"}},
			`{"workspace":["/srv/app","/home/dev/proj"],"tool":"write_file","arguments":{"cwd":"/etc"}}`,
			"/srv/app", []string{"/srv/app", "/home/dev/proj", "/home/dev/shared"}, "/home/dev"},
		{"all dropped: no guess from the arguments", Policy{Home: "/home/dev"},
			`{"workspace":["/","/home","/home/dev","/etc","rel","~/proj"],"tool":"write_file","arguments":{"path":"/home/dev/proj/x"}}`,
			"/home/dev", nil, "/home/dev"},
		{"nothing declared: the cwd argument", Policy{Home: "/home/dev"},
			`{"tool":"run","arguments":{"cwd":"/home/dev/proj"}}`,
			"/home/dev/proj", []string{"/home/dev/proj"}, "/home/dev"},
		{"nothing declared: the project of a path argument", Policy{Home: "/home/dev"},
			`{"tool":"write_file","arguments":{"path":"/home/dev/code/api/x.go"}}`,
			"/home/dev", []string{"/home/dev/code/api"}, "/home/dev"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, err := New(tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			req := mcpReq(t, tc.req)
			s := a.newMCPCtx(&req).scope
			if s.Cwd != tc.cwd || s.Home != tc.home {
				t.Errorf("cwd %q home %q, want %q and %q", s.Cwd, s.Home, tc.cwd, tc.home)
			}
			var ws []string
			for _, w := range s.Workspaces {
				if !slices.Contains(ws, w) {
					ws = append(ws, w)
				}
			}
			if !slices.Equal(ws, tc.workspaces) {
				t.Errorf("workspaces %q, want %q", ws, tc.workspaces)
			}
		})
	}
}

// TestMCPInferProject: with nothing declared, the project a path belongs to is guessed from
// where projects live — under home, or a container's project root — never from a personal
// folder, a dot-directory or a system directory.
func TestMCPInferProject(t *testing.T) {
	for _, c := range []struct{ abs, want string }{
		{"/home/dev/code/api/src/x.go", "/home/dev/code/api"},
		{"/home/dev/mono/package.json", "/home/dev/mono"},
		{"/home/dev/Documents/notes.md", ""},
		{"/home/dev/.config/x", ""},
		{"/workspaces/webapp/src/app.ts", "/workspaces/webapp"},
		{"/workspace/app/src/config.ts", "/workspace/app"},
		{"/workspace/app", ""},
		{"/workspace/.git/config", ""},
		{"/etc/hosts", ""},
		{"/srv/app/x", ""},
	} {
		if got := mcpInferProject("/home/dev", c.abs); got != c.want {
			t.Errorf("mcpInferProject(%q) = %q, want %q", c.abs, got, c.want)
		}
	}
}
