package riskmodel

import (
	"reflect"
	"testing"
)

func TestMCPSandboxControl(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"allowedDirectories", "allow"},
		{"allowed_paths", "allow"},
		{"trustedFolders", "allow"},
		{"commandAllowlist", "allow"},
		{"blockedCommands", "block"},
		{"deniedPaths", "block"},
		{"deny", "block"},
		{"sandbox", "switch"},
		{"approvalPolicy", "switch"},
		{"permissionMode", "switch"},
		{"fileReadLineLimit", ""},
		{"telemetryEnabled", ""},
		{"defaultShell", ""},
	} {
		if got := mcpSandboxControl(tc.name); got != tc.want {
			t.Errorf("mcpSandboxControl(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestMCPKeyPattern(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		hit     bool
	}{
		{"*.pem", true},
		{"**/*.key", true},
		{"id_rsa*", true},
		{"id_ed25519", true},
		{".env", true},
		{".env.production", true},
		{"credentials", true},
		{"*.{pem,key}", true},
		{`.*\.pem$`, true},
		{".env.example", false},
		{"*.go", false},
		{"keyboard.ts", false},
		{"config.json", false},
		{"*.md", false},
	} {
		if got := mcpKeyPattern(tc.pattern) != ""; got != tc.hit {
			t.Errorf("mcpKeyPattern(%q) hit = %v, want %v", tc.pattern, got, tc.hit)
		}
	}
}

func TestMCPCIRunBodies(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string
	}{
		{"inline run", "steps:\n  - run: make test\n  - uses: x/y@v1\n", []string{"make test"}},
		{"block run", "steps:\n  - name: t\n    run: |\n      go vet ./...\n      go test ./...\n  - run: echo done\n",
			[]string{"go vet ./...\ngo test ./...", "echo done"}},
		{"gitlab script list", "t:\n  script:\n    - make\n    - make test\n  stage: test\n", []string{"make\nmake test"}},
		{"no steps", "name: ci\non: push\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mcpCIRunBodies(tc.yaml); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("mcpCIRunBodies = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMCPCIShell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`echo "${{ toJSON(secrets) }}"`, `echo "$(env)"`},
		{`curl -d "${{ secrets.DEPLOY_TOKEN }}" x`, `curl -d "${DEPLOY_TOKEN}" x`},
		{`curl -d "${{ secrets.PROD }}" x`, `curl -d "${PROD_SECRET}" x`},
		{`gh api -H "t: ${{ github.token }}"`, `gh api -H "t: ${GITHUB_TOKEN}"`},
		{`echo ${{ matrix.os }}`, `echo x`},
	} {
		if got := mcpCIShell(tc.in); got != tc.want {
			t.Errorf("mcpCIShell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMCPEditorStartupFile(t *testing.T) {
	for _, tc := range []struct {
		path string
		hit  bool
	}{
		{"/w/p/.vscode/settings.json", true},
		{".vscode/tasks.json", true},
		{"/w/p/app.code-workspace", true},
		{"/w/p/.envrc", true},
		{"/w/p/.devcontainer/devcontainer.json", true},
		{"/w/p/settings.json", false},
		{"/w/p/src/tasks.json", false},
	} {
		if _, got := mcpEditorStartupFile(tc.path); got != tc.hit {
			t.Errorf("mcpEditorStartupFile(%q) = %v, want %v", tc.path, got, tc.hit)
		}
	}
}

func TestMCPExternalChannel(t *testing.T) {
	for _, tc := range []struct {
		channel string
		ext     bool
	}{
		{"C06EXT-PARTNER", true},
		{"C05CUST-GLOBEX", true},
		{"#cust-acme", true},
		{"ext-initech", true},
		{"#custom-builds", false},
		{"#eng", false},
		{"C012AB3CD", false},
		{"#next-release", false},
	} {
		if got := mcpReExternalChannel().MatchString(tc.channel); got != tc.ext {
			t.Errorf("external(%q) = %v, want %v", tc.channel, got, tc.ext)
		}
	}
}
