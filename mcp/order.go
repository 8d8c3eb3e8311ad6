package mcp

import "slices"

// mcp-go's server lists tools and prompts sorted by name; an upstream's order is part of what
// it serves (servers put their main tools first, and hosts show them in that order), so the
// proxy lists them as the upstreams did: upstream by upstream, each in its own order.

// toolRanks maps each downstream tool name to its place in the upstreams' order.
func (p *Proxy) toolRanks() map[string]int {
	ranks := map[string]int{}
	for _, u := range p.ups {
		u.mu.Lock()
		for _, n := range u.toolOrder {
			ranks[n] = len(ranks)
		}
		u.mu.Unlock()
	}
	return ranks
}

// promptRanks maps each downstream prompt name to its place in the upstreams' order.
func (p *Proxy) promptRanks() map[string]int {
	ranks := map[string]int{}
	for _, u := range p.ups {
		u.mu.Lock()
		for _, n := range u.prompts {
			ranks[n] = len(ranks)
		}
		u.mu.Unlock()
	}
	return ranks
}

// inUpstreamOrder sorts items by ranks; names without a rank keep their order, last.
func inUpstreamOrder[T interface{ GetName() string }](ranks map[string]int, items []T) []T {
	rank := func(t T) int {
		if r, ok := ranks[t.GetName()]; ok {
			return r
		}
		return len(ranks)
	}
	slices.SortStableFunc(items, func(a, b T) int { return rank(a) - rank(b) })
	return items
}
