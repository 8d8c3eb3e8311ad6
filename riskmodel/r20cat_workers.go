package riskmodel

import (
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// CPU-bound workers started by the hundred. A fuzzer, a stress tester or a miner pins one
// core each for as long as it runs: a loop that starts more copies in the background than any
// workstation has cores (cpuWorkerFlood) exhausts the machine long before the thousand
// background jobs of boundedFlood (resource_bounded.go) that a sleeping process needs.
// docs/policy.md's deny list: resource exhaustion. The tools are the fuzzers catalogued as
// routine (catalog/commands_r20.toml: one fuzzer, or a few secondaries, is everyday work) and
// the stress tools whose purpose is to load every core they are given.

// cpuWorkerFloodMin is the count from which background CPU-bound copies exceed the cores of
// a workstation or a build server (64 cores and more are rare outside cluster nodes, where
// work goes through the scheduler, not a shell loop).
const cpuWorkerFloodMin = 64

// cpuBoundTools are programs each of which keeps one core busy until stopped.
var cpuBoundTools = wordSet{words: "afl-fuzz honggfuzz radamsa stress stress-ng yes md5sum sha256sum openssl xmrig cpuminer minerd t-rex ethminer"}

// cpuWorkerFlood says what a for loop does that starts a CPU-bound tool in the background
// more times than the machine has cores, "".
func cpuWorkerFlood(f *syntax.ForClause) string {
	n := loopCount(f.Loop)
	if n < cpuWorkerFloodMin {
		return ""
	}
	tool := ""
	for _, st := range f.Do {
		if !st.Background {
			continue
		}
		syntax.Walk(st, func(m syntax.Node) bool {
			if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 && tool == "" {
				if name := baseName(litWord(c.Args[0])); cpuBoundTools.has(name) {
					tool = name
				}
			}
			return tool == ""
		})
	}
	if tool == "" {
		return ""
	}
	return "starts " + strconv.FormatFloat(n, 'f', -1, 64) + " copies of " + tool + " in the background, each pinning a CPU core: more than the machine has"
}
