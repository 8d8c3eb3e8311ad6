package riskmodel

import "strings"

// A write to a development database on this machine — seeding it from the project's seed file,
// inserting a fixture row — changes nothing outside the developer's own machine and is redone
// by re-seeding: routine, like the migrations (db.migrate) and the local resets
// (db.local-reset) beside it, which are contained too. A write whose SQL guardian cannot see
// counts only when it comes from a file inside the workspace (the project's seeds); SQL piped
// from another program or read from elsewhere stays db.write.

// dbLocalWriteOK reports a database call whose connection is this machine's and whose SQL is
// visible or comes from a workspace file.
func dbLocalWriteOK(c *execCtx, d dbCall) bool {
	if !dbLocalCall(c, d) {
		return false
	}
	if d.unseen == "" {
		return true
	}
	if strings.ContainsAny(d.unseen, " \t") || d.unseen == "-" {
		return false // "the output of curl", a stream: not a file of the project
	}
	t := c.target(d.unseen)
	return t.abs != "" && t.zone == ZoneWorkspace
}

func dbLocalRules() []*Rule {
	return []*Rule{{
		ID: "db.local-write", Level: Medium, Category: CatNone, Contained: true,
		Message: "Writes to a development database on this machine",
		exec:    cloudRule(dbLocalWrite),
	}}
}
