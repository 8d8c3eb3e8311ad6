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
