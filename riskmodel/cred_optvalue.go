package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// optionPath returns the value of an option written as one word (--input=PATH,
// -Dinput=PATH for JVM build tools), or "" for a bare flag. Only a value that
// names a path is returned: one starting with /, ~ or $ (a store outside the
// workspace is what makes a credential read certain).
func optionPath(a string) string {
	i := strings.IndexByte(a, '=')
	if i < 0 {
		return ""
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

// optionName returns an option's name without its dashes and value, lower-cased
// ("--Config-Dir=x" → "config-dir").
func optionName(a string) string {
	n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
	return strings.ToLower(n)
}

// dirOption reports an option whose value is a directory the program works from
// (--config-dir, --home-dir, --keys-path, --gnupg-home, --user-data-dir, --root): the
// program reads what the directory holds, so a credential store's directory given there
// is a read of the store. A directory the program writes to (--output-dir, --dest-dir)
// is not.
func dirOption(name string) bool {
	for _, w := range []string{"out", "dest", "target", "export", "save", "cache", "tmp", "temp", "log", "build", "install", "prefix"} {
		if strings.HasPrefix(name, w) || strings.Contains(name, "-"+w) || strings.Contains(name, "_"+w) {
			return false
		}
	}
	for _, w := range []string{"dir", "directory", "path", "home", "root", "folder", "store", "location"} {
		if strings.HasSuffix(name, w) {
			return true
		}
	}
	return false
}

// pathOption reports a long option whose value names a file or directory the program
// reads its configuration or keys from (--kubeconfig, --config-file, --identity,
// --settings): the separate-word value after one is an option value, which the store's
// owner may be given (catalog.Owner). A bare flag (--recursive) takes no value, so the
// word after it stays a plain argument.
func pathOption(a string) bool {
	if !strings.HasPrefix(a, "--") || strings.Contains(a, "=") {
		return false
	}
	n := optionName(a)
	if dirOption(n) {
		return true
	}
	for _, w := range []string{"config", "file", "settings", "identity", "key", "cred", "auth", "profile", "rc"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// optionCred reports the credential store an option's value (opt is the option as
// written, v its value) hands to the segment's program: a store given to a program that
// does not own it (catalog.Owner) is read by it. A directory option's value counts when
// the directory is a store's own directory (~/.aws, ~/.gnupg), not only a store's file.
func optionCred(c *execCtx, s *Segment, opt, v string, rec bool) (string, bool) {
	if v == "" {
		return "", false
	}
	cat := catalog.Default()
	if raw := orStr(c.rawPath(v), c.target(v).abs); raw != "" && cat.OwnedBy(s.Name(), raw, c.scope.Home) {
		return "", false // kubectl --kubeconfig ~/.kube/config, gpg --homedir ~/.gnupg
	}
	if p, ok := c.credArg(v, rec); ok {
		return p, true
	}
	if !dirOption(optionName(opt)) {
		return "", false
	}
	if raw := orStr(c.rawPath(v), c.target(v).abs); raw != "" {
		if _, ok := cat.StoreDir(catalog.Credential, raw, c.scope.Home); ok {
			return orStr(c.target(v).abs, v), true
		}
	}
	return "", false
}

// preloadVar reports the variables that inject a shared library into every program
// started (ld.so(8) LD_PRELOAD and LD_AUDIT, dyld(1) DYLD_INSERT_LIBRARIES). The
// policy denies LD_PRELOAD of unknown libraries: a library the system does not
// provide is unknown even when it lies in the workspace (a vendored .so is a
// prebuilt binary nobody reviewed), unlike a --require of the project's own script.
func preloadVar(name string) bool {
	return name == "LD_PRELOAD" || name == "LD_AUDIT" || name == "DYLD_INSERT_LIBRARIES"
}
