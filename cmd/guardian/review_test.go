package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

const testWD = "/home/dev/proj"

func testDeps(stdin string) (deps, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return deps{
		stdin:  strings.NewReader(stdin),
		stdout: &out,
		stderr: &errb,
		getenv: func(k string) string { return map[string]string{"HOME": "/home/dev"}[k] },
		getwd:  func() (string, error) { return testWD, nil },
		statDir: func(dir string) error {
			if strings.Contains(dir, "/no/such") {
				return errors.New("no such directory")
			}
			return nil
		},
	}, &out, &errb
}

// parse runs a command line through the CLI with a submit that only records the request.
func parse(t *testing.T, args []string, stdin string) (req guardian.Request, jsonOut, submitted bool, err error) {
	t.Helper()
	d, _, _ := testDeps(stdin)
	a := newApp(d)
	a.submit = func(_ *cobra.Command, r guardian.Request) error {
		req, submitted = r, true
		return nil
	}
	root := a.command()
	root.SetArgs(args)
	err = root.ExecuteContext(context.Background())
	return req, a.jsonOut, submitted, err
}

func boolp(b bool) *bool { return &b }

func TestReviewParsing(t *testing.T) {
	execReq := func(cwd string, argv ...string) guardian.Request {
		return guardian.ExecRequest(riskmodel.ExecRequest{Command: argv, Cwd: cwd})
	}
	tests := []struct {
		name     string
		args     []string
		stdin    string
		want     guardian.Request
		wantJSON bool
	}{
		{
			name: "argv after --",
			args: []string{"review", "exec", "--", "rm", "-rf", "~/"},
			want: execReq(testWD, "rm", "-rf", "~/"),
		},
		{
			name: "argv without -- keeps its own flags",
			args: []string{"review", "exec", "ls", "-la", "--cwd", "x"},
			want: execReq(testWD, "ls", "-la", "--cwd", "x"),
		},
		{
			name: "all exec flags",
			args: []string{"review", "exec", "--cwd", "/srv/app/", "--justification", "run tests", "--sandbox-reason", "network", "--", "go", "test", "./..."},
			want: guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"go", "test", "./..."}, Cwd: "/srv/app",
				Justification: "run tests", SandboxReason: "network"}),
		},
		{
			name: "relative cwd resolves against the working directory",
			args: []string{"review", "exec", "--cwd", "sub/../build", "--", "make"},
			want: execReq(testWD+"/build", "make"),
		},
		{
			name: "--shell becomes bash -c",
			args: []string{"review", "exec", "--shell", "cd build && rm -rf *"},
			want: execReq(testWD, "bash", "-c", "cd build && rm -rf *"),
		},
		{
			name:     "--json after exec",
			args:     []string{"review", "exec", "--json", "--", "git", "status"},
			want:     execReq(testWD, "git", "status"),
			wantJSON: true,
		},
		{
			name:     "--json before exec",
			args:     []string{"review", "--json", "exec", "git", "status"},
			want:     execReq(testWD, "git", "status"),
			wantJSON: true,
		},
		{
			name:     "--json flag after the argv belongs to the argv",
			args:     []string{"review", "exec", "git", "status", "--json"},
			want:     execReq(testWD, "git", "status", "--json"),
			wantJSON: false,
		},
		{
			name: "mcp with every flag",
			args: []string{"review", "mcp", "--server", "posthog", "--tool", "exec",
				"--args", `{"command":"notebooks-destroy","id":42,"opts":{"force":true}}`,
				"--title", "Exec", "--description", "Runs a PostHog command", "--message", "Allow posthog?",
				"--annotations", `{"destructiveHint":true,"readOnlyHint":false}`},
			want: guardian.MCPRequest(riskmodel.MCPRequest{
				Server: "posthog", Tool: "exec", Title: "Exec", ToolDescription: "Runs a PostHog command", Message: "Allow posthog?",
				Arguments:   map[string]any{"command": "notebooks-destroy", "id": float64(42), "opts": map[string]any{"force": true}},
				Annotations: &riskmodel.ToolAnnotations{DestructiveHint: boolp(true), ReadOnlyHint: boolp(false)},
			}),
		},
		{
			name: "mcp --workspace, repeated; a relative one resolves against the working directory",
			args: []string{"review", "mcp", "--server", "fs", "--tool", "write_file", "--workspace", "/home/dev/other/", "--workspace", "../lib", "--workspace", "a,b"},
			want: guardian.MCPRequest(riskmodel.MCPRequest{Server: "fs", Tool: "write_file",
				Workspace: []string{"/home/dev/other", "/home/dev/lib", testWD + "/a,b"}}),
		},
		{
			name:     "stdin mcp with a workspace",
			args:     []string{"review", "--json", "-"},
			stdin:    `{"kind":"mcp","request":{"server":"fs","tool":"write_file","workspace":["/home/dev/proj"]}}`,
			want:     guardian.MCPRequest(riskmodel.MCPRequest{Server: "fs", Tool: "write_file", Workspace: []string{"/home/dev/proj"}}),
			wantJSON: true,
		},
		{
			name: "mcp without args",
			args: []string{"review", "mcp", "--server", "fs", "--tool", "read_file"},
			want: guardian.MCPRequest(riskmodel.MCPRequest{Server: "fs", Tool: "read_file"}),
		},
		{
			name:     "stdin exec gets the working directory",
			args:     []string{"review", "--json", "-"},
			stdin:    `{"kind":"exec","request":{"command":["git","push"],"justification":"ship it"}}`,
			want:     guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"git", "push"}, Cwd: testWD, Justification: "ship it"}),
			wantJSON: true,
		},
		{
			name:  "stdin exec keeps its cwd; text output without --json",
			args:  []string{"review", "-"},
			stdin: `{"kind":"exec","request":{"command":["ls"],"cwd":"/srv"}}`,
			want:  execReq("/srv", "ls"),
		},
		{
			name:     "stdin mcp",
			args:     []string{"review", "--json", "-"},
			stdin:    `{"kind":"mcp","request":{"server":"github","tool":"list_issues","arguments":{"repo":"x/y"}}}`,
			want:     guardian.MCPRequest(riskmodel.MCPRequest{Server: "github", Tool: "list_issues", Arguments: map[string]any{"repo": "x/y"}}),
			wantJSON: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, gotJSON, submitted, err := parse(t, tt.args, tt.stdin)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !submitted {
				t.Fatal("no request submitted")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
			if gotJSON != tt.wantJSON {
				t.Errorf("json output = %v, want %v", gotJSON, tt.wantJSON)
			}
		})
	}
}

func TestReviewParsingErrors(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		stdin    string
		wantCode int
		wantErr  string
	}{
		{"review without a form", []string{"review"}, "", exitUsage, "missing request"},
		{"review with an unknown form", []string{"review", "exce"}, "", exitUsage, `did you mean "exec"`},
		{"exec without a command", []string{"review", "exec"}, "", exitUsage, "missing command"},
		{"exec --cwd that does not exist", []string{"review", "exec", "--cwd", "/no/such/dir", "--", "ls"}, "", exitUsage, "review exec: --cwd /no/such/dir: no such directory"},
		{"exec with only flags", []string{"review", "exec", "--cwd", "/x", "--"}, "", exitUsage, "missing command"},
		{"--shell and argv", []string{"review", "exec", "--shell", "ls", "--", "ls"}, "", exitUsage, "mutually exclusive"},
		{"empty --shell", []string{"review", "exec", "--shell", " "}, "", exitUsage, "--shell needs"},
		{"unknown exec flag", []string{"review", "exec", "--cdw", "/x", "--", "ls"}, "", exitUsage, "unknown flag: --cdw"},
		{"mcp without server and tool", []string{"review", "mcp"}, "", exitUsage, "missing --server and --tool"},
		{"mcp without tool", []string{"review", "mcp", "--server", "s"}, "", exitUsage, "missing --tool"},
		{"mcp positional", []string{"review", "mcp", "--server", "s", "--tool", "t", "extra"}, "", exitUsage, `review mcp takes no arguments, got "extra"`},
		{"mcp --args syntax", []string{"review", "mcp", "--server", "s", "--tool", "t", "--args", `{"a":1,}`}, "", exitUsage,
			"invalid --args: line 1, column 8: invalid character '}'"},
		{"mcp --args on line 2", []string{"review", "mcp", "--server", "s", "--tool", "t", "--args", "{\n  \"a\": tru }"}, "", exitUsage,
			"invalid --args: line 2, column 11"},
		{"mcp --args truncated", []string{"review", "mcp", "--server", "s", "--tool", "t", "--args", `{"a":`}, "", exitUsage,
			"invalid --args: line 1, column 6: unexpected end of JSON input"},
		{"mcp --args not an object", []string{"review", "mcp", "--server", "s", "--tool", "t", "--args", `[1,2]`}, "", exitUsage,
			"invalid --args: want a JSON object like {\"key\":\"value\"}, got an array"},
		{"mcp --args trailing data", []string{"review", "mcp", "--server", "s", "--tool", "t", "--args", `{} {}`}, "", exitUsage,
			"invalid --args: line 1, column 4: unexpected data after the JSON value"},
		{"mcp --annotations unknown key", []string{"review", "mcp", "--server", "s", "--tool", "t", "--annotations", `{"readonly":true}`}, "", exitUsage,
			`invalid --annotations: line 1, column 2: unknown field "readonly" (known: readOnlyHint`},
		{"mcp --annotations wrong type", []string{"review", "mcp", "--server", "s", "--tool", "t", "--annotations", `{"readOnlyHint":"yes"}`}, "", exitUsage,
			`invalid --annotations: line 1, column 17: "readOnlyHint" has the wrong type: found a string, want true or false`},
		{"mcp empty --workspace", []string{"review", "mcp", "--server", "s", "--tool", "t", "--workspace", ""}, "", exitUsage, "--workspace needs a directory"},
		{"stdin relative workspace", []string{"review", "--json", "-"}, `{"kind":"mcp","request":{"tool":"t","workspace":["proj"]}}`, exitInvalid,
			`"workspace"[0] "proj" must be an absolute directory`},
		{"stdin workspace not a list", []string{"review", "--json", "-"}, `{"kind":"mcp","request":{"tool":"t","workspace":"/home/dev/proj"}}`, exitInvalid,
			`stdin: decode request: line 1, column 49: mcp request: "workspace" has the wrong type: found a string, want an array of strings`},
		{"stdin malformed", []string{"review", "--json", "-"}, "{\"kind\":\"exec\",\n\"request\":{\"command\":[\"ls\"],}}", exitInvalid,
			"line 2, column "},
		{"stdin unknown key", []string{"review", "--json", "-"}, `{"kind":"exec","request":{"cmd":["ls"]}}`, exitInvalid, `line 1, column 27: exec request: unknown field "cmd"`},
		{"stdin unknown envelope key", []string{"review", "--json", "-"}, `{"kind":"exec","request":{"command":["ls"]},"id":"x"}`, exitInvalid, `line 1, column 45: unknown field "id"`},
		{"stdin unknown key on line 3", []string{"review", "--json", "-"}, "{\"kind\": \"exec\",\n \"request\": {\"command\": [\"ls\"],\n   \"cwdd\": \"/x\"}}", exitInvalid, `line 3, column 4: exec request: unknown field "cwdd"`},
		{"stdin wrong type once", []string{"review", "--json", "-"}, `{"kind":"exec","request":{"command":"ls"}}`, exitInvalid, `stdin: decode request: line 1, column 37: exec request: "command" has the wrong type: found a string, want an array of strings`},
		{"stdin unknown kind", []string{"review", "--json", "-"}, `{"kind":"shell","request":{"command":["ls"]}}`, exitInvalid, `unknown request kind "shell"`},
		{"stdin empty", []string{"review", "--json", "-"}, ``, exitInvalid, "unexpected end of JSON input"},
		{"stdin empty command", []string{"review", "--json", "-"}, `{"kind":"exec","request":{"command":[]}}`, exitInvalid, `"command" must be a non-empty argv`},
		{"stdin oversized", []string{"review", "--json", "-"}, bigExecJSON(300 << 10), exitInvalid, "256 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, submitted, err := parse(t, tt.args, tt.stdin)
			if err == nil {
				t.Fatal("no error")
			}
			if submitted {
				t.Error("request submitted despite the error")
			}
			if got := exitCode(err); got != tt.wantCode {
				t.Errorf("exit code %d, want %d (error: %v)", got, tt.wantCode, err)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not contain %q", err, tt.wantErr)
			}
		})
	}
}

func bigExecJSON(n int) string {
	return `{"kind":"exec","request":{"command":["echo","` + strings.Repeat("a", n) + `"]}}`
}

// TestOversized runs every input form end to end, in-process (a subprocess could not take a
// 300 KiB argument: Linux caps one argument at 128 KiB).
func TestOversized(t *testing.T) {
	big := strings.Repeat("x", 300<<10)
	tests := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"exec argv", []string{"review", "exec", "--", "echo", big}, ""},
		{"exec --shell", []string{"review", "exec", "--shell", "echo " + big}, ""},
		{"exec --justification", []string{"review", "exec", "--justification", big, "--", "ls"}, ""},
		{"mcp --args", []string{"review", "mcp", "--server", "s", "--tool", "t", "--args", `{"x":"` + big + `"}`}, ""},
		{"mcp --description", []string{"review", "mcp", "--server", "s", "--tool", "t", "--description", big}, ""},
		{"stdin, over the read limit", []string{"review", "--json", "-"}, bigExecJSON(300 << 10)},
		{"stdin, payload just over 256 KiB", []string{"review", "--json", "-"}, bigExecJSON(guardian.MaxRequestBytes)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, out, errb := testDeps(tt.stdin)
			code := run(context.Background(), tt.args, d)
			if code != exitInvalid {
				t.Errorf("exit code %d, want %d", code, exitInvalid)
			}
			if !strings.Contains(errb.String(), "256 KiB") || !strings.Contains(errb.String(), "too large") {
				t.Errorf("stderr does not name the 256 KiB limit: %.300q", errb.String())
			}
			if out.Len() != 0 {
				t.Errorf("stdout not empty: %.200q", out.String())
			}
		})
	}
}

func TestWriteResult(t *testing.T) {
	res := guardian.Result{
		Decision:  riskmodel.Deny,
		Status:    guardian.StatusRule,
		DecidedBy: "rule:fs.rm.vital",
		Assessment: riskmodel.Assessment{
			Summary:   "Recursively deletes /home/dev (the home directory), outside the workspace.",
			Level:     riskmodel.Critical,
			Category:  riskmodel.CatDataDeletion,
			Rationale: "fs.rm.vital: Recursively deletes /home/dev. (critical, data_deletion) → deny.",
			Findings: []riskmodel.Finding{
				{RuleID: "fs.rm.vital", Segment: "rm -rf ~/", Level: riskmodel.Critical, Category: riskmodel.CatDataDeletion,
					Message: "Recursively deletes /home/dev", Decision: riskmodel.Deny},
				{RuleID: "cmd.read", Segment: "cat <<EOF\nx\nEOF", Level: riskmodel.Low, Category: riskmodel.CatReadOnly,
					Message: "Reads a file", Decision: riskmodel.Allow},
			},
		},
	}
	var b bytes.Buffer
	if err := writeResult(&b, res, false); err != nil {
		t.Fatal(err)
	}
	want := `DENY  critical  data_deletion
Recursively deletes /home/dev (the home directory), outside the workspace.
why:  fs.rm.vital: Recursively deletes /home/dev. (critical, data_deletion) → deny.
findings:
  fs.rm.vital  critical  data_deletion  rm -rf ~/        Recursively deletes /home/dev
  cmd.read     low       read_only      cat <<EOF x EOF  Reads a file
decided by rule:fs.rm.vital (status rule)
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("text output (-want +got):\n%s", diff)
	}

	b.Reset()
	if err := writeResult(&b, res, true); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if strings.Count(s, "\n") != 1 || !strings.HasSuffix(s, "\n") {
		t.Errorf("JSON output is not one newline-terminated line: %q", s)
	}
	if !strings.Contains(s, `"segment":"rm -rf ~/"`) || !strings.Contains(s, `cat <<EOF`) {
		t.Errorf("JSON output escapes shell text: %s", s)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	var as map[string]json.RawMessage
	if err := json.Unmarshal(top["assessment"], &as); err != nil {
		t.Fatal(err)
	}
	if got, want := sortedKeys(top), "assessment,decided_by,decision,status"; got != want {
		t.Errorf("result keys %s, want %s", got, want)
	}
	if got, want := sortedKeys(as), "category,findings,rationale,risk_level,summary"; got != want {
		t.Errorf("assessment keys %s, want %s", got, want)
	}
}

func sortedKeys[V any](m map[string]V) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ",")
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, exitAllow},
		{decisionExit(riskmodel.Allow), exitAllow},
		{decisionExit(riskmodel.Ask), exitAsk},
		{decisionExit(riskmodel.Deny), exitDeny},
		{decisionExit(0), exitInternal},
		{usageErrorf("bad"), exitUsage},
		{invalidError(errors.New("bad")), exitInvalid},
		{guardian.ErrTooLarge, exitInvalid},
		{errors.New(`unknown command "x" for "guardian"`), exitUsage},
		{errors.New("something broke"), exitInternal},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err); got != tt.want {
			t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
	if msg := errorMessage(decisionExit(riskmodel.Deny)); msg != "" {
		t.Errorf("a deny prints %q on stderr; want nothing", msg)
	}
}
