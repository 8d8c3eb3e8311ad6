package riskmodel

// innerCredReads returns the credential stores that a command run somewhere else — inside a
// container (`docker exec C …`) or a pod (`kubectl exec P -- …`) — reads. The inner command
// is analysed like any shell command, with its working directory unknown (it is not the
// workspace), so `sh -c "cat /run/secrets/*"` is seen for what it reads: mounted secrets
// printed into the transcript are a bulk secret dump wherever the files live.
func innerCredReads(c *execCtx, argv []string) []string {
	if len(argv) == 0 {
		return nil
	}
	sc := c.scope.withCwd("/", false)
	segs, _ := extractSegments(sc, argv)
	ic := &execCtx{scope: sc, req: c.req, pol: c.pol, segs: segs}
	var out []string
	for _, s := range segs {
		out = append(out, credReads(ic, s)...)
	}
	return out
}
