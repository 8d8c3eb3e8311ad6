package main

import (
	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian/oneshot"
	"github.com/guardianhq/guardian/guardian/oneshot/online"
)

// env is the oneshot environment of cmd: this process's dependencies, the --config the
// command line named (when it named one) and the telemetry providers. The hooks and the
// predicate answer through it, and every verb loads its config and opens its audit log
// through it, so they all read the same files the same way.
// A nil cmd is the environment of no command in particular: the default config path, stderr.
func (a *app) env(cmd *cobra.Command) oneshot.Env {
	e := oneshot.Env{
		Getenv: a.getenv, Getwd: a.getwd, Stderr: a.stderr,
		TracerProvider: a.tracerProvider, MeterProvider: a.meterProvider, Fault: a.injectFault,
		Approvals: a.approvals, Network: a.network(),
	}
	if cmd != nil {
		e.Stderr = cmd.ErrOrStderr()
		if f := cmd.Flag("config"); f != nil && f.Changed {
			e.ConfigPath = a.configPath
		}
	}
	return e
}

// network is how this process reaches a guardian serve and the model: guardian links the
// HTTP clients that the lean hook entry leaves out (package online).
func (a *app) network() online.Network {
	return online.Network{TracerProvider: a.tracerProvider, MeterProvider: a.meterProvider}
}
