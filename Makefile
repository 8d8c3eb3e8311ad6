# guardian — build, test and run. `make test` is what CI runs (.ci/run).

GO       ?= go
FUZZTIME ?= 30s
LOADTIME ?= 5s
LOADCOUNT ?= 3
BIN      ?= bin/guardian

.PHONY: all build hook-time install release release-check readme-tables test fmt-check vet test-race interop rules-test eval tldr-coverage bench load lint run fuzz e2e clean

all: build

## build: compile guardian to bin/guardian and its lean hook entry to bin/guardian-hook, which
## `guardian hook install` writes into the hosts' configs when it lies beside guardian
## (docs/hooks.md, "What a hook call costs"). guardian-hook is linked statically (no cgo),
## sparing every tool call the dynamic loader and libc start-up.
build:
	$(GO) build -o $(BIN) ./cmd/guardian
	CGO_ENABLED=0 $(GO) build -o $(dir $(BIN))guardian-hook ./cmd/guardian-hook

## hook-time: the whole-process time of a hook call (guardian-hook and guardian answering a
## routine Claude Code payload), HOOKRUNS runs each; reports the median (median-ms). With
## HOOKBASE=path/to/another/guardian-hook, also runs the two in turn (baseline-median-ms)
HOOKRUNS ?= 200
HOOKBASE ?=
hook-time:
	GUARDIAN_HOOK_BASELINE=$(HOOKBASE) $(GO) test -run '^$$' -bench HookProcess -benchtime $(HOOKRUNS)x ./cmd/guardian-hook/

## install: go install guardian and its lean hook entry guardian-hook (static, no cgo) — they
## land in $(go env GOBIN), else $(go env GOPATH)/bin (~/go/bin by default); put that directory
## on PATH. The hook installers write the installed path into the hosts' configs, so install
## before `guardian hook install`.
install:
	$(GO) install ./cmd/guardian
	CGO_ENABLED=0 $(GO) install ./cmd/guardian-hook
	@dir=$$($(GO) env GOBIN); [ -n "$$dir" ] || dir=$$($(GO) env GOPATH)/bin; \
	echo "installed $$dir/guardian"; \
	case ":$$PATH:" in *":$$dir:"*) ;; *) echo "note: $$dir is not on PATH; add it (export PATH=\"$$dir:\$$PATH\")";; esac

## release: static binaries for PLATFORMS into dist/guardian-VERSION-OS-ARCH/ (guardian and
## guardian-hook, which hook install uses when it lies beside guardian) and dist/SHA256SUMS. Reproducible: -trimpath, CGO_ENABLED=0, the VCS revision from git, and
## VERSION (default: git describe) stamped with -ldflags -X main.version.
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
DIST      ?= dist
release:
	@set -e; rm -rf $(DIST); mkdir -p $(DIST); \
	for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; out=guardian-$(VERSION)-$$os-$$arch; \
		echo "build $(DIST)/$$out"; \
		for cmd in guardian guardian-hook; do \
			CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o $(DIST)/$$out/$$cmd ./cmd/$$cmd; \
		done; \
	done; \
	cd $(DIST) && if command -v sha256sum >/dev/null; then sha256sum guardian-*/*; else shasum -a 256 guardian-*/*; fi > SHA256SUMS; \
	cat SHA256SUMS

## release-check: what CI runs of `make release`, cheaply: the native target and one cross
## target, the checksums verified, the native binary reporting the stamped version.
release-check:
	@set -e; native=$$($(GO) env GOOS)/$$($(GO) env GOARCH); \
	$(MAKE) --no-print-directory release VERSION=v0.0.0-check DIST=bin/release-check PLATFORMS="$$native darwin/arm64"; \
	cd bin/release-check && sha256sum -c SHA256SUMS && \
	./guardian-v0.0.0-check-$${native%/*}-$${native#*/}/guardian version | grep -q '^guardian v0.0.0-check ' && \
	echo "release-check: ok"

## readme-tables: regenerate the figures in README.md that commands produce (see the
## "<!-- make readme-tables: COMMAND -->" markers there) and show what changed
readme-tables: build
	$(GO) run ./internal/readmegen $(BIN) README.md
	@git --no-pager diff --stat -- README.md

## test: gofmt check, go vet, the race-enabled test suite, the MCP interop suite, every rule's
## examples, and the eval
test: fmt-check vet test-race interop rules-test eval

## fmt-check: fail listing the files gofmt would change
fmt-check:
	@files=$$(find . -name '*.go' -not -path './.git/*' -not -path '*/testdata/*' -exec gofmt -l {} +); \
	if [ -n "$$files" ]; then \
		echo "gofmt: these files are not formatted (run gofmt -w on them):"; \
		echo "$$files"; \
		exit 1; \
	fi

vet:
	$(GO) vet ./...

test-race:
	$(GO) test -race ./...

## interop: guardian mcp-proxy against independent MCP implementations (the official SDK's
## client and servers, docs/mcp-interop.md). Needs node and npm; installs the pinned packages
## from mcp/testdata/interop/package-lock.json, offline afterwards.
interop:
	npm ci --prefix mcp/testdata/interop --no-audit --no-fund
	GUARDIAN_INTEROP=1 $(GO) test -race -run Interop -count=1 ./mcp/interop/

rules-test:
	$(GO) run ./cmd/guardian rules test

## eval: grade the rule reviewer on the public dev set (well under a second); fails when any
## case labelled deny comes out allow, with the rules alone or under a model that allows
## everything (false_allow_hostile). --config /dev/null keeps the user's config out of it.
eval:
	$(GO) run ./cmd/guardian eval --config /dev/null --reviewer rules --dataset evals/testdata/dev.jsonl --fail-on 'false_allow>0,false_allow_hostile>0'

## tldr-coverage: how many of the tldr pages' examples the rules call unknown (clones
## tldr-pages/tldr at the commit the catalogue was built from into TLDR, once)
TLDR ?= $(HOME)/.cache/guardian/tldr
TLDR_COMMIT ?= 08e345f42639f67d99282813247ac670dc6e87cb
tldr-coverage:
	@test -d $(TLDR)/pages || (git clone -q https://github.com/tldr-pages/tldr $(TLDR) && git -C $(TLDR) checkout -q $(TLDR_COMMIT))
	$(GO) run ./evals/tldrcoverage -pages $(TLDR)/pages -top 20

## bench: run the benchmarks only
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## load: guardian serve under load — rules-only reviews over HTTP on loopback from 64
## concurrent keep-alive clients; reports reviews/s, p50-ms and p99-ms (LOADTIME, LOADCOUNT)
load:
	$(GO) test -run '^$$' -bench ServeLoad -benchtime $(LOADTIME) -count $(LOADCOUNT) ./guardian/server/

## lint: gofmt and vet; staticcheck too when it is installed (never downloaded here)
lint: fmt-check vet
	@if command -v staticcheck >/dev/null 2>&1; then \
		echo "staticcheck ./..."; staticcheck ./...; \
	else \
		echo "lint: staticcheck not installed, skipped"; \
	fi

## run: review `rm -rf ~/` with the embedded rule reviewer (offline, no API key).
## Runs the built binary, as `go run` reports any non-zero exit as 1; the exit code is the
## decision's (0 allow, 10 ask, 20 deny), and only other codes fail the target.
run: build
	@$(BIN) review exec -- rm -rf ~/; code=$$?; \
	echo "(exit code $$code)"; \
	case $$code in 0|10|20) ;; *) exit $$code ;; esac

## fuzz: run every fuzz target of every package for FUZZTIME each (e.g. make fuzz FUZZTIME=5m)
fuzz:
	@set -e; found=0; \
	for pkg in $$($(GO) list ./...); do \
		list=$$($(GO) test -list '^Fuzz' $$pkg) || exit 1; \
		for target in $$(echo "$$list" | grep '^Fuzz' || true); do \
			found=1; \
			echo "== $$pkg $$target ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done; \
	if [ $$found = 0 ]; then echo "fuzz: no fuzz targets found"; fi

## e2e: guardian as the hook of the real Claude Code and Codex (pinned in
## cmd/guardian/e2e/testdata/hosts), driven offline by fake model servers inside a
## loopback-only network namespace (docs/e2e.md). guardian-hook is built beside guardian, so the
## installers write it into the hosts' configs as they do for users; guardian-faults (fault
## injection, cmd/guardian only) stands in a directory of its own, so its installs run it. Needs root (unshare -n), ip, node and npm.
## The hosts are installed with npm ci once per lockfile under E2E_CACHE (older installs are
## removed); E2E_FLAGS passes flags to the test binary, e.g. E2E_FLAGS='-test.run TestFailSafe'.
E2E_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/guardian-e2e
E2E_HOSTS := cmd/guardian/e2e/testdata/hosts
E2E_BIN   := bin/e2e
e2e:
	@set -e; \
	for tool in npm unshare; do command -v $$tool >/dev/null || { echo "e2e: $$tool is missing (install it: apt-get install nodejs npm util-linux)"; exit 1; }; done; \
	ip=$$(PATH=$$PATH:/usr/sbin:/sbin command -v ip) || { echo "e2e: ip is missing (apt-get install iproute2)"; exit 1; }; \
	lock=$$(sha256sum $(E2E_HOSTS)/package-lock.json | cut -c1-16); \
	hosts="$(E2E_CACHE)/hosts-$$lock"; \
	if [ ! -d "$$hosts" ]; then \
		echo "e2e: installing the pinned hosts into $$hosts (npm ci)"; \
		tmp="$$hosts.tmp.$$$$"; rm -rf "$$tmp"; mkdir -p "$$tmp"; \
		cp $(E2E_HOSTS)/package.json $(E2E_HOSTS)/package-lock.json "$$tmp/"; \
		(cd "$$tmp" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) || { rm -rf "$$tmp"; exit 1; }; \
		mv "$$tmp" "$$hosts"; \
		find "$(E2E_CACHE)" -mindepth 1 -maxdepth 1 -name 'hosts-*' ! -name "hosts-$$lock" -exec rm -rf {} +; \
	fi; \
	mkdir -p $(E2E_BIN)/faults; bin=$$(cd $(E2E_BIN) && pwd); \
	$(GO) build -o "$$bin/guardian" ./cmd/guardian; \
	CGO_ENABLED=0 $(GO) build -o "$$bin/guardian-hook" ./cmd/guardian-hook; \
	$(GO) build -tags guardian_faults -o "$$bin/faults/guardian-faults" ./cmd/guardian; \
	$(GO) test -c -o "$$bin/e2e.test" ./cmd/guardian/e2e; \
	cd cmd/guardian/e2e && GUARDIAN_E2E=1 GUARDIAN_E2E_HOSTS="$$hosts" \
		GUARDIAN_E2E_BIN="$$bin/guardian" GUARDIAN_E2E_FAULTS="$$bin/faults/guardian-faults" \
		unshare -n sh -c '"$$1" link set lo up && exec "$$2" -test.v -test.timeout 14m $$3' e2e "$$ip" "$$bin/e2e.test" "$(E2E_FLAGS)"

clean:
	rm -rf bin $(DIST)
