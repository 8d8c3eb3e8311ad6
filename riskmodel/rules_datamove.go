package riskmodel

import (
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Data moved where the project cannot follow it, and shared data removed under other users:
//
//   - data.shared-remote-gc: `dvc gc --cloud` deletes every object in the DVC remote that the
//     current workspace does not use — other branches' and colleagues' data (dvc.org/doc/
//     command-reference/gc: "-c, --cloud … removes … from the remote"). Local-only gc
//     (-w without -c) stays with the catalogue.
//   - net.personal-storage: rclone copying, syncing or moving to a remote named for a
//     consumer cloud (mega, pcloud, a personal Google Drive or Dropbox…) or an on-the-fly
//     backend of one (:mega:path). Such storage is never the project's own, so the project's
//     data leaving for it is exfiltration (docs/policy.md); an unknown remote name stays
//     net.upload's question.
//   - cloud.cross-account-copy: a bucket-to-bucket or local-to-bucket copy of data that looks
//     like production or customer data, to a personal profile or to a bucket that shares no
//     name with the source's (another account's).

func dataMoveRules() []*Rule {
	return []*Rule{
		{
			ID: "data.shared-remote-gc", Level: High, Category: CatDataDeletion,
			Message: "Deletes objects in a shared data remote that other branches and people use",
			exec:    dvcCloudGC,
		},
		{
			ID: "net.personal-storage", Level: High, Category: CatDataExfiltration,
			Message: "Sends project data to a personal or consumer cloud storage account",
			exec:    rclonePersonal,
		},
		{
			ID: "cloud.cross-account-copy", Level: High, Category: CatDataExfiltration,
			Message: "Copies production or customer data to a personal account or another owner's bucket",
			exec:    crossAccountCopy,
		},
	}
}

func dvcCloudGC(c *execCtx, s *Segment) (string, bool) {
	if s.Name() != "dvc" || len(s.Args) < 2 || s.Args[1] != "gc" {
		return "", false
	}
	for _, a := range s.Args[2:] {
		if a == "--cloud" || a == "-c" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && isFlagCluster(a[1:]) && strings.ContainsRune(a[1:], 'c') {
			return "Runs dvc gc --cloud, which deletes every object in the DVC remote that this workspace does not use, including other branches' data", true
		}
	}
	return "", false
}

// consumerStorage are rclone backends of personal cloud storage, by the names people give
// their remotes after them (rclone.org/overview: Google Drive, Dropbox, Mega, pCloud,
// OneDrive personal, iCloud Drive, Koofr, Jottacloud, Yandex Disk, Mail.ru Cloud, PikPak,
// Proton Drive, HiDrive, OpenDrive, put.io, premiumize.me, 1Fichier, Gofile, Pixeldrain,
// Uptobox). Not "drive" or "box" alone: a team's shared drive is named so too.
var consumerStorage = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"mega": true, "pcloud": true, "dropbox": true, "gdrive": true, "googledrive": true,
		"onedrive": true, "icloud": true, "iclouddrive": true, "koofr": true, "jottacloud": true, "yandex": true,
		"mailru": true, "pikpak": true, "protondrive": true, "proton": true, "hidrive": true, "opendrive": true, "putio": true,
		"premiumizeme": true, "fichier": true, "gofile": true, "pixeldrain": true, "uptobox": true, "personal": true}
}}

// consumerRemote reports whether an rclone path names a consumer-storage remote.
func consumerRemote(p string) (string, bool) {
	i := strings.IndexByte(p, ':')
	if i <= 0 && !strings.HasPrefix(p, ":") {
		return "", false
	}
	name := p[:max(i, 0)]
	if strings.HasPrefix(p, ":") { // :backend,opt=v:path
		rest := p[1:]
		j := strings.IndexAny(rest, ",:")
		if j < 0 {
			return "", false
		}
		name = rest[:j]
	}
	if strings.Contains(name, "/") || len(name) == 1 { // a path, or a Windows drive letter
		return "", false
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		if consumerStorage.get()[w] {
			return name, true
		}
	}
	return "", false
}

func rclonePersonal(c *execCtx, s *Segment) (string, bool) {
	if s.Name() != "rclone" || len(s.Args) < 3 {
		return "", false
	}
	var pos []string
	for _, a := range s.Args[1:] {
		if !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
		}
	}
	if len(pos) < 3 {
		return "", false
	}
	switch pos[0] {
	case "copy", "sync", "move", "copyto", "moveto", "bisync", "copyurl":
	default:
		return "", false
	}
	src, dst := pos[1], pos[2]
	if _, ok := consumerRemote(src); ok && pos[0] != "bisync" {
		return "", false // a download from the user's own storage
	}
	if name, ok := consumerRemote(dst); ok {
		return "Sends " + src + " to " + dst + " with rclone " + pos[0] + "; the remote " + name + " is personal cloud storage, not the project's", true
	}
	return "", false
}

// dataLike reports a bucket path or file that looks like production or customer data.
func dataLike(p string) bool {
	if catalog.ProductionLike(p) {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		switch w {
		case "customer", "customers", "users", "pii", "patients", "orders", "payments", "billing", "accounts", "members", "clients", "gdpr":
			return true
		}
	}
	return false
}

// bucketWords are the distinctive words of a bucket URL's bucket name.
func bucketWords(u string) map[string]bool {
	_, rest, _ := strings.Cut(u, "://")
	b, _, _ := strings.Cut(rest, "/")
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(b), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		if len(w) >= 3 && !catalog.ProductionLike(w) && !dataLike(w) {
			out[w] = true
		}
	}
	return out
}

func personalProfile(v string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		switch w {
		case "personal", "private", "home", "me", "mine", "my", "own", "self":
			return true
		}
	}
	return false
}

func crossAccountCopy(c *execCtx, s *Segment) (string, bool) {
	var pos []string
	profile := ""
	args := s.Args
	if len(args) < 3 {
		return "", false
	}
	switch s.Name() {
	case "aws":
		if v, ok := optValue(args[1:], "--profile"); ok {
			profile = v
		}
		var words []string
		for i := 1; i < len(args); i++ {
			a := args[i]
			if strings.HasPrefix(a, "--") {
				if !strings.Contains(a, "=") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && !strings.Contains(args[i+1], "://") {
					i++ // an option's value
				}
				continue
			}
			words = append(words, a)
		}
		if len(words) < 4 || words[0] != "s3" || (words[1] != "cp" && words[1] != "sync" && words[1] != "mv") {
			return "", false
		}
		pos = words[2:4]
	case "gsutil", "gcloud":
		var words []string
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") {
				words = append(words, a)
			}
		}
		if len(words) >= 2 && words[0] == "storage" {
			words = words[1:]
		}
		if len(words) < 3 || (words[0] != "cp" && words[0] != "rsync" && words[0] != "mv") {
			return "", false
		}
		pos = words[len(words)-2:]
	default:
		return "", false
	}
	src, dst := pos[0], pos[1]
	if !strings.Contains(dst, "://") || !dataLike(src) {
		return "", false
	}
	if profile != "" && personalProfile(profile) {
		return "Copies " + src + " (production or customer data) to " + dst + " under the personal profile " + profile, true
	}
	if strings.Contains(src, "://") {
		sw, dw := bucketWords(src), bucketWords(dst)
		for w := range dw {
			if sw[w] {
				return "", false
			}
		}
		if len(dw) > 0 {
			return "Copies " + src + " (production or customer data) to " + dst + ", a bucket that shares no name with the source's", true
		}
	}
	return "", false
}
