package riskmodel

import "strings"

// optionPath returns the value of an option written as one word (--input=PATH,
// -Dinput=PATH for JVM build tools), or "" for a bare flag. Only a value that
// names a path is returned: one starting with /, ~ or $ (a store outside the
// workspace is what makes a credential read certain).
func optionPath(a string) string {
	i := strings.IndexByte(a, '=')
	if i < 0 {
		return ""
	}
	if n := strings.ToLower(a[:i]); strings.HasSuffix(n, "dir") || strings.HasSuffix(n, "directory") {
		return "" // --user-data-dir=~/.config/chromium: a program's own state directory, judged elsewhere
	}
	v := strings.Trim(a[i+1:], `"'`)
	for strings.HasPrefix(v, "-") && strings.Contains(v, "=") {
		v = strings.Trim(v[strings.IndexByte(v, '=')+1:], `"'`) // --args=--in=PATH
	}
	if v == "" || !strings.ContainsAny(v[:1], "/~$") {
		return ""
	}
	return v
}

// preloadVar reports the variables that inject a shared library into every program
// started (ld.so(8) LD_PRELOAD and LD_AUDIT, dyld(1) DYLD_INSERT_LIBRARIES). The
// policy denies LD_PRELOAD of unknown libraries: a library the system does not
// provide is unknown even when it lies in the workspace (a vendored .so is a
// prebuilt binary nobody reviewed), unlike a --require of the project's own script.
func preloadVar(name string) bool {
	return name == "LD_PRELOAD" || name == "LD_AUDIT" || name == "DYLD_INSERT_LIBRARIES"
}
