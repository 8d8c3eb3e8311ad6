package catalog

import "strings"

// Windows paths. An agent on Windows (or one reaching a Windows profile from PowerShell, cmd
// or Git Bash) names the same credential stores as on Unix, spelt differently:
// C:\Users\NAME\.aws\credentials, %APPDATA%\Microsoft\UserSecrets\ID\secrets.json,
// $env:USERPROFILE\.ssh\id_ed25519, /c/Users/NAME/… (MSYS). FromWindows rewrites those
// spellings into the Unix form the catalogue is written in — the profile directory
// C:\Users\NAME becomes a home, the known-folder variables their place below it — so that
// one entry ("AppData/Roaming/Microsoft/UserSecrets/") covers every spelling.
// Sources: Microsoft Learn, "Recognized environment variables" (USERPROFILE, APPDATA,
// LOCALAPPDATA, HOMEDRIVE/HOMEPATH) and "Naming Files, Paths, and Namespaces" (drive-letter
// paths, both separators accepted); MSYS2/Git Bash path conversion (/c/… is C:\…).

// winFolders are the known-folder variables, as written in cmd (%X%) and PowerShell
// ($env:X), and where each lies below the user's profile.
var winFolders = map[string]string{
	"userprofile":  "",
	"homepath":     "",
	"appdata":      "AppData/Roaming",
	"localappdata": "AppData/Local",
}

// FromWindows returns p in Unix form when it is a Windows path (drive letter, known-folder
// variable, "~\"), and p unchanged otherwise. A Unix argument with a backslash in it (an
// escaped space already removed by the shell, or a regex) is left alone: only the spellings
// above start a Windows path.
func FromWindows(p string) string {
	switch {
	case len(p) >= 3 && isDriveLetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/'):
		// C:\x → /x: the drive is dropped, so C:\Users\NAME is /Users/NAME, a home.
		return winSegs(p[2:])
	case len(p) >= 2 && isDriveLetter(p[0]) && p[1] == ':' && len(p) == 2:
		return "/"
	case strings.HasPrefix(p, `~\`):
		return "~/" + strings.TrimLeft(winSegs(p[2:]), "/")
	case strings.HasPrefix(p, "%"):
		end := strings.IndexByte(p[1:], '%')
		if end < 0 {
			return p
		}
		return fromFolderVar(p[1:1+end], p[2+end:], p)
	case len(p) > 5 && strings.EqualFold(p[:5], "$env:"):
		name := p[5:]
		rest := ""
		if i := strings.IndexAny(name, `\/`); i >= 0 {
			name, rest = name[:i], name[i:]
		}
		return fromFolderVar(name, rest, p)
	case len(p) >= 3 && p[0] == '/' && isDriveLetter(p[1]) && p[2] == '/' && len(p) > 3 && hasUsersDir(p[3:]):
		// MSYS2 and Git Bash: /c/Users/NAME/….
		return winSegs(p[2:])
	}
	return p
}

// fromFolderVar places a known-folder variable and the rest of the path below the home.
func fromFolderVar(name, rest, orig string) string {
	below, ok := winFolders[strings.ToLower(name)]
	if !ok {
		return orig
	}
	rest = strings.TrimLeft(winSegs(rest), "/")
	switch {
	case below == "" && rest == "":
		return "~"
	case below == "":
		return "~/" + rest
	case rest == "":
		return "~/" + below
	}
	return "~/" + below + "/" + rest
}

// winSegs turns backslashes into slashes and the profile root's spelling "users" into the
// "Users" the home patterns know (Windows paths do not care about case).
func winSegs(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if len(p) >= 7 && strings.EqualFold(p[:7], "/users/") {
		p = "/Users/" + p[7:]
	}
	return p
}

func hasUsersDir(p string) bool {
	return len(p) > 6 && strings.EqualFold(p[:6], "users/")
}

func isDriveLetter(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
