package riskmodel

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Resource exhaustion is judged from the shape of the shell code, not from one spelling of
// one fork bomb: a function that starts itself in the background or through a pipe, a loop
// without end that starts background jobs, sends requests or appends to files, and an endless
// or enormous input fed to a parallel xargs. Segments alone cannot show this (they do not
// record loops or "&"), so the request's shell text is parsed again here, bounded in size
// and depth; it only happens when the text contains a loop, a function or xargs.

const maxRunawayText = 64 << 10

// fetchTools send a request each time they run.
var fetchTools = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"curl": true, "wget": true, "http": true, "https": true, "xh": true, "nc": true, "ncat": true, "ab": true,
		"hey": true, "siege": true, "wrk": true, "ping": true, "dig": true, "nslookup": true, "ssh": true, "aria2c": true, "httpie": true}
}}

// runawayIn returns why the request's shell code runs without bound, "" if it does not.
func runawayIn(argv []string) string {
	for _, a := range argv {
		if why := runawayText(a, 0); why != "" {
			return why
		}
	}
	if len(argv) > 1 {
		return runawayText(strings.Join(argv, " "), 0)
	}
	return ""
}

func runawayText(src string, depth int) string {
	if depth > 3 || len(src) > maxRunawayText || !containsAny(src, "while", "until", "for ", "for(", "()", "xargs", "parallel", "function") {
		return ""
	}
	f, err := parseBash(src)
	if err != nil {
		return ""
	}
	why := ""
	nodes := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		nodes++
		if why != "" || nodes > 20000 {
			return false
		}
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name != nil && selfSpawning(n.Body, n.Name.Value) {
				why = "defines " + n.Name.Value + "() that starts itself in the background or through a pipe: a fork bomb"
			}
		case *syntax.WhileClause:
			if endless(n) {
				why = runawayBody(n.Do)
			}
		case *syntax.ForClause:
			if c, ok := n.Loop.(*syntax.CStyleLoop); ok && c.Cond == nil {
				why = runawayBody(n.Do)
			} else {
				why = boundedFlood(n) // resource_bounded.go
				if why == "" {
					why = cpuWorkerFlood(n) // r20cat_workers.go
				}
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				why = floodPipe(n)
			}
		case *syntax.CallExpr:
			// bash -c '…' nested inside: look into it too.
			if len(n.Args) >= 3 && shells.get()[baseName(litWord(n.Args[0]))] {
				for i, w := range n.Args[1 : len(n.Args)-1] {
					if strings.HasPrefix(litWord(w), "-") && strings.Contains(litWord(w), "c") {
						why = runawayText(litWord(n.Args[i+2]), depth+1)
						break
					}
				}
			}
		}
		return why == ""
	})
	return why
}

// litWord is a word's literal text (quotes removed), "" when part of it is an expansion.
func litWord(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return ""
				}
				b.WriteString(l.Value)
			}
		default:
			return ""
		}
	}
	return b.String()
}

// selfSpawning reports a function body that runs name in the background or in a pipe.
func selfSpawning(body syntax.Node, name string) bool {
	found := false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && mentionsCall(n, name) {
				found = true
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && (mentionsCall(n.X, name) || mentionsCall(n.Y, name)) {
				found = true
			}
		}
		return !found
	})
	return found
}

func mentionsCall(n syntax.Node, name string) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 && litWord(c.Args[0]) == name {
			found = true
		}
		return !found
	})
	return found
}

// endless reports a while/until loop whose condition never changes: while true, while :,
// until false, while [ 1 ], while ((1)).
func endless(w *syntax.WhileClause) bool {
	if len(w.Cond) != 1 {
		return false
	}
	s := w.Cond[0]
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		words := make([]string, len(c.Args))
		for i, a := range c.Args {
			words[i] = litWord(a)
		}
		j := strings.Join(words, " ")
		if w.Until {
			return j == "false"
		}
		return j == "true" || j == ":" || j == "[ 1 ]" || j == "test 1" || j == "/bin/true"
	case *syntax.ArithmCmd:
		if l, ok := c.X.(*syntax.Word); ok {
			v := litWord(l)
			return !w.Until && v != "" && v != "0" && strings.Trim(v, "0123456789") == ""
		}
	}
	return false
}

// runawayBody says what an endless loop's body does that exhausts the machine, "" if it
// only waits, prints or polls.
func runawayBody(body []*syntax.Stmt) string {
	bg, fetch, appends, sleeps, exits := false, false, false, false, false
	for _, st := range body {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Stmt:
				if n.Background {
					bg = true
				}
				for _, r := range n.Redirs {
					if (r.Op == syntax.AppOut || r.Op == syntax.RdrOut || r.Op == syntax.AppAll) && r.Word != nil && !strings.HasPrefix(litWord(r.Word), "/dev/") {
						appends = true
					}
				}
			case *syntax.CallExpr:
				if len(n.Args) == 0 {
					break
				}
				switch name := baseName(litWord(n.Args[0])); {
				case name == "break" || name == "exit" || name == "return":
					exits = true
				case name == "sleep" || name == "wait" || name == "read" || name == "inotifywait":
					sleeps = true
				case fetchTools.get()[name]:
					fetch = true
				}
			}
			return true
		})
	}
	switch {
	case exits:
		return ""
	case bg:
		return "starts background jobs in a loop without end, exhausting processes"
	case sleeps:
		return ""
	case fetch:
		return "sends requests in a loop without end or pause"
	case appends:
		return "writes to a file in a loop without end, filling the disk"
	}
	return ""
}

// floodPipe recognises an endless or enormous input feeding a parallel xargs or a request
// per line: yes | xargs -P0 …, seq 1 1e8 | xargs -P 500 curl ….
func floodPipe(p *syntax.BinaryCmd) string {
	left, ok1 := p.X.Cmd.(*syntax.CallExpr)
	right, ok2 := p.Y.Cmd.(*syntax.CallExpr)
	if !ok1 || !ok2 || len(left.Args) == 0 || len(right.Args) == 0 {
		return ""
	}
	var lw, rw []string
	for _, a := range left.Args {
		lw = append(lw, litWord(a))
	}
	for _, a := range right.Args {
		rw = append(rw, litWord(a))
	}
	// count is how many inputs the left side produces: -1 endless, 0 unknown or small.
	count := 0.0
	switch baseName(lw[0]) {
	case "yes":
		count = -1
	case "cat", "pv":
		if containsArg(lw[1:], "/dev/zero") || containsArg(lw[1:], "/dev/urandom") {
			count = -1
		}
	case "seq", "jot":
		if n := len(lw); n > 1 {
			last := lw[n-1]
			if last == "inf" || last == "infinity" {
				count = -1
			} else if f, err := strconv.ParseFloat(last, 64); err == nil {
				count = f
			}
		}
	}
	if count == 0 {
		return ""
	}
	n := baseName(rw[0])
	if n != "xargs" && n != "parallel" {
		return ""
	}
	procs := -1
	for i, a := range rw[1:] {
		v := ""
		switch {
		case a == "-P" || a == "--max-procs" || a == "-j" || a == "--jobs":
			if i+2 < len(rw) {
				v = rw[i+2]
			}
		case strings.HasPrefix(a, "-P") || strings.HasPrefix(a, "-j"):
			v = a[2:]
		case strings.HasPrefix(a, "--max-procs="):
			v = a[len("--max-procs="):]
		}
		if v != "" {
			if x, err := strconv.Atoi(v); err == nil {
				procs = x
			}
		}
	}
	// Enormous is a million inputs; with unbounded or wide parallelism (-P0, -P32 and up) ten
	// thousand requests at once are already a flood of the host they hit.
	wide := procs == 0 || procs >= 32
	enormous := count < 0 || count >= 1e6 || wide && count >= 1e4
	if !enormous {
		return ""
	}
	for _, a := range rw[1:] {
		if fetchTools.get()[baseName(a)] {
			return "sends a request for each of an endless or enormous number of inputs (" + lw[0] + " | " + n + ")"
		}
	}
	if wide && (count < 0 || count >= 1e6) || procFlood(count, procs) {
		return "runs an endless or enormous number of processes in parallel (" + lw[0] + " | " + n + " -P" + strconv.Itoa(procs) + ")"
	}
	return ""
}
