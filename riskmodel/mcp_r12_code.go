package riskmodel

import (
	"path"
	"strings"
)

// Code-execution tools recognised by name. A notebook, REPL or interpreter server takes the
// code it runs under an argument of its own naming (Jupyter MCP servers' cell_source,
// datalayer's source, a REPL's expression), and an unrecognised one left the code unread:
// the call was judged as a remote write. These word sets let findCode (mcp.go) hand that
// code to the inline-code analysis, so that a credential read sent over the network is
// denied as exfiltration and plain analysis over the project's data is allowed, as the same
// code run with python3 -c in the workspace would be.
//
// Hosted sandboxes (E2B, code-interpreter servers) are analysed the same way: their code
// runs elsewhere, but it still reaches the network, and what it reads there is whatever the
// agent uploaded; guardian cannot confirm the server's claim of isolation, so the code's
// effect is judged as if it ran here (docs/policy.md: judge by effect, never by a tool's
// description of itself).

// mcpCodeRunnerServers name servers that run code: notebooks (Jupyter and its MCP servers,
// Colab, Deepnote, marimo, Datalayer, Databricks notebooks), REPLs and interpreter sandboxes.
// Their tools also list, rename and delete notebooks, so a tool runs code only when it also
// names a run verb or the unit of code it takes (a cell, a block, a snippet).
var mcpCodeRunnerServers = wordSet{words: `jupyterlab ipykernel notebook notebooks colab deepnote marimo datalayer e2b
	codeinterpreter kernel kernels sandbox`}

// mcpCodeUnitWords are the units of code a runner tool takes.
var mcpCodeUnitWords = wordSet{words: `cell cells code block blocks snippet script expression`}

// codeRunnerByName reports a notebook, REPL or sandbox tool that runs code by its names
// ("deepnote" run_block, "e2b" run_code, "datalayer" execute_cell).
func (c *mcpCtx) codeRunnerByName() bool {
	words := append(append([]string{}, c.serverWords...), c.toolWords...)
	return mcpAnyWord(words, mcpCodeRunnerServers.get()) &&
		(mcpAnyWord(c.toolWords, mcpCodeRunVerbs.get()) || mcpAnyWord(c.toolWords, mcpCodeUnitWords.get()))
}

// mcpPythonRunnerWords name runners whose language is Python: Jupyter's default kernel is
// ipykernel, marimo and Datalayer's Jupyter servers run Python, Colab and Deepnote run Python
// by default, E2B's code interpreter runs Python by default (each one's docs). A bare
// "notebook" (Databricks runs SQL and Scala too) leaves the language unknown: mcp.code-exec.
var mcpPythonRunnerWords = wordSet{words: `python python3 py ipython ipykernel jupyter jupyterlab pandas
	colab deepnote marimo datalayer e2b codeinterpreter`}

// mcpCodeIsFileRef reports a code argument that names a file or URL to run ("nb/eda.ipynb")
// rather than holding code: the python3 -c analysis would read it as a harmless expression.
func mcpCodeIsFileRef(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || strings.ContainsAny(v, " \t\n()=;'\"") {
		return false
	}
	switch strings.ToLower(path.Ext(v)) {
	case ".ipynb", ".py", ".js", ".mjs", ".ts", ".sh", ".r", ".jl", ".sql":
		return true
	}
	return strings.Contains(v, "/")
}

// mcpCodeRunVerbs are tool verbs that run the code they are given.
var mcpCodeRunVerbs = wordSet{words: `run execute exec eval evaluate interpret call`}
