package riskmodel

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command that is routine once (launch an instance, refund a charge, send a message) is a
// runaway or a bulk move when the request repeats it: inside a for/while/until loop, or fed
// one input at a time by xargs or GNU parallel. Segments do not record loops, so the
// request's shell text is parsed again (bounded, as resource.go does) and each loop's body
// is matched to the segment by the literal words it starts with.

// repetition is how a segment is repeated by the request: times is the iteration count when
// it can be read (a word list, {1..N}, $(seq …), a C-style bound; times*per launch), 0 when
// it cannot (a $(…) list, while read, xargs over a pipe); endless for while true; chosen when
// the loop walks a short list of literal words the request names itself (three charge ids):
// a chosen set, not a bulk one.
type repetition struct {
	repeated bool
	times    float64
	endless  bool
	chosen   bool
	how      string
}

// chosenListMax is the longest literal word list that still reads as a chosen set.
const chosenListMax = 5

// repeatedIn says whether and how the request repeats segment s.
func repeatedIn(c *execCtx, s *Segment) repetition {
	for _, v := range s.Via {
		if v == "xargs" || v == "parallel" {
			r := repetition{repeated: true, how: "fed one input at a time by " + v}
			if s.PipeIn != nil && len(s.PipeIn.Args) > 1 && baseName(s.PipeIn.Args[0]) == "seq" {
				r.times = seqCount(s.PipeIn.Args[1:])
			}
			return r
		}
	}
	if len(s.Args) == 0 {
		return repetition{}
	}
	for _, a := range c.req.Command {
		if r := loopAround(a, s.Args, 0); r.repeated {
			return r
		}
	}
	return repetition{}
}

// numbers parses every operand as a number; ok is false when one is not (an option such as
// seq -w or jot -r, or a variable), so nothing is counted.
func numbers(ops []string) (nums []float64, ok bool) {
	for _, o := range ops {
		v, err := strconv.ParseFloat(o, 64)
		if err != nil {
			return nil, false
		}
		nums = append(nums, v)
	}
	return nums, true
}

// seqCount is how many numbers seq prints for its operands, 0 when they are not numbers.
func seqCount(ops []string) float64 {
	nums, ok := numbers(ops)
	if !ok {
		return 0
	}
	switch len(nums) {
	case 1:
		return nums[0]
	case 2:
		return nums[1] - nums[0] + 1
	case 3:
		if nums[1] > 0 {
			return (nums[2]-nums[0])/nums[1] + 1
		}
	}
	return 0
}

// loopAround finds a loop in src whose body runs a command starting with args' words.
func loopAround(src string, args []string, depth int) repetition {
	if depth > 2 || len(src) > maxRunawayText || !containsAny(src, "while", "until", "for ", "for(") {
		return repetition{}
	}
	f, err := parseBash(src)
	if err != nil {
		return repetition{}
	}
	var r repetition
	nodes := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		nodes++
		if r.repeated || nodes > 20000 {
			return false
		}
		switch n := n.(type) {
		case *syntax.ForClause:
			if bodyRuns(n.Do, args) {
				r = repetition{repeated: true, how: "in a for loop"}
				switch l := n.Loop.(type) {
				case *syntax.CStyleLoop:
					r.endless = l.Cond == nil
				case *syntax.WordIter:
					allLit := len(l.Items) > 0
					for _, w := range l.Items {
						if litWord(w) == "" || strings.Contains(litWord(w), "..") {
							allLit = false
						}
					}
					r.chosen = allLit && len(l.Items) <= chosenListMax
				}
				r.times = loopCount(n.Loop)
			}
		case *syntax.WhileClause:
			if bodyRuns(n.Do, args) {
				r = repetition{repeated: true, how: "in a while loop", endless: endless(n)}
			}
		case *syntax.CallExpr:
			if len(n.Args) >= 3 && shells.get()[baseName(litWord(n.Args[0]))] {
				for i, w := range n.Args[1 : len(n.Args)-1] {
					if lw := litWord(w); strings.HasPrefix(lw, "-") && strings.Contains(lw, "c") {
						r = loopAround(litWord(n.Args[i+2]), args, depth+1)
						break
					}
				}
			}
		}
		return !r.repeated
	})
	return r
}

// bodyRuns reports a loop body with a command whose leading literal words are args' (up to
// three; a word the shell expands matches anything).
func bodyRuns(body []*syntax.Stmt, args []string) bool {
	found := false
	for _, st := range body {
		syntax.Walk(st, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || found || len(call.Args) == 0 {
				return !found
			}
			k := 0
			for i := 0; i < len(call.Args) && i < len(args) && k < 3; i++ {
				w := litWord(call.Args[i])
				if i == 0 {
					w = baseName(w)
					if w != baseName(args[0]) {
						return true
					}
				} else if w != "" && w != args[i] {
					return true
				}
				k++
			}
			found = k > 0
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
