package riskmodel

import "strings"

// winHarm is one documented harmful use of a Windows program or cmdlet: the names (lower
// case, without .exe, as Segment.Name reads them), the words its joined arguments must all
// contain (lower case; backslashes ignored, as quoting changes them), and what it does.
// Each row denies outright: each is on docs/policy.md's deny list (privilege, persistence,
// credential stores, wiping disks or backups, turning protection off) with the effect known.
type winHarm struct {
	names []string
	needs []string
	cat   Category
	why   string
}

// winHarms are the rows. Sources: LOLBAS (https://lolbas-project.github.io: cmdkey,
// rundll32 keymgr, sc, diskpart), Atomic Red Team (T1136.001 net user /add, T1098
// net localgroup, T1555.004 vaultcmd, T1053.005, T1543.003 sc create, T1546.003 WMI event
// subscription, T1561 disk wipe, T1490 inhibit recovery), Microsoft Learn cmdlet references
// (Add-LocalGroupMember, New-LocalUser, Format-Volume, Clear-Disk, New-Service,
// Register-WmiEvent, Set-MpPreference, Add-MpPreference), and the CredentialManager module
// (Get-StoredCredential).
var winHarms = table[[]winHarm]{build: func() []winHarm {
	return []winHarm{
		{[]string{"net", "net1"}, []string{"localgroup", "/add"}, CatPrivilegeEscalation, "adds an account to a local group (administrators, remote desktop users)"},
		{[]string{"net", "net1"}, []string{"user", "/add"}, CatPrivilegeEscalation, "creates a local user account"},
		{[]string{"add-localgroupmember"}, nil, CatPrivilegeEscalation, "adds an account to a local group"},
		{[]string{"new-localuser"}, nil, CatPrivilegeEscalation, "creates a local user account"},
		{[]string{"format-volume", "clear-disk", "initialize-disk", "remove-partition", "diskpart"}, nil, CatDataDeletion, "erases a disk or volume"},
		{[]string{"cmdkey"}, []string{"/list"}, CatCredentialAccess, "lists the credentials Windows Credential Manager holds"},
		{[]string{"vaultcmd"}, []string{"/listcreds"}, CatCredentialAccess, "lists the credentials in a Windows vault"},
		{[]string{"rundll32"}, []string{"keymgr"}, CatCredentialAccess, "opens the stored user names and passwords"},
		{[]string{"get-storedcredential"}, nil, CatCredentialAccess, "reads a password from Windows Credential Manager"},
		{[]string{"mimikatz", "pypykatz", "lazagne"}, nil, CatCredentialAccess, "dumps stored credentials"},
		{[]string{"sc"}, []string{"create", "binpath"}, CatPersistence, "installs a Windows service"},
		{[]string{"sc"}, []string{"config", "binpath"}, CatPersistence, "changes what a Windows service runs"},
		{[]string{"new-service"}, nil, CatPersistence, "installs a Windows service"},
		{[]string{"new-scheduledtask", "new-scheduledtaskaction", "register-scheduledtask", "schtasks"}, nil, CatPersistence, "creates a scheduled task"},
		{[]string{"register-wmievent", "set-wmiinstance", "new-ciminstance"}, []string{"__eventfilter"}, CatPersistence, "creates a WMI event subscription that runs code"},
		{[]string{"set-mppreference"}, []string{"-disable"}, CatSecurityWeakening, "switches Microsoft Defender's protection off"},
		{[]string{"add-mppreference"}, []string{"-exclusion"}, CatSecurityWeakening, "excludes files from Microsoft Defender's scans"},
		{[]string{"set-netfirewallprofile"}, []string{"false"}, CatSecurityWeakening, "switches the Windows firewall off"},
		{[]string{"clear-eventlog", "remove-eventlog"}, nil, CatSecurityWeakening, "clears a Windows event log"},
	}
}}

// winHarmsByName indexes winHarms by program name: every segment asks, few are Windows
// programs.
var winHarmsByName = table[map[string][]winHarm]{build: func() map[string][]winHarm {
	m := map[string][]winHarm{}
	for _, h := range winHarms.get() {
		for _, n := range h.names {
			m[n] = append(m[n], h)
		}
	}
	return m
}}

// schtasksHarm: schtasks only creates something with /create (its /query is a read).
func winHarmOf(s *Segment) (winHarm, bool) {
	n := s.Name()
	rows, ok := winHarmsByName.get()[n]
	if !ok {
		n = strings.ToLower(n) // a cmdlet or program spelt in capitals
		rows = winHarmsByName.get()[n]
	}
	text, joined := "", false
	for _, h := range rows {
		if !joined { // only for a program some row names: most segments never get here
			text, joined = strings.ReplaceAll(strings.ToLower(strings.Join(s.Args[1:], " ")), `\`, ""), true
		}
		if n == "schtasks" && !strings.Contains(text, "/create") {
			continue
		}
		if allIn(text, h.needs...) {
			return h, true
		}
	}
	return winHarm{}, false
}

func r18WinRules() []*Rule {
	rule := func(id string, cat Category, msg string) *Rule {
		return &Rule{
			ID: id, Level: Critical, Category: cat, Message: msg,
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if len(s.Args) == 0 {
					return "", false
				}
				if h, ok := winHarmOf(s); ok && h.cat == cat {
					return capText(joinArgs(s.Args)) + " " + h.why, true
				}
				return "", false
			},
		}
	}
	return []*Rule{
		{
			ID: "win.read-cmdlet", Baseline: true, Level: Low, Category: CatReadOnly,
			Message: "Runs a PowerShell cmdlet whose verb only reads",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if !pwshReadCmdlet(s.Name()) {
					return "", false
				}
				for _, r := range s.Redirs {
					if r.Writes() {
						return "", false
					}
				}
				return "Runs " + s.Name() + ", a PowerShell cmdlet that only reads", true
			},
		},
		rule("win.privilege", CatPrivilegeEscalation, "Gives an account administrator rights or creates one on Windows"),
		rule("win.wipe", CatDataDeletion, "Erases a disk or volume on Windows"),
		rule("win.credential-store", CatCredentialAccess, "Reads Windows' stored credentials"),
		rule("win.persistence", CatPersistence, "Installs something Windows runs on its own (service, task, WMI subscription)"),
		rule("win.protection-off", CatSecurityWeakening, "Turns Windows' protection off"),
	}
}

// pwshReadVerbs are the PowerShell approved verbs whose cmdlets return objects without
// changing anything (Microsoft Learn, "Approved Verbs for PowerShell Commands": the common
// Get/Find/Search/Select/Format, the data Compare/Convert*/Group (not Measure: Measure-Command runs code), the diagnostic
// Test/Resolve/Trace), plus Where/Sort/Join/Split, the pipeline cmdlets.
var pwshReadVerbs = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, v := range strings.Fields("get find search select format compare convertto convertfrom group test resolve where sort join split show") {
		m[v] = true
	}
	return m
}}

// pwshSecretNouns are nouns whose Get- returns a secret (Get-Secret, Get-StoredCredential,
// Get-AzKeyVaultSecret, Get-BitLockerVolume recovery keys, Get-AzStorageAccountKey).
var pwshSecretNouns = []string{"secret", "credential", "password", "key", "token", "bitlocker", "vault", "certificate", "cert"}

// pwshReadCmdlet reports a Verb-Noun cmdlet name with a read verb and a noun that holds no
// secret.
func pwshReadCmdlet(n string) bool {
	i := strings.IndexByte(n, '-')
	if i <= 0 || i == len(n)-1 || strings.ContainsAny(n, "/\\.") {
		return false
	}
	verb, noun := strings.ToLower(n[:i]), strings.ToLower(n[i+1:])
	if !pwshReadVerbs.get()[verb] {
		return false
	}
	for _, w := range pwshSecretNouns {
		if strings.Contains(noun, w) {
			return false
		}
	}
	return true
}
