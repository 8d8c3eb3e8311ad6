package riskmodel

import (
	"fmt"
	"regexp"
	"strings"
)

// mcpR17Rules are the rules of the r17 MCP classes (mcp_r17_*.go): a server's elicitation that
// asks the user for credentials, and a public Hub repository made for customer data.
func mcpR17Rules() []*Rule {
	return []*Rule{
		{ID: "mcp.elicit-credentials", Kind: KindMCP, Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "A server's elicitation asks the user to paste credentials (secret keys, a credentials file, tokens, passwords, a seed phrase) into its form",
			mcp: func(c *mcpCtx) (string, bool) {
				if m := mcpR17ElicitCreds.get().FindString(mcpClip(c.req.Message, 8<<10)); m != "" {
					return fmt.Sprintf("%s, whose elicitation asks the user for credentials (%q): the server would receive them", c.call(), mcpCleanText(m, 60)), true
				}
				return "", false
			}},
		{ID: "mcp.public-data-repo", Kind: KindMCP, Level: High, Category: CatDataExfiltration, Certain: true,
			Message: "Creates or opens a public Hub repository (dataset, model, space) whose name says it holds customer or personal data",
			mcp:     mcpWhich((*mcpCtx).publicDataRepo)},
		{ID: "mcp.ci-pr-target-secrets", Kind: KindMCP, Level: High, Category: CatRemoteCodeExecution, Certain: true,
			Message: "Writes a GitHub workflow that runs pull requests' code (pull_request_target with a checkout of the head) with the repository's secrets",
			mcp:     mcpWhich((*mcpCtx).prTargetPwn)},
	}
}

// mcpR17ElicitCreds matches an elicitation that asks for a credential's value: a verb of
// handing over (paste, enter, provide, type, share) before a credential noun or a credential
// file. An OAuth sign-in ("sign in with GitHub", "authorize at …") names no credential value
// and does not match.
var mcpR17ElicitCreds = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:paste|enter|provide|type|share|input|submit|supply|copy|upload|send|give)\b(?:\W+\w+){0,6}?\W+` +
		`(?:aws_secret_access_key|aws_access_key_id|secret(?:\s+access)?\s+keys?|api[\s_-]?keys?|access\s+keys?|private\s+keys?|ssh\s+keys?|` +
		`(?:access|auth|api|bearer|session|refresh|personal\s+access|github|gitlab|npm|pypi)\s+tokens?|tokens?\b|passwords?|passphrases?|` +
		`seed\s+phrases?|recovery\s+phrases?|mnemonic|secret\s+recovery|client\s+secrets?|credentials?(?:\s+file)?|~/\.aws/credentials|` +
		`\.aws/credentials|\.env\b|id_rsa|id_ed25519|kubeconfig|\.npmrc|\.netrc|\.pgpass)`)
}}

// mcpR17DataRepoWords are a repository name's words for customer or personal data.
var mcpR17DataRepoWords = wordSet{words: `customer customers client clients ticket tickets user users userdata pii phi
	patient patients crm email emails contacts subscribers members accounts medical ehr claims chats transcripts
	employees hr payroll leads`}

// publicDataRepo names a Hub repository created or switched public whose name says it holds
// customer data: huggingface_hub's create_repo and update_repo_settings/visibility with
// private false.
func (c *mcpCtx) publicDataRepo() string {
	if !mcpAnyWord(c.serverWords, mcpWordSet("huggingface hf hub")) && !strings.Contains(strings.ToLower(c.req.Server), "hugging") {
		return ""
	}
	if !mcpAnyWord(c.toolWords, mcpWordSet("create update visibility settings")) {
		return ""
	}
	public := false
	for _, a := range c.args {
		v := strings.ToLower(strings.TrimSpace(a.val))
		if a.depth == 1 && (a.nkey == "private" && v == "false" || a.nkey == "visibility" && v == "public") {
			public = true
		}
	}
	if !public {
		return ""
	}
	for _, k := range []string{"repoid", "repo", "name", "reponame", "id"} {
		a, ok := c.top(k)
		if !ok || !a.str {
			continue
		}
		if mcpAnyWord(mcpSplitWordsPlain(strings.NewReplacer("-", " ", "_", " ", "/", " ").Replace(a.val)), mcpR17DataRepoWords.get()) {
			return fmt.Sprintf("creates the public repository %q, named for customer or personal data: anyone can download what is uploaded", mcpCleanText(a.val, 60))
		}
	}
	return ""
}
