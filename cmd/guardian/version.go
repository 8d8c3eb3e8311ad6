package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the VCS revision it was built from, and the Go version",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), versionString())
			return err
		},
	}
}

// versionString reads the build info: "guardian VERSION [revision REV[ (modified)]] GOVERSION".
// VERSION is the module version, or "(devel)" for a build from a checkout.
func versionString() string {
	version, rev, modified := moduleVersion(), "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	s := "guardian " + version
	if rev != "" {
		s += " revision " + rev
		if modified {
			s += " (modified)"
		}
	}
	return fmt.Sprintf("%s %s %s/%s", s, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// version is the release version stamped in by `make release`
// (-ldflags "-X main.version=v1.2.3"); empty for any other build.
var version string

// moduleVersion is the version guardian was built as: the stamped release version, else the
// module version, "(devel)" for a checkout. It is what guardian reports of itself where one
// word is wanted (the MCP proxy's serverInfo).
func moduleVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
