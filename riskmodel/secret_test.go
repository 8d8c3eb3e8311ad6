package riskmodel

import (
	"regexp"
	"strings"
	"testing"
)

func TestFindSecrets(t *testing.T) {
	tests := []struct {
		name string
		in   string
		kind string
		// secret is the exact text that must be reported (and redacted).
		secret string
	}{
		{"private key block", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----\nafter",
			"private-key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----"},
		{"openssh key, JSON-escaped newlines", `{"content":"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\n"}`,
			"private-key", `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----`},
		{"truncated private key", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBd", "private-key", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBd"},
		{"aws access key id", "id AKIAIOSFODNN7EXAMPLE here", "aws-access-key-id", "AKIAIOSFODNN7EXAMPLE"},
		{"aws session key id", "ASIAY34FZKBOKMUTVV7A", "aws-access-key-id", "ASIAY34FZKBOKMUTVV7A"},
		{"aws secret key ini", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n", "aws-secret-key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
		{"aws secret key env", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws-secret-key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
		{"github classic", "token ghp_16C7e42F292c6912E7710c838347Ae178B4a ok", "github-token", "ghp_16C7e42F292c6912E7710c838347Ae178B4a"},
		{"github oauth", "gho_16C7e42F292c6912E7710c838347Ae178B4a", "github-token", "gho_16C7e42F292c6912E7710c838347Ae178B4a"},
		{"github app", "ghs_16C7e42F292c6912E7710c838347Ae178B4a", "github-token", "ghs_16C7e42F292c6912E7710c838347Ae178B4a"},
		{"github fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH", "github-token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH"},
		{"openai project", "OPENAI: sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z", "openai-key", "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"},
		{"openai legacy", "sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKl", "api-key", "sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKl"},
		{"anthropic", "x-api-key: sk-ant-api03-Zy9_Xw8-Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa", "anthropic-key", "sk-ant-api03-Zy9_Xw8-Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa"},
		{"slack bot", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "slack-token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"},
		{"slack user", "xoxp-123456789012-abcdef", "slack-token", "xoxp-123456789012-abcdef"},
		{"slack webhook", "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "slack-webhook", "hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"},
		{"stripe live", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe-key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"},
		{"stripe restricted", "rk_live_51H8abcdefGHIJKLmnop", "stripe-key", "rk_live_51H8abcdefGHIJKLmnop"},
		{"stripe test", "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "stripe-key", "sk_test_4eC39HqLyjWDarjtT1zdp7dc"},
		{"google api key", "key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&x", "google-api-key", "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI"},
		{"jwt", "cookie eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c end",
			"jwt", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"},
		{"bearer header", `curl -H "Authorization: Bearer 0a1b2c3d4e5f6a7b8c9d" https://api.example.com`, "auth-header", "0a1b2c3d4e5f6a7b8c9d"},
		{"basic header", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "auth-header", "dXNlcjpwYXNzd29yZA=="},
		{"bare bearer", "use Bearer AbCdEf0123456789XyZ", "auth-header", "AbCdEf0123456789XyZ"},
		{"url password", "postgres://admin:S3cr3tPass@db.internal:5432/app", "url-password", "S3cr3tPass"},
		{"url password https", "git clone https://bob:hunter2x@github.com/org/repo", "url-password", "hunter2x"},
		{"curl -u", "curl -u admin:opensesame https://x", "basic-credentials", "opensesame"},
		{"query password", "https://example.com/login?user=bob&password=hunter2&next=/", "password", "hunter2"},
		{"query token", "https://example.com/api?token=abc123def456", "token", "abc123def456"},
		{"query api_key", "https://example.com/api?api_key=abcd1234efgh", "api-key", "abcd1234efgh"},
		{"query apikey", "https://example.com/api?apikey=abcd1234efgh", "api-key", "abcd1234efgh"},
		{"query secret", "https://example.com/cb?secret=qwerty123", "secret", "qwerty123"},
		{"query passwd", "https://example.com/?passwd=letmein1", "password", "letmein1"},
		{"token after rejected key", "url=https://h/?token=s3cr3tvalue", "token", "s3cr3tvalue"},
		{"env assignment", "export DB_PASSWORD=correct-horse-battery", "password", "correct-horse-battery"},
		{"env quoted", `MY_API_KEY="q8Zr2LmN5pT7"`, "api-key", "q8Zr2LmN5pT7"},
		{"env client secret", "CLIENT_SECRET=0f9e8d7c6b5a", "secret", "0f9e8d7c6b5a"},
		{"npmrc", "//registry.npmjs.org/:_authToken=npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "npm-token", "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"},
		{"json password", `{"user": "bob", "password": "hunter2"}`, "password", "hunter2"},
		{"json token escaped", `{"access_token": "ab\"cd1234"}`, "token", `ab\"cd1234`},
		{"python dict", `{'db_password': 'Tr0ub4dor&3'}`, "password", "Tr0ub4dor&3"},
		{"yaml", "database:\n  password: Xk29vL0q\n", "password", "Xk29vL0q"},
		{"flag", "mysql --password s3kr1t! -h db", "password", "s3kr1t!"},
		{"flag equals", "tool --api-key=AbC123xYz789", "api-key", "AbC123xYz789"},
		{"weak key high entropy", `{"signing_salt": "8fK2pQz9Lm4Vx7Rt1Yb6Nc3Wd5Hs0Ja2"}`, "high-entropy-secret", "8fK2pQz9Lm4Vx7Rt1Yb6Nc3Wd5Hs0Ja2"},
		{"weak key auth", "AUTH=8fK2pQz9Lm4Vx7Rt1Yb6Nc3Wd5Hs0Ja2Qe", "high-entropy-secret", "8fK2pQz9Lm4Vx7Rt1Yb6Nc3Wd5Hs0Ja2Qe"},
		{"uuid under strong key", `{"api_key": "123e4567-e89b-12d3-a456-426614174000"}`, "api-key", "123e4567-e89b-12d3-a456-426614174000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := FindSecrets(tt.in)
			found := false
			for _, m := range ms {
				if tt.in[m.Start:m.End] == tt.secret {
					found = true
					if m.Kind != tt.kind {
						t.Errorf("kind = %q, want %q", m.Kind, tt.kind)
					}
				}
			}
			if !found {
				var got []string
				for _, m := range ms {
					got = append(got, m.Kind+":"+tt.in[m.Start:m.End])
				}
				t.Fatalf("FindSecrets(%q) = %q, want %s %q", tt.in, got, tt.kind, tt.secret)
			}
			out := RedactSecrets(tt.in)
			if strings.Contains(out, tt.secret) {
				t.Errorf("RedactSecrets left the secret: %q", out)
			}
			if !strings.Contains(out, "[REDACTED:") {
				t.Errorf("RedactSecrets wrote no marker: %q", out)
			}
			if again := RedactSecrets(out); again != out {
				t.Errorf("redaction not stable: %q → %q", out, again)
			}
		})
	}
}

func TestFindSecretsNoFalsePositives(t *testing.T) {
	clean := []string{
		"git checkout 3f786850e387550fdab836ed7e6dc881de23001b",
		"commit: 3f786850e387550fdab836ed7e6dc881de23001b",
		`{"sha": "3f786850e387550fdab836ed7e6dc881de23001b", "ref": "main"}`,
		"request id 123e4567-e89b-12d3-a456-426614174000",
		`{"id": "123e4567-e89b-12d3-a456-426614174000", "session_id": "123e4567-e89b-12d3-a456-426614174000"}`,
		"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"The password is required and the token expires in an hour.",
		"Reset your password: see the docs",
		"password: required\ntoken: optional",
		"max_tokens=4096 temperature=0.2",
		"MAX_TOKENS=4096 TOKEN_LIMIT=100000 PASSWORD_MIN_LENGTH=12",
		`{"max_tokens": "4096", "token_count": "12", "next_page_token": "CAESBggBEAEYAQ", "password_policy": "strong"}`,
		"PWD=/home/dev/project OLDPWD=/home/dev",
		"export GITHUB_TOKEN=$(gh auth token)",
		"password=$DB_PASSWORD token=${TOKEN} api_key=<your-key> secret={{ secrets.X }}",
		"token: ${{ secrets.GITHUB_TOKEN }}",
		`{"password": {"type": "string", "description": "the user's password"}}`,
		`{"password": "", "token": null}`,
		"password=******** token=xxxxxxxxxxxx",
		"pip install scikit-learn; sk-learn-style-identifier-without-digits-here",
		"task-management-system-design-document-v2",
		"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 user@host",
		"git@github.com:org/repo.git https://github.com/org/repo",
		"https://example.com:8080/path?q=search&page=2",
		"the bearer of bad news",
		"AKIA is a prefix; AKIASHORT",
		"keyboard=us keyword=search primary_key=id",
		"ghp_short",
		"secret_name=prod-db-credentials",
		"passwordless login enabled",
		"key: 0123456789abcdef0123456789abcdef01234567",
		`{"cache_key": "user:42:profile", "idempotency_key": "order-2024-11-21-0001"}`,
		"",
	}
	for _, s := range clean {
		if ms := FindSecrets(s); len(ms) > 0 {
			var got []string
			for _, m := range ms {
				got = append(got, m.Kind+":"+s[m.Start:m.End])
			}
			t.Errorf("FindSecrets(%q) = %q, want none", s, got)
		}
		if out := RedactSecrets(s); out != s {
			t.Errorf("RedactSecrets(%q) = %q, want unchanged", s, out)
		}
	}
}

func TestRedactSecretsKeepsContext(t *testing.T) {
	in := "curl -H 'Authorization: Bearer 0a1b2c3d4e5f6a7b8c9d' https://admin:S3cr3tPass@api.example.com/?token=abc123def456 # then echo S3cr3tPass"
	want := "curl -H 'Authorization: Bearer [REDACTED:auth-header]' https://admin:[REDACTED:url-password]@api.example.com/?token=[REDACTED:token] # then echo [REDACTED:url-password]"
	if got := RedactSecrets(in); got != want {
		t.Errorf("RedactSecrets:\n got %q\nwant %q", got, want)
	}
}

func TestFindSecretsOrderedAndDisjoint(t *testing.T) {
	in := "A=1 GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a AKIAIOSFODNN7EXAMPLE password=hunter2x"
	ms := FindSecrets(in)
	if len(ms) != 3 {
		t.Fatalf("got %d matches %+v, want 3", len(ms), ms)
	}
	for i := 1; i < len(ms); i++ {
		if ms[i].Start < ms[i-1].End {
			t.Errorf("matches overlap or are unordered: %+v", ms)
		}
	}
}

// BenchmarkRedactSecretsAdversarial runs inputs that make backtracking regexp engines
// explode; with RE2 the time per byte stays flat. Run:
// go test -run '^$' -bench RedactSecretsAdversarial -benchmem ./riskmodel
func BenchmarkRedactSecretsAdversarial(b *testing.B) {
	inputs := map[string]string{
		"assignments":   strings.Repeat("a=", 200000),
		"pem-headers":   strings.Repeat("-----BEGIN PRIVATE KEY-----", 20000),
		"url-userinfo":  "https://" + strings.Repeat("u:", 100000) + "@",
		"json-password": strings.Repeat(`"password": "`, 50000),
		"jwt-prefixes":  strings.Repeat("eyJabcde.", 50000),
		"plain-1MiB":    strings.Repeat("x", 1<<20),
	}
	for name, in := range inputs {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				_ = RedactSecrets(in)
			}
		})
	}
}

var secMarkerRE = regexp.MustCompile(`\[REDACTED:[a-z0-9\-]+\]`)

func FuzzRedactSecrets(f *testing.F) {
	for _, s := range []string{
		"export GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a",
		"postgres://admin:S3cr3tPass@db/app?password=abc12345",
		`{"password": "hunter2024", "x": "hunter2024"}`,
		"-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----",
		"Authorization: Bearer 0a1b2c3d4e5f6a7b8c9d",
		"AKIAIOSFODNN7EXAMPLE aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"password=abcdefgh zzabcdefghAKIAIOSFODNN7EXAMPLE",
		"token: [REDACTED:token]",
		"sk-ant-api03-Zy9_Xw8-Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) {
			return
		}
		ms := FindSecrets(s)
		prev := 0
		for _, m := range ms {
			if m.Start < prev || m.End <= m.Start || m.End > len(s) || m.Kind == "" {
				t.Fatalf("bad match %+v in %q (prev end %d)", m, s, prev)
			}
			prev = m.End
		}
		out := RedactSecrets(s)
		masked := secMarkerRE.ReplaceAllString(out, "\x00")
		for _, m := range ms {
			if secret := s[m.Start:m.End]; len(secret) >= 8 && strings.Contains(masked, secret) {
				t.Fatalf("secret %q (%s) survives redaction: %q → %q", secret, m.Kind, s, out)
			}
		}
		if again := RedactSecrets(out); again != out {
			t.Fatalf("not stable: %q → %q → %q", s, out, again)
		}
	})
}

// FuzzSecYAMLKeyLine checks that secYAMLKeyLine never skips text on which the YAML-key
// detector's expression finds a key that names a secret.
func FuzzSecYAMLKeyLine(f *testing.F) {
	for _, s := range []string{"password: hunter2", "  - api_key:\tx", "rule: fs.delete", "a\ntoken : v", "x: y\n-- secret: z", "url: http://a:b", "-\t-Token:  v"} {
		f.Add(s)
	}
	var yaml *secKeyedDetector
	for i := range secKeyedDetectors {
		if secKeyedDetectors[i].style == 'y' {
			yaml = &secKeyedDetectors[i]
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		if secYAMLKeyLine(s) {
			return
		}
		for _, m := range yaml.re().FindAllStringSubmatchIndex(s, -1) {
			if key := s[m[2]:m[3]]; secSecretKeyStrength(key) != secKeyNone {
				t.Fatalf("secYAMLKeyLine(%q) = false, but the detector finds the key %q", s, key)
			}
		}
	})
}
