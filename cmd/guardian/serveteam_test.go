package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/redisstore/redistest"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// waitLog is a goroutine-safe stderr that hands out a channel closed when a line containing
// a string has been written, so a test waits for a log event without sleeping.
type waitLog struct {
	mu      sync.Mutex
	buf     strings.Builder
	waiters map[string]chan struct{}
}

func (l *waitLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	for s, ch := range l.waiters {
		if strings.Contains(l.buf.String(), s) {
			close(ch)
			delete(l.waiters, s)
		}
	}
	return len(p), nil
}

// when returns a channel closed once s has been logged (or at once if it has been).
func (l *waitLog) when(s string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch := make(chan struct{})
	if strings.Contains(l.buf.String(), s) {
		close(ch)
		return ch
	}
	if l.waiters == nil {
		l.waiters = map[string]chan struct{}{}
	}
	l.waiters[s] = ch
	return ch
}

func (l *waitLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// teamServe runs guardian serve on a unix socket with env and args, and returns a client.
func teamServe(t *testing.T, env map[string]string, args ...string) (*server.Client, *waitLog, func() int) {
	t.Helper()
	d, _, _ := testDeps("")
	d.getenv = func(k string) string { return env[k] }
	log := &waitLog{}
	d.stderr = log
	sock := filepath.Join(t.TempDir(), "g.sock")
	ctx, cancel := context.WithCancel(context.Background())
	exited := make(chan int, 1)
	listening := log.when("guardian serve listening")
	go func() { exited <- run(ctx, append([]string{"serve", "--socket", sock}, args...), d) }()
	select {
	case <-listening:
	case code := <-exited:
		cancel()
		t.Fatalf("serve exited %d before listening:\n%s", code, log)
	}
	var once sync.Once
	code := -1
	stop := func() int {
		once.Do(func() { cancel(); code = <-exited })
		return code
	}
	t.Cleanup(func() { stop() })
	c, err := server.NewClient("unix://" + sock)
	if err != nil {
		t.Fatal(err)
	}
	return c, log, stop
}

// teamConfig serves the team's config over HTTP on loopback, with an ETag.
type teamConfig struct {
	mu   sync.Mutex
	body string
}

func (tc *teamConfig) set(b string) { tc.mu.Lock(); tc.body = b; tc.mu.Unlock() }

func (tc *teamConfig) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tc.mu.Lock()
	body := tc.body
	tc.mu.Unlock()
	etag := `"` + sha(body)[:16] + `"`
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", etag)
	io.WriteString(w, body)
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// otlpCount counts the OTLP/HTTP log exports' bodies (any non-empty POST to /v1/logs).
type otlpCount struct {
	mu      sync.Mutex
	exports int
}

func (o *otlpCount) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	o.mu.Lock()
	if r.URL.Path == "/v1/logs" {
		o.exports++
	}
	o.mu.Unlock()
}

// TestServeTeam runs two real guardian serve commands as a team: the user config from one
// URL, breakers shared in a real Redis, decision records shipped over OTLP. A breaker opened
// through A hands B's next request to the human; that request, held by B, is approved through
// A and released on B; a new config version is picked up by both
// without a restart and named in their records; a bad one is refused and the old one stays.
func TestServeTeam(t *testing.T) {
	rdb := redistest.Start(t)
	otlp := &otlpCount{}
	coll := httptest.NewServer(otlp)
	defer coll.Close()
	v1 := "[review.denials_breaker]\nconsecutive = 2\n\n[audit.otlp]\nendpoint = \"" + coll.URL + "\"\ninsecure = true\n"
	v2 := v1 + "\n[[rule]]\nid = \"no-make\"\ndecision = \"deny\"\nprefix = [\"make\"]\nreason = \"builds run in CI\"\n"
	cfg := &teamConfig{body: v1}
	cfgSrv := httptest.NewServer(cfg)
	defer cfgSrv.Close()

	dir := t.TempDir()
	replica := func(name string) (*server.Client, *waitLog, func() int, string) {
		logPath := filepath.Join(dir, name, "audit.jsonl")
		// Replicas run the same image: the same HOME, which is part of the scope their state shares.
		env := map[string]string{"HOME": filepath.Join(dir, "home"), "GUARDIAN_AUDIT_LOG": logPath}
		c, log, stop := teamServe(t, env, "--config", cfgSrv.URL+"/guardian.toml", "--config-poll", "1s", "--store", rdb.URL)
		return c, log, stop, logPath
	}
	a, _, stopA, logA := replica("a")
	b, logB, stopB, logPathB := replica("b")
	if !strings.Contains(logB.String(), "policy=sha256:"+sha(v1)) || !strings.Contains(logB.String(), "store=\"redis "+rdb.Addr) {
		t.Errorf("B's start line does not name the policy and the store:\n%s", logB)
	}

	ctx := context.Background()
	caller := guardian.Caller{Host: "test"}
	exec := func(argv ...string) guardian.Request {
		return guardian.ExecRequest(riskmodel.ExecRequest{Command: argv, Cwd: "/srv/app"})
	}
	decide := func(c *server.Client, req guardian.Request) guardian.Result {
		t.Helper()
		res, err := c.Decide(ctx, req, caller)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for range 2 {
		if res := decide(a, exec("bash", "-c", "rm -rf ~/")); res.Decision != riskmodel.Deny {
			t.Fatalf("A: %s", res.Decision)
		}
	}
	if res := decide(b, exec("git", "status")); res.Status != guardian.StatusBreakerOpen || res.Decision != riskmodel.Ask {
		t.Fatalf("B after two denials on A: %s (%s), want ask (breaker_open)", res.Decision, res.Status)
	}

	// One approval queue: a request held by B (with its breaker open, B asks) is listed by A and
	// approved through A, which releases it on B. A keyspace notification says when B holds it.
	rc := redis.NewClient(&redis.Options{Addr: rdb.Addr})
	defer rc.Close()
	if err := rc.ConfigSet(ctx, "notify-keyspace-events", "Kz").Err(); err != nil {
		t.Fatal(err)
	}
	held := rc.Subscribe(ctx, "__keyspace@0__:guardian:approvals:open")
	defer held.Close()
	if _, err := held.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	hookB, err := server.NewClient(b.Target(), server.WithApprovalMode(server.ApprovalQueue))
	if err != nil {
		t.Fatal(err)
	}
	released := make(chan guardian.Result, 1)
	go func() {
		res, _ := hookB.Decide(ctx, exec("git", "status"), caller)
		released <- res
	}()
	<-held.Channel()
	pending, err := a.Pending(ctx, false)
	if err != nil || len(pending) != 1 {
		t.Fatalf("A lists %+v, %v; want the request held by B", pending, err)
	}
	if _, _, err := a.Approve(ctx, pending[0].ID, server.AnswerRequest{By: "alice"}); err != nil {
		t.Fatal(err)
	}
	if res := <-released; res.Decision != riskmodel.Allow || res.DecidedBy != "human:alice" {
		t.Fatalf("B released %s by %s, want allow by human:alice", res.Decision, res.DecidedBy)
	}

	// A bad version is refused; a good one comes into force on both replicas.
	refused := logB.when("new user config refused")
	cfg.set("fallback = \"sometimes\"\n")
	<-refused
	reloaded := logB.when("user config reloaded")
	cfg.set(v2)
	<-reloaded
	// The new policy has its own breakers (its own scope), so make is judged by its rule.
	if res := decide(b, exec("make", "build")); res.Decision != riskmodel.Deny || !strings.Contains(res.DecidedBy, "no-make") {
		t.Fatalf("B after the reload: make is %s by %s, want deny by no-make", res.Decision, res.DecidedBy)
	}

	if code := stopA(); code != 0 {
		t.Errorf("A exited %d", code)
	}
	if code := stopB(); code != 0 {
		t.Errorf("B exited %d", code)
	}
	policies := map[string]int{}
	records := 0
	for _, path := range []string{logA, logPathB} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var rec struct {
				Policy    string
				DecidedBy string `json:"decided_by"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatal(err)
			}
			// The approval gate records a person's answer outside the pipeline, without the
			// policy's digest (it answers no policy); only the reviews are counted here.
			if strings.HasPrefix(rec.DecidedBy, "human:") {
				continue
			}
			policies[rec.Policy]++
			records++
		}
		f.Close()
	}
	if policies["sha256:"+sha(v1)] != 4 || policies["sha256:"+sha(v2)] != 1 {
		t.Errorf("records by policy = %v, want 4 under v1 (B's ask held for alice among them) and 1 under v2", policies)
	}
	otlp.mu.Lock()
	defer otlp.mu.Unlock()
	if otlp.exports == 0 {
		t.Errorf("no OTLP export reached the collector for %d records", records)
	}
}
