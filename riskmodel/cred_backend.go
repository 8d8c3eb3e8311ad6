package riskmodel

import "strings"

// secretBackendDump reports a bulk read of the storage a secret manager keeps its secrets in,
// bypassing the manager: Vault's Consul storage backend (Vault writes under the KV prefix
// "vault/" by default, developer.hashicorp.com/vault/docs/configuration/storage/consul), a
// Consul KV subtree named for secrets, or the etcd keys under /registry/secrets where
// Kubernetes keeps every Secret (kubernetes.io/docs/tasks/administer-cluster/encrypt-data).
// docs/policy.md denies bulk secret dumps; reading a store's backend wholesale is one.
// consul kv export PREFIX and consul kv get -recurse PREFIX print every key under PREFIX
// (developer.hashicorp.com/consul/commands/kv/export); etcdctl get --prefix does the same.
func secretBackendDump(s *Segment) (string, bool) {
	n, a, b := s.Name(), s.sub(0), s.sub(1)
	switch {
	case n == "consul" && a == "kv" && (b == "export" || b == "get" && recurseFlag(s)):
		if secretPrefix(s.sub(2)) {
			return "Dumps a secret store's keys from Consul KV (consul kv " + b + " " + s.sub(2) + ")", true
		}
	case n == "etcdctl" && a == "get" && s.hasFlag("", "--prefix", "--from-key"):
		k := strings.TrimPrefix(b, "/")
		if strings.HasPrefix(k, "registry/secrets") {
			return "Dumps Kubernetes secrets straight from etcd (" + b + ")", true
		}
	}
	return "", false
}

// recurseFlag reports consul's -recurse flag (Go flag syntax: one or two dashes, =true).
func recurseFlag(s *Segment) bool {
	_, ok := s.argPrefix("-recurse", "--recurse")
	return ok
}

// secretPrefix reports a KV key prefix whose first component names a secret store: vault
// (Vault's default Consul path), secret(s), credential(s), creds, password(s).
func secretPrefix(p string) bool {
	first, _, _ := strings.Cut(strings.Trim(strings.ToLower(p), "/"), "/")
	return secretPrefixWords.has(first)
}

var secretPrefixWords = wordSet{words: `vault secret secrets credential credentials creds password passwords`}
