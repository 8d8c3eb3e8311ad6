package riskmodel

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestCloudVerdicts(t *testing.T) {
	runExecCases(t, []execCase{
		// Reading infrastructure is allowed.
		{"kubectl get pods -n staging", Allow, "cloud.read", ""},
		{"kubectl logs deploy/api -n staging --tail=200", Allow, "cloud.read", ""},
		{"kubectl get deploy -n production -o wide", Allow, "cloud.read", ""},
		{"terraform plan -out tfplan", Allow, "cloud.read", ""},
		{"terraform validate", Allow, "cloud.read", ""},
		{"helm template charts/api --values charts/api/values-staging.yaml", Allow, "cloud.read", ""},
		{"aws s3 ls s3://acme-build-artifacts/webapp/", Allow, "cloud.read", ""},
		{"aws sts get-caller-identity", Allow, "cloud.read", ""},
		{"gcloud run services list", Allow, "cloud.read", "cloud.change"},
		{"docker compose logs --tail 100 api", Allow, "cloud.read", ""},
		{"kubectl apply -f k8s/ --dry-run=server", Allow, "cloud.read", "cloud.change"},
		// Secrets are the credential rules' business, not a plain read.
		{"kubectl get secret db-creds -n production -o yaml", Deny, "cred.secret-store", "cloud.read"},
		{"helm get values api -n production", Ask, "cloud.read-values", "cloud.read"},
		// Changes to shared systems are asked about.
		{"kubectl apply -f k8s/ -n staging", Ask, "cloud.change", ""},
		{"kubectl apply -f k8s/overlays/production/", Ask, "cloud.change", ""},
		{"kubectl rollout restart deployment/api -n production", Ask, "cloud.change", ""},
		{"terraform apply tfplan", Ask, "cloud.change", ""},
		{"helm upgrade --install api charts/api -n production -f charts/api/values-prod.yaml", Ask, "cloud.change", ""},
		{"aws s3 sync ./site s3://acme-web-prod --delete", Ask, "cloud.change", ""},
		{"stripe refunds create --charge ch_3NqFz2LkdIwHu7ix0abc", Ask, "cloud.change", ""},
		{"npx cdk deploy", Ask, "cloud.change", ""},
		{"vercel --prod", Ask, "cloud.change", "cloud.deploy-preview"},
		{"vercel", Ask, "cloud.deploy-preview", "cloud.change"},
		{"kubectl config use-context prod", Ask, "cloud.config-switch", ""},
		{"sudo kubectl --kubeconfig /etc/k8s/admin.conf drain node-3", Ask, "cloud.change", ""},
		// Tearing environments down is denied.
		{"terraform destroy -auto-approve", Deny, "cloud.destroy", ""},
		{"kubectl delete ns production", Deny, "cloud.destroy", ""},
		{"bash -c 'kubectl delete deploy --all -n prod'", Deny, "cloud.destroy", ""},
		{"aws-vault exec prod -- terraform apply -destroy", Deny, "cloud.destroy", ""},
		{"aws s3 rm s3://acme-prod-backups --recursive", Deny, "cloud.destroy-data", ""},
		{"kubectl delete pvc --all -n production", Deny, "cloud.destroy-data", ""},
		{"gcloud sql instances delete prod-main --quiet", Deny, "cloud.destroy-data", ""},
		{"helm uninstall api -n staging", Ask, "cloud.change", "cloud.destroy"},
		{"terraform plan -destroy", Allow, "cloud.read", "cloud.destroy"},
	})
}

func TestCloudContainerVerdicts(t *testing.T) {
	runExecCases(t, []execCase{
		{"docker ps", Allow, "cloud.read", ""},
		{"docker system df", Allow, "cloud.read", ""},
		{"docker compose up -d db", Allow, "container.run", ""},
		{"docker run --rm -p 5432:5432 -e POSTGRES_PASSWORD=test postgres:16", Allow, "container.run", "container.secrets"},
		{"docker run --rm -v \"$PWD\":/src -w /src golang:1.22 go test ./...", Allow, "container.run", "container.host-access"},
		{"docker compose down", Allow, "container.run", "container.volume-delete"},
		{"docker rm -f webapp-dev", Allow, "container.remove", ""},
		{"docker rm -f $(docker ps -aq)", Ask, "container.prune", ""},
		{"docker volume rm billing-service_pgdata", Ask, "container.volume-delete", ""},
		{"docker system prune -a --volumes -f", Deny, "container.volume-delete", ""},
		{"docker compose down -v", Ask, "container.volume-delete", ""},
		{"docker run --rm --privileged -v /dev:/dev alpine fdisk -l", Deny, "container.privileged", ""},
		{"docker run --rm -v /:/host alpine ls /host/etc", Deny, "container.privileged", "container.escape"},
		{"docker run --rm -it -v $HOME:/data alpine sh", Ask, "container.privileged", ""},
		{"sudo docker run -v /var/run/docker.sock:/var/run/docker.sock docker:cli ps", Deny, "container.privileged", ""},
		{"docker run --rm -e AWS_SECRET_ACCESS_KEY -e AWS_ACCESS_KEY_ID ghcr.io/unknown-org/s3-helper sync", Ask, "container.secrets", ""},
		{"docker run --network host nginx", Ask, "container.host-access", ""},
		{"docker run --rm --privileged -v /:/host alpine chroot /host sh -c 'echo \"agent::0:0::/root:/bin/sh\" >> /etc/passwd'", Deny, "container.escape", ""},
		{"docker run -it --pid=host --privileged alpine nsenter -t 1 -m -u -i -n sh", Deny, "container.escape", ""},
	})
}

func TestCloudDatabaseVerdicts(t *testing.T) {
	runExecCases(t, []execCase{
		{"sqlite3 dev.db .tables", Allow, "db.read", ""},
		{"psql postgres://localhost:5432/app_dev -c 'SELECT count(*) FROM users'", Allow, "db.read", ""},
		{"psql -c 'SELECT * FROM products'", Allow, "db.read", "db.prod-read"},
		{"redis-cli -h localhost ping", Allow, "db.read", ""},
		{"psql -c \"SELECT 'DROP TABLE users'\"", Allow, "db.read", "db.destructive"},
		{"psql -c 'EXPLAIN SELECT * FROM t'", Allow, "db.read", ""},
		{"mysql -h prod-db.acme.internal -u readonly -e 'SELECT count(*) FROM orders'", Ask, "db.prod-read", ""},
		{"python manage.py migrate", Allow, "db.migrate", ""},
		{"bundle exec rails db:migrate", Allow, "db.migrate", ""},
		{"psql -h localhost -c \"UPDATE t SET a = 1 WHERE id = 1\"", Allow, "db.local-write", "db.write-prod"}, // a dev database on this machine (rules_dblocal.go)
		{"psql -d app -c \"UPDATE t SET a = 1 WHERE id = 1\"", Ask, "db.write", "db.write-prod"},
		{"psql \"$DATABASE_URL\" -c \"UPDATE users SET plan='pro' WHERE id=42\"", Ask, "db.write-prod", ""},
		{"DATABASE_URL=postgres://app@prod-db.acme.internal/app psql -c 'INSERT INTO t VALUES (1)'", Ask, "db.write-prod", ""},
		{"RAILS_ENV=production bundle exec rails db:migrate", Ask, "db.write-prod", "db.migrate"},
		{"npx prisma migrate deploy", Ask, "db.write-prod", ""},
		{"cat dump.sql | psql app_dev", Ask, "db.write", ""},
		{"psql $PROD_DATABASE_URL -c 'DROP TABLE users'", Deny, "db.destructive", ""},
		{"redis-cli -h prod-cache.acme.internal FLUSHALL", Deny, "db.destructive", ""},
		{"mongosh mongodb://mongo.example.net/app --eval 'db.dropDatabase()'", Deny, "db.destructive", ""}, // mongosh app is localhost:27017 (TestGaps8DataStoreHosts)
		{"psql -c 'SELECT 1; DROP TABLE x'", Deny, "db.destructive", ""},
		{"psql -c 'EXPLAIN ANALYZE DELETE FROM t'", Deny, "db.destructive", ""},
		{"mysql -e \"SELECT 'a\\\\'; DROP TABLE x; -- '\"", Deny, "db.destructive", ""},
		{"psql app <<'SQL'\nBEGIN;\nTRUNCATE orders;\nCOMMIT;\nSQL", Deny, "db.destructive", ""},
		{"echo 'DELETE FROM sessions' | psql", Deny, "db.destructive", ""},
		{"sudo -u postgres psql -c 'DROP DATABASE app'", Deny, "db.destructive", ""},
		{"docker compose exec db psql -U postgres -c 'DROP DATABASE app'", Deny, "db.destructive", ""},
		{"kubectl exec -it pod/redis-0 -n prod -- redis-cli FLUSHDB", Deny, "db.destructive", ""},
		{"rails db:reset", Allow, "db.local-reset", "db.destructive"},
		{"npx prisma migrate reset --force", Allow, "db.local-reset", "db.destructive"},
		{"RAILS_ENV=production rails db:reset", Deny, "db.destructive", "db.local-reset"},
		{"DATABASE_URL=postgres://u@db.example.com/app npx prisma migrate reset --force", Deny, "db.destructive", "db.local-reset"},
		{"dropdb app_dev", Deny, "db.destructive", ""},
	})
}

func TestCloudRuleExamples(t *testing.T) {
	fails, n := TestRules(context.Background())
	if n == 0 {
		t.Fatal("no rule examples ran")
	}
	count := 0
	a, _ := New(Policy{})
	for _, r := range a.Rules() {
		if strings.HasPrefix(r.ID, "cloud.") || strings.HasPrefix(r.ID, "db.") || strings.HasPrefix(r.ID, "container.") {
			count++
			if len(r.Match) < 3 || len(r.NoMatch) < 2 {
				t.Errorf("%s has %d match and %d no-match examples; want at least 3 and 2", r.ID, len(r.Match), len(r.NoMatch))
			}
		}
	}
	if count == 0 {
		t.Fatal("no cloud, db or container rules")
	}
	for _, f := range fails {
		if strings.HasPrefix(f.RuleID, "cloud.") || strings.HasPrefix(f.RuleID, "db.") || strings.HasPrefix(f.RuleID, "container.") {
			t.Error(f)
		}
	}
}

func TestCloudSQLAnalyze(t *testing.T) {
	tests := []struct {
		sql                string
		destructive, write bool
	}{
		{"SELECT * FROM users", false, false},
		{"select 'drop table x' as s", false, false},
		{"-- drop table x\nselect 1", false, false},
		{"/* truncate t */ select 1", false, false},
		{"DROP TABLE users", true, false},
		{"drop table if exists users cascade", true, false},
		{"DROP INDEX idx_a", false, true},
		{"TRUNCATE TABLE orders", true, false},
		{"DELETE FROM sessions", true, false},
		{"DELETE FROM sessions WHERE id = 1", false, true},
		{"UPDATE users SET a = 1", false, true},
		{"insert into t values (1)", false, true},
		{"WITH d AS (DELETE FROM t WHERE x RETURNING *) SELECT * FROM d", false, true},
		{"EXPLAIN ANALYZE DELETE FROM t", true, false},
		{"explain delete from t", false, false},
		{"\\dt\n\\d users", false, false},
		{"\\! rm -rf /", false, true},
		{"SELECT 1; DROP SCHEMA public CASCADE", true, false},
		{"select 'it''s'; drop table users", true, false},
		{`select 'a\'; drop table x; -- '`, true, false}, // MySQL reading hides nothing
		{"SELECT pg_terminate_backend(42)", false, true},
		{"frobnicate everything", false, true},
		{"BEGIN; COMMIT;", false, false},
	}
	for _, tc := range tests {
		v := sqlAnalyze(tc.sql)
		if (v.destructive != "") != tc.destructive || !tc.destructive && (v.write != "") != tc.write {
			t.Errorf("sqlAnalyze(%q) = %+v, want destructive=%v write=%v", tc.sql, v, tc.destructive, tc.write)
		}
	}
}

// BenchmarkCloudSQLAdversarial scans 200,000 repetitions of units that trip quadratic
// scanners; time per byte stays flat. go test -run '^$' -bench CloudSQL ./riskmodel
func BenchmarkCloudSQLAdversarial(b *testing.B) {
	for _, unit := range []string{"'", "\\'", "/*", "--", "\"", "$$", "a;", "\\d\n", "'';"} {
		big := strings.Repeat(unit, 200_000) + " DROP TABLE x"
		b.Run(fmt.Sprintf("%q", unit), func(b *testing.B) {
			b.SetBytes(int64(len(big)))
			for b.Loop() {
				sqlAnalyze(big)
			}
		})
	}
}

func TestCloudProdLike(t *testing.T) {
	for w, want := range map[string]bool{"prod": true, "prod-db.acme.internal": true, "acme_production": true, "$PROD_DATABASE_URL": true,
		"values-prod.yaml": true, "eu-prd-1": true, "products": false, "reproduce": false, "production": true, "staging": false,
		"app_dev": false, "product_db": false, "k8s/overlays/production/": true} {
		if got := prodLike(w); got != want {
			t.Errorf("prodLike(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestCloudOddInputs feeds degenerate argv to every cloud, container and db rule: none may
// panic.
func TestCloudOddInputs(t *testing.T) {
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, argv := range [][]string{{"kubectl"}, {"kubectl", "delete"}, {"kubectl", "exec", "--"}, {"helm", "get"}, {"terraform", "run-all"},
		{"aws"}, {"aws", "s3"}, {"aws", "s3", "cp"}, {"gcloud"}, {"gcloud", "storage"}, {"gsutil", "rm"}, {"bq"}, {"az"}, {"doctl", "compute"},
		{"heroku"}, {"fly"}, {"vercel", "env"}, {"firebase"}, {"supabase", "db"}, {"wrangler", "d1"}, {"docker"}, {"docker", "run"},
		{"docker", "run", "-v"}, {"docker", "run", "-v", "/:"}, {"docker", "compose"}, {"docker", "exec"}, {"docker", "volume"},
		{"docker-compose"}, {"psql", "-c"}, {"psql", "-f"}, {"mysql", "-e"}, {"sqlite3"}, {"redis-cli"}, {"mongosh", "--eval"},
		{"dropdb"}, {"mysqladmin"}, {"rails"}, {"python", "manage.py"}, {"alembic"}, {"prisma", "migrate"}, {"stripe"},
		{"ansible"}, {"kind"}, {"pg_restore"}, {"cockroach"}, {"clickhouse"}, {"psql", "-c", "\\"}, {"psql", "-c", "'"}, {"psql", "-c", ";;;"}} {
		v := a.Exec(context.Background(), ExecRequest{Command: argv, Cwd: ExampleCwd})
		for _, f := range v.Assessment.Findings {
			if strings.Contains(f.Message, "failed on this command") {
				t.Errorf("%v: %s", argv, f.Message)
			}
		}
	}
}

// TestCloudConcurrentAnalyses runs requests in parallel: the per-segment memo shared by the
// rules must never hand one request's analysis to another.
func TestCloudConcurrentAnalyses(t *testing.T) {
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	cmds := []string{"terraform destroy -auto-approve", "terraform plan", "npm ci", "npm publish", "docker ps", "docker volume rm x",
		"psql -c 'select 1'", "psql -c 'drop table x'", "kubectl get pods", "kubectl delete ns prod", "pip install --user x", "go test ./..."}
	want := map[string]Decision{}
	for _, c := range cmds {
		want[c] = a.Exec(context.Background(), ExecRequest{Command: []string{"bash", "-c", c}, Cwd: ExampleCwd}).Decision
	}
	done := make(chan string, 8*len(cmds))
	for w := 0; w < 8; w++ {
		go func(w int) {
			for i := range cmds {
				c := cmds[(i+w)%len(cmds)]
				if got := a.Exec(context.Background(), ExecRequest{Command: []string{"bash", "-c", c}, Cwd: ExampleCwd}).Decision; got != want[c] {
					done <- c + ": got " + got.String() + ", want " + want[c].String()
					continue
				}
				done <- ""
			}
		}(w)
	}
	for i := 0; i < 8*len(cmds); i++ {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}
