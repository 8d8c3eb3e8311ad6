package riskmodel

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bounded loops that are floods all the same. `for i in $(seq 1 100000); do sleep 10000 &
// done` ends, but only after it has started a hundred thousand processes: a loop's bound
// matters only when it is small. The count is read from what the loop iterates over (a list
// of words, {1..N}, $(seq …), $(jot …), a C-style `i<N`); what the body does is read as for
// an endless loop, except that a pause between iterations (a sleep or a wait outside the
// background jobs) makes it paced, as a retry or a batch of workers is.

// Thresholds (docs/policy.md: "unbounded loops of requests or processes"). A login session's
// process limit is a few thousand on macOS (kern.maxprocperuid 2666 by default) and a few
// tens of thousands on Linux, so a thousand background jobs at once is already exhaustion;
// sequential requests are a flood of the host they hit from a hundred thousand on.
const (
	boundedBackgroundFlood = 1000
	boundedRequestFlood    = 100000
)

// boundedFlood says what a for loop with a known, huge iteration count does that exhausts
// the machine or floods a host, "" when its count is small, unknown, or its body is paced.
func boundedFlood(f *syntax.ForClause) string {
	n := loopCount(f.Loop)
	if n < boundedBackgroundFlood {
		return ""
	}
	bg, fetch, paced := loopBodyShape(f.Do)
	count := strconv.FormatFloat(n, 'f', -1, 64)
	switch {
	case paced:
		return ""
	case bg:
		return "starts " + count + " background jobs in a loop, exhausting processes"
	case fetch && n >= boundedRequestFlood:
		return "sends " + count + " requests in a loop without pause"
	}
	return ""
}

// loopCount is how many times a for loop runs: 0 when it cannot be read.
func loopCount(l syntax.Loop) float64 {
	switch l := l.(type) {
	case *syntax.WordIter:
		if !l.InPos.IsValid() {
			return 0 // for x; do …: the positional parameters
		}
		total := 0.0
		for _, w := range l.Items {
			total += wordCount(w)
		}
		return total
	case *syntax.CStyleLoop:
		b, ok := l.Cond.(*syntax.BinaryArithm)
		if !ok {
			return 0
		}
		y, ok := b.Y.(*syntax.Word)
		if !ok {
			return 0
		}
		v, err := strconv.ParseFloat(litWord(y), 64)
		if err != nil {
			return 0
		}
		switch b.Op {
		case syntax.Lss, syntax.Leq, syntax.Neq:
			return v
		}
	}
	return 0
}

// wordCount is how many items one word of a for list stands for: a brace range {A..B}, a
// $(seq …) or $(jot …) substitution, else 1 (0 for a substitution it cannot count).
func wordCount(w *syntax.Word) float64 {
	if lit := litWord(w); lit != "" {
		if strings.HasPrefix(lit, "{") && strings.HasSuffix(lit, "}") && strings.Contains(lit, "..") {
			parts := strings.Split(lit[1:len(lit)-1], "..")
			a, err1 := strconv.ParseFloat(parts[0], 64)
			b, err2 := strconv.ParseFloat(parts[1], 64)
			if err1 == nil && err2 == nil {
				if b < a {
					a, b = b, a
				}
				return b - a + 1
			}
		}
		return 1
	}
	if len(w.Parts) != 1 {
		return 0
	}
	cs, ok := w.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return 0
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) < 2 {
		return 0
	}
	ops := make([]string, 0, len(call.Args)-1)
	for _, a := range call.Args[1:] {
		ops = append(ops, litWord(a))
	}
	switch baseName(litWord(call.Args[0])) {
	case "seq": // seq LAST, seq FIRST LAST, seq FIRST INCR LAST
		return seqCount(ops) // an option (seq -w) or a variable: not counted
	case "jot": // jot REPS …
		if nums, ok := numbers(ops); ok {
			return nums[0]
		}
	}
	return 0
}

// loopBodyShape reads a loop body: whether it starts background jobs, sends requests, and
// waits between iterations (sleep, wait or read outside its background jobs).
func loopBodyShape(body []*syntax.Stmt) (bg, fetch, paced bool) {
	var visit func(n syntax.Node, inBG bool)
	visit = func(n syntax.Node, inBG bool) {
		syntax.Walk(n, func(m syntax.Node) bool {
			switch m := m.(type) {
			case *syntax.Stmt:
				if m != n && m.Background {
					bg = true
					visit(m, true)
					return false
				}
			case *syntax.CallExpr:
				if len(m.Args) == 0 {
					break
				}
				switch name := baseName(litWord(m.Args[0])); {
				case (name == "sleep" || name == "wait" || name == "read" || name == "break" || name == "exit") && !inBG:
					paced = true
				case fetchTools.get()[name]:
					fetch = true
				}
			}
			return true
		})
	}
	for _, st := range body {
		if st.Background {
			bg = true
			visit(st, true)
			continue
		}
		visit(st, false)
	}
	return bg, fetch, paced
}

// procFlood recognises an xargs or parallel that runs a huge number of inputs with no real
// limit on how many at once (-P0, -j0, or a thousand and more): ten thousand processes at
// once exhaust the machine even when each one only sleeps.
func procFlood(count float64, procs int) bool {
	return (procs == 0 || procs >= boundedBackgroundFlood) && (count < 0 || count >= 10000)
}
