package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/sdk/resource"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/audit/auditotlp"
	"github.com/guardianhq/guardian/guardian/configsource"
	"github.com/guardianhq/guardian/guardian/redisstore"
	"github.com/guardianhq/guardian/guardian/server"
)

// teamFlags are the flags of guardian serve for running it as a team: shared state, a config
// from one place, reloaded.
type teamFlags struct {
	store        string
	configSHA256 string
	configPoll   time.Duration
}

// defaultConfigPoll is how often serve looks for a new version of its user config.
const defaultConfigPoll = 30 * time.Second

func (t *teamFlags) register(fl *pflag.FlagSet) {
	t.configPoll = defaultConfigPoll
	fl.StringVar(&t.store, "store", "", "where replicas share approvals, grants, breakers and cache: `local` (default) or redis://host:port/db (overrides [store] url)")
	fl.StringVar(&t.configSHA256, "config-sha256", "", "accept only the user config with this `SHA256` (hex), e.g. from a team's https URL")
	fl.DurationVar(&t.configPoll, "config-poll", t.configPoll, "look for a new version of the user config every `D` (0: never; read once at start)")
}

func (t *teamFlags) check() error {
	if _, err := guardian.CheckStoreURL(t.store); err != nil {
		return usageErrorf("serve: --store: %v", err)
	}
	if t.configPoll < 0 || (t.configPoll > 0 && t.configPoll < time.Second) {
		return usageErrorf("serve: --config-poll %s: want 0 (never) or at least 1s, e.g. 30s", t.configPoll)
	}
	return nil
}

// serveConfigSource returns where serve's user config comes from: --config (a file or an
// https URL), else $GUARDIAN_CONFIG, else the default path when the file exists; nil when
// there is none (the defaults, nothing to reload).
func (a *app) serveConfigSource(cmd *cobra.Command, t teamFlags) (*configsource.Source, error) {
	loc := ""
	if f := cmd.Flag("config"); f != nil && f.Changed {
		loc = a.configPath
	} else if p := a.getenv("GUARDIAN_CONFIG"); p != "" {
		loc = p
	} else if p := guardian.DefaultConfigPath(a.getenv); p != "" {
		if _, err := os.Stat(p); err == nil {
			loc = p
		}
	}
	if loc == "" {
		if t.configSHA256 != "" {
			return nil, usageErrorf("serve: --config-sha256 without a config: give --config URL or FILE")
		}
		return nil, nil
	}
	var opts []configsource.Option
	if t.configSHA256 != "" {
		opts = append(opts, configsource.WithSHA256(t.configSHA256))
	}
	src, err := configsource.New(loc, opts...)
	if err != nil {
		return nil, invalidError(err)
	}
	return src, nil
}

// loadServeConfig loads the first version of the user config.
func (a *app) loadServeConfig(ctx context.Context, src *configsource.Source) (configsource.Version, error) {
	if src == nil {
		return configsource.Version{Config: guardian.DefaultConfig()}, nil
	}
	v, err := src.Load(ctx)
	if err != nil {
		return configsource.Version{}, invalidError(err)
	}
	v.Config.Sources = []string{src.String()}
	return v, nil
}

// openStateStore opens the store --store or [store] url names; nil for local state. Redis
// not answering at start is logged, not fatal: the replica serves on its local state until
// Redis answers, as it would if Redis went away later.
func openStateStore(ctx context.Context, t teamFlags, cfg guardian.StoreConfig, log *slog.Logger) (*redisstore.Store, error) {
	url := cfg.URL
	if t.store != "" {
		url, _ = guardian.CheckStoreURL(t.store)
	}
	if url == "" {
		return nil, nil
	}
	opts := []redisstore.Option{redisstore.WithLogger(log)}
	if cfg.Prefix != "" {
		opts = append(opts, redisstore.WithPrefix(cfg.Prefix))
	}
	st, err := redisstore.New(url, opts...)
	if err != nil {
		return nil, invalidError(err)
	}
	pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := st.Ping(pctx); err != nil {
		log.Warn("state store not answering at start: serving on local state until it does", "err", err)
	}
	return st, nil
}

// storeOptions puts a pipeline's breakers and cache in st under a scope of its effective
// policy and agent home.
func storeOptions(st guardian.StateStore) func(guardian.Config, string) []guardian.Option {
	return func(cfg guardian.Config, home string) []guardian.Option {
		if st == nil {
			return nil
		}
		scope := cfg.PolicyVersion()
		if home != "" {
			scope += ":" + shortDigest(home)
		}
		return []guardian.Option{guardian.WithStateStore(st, scope)}
	}
}

// shortDigest is the first 16 hex digits of the SHA-256 of s.
func shortDigest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// openShipper starts the OTLP shipper [audit.otlp] asks for; nil without one. Header values
// "env:NAME" are read from the environment.
func (a *app) openShipper(ctx context.Context, o *guardian.AuditOTLPConfig, mp metric.MeterProvider, log *slog.Logger) (*auditotlp.Shipper, error) {
	if o == nil {
		return nil, nil
	}
	headers := map[string]string{}
	for k, v := range o.Headers {
		if name, ok := strings.CutPrefix(v, "env:"); ok {
			if v = a.getenv(name); v == "" {
				return nil, invalidError(fmt.Errorf("[audit.otlp] headers.%s reads $%s, which is not set: export it, or write the value", k, name))
			}
		}
		headers[k] = v
	}
	attrs := []attribute.KeyValue{attribute.String("service.name", "guardian")}
	if h, err := os.Hostname(); err == nil {
		attrs = append(attrs, attribute.String("host.name", h))
	}
	sh, err := auditotlp.NewHTTP(ctx, o.Endpoint, headers, o.Insecure, auditotlp.WithMeterProvider(mp), auditotlp.WithLogger(log),
		auditotlp.WithResource(resource.NewSchemaless(attrs...)))
	if err != nil {
		return nil, invalidError(err)
	}
	return sh, nil
}

// policyAuditor stamps every entry with the digest of the user config it was decided under.
type policyAuditor struct {
	next   guardian.Auditor
	digest string
}

func (p policyAuditor) Audit(ctx context.Context, e guardian.AuditEntry) error {
	e.Policy = p.digest
	return p.next.Audit(ctx, e)
}

// policyGen is one version of the user config in force: its pipelines, and the audited
// Decider over them that stamps its digest.
type policyGen struct {
	version   configsource.Version
	pipelines *projectPipelines
	decider   guardian.Decider
}

// reloadingDecider answers with the version in force. A review takes the version once, at its
// start, so its decision and its record name the same policy.
type reloadingDecider struct{ cur atomic.Pointer[policyGen] }

func (r *reloadingDecider) Decide(ctx context.Context, req guardian.Request, c guardian.Caller) (guardian.Result, error) {
	return r.cur.Load().decider.Decide(ctx, req, c)
}

// newPolicyGen compiles a version into pipelines and checks that the user config's pipeline
// builds, so a version that does not compile never comes into force.
func (a *app) newPolicyGen(v configsource.Version, aud guardian.Auditor, st guardian.StateStore) (*policyGen, error) {
	build, err := a.sharedReviewerBuild(v.Config, storeOptions(st))
	if err != nil {
		return nil, err
	}
	pp := newProjectPipelines(v.Config, a.getenv("HOME"), maxProjectPipelines, build)
	if _, err := pp.forDir(""); err != nil {
		pp.Close()
		return nil, invalidError(err)
	}
	return &policyGen{version: v, pipelines: pp, decider: guardian.Audited(pp, policyAuditor{aud, v.Digest}, time.Now)}, nil
}

// watchConfig polls src every interval until ctx ends, bringing each new good version into
// force. A version that does not load, does not compile or cannot build its pipelines is
// refused: the one in force stays, the error is logged and counted.
func (a *app) watchConfig(ctx context.Context, src *configsource.Source, interval time.Duration, rd *reloadingDecider,
	aud guardian.Auditor, st guardian.StateStore, mp metric.MeterProvider, log *slog.Logger) {
	reloads, err := mp.Meter("github.com/guardianhq/guardian/cmd/guardian").Int64Counter("guardian.config.reloads",
		metric.WithDescription("Polls of the user config that found a new version, by result: applied, or refused (the version in force stays)."),
		metric.WithUnit("{version}"))
	if err != nil {
		log.Warn("config reload metric", "err", err)
	}
	count := func(result string) {
		if reloads != nil {
			reloads.Add(ctx, 1, metric.WithAttributes(attribute.String("result", result)))
		}
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		v, err := src.Poll(ctx)
		if errors.Is(err, configsource.ErrUnchanged) || ctx.Err() != nil {
			continue
		}
		old := rd.cur.Load()
		if err == nil {
			v.Config.Sources = []string{src.String()}
			var gen *policyGen
			if gen, err = a.newPolicyGen(v, aud, st); err == nil {
				rd.cur.Store(gen)
				// Reviews still running on the old pipelines finish; Close drops their metric callbacks.
				old.pipelines.Close()
				count("applied")
				log.Info("user config reloaded", "config", src.String(), "policy", v.Digest, "was", old.version.Digest)
				if !reflect.DeepEqual(v.Config.Audit, old.version.Config.Audit) || v.Config.Store != old.version.Config.Store {
					log.Warn("the new config changes [audit] or [store]: those apply at the next restart", "config", src.String())
				}
				continue
			}
		}
		count("refused")
		log.Error("new user config refused: the version in force stays", "config", src.String(), "policy", old.version.Digest, "err", err)
	}
}

// openAuditFor opens the audit log of cfg, shipping each record to sh when there is one.
func (a *app) openAuditFor(cmd *cobra.Command, cfg guardian.Config, sh *auditotlp.Shipper) (*audit.Log, error) {
	if sh == nil {
		return a.openAudit(cmd, cfg)
	}
	return a.openAudit(cmd, cfg, audit.WithOnCommit(sh.Ship))
}

// teamAttrs are the start line's attributes for the team setup: the policy digest, the state
// store and the OTLP shipping.
func teamAttrs(v configsource.Version, st *redisstore.Store, sh *auditotlp.Shipper) []any {
	var attrs []any
	if v.Digest != "" {
		attrs = append(attrs, "policy", v.Digest)
	}
	if st != nil {
		attrs = append(attrs, "store", "redis "+st.Client().Options().Addr, "store_prefix", st.Prefix())
	} else {
		attrs = append(attrs, "store", "local")
	}
	if sh != nil {
		attrs = append(attrs, "audit_otlp", "on")
	}
	return attrs
}

// BreakerStates implements server.Breakers for the version in force.
func (r *reloadingDecider) BreakerStates() []server.ScopedBreakers {
	return r.cur.Load().pipelines.BreakerStates()
}

// ResetBreakers implements server.Breakers for the version in force (in the shared store
// too, when there is one).
func (r *reloadingDecider) ResetBreakers(which string) { r.cur.Load().pipelines.ResetBreakers(which) }
