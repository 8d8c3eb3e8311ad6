package riskmodel

import "strings"

// formatsDevice reports whether arguments that go with the word "format" name a storage
// device: a block device under /dev, a disk by its diskutil name (disk2, disk2s1) or a
// Windows drive (D:). "format" alone says nothing: code formatters (gleam format, cue fmt,
// buf format), and every --format json, are far more common than formatting a disk, which
// needs the device it erases. Judging the effect, not the word, keeps those routine while
// "frobctl format /dev/sdb" stays a destruction.
func formatsDevice(args []string) bool {
	for _, a := range args {
		if i := strings.IndexByte(a, '='); strings.HasPrefix(a, "-") && i > 0 {
			a = a[i+1:]
		}
		switch {
		case strings.HasPrefix(a, "/dev/") && !strings.HasPrefix(a, "/dev/null") && !strings.HasPrefix(a, "/dev/std") &&
			!strings.HasPrefix(a, "/dev/fd/") && !strings.HasPrefix(a, "/dev/tty") && !strings.HasPrefix(a, "/dev/zero") &&
			!strings.HasPrefix(a, "/dev/urandom") && !strings.HasPrefix(a, "/dev/random"):
			return true
		case len(a) == 2 && a[1] == ':' && (a[0] >= 'A' && a[0] <= 'Z' || a[0] >= 'a' && a[0] <= 'z'),
			len(a) == 3 && a[1] == ':' && (a[2] == '\\' || a[2] == '/'):
			return true
		case strings.HasPrefix(a, "disk") && len(a) > 4 && a[4] >= '0' && a[4] <= '9':
			return true
		}
	}
	return false
}
