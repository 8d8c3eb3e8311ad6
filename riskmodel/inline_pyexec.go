package riskmodel

import "strings"

// Python's exec and spawn families replace or start a process from an argument vector:
// os.execl(PATH, ARG0, ARG…), os.execv(PATH, [ARG0, ARG…]), the p forms that search PATH, the
// e forms that end in an environment, and os.spawnl(MODE, PATH, ARG0, …)
// (docs.python.org: os — Process Management). GTFOBins' python "shell" function is
// os.execl("/bin/sh", "sh"): followed here, the program it starts is judged like any other,
// and under sudo it is the same root shell escape as vim's :!sh.

// pyExecCalls returns the programs Python code starts with os.exec* and os.spawn* when the
// program is a string literal; the arguments it names by variable stand as $DYNAMIC.
func pyExecCalls(code string) []langCall {
	if !strings.Contains(code, "os.exec") && !strings.Contains(code, "os.spawn") {
		return nil
	}
	var out []langCall
	for _, idx := range rePyExecFamily().FindAllStringSubmatchIndex(code, 16) {
		m := submatches(code, idx)
		body := m[3]
		if i := strings.IndexByte(body, '{'); i >= 0 {
			body = body[:i] // an e form's environment mapping
		}
		items := strings.Split(strings.NewReplacer("[", "", "]", "", "(", "", ")", "").Replace(body), ",")
		if m[1] == "spawn" && len(items) > 0 {
			items = items[1:] // the mode (os.P_WAIT)
		}
		var argv []string
		for i, it := range items {
			it = strings.TrimSpace(it)
			if it == "" || i == 1 {
				continue // arg0, the name the program sees
			}
			lm := rePyStrLiteral().FindStringSubmatch(it)
			switch {
			case lm != nil && lm[0] == it:
				argv = append(argv, unescapeCodeString(lm[1]+lm[2]))
			case i == 0:
				argv = nil // the program is not a literal: left to the capability scan
			default:
				argv = append(argv, "$DYNAMIC")
			}
			if i == 0 && argv == nil {
				break
			}
		}
		if len(argv) > 0 {
			out = append(out, langCall{start: idx[0], end: idx[1], argv: argv})
		}
	}
	return out
}
