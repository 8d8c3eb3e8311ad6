package riskmodel

import (
	"slices"
	"strings"
	"testing"
)

// TestCLIGlobalTable keeps the data honest: each entry names its source, each option is an
// option, and no command is listed twice.
func TestCLIGlobalTable(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range cliGlobalTable {
		if seen[g.cmd] {
			t.Errorf("%s listed twice", g.cmd)
		}
		seen[g.cmd] = true
		if !strings.HasPrefix(g.source, "https://") {
			t.Errorf("%s: source %q is not a reference", g.cmd, g.source)
		}
		for _, o := range g.opts {
			if !strings.HasPrefix(o, "-") || strings.Contains(o, "=") {
				t.Errorf("%s: %q is not an option name", g.cmd, o)
			}
		}
	}
}

// TestGlobalOptionsSkipped: the subcommand is found behind each CLI's global options and
// their values (security review class 11).
func TestGlobalOptionsSkipped(t *testing.T) {
	cases := []struct {
		argv string
		want string // the first two positional words
	}{
		// kubectl: https://kubernetes.io/docs/reference/kubectl/kubectl/
		{"kubectl -n prod get secret x", "get secret"},
		{"kubectl --context prod-eu --namespace kube-system describe secrets", "describe secrets"},
		{"kubectl --kubeconfig /etc/k/admin.conf -s https://k8s:6443 --as system:admin delete ns x", "delete ns"},
		{"kubectl get pods -l app=web -n staging", "get pods"},
		{"kubectl logs -f api-0", "logs api-0"}, // -f is --follow in logs: not a value option
		{"oc -n openshift-config get secret pull-secret", "get secret"},
		// helm: https://helm.sh/docs/helm/helm/
		{"helm --kube-context prod -n payments uninstall api", "uninstall api"},
		// aws: https://docs.aws.amazon.com/cli/latest/reference/
		{"aws --profile prod --region eu-west-1 s3 rm s3://b", "s3 rm"},
		{"aws --endpoint-url http://localhost:4566 --output json secretsmanager get-secret-value", "secretsmanager get-secret-value"},
		// gcloud: https://cloud.google.com/sdk/gcloud/reference
		{"gcloud --project prod-123 --impersonate-service-account sa@x.iam auth print-access-token", "auth print-access-token"},
		// az: https://learn.microsoft.com/en-us/cli/azure/reference-index
		{"az --subscription prod -o tsv account get-access-token", "account get-access-token"},
		// docker: https://docs.docker.com/reference/cli/docker/
		{"docker -H tcp://10.0.0.5:2375 run --privileged alpine", "run alpine"},
		{"docker --context prod -c x exec -it db sh", "exec db"},
		{"docker compose -f prod.yml -p shop down -v", "compose down"},
		// git: https://git-scm.com/docs/git
		{"git -C ../other -c user.name=x push --force origin main", "push origin"},
		{"git --git-dir /srv/repo.git --work-tree /srv/www checkout -f", "checkout"},
		{"git grep -C 3 TODO", "grep 3"}, // after the subcommand -C is grep's own: not skipped
		// gh / glab: https://cli.github.com/manual/gh_repo
		{"gh -R acme/app repo edit --visibility public", "repo edit"},
		{"glab -R acme/app api -X DELETE projects/1", "api DELETE"},
		// npm/pnpm/cargo/go: their CLI references
		{"npm --prefix ../other run build", "run build"},
		{"pnpm --filter web -C apps exec rm -rf dist", "exec rm"},
		{"cargo --manifest-path ../x/Cargo.toml -Z unstable-options publish", "publish"},
		{"go -C ../tool run .", "run ."},
	}
	for _, tc := range cases {
		s := &Segment{Args: strings.Fields(tc.argv)}
		p := s.positional(0)
		got := strings.Join(p[:min(2, len(p))], " ")
		if got != tc.want {
			t.Errorf("%s: positional = %q, want %q", tc.argv, got, tc.want)
		}
	}
}

// TestGlobalOptionVerdicts: the rules see the real subcommand.
func TestGlobalOptionVerdicts(t *testing.T) {
	runExecCases(t, []execCase{
		{"kubectl -n prod get secret db-creds -o yaml", Deny, "cred.secret-store", ""},
		{"kubectl --context prod describe secret api-keys", Allow, "cloud.read", "cred.secret-store"}, // keys and sizes, no values
		{"kubectl --context prod get secret api-keys -o yaml", Deny, "cred.secret-store", ""},
		{"gcloud --project prod-123 auth print-access-token", Deny, "cred.secret-store", ""},
		{"aws --profile prod secretsmanager get-secret-value --secret-id db", Deny, "cred.secret-store", ""},
		{"gh -R acme/app pr list", Allow, "base.cli-read", ""},
		{"kubectl -n staging get pods", Allow, "", "cred.secret-store"},
	})
}

func TestGlobalOptionScannerLevels(t *testing.T) {
	sc := newCLIOptScanner("docker")
	if !sc.takesValue("-H") {
		t.Fatal("docker -H takes a value before the subcommand")
	}
	sc.positional("compose")
	if sc.takesValue("-H") || !sc.takesValue("-f") {
		t.Fatal("after `docker compose`, compose's options apply and docker's do not")
	}
	if !slices.Contains(cliGlobalIndex.get()["git"].opts, "-C") {
		t.Fatal("git -C missing")
	}
}
