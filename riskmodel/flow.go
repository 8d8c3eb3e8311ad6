package riskmodel

// Data flow inside one request.
//
// The rules judge segments one at a time, but harm often needs two: a secret read and a
// send, a download and its execution. Rather than asking "does any segment read a secret
// and does this one send", the extractor follows values along real edges and tags each with
// a taint saying where it came from:
//
//   - taintSecret: credential files and stores, secret-printing CLIs, environment dumps;
//   - taintFetched: what a network client downloaded (curl, wget, scp from a host, a clone);
//   - taintDecoded: what came out of a decoder (base64 -d, xxd -r, openssl enc -d).
//
// Edges followed, in the order bash runs them: pipes (PipeIn), $(…) and <(…) substituted
// into words, variables assigned from them (X=$(…), read X < f, for f in ~/.ssh/*), here-
// strings and heredocs, files the request writes (redirections, tee, curl -o, cp, mv) and a
// later segment reads or executes, and the code a segment runs (stdin of a shell, eval of a
// tainted word, a written file executed or sourced). Every command passes its input taint
// to its output (cat, tr, gzip, base64 and encryption keep what they were given).
//
// What it does not track: data through the filesystem outside this request, through
// programs' own logic (a Python script reading ~/.ssh and posting it is judged by the
// inline-code analysis, not here), arrays, arithmetic, and which branch of an if runs (both
// are assumed to). Taint only ever adds findings: a rule that finds no flow falls back to
// what the segment does on its own.

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
)

// taintKind is one origin of a value; kinds combine as bits.
type taintKind uint8

const (
	taintSecret taintKind = 1 << iota
	taintFetched
	taintDecoded
)

// maxTaintSrcs bounds the source segments one taint remembers (for messages and host checks).
const maxTaintSrcs = 8

// taintSrc is a segment that introduced a kind of taint.
type taintSrc struct {
	seg  *Segment
	kind taintKind
}

// taint is where a value came from: the kinds, and the segments that introduced them.
type taint struct {
	kinds taintKind
	srcs  []taintSrc
}

func (t taint) has(k taintKind) bool { return t.kinds&k != 0 }

// union returns the taint of a value derived from both t and u.
func (t taint) union(u taint) taint {
	if u.kinds == 0 {
		return t
	}
	if t.kinds == 0 {
		return u
	}
	out := taint{kinds: t.kinds | u.kinds, srcs: append([]taintSrc(nil), t.srcs...)}
	for _, s := range u.srcs {
		dup := false
		for _, o := range out.srcs {
			if o == s {
				dup = true
				break
			}
		}
		if !dup && len(out.srcs) < maxTaintSrcs {
			out.srcs = append(out.srcs, s)
		}
	}
	return out
}

// from returns the segments that introduced kind k.
func (t taint) from(k taintKind) []*Segment {
	var out []*Segment
	for _, s := range t.srcs {
		if s.kind&k != 0 {
			out = append(out, s.seg)
		}
	}
	return out
}

// flowAcc collects the taint and producers of the words being resolved for one command.
type flowAcc struct {
	t     taint
	feeds []*Segment
}

func (a flowAcc) merge(b flowAcc) flowAcc {
	a.t = a.t.union(b.t)
	for _, f := range b.feeds {
		if len(a.feeds) < 32 {
			a.feeds = append(a.feeds, f)
		}
	}
	return a
}

// writtenFile is what the request has put in a file so far.
type writtenFile struct {
	content string // the text, when known
	known   bool
	t       taint
	copied  bool // copied or moved from a file the request did not write: its content is the project's
}

// decoders turn encoded text back into what it hides.
func isDecoder(s *Segment) bool {
	switch s.Name() {
	case "base64", "b64", "base32", "basenc":
		return s.hasFlag("dD", "--decode")
	case "xxd":
		return s.hasFlag("r", "--revert")
	case "openssl":
		return s.arg("-d") && (s.arg("base64") || s.arg("enc") || s.arg("-base64") || s.arg("-a"))
	case "uudecode", "gpg":
		return s.Name() == "uudecode" || s.hasFlag("d", "--decrypt")
	}
	return false
}

// fetchesContent reports a segment whose output or written files come from the network.
func fetchesContent(s *Segment) bool {
	if isFetcher(s) {
		return true
	}
	switch s.Name() {
	case "scp", "rsync", "sftp":
		p := s.positional(0, "-i", "-P", "-p", "-e", "-o", "-F", "-l", "-J", "--rsh", "--exclude", "--include", "--filter")
		return len(p) >= 2 && isRemoteSpec(p[0])
	case "gh":
		return s.sub(0) == "release" && s.sub(1) == "download" || s.sub(0) == "gist" && s.sub(1) == "view" || s.sub(0) == "api"
	case "aria2c", "axel", "gdown":
		return true
	}
	return false
}

// flowCtx is the minimal rule context the extractor needs to ask the path classifiers.
func (x *extractor) flowCtx() *execCtx {
	return &execCtx{scope: x.scope, pol: &Policy{}}
}

// secretSource reports whether a segment itself reads secrets.
func secretSource(c *execCtx, s *Segment) bool {
	if len(credReads(c, s)) > 0 || dumpsEnv(s) {
		return true
	}
	if _, ok := secretCommand(s); ok {
		return true
	}
	_, ok := printsSecretVar(s)
	return ok
}

// readArgs returns the words of s that may name files it reads (curl's @file included).
func readArgs(s *Segment) []string {
	var out []string
	for i, a := range s.Args {
		if i == 0 {
			continue
		}
		if j := strings.Index(a, "@"); j >= 0 && (j == 0 || a[j-1] == '=') {
			a = a[j+1:]
		}
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		out = append(out, a)
	}
	for _, r := range s.Redirs {
		if r.Op == "<" || r.Op == "<>" {
			out = append(out, r.Target)
		}
	}
	return out
}

// flow computes a new segment's taint and applies its effects on the request's files and
// variables; it then looks at what the segment executes. ctx is where the segment was
// reached, for the code it runs.
func (x *extractor) flow(seg *Segment, ctx walkCtx) {
	if x.noFlow {
		return
	}
	c := x.flowCtx()
	in := seg.In
	if seg.PipeIn != nil {
		in = in.union(seg.PipeIn.Out)
	}
	for _, a := range readArgs(seg) {
		if abs, ok := x.scope.Resolve(a); ok {
			if wf := x.files[abs]; wf != nil {
				in = in.union(wf.t)
			}
		}
	}
	out := in
	own := taintKind(0)
	if secretSource(c, seg) {
		own |= taintSecret
	}
	if fetchesContent(seg) {
		own |= taintFetched
	}
	if isDecoder(seg) {
		own |= taintDecoded
	}
	if own != 0 {
		out = out.union(taint{kinds: own, srcs: []taintSrc{{seg, own}}})
	}
	seg.In, seg.Out = in, out

	x.writes(seg, c)
	x.readsInto(seg)
	x.runs(seg, ctx)
}

// writes records the files a segment writes and what they now hold.
func (x *extractor) writes(seg *Segment, c *execCtx) {
	n := seg.Name()
	switch n {
	case "rm", "unlink", "shred":
		for _, a := range seg.Args[1:] {
			if abs, ok := x.scope.Resolve(a); ok {
				delete(x.files, abs)
			}
		}
		return
	case "cp", "mv", "install":
		p := seg.positional(0, "-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "-g")
		if len(p) == 2 {
			src, ok1 := x.scope.Resolve(p[0])
			dst, ok2 := x.scope.Resolve(p[1])
			if ok1 && ok2 {
				wf := x.files[src]
				if wf == nil {
					wf = &writtenFile{t: seg.Out, copied: seg.Out.kinds == 0}
				}
				x.files[dst] = wf
				if n == "mv" {
					delete(x.files, src)
				}
				return
			}
		}
	}
	var content string
	known := false
	t := seg.Out
	if n == "tee" {
		content, known = stdinText(seg, x.scope)
	} else if out, ok, dec := segmentOutput(seg, x.scope); ok {
		content, known = out, true
		if dec && (isDecoder(seg) || hidesText(seg.Args)) {
			t = t.union(taint{kinds: taintDecoded, srcs: []taintSrc{{seg, taintDecoded}}})
		}
	}
	var targets []string
	for _, r := range seg.Redirs {
		if r.Writes() && r.Target != "" {
			if abs, ok := x.scope.Resolve(r.Target); ok {
				x.record(abs, content, known && (r.Fd == "" || r.Fd == "1"), r.Op == ">>" || r.Op == "&>>", t)
			}
		}
	}
	if n == "tee" {
		for _, f := range seg.positional(0) {
			if abs, ok := x.scope.Resolve(f); ok {
				x.record(abs, content, known, seg.hasFlag("a", "--append"), t)
			}
		}
		return
	}
	if isFetcher(seg) || fetchesContent(seg) {
		targets = downloadedFiles(c, seg)
		if o := bundledOutput(seg); o != "" {
			if abs, ok := x.scope.Resolve(o); ok {
				targets = append(targets, abs)
			}
		}
		for _, o := range fetcherOutputs(seg) {
			if abs, ok := x.scope.Resolve(o); ok {
				targets = append(targets, abs)
			}
		}
		if n == "scp" || n == "rsync" || n == "sftp" {
			p := seg.positional(0, "-i", "-P", "-p", "-e", "-o", "-F", "-l", "-J", "--rsh", "--exclude", "--include", "--filter")
			if len(p) >= 2 {
				dst := p[len(p)-1]
				if dst == "." || dst == ".." || strings.HasSuffix(dst, "/") {
					dst = path.Join(dst, path.Base(p[0][strings.IndexByte(p[0], ':')+1:]))
				}
				if abs, ok := x.scope.Resolve(dst); ok {
					targets = append(targets, abs)
				}
			}
		}
	} else {
		for _, w := range writeTargets(c, seg) {
			if w.abs != "" && !isRedirTarget(seg, w.abs, x.scope) {
				targets = append(targets, w.abs)
			}
		}
	}
	if a := archiveOutput(seg); a != "" {
		if abs, ok := x.scope.Resolve(a); ok {
			targets = append(targets, abs)
		}
	}
	for _, abs := range targets {
		x.record(abs, "", false, false, t)
	}
	if n == "git" && seg.sub(0) == "clone" && fetchesRepo(seg) {
		p := seg.positional(0, "-b", "--branch", "-o", "--origin", "--depth", "-c", "--config", "--reference", "--template", "-j", "--jobs")
		if len(p) >= 2 {
			dir := ""
			if len(p) >= 3 {
				dir = p[2]
			} else {
				dir = strings.TrimSuffix(path.Base(strings.TrimSuffix(p[1], "/")), ".git")
			}
			if abs, ok := x.scope.Resolve(dir); ok {
				x.clones[abs] = taint{kinds: taintFetched, srcs: []taintSrc{{seg, taintFetched}}}
			}
		}
	}
}

// fetchesRepo reports a clone from a remote URL (not a local path).
func fetchesRepo(s *Segment) bool {
	for _, a := range s.Args[2:] {
		if strings.Contains(a, "://") || isRemoteSpec(a) {
			return true
		}
	}
	return false
}

func isRedirTarget(s *Segment, abs string, sc *Scope) bool {
	for _, r := range s.Redirs {
		if a, ok := sc.Resolve(r.Target); ok && a == abs {
			return true
		}
	}
	return false
}

// record notes that abs now holds content (when known), appended or replaced.
func (x *extractor) record(abs, content string, known, appendTo bool, t taint) {
	if len(x.files) >= 256 {
		return
	}
	if old := x.files[abs]; appendTo && old != nil {
		x.files[abs] = &writtenFile{content: old.content + content, known: old.known && known, t: old.t.union(t)}
		return
	}
	x.files[abs] = &writtenFile{content: content, known: known, t: t}
}

// readsInto gives variables assigned by read/mapfile the taint of what those builtins read.
func (x *extractor) readsInto(seg *Segment) {
	switch seg.Name() {
	case "read", "mapfile", "readarray":
		for _, a := range seg.Args[1:] {
			if !strings.HasPrefix(a, "-") && isName(a) {
				x.vtaint[a] = seg.Out
				x.unknown[a] = true
				delete(x.vars, a)
			}
		}
	}
}

func isName(s string) bool { return s != "" && isAssignWord(s+"=") }

// runs links a segment to the code it executes: a shell's stdin, an eval'd word, a file the
// request wrote. Known code is analysed as if it were in the request; unknown code is
// recorded for the rules.
func (x *extractor) runs(seg *Segment, ctx walkCtx) {
	if runsStdin(seg) || runsDynamicCode(seg) || codeIsSubstitution(seg) {
		seg.Runs = seg.Runs.union(seg.In)
	}
	for _, f := range append(loadedCodeFiles(seg), libraryLoadFiles(seg)...) {
		// Build logic, a jar, a preloaded module: run as code, not as a script of the shell,
		// so only where its content came from is carried.
		if abs, ok := x.scope.Resolve(f); ok && x.files[abs] != nil {
			seg.Runs = seg.Runs.union(x.files[abs].t)
		}
	}
	n := seg.Name()
	var files []string
	if f := executedFile(seg); f != "" {
		files = append(files, f)
	}
	switch {
	case n == "make" || n == "gmake":
		if f, ok := optValue(seg.Args[1:], "-f", "--file", "--makefile"); ok {
			files = append(files, f)
		} else {
			files = append(files, "Makefile", "makefile", "GNUmakefile")
		}
	case (n == "npm" || n == "pnpm" || n == "yarn" || n == "bun") && len(seg.Args) > 1:
		files = append(files, "package.json")
	case n == "git" && len(x.files) > 0:
		for abs := range x.files {
			if strings.Contains(abs, "/.git/hooks/") {
				files = append(files, abs)
			}
		}
	case (n == "pio" || n == "platformio") && len(x.files) > 0:
		// PlatformIO runs the project's extra_scripts, Python files platformio.ini names, in
		// every build, test, check and upload (docs.platformio.org, "Advanced Scripting"): a
		// Python file this request wrote is taken to be one of them.
		for abs := range x.files {
			if strings.HasSuffix(abs, ".py") {
				files = append(files, abs)
			}
		}
		slices.Sort(files)
	case scriptRunners.get()[n].interp != "":
		// A watcher or renderer that runs the script it is given, as its interpreter would.
		for _, a := range seg.Args[1:] {
			if !strings.HasPrefix(a, "-") && slices.ContainsFunc(scriptRunners.get()[n].exts, func(e string) bool { return strings.HasSuffix(a, e) }) {
				files = append(files, a)
				break
			}
		}
	}
	toolFiles, toolLangs := x.runToolFiles(seg)
	files = append(files, toolFiles...)
	for _, f := range files {
		abs, ok := x.scope.Resolve(f)
		if !ok {
			continue
		}
		wf := x.files[abs]
		if wf == nil {
			for dir, t := range x.clones {
				if isAncestor(dir, abs) {
					seg.Runs = seg.Runs.union(t)
				}
			}
			continue
		}
		seg.Runs = seg.Runs.union(wf.t)
		if wf.copied {
			continue
		}
		if !wf.known {
			if toolLangs[f] != "" && wf.t.kinds == 0 {
				continue // a project file edited in place (sed -i) stays the project's
			}
			seg.RunsWritten = f
			continue
		}
		if x.running[abs] {
			continue // a script that runs itself
		}
		x.running[abs] = true
		c := ctx.with("written " + path.Base(abs))
		c.depth++
		c.pipeIn = nil
		c.decoded = c.decoded || wf.t.has(taintDecoded)
		switch base := path.Base(abs); {
		case toolLangs[f] != "":
			x.runToolCode(seg, toolLangs[f], wf.content, ctx, c)
		case base == "package.json":
			for _, code := range packageScripts(wf.content) {
				x.script(code, c)
			}
		case strings.EqualFold(base, "makefile") || base == "GNUmakefile" || n == "make" || n == "gmake":
			x.script(makeRecipes(wf.content), c)
		case interpreters.get()[n] || n == "pio" || n == "platformio" || scriptRunners.get()[n].interp != "":
			lang := langOf(n)
			switch {
			case scriptRunners.get()[n].interp != "":
				lang = langOf(scriptRunners.get()[n].interp)
			case !interpreters.get()[n]:
				lang = "python" // a PlatformIO extra script
			}
			facts, _ := x.inspectCode(lang, wf.content, ctx)
			seg.Code = true
			if seg.CodeFacts == nil {
				seg.CodeFacts = facts
			}
			seg.CodeOpaque = seg.CodeOpaque || facts.Opaque != ""
		default:
			x.script(wf.content, c)
		}
		delete(x.running, abs)
	}
}

// scriptRunners are catalogued tools (catalog/commands_tldr_3.toml) that run the script file
// they are given the way its interpreter would: nodemon app.js (nodemon.io), manim scene.py
// Scene (docs.manim.community), marimo edit|run|export nb.py (docs.marimo.io), quarto render
// doc.qmd, whose code cells it executes (quarto.org/docs/computations). A file the
// request wrote or downloaded and then hands to one is judged as that interpreter running it.
var scriptRunners = table[map[string]scriptRunner]{build: func() map[string]scriptRunner {
	return map[string]scriptRunner{
		"nodemon": {"node", []string{".js", ".mjs", ".cjs", ".ts"}},
		"manim":   {"python", []string{".py"}},
		"marimo":  {"python", []string{".py"}},
		"quarto":  {"python", []string{".qmd", ".ipynb", ".py", ".rmd", ".Rmd"}},
	}
}}

// scriptRunner is the interpreter a script runner stands for and the extensions of the
// files it runs.
type scriptRunner struct {
	interp string
	exts   []string
}

// packageScripts returns the commands of a package.json's "scripts"; one entry that is not
// valid JSON is returned whole, so its text is still judged.
func packageScripts(content string) []string {
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if err := json.Unmarshal([]byte(content), &pkg); err != nil {
		return []string{content}
	}
	out := make([]string, 0, len(pkg.Scripts))
	for _, v := range pkg.Scripts {
		out = append(out, v)
	}
	return out
}

// makeRecipes returns the recipe lines of a Makefile (tab-indented) as one shell script,
// without make's @, - and + prefixes.
func makeRecipes(content string) string {
	var b strings.Builder
	for _, line := range strings.Split(content, "\n") {
		if !strings.HasPrefix(line, "\t") {
			continue
		}
		b.WriteString(makeToShell(strings.TrimLeft(strings.TrimSpace(line), "@-+"))) // r16allow_scripts.go
		b.WriteByte('\n')
	}
	return b.String()
}

// archiveOutput is the file an archiver or encoder writes its result to ("" if none or
// stdout): tar -cf F / czf F, zip F, 7z a F, gpg/openssl -o/-out F.
func archiveOutput(s *Segment) string {
	p := s.positional(0)
	switch s.Name() {
	case "tar", "gtar", "bsdtar":
		if f, ok := optValue(s.Args[1:], "-f", "--file"); ok {
			return f
		}
		if len(s.Args) > 2 && !strings.HasPrefix(s.Args[1], "-") && strings.Contains(s.Args[1], "f") {
			return s.Args[2]
		}
		for i, a := range s.Args[1:] {
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "f") && i+2 < len(s.Args) {
				return s.Args[i+2]
			}
		}
	case "zip":
		if len(p) > 0 {
			return p[0]
		}
	case "7z", "7za":
		if len(p) > 1 && p[0] == "a" {
			return p[1]
		}
	case "gpg", "openssl", "age":
		if f, ok := optValue(s.Args[1:], "-o", "--output", "-out"); ok {
			return f
		}
	}
	return ""
}

// bundledOutput is the output file of curl/wget given in a bundle of short flags
// ("-sSLo f", "-qO f"), which the option parsers do not split.
func bundledOutput(s *Segment) string {
	letter := byte('o')
	if s.Name() == "wget" {
		letter = 'O'
	} else if s.Name() != "curl" {
		return ""
	}
	for i := 1; i+1 < len(s.Args); i++ {
		a := s.Args[i]
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && a[len(a)-1] == letter {
			if s.Args[i+1] == "-" {
				return ""
			}
			return s.Args[i+1]
		}
	}
	return ""
}

// hidesText reports words that spell characters as escapes (\x72, \162, \u0072): text
// written that way is meant not to be read, unlike a \n in a printf format.
func hidesText(args []string) bool {
	for _, a := range args[1:] {
		for i := 0; i+1 < len(a); i++ {
			if a[i] == '\\' {
				switch c := a[i+1]; {
				case c == 'x' || c == 'u' || c == 'U' || c >= '0' && c <= '7':
					return true
				}
				i++
			}
		}
	}
	return false
}
