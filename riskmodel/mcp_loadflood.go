package riskmodel

import "strings"

// mcpLoadTool names the words of a load-testing server or tool (load-tester/run_load,
// k6/run, locust/start_swarm, vegeta/attack, stress/flood).
var mcpLoadToolWords = wordSet{words: `load loadtest loadtester stress flood bench benchmark k6 locust vegeta artillery jmeter gatling wrk hey siege swarm`}

// mcpEndlessValues are argument values that say a run has no end.
var mcpEndlessValues = wordSet{words: `forever infinite infinity inf unlimited unbounded indefinite indefinitely endless never continuous nonstop -1`}

// mcpEndlessKeys are the keys whose value bounds a run: its length, or how many requests,
// iterations or loops it makes. Keys normalised as mcpArg.nkey (lower case, no _ - . space).
var mcpEndlessKeys = wordSet{words: `duration time runtime length period for until iterations requests count loops repeat rounds totalrequests maxrequests`}

// mcpEndlessFlags are boolean keys that, when true, make a run go on until stopped.
var mcpEndlessFlags = wordSet{words: `forever infinite loop continuous endless nonstop runforever`}

// mcpLoadFlood reports a load-testing MCP tool asked to run without end: a duration,
// request or iteration count that is unbounded (forever, infinite, -1) or a forever flag.
// docs/policy.md denies "unbounded loops of requests" as resource exhaustion; a bounded load
// test is left to the other MCP rules.
func (c *mcpCtx) mcpLoadFlood() (string, bool) {
	if !c.anyWordIn(mcpLoadToolWords.get()) {
		return "", false
	}
	for _, a := range c.args {
		v := strings.ToLower(strings.TrimSpace(a.val))
		switch {
		case mcpEndlessKeys.has(a.nkey) && mcpEndlessValues.has(v),
			mcpEndlessFlags.has(a.nkey) && v == "true":
			return c.call() + " runs a load test without end (" + a.key + ": " + mcpCleanText(a.val, 30) + "), an unbounded flood of requests", true
		}
	}
	return "", false
}

// anyWordIn reports whether a word of the server or tool name is in set.
func (c *mcpCtx) anyWordIn(set map[string]bool) bool {
	return mcpAnyWord(c.serverWords, set) || mcpAnyWord(c.toolWords, set)
}
