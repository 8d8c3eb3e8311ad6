package riskmodel

import (
	"regexp"
	"strings"
)

// CI job triggers whose parameters carry shell. Jenkins buildWithParameters, GitHub
// workflow_dispatch inputs, GitLab pipeline variables, Buildkite build env and CircleCI
// pipeline parameters are handed to the job's steps, which commonly run them (`sh
// "${SCRIPT}"`, `run: ${{ inputs.cmd }}`). A parameter value that is a command line is what
// the job will execute, on the CI runner or the node it names, so it is analysed with the
// shell analysis as an args/script/command key is, and its verdict is the call's.

// mcpR15CIWords name a CI system in a server's or a tool's name.
var mcpR15CIWords = wordSet{words: `jenkins buildkite gitlab circleci github actions teamcity drone woodpecker bamboo
	azuredevops devops travis concourse tekton argo semaphore codebuild cloudbuild`}

// mcpR15TriggerWords are a tool name's words for starting a job.
var mcpR15TriggerWords = wordSet{words: `trigger build builds dispatch pipeline pipelines workflow workflows run rerun job jobs start create`}

// mcpR15ParamParents are the normalised argument names under which a trigger takes the job's
// parameters.
var mcpR15ParamParents = wordSet{words: `parameters params inputs input variables vars env environment buildparameters
	pipelineparameters buildargs extravars`}

// mcpR15CIRes are a parameter name that says it holds a command, and a value that is a
// command line whatever its name (a pipe into a shell, a substitution, a chain); built on
// first use (table.go: nothing at init).
var mcpR15CIRes = table[[2]*regexp.Regexp]{build: func() [2]*regexp.Regexp {
	return [2]*regexp.Regexp{
		regexp.MustCompile(`(?i)script|cmd|command|shell|exec|^run$|^run_|_run$|hook`),
		regexp.MustCompile(`\|\s*(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b|\$\(|` + "`" + `|(?:^|\s)(?:curl|wget|bash|sh|python3?|nc|rm)\s.*(?:&&|;|\|)`),
	}
}}

// ciParamShell returns the command line carried by a CI trigger's job parameter, as argv for
// the shell analysis.
func (c *mcpCtx) ciParamShell() ([]string, string) {
	ci := mcpR15CIWords.get()
	if !mcpAnyWord(c.serverWords, ci) && !mcpAnyWord(c.toolWords, ci) {
		return nil, ""
	}
	if !mcpAnyWord(c.toolWords, mcpR15TriggerWords.get()) {
		return nil, ""
	}
	parents, re := mcpR15ParamParents.get(), mcpR15CIRes.get()
	for _, a := range c.args {
		if a.depth < 2 || !a.str || !strings.ContainsAny(strings.TrimSpace(a.val), " \t") {
			continue
		}
		top := a.path
		if i := strings.IndexAny(top, ".["); i >= 0 {
			top = top[:i]
		}
		if !parents[mcpNormKey(top)] {
			continue
		}
		name := a.key
		if name == "value" || name == "" { // GitLab's [{key, value}] and arrays of pairs
			name = c.siblingKey(a)
		}
		if re[0].MatchString(name) || re[1].MatchString(a.val) {
			return []string{"bash", "-c", a.val}, a.val
		}
	}
	return nil, ""
}

// siblingKey returns the "key"/"name" string beside a (GitLab variables [{"key":…,"value":…}]).
func (c *mcpCtx) siblingKey(a mcpArg) string {
	i := strings.LastIndexByte(a.path, '.')
	if i < 0 {
		return ""
	}
	prefix := a.path[:i+1]
	for _, b := range c.args {
		if strings.HasPrefix(b.path, prefix) && (b.nkey == "key" || b.nkey == "name") && b.path[len(prefix):] == b.key {
			return b.val
		}
	}
	return ""
}
