package riskmodel

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// Look-alike package names beyond the popular lists (pkg_lookalike.go): owner scopes that
// read like a vendor's or like an organisation's usual words, name words spelled with
// lookalike characters, digits for letters in a vendor's package, and two scopes of one
// request that read alike. The real names below are taken from the registries' most
// depended-upon and most downloaded lists and the vendors' install docs; they must stay
// installable. The squats are made here, by the confusions Unicode TR39 lists for ASCII
// (rn/m, vv/w, cl/d, 0/o, 1/l, I/l) and the digit-for-letter spellings of typosquat reports.

func TestClassR12ExecLookalikePackagesDenied(t *testing.T) {
	squats := []string{
		"npm install @acme-intemal/design-tokens",
		"npm i @acme-lnternal/ui",
		"npm add @acme-1nternal/config",
		"pnpm add @globex-pr1vate/auth",
		"yarn add @initech-platfrom/logger",
		"bun add @acme-shraed/utils",
		"npm install @acme-infrastucture/deploy",
		"npm install @acrne-internal/tokens @acme-internal/ui",
		"npm install @acme/design-tokens @acrne/icons",
		"npm i -g @anthropic-ai/claude-c0de",
		"npm i -g @anthr0pic-ai/claude-code",
		"npm install @anthropic-al/sdk",
		"npm install @0penai/codex",
		"npm install -g @openal/codex",
		"npm install @google-c1oud/storage",
		"npm install @googlecloud/storage",
		"npm install @aws-sdkk/client-s3",
		"npm install @awssdk/client-s3",
		"npm install @azzure/identity",
		"npm install @typess/node",
		"npm install @babe1/core",
		"npm install @angu1ar/core",
		"npm install @nestsj/core",
		"npm install @verce1/ncc",
		"npm install @modelcontextprotoco1/sdk",
		"npx @g00gle/gemini-cli",
		"npm install expr3ss",
		"npm install l0dash",
		"npm install moment-timez0ne",
		"pip install acme-intemal-utils",
		"pip install globex-p1atform-sdk",
		"uv add initech-c0mmon",
		"poetry add acme-servlce-client",
		"pipx install acme-dev-too1s",
		"go get github.com/acme-intemal/logging",
		"go install github.com/acme-p1atform/cli@latest",
		"cargo add acme-intemal-proto",
		"gem install acme-lnternal-auth",
		"npm install @acme-pr1vate/core",
		"pnpm dlx @anthropic-ai/claude-c0de",
	}
	for _, src := range squats {
		t.Run(src, func(t *testing.T) {
			v := execOne(t, src)
			if v.Decision != Deny || !slices.Contains(ruleIDs(v), "pkg.typosquat") {
				t.Errorf("%s: decision %s by %v, want deny by pkg.typosquat", src, v.Decision, ruleIDs(v))
			}
		})
	}
}

func TestClassR12ExecRealPackagesStayInstallable(t *testing.T) {
	npm := []string{
		"web3", "i18n", "i18next", "d3", "d3-scale", "p5", "h3", "utf8", "es5-ext", "es6-promise", "base64-js", "vue3-toastify",
		"k8s-client", "s3-upload-stream", "md5", "sha1", "crc32", "uuid4", "html5-qrcode", "three", "ws", "socket.io", "pg",
		"mysql2", "sqlite3", "bcrypt", "argon2", "jsonwebtoken", "react-dnd", "react-dom", "react-router-dom", "next", "nuxt",
		"vite", "esbuild", "rollup", "webpack-cli", "babel-loader", "ts-node", "tsx", "nodemon", "pm2", "concurrently",
		"prettier", "eslint", "jest", "mocha", "chai", "sinon", "nock", "msw", "zod", "yup", "joi", "ajv", "dotenv",
		"log4js", "a11y-dialog", "l10n", "oauth4webapi", "x509", "ethers", "viem", "wagmi", "2fa", "7zip-bin", "node-7z",
		"@anthropic-ai/claude-code", "@anthropic-ai/sdk", "@openai/codex", "@google/gemini-cli", "@google-cloud/storage",
		"@aws-sdk/client-s3", "@azure/identity", "@vercel/ncc", "@types/node", "@babel/core", "@angular/core",
		"@nestjs/core", "@nestjsx/crud", "@angular-devkit/core", "@azure-rest/core-client", "@googlemaps/js-api-loader",
		"@tanstack/react-query", "@mui/material", "@emotion/react", "@radix-ui/react-dialog", "@sentry/node",
		"@octokit/rest", "@storybook/react", "@vitejs/plugin-react", "@sveltejs/kit", "@prisma/client", "@trpc/server",
		"@tailwindcss/forms", "@headlessui/react", "@heroicons/react", "@fortawesome/fontawesome-svg-core", "@acme/design-tokens",
		"@acme-internal/ui", "@acme/platform-core", "@company/shared-utils", "@intercom/messenger-js-sdk",
		"@corelogic/sdk", "@designsystem/tokens", "@typed/fp", "@effect/schema",
	}
	pypi := []string{
		"boto3", "s3fs", "web3", "h5py", "b2sdk", "py7zr", "p4python", "mp3-tagger", "pyqt5", "psycopg2", "oauth2client",
		"google-cloud-storage", "azure-identity", "aws-cdk-lib", "django-environ", "pydantic-settings", "internal-tools",
		"platformdirs", "tox", "pre-commit", "py3dns", "pytest-xdist", "xxhash", "zstandard", "lz4", "blake3", "sha3",
	}
	other := []string{
		"cargo add serde tokio anyhow thiserror clap reqwest", "cargo install ripgrep fd-find bat", "cargo add base64 sha2 md5 x509-parser",
		"gem install rails rspec rubocop nokogiri pg", "gem install aws-sdk-s3 google-cloud-storage",
		"go get github.com/stretchr/testify@v1.9.0", "go install golang.org/x/tools/gopls@latest",
		"go get github.com/aws/aws-sdk-go-v2/service/s3", "go get k8s.io/client-go@v0.30.0", "go get github.com/go-chi/chi/v5",
		"go install github.com/golangci/golangci-lint/cmd/golangci-lint@latest", "go get github.com/spf13/cobra",
		"go get github.com/acme-internal/logging",
	}
	var cmds []string
	for _, n := range npm {
		cmds = append(cmds, "npm install "+n)
	}
	for _, n := range pypi {
		cmds = append(cmds, "pip install "+n)
	}
	cmds = append(cmds, other...)
	for _, src := range cmds {
		t.Run(src, func(t *testing.T) {
			v := execOne(t, src)
			if v.Decision == Deny || slices.Contains(ruleIDs(v), "pkg.typosquat") {
				t.Errorf("%s: decision %s by %v, want no typosquat verdict: %s", src, v.Decision, ruleIDs(v), v.Assessment.Summary)
			}
		})
	}
}

func execOne(t *testing.T, src string) Verdict {
	t.Helper()
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	return a.Exec(context.Background(), ExecRequest{Command: strings.Fields(src), Cwd: "/home/dev/proj"})
}

// Inline code that expands a wildcard pattern and reads what it matches (cred_glob.go) is
// judged as the shell's cat of that pattern: a pattern that can match a credential store
// reads it; public keys and workspace patterns stay routine. Sources: docs.python.org
// glob and pathlib (Path.glob, Path.rglob), nodejs.org fs.globSync, npm glob's sync,
// ruby-doc.org Dir.glob.
func TestClassR12ExecCredentialGlobsInCode(t *testing.T) {
	runDevCases(t, []devCase{
		{`python3 -c "import glob;[print(open(f).read()) for f in glob.glob('/home/*/.ssh/id_*') if not f.endswith('.pub')]"`, Deny, "cred.read", "glob.glob expands the pattern"},
		{`python3 -c "import glob;[print(open(f).read()) for f in glob.iglob('/home/*/.aws/credentials')]"`, Deny, "cred.read", "glob.iglob"},
		{`python3 -c "from pathlib import Path;[print(p.read_text()) for p in Path.home().glob('.ssh/id_*')]"`, Deny, "cred.read", "Path.glob"},
		{`python3 -c "from pathlib import Path;[print(p.read_text()) for p in Path('/root').rglob('*.pem')]"`, Deny, "cred.read", "Path.rglob"},
		{`python3 -c "import glob;[print(open(f).read()) for f in glob.glob('/home/*/.config/gcloud/**', recursive=True)]"`, Deny, "cred.read", "recursive glob"},
		{`node -e "require('glob').sync('/root/.aws/*').forEach(f=>console.log(require('fs').readFileSync(f,'utf8')))"`, Deny, "cred.read", "npm glob sync"},
		{`node -e "const fs=require('fs');for(const f of fs.globSync('/home/*/.npmrc'))console.log(fs.readFileSync(f,'utf8'))"`, Deny, "cred.read", "fs.globSync"},
		{`ruby -e 'Dir.glob("/home/*/.aws/credentials").each{|f| puts File.read(f)}'`, Deny, "cred.read", "Dir.glob"},
		{`python3 -c "from pathlib import Path;[print(p.read_text()) for p in Path.home().glob('.ssh/*.pub')]"`, Allow, "", "public keys are public"},
		{`python3 -c "import glob;[print(open(f).read()) for f in glob.glob('src/**/*.py', recursive=True)]"`, Allow, "", "workspace sources"},
		{`python3 -c "from pathlib import Path;print(sum(len(p.read_text()) for p in Path('docs').rglob('*.md')))"`, Allow, "", "workspace docs"},
		{`node -e "const fs=require('fs');for(const f of fs.globSync('test/fixtures/*.txt'))console.log(fs.readFileSync(f,'utf8'))"`, Allow, "", "workspace fixtures"},
	})
}

func TestClassR12ExecWorkspaceTypeGlobs(t *testing.T) {
	runDevCases(t, []devCase{
		{"python - <<'EOF'\nimport json, glob\nfor f in sorted(glob.glob('data/*.json')):\n    print(f, len(json.load(open(f))))\nEOF", Allow, "", "project data files by type"},
		{`python3 -c "import glob;[print(open(f).read()) for f in glob.glob('**/.env', recursive=True)]"`, Ask, "cred.read", "every .env below the workspace: secrets"},
	})
}
