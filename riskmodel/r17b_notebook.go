package riskmodel

// Shell commands in notebook cells.
//
// A Jupyter code cell is Python for the IPython kernel, which also runs shell commands: a
// line starting with ! (or %sx, %system) runs the rest of the line in a shell, and a cell
// whose first line is %%bash, %%sh or %%script bash|sh runs its whole body as a script
// (ipython.readthedocs.io, "Built-in magic commands" and "IPython as a system shell").
// notebookShell returns those commands as one script, so a notebook that nbconvert, papermill
// or ipython executes is judged for its shell cells as the shell would run them; the Python
// the kernel runs is read without them (notebookPython).

import (
	"encoding/json"
	"strings"
)

// notebookCells returns the sources of a notebook's code cells; text that is not a notebook
// is one cell (an IPython script, .ipy).
func notebookCells(content string) []string {
	var nb struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(content), &nb); err != nil {
		return []string{content}
	}
	var out []string
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		var lines []string
		var one string
		if json.Unmarshal(c.Source, &lines) == nil {
			out = append(out, strings.Join(lines, ""))
		} else if json.Unmarshal(c.Source, &one) == nil {
			out = append(out, one)
		}
	}
	return out
}

// notebookShell returns the shell commands of a notebook's cells, one a line.
func notebookShell(content string) string {
	if !strings.ContainsAny(content, "!%") {
		return ""
	}
	var b strings.Builder
	for _, cell := range notebookCells(content) {
		first, body, _ := strings.Cut(strings.TrimLeft(cell, " \t\n"), "\n")
		if cellMagicShell(first) {
			b.WriteString(body)
			b.WriteByte('\n')
			continue
		}
		for _, line := range strings.Split(cell, "\n") {
			if cmd, ok := lineMagicShell(line); ok {
				b.WriteString(cmd)
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// notebookPython returns the Python of a notebook's cells: shell cells and lines left out.
func notebookPython(content string) string {
	var b strings.Builder
	for _, cell := range notebookCells(content) {
		first, _, _ := strings.Cut(strings.TrimLeft(cell, " \t\n"), "\n")
		if cellMagicShell(first) {
			continue
		}
		for _, line := range strings.Split(cell, "\n") {
			if _, ok := lineMagicShell(line); ok || strings.HasPrefix(strings.TrimSpace(line), "%") {
				continue
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// cellMagicShell reports a cell magic line that runs the cell in a shell.
func cellMagicShell(first string) bool {
	f := strings.Fields(first)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "%%bash", "%%sh", "%%system", "%%sx":
		return true
	case "%%script":
		return len(f) > 1 && shells.get()[baseName(f[1])]
	}
	return false
}

// lineMagicShell returns the command of a line that runs one in a shell: !cmd, !!cmd,
// x = !cmd, %sx cmd, %system cmd.
func lineMagicShell(line string) (string, bool) {
	t := strings.TrimSpace(line)
	if k, v, ok := strings.Cut(t, "="); ok && isName(strings.TrimSpace(k)) && strings.HasPrefix(strings.TrimSpace(v), "!") {
		t = strings.TrimSpace(v) // files = !ls
	}
	switch {
	case strings.HasPrefix(t, "!"):
		return strings.TrimSpace(strings.TrimLeft(t, "!")), true
	case strings.HasPrefix(t, "%sx ") || strings.HasPrefix(t, "%system "):
		_, cmd, _ := strings.Cut(t, " ")
		return strings.TrimSpace(cmd), true
	}
	return "", false
}

// mcpIPythonWords name MCP servers and tools whose Python runs in an IPython kernel, where
// !cmd and %%bash run shell commands: Jupyter and its servers, Colab, Deepnote, Datalayer.
var mcpIPythonWords = wordSet{words: `jupyter jupyterlab ipython ipykernel notebook notebooks colab deepnote datalayer cell cells`}
