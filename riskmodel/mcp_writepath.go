package riskmodel

// A write tool of any name writes where its path argument points. "save_note" with
// {"path": "~/.bash_profile", "mode": "append", "content": "curl … | sh"} is a shell startup
// file changed, exactly as filesystem/write_file would change it, so the persistence, agent
// configuration and privilege rules must see the path as written whatever the tool is
// called (docs/policy.md: judge the effect, not the spelling).

// mcpWriteToPath reports an argument that names the local file a writing call writes: an
// absolute or home path under a path-like key that is not a source (a sync or copy reads
// its source_path), in a call whose verb writes and that does not send, upload or attach the
// file (those read it).
func mcpWriteToPath(c *mcpCtx, a mcpArg, keyed, absLike bool) bool {
	if c.act != mcpActWrite || !keyed || !absLike || mcpSourceKeys.has(a.nkey) || a.nkey == "attachment" || a.nkey == "attachments" {
		return false
	}
	return !mcpAnyWord(c.actWords, mcpSendVerbs.get()) && !mcpAnyWord(c.actWords, mcpWordSet("upload attach send share import"))
}
