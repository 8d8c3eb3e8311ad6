package riskmodel

import "strings"

// A package.json lifecycle script (npm docs, "Life Cycle Scripts": preinstall, install,
// postinstall, prepare, …) is shell code the package manager runs by itself on the next
// install, pack or publish — in this request when it goes on to `npm install`, and on every
// install after. Setting one (`npm pkg set scripts.postinstall=…`, the older `npm set-script
// postinstall …`, or jq rewriting package.json with `.scripts.postinstall = "…"`) writes code
// that then runs, so the script text is analysed as the code it is: a hook that sends
// process.env.NPM_TOKEN out is exfiltration, one that fetches and runs is remote code, one
// that runs the build is routine. Scripts that only run when asked for (build, test) are left
// to the command that runs them.

// reJqScriptSet matches a jq assignment of a lifecycle script: .scripts.NAME = "TEXT" or
// .scripts["NAME"] = "TEXT".
var reJqScriptSet = lazyRegexp(`\.scripts(?:\.([A-Za-z]+)|\[\s*"([A-Za-z]+)"\s*\])\s*\|?=\s*"((?:[^"\\]|\\.)*)"`)

// packageScriptCodes returns the lifecycle-script code a segment writes into package.json.
func packageScriptCodes(s *Segment) []string {
	var out []string
	life := npmLifecycleScripts.get()
	switch n := s.Name(); n {
	case "npm", "pnpm", "yarn", "bun":
		switch {
		case s.sub(0) == "pkg" && s.sub(1) == "set":
			for _, a := range s.Args[3:] {
				k, v, ok := strings.Cut(a, "=")
				if ok && strings.HasPrefix(k, "scripts.") && life[strings.TrimPrefix(k, "scripts.")] {
					out = append(out, v)
				}
			}
		case s.sub(0) == "set-script":
			if p := s.positional(0); len(p) >= 3 && life[p[1]] {
				out = append(out, p[2])
			}
		}
	case "jq", "gojq", "jaq":
		for _, a := range s.Args[1:] {
			for _, m := range reJqScriptSet().FindAllStringSubmatch(a, 8) {
				if life[m[1]+m[2]] {
					out = append(out, unescapeJSONish(m[3]))
				}
			}
		}
	}
	return out
}

// unescapeJSONish undoes the backslash escapes of a JSON string literal that matter for shell
// text (\" and \\).
func unescapeJSONish(s string) string {
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(s)
}
