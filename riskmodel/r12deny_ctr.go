package riskmodel

import "strings"

// A container that gets a credential store mounted from home (-v ~/.ssh:/k, -v
// ~/.docker:/d) and whose own command prints, copies or sends a file under that mount reads
// the credential out through the container: docker-run(1)'s -v makes the host directory the
// container path, so `cat /d/config.json` is `cat ~/.docker/config.json`. docs/policy.md
// denies "reading credential stores without need" and the read is the container's whole
// purpose. A container that mounts the store for the tool inside to use (aws sts
// get-caller-identity, git clone over ssh) stays container.secrets' ask.

// ctrReadOutTools are programs that print, copy, encode or send the files they are given.
var ctrReadOutTools = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"cat": true, "head": true, "tail": true, "less": true, "more": true, "base64": true, "xxd": true,
		"od": true, "hexdump": true, "strings": true, "tar": true, "zip": true, "cp": true, "scp": true, "rsync": true,
		"curl": true, "wget": true, "nc": true, "ncat": true, "socat": true, "grep": true, "egrep": true, "awk": true,
		"sed": true, "jq": true, "tac": true, "nl": true, "dd": true, "openssl": true, "gzip": true, "bzip2": true, "xz": true}
}}

// ctrCredentialReadOut returns why a container run reads a mounted credential store out, or "".
func ctrCredentialReadOut(c *execCtx, s *Segment) string {
	switch pkgNorm(s.Name()) {
	case "docker", "podman", "nerdctl", "docker-compose", "podman-compose":
	default:
		return ""
	}
	_, sub, rest := ctrSplit(s)
	if sub != "run" && sub != "create" && sub != "compose run" {
		return ""
	}
	opts, image, cmd := ctrParse(rest)
	var dsts []string
	for _, m := range ctrMounts(opts) {
		if ctrNamedVolume(m.src) || m.dst == "" || m.dst == "/" {
			continue
		}
		if t := c.target(m.src); t.zone == ZoneHome && ctrMountExposesCreds(c, t.abs) {
			dsts = append(dsts, strings.TrimSuffix(m.dst, "/"))
		}
	}
	if len(dsts) == 0 || len(cmd) == 0 {
		return ""
	}
	// The container's command, with a shell's -c script split into words.
	var words []string
	for _, a := range cmd {
		words = append(words, strings.FieldsFunc(a, func(r rune) bool {
			return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '|' || r == '&' || r == '(' || r == ')' || r == '<' || r == '>' || r == '"' || r == '\''
		})...)
	}
	// An image whose entrypoint is the reader (curlimages/curl) runs it on the arguments.
	reader := ""
	if base := strings.SplitN(image[strings.LastIndexByte(image, '/')+1:], ":", 2)[0]; ctrReadOutTools.get()[base] {
		reader = base
	}
	for _, w := range words {
		if reader != "" {
			break
		}
		if ctrReadOutTools.get()[strings.TrimPrefix(w, "/bin/")] {
			reader = w
		}
	}
	if reader == "" {
		return ""
	}
	for _, w := range words {
		// curl -F f=@FILE, --data @FILE, if=FILE: the path after the option's marker.
		if i := strings.LastIndexAny(w, "@="); i >= 0 {
			w = w[i+1:]
		}
		w = strings.TrimPrefix(w, "file:")
		for _, d := range dsts {
			if w == d || strings.HasPrefix(w, d+"/") {
				return "the container's " + reader + " reads " + w + ", a credential store mounted from home (docs/policy.md: reading credential stores without need)"
			}
		}
	}
	return ""
}
