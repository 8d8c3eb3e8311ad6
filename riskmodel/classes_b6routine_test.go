package riskmodel

import (
	"context"
	"slices"
	"testing"
)

// routineCase is one request of a routine-versus-question class, with the decision the
// default mapping must give (docs/policy.md) and, optionally, the rule that must decide it.
type routineCase struct {
	cwd    string // "" is /home/dev/proj
	src    string // a bash -c script
	want   Decision
	rule   string
	source string // where the usage comes from
}

func runRoutineCases(t *testing.T, cases []routineCase) {
	t.Helper()
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		cwd := tc.cwd
		if cwd == "" {
			cwd = "/home/dev/proj"
		}
		t.Run(tc.src, func(t *testing.T) {
			v := a.Exec(context.Background(), ExecRequest{Command: []string{"bash", "-c", tc.src}, Cwd: cwd})
			ids := ruleIDs(v)
			if v.Decision != tc.want {
				t.Errorf("decision = %s at %s (rules %v), want %s (source: %s)", v.Decision, v.Assessment.Level, ids, tc.want, tc.source)
			}
			if tc.rule != "" && !slices.Contains(ids, tc.rule) {
				t.Errorf("rules = %v, want %s among them (source: %s)", ids, tc.rule, tc.source)
			}
		})
	}
}

// Everyday tools of ecosystems the rules used to call unknown: routine on the project's own
// files and dev targets, a question when pointed at production, another place or the network.
func TestClassEcosystemTools(t *testing.T) {
	runRoutineCases(t, []routineCase{
		{src: `dbt build --select marts.finance --target dev`, want: Allow, rule: "base.catalog", source: "docs.getdbt.com dbt build"},
		{src: `dbt seed --full-refresh`, want: Allow, source: "docs.getdbt.com dbt seed"},
		{src: `dbt source freshness`, want: Allow, source: "docs.getdbt.com dbt source"},
		{src: `dbt run --target production`, want: Ask, source: "a production target"},
		{src: `dbt snapshot --target=prod-eu`, want: Ask, source: "a production target"},
		{src: `dbt run-operation drop_schema --args '{schema: x}'`, want: Ask, source: "arbitrary macro: not catalogued"},
		{src: `conan create . --build=missing`, want: Allow, source: "docs.conan.io conan create"},
		{src: `conan remote add corp https://conan.corp.example/artifactory`, want: Ask, source: "an extra package index"},
		{src: `vcpkg x-update-baseline --add-initial-baseline`, want: Allow, source: "learn.microsoft.com vcpkg"},
		{src: `uctags -R --languages=Python -f tags src`, want: Allow, source: "Universal Ctags"},
		{src: `gtags`, want: Allow, source: "GNU Global"},
		{src: `ast-grep run -p 'fmt.Println($A)' --lang go ./cmd`, want: Allow, source: "ast-grep run"},
		{src: `datamodel-codegen --input api/schema.json --input-file-type jsonschema --output app/models.py`, want: Allow, source: "datamodel-code-generator"},
		{src: `quicktype -l go -s json -o internal/types.go samples/order.json`, want: Allow, source: "quicktype"},
		{src: `kiota generate -l typescript -c ApiClient -o ./src/client -d ./openapi.yaml`, want: Allow, source: "kiota generate"},
		{src: `openapi-generator generate -i openapi.yaml -g python -o ~/elsewhere/client`, want: Ask, source: "output outside the workspace"},
		{src: `jupyter notebook --no-browser --port 8890`, want: Allow, rule: "base.catalog-net", source: "jupyter notebook binds localhost"},
		{src: `jupyter lab --ip 0.0.0.0 --allow-root`, want: Ask, source: "every interface"},
		{src: `hatch run lint:all`, want: Allow, rule: "pkg.build-test", source: "hatch env scripts"},
		{src: `hatch run release:publish`, want: Ask, source: "a script named for publishing"},
		{src: `hatch run test:reboot`, want: Ask, source: "a system command, not a script"},
	})
}

// A project under a web root or a CI workspace is the workspace: its vendor/bin tools and
// artisan are the project's own programs; PHP's built-in server is routine on loopback.
func TestClassProjectLocations(t *testing.T) {
	runRoutineCases(t, []routineCase{
		{cwd: "/var/www/shop", src: `vendor/bin/pest --parallel`, want: Allow, source: "Pest docs"},
		{cwd: "/var/www/shop", src: `php artisan make:model Invoice -m`, want: Allow, source: "Laravel artisan"},
		{cwd: "/var/www/shop", src: `php bin/console cache:clear --env=dev`, want: Allow, source: "Symfony console"},
		{cwd: "/var/www/shop", src: `php bin/console doctrine:migrations:migrate --env=prod`, want: Ask, source: "production"},
		{cwd: "/var/lib/jenkins/workspace/orders", src: `./gradlew test`, want: Allow, source: "Jenkins job workspace"},
		{cwd: "/var/www", src: `rm -rf ./*`, want: Deny, source: "the web root itself is not a project"},
		{cwd: "/etc/nginx", src: `rm -rf sites-enabled`, want: Deny, source: "a system directory stays one"},
		{cwd: "/var/www/shop", src: `php -S localhost:8000 -t public`, want: Allow, rule: "base.php-server", source: "php.net built-in web server"},
		{cwd: "/var/www/shop", src: `php -S 0.0.0.0:8000 -t public`, want: Ask, source: "every interface"},
		{cwd: "/var/www/shop", src: `php -S 127.0.0.1:8000 -t /home`, want: Ask, source: "serves outside the project"},
	})
}

// Writing the project's files from templates and seeding its local database are routine;
// reading a secret, a remote database or SQL from elsewhere is not.
func TestClassWorkspaceSetup(t *testing.T) {
	runRoutineCases(t, []routineCase{
		{src: `cp .env.dist .env`, want: Allow, source: "Symfony .env.dist template"},
		{src: `cp config/database.yml.example config/database.yml`, want: Allow, source: "Rails template"},
		{src: `cp .env .env.backup`, want: Ask, rule: "cred.read", source: "reads the project's .env"},
		{src: `cp ~/.netrc .netrc`, want: Deny, rule: "cred.read", source: "netrc(5)"},
		{src: `psql postgresql://dev@localhost:5432/app_dev -v ON_ERROR_STOP=1 -f db/fixtures.sql`, want: Allow, rule: "db.local-write", source: "psql -f"},
		{src: `mysql -h 127.0.0.1 -u dev app_dev -e "INSERT INTO flags(name) VALUES ('beta')"`, want: Allow, rule: "db.local-write", source: "mysql -e"},
		{src: `psql -h 127.0.0.1 -d app_dev -f /tmp/from-somewhere.sql`, want: Ask, source: "SQL from outside the project"},
		{src: `psql -h staging-db.example.com -d app -f db/fixtures.sql`, want: Ask, source: "a remote database"},
		{src: `pnpm dlx @biomejs/biome check --write src`, want: Allow, rule: "pkg.run-known-package", source: "biomejs.dev"},
		{src: `npx @redocly/cli lint openapi.yaml`, want: Allow, source: "redocly.com/docs/cli"},
		{src: `npx svgo -f ~/Pictures`, want: Ask, source: "paths outside the project"},
		{src: `npx some-unknown-helper@latest fix`, want: Ask, rule: "pkg.run-package", source: "an unknown package"},
	})
}

// The policy's ask row: discarding uncommitted work, deleting caches or build dirs outside
// the workspace, a one-off TLS bypass, someone else's repository, an unofficial fork. Their
// routine neighbours stay allowed.
func TestClassAskRow(t *testing.T) {
	runRoutineCases(t, []routineCase{
		{src: `git checkout --force feature/x`, want: Ask, rule: "vcs.discard-work", source: "git-checkout(1) -f"},
		{src: `git checkout origin/main -- db/schema.rb`, want: Ask, rule: "vcs.discard-work", source: "git-checkout(1) pathspec"},
		{src: `git restore --worktree lib/`, want: Ask, rule: "vcs.discard-work", source: "git-restore(1)"},
		{src: `git switch -f release`, want: Ask, rule: "vcs.discard-work", source: "git-switch(1)"},
		{src: `git branch -D old/spike-1`, want: Ask, rule: "vcs.discard-work", source: "git-branch(1) -D"},
		{src: `git stash drop`, want: Ask, rule: "vcs.discard-work", source: "docs/policy.md names git stash drop"},
		{src: `git switch main && git pull --ff-only`, want: Allow, source: "routine branch switch"},
		{src: `git restore -S package-lock.json`, want: Allow, source: "unstage only"},
		{src: `git stash push -m wip && git stash pop`, want: Allow, source: "routine stash"},
		{src: `git clean -fdx`, want: Allow, source: "docs/policy.md: git clean -fdx in the repo"},
		{src: `rm -rf ~/.cache/huggingface/hub/models--bert-base-uncased`, want: Ask, rule: "fs.rm.cache", source: "a cache in home"},
		{src: `rm -rf ~/.m2/repository/org/acme`, want: Ask, rule: "fs.rm.cache", source: "Maven local repository"},
		{src: `rm -rf /tmp/gradle-build-cache`, want: Ask, rule: "fs.rm.cache", source: "a build cache in /tmp"},
		{src: `rm -rf .turbo node_modules/.cache`, want: Allow, source: "caches inside the workspace"},
		{src: `rm -f /tmp/coverage.json`, want: Allow, source: "a scratch file"},
		{src: `helm list --kube-insecure-skip-tls-verify`, want: Ask, rule: "net.tls-bypass-once", source: "helm global flags"},
		{src: `GIT_SSL_NO_VERIFY=true git clone https://git.corp.example/app.git`, want: Ask, source: "git(1) GIT_SSL_NO_VERIFY"},
		{src: `node -e "require('https').get({host:'api.staging.example.com',rejectUnauthorized:false},r=>console.log(r.statusCode))"`, want: Ask, rule: "net.tls-bypass-once", source: "Node tls rejectUnauthorized"},
		{src: `curl -k https://localhost:8443/healthz`, want: Allow, source: "a local self-signed server"},
		{src: `gh issue create -R rust-lang/cargo --title "x" --body "y"`, want: Ask, rule: "vcs.gh-write", source: "someone else's repository"},
		{cwd: "/home/dev/src/payments", src: `gh issue create --repo acme/payments --title "flaky" --body "x"`, want: Allow, rule: "vcs.gh-open", source: "the project's repository"},
		{src: `go mod edit -replace=golang.org/x/net=github.com/someone/net@v0.25.1`, want: Ask, rule: "pkg.untrusted-source", source: "go help mod edit"},
		{src: `go mod edit -replace github.com/acme/lib=./third_party/lib`, want: Allow, source: "a local checkout"},
	})
}
