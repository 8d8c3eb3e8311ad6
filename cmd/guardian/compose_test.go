package main

import (
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/guardianhq/guardian/guardian"
)

// composeFile is what TestComposeFile reads of deploy/docker-compose.yml.
type composeFile struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
		Ports       []string          `yaml:"ports"`
		Volumes     []string          `yaml:"volumes"`
		DependsOn   []string          `yaml:"depends_on"`
	} `yaml:"services"`
}

// TestComposeFile checks the team deployment example without docker (which does not run
// here): it parses, its replicas run guardian serve with flags that exist, listen where they
// publish, carry a token (they listen beyond loopback), reach Redis and the collector by
// service name, and mount a config that guardian accepts.
func TestComposeFile(t *testing.T) {
	dir := filepath.Join("..", "..", "deploy")
	b, err := os.ReadFile(filepath.Join(dir, "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var cf composeFile
	if err := yaml.Unmarshal(b, &cf); err != nil {
		t.Fatalf("docker-compose.yml does not parse: %v", err)
	}
	for _, name := range []string{"guardian-a", "guardian-b", "redis", "otel-collector"} {
		if _, ok := cf.Services[name]; !ok {
			t.Errorf("no service %s", name)
		}
	}
	serve := newApp(deps{getenv: func(string) string { return "" }}).serveCmd()
	root := newApp(deps{getenv: func(string) string { return "" }}).command()
	for _, name := range []string{"guardian-a", "guardian-b"} {
		s := cf.Services[name]
		if len(s.Command) == 0 || s.Command[0] != "serve" {
			t.Fatalf("%s: command %v, want serve …", name, s.Command)
		}
		flags := map[string]string{}
		for _, arg := range s.Command[1:] {
			k, v, ok := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
			if !strings.HasPrefix(arg, "--") || !ok {
				t.Errorf("%s: argument %q: want --flag=value", name, arg)
				continue
			}
			if serve.Flags().Lookup(k) == nil && root.PersistentFlags().Lookup(k) == nil {
				t.Errorf("%s: --%s is not a flag of guardian serve", name, k)
			}
			flags[k] = v
		}
		if _, err := guardian.CheckStoreURL(flags["store"]); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if u, err := url.Parse(flags["store"]); err == nil {
			if _, ok := cf.Services[u.Hostname()]; !ok {
				t.Errorf("%s: --store host %q is not a service", name, u.Hostname())
			}
		}
		_, port, err := net.SplitHostPort(flags["addr"])
		if err != nil {
			t.Fatalf("%s: --addr %q: %v", name, flags["addr"], err)
		}
		if len(s.Ports) != 1 || !strings.HasSuffix(s.Ports[0], ":"+port) || !strings.HasPrefix(s.Ports[0], "127.0.0.1:") {
			t.Errorf("%s: ports %v, want 127.0.0.1:HOST:%s (published on loopback; a load balancer goes in front)", name, s.Ports, port)
		}
		if tok := s.Environment[envToken]; !strings.Contains(tok, "GUARDIAN_TOKEN:?") {
			t.Errorf("%s: %s = %q, want it required from the environment (${GUARDIAN_TOKEN:?…}): serve refuses 0.0.0.0 without a token", name, envToken, tok)
		}
		mounted := false
		for _, v := range s.Volumes {
			if strings.HasSuffix(v, ":"+flags["config"]+":ro") {
				mounted = true
				src := strings.SplitN(v, ":", 2)[0]
				cfg, err := guardian.LoadConfig(filepath.Join(dir, src))
				if err != nil {
					t.Fatalf("%s: the mounted config: %v", name, err)
				}
				if cfg.Audit.OTLP == nil {
					t.Fatalf("%s: the mounted config ships no records over OTLP", name)
				}
				u, err := url.Parse(cfg.Audit.OTLP.Endpoint)
				if err != nil || u.Port() != "4318" {
					t.Errorf("endpoint %q: want the collector's OTLP/HTTP port 4318", cfg.Audit.OTLP.Endpoint)
				} else if _, ok := cf.Services[u.Hostname()]; !ok {
					t.Errorf("[audit.otlp] endpoint host %q is not a service", u.Hostname())
				}
			}
		}
		if !mounted {
			t.Errorf("%s: --config %s is not mounted read-only", name, flags["config"])
		}
	}
	col, err := os.ReadFile(filepath.Join(dir, "otelcol.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cc struct {
		Receivers struct {
			OTLP struct {
				Protocols struct {
					HTTP struct {
						Endpoint string `yaml:"endpoint"`
					} `yaml:"http"`
				} `yaml:"protocols"`
			} `yaml:"otlp"`
		} `yaml:"receivers"`
		Service struct {
			Pipelines map[string]struct {
				Receivers, Exporters []string
			} `yaml:"pipelines"`
		} `yaml:"service"`
	}
	if err := yaml.Unmarshal(col, &cc); err != nil {
		t.Fatalf("otelcol.yaml: %v", err)
	}
	if !strings.HasSuffix(cc.Receivers.OTLP.Protocols.HTTP.Endpoint, ":4318") {
		t.Errorf("collector OTLP/HTTP endpoint %q, want port 4318", cc.Receivers.OTLP.Protocols.HTTP.Endpoint)
	}
	if logs := cc.Service.Pipelines["logs"]; len(logs.Exporters) == 0 || logs.Exporters[0] != "debug" {
		t.Errorf("collector logs pipeline %+v, want it to print the records (debug exporter)", logs)
	}
}
