package riskmodel

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestLinkSetMatchesMap checks the layered link set against a copied map, across merges and
// replaced links, for every version kept along the way.
func TestLinkSetMatchesMap(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var sets []*linkSet
	var maps []map[string]string
	var cur *linkSet
	m := map[string]string{}
	for i := range 100 {
		k, v := fmt.Sprintf("/w/l%d", r.Intn(40)), fmt.Sprintf("/t%d", i)
		cur = cur.with(k, v)
		n := map[string]string{}
		for a, b := range m {
			n[a] = b
		}
		n[k] = v
		m = n
		sets, maps = append(sets, cur), append(maps, m)
	}
	for i, s := range sets {
		for j := range 40 {
			k := fmt.Sprintf("/w/l%d", j)
			got, gok := s.get(k)
			want, wok := maps[i][k]
			if got != want || gok != wok {
				t.Fatalf("version %d: get(%s) = %q %v, want %q %v", i, k, got, gok, want, wok)
			}
		}
	}
}

// TestThroughNestedLinks: a path under two links goes through the one nearer the root first,
// as the kernel resolves it.
func TestThroughNestedLinks(t *testing.T) {
	s := NewScope(&Policy{}, "/home/dev/project").withLink("/home/dev/project/a", "/srv/x").withLink("/home/dev/project/a/b", "/")
	for range 20 { // map order used to pick either link
		if got, ok := s.Resolve("a/b/c"); !ok || got != "/srv/x/b/c" {
			t.Fatalf("Resolve(a/b/c) = %q %v, want /srv/x/b/c", got, ok)
		}
	}
	if got, _ := s.Resolve("a/"); got != "/srv/x" {
		t.Fatalf("Resolve(a/) = %q, want /srv/x", got)
	}
	if got, _ := s.Resolve("a"); got != "/home/dev/project/a" {
		t.Fatalf("Resolve(a) = %q, want the link itself", got)
	}
}
