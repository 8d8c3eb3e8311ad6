package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

func (a *app) configCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "config",
		Short: "Check config files",
		Args:  cobra.ArbitraryArgs,
		RunE:  groupRunE,
	}
	c.AddCommand(a.configCheckCmd())
	return c
}

func (a *app) configCheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check FILE...",
		Short: "Load config files and report every problem in each; exit 3 if any is invalid",
		Long: `Load each config file (a user config or a project file) exactly as a review would and
build the rule policy from it. A good file prints "ok: FILE"; a bad one prints every problem
found in it on stderr, one a line as FILE:LINE:COL: message, in file order. The exit status
is 3 if any file is invalid.`,
		Example: `  guardian config check ~/.config/guardian/config.toml`,
		Args:    usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			bad := 0
			for _, path := range args {
				if err := checkConfig(path); err != nil {
					bad++
					// file:line:col: message, one problem a line, for editors to jump to
					fmt.Fprintln(cmd.ErrOrStderr(), err)
					continue
				}
				fmt.Fprintf(cmd.OutOrStdout(), "ok: %s\n", path)
			}
			if bad > 0 {
				return &exitError{code: exitInvalid}
			}
			return nil
		},
	}
}

func checkConfig(path string) error {
	cfg, err := guardian.LoadConfig(path)
	if err != nil {
		return err
	}
	if _, err := riskmodel.New(cfg.Policy); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
