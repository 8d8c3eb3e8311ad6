package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// Owner names the programs whose own configuration a credential store is: aws reads
// ~/.aws, ssh reads ~/.ssh, kubectl reads ~/.kube. Pointing such a program at its own store
// (kubectl --kubeconfig ~/.kube/config, gpg --homedir ~/.gnupg) is how it is used, not a
// read of the store into the transcript; pointing any other program at the store is.
type Owner struct {
	// Commands are the program names (argv[0]'s base name) that own the paths.
	Commands []string `toml:"commands" json:"commands"`
	// Home and Abs are path patterns as in PathEntry; a pattern ending in "/" covers the
	// directory and everything below it.
	Home   []string `toml:"home" json:"home,omitempty"`
	Abs    []string `toml:"abs" json:"abs,omitempty"`
	Source string   `toml:"source" json:"source,omitempty"`

	pe PathEntry
}

func (o *Owner) validate() error {
	if len(o.Commands) == 0 {
		return fmt.Errorf("owner without commands")
	}
	o.pe = PathEntry{ID: "owner:" + o.Commands[0], Class: Credential, What: "owned store", Source: o.Source, Home: o.Home, Abs: o.Abs}
	if err := o.pe.validate(); err != nil {
		return fmt.Errorf("owner %s: %w", o.Commands[0], err)
	}
	return nil
}

// OwnedBy reports whether p lies in a store that program cmd owns (Owner).
func (c *Catalog) OwnedBy(cmd, p, home string) bool {
	if cmd == "" || !pathLike(p) {
		return false
	}
	for i := range c.owners {
		o := &c.owners[i]
		if !slices.Contains(o.Commands, cmd) {
			continue
		}
		for _, w := range ExpandBraces(p, 64) {
			if ps, ok := Normalize(w, home); ok && o.pe.matches(ps) {
				return true
			}
		}
	}
	return false
}

// StoreDir returns the entry of class that the directory p is a store of: the directory is
// covered itself (~/.ssh) or is the own directory of one (~/.aws holds ~/.aws/credentials,
// ~/.gnupg its private keys). A directory shared by many programs (~/.config,
// ~/Library/Application Support, /etc, /var/lib) is not a store: a program told to keep its
// state there reads its own part of it, not every store below.
func (c *Catalog) StoreDir(class Class, p, home string) (*PathEntry, bool) {
	if !pathLike(p) {
		return nil, false
	}
	for _, w := range ExpandBraces(p, 64) {
		ps, ok := Normalize(w, home)
		if !ok || sharedDir(ps) {
			continue
		}
		if e, ok := c.Classify(class, w, home); ok {
			return e, true
		}
		if e, ok := c.Holds(class, w, home); ok {
			return e, true
		}
	}
	return nil, false
}

// sharedDir reports the directories that hold many programs' state: the home directory and
// its XDG and platform bases (XDG Base Directory Specification; Apple File System
// Programming Guide; Windows Known Folders), and the system's top-level directories with
// their shared parts (FHS 3.0: /etc, /var/lib, /run, /etc/ssl).
func sharedDir(ps PathSpec) bool {
	s := strings.Join(ps.Segs, "/")
	if ps.InHome {
		switch s {
		case "", ".config", ".local", ".local/share", ".local/state", ".cache", "Library", "Library/Application Support",
			"Library/Containers", "AppData", "AppData/Roaming", "AppData/Local", "snap", ".var", ".var/app":
			return true
		}
		return false
	}
	if len(ps.Segs) <= 1 {
		return true
	}
	switch s {
	case "var/lib", "var/run", "var/db", "run/user", "etc/ssl", "usr/local", "usr/share", "usr/lib", "usr/local/etc", "opt/homebrew/etc":
		return true
	}
	return false
}
