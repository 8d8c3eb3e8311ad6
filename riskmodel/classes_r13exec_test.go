package riskmodel

import (
	"context"
	"testing"
)

// execArgv reviews one argv (no shell: Windows paths keep their backslashes) in cwd.
func execArgv(t *testing.T, cwd string, argv ...string) Verdict {
	t.Helper()
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	return a.Exec(context.Background(), ExecRequest{Command: argv, Cwd: cwd})
}

// Desktop apps' token stores and Windows profile paths are credential stores (catalog
// paths.toml chat-app, app-secrets; catalog/winpath.go). Sources: Electron userData layout
// (Local Storage/leveldb), Microsoft Learn "Safe storage of app secrets" (UserSecrets),
// JetBrains password storage (c.kdbx), Windows Credential Manager folders.
func TestClassR13ExecAppTokenStores(t *testing.T) {
	runDevCases(t, []devCase{
		{`strings ~/.config/Slack/Local\ Storage/leveldb/*.ldb | grep -oE 'xox[a-z]-[A-Za-z0-9-]+'`, Deny, "cred.read", "Slack Electron localStorage"},
		{`grep -a -o 'mfa\.[A-Za-z0-9_-]*' ~/.config/discordcanary/Local\ Storage/leveldb/*.log`, Deny, "cred.read", "Discord Canary"},
		{`cat "$HOME/Library/Application Support/discord/Local Storage/leveldb/000003.log"`, Deny, "cred.read", "Discord on macOS"},
		{`tar czf /tmp/tg.tgz ~/.local/share/TelegramDesktop/tdata`, Deny, "", "Telegram Desktop session"},
		{`sqlite3 ~/.config/Signal/sql/db.sqlite .dump`, Deny, "cred.read", "Signal Desktop database"},
		{`cat ~/.config/Signal/config.json`, Deny, "cred.read", "Signal Desktop db key"},
		{`sqlite3 ~/.config/Code/User/globalStorage/state.vscdb "select * from ItemTable"`, Deny, "cred.read", "VS Code SecretStorage"},
		{`cat ~/.microsoft/usersecrets/79a3edd0-2092/secrets.json`, Deny, "cred.read", ".NET user secrets on Unix"},
		{`cp ~/.config/JetBrains/IntelliJIdea2024.2/c.pwd /tmp/`, Deny, "cred.read", "JetBrains KeePass master"},
		{`cat ~/.config/Bitwarden/data.json`, Deny, "cred.read", "Bitwarden desktop vault"},
		{`ls ~/.config/Slack`, Allow, "", "listing names reads no token"},
		{`cat src/locales/en.json`, Allow, "", "workspace file"},
		{`dotnet user-secrets list`, Ask, "", "the tool's own listing (not a file read)"},
	})
}

func TestClassR13ExecWindowsPaths(t *testing.T) {
	const win = `C:\Users\Carlos\source\repos\PlannerApp`
	cases := []struct {
		argv []string
		want Decision
	}{
		{[]string{"cat", `C:\Users\Carlos\AppData\Roaming\Microsoft\UserSecrets\3f1c9a-planner\secrets.json`}, Deny},
		{[]string{"type", `%APPDATA%\Microsoft\UserSecrets\abc\secrets.json`}, Deny},
		{[]string{"Get-Content", `$env:USERPROFILE\.aws\credentials`}, Deny},
		{[]string{"cat", `C:\Users\Carlos\.ssh\id_ed25519`}, Deny},
		{[]string{"cat", `C:\Users\Carlos\AppData\Roaming\discord\Local Storage\leveldb\000005.ldb`}, Deny},
		{[]string{"cat", `/c/Users/Carlos/.git-credentials`}, Deny},
		{[]string{"cat", `C:\Users\Carlos\source\repos\PlannerApp\Program.cs`}, Allow},
		{[]string{"cat", `Program.cs`}, Allow},
	}
	for _, tc := range cases {
		v := execArgv(t, win, tc.argv...)
		if v.Decision != tc.want {
			t.Errorf("%v: decision %s by %v, want %s", tc.argv, v.Decision, ruleIDs(v), tc.want)
		}
	}
}

// A search outside the workspace for key and credential files whose results are printed,
// packed or copied reads every store it finds (r13exec_hunt.go): denied outright; listing
// the names stays cred.hunt's question, and workspace searches stay routine. Sources: GTFOBins
// find (-exec) and xargs; MITRE ATT&CK T1552.001, T1552.004.
func TestClassR13ExecKeyHuntDump(t *testing.T) {
	runDevCases(t, []devCase{
		{`find / -type f \( -name '*.ppk' -o -name 'id_ecdsa*' \) 2>/dev/null | xargs cat`, Deny, "cred.hunt-dump", "xargs cat"},
		{`find / -name 'credentials' -path '*.aws*' -exec cat {} \;`, Deny, "cred.hunt-dump", "find -exec cat"},
		{`find /home /root -name '.netrc' -exec head -n 50 {} +`, Deny, "cred.hunt-dump", "find -exec head, two roots"},
		{`find / -iname '*.pfx' -print0 2>/dev/null | xargs -0 -I{} cp {} /tmp/loot/`, Deny, "cred.hunt-dump", "xargs cp to a stash"},
		{`find / -name '*.jks' | cpio -o > /tmp/k.cpio`, Deny, "", "cpio packs the list"},
		{`tail -n +1 $(find /etc /opt -name '*.key' 2>/dev/null)`, Deny, "cred.hunt-dump", "$(find) fed to tail"},
		{`locate .git-credentials | xargs cat`, Deny, "cred.hunt-dump", "locate"},
		{`find / -name 'id_rsa*' 2>/dev/null`, Ask, "cred.hunt", "listing names only"},
		{`find ~ -name '*.kdbx'`, Ask, "", "listing names only"},
		{`find . -name '*.pem' -exec openssl x509 -noout -enddate -in {} \;`, Ask, "cred.read", "a workspace key file: the project's own, asked (not a hunt)"},
		{`find src -name '*.ts' | xargs cat`, Allow, "", "workspace sources"},
		{`find /var/log -name '*.log' -mtime -1 | xargs tail -n 20`, Allow, "", "logs are not keys"},
	})
}
