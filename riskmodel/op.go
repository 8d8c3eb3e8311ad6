package riskmodel

// op is one thing a segment does, as a family's per-segment analysis sees it: its kind (the
// family's own enum) and the sentence that describes it. Families with many rules (packages,
// cloud) analyse a segment once into ops and let each rule pick out its kind.
type op[K comparable] struct {
	kind K
	msg  string
}

// opRule builds the check of a rule that fires on the first op of kind k that ops lists for a
// segment.
func opRule[K comparable](k K, ops func(c *execCtx, s *Segment) []op[K]) func(c *execCtx, s *Segment) (string, bool) {
	return func(c *execCtx, s *Segment) (string, bool) {
		for _, o := range ops(c, s) {
			if o.kind == k {
				return o.msg, true
			}
		}
		return "", false
	}
}
