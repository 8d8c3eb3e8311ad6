package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
)

// decider chooses who decides a request for an adapter (hook, predicate): a reachable
// guardian serve, else an in-process review. done releases what the decider holds.
func (a *app) decider(_ context.Context, cmd *cobra.Command, req guardian.Request) (d guardian.Decider, done func(), err error) {
	return a.localDecider(cmd, req)
}
