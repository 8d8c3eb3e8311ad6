package riskmodel

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Limits that keep the analysis bounded on any input. Going past one is itself a finding
// (shell.too-complex), never a silent truncation.
const (
	maxDepth    = 8    // nested parses: bash -c "eval '…'" …
	maxSegments = 1024 // simple commands per request
	maxTextLen  = 160  // characters of source kept in Segment.Text
	maxLoopVals = 8    // literal for-loop values analysed one by one
	// maxTail bounds the segments past maxSegments that are still scanned (distinct ones
	// only) so that padding cannot hide a critical command behind "too complex".
	maxTail = 8 * maxSegments
)

// issue is a problem with the analysis itself (unparsable, too deep, too complex) that the
// shell rules turn into findings.
type issue struct {
	kind string // "unparsable", "too-deep", "too-complex"
	text string
}

// extractor turns a request's argv into segments. One extractor serves one request.
type extractor struct {
	// scope is the frame of the command being walked: cd, pushd, popd and ln -s replace
	// it; a subshell, a pipeline element or a nested shell restores it when it ends.
	scope    *Scope
	oldScope *Scope            // before the last cd, for "cd -"
	dirStack []*Scope          // pushd's stack
	vars     map[string]string // known variable values; "" + !ok means unknown
	unknown  map[string]bool   // variables assigned something unresolvable or several values
	segs     []*Segment
	issues   []issue
	seen     map[*syntax.CallExpr]bool

	// tail holds the distinct segments found past maxSegments: only their critical findings
	// count (see maxTail).
	tail     []*Segment
	tailSeen map[string]bool

	// Data flow (flow.go): the taint and producers of each variable, the files the request
	// wrote, the directories it cloned, and the words being resolved for the current command.
	vtaint  map[string]taint
	vfeeds  map[string][]*Segment
	files   map[string]*writtenFile
	clones  map[string]taint
	running map[string]bool
	acc     flowAcc
	noFlow  bool // taint and written files are not followed (see Analyzer.noFlow)

	// Code held in strings: aliases and functions defined so far (expanded where called),
	// the code-loading variables exported so far, and those prefixed to the current command.
	aliases   map[string]string
	funcs     map[string]*syntax.Stmt
	inFunc    map[string]bool
	codeEnv   map[string]string
	prefixEnv []string
}

// walkCtx is what a command inherits from where it appears.
type walkCtx struct {
	via        []string
	privileged bool
	depth      int
	pipeIn     *Segment
	decoded    bool   // the code came out of a decoder (base64, printf escapes, rev, …)
	src        string // the source being walked, for segment text
}

func (c walkCtx) with(v string) walkCtx {
	c.via = append(append([]string(nil), c.via...), v)
	return c
}

// extractSegments analyses an argv and returns every simple command it would run. A panic
// inside the analysis (a parser shape it does not expect) is reported as an issue, so the
// request is asked about rather than crashing the reviewer.
func extractSegments(scope *Scope, argv []string) (segs []*Segment, issues []issue) {
	segs, _, issues = extractProgram(scope, argv, false)
	return segs, issues
}

// extractProgram is extractSegments that also returns the tail: distinct segments past the
// segment limit, to be scanned for critical findings only.
func extractProgram(scope *Scope, argv []string, noFlow bool) (segs, tail []*Segment, issues []issue) {
	x := &extractor{scope: scope, noFlow: noFlow, vars: map[string]string{}, unknown: map[string]bool{}, seen: map[*syntax.CallExpr]bool{},
		tailSeen: map[string]bool{}, vtaint: map[string]taint{}, vfeeds: map[string][]*Segment{}, files: map[string]*writtenFile{},
		clones: map[string]taint{}, running: map[string]bool{}, aliases: map[string]string{}, funcs: map[string]*syntax.Stmt{},
		inFunc: map[string]bool{}, codeEnv: map[string]string{}}
	defer func() {
		if p := recover(); p != nil {
			segs, tail, issues = x.segs, x.tail, append(x.issues, issue{"analysis-failed", fmt.Sprint(p)})
		}
	}()
	seg := &Segment{Args: append([]string(nil), argv...), Text: capText(strings.Join(argv, " ")), Parsed: true}
	x.command(seg, walkCtx{})
	return x.segs, x.tail, x.issues
}

// full reports whether the segment limit is reached; past it only the tail is scanned.
func (x *extractor) full() bool { return len(x.segs) >= maxSegments }

// exhausted reports whether even the tail is full: walking further finds nothing new.
func (x *extractor) exhausted() bool { return x.full() && len(x.tail) >= maxTail }

func capText(s string) string {
	if strings.ContainsAny(s, "\n\t\r") || strings.Contains(s, "  ") {
		s = joinFieldsPrefix(s, maxTextLen+1)
	}
	if len(s) > maxTextLen {
		cut := maxTextLen
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		return s[:cut] + "…"
	}
	return s
}

// joinFieldsPrefix returns strings.Join(strings.Fields(s), " ") or, when that is longer than
// n bytes, a prefix of it at least n bytes long: capText keeps only the first maxTextLen, and
// a 64 KiB heredoc need not be split whole for that.
func joinFieldsPrefix(s string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < n; {
		// Skip a run of spaces, then copy one field, as strings.Fields splits.
		r, w := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			i += w
			continue
		}
		j := i + w
		for j < len(s) {
			r, w := utf8.DecodeRuneInString(s[j:])
			if unicode.IsSpace(r) {
				break
			}
			j += w
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s[i:j])
		i = j
	}
	return b.String()
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// script parses src as bash and walks it.
func (x *extractor) script(src string, ctx walkCtx) *Segment {
	if ctx.depth > maxDepth {
		x.issues = append(x.issues, issue{"too-deep", capText(src)})
		return nil
	}
	f, err := parseBash(src)
	if err != nil {
		x.issues = append(x.issues, issue{"unparsable", capText(src) + " (" + err.Error() + ")"})
		// bash runs a script statement by statement, so the statements before the syntax
		// error do run: walk them as usual, so that their findings (a critical one
		// included) stand beside "unparsable".
		var good []*syntax.Stmt
		_ = syntax.NewParser(syntax.Variant(syntax.LangBash)).Stmts(strings.NewReader(src), func(s *syntax.Stmt) bool {
			good = append(good, s)
			return len(good) < maxSegments
		})
		if len(good) > 0 {
			pctx := ctx
			pctx.src = src
			x.stmts(good, pctx)
			for _, st := range good {
				syntax.Walk(st, func(n syntax.Node) bool {
					if c, ok := n.(*syntax.CallExpr); ok && !x.seen[c] && !x.exhausted() {
						x.call(c, nil, pctx)
					}
					return true
				})
			}
		}
		// Best effort: judge the words anyway, so an obvious "rm -rf ~" inside broken
		// quoting is still caught.
		fields := strings.Fields(src)
		if len(fields) > 0 {
			seg := &Segment{Args: fields, Text: capText(src), Dynamic: true}
			x.add(seg, ctx)
		}
		return nil
	}
	ctx.src = src
	last := x.stmts(f.Stmts, ctx)
	// Anything the structured walk did not reach (commands inside [[ ]], arithmetic, case
	// patterns, …) is still judged, without context: nothing in the text goes unseen.
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && !x.seen[c] && !x.exhausted() {
			x.call(c, nil, ctx)
		}
		return true
	})
	return last
}

func (x *extractor) stmts(ss []*syntax.Stmt, ctx walkCtx) *Segment {
	var last *Segment
	for _, s := range ss {
		last = x.stmt(s, ctx)
	}
	return last
}

// stmt walks one statement and returns the segment whose output it produces (for pipes).
func (x *extractor) stmt(s *syntax.Stmt, ctx walkCtx) *Segment {
	if s == nil || x.exhausted() {
		if s != nil {
			x.tooComplex(ctx)
		}
		return nil
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return x.call(c, s.Redirs, ctx)
	case nil:
		// A bare redirection: "> file" truncates file.
		if len(s.Redirs) > 0 {
			seg := &Segment{Text: x.text(ctx, s.Pos(), s.End()), Parsed: true}
			x.redirs(seg, s.Redirs, ctx)
			x.add(seg, ctx)
			return seg
		}
		return nil
	}
	if len(s.Redirs) > 0 {
		seg := &Segment{Text: x.text(ctx, s.Pos(), s.End()), Parsed: true}
		x.redirs(seg, s.Redirs, ctx)
		if len(seg.Redirs) > 0 {
			x.add(seg, ctx)
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			// Every element of a pipeline runs in a subshell: a cd there does not last.
			saved := x.scope
			left := x.stmt(c.X, ctx)
			x.scope = saved
			rctx := ctx
			rctx.pipeIn = left
			last := x.stmt(c.Y, rctx)
			x.scope = saved
			return last
		default:
			x.stmt(c.X, ctx)
			return x.stmt(c.Y, ctx)
		}
	case *syntax.Subshell:
		saved := x.scope
		last := x.stmts(c.Stmts, ctx)
		x.scope = saved
		return last
	case *syntax.Block:
		return x.stmts(c.Stmts, ctx)
	case *syntax.IfClause:
		var last *Segment
		before := x.scope
		for ic := c; ic != nil; ic = ic.Else {
			x.stmts(ic.Cond, ctx)
			last = x.stmts(ic.Then, ctx)
		}
		x.mergeCwd(before)
		return last
	case *syntax.WhileClause:
		before := x.scope
		x.stmts(c.Cond, ctx)
		last := x.stmts(c.Do, ctx)
		x.mergeCwd(before)
		return last
	case *syntax.ForClause:
		return x.forClause(c, ctx)
	case *syntax.CaseClause:
		x.word(c.Word, ctx)
		var last *Segment
		before := x.scope
		for _, it := range c.Items {
			last = x.stmts(it.Stmts, ctx)
		}
		x.mergeCwd(before)
		return last
	case *syntax.FuncDecl:
		// The body may never run, but judging it costs nothing and a function is an easy
		// place to hide a command.
		name := "(anonymous)"
		if c.Name != nil {
			name = c.Name.Value
			x.funcs[name] = c.Body
		}
		saved := x.scope
		x.inFunc[name] = true
		x.stmt(c.Body, ctx.with("function "+name))
		x.inFunc[name] = false
		x.scope = saved
		return nil
	case *syntax.TimeClause:
		return x.stmt(c.Stmt, ctx)
	case *syntax.CoprocClause:
		return x.stmt(c.Stmt, ctx)
	case *syntax.DeclClause:
		seg := &Segment{Args: []string{c.Variant.Value}, Text: x.text(ctx, c.Pos(), c.End()), Parsed: true}
		for _, a := range c.Args {
			v, set := x.assign(a, ctx, true)
			if a.Name != nil {
				seg.Args = append(seg.Args, a.Name.Value)
				if set {
					x.envAssign(a.Name.Value, v, true, ctx)
				}
			}
		}
		x.add(seg, ctx)
		return seg
	}
	return nil // arithmetic, [[ ]], let: their commands are reached by the Walk fallback
}

func (x *extractor) forClause(c *syntax.ForClause, ctx walkCtx) *Segment {
	wi, ok := c.Loop.(*syntax.WordIter)
	if !ok {
		return x.stmts(c.Do, ctx)
	}
	name := wi.Name.Value
	var vals []string
	literal := len(wi.Items) > 0 && len(wi.Items) <= maxLoopVals
	saved := x.acc
	x.acc = flowAcc{}
	for _, w := range wi.Items {
		v, dyn, _ := x.word(w, ctx)
		if dyn || HasGlob(v) {
			literal = false
		}
		vals = append(vals, v)
		if abs, ok := x.scope.Resolve(v); ok && isCredentialPath(x.flowCtx(), abs) {
			x.acc.t = x.acc.t.union(taint{kinds: taintSecret})
		}
	}
	x.vtaint[name], x.vfeeds[name] = x.acc.t, x.acc.feeds
	x.acc = saved
	if !literal {
		x.unknown[name] = true
		delete(x.vars, name)
		return x.stmts(c.Do, ctx)
	}
	var last *Segment
	for _, v := range vals {
		x.vars[name] = v
		delete(x.unknown, name)
		last = x.stmts(c.Do, ctx)
	}
	x.unknown[name] = true
	delete(x.vars, name)
	return last
}

// assign records a variable assignment; global is false for a command's prefix (X=1 cmd),
// whose value only that command sees. It returns the value and whether it is known. The
// value's taint goes to the variable (global) or to the command's input (prefix).
// HOME and PWD are never taken from the request: "~" and "$HOME" stay the real home, so
// "HOME=/tmp/x rm -rf ~/.ssh" is judged on the real ~/.ssh, as bash expands it.
func (x *extractor) assign(a *syntax.Assign, ctx walkCtx, global bool) (string, bool) {
	if a.Name == nil {
		return "", false
	}
	name := a.Name.Value
	saved := x.acc
	if global {
		x.acc = flowAcc{}
		defer func() {
			x.vtaint[name], x.vfeeds[name] = x.acc.t, x.acc.feeds
			x.acc = saved
		}()
	}
	if a.Value == nil || a.Array != nil || a.Index != nil || a.Append {
		if a.Value != nil {
			x.word(a.Value, ctx)
		}
		if a.Array != nil {
			for _, e := range a.Array.Elems {
				x.word(e.Value, ctx)
			}
		}
		if global {
			x.unknown[name] = true
			delete(x.vars, name)
		}
		return "", false
	}
	v, dyn, _ := x.word(a.Value, ctx)
	if !global || name == "HOME" || name == "PWD" || name == "OLDPWD" {
		return v, !dyn
	}
	if old, had := x.vars[name]; dyn || (had && old != v) {
		// Unknown, or assigned several values: uses of it are unresolvable.
		x.unknown[name] = true
		delete(x.vars, name)
		return v, !dyn
	}
	if !x.unknown[name] {
		x.vars[name] = v
	}
	return v, true
}

func (x *extractor) text(ctx walkCtx, from, to syntax.Pos) string {
	a, b := int(from.Offset()), int(to.Offset())
	if ctx.src == "" || a < 0 || b > len(ctx.src) || a >= b {
		return ""
	}
	return capText(ctx.src[a:b])
}

func (x *extractor) tooComplex(ctx walkCtx) {
	if len(x.issues) == 0 || x.issues[len(x.issues)-1].kind != "too-complex" {
		x.issues = append(x.issues, issue{"too-complex", "more than " + strconv.Itoa(maxSegments) + " commands"})
	}
}

// call turns a simple command into a segment and unwraps it.
func (x *extractor) call(c *syntax.CallExpr, redirs []*syntax.Redirect, ctx walkCtx) *Segment {
	x.seen[c] = true
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			if v, ok := x.assign(a, ctx, true); ok || a.Value != nil {
				x.envAssign(a.Name.Value, v, true, ctx)
			}
		}
		if len(redirs) == 0 {
			seg := &Segment{Text: x.text(ctx, c.Pos(), c.End()), Parsed: true}
			x.add(seg, ctx)
			return nil
		}
	}
	saved, savedEnv := x.acc, x.prefixEnv
	x.acc = flowAcc{}
	defer func() { x.acc, x.prefixEnv = saved, savedEnv }()
	for _, a := range c.Assigns {
		v, _ := x.assign(a, ctx, false)
		if a.Name != nil {
			x.envAssign(a.Name.Value, v, false, ctx)
		}
	}
	seg := &Segment{Parsed: true}
	if len(c.Args) > 0 {
		seg.Text = x.text(ctx, c.Args[0].Pos(), c.End())
		seg.Args = make([]string, 0, len(c.Args)) // one allocation, not append's doublings
	}
	for _, w := range c.Args {
		v, dyn, dec := x.word(w, ctx)
		if dec {
			ctx.decoded = true
		}
		if !dyn && isBareExpansion(w) {
			// An unquoted $X or $(…) is split into words by IFS: X="rm -rf ~"; $X.
			seg.Args = append(seg.Args, x.split(v)...)
			if _, set := x.vars["IFS"]; set || x.unknown["IFS"] {
				ctx.decoded = true // IFS games are obfuscation
			}
			seg.Dynamic = seg.Dynamic || x.unknown["IFS"]
			continue
		}
		seg.Args = append(seg.Args, v)
		seg.Dynamic = seg.Dynamic || dyn
		if dec {
			ctx.decoded = true
		}
	}
	if len(seg.Args) == 0 {
		seg.Args = nil // every word expanded to nothing: no words, as before the make above
	}
	x.redirs(seg, redirs, ctx)
	seg.PipeIn = ctx.pipeIn
	seg.In, seg.Feeds = x.acc.t, x.acc.feeds
	return x.command(seg, ctx)
}

func (x *extractor) redirs(seg *Segment, rs []*syntax.Redirect, ctx walkCtx) {
	for _, r := range rs {
		rd := Redirect{Op: r.Op.String()}
		if r.N != nil {
			rd.Fd = r.N.Value
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				seg.Stdin = x.hdocBody(r, ctx)
			}
			if r.Word != nil {
				rd.Target = r.Word.Lit()
			}
		case syntax.WordHdoc:
			if r.Word != nil {
				body, _, _ := x.word(r.Word, ctx)
				seg.Stdin = body + "\n"
			}
		default:
			if r.Word != nil {
				rd.Target, _, _ = x.word(r.Word, ctx)
			}
		}
		seg.Redirs = append(seg.Redirs, rd)
	}
}

// hdocBody is a here-document's text as the command reads it. With a quoted delimiter
// (<<'EOF', <<"EOF", <<\EOF) the body is taken literally, backslashes included; otherwise
// parameters and command substitutions expand, and a backslash escapes only $, `, \ and a
// newline. Reading the body as an unquoted word would drop every other backslash too, so
// print("a\nb") in a Python heredoc would reach the code analysis as print("anb").
func (x *extractor) hdocBody(r *syntax.Redirect, ctx walkCtx) string {
	quoted := false
	if r.Word != nil {
		for _, p := range r.Word.Parts {
			switch p := p.(type) {
			case *syntax.SglQuoted, *syntax.DblQuoted:
				quoted = true
			case *syntax.Lit:
				quoted = quoted || strings.Contains(p.Value, `\`)
			}
		}
	}
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			if quoted {
				b.WriteString(l.Value)
			} else {
				b.WriteString(unescapeHeredoc(l.Value))
			}
			continue
		}
		x.part(&b, p, ctx, true)
	}
	return b.String()
}

// unescapeHeredoc removes the backslashes that are escapes in an unquoted here-document:
// before $, `, \ and a newline (bash(1), "Here Documents"); a double quote is not special there.
func unescapeHeredoc(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// word resolves a shell word to its value. dyn is set when some part is unknown (the value
// then holds its shell text, so it never resolves to a path); decoded when some part came
// out of a decoder.
func (x *extractor) word(w *syntax.Word, ctx walkCtx) (val string, dyn, decoded bool) {
	if w == nil {
		return "", false, false
	}
	if len(w.Parts) == 1 {
		// Most words are one literal or one single-quoted string: their value needs no
		// builder (part would copy it into one).
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			return unescapeBare(p.Value), false, false
		case *syntax.SglQuoted:
			if !p.Dollar {
				return p.Value, false, false
			}
		}
	}
	var b strings.Builder
	for _, p := range w.Parts {
		d, dec := x.part(&b, p, ctx, false)
		dyn = dyn || d
		decoded = decoded || dec
	}
	return b.String(), dyn, decoded
}

func (x *extractor) part(b *strings.Builder, p syntax.WordPart, ctx walkCtx, quoted bool) (dyn, decoded bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		if quoted {
			b.WriteString(unescapeDouble(p.Value))
		} else {
			b.WriteString(unescapeBare(p.Value))
		}
	case *syntax.SglQuoted:
		if p.Dollar {
			s := ansiC(p.Value)
			b.WriteString(s)
			return false, s != p.Value
		}
		b.WriteString(p.Value)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			d, dec := x.part(b, q, ctx, true)
			dyn, decoded = dyn || d, decoded || dec
		}
	case *syntax.ParamExp:
		if p.Param != nil {
			name := p.Param.Value
			x.acc = x.acc.merge(flowAcc{t: x.vtaint[name], feeds: x.vfeeds[name]})
		}
		v, ok := x.param(p, ctx)
		if !ok {
			b.WriteString("$" + paramName(p))
			return true, false
		}
		b.WriteString(v)
	case *syntax.CmdSubst:
		v, ok, dec := x.cmdSubst(p, ctx)
		if !ok {
			b.WriteString("$(…)")
			return true, false
		}
		b.WriteString(v)
		return false, dec
	case *syntax.ProcSubst:
		op := "<(…)"
		if p.Op == syntax.CmdOut {
			op = ">(…)"
		}
		saved, scope, start := x.acc, x.scope, len(x.segs)
		x.acc = flowAcc{}
		x.stmts(p.Stmts, ctx.with(op))
		x.acc, x.scope = saved.merge(x.produced(start, false)), scope
		b.WriteString("/dev/fd/63")
	case *syntax.ArithmExp:
		b.WriteString("$((…))")
		return true, false
	default: // ExtGlob, BraceExp
		b.WriteString("*")
		return true, false
	}
	return dyn, decoded
}

// isBareExpansion reports a word made only of unquoted parameter expansions or command
// substitutions, which the shell splits into several words.
func isBareExpansion(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst:
		default:
			return false
		}
	}
	return true
}

// split splits a value on the current IFS (default space, tab, newline).
func (x *extractor) split(v string) []string {
	ifs, ok := x.vars["IFS"]
	if !ok {
		ifs = " \t\n"
	}
	f := strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(ifs, r) })
	if len(f) == 0 {
		return nil
	}
	return f
}

func paramName(p *syntax.ParamExp) string {
	if p.Param != nil {
		return p.Param.Value
	}
	return "?"
}

func (x *extractor) param(p *syntax.ParamExp, ctx walkCtx) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 || p.NestedParam != nil {
		return "", false
	}
	name := p.Param.Value
	v, ok := x.lookup(name)
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
			if ok {
				return v, true
			}
			d, dyn, _ := x.word(p.Exp.Word, ctx)
			return d, !dyn
		}
		return "", false
	}
	return v, ok
}

func (x *extractor) lookup(name string) (string, bool) {
	if x.unknown[name] {
		return "", false
	}
	if v, ok := x.vars[name]; ok {
		return v, true
	}
	switch name {
	case "HOME":
		return x.scope.Home, true
	case "PWD":
		return x.scope.Cwd, !x.scope.CwdUnknown
	case "USER", "LOGNAME":
		return path.Base(x.scope.Home), true
	case "TMPDIR":
		return "/tmp", true
	}
	return "", false
}

// cmdSubst analyses the commands of $(…) and, where it can, computes their output: pwd,
// echo/printf of literals, base64/xxd decoding, rev. Anything else is unknown.
func (x *extractor) cmdSubst(c *syntax.CmdSubst, ctx walkCtx) (val string, ok, decoded bool) {
	start := len(x.segs)
	saved, scope := x.acc, x.scope
	x.acc = flowAcc{}
	x.stmts(c.Stmts, ctx.with("$(…)"))
	x.acc, x.scope = saved.merge(x.produced(start, true)), scope
	if len(c.Stmts) != 1 {
		return "", false, false
	}
	// The output comes from the last segment of the single pipeline.
	segs := x.segs[start:]
	if len(segs) == 0 {
		return "", false, false
	}
	out, ok, dec := segmentOutput(segs[len(segs)-1], x.scope)
	return strings.TrimRight(out, "\n"), ok, dec
}

// segmentOutput computes what a segment prints when that can be known without running
// anything.
func segmentOutput(s *Segment, sc *Scope) (out string, ok, decoded bool) {
	if s == nil || s.Dynamic {
		return "", false, false
	}
	args := s.Args
	switch s.Name() {
	case "pwd":
		return sc.Cwd, !sc.CwdUnknown, false
	case "echo":
		interp := false
		i := 1
		for ; i < len(args) && strings.HasPrefix(args[i], "-") && strings.Trim(args[i][1:], "neE") == ""; i++ {
			interp = interp || strings.Contains(args[i], "e")
		}
		o := strings.Join(args[i:], " ")
		if interp {
			d := ansiC(o)
			return d, true, d != o
		}
		return o, true, false
	case "printf":
		if len(args) < 2 || strings.Contains(strings.ReplaceAll(args[1], "%%", ""), "%") && len(args) == 2 {
			return "", false, false
		}
		f := ansiC(args[1])
		if strings.Contains(f, "%s") && len(args) > 2 {
			f = strings.Replace(f, "%s", strings.Join(args[2:], " "), 1)
		} else if strings.Contains(f, "%") {
			return "", false, false
		}
		return f, true, f != args[1]
	case "cat":
		if len(args) == 1 && s.Stdin != "" {
			return s.Stdin, true, false
		}
	case "base64", "b64", "openssl", "xxd", "rev":
		in, ok := stdinText(s, sc)
		if !ok {
			return "", false, false
		}
		if d, ok := decodeStream(s, in); ok {
			return d, true, true
		}
	case "git":
		if len(args) >= 3 && args[1] == "rev-parse" && args[2] == "--show-toplevel" {
			return sc.Cwd, !sc.CwdUnknown, false
		}
		if p, ok := wellKnownDir(s, sc); ok {
			return p, true, false
		}
	default:
		if p, ok := pythonSiteDir(s, sc); ok {
			return p, true, false
		}
		if p, ok := wellKnownDir(s, sc); ok {
			return p, true, false
		}
	}
	return "", false, false
}

// stdinText is the known text a segment reads on standard input.
func stdinText(s *Segment, sc *Scope) (string, bool) {
	if s.Stdin != "" {
		return s.Stdin, true
	}
	if s.PipeIn != nil {
		out, ok, _ := segmentOutput(s.PipeIn, sc)
		return out, ok
	}
	return "", false
}

// decodeStream applies a decoding command (base64 -d, xxd -r -p, openssl base64 -d, rev) to
// in. ok is false when s is not a decoder or the text does not decode.
func decodeStream(s *Segment, in string) (string, bool) {
	args := s.Args
	has := func(flags ...string) bool {
		for _, a := range args[1:] {
			for _, f := range flags {
				if a == f {
					return true
				}
			}
		}
		return false
	}
	switch s.Name() {
	case "base64", "b64":
		if !has("-d", "--decode", "-D", "-di", "-id") {
			return "", false
		}
	case "openssl":
		if !(has("base64", "enc") && has("-d")) {
			return "", false
		}
	case "xxd":
		if !has("-r") {
			return "", false
		}
		b, err := hex.DecodeString(strings.Join(strings.Fields(in), ""))
		if err != nil {
			return "", false
		}
		return string(b), true
	case "rev":
		lines := strings.Split(strings.TrimRight(in, "\n"), "\n")
		for i, l := range lines {
			r := []rune(l)
			for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
				r[a], r[b] = r[b], r[a]
			}
			lines[i] = string(r)
		}
		return strings.Join(lines, "\n"), true
	default:
		return "", false
	}
	clean := strings.Join(strings.Fields(in), "")
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(clean); err == nil {
			return string(b), true
		}
	}
	return "", false
}

// unescapeBare removes the backslashes of an unquoted word: \r m → rm, a\ b → "a b".
func unescapeBare(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes that are escapes inside double quotes.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC interprets the escapes of $'…' and echo -e: \n \t \xHH \NNN \uHHHH.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a', 'b', 'e', 'E', 'f', 'v':
			b.WriteByte(map[byte]byte{'a': 7, 'b': 8, 'e': 27, 'E': 27, 'f': 12, 'v': 11}[e])
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteString(`\x`)
				continue
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			b.WriteByte(byte(v))
			i = j - 1
		case 'u', 'U':
			n := 4
			if e == 'U' {
				n = 8
			}
			j := i + 1
			for j < len(s) && j < i+1+n && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			b.WriteRune(rune(v))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 8)
			b.WriteByte(byte(v))
			i = j - 1
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// produced is the flow out of the segments added since start (a $(…) or <(…)): the union
// of their output taint, and as producers the last of them (lastOnly) or all.
func (x *extractor) produced(start int, lastOnly bool) flowAcc {
	var a flowAcc
	if start >= len(x.segs) {
		return a
	}
	for _, s := range x.segs[start:] {
		a.t = a.t.union(s.Out)
	}
	if lastOnly {
		a.feeds = []*Segment{x.segs[len(x.segs)-1]}
	} else if n := len(x.segs) - start; n <= 16 {
		a.feeds = append(a.feeds, x.segs[start:]...)
	}
	return a
}

// mergeCwd ends a conditional: if a branch may have changed the directory, where later
// commands run is unknown.
func (x *extractor) mergeCwd(before *Scope) {
	if x.scope.Cwd != before.Cwd || x.scope.CwdUnknown != before.CwdUnknown {
		x.scope = x.scope.withCwd("", false)
	}
}
