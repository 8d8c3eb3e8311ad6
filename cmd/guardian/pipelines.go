package main

import (
	"container/list"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/oneshot"
	"github.com/guardianhq/guardian/riskmodel"
)

// maxProjectPipelines bounds how many compiled pipelines guardian serve keeps: one per project
// file (and agent home) seen recently. An agent host rarely works in more than a handful of
// repositories at once; the least recently used pipeline is dropped beyond this.
const maxProjectPipelines = 64

// projectPipelines is guardian serve's Decider. Like `guardian review`, it applies the project
// file (.guardian.toml) of each request's cwd on top of the user config — but a server answers
// thousands of requests, so it merges and compiles each effective config once and keeps the
// resulting Pipeline, with its cache and breakers, keyed by the project file's path, size and
// modification time: editing the file takes effect on the next request. Requests without a
// cwd (MCP tool calls) use the user config alone. It is safe for concurrent use.
type projectPipelines struct {
	user    guardian.Config
	envHome string // $HOME of the server: the agent's home when the config sets none
	build   func(cfg guardian.Config, home string) (*guardian.Pipeline, error)
	max     int

	mu      sync.Mutex
	lru     *list.List // of *pipelineEntry, most recently used first
	entries map[pipelineKey]*list.Element
}

// pipelineKey identifies an effective config: the project file (or none) as it is now, and
// the home "~" stands for.
type pipelineKey struct {
	project     string // "" for the user config alone
	mtime, size int64
	home        string
}

type pipelineEntry struct {
	key pipelineKey
	p   *guardian.Pipeline
}

// newProjectPipelines returns a Decider over the user config; build compiles one effective
// config into a pipeline; max bounds the pipelines kept.
func newProjectPipelines(user guardian.Config, envHome string, max int, build func(guardian.Config, string) (*guardian.Pipeline, error)) *projectPipelines {
	return &projectPipelines{user: user, envHome: envHome, build: build, max: max, lru: list.New(), entries: map[pipelineKey]*list.Element{}}
}

// Decide decides req for c with the pipeline of its project, whose agent policy (the user's
// [agents], tightened by the project file) applies. An error (an invalid or unreadable
// project file) is no decision: the server answers 500, and the adapter its host's
// fail-safe — a broken project file must not silently drop the project's restrictions.
func (pp *projectPipelines) Decide(ctx context.Context, req guardian.Request, c guardian.Caller) (guardian.Result, error) {
	return pp.decideIn(ctx, req, c, "")
}

// inDir is pp as the Decider of a process that has a project of its own (guardian mcp-proxy,
// started in the agent's repository): a request without a cwd (an MCP tool call) is reviewed
// under the project file of dir instead of the user config alone.
func (pp *projectPipelines) inDir(dir string) guardian.Decider {
	return guardian.DeciderFunc(func(ctx context.Context, req guardian.Request, c guardian.Caller) (guardian.Result, error) {
		return pp.decideIn(ctx, req, c, dir)
	})
}

// decideIn reviews req with the pipeline of its project: its own cwd's, else dir's.
func (pp *projectPipelines) decideIn(ctx context.Context, req guardian.Request, c guardian.Caller, dir string) (guardian.Result, error) {
	d := requestDir(req)
	if d == "" {
		d = dir
	}
	p, err := pp.forDir(d)
	if err != nil {
		return guardian.Result{}, err
	}
	return p.Decide(ctx, req, c)
}

// requestDir is the directory whose project file governs req: an exec request's absolute
// cwd; "" for anything else. A server has no working directory of its own to fall back on.
func requestDir(req guardian.Request) string {
	if req.Kind == riskmodel.KindExec && req.Exec != nil && filepath.IsAbs(req.Exec.Cwd) {
		return filepath.Clean(req.Exec.Cwd)
	}
	return ""
}

// forDir returns the pipeline for the effective config of a request whose project directory
// is dir ("" for none: the user config alone), building it on first use.
func (pp *projectPipelines) forDir(dir string) (*guardian.Pipeline, error) {
	key := pipelineKey{home: pp.user.Policy.Home}
	if key.home == "" {
		key.home = oneshot.AgentHome(pp.envHome, dir)
	}
	if dir != "" {
		file, err := guardian.FindProjectFile(dir)
		if err != nil {
			return nil, fmt.Errorf("project config for %s: %w", dir, err)
		}
		if file != "" {
			st, err := os.Stat(file)
			if err != nil {
				return nil, fmt.Errorf("project config for %s: %w", dir, err)
			}
			key.project, key.mtime, key.size = file, st.ModTime().UnixNano(), st.Size()
		}
	}
	if p := pp.get(key); p != nil {
		return p, nil
	}
	cfg := pp.user
	if key.project != "" {
		var err error
		if cfg, err = pp.user.WithProject(dir); err != nil {
			return nil, err
		}
	}
	p, err := pp.build(cfg, key.home)
	if err != nil {
		return nil, err
	}
	return pp.put(key, p), nil
}

func (pp *projectPipelines) get(key pipelineKey) *guardian.Pipeline {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	if el, ok := pp.entries[key]; ok {
		pp.lru.MoveToFront(el)
		return el.Value.(*pipelineEntry).p
	}
	return nil
}

// put keeps p under key and returns the pipeline to use: p, or the one another request built
// for the same key meanwhile (so one key never has two caches or two sets of breakers).
func (pp *projectPipelines) put(key pipelineKey, p *guardian.Pipeline) *guardian.Pipeline {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	if el, ok := pp.entries[key]; ok {
		pp.lru.MoveToFront(el)
		_ = p.Close()
		return el.Value.(*pipelineEntry).p
	}
	pp.entries[key] = pp.lru.PushFront(&pipelineEntry{key: key, p: p})
	for pp.lru.Len() > pp.max {
		old := pp.lru.Remove(pp.lru.Back()).(*pipelineEntry)
		delete(pp.entries, old.key)
		// Reviews still running on it finish normally; Close only drops its metric callback.
		_ = old.p.Close()
	}
	return p
}

// Len is the number of pipelines kept.
func (pp *projectPipelines) Len() int {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	return pp.lru.Len()
}

// Close releases every pipeline kept.
func (pp *projectPipelines) Close() error {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	for el := pp.lru.Front(); el != nil; el = el.Next() {
		_ = el.Value.(*pipelineEntry).p.Close()
	}
	pp.lru.Init()
	clear(pp.entries)
	return nil
}
