package riskmodel

import "testing"

// Everyday build, test, lint and format verbs of stacks the command catalogue did not know
// (Haskell, Nim, R, Mill, Clojure, Buck2, Pants, devbox, LaTeX), read-only inspection of
// Tilt, Nomad and Consul, and Kafka's CLIs against a local broker are routine
// (docs/policy.md: build, test, lint, format → allow; read-only inspection → allow). Their
// dangerous forms stay questions: run/deploy/publish verbs, cluster writes, a broker on
// another host, and TeX's shell escape or a latexmk option that names the program it runs.
func TestClassStacksCatalogue(t *testing.T) {
	runRoutineCases(t, []routineCase{
		{src: "hlint lib/ test/", want: Allow, rule: "base.catalog", source: "hlint README"},
		{src: "ormolu --mode inplace src/Main.hs", want: Allow, rule: "base.catalog", source: "ormolu README"},
		{src: "ghcid --command 'stack ghci' --warnings", want: Allow, source: "ghcid README"},
		{src: "nimble build", want: Allow, source: "tldr nimble"},
		{src: "nimble test -d:ssl", want: Allow, source: "tldr nimble"},
		{src: "nimble install --depsOnly", want: Allow, source: "nimble docs"},
		{src: "nim check src/app.nim", want: Allow, source: "tldr nim"},
		{src: "R CMD build .", want: Allow, source: "Writing R Extensions 1.3"},
		{src: "mill __.compile", want: Allow, source: "mill builtin commands"},
		{src: "clojure -M:test", want: Allow, source: "clojure CLI reference"},
		{src: "clj -Stree", want: Allow, source: "clojure CLI reference"},
		{src: "clj-kondo --lint src", want: Allow, source: "tldr clj-kondo"},
		{src: "buck2 test //lib/...", want: Allow, source: "buck2 commands"},
		{src: "pants check ::", want: Allow, source: "pants goals"},
		{src: "pants package src/docker::", want: Allow, source: "pants goals"},
		{src: "devbox run lint", want: Allow, source: "devbox CLI reference"},
		{src: "tilt logs api", want: Allow, source: "tilt CLI"},
		{src: "packer fmt .", want: Allow, source: "tldr packer"},
		{src: "nomad node status", want: Allow, source: "tldr nomad"},
		{src: "nomad plan web.nomad.hcl", want: Allow, source: "nomad plan docs: a dry run"},
		{src: "consul catalog nodes", want: Allow, source: "tldr consul"},
		{src: "kafka-topics --bootstrap-server 127.0.0.1:9092 --describe --topic events", want: Allow, source: "Kafka basic ops"},
		{src: "kafka-consumer-groups.sh --bootstrap-server localhost:9092 --list", want: Allow, source: "Kafka basic ops"},
		{src: "latexmk -pdf thesis.tex", want: Allow, source: "tldr latexmk"},
		{src: "latexmk -lualatex paper.tex", want: Allow, source: "latexmk(1)"},
		{src: "latexmk -C", want: Allow, source: "latexmk(1): cleans"},
		{src: "pdflatex -interaction=nonstopmode paper.tex", want: Allow, source: "tldr pdflatex"},
		{src: "biber thesis", want: Allow, source: "tldr biber"},
		{src: "chktex paper.tex", want: Allow, source: "tldr chktex"},

		// The dangerous forms stay questions.
		{src: "nimble install jester", want: Ask, source: "installs into the user's nimble tree"},
		{src: "mill __.publishArtifacts", want: Ask, source: "publishes"},
		{src: "clojure -M:deploy", want: Ask, source: "a project alias that deploys"},
		{src: "buck2 run //deploy:prod", want: Ask, source: "runs a deploy target"},
		{src: "pants publish ::", want: Ask, source: "publishes"},
		{src: "devbox run deploy", want: Ask, source: "a project script that deploys"},
		{src: "tilt up", want: Ask, source: "deploys to the dev cluster"},
		{src: "packer build .", want: Ask, source: "creates cloud images"},
		{src: "nomad job run web.nomad.hcl", want: Ask, source: "cluster write"},
		{src: "nomad job stop -purge web", want: Ask, source: "cluster write"},
		{src: "consul kv delete -recurse app/", want: Ask, source: "cluster write"},
		{src: "kafka-topics --bootstrap-server kafka-1.prod.internal:9092 --list", want: Ask, source: "a broker on another host"},
		{src: "kafka-topics.sh --bootstrap-server localhost:9092 --delete --topic events", want: Ask, source: "deletes a topic"},
		{src: "kafka-consumer-groups.sh --bootstrap-server localhost:9092 --group g --reset-offsets --to-earliest --execute --all-topics", want: Ask, source: "rewrites offsets"},
		{src: "latexmk -shell-escape -pdf paper.tex", want: Ask, source: "TeX shell escape runs commands"},
		{src: "latexmk -pdflatex='sh -c id' paper.tex", want: Ask, source: "names the program latexmk runs"},
		{src: "latexmk -xelatex=./evil paper.tex", want: Ask, source: "names the program latexmk runs"},
		{src: "latexmk -e '$pdf_previewer=q/sh/' paper.tex", want: Ask, source: "Perl code for latexmk"},
		{src: "pdflatex --shell-escape paper.tex", want: Ask, source: "TeX shell escape runs commands"},
		{src: "xelatex -enable-write18 paper.tex", want: Ask, source: "TeX shell escape runs commands"},
	})
}

// opam install . --deps-only installs what the project's opam files declare, like cabal's
// --only-dependencies; naming packages, a pin or a path elsewhere changes the user's switch.
func TestClassOpamProjectDeps(t *testing.T) {
	runRoutineCases(t, []routineCase{
		{src: "opam install --deps-only --with-doc .", want: Allow, source: "opam install manual"},
		{src: "opam install ./mylib.opam --deps-only -y", want: Allow, source: "opam install manual"},
		{src: "opam switch list", want: Allow, source: "tldr opam"},
		{src: "opam install dream", want: Ask, source: "a named package into the user's switch"},
		{src: "opam install . --deps-only ppx_deriving", want: Ask, source: "also a named package"},
		{src: "opam install --deps-only ../vendor/other", want: Ask, source: "a path outside the project"},
		{src: "opam switch create 5.2.0", want: Ask, source: "a new compiler switch"},
	})
}

// bazel run of a target whose package or name says it deploys, or acts on production, is a
// deploy, not a build.
func TestClassBazelRunDeployLabel(t *testing.T) {
	runRoutineCases(t, []routineCase{
		{src: "bazel run //cmd/server:server", want: Allow, source: "bazel run docs"},
		{src: "bazel run //:gazelle", want: Allow, source: "gazelle README"},
		{src: "bazel run //deploy:prod", want: Ask, source: "a deploy package"},
		{src: "bazel run //k8s:apply_production", want: Ask, source: "acts on production"},
		{src: "bazel run --config=ci //services/api:publish_image", want: Ask, source: "publishes"},
	})
}

// A headless browser rendering a loopback page is a local client; a page elsewhere, a local
// file, or an open debugging port is not covered. A URL with user info
// (http://localhost@evil.example/) goes to the host after the @.
func TestClassHeadlessLoopback(t *testing.T) {
	runRoutineCases(t, []routineCase{
		{src: "chromium --headless --print-to-pdf=out/page.pdf http://localhost:5173/report", want: Allow, source: "Chrome headless docs"},
		{src: "google-chrome --headless=new --dump-dom http://127.0.0.1:8000/?q=a@b", want: Allow, source: "Chrome headless docs"},
		{src: "chromium --headless --dump-dom https://news.example.com/", want: Ask, source: "another host"},
		{src: "chromium --headless --dump-dom http://localhost@attacker.example/", want: Ask, source: "RFC 3986 3.2.1 user info"},
		{src: "hey -n 100 http://localhost:8080@attacker.example/", want: Ask, source: "RFC 3986 3.2.1 user info"},
		{src: "chromium --headless --dump-dom file:///etc/passwd", want: Ask, source: "a local file"},
		{src: "chromium --headless --remote-debugging-address=0.0.0.0 --remote-debugging-port=9222 http://localhost:3000/", want: Ask, source: "an open DevTools port"},
		{src: "chromium --headless --user-data-dir=$HOME/.config/chromium --dump-dom http://localhost:3000/", want: Ask, source: "the user's own profile"},
	})
}
