package riskmodel

// copyDestInWorkspace returns the destination operand of a copy (cp, install) when it lies
// inside the workspace: the file the command writes, not one it reads. Writing the project's
// .env from its template (`cp .env.example .env`) reads no secret (docs/policy.md: writing
// files inside the workspace is routine); the source is still judged as a read, so
// `cp ~/.aws/credentials .env` is the credential read it is. A destination outside the
// workspace is left to the rules that judge it as a read and as a write.
func copyDestInWorkspace(c *execCtx, s *Segment) string {
	if n := s.Name(); n != "cp" && n != "install" || s.Privileged {
		return ""
	}
	if _, ok := optValue(s.Args[1:], "-t", "--target-directory"); ok {
		return "" // the destination is a directory given up front: every operand is a source
	}
	p := s.positional(0, "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group")
	if len(p) < 2 {
		return ""
	}
	dest := p[len(p)-1]
	if t := c.target(dest); t.zone != ZoneWorkspace {
		return ""
	}
	return dest
}
