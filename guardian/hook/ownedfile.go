package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
)

// ownedFile is a host config that is a whole file of guardian's own — OpenCode's plugin,
// Cline's PreToolUse hook script — rather than an entry in a file the user shares with other
// tools. guardian writes it from a template holding the hook command and the timeout on lines
// of their own, recognises it by its first line, and removes it whole on uninstall.
type ownedFile struct {
	// host names the adapter ("opencode"), for messages.
	host string
	// marker is the first line of every file guardian writes: what tells guardian's file
	// from one of the user's at the same path.
	marker string
	// render is the file for a hook command and a timeout in milliseconds.
	render func(command string, timeoutMS int) []byte
	// commandRE and timeoutRE find the two values in a file: each has one submatch, the
	// command as a JSON string and the timeout in milliseconds.
	commandRE, timeoutRE func() *regexp.Regexp
}

// install is the Host.Install of an owned file: the template for command, replacing an earlier
// guardian file; a file at that path that is not guardian's is an error, never overwritten.
func (o ownedFile) install(files []File, command string, timeoutSec int) ([]File, error) {
	old := files[0].Content
	if len(bytes.TrimSpace(old)) > 0 && !o.owns(old) {
		return nil, fmt.Errorf("%s exists and is not guardian's (its first line is not %q): move it away, or name another file with the config flag", files[0].Path, o.marker)
	}
	out := o.render(command, timeoutSec*1000)
	if bytes.Equal(old, out) {
		out = old
	}
	return withContents(files, out), nil
}

// uninstall removes guardian's file (nil content: the file goes); anything else is left alone.
func (o ownedFile) uninstall(files []File) ([]File, error) {
	if len(files[0].Content) == 0 || !o.owns(files[0].Content) {
		return files, nil
	}
	return withContents(files, nil), nil
}

// owns reports whether content is a file guardian wrote.
func (o ownedFile) owns(content []byte) bool {
	return bytes.HasPrefix(content, []byte(o.marker+"\n"))
}

// find reads the hook command and timeout back from guardian's file. A file that is guardian's
// but was edited so that either value cannot be found, or whose text is no longer exactly the
// template for those values, is an error: verify must not vouch for a changed plugin.
func (o ownedFile) find(files []File) ([]Installed, error) {
	content := files[0].Content
	if len(content) == 0 || !o.owns(content) {
		return nil, nil
	}
	cm, tm := o.commandRE().FindSubmatch(content), o.timeoutRE().FindSubmatch(content)
	if cm == nil || tm == nil {
		return nil, fmt.Errorf("guardian's %s file has no command or timeout line: reinstall it with guardian hook install %s --write", o.host, o.host)
	}
	var command string
	if err := json.Unmarshal(cm[1], &command); err != nil {
		return nil, fmt.Errorf("guardian's %s file: the command is not a JSON string: %w", o.host, err)
	}
	ms, err := strconv.Atoi(string(tm[1]))
	if err != nil {
		return nil, fmt.Errorf("guardian's %s file: bad timeout: %w", o.host, err)
	}
	if !bytes.Equal(content, o.render(command, ms)) {
		return nil, fmt.Errorf("guardian's %s file was edited (it is not the template for its command): reinstall it with guardian hook install %s --write", o.host, o.host)
	}
	// Installed.Timeout is in the verifier's unit, milliseconds here.
	return []Installed{{Command: command, Timeout: ms}}, nil
}

// jsString is s as a JavaScript (and JSON) string literal. JSON escapes U+2028 and U+2029,
// which older JavaScript would read as line ends inside a string.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
