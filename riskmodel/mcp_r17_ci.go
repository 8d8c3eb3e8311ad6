package riskmodel

import (
	"fmt"
	"regexp"
	"strings"
)

// mcpYAMLUnquote strips a YAML scalar's quotes only when they enclose the whole value: a
// plain scalar that merely ends in a quote (run: curl -d "$(env)") keeps it, or the shell
// analysis would read an unterminated string and judge nothing.
func mcpYAMLUnquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		return v[1 : len(v)-1]
	}
	return v
}

// mcpR17PRTarget matches the pieces of a GitHub workflow that runs a pull request's code with
// the base repository's secrets: the pull_request_target trigger, and a checkout of the pull
// request's head (GitHub Security Lab, "Preventing pwn requests").
var mcpR17PRTarget = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)\bpull_request_target\b`)
}}

var mcpR17PRHead = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{\{\s*github\.(?:event\.pull_request\.head\.(?:sha|ref)|head_ref)\s*\}\}|refs/pull/`)
}}

// prTargetPwn finds a workflow written with pull_request_target that checks out the pull
// request's head and hands the job secrets (a ${{ secrets.X }} other than GITHUB_TOKEN, or
// all of them): anyone who opens a pull request runs code with those secrets.
func (c *mcpCtx) prTargetPwn() string {
	for _, w := range c.writes() {
		if !mcpCIFile(w.path) || !strings.Contains(w.path, ".github/workflows/") {
			continue
		}
		if !mcpR17PRTarget.get().MatchString(w.content) || !mcpR17PRHead.get().MatchString(w.content) {
			continue
		}
		secret := mcpReGHAllSecrets().FindString(w.content)
		for _, m := range mcpReGHSecretRef().FindAllStringSubmatch(w.content, 16) {
			if secret == "" && m[1] != "GITHUB_TOKEN" {
				secret = m[0]
			}
		}
		if secret == "" {
			continue
		}
		return fmt.Sprintf("writes the workflow %s that runs on pull_request_target, checks out the pull request's head and passes %s: any pull request's code runs with the repository's secrets",
			mcpCleanText(w.path, 60), mcpCleanText(secret, 40))
	}
	return ""
}
