package catalog

import "testing"

// Windows spellings of a path name the same place as the Unix form the catalogue is
// written in (Microsoft Learn: Naming Files, Paths, and Namespaces; Recognized environment
// variables; MSYS2 path conversion).
func TestFromWindows(t *testing.T) {
	cases := []struct{ in, want string }{
		{`C:\Users\Carlos\.aws\credentials`, "/Users/Carlos/.aws/credentials"},
		{`c:\users\carlos\.ssh\id_ed25519`, "/Users/carlos/.ssh/id_ed25519"},
		{`D:/Users/ana/AppData/Roaming/gcloud/credentials.db`, "/Users/ana/AppData/Roaming/gcloud/credentials.db"},
		{`%APPDATA%\Microsoft\UserSecrets\abc\secrets.json`, "~/AppData/Roaming/Microsoft/UserSecrets/abc/secrets.json"},
		{`%LocalAppData%\1Password`, "~/AppData/Local/1Password"},
		{`%USERPROFILE%\.kube\config`, "~/.kube/config"},
		{`%USERPROFILE%`, "~"},
		{`$env:APPDATA\discord\Local Storage\leveldb`, "~/AppData/Roaming/discord/Local Storage/leveldb"},
		{`$env:USERPROFILE/.docker/config.json`, "~/.docker/config.json"},
		{`~\.git-credentials`, "~/.git-credentials"},
		{`/c/Users/dev/.npmrc`, "/Users/dev/.npmrc"},
		{`C:\Windows\System32\config\SAM`, "/Windows/System32/config/SAM"},
		// Not Windows paths: left alone.
		{`src\main.rs`, `src\main.rs`},
		{`%PATH%`, `%PATH%`},
		{`%d`, `%d`},
		{`/home/dev/.aws/credentials`, "/home/dev/.aws/credentials"},
		{`/c/tmp/x`, "/c/tmp/x"},
		{`a:b`, "a:b"},
	}
	for _, tc := range cases {
		if got := FromWindows(tc.in); got != tc.want {
			t.Errorf("FromWindows(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The credential catalogue covers a Windows profile's stores however they are spelt.
func TestWindowsCredentialStores(t *testing.T) {
	c := Default()
	for _, p := range []string{
		`C:\Users\Carlos\AppData\Roaming\Microsoft\UserSecrets\3f1c9a\secrets.json`,
		`%APPDATA%\Microsoft\UserSecrets\79a3edd0-2092-40a2-a04d-dcb46d5ca9ed\secrets.json`,
		`C:\Users\ana\.aws\credentials`,
		`%USERPROFILE%\.ssh\id_rsa`,
		`$env:APPDATA\discord\Local Storage\leveldb\000005.ldb`,
		`C:\Users\ana\AppData\Roaming\Microsoft\Credentials\DFBE70A7E5CC19A398EBF1B96859CE5D`,
		`C:\Users\ana\AppData\Roaming\JetBrains\IntelliJIdea2024.2\c.kdbx`,
		`C:\Users\ana\.git-credentials`,
		`%APPDATA%\Slack\Cookies`,
		`C:\Windows\System32\config\SAM`,
	} {
		if !c.Is(Credential, p, "/home/dev") {
			t.Errorf("%s: not a credential store", p)
		}
	}
	for _, p := range []string{
		`C:\Users\ana\source\repos\app\Program.cs`,
		`%APPDATA%\Code\User\settings.json`,
		`C:\Users\ana\AppData\Roaming\npm\node_modules\typescript\package.json`,
	} {
		if c.Is(Credential, p, "/home/dev") {
			t.Errorf("%s: counted as a credential store", p)
		}
	}
}
