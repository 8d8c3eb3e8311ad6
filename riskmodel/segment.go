package riskmodel

// Segment is one simple command found in a request, after every wrapper has been unwrapped:
// `sudo env X=1 bash -c "rm -rf ~"` yields a segment with Args ["rm","-rf","~"] reached via
// sudo, env and bash -c. Rules judge segments one at a time; the most restrictive wins.
type Segment struct {
	// Args is the argv with quoting removed and known variables ($HOME, $PWD, earlier X=…)
	// substituted. A word that could not be resolved keeps its shell text (e.g. "$TARGET").
	Args []string
	// Text is the segment's source as the agent wrote it (capped), for findings.
	Text string
	// Via lists the wrappers passed through to reach this command, outermost first:
	// "sudo", "bash -c", "eval", "xargs", "find -exec", "$(…)", "<(…)", "heredoc", …
	Via []string
	// Privileged is set when a wrapper runs the command as another user (sudo, doas, su, …).
	Privileged bool
	// Dynamic is set when some word could not be resolved to a literal.
	Dynamic bool
	// Redirs are the segment's redirections with resolved targets.
	Redirs []Redirect
	// PipeIn is the segment whose output feeds this one's standard input, nil if none.
	PipeIn *Segment
	// Stdin holds a here-document or here-string body fed to this command.
	Stdin string
	// Code is set for an interpreter running inline code (python -c, a heredoc to node, …);
	// CodeOpaque when that code does things the analysis could not follow.
	Code       bool
	CodeOpaque bool
	// CodeFacts is what the inline code can do (sockets, spawns, …), for composite rules.
	CodeFacts *CodeFacts
	// Parsed is false when the text could not be parsed as shell and Args is a best-effort
	// whitespace split.
	Parsed bool
	// Depth counts the nested shell parses that led here (0 = the request itself).
	Depth int

	// Feeds are the segments whose output is substituted into this one's words: the
	// commands of a $(…) or <(…) in them, and of a $(…) assigned to a variable they use.
	Feeds []*Segment
	// In is where the data reaching this command came from (its stdin, its words, the files
	// the request wrote that it reads); Out is where its output comes from (In plus what it
	// reads or fetches itself); Runs is where the code it executes comes from. See flow.go.
	In, Out, Runs taint
	// RunsWritten is a file this request wrote, with content the analysis cannot see, that
	// this segment executes ("" if none).
	RunsWritten string
	// CodeEnv holds NAME=value for the variables in effect for this command that make
	// programs load code (LD_PRELOAD, NODE_OPTIONS=--require …, BASH_ENV, …).
	CodeEnv []string

	// scope is the frame this segment runs in: the request's, with the working directory
	// and symlinks the commands before it set up. nil means the request's own scope.
	scope *Scope

	// subs caches the words sub reads (positional(0)), dozens of rules asking for them; it
	// holds for the Args it was computed from (subsFor, a copy), and is recomputed when those
	// change.
	subs, subsFor []string
	// writes caches writeTargets for the scope writesScope and the Args and Redirs it was
	// computed from (copies).
	writes       []target
	writesScope  *Scope
	writesFor    []string
	writesRedirs []Redirect
	// name caches Name for the Args[0] it was computed from (nameFor): hundreds of rules ask
	// for it per segment, and a Windows spelling costs a scan each time.
	name, nameFor string
}

// Redirect is one redirection of a segment.
type Redirect struct {
	// Op is the operator as written: ">", ">>", "<", "&>", ">&", "<<", "<<<", …
	Op string
	// Fd is the explicit file descriptor, "" when implicit.
	Fd string
	// Target is the resolved target word (a path, "&1", a heredoc marker).
	Target string
}

// Name is the command's name: the base name of Args[0] ("/bin/rm" → "rm"), or "" for a
// segment with no words (a bare redirection such as "> file").
func (s *Segment) Name() string {
	if len(s.Args) == 0 {
		return ""
	}
	n := s.Args[0]
	if n == s.nameFor && s.name != "" {
		return s.name
	}
	s.name, s.nameFor = segmentName(n), n
	return s.name
}

// segmentName is Name's work for one word: the base name, read the Windows way when the
// word is a Windows program path or spelling.
func segmentName(n string) string {
	for i := len(n) - 1; i >= 0; i-- {
		if n[i] == '/' || n[i] == '\\' && winProgramPath(n) {
			return winProgramName(n[i+1:])
		}
	}
	return winProgramName(n)
}

// Writes reports whether the segment redirects output into a file (not a descriptor).
func (r Redirect) Writes() bool {
	switch r.Op {
	case ">", ">>", "&>", "&>>", ">|":
		return true
	case ">&":
		return len(r.Target) > 0 && r.Target[0] != '&' && (r.Target[0] < '0' || r.Target[0] > '9') && r.Target != "-"
	}
	return false
}
