package riskmodel

import (
	"strconv"
	"strings"
)

// Backup tools told to destroy every snapshot. A backup is the copy that survives the
// original's loss, so deleting all of it is docs/policy.md's "deleting … backups" deny row
// (MITRE ATT&CK T1490, Inhibit System Recovery). Each tool says so in its own words: restic
// forget with no keep policy (or every keep-* 0) drops every snapshot it selects and --prune
// frees their data (restic docs 060_forget); borg delete removes an archive or the whole
// repository, borg prune with every --keep-* 0 keeps nothing (borg docs usage/delete,
// usage/prune); kopia snapshot delete --all-snapshots-for-source; duplicity
// remove-all-but-n-full 0 and remove-older-than now; rclone purge of a remote named as a
// backup. Forgetting one snapshot by its ID, or pruning with a policy that keeps some, is
// ordinary upkeep and stays a question; read-only uses are catalogue data
// (catalog/commands_backup.toml).

// backupKeepOpt reports whether a is a keep-policy option of restic or borg, and its value
// when the word holds it (--keep-last=3).
func backupKeepOpt(tool, a string) (isKeep bool, val string, inline bool) {
	name, v, hasEq := strings.Cut(a, "=")
	if strings.HasPrefix(name, "--keep-") {
		return true, v, hasEq
	}
	shorts := "Hdwmy"
	if tool == "restic" {
		shorts = "lHdwmy"
	}
	if len(name) >= 2 && name[0] == '-' && name[1] != '-' && strings.ContainsRune(shorts, rune(name[1])) {
		if len(name) > 2 {
			return true, name[2:], true
		}
		return true, "", false
	}
	return false, "", false
}

// keepsNothing reads a restic forget or borg prune: whether its keep policy keeps nothing
// (no keep option, or every one 0), and whether it names snapshots to forget by ID.
func keepsNothing(tool string, args []string) (nothing, byID bool) {
	valued := map[string]bool{"-r": true, "--repo": true, "--repository-file": true, "-p": true, "--password-file": true,
		"--password-command": true, "-o": true, "--option": true, "--cache-dir": true, "--group-by": true, "-g": true,
		"--tag": true, "--host": true, "--path": true, "-a": true, "--glob-archives": true, "--match-archives": true,
		"--prefix": true, "--remote-path": true, "--lock-wait": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if k, v, inline := backupKeepOpt(tool, a); k {
			if !inline && i+1 < len(args) {
				v = args[i+1]
				i++
			}
			if strings.HasPrefix(a, "--keep-tag") {
				return false, false
			}
			if n, err := strconv.Atoi(strings.TrimRight(v, "hdwmyHs")); err != nil || n != 0 {
				return false, false
			}
			continue
		}
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && valued[a] {
				i++
			}
			continue
		}
		if tool == "restic" {
			byID = true // restic forget ID…: the snapshots the user picked
		}
	}
	return !byID, byID
}

// backupSubcommand returns the tool's first words that are not options (skipping the values
// of the global options that take one).
func backupSubcommand(s *Segment) []string {
	var out []string
	for i := 1; i < len(s.Args); i++ {
		a := s.Args[i]
		switch {
		case a == "-r" || a == "--repo" || a == "-p" || a == "--password-file" || a == "-o" || a == "--option" ||
			a == "--config-file" || a == "--cache-dir" || a == "--remote-path":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			out = append(out, a)
		}
	}
	return out
}

// namesBackupStore reports a remote or path named as a backup store.
func namesBackupStore(w string) bool {
	l := strings.ToLower(w)
	for _, k := range []string{"backup", "bkp", "snapshot", "restic", "borg", "kopia", "duplicity", "velero", "recovery"} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// backupDestroy says how a backup tool destroys every snapshot it holds.
func backupDestroy(c *execCtx, s *Segment) (string, bool) {
	sub := backupSubcommand(s)
	if len(sub) == 0 {
		return "", false
	}
	tail := func(word string) []string {
		for i, a := range s.Args {
			if a == word {
				return s.Args[i+1:]
			}
		}
		return nil
	}
	switch s.Name() {
	case "restic":
		if sub[0] == "forget" {
			if nothing, _ := keepsNothing("restic", tail("forget")); nothing {
				return "Forgets every restic snapshot (no keep policy, or every keep-* 0): the backups are gone once pruned", true
			}
		}
	case "borg", "borgbackup":
		switch sub[0] {
		case "delete", "rdelete", "repo-delete":
			return "Deletes Borg backup archives or the whole repository", true
		case "prune":
			if nothing, _ := keepsNothing("borg", tail("prune")); nothing {
				return "Prunes every Borg archive (every --keep-* 0)", true
			}
		}
	case "kopia":
		if len(sub) >= 2 && (sub[0] == "snapshot" || sub[0] == "snap") && (sub[1] == "delete" || sub[1] == "rm") &&
			containsArg(s.Args, "--all-snapshots-for-source") {
			return "Deletes every Kopia snapshot of a source", true
		}
	case "duplicity":
		for i, a := range s.Args {
			if i+1 >= len(s.Args) {
				break
			}
			switch a {
			case "remove-all-but-n-full", "remove-all-inc-of-but-n-full":
				if s.Args[i+1] == "0" {
					return "Removes every duplicity backup chain (" + a + " 0)", true
				}
			case "remove-older-than":
				if s.Args[i+1] == "now" || s.Args[i+1] == "0s" {
					return "Removes every duplicity backup (remove-older-than now)", true
				}
			}
		}
	case "rclone":
		if sub[0] == "purge" && len(sub) >= 2 && strings.Contains(sub[1], ":") && namesBackupStore(sub[1]) {
			return "Purges " + sub[1] + ", a remote named as a backup store, with everything in it", true
		}
	}
	return "", false
}

func r14BackupRules() []*Rule {
	return []*Rule{
		{
			ID: "backup.destroy", Level: Critical, Category: CatDataDeletion,
			Message: "Destroys every snapshot of a backup repository",
			exec:    backupDestroy,
		},
	}
}
