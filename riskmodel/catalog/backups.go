package catalog

import "strings"

// Copies of a credential store hold the same secret: a compressed copy (.netrc.gz), an
// editor's or a package manager's backup (.pgpass~, credentials.orig, .vimrc.swp,
// sshd_config.dpkg-old), an archive of a store's directory (.ssh.tar.gz, .aws.tgz). So a path
// that names a store once such suffixes are taken off is a credential store too: `zcat
// ~/.netrc.gz` reads the password file as surely as `cat ~/.netrc`. Only credential stores are
// matched through copies: a backup of a shell startup file or of an agent's settings is not
// read by the shell or the agent, so writing it persists nothing.

// backupSuffixes are the endings compressors, archivers, editors and package managers add to
// a file they copy, lower case (gzip(1), bzip2(1), xz(1), zstd(1), lz4(1), compress(1),
// tar(1), zip(1), 7z; vim 'backupext' and swap files, Emacs backup files, nano's .save,
// patch(1)'s .orig; dpkg's .dpkg-old/.dpkg-dist and rpm's .rpmsave/.rpmnew conffile copies).
var backupSuffixes = []string{".gz", ".bz2", ".xz", ".zst", ".lz4", ".lzma", ".lz", ".z", ".zip", ".7z", ".tar", ".tgz", ".tbz2", ".txz",
	".bak", ".backup", ".bck", ".old", ".orig", ".save", ".sav", ".swp", ".swo", ".prev", ".copy",
	".dpkg-old", ".dpkg-dist", ".dpkg-bak", ".rpmsave", ".rpmnew", "~"}

// withoutBackupSuffix returns p with the backup and compression suffixes of its last segment
// taken off (".netrc.bak.gz" → ".netrc"), and whether any were. It keeps at least one
// character of the name before a suffix, so a file named ".gz" or "~" stays as it is.
func withoutBackupSuffix(p string) (string, bool) {
	base := p[strings.LastIndexByte(p, '/')+1:]
	n := len(base)
	for range 4 { // a copy of a copy: credentials.orig.gz, .pgpass.bak~
		cut := false
		for _, s := range backupSuffixes {
			if n > len(s) && strings.EqualFold(base[n-len(s):n], s) && base[:n-len(s)] != "." {
				n -= len(s)
				cut = true
				break
			}
		}
		if !cut {
			break
		}
	}
	if n == len(base) {
		return p, false
	}
	return p[:len(p)-len(base)+n], true
}
