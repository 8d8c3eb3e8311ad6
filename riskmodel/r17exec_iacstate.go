package riskmodel

import "strings"

// Infrastructure state holds every secret the infrastructure was built with, in clear text:
// `terraform state pull` and `terraform show -json` print database passwords, private keys
// and access keys as attributes (sensitive = true only hides them from the plan's human
// output), `terraform output -json` prints sensitive outputs' values, and `pulumi stack
// export --show-secrets` decrypts them. Listing resources or reading one plain attribute is
// routine; a request that selects a secret attribute out of that dump (jq, grep, a script)
// is reading a credential into the transcript: credential_access, on the deny list.

// iacStateTools are the Terraform-family CLIs whose state and outputs are read.
var iacStateTools = wordSet{words: `terraform tofu terragrunt`}

// iacSelectors are the commands that pick values out of a JSON dump.
var iacSelectors = wordSet{words: `jq gojq yq jp jmespath fx gron grep egrep rg ag awk sed python python3 node ruby perl`}

// iacSecretParts are the words of an attribute name that make it a secret on their own.
var iacSecretParts = wordSet{words: `password passwd secret secrets token tokens credential credentials kubeconfig
	connection_string pem`}

// iacKeyQualifiers are the words that, followed by "key", name a secret key.
var iacKeyQualifiers = wordSet{words: `access secret private api client account master primary sas signing auth encryption`}

// iacProviderPrefixes begin a Terraform resource type (aws_secretsmanager_secret): a type
// selected by name is not an attribute read.
var iacProviderPrefixes = wordSet{words: `aws google azurerm azuread kubernetes vault github random tls digitalocean
	cloudflare hcloud oci alicloud ibm helm null local`}

// iacSecretIdent reports whether an identifier (db_password, private_key_pem, client_secret)
// names a secret attribute.
func iacSecretIdent(id string) bool {
	parts := strings.Split(strings.ToLower(id), "_")
	if len(parts) > 2 && iacProviderPrefixes.has(parts[0]) {
		return false
	}
	for i, p := range parts {
		if iacSecretParts.has(p) {
			return true
		}
		if (p == "key" || p == "keys") && i > 0 && iacKeyQualifiers.has(parts[i-1]) {
			return true
		}
	}
	return false
}

// iacSecretInText returns the first identifier in text that names a secret attribute.
func iacSecretInText(text string) string {
	start := -1
	for i := 0; i <= len(text); i++ {
		word := i < len(text) && (text[i] == '_' || text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || text[i] >= '0' && text[i] <= '9')
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			if id := text[start:i]; iacSecretIdent(id) {
				return id
			}
			start = -1
		}
	}
	return ""
}

// iacDumpKind says what state dump a segment prints ("" when none): a full state, or
// outputs.
func iacDumpKind(s *Segment) string {
	if !iacStateTools.has(s.Name()) {
		return ""
	}
	w := s.subWords()
	switch {
	case len(w) >= 2 && w[0] == "state" && w[1] == "pull":
		return "state pull"
	case len(w) >= 1 && w[0] == "show" && s.arg("-json"):
		return "show -json"
	case len(w) >= 1 && w[0] == "output":
		return "output"
	}
	return ""
}

// iacStateSecrets says why a request reads secrets out of infrastructure state, "" if not.
// It judges the segment that prints the dump.
func iacStateSecrets(c *execCtx, s *Segment) string {
	if s.Name() == "pulumi" {
		w := s.subWords()
		if len(w) >= 2 && (w[0] == "stack" && (w[1] == "export" || w[1] == "output") || w[0] == "config") && s.arg("--show-secrets") {
			return "Runs pulumi " + strings.Join(w[:min(2, len(w))], " ") + " --show-secrets, which decrypts the stack's secrets into the output"
		}
		return ""
	}
	kind := iacDumpKind(s)
	if kind == "" {
		return ""
	}
	if kind == "output" {
		// terraform output NAME / -raw NAME prints one output's value, sensitive or not.
		w := s.subWords()
		for _, n := range w[1:] {
			if iacSecretIdent(n) {
				c.certainty = certaintyUnsure // one named secret: may be the stated debugging read (ask)
				return "Runs " + s.Name() + " output " + n + ", which prints a secret output's value"
			}
		}
		if !s.arg("-json") {
			return ""
		}
	}
	for _, o := range c.segs {
		if o == s || !iacSelectors.has(o.Name()) {
			continue
		}
		text := strings.Join(o.Args[1:], " ") + " " + o.Stdin
		if id := iacSecretInText(text); id != "" {
			if kind == "output" {
				c.certainty = certaintyUnsure // one output's value, not the whole store
			}
			return "Runs " + s.Name() + " " + kind + " and selects " + capText(id) + " out of it with " + o.Name() + ": a secret from infrastructure state"
		}
	}
	return ""
}
