// Command readmegen regenerates the figures in README.md that commands produce, so that they
// cannot go stale: `make readme-tables` runs it. A generated block sits between
//
//	<!-- make readme-tables: guardian ARGS [| head N] -->
//	<!-- /make readme-tables -->
//
// and becomes a console block: "$ guardian ARGS", the output of the freshly built binary
// (the first N lines, then "… (K more lines)", when head is given) and "[exit CODE]"; or, for
// a marker whose command does not start with "guardian", the command's standard output as it
// is (run with sh -c from the repository root).
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

const endMarker = "<!-- /make readme-tables -->"

var startRE = regexp.MustCompile(`^<!-- make readme-tables: (.+?)(?: \| head (\d+))? -->$`)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: readmegen GUARDIAN_BINARY README.md")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "readmegen:", err)
		os.Exit(1)
	}
}

func run(bin, readme string) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(readme)
	if err != nil {
		return err
	}
	out, n, err := Regenerate(string(data), func(cmd string) (string, int, error) { return execute(bin, cmd) })
	if err != nil {
		return fmt.Errorf("%s: %w", readme, err)
	}
	if err := os.WriteFile(readme, []byte(out), 0o644); err != nil {
		return err
	}
	fmt.Printf("readmegen: %d blocks regenerated in %s\n", n, readme)
	return nil
}

// execute runs one marker's command: a guardian command line with bin, anything else with sh.
func execute(bin, cmd string) (string, int, error) {
	var c *exec.Cmd
	if rest, ok := strings.CutPrefix(cmd, "guardian "); ok {
		c = exec.Command("sh", "-c", `"$0" `+rest, bin)
	} else {
		c = exec.Command("sh", "-c", cmd)
	}
	// stdout is what the README shows; stderr (progress, warnings) only when the command
	// failed, where it is the message.
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code := ee.ExitCode()
		if code != 10 && code != 20 {
			stdout.Write(stderr.Bytes())
		}
		return stdout.String(), code, nil
	}
	return stdout.String(), 0, err
}

// Regenerate replaces every generated block of doc with what run returns for its command and
// reports how many it replaced.
func Regenerate(doc string, run func(cmd string) (out string, code int, err error)) (string, int, error) {
	lines := strings.SplitAfter(doc, "\n")
	var b strings.Builder
	n := 0
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		b.WriteString(line)
		m := startRE.FindStringSubmatch(strings.TrimRight(line, "\n"))
		if m == nil {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.TrimRight(lines[end], "\n") != endMarker {
			end++
		}
		if end == len(lines) {
			return "", n, fmt.Errorf("line %d: %q has no %s after it", i+1, m[1], endMarker)
		}
		out, code, err := run(m[1])
		if err != nil {
			return "", n, fmt.Errorf("line %d: %s: %w", i+1, m[1], err)
		}
		if strings.HasPrefix(m[1], "guardian ") {
			if code != 0 && code != 10 && code != 20 && !strings.Contains(m[1], "config check") {
				return "", n, fmt.Errorf("line %d: %s exited %d:\n%s", i+1, m[1], code, out)
			}
			out = consoleBlock(m[1], out, code, m[2])
		} else if code != 0 {
			return "", n, fmt.Errorf("line %d: %s exited %d:\n%s", i+1, m[1], code, out)
		}
		b.WriteString(out)
		if !strings.HasSuffix(out, "\n") {
			b.WriteString("\n")
		}
		i = end - 1 // the end marker is written by the next iteration
		n++
	}
	return b.String(), n, nil
}

// consoleBlock renders a command's output as the README shows one: the command, its output
// (cut to head lines, saying how many were left out) and its exit code.
func consoleBlock(cmd, out string, code int, head string) string {
	out = strings.TrimRight(out, "\n")
	if h, err := strconv.Atoi(head); err == nil {
		if ls := strings.Split(out, "\n"); len(ls) > h {
			out = strings.Join(ls[:h], "\n") + fmt.Sprintf("\n… (%d more lines)", len(ls)-h)
		}
	}
	return fmt.Sprintf("```console\n$ %s\n%s\n[exit %d]\n```\n", cmd, out, code)
}
