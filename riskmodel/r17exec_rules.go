package riskmodel

// r17ExecRules are the exec rules of the r17 classes (r17exec_*.go): secrets read out of
// infrastructure state, disks filled on purpose, code servers opened to the network with no
// authentication, and private data uploaded to public model and data hubs.
func r17ExecRules() []*Rule {
	return []*Rule{
		{ID: "cred.iac-state-secrets", Level: High, Category: CatCredentialAccess, Certain: true,
			Message: "Reads passwords, keys or tokens out of Terraform/OpenTofu state or outputs, or decrypts a Pulumi stack's secrets",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				m := iacStateSecrets(c, s)
				return m, m != ""
			}},
		{ID: "net.open-code-server", Level: High, Category: CatNetworkEgress, Certain: true,
			Message: "Runs a code-execution server (Jupyter, code-server) on all interfaces with its authentication switched off",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				if m := jupyterNoAuth(s); m != "" {
					return m, true
				}
				m := codeServerNoAuth(s)
				return m, m != ""
			}},
	}
}
