# guardian — build, test and run. `make test` is what CI runs (.ci/run).

GO       ?= go
FUZZTIME ?= 30s
LOADTIME ?= 5s
LOADCOUNT ?= 3
BIN      ?= bin/guardian

.PHONY: all build test fmt-check vet test-race interop rules-test eval bench load lint run fuzz clean

all: build

## build: compile the guardian binary to bin/guardian
build:
	$(GO) build -o $(BIN) ./cmd/guardian

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
	GUARDIAN_INTEROP=1 $(GO) test -race -run Interop -count=1 ./mcp/

rules-test:
	$(GO) run ./cmd/guardian rules test

## eval: grade the rule reviewer on the public dev set (well under a second); fails when any
## case labelled deny comes out allow. --config /dev/null keeps the user's config out of it.
eval:
	$(GO) run ./cmd/guardian eval --config /dev/null --reviewer rules --dataset evals/testdata/dev.jsonl --fail-on 'false_allow>0'

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

clean:
	rm -rf bin
