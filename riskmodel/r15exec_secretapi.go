package riskmodel

import (
	"regexp"
	"strings"
)

// Cloud secret managers are secret stores too, reached from interpreter code through their
// SDKs: boto3's Secrets Manager (get_secret_value, batch_get_secret_value) and SSM Parameter
// Store (get_parameter(s)/get_parameters_by_path with WithDecryption=True: without it a
// SecureString comes back encrypted), google-cloud-secret-manager's access_secret_version,
// azure-keyvault-secrets' SecretClient.get_secret, hvac's KV readers (read_secret_version,
// kv.read_secret), the kubernetes client's read/list_namespaced_secret, and the Node SDKs
// (@aws-sdk/client-secrets-manager's GetSecretValueCommand, @google-cloud/secret-manager's
// accessSecretVersion, @azure/keyvault-secrets' getSecret, node-vault's read). Each returns a
// secret value exactly as `aws secretsmanager get-secret-value` prints one, so codeSecretReads
// reports it and the credential flow judges what the code does with it: kept local it is a
// secret read, sent to a host that is not the project's own it is exfiltration
// (docs/policy.md). Sources: the SDKs' API references (boto3 SecretsManager.Client,
// SSM.Client.get_parameter; google.cloud.secretmanager_v1.SecretManagerServiceClient;
// azure.keyvault.secrets.SecretClient; hvac secrets_engines.kv_v2; kubernetes-client
// CoreV1Api). Listing names (list_secrets alone) returns no value and is not matched.
var cloudSecretAPICalls = table[map[string][]secretAPICall]{build: func() map[string][]secretAPICall {
	re := regexp.MustCompile
	return map[string][]secretAPICall{
		"python": {
			{"boto3", re(`\.(?:batch_)?get_secret_value\s*\(`)},
			{"boto3", re(`\.get_parameters?(?:_by_path)?\s*\([^)]*WithDecryption\s*=\s*True`)},
			{"secretmanager", re(`\.access_secret_version\s*\(`)},
			{"keyvault", re(`\.get_secret\s*\(`)},
			{"hvac", re(`\.(?:read_secret_version|read_secret|read)\s*\(`)},
			{"kubernetes", re(`\.(?:read|list)_namespaced_secret\s*\(|\.list_secret_for_all_namespaces\s*\(`)},
		},
		"node": {
			{"secrets-manager", re(`\b(?:Batch)?GetSecretValueCommand\b|\.getSecretValue\s*\(`)},
			{"secret-manager", re(`\.accessSecretVersion\s*\(`)},
			{"keyvault-secrets", re(`\.getSecret\s*\(`)},
			{"node-vault", re(`\.read\s*\(`)},
			{"client-ssm", re(`\bGetParameters?(?:ByPath)?Command\b[\s\S]*WithDecryption\s*:\s*true`)},
		},
	}
}}

// codeCloudSecretReads returns the cloud secret-manager SDK calls in code, as the text of
// each call.
func codeCloudSecretReads(lang, code string) []string {
	var out []string
	for _, c := range cloudSecretAPICalls.get()[lang] {
		if !strings.Contains(code, c.module) {
			continue
		}
		if m := c.call.FindString(code); m != "" {
			out = append(out, m)
		}
	}
	return out
}
